"""The live table is the core's one driver on a clock: stepped by a fake clock at the ticks the
simulator counts, a seeded all-bot table plays exactly the game ``bestiary sim`` plays, and
stores and sends exactly what it played. Bots' timing never tells their hand."""

from __future__ import annotations

import asyncio
import heapq
import itertools
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import orjson
import pytest

from bestiary.core.agent import register_bot
from bestiary.core.driver import Pace
from bestiary.server.connection import Connection
from bestiary.server.store import Store
from bestiary.server.table import Table, TableClock, TableSettings, hash_token
from bestiary.sim.runner import GameSpec, play_game, start_match

WILD_LINE_UP = ("random", "honest", "hunter", "trickster")


class FakeHandle:
    def __init__(self, at: float, callback: Callable[[], None]) -> None:
        self.at = at
        self.callback = callback
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class FakeClock(TableClock):
    """Time that moves only when the test steps it, to the next timer."""

    def __init__(self) -> None:
        self.t = 0.0
        self._timers: list[tuple[float, int, FakeHandle]] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self.t

    def later(self, delay: float, callback: Callable[[], None]) -> FakeHandle:
        handle = FakeHandle(self.t + max(0.0, delay), callback)
        heapq.heappush(self._timers, (handle.at, next(self._order), handle))
        return handle

    def step(self) -> bool:
        """Jump to the next live timer and fire it; False when none is left."""
        while self._timers:
            at, _, handle = heapq.heappop(self._timers)
            if not handle.cancelled:
                self.t = max(self.t, at)
                handle.callback()
                return True
        return False


class Watcher(Connection):
    """A connection that keeps every message it is sent."""

    def __init__(self, clock: FakeClock | None = None) -> None:
        super().__init__(None)
        self.clock = clock
        self.messages: list[dict[str, Any]] = []
        self.received_at: list[float] = []

    def send_text(self, text: bytes) -> None:
        self.messages.append(orjson.loads(text))
        self.received_at.append(self.clock.now() if self.clock else 0.0)


async def settle(table: Table) -> None:
    """Wait (in real time) until the table has thought, committed and sent everything."""
    for _ in range(20_000):
        if table.quiet():
            return
        await asyncio.sleep(0.001)
    raise TimeoutError("the table never settled")


async def run_table(
    db: Path, game: str, bots: tuple[str, ...], seed: int, options: dict[str, Any]
) -> tuple[Table, Watcher, FakeClock, Store]:
    """An all-bot table dealt from ``seed``, played to the end by a fake clock."""
    store = Store(f"sqlite:///{db}")
    writer = asyncio.get_running_loop().create_task(store.run_writer())
    clock = FakeClock()
    table = Table("FAKECL", game, options, len(bots), store, TableSettings(), clock)
    spec = GameSpec(0, game, bots, seed)
    for seat, bot, player in zip(table.seats, bots, spec.players, strict=True):
        seat.name, seat.bot = player, bot
    table.start_actor()
    watcher = Watcher()
    await table.ask(lambda: table.attach(watcher, None, 1))
    await table.ask(lambda: table.begin(seed))
    for _ in range(100_000):
        await settle(table)
        if table.status == "finished" or not clock.step():
            break
    await settle(table)
    await table.stop()
    writer.cancel()
    return table, watcher, clock, store


def stored_events(store: Store, code: str) -> list[dict[str, Any]]:
    found = store.get(code)
    assert found is not None
    return found.events


@pytest.fixture
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    running = asyncio.new_event_loop()
    yield running
    running.close()


@pytest.mark.parametrize("seed", [3, 11])
def test_a_fake_clock_table_plays_the_simulators_game(
    tmp_path: Path, loop: asyncio.AbstractEventLoop, seed: int
) -> None:
    options = {"nightfall_seconds": 20}
    spec = GameSpec(0, "wild", WILD_LINE_UP, seed, options, keep_record=True)
    result = play_game(spec)
    assert result.record is not None
    simulated = [orjson.loads(line) for line in result.record[1:]]
    table, watcher, clock, store = loop.run_until_complete(
        run_table(tmp_path / "fake.sqlite", "wild", WILD_LINE_UP, seed, options)
    )
    served = stored_events(store, "FAKECL")
    assert table.status == "finished"
    assert [{k: v for k, v in e.items() if k != "t"} for e in served] == simulated
    # the same deal, and the clock ran exactly the simulator's ticks
    header = orjson.loads(result.record[0])
    state = table.state
    assert state is not None
    assert {k: header[k] for k in state.header()} == state.header()
    match = start_match(spec)
    match.play()
    assert clock.now() == pytest.approx(match.tick * TableSettings().tick_seconds)
    assert served[-1]["t"] == pytest.approx(match.tick * TableSettings().tick_seconds)
    # what the spectator was sent is the store's record, event for event, redacted for it
    seen = [e for m in watcher.messages if m["type"] == "state" for e in m["events"]]
    assert seen == [state.redact({k: v for k, v in e.items() if k != "t"}, None) for e in served]
    assert [m["seq"] for m in watcher.messages if m["type"] == "state"][-1] == len(served)
    store.close()


ACTION_CARDS = ("ultimate_collector", "hop_over", "game_changer")
PONDER: list[FakeClock] = []


class Ponderer:
    """A critters test bot that thinks long (on the fake clock) exactly when it holds NO!, as
    a search bot does: answered at once, its timing would tell its hand."""

    def __init__(self, player: str, rng: random.Random) -> None:
        self.player = player

    def act(self, view: Mapping[str, Any], legal: Sequence[Any]) -> Any | None:
        if any(a.to_event()["do"] == "no" for a in legal):
            PONDER[-1].t += 0.3  # 0.3 s of search, within its registered 0.5 s
        return legal[0] if legal else None


register_bot(
    "critters", "test-ponder", "Test bot: thinks long when it holds NO!.", rank=-1, seconds=0.5
)(Ponderer)


async def answer_times(db: Path, seed: int) -> dict[bool, list[float]]:
    """Seconds from ann's action card to the bot's answer, by whether the bot held NO!."""
    store = Store(f"sqlite:///{db}")
    writer = asyncio.get_running_loop().create_task(store.run_writer())
    clock = FakeClock()
    PONDER.append(clock)
    table = Table("PONDER", "critters", {}, 2, store, TableSettings(), clock)
    ann, bot = table.seats
    ann.name, ann.token_hash = "ann", hash_token("ann-token")
    bot.name, bot.bot = "bo", "test-ponder"
    table.start_actor()
    sock = Watcher(clock)
    await table.ask(lambda: table.begin(seed))
    await table.ask(lambda: table.attach(sock, "ann-token", 1))
    times: dict[bool, list[float]] = {True: [], False: []}
    asked: tuple[float, bool] | None = None
    done = 0
    for _ in range(5_000):
        await settle(table)
        state = table.state
        assert state is not None
        latest = [m for m in sock.messages if m["type"] == "state"][-1]
        if asked is not None and any(
            e.get("by") == "bo" and e["do"] in ("no", "allow") for e in latest["events"]
        ):
            times[asked[1]].append(round(sock.received_at[-1] - asked[0], 6))
            asked = None
        if latest["over"]:
            break
        legal = latest["legal"] if latest["seq"] == table.seq else []
        if legal and asked is None:
            cards = [a for a in legal if a["do"] in ACTION_CARDS]
            calm = [a for a in legal if a["do"] == "allow"] or legal
            chosen = (cards or calm)[0]
            done += 1
            await table.ask(partial(table.act, sock, chosen, done))
            await settle(table)
            if cards and state.actors == ("bo",):
                holds = any(a.to_event()["do"] == "no" for a in state.legal_actions("bo"))
                asked = (sock.received_at[-1], holds)
            continue
        if not clock.step():
            break
    await table.stop()
    writer.cancel()
    store.close()
    return times


def test_a_bots_answer_time_does_not_tell_whether_it_holds_no(
    tmp_path: Path, loop: asyncio.AbstractEventLoop
) -> None:
    times: dict[bool, list[float]] = {True: [], False: []}
    for seed in range(12):
        found = loop.run_until_complete(answer_times(tmp_path / f"p{seed}.sqlite", seed))
        for holds, seen in found.items():
            times[holds].extend(seen)
    assert times[True] and times[False], times
    pause = Pace().turn_pause_ticks * TableSettings().tick_seconds
    # with NO! (0.3 s of thought) or with only `allow` legal: answered at the same tick
    assert set(times[True]) == set(times[False]) == {round(pause, 3)}


class RunningClock(FakeClock):
    """A fake clock that also moves a little each time it is read, as a real one does: a tick
    can fall due between two readings of one job."""

    def now(self) -> float:
        self.t += 0.0007
        return self.t


async def play_against_bots(
    db: Path, game: str, bots: tuple[str, ...], seed: int, moves: int, options: dict[str, Any]
) -> tuple[Table, Store, Watcher]:
    """ann (a socket) and ``bots`` on a running clock; ann plays up to ``moves`` actions."""
    store = Store(f"sqlite:///{db}")
    writer = asyncio.get_running_loop().create_task(store.run_writer())
    clock = RunningClock()
    # no turn clock: ann's moves are the test's own (seed 1's reshuffle follows one of them)
    settings = TableSettings(tick_seconds=0.002, turn_seconds=None)
    table = Table("RUNCLK", game, options, 1 + len(bots), store, settings, clock)
    ann, *others = table.seats
    ann.name, ann.token_hash = "ann", hash_token("ann-token")
    for seat, bot in zip(others, bots, strict=True):
        seat.name, seat.bot = f"{bot}-{seat.index}", bot
    table.start_actor()
    sock = Watcher(clock)
    await table.ask(lambda: table.attach(sock, "ann-token", 1))
    await table.ask(lambda: table.begin(seed))
    rng = random.Random(seed)
    for done in range(moves):
        await settle(table)
        if table.status == "finished":
            break
        latest = [m for m in sock.messages if m["type"] == "state"][-1]
        if latest["legal"]:
            meets = [a for a in latest["legal"] if a["do"] == "meet"]
            chosen = rng.choice(meets or latest["legal"])
            await table.ask(partial(table.act, sock, chosen, done))
        elif not clock.step():
            break
        clock.step()  # the bots' next decisions
    await settle(table)
    await table.stop()
    writer.cancel()
    return table, store, sock


@pytest.mark.parametrize(
    ("game", "bots", "seed", "options"),
    [
        ("wild", ("random", "honest", "hunter"), 4, {}),
        # Seed 1 has a reshuffle right after one of ann's moves (the driver's chance, after a
        # person's action: it used to be played but never stored nor sent).
        ("critters", ("random", "random"), 1, {"set_size": 4}),
    ],
)
def test_every_event_the_table_plays_is_stored_and_sent(
    tmp_path: Path,
    loop: asyncio.AbstractEventLoop,
    game: str,
    bots: tuple[str, ...],
    seed: int,
    options: dict[str, Any],
) -> None:
    table, store, sock = loop.run_until_complete(
        play_against_bots(tmp_path / "run.sqlite", game, bots, seed, 600, options)
    )
    state = table.state
    assert state is not None
    played = [dict(e) for e in state.events()]
    # the table's own marks (its time; "timeout" on the answer its clock gave) are not the
    # engine's
    marks = ("t", "timeout")
    stored = [
        {k: v for k, v in e.items() if k not in marks} for e in stored_events(store, "RUNCLK")
    ]
    assert stored == played
    if game == "critters":
        assert any(e["do"] == "reshuffle" for e in played)
    # and ann was sent every one of them, in order (a reshuffle without its order)
    sent = [e for m in sock.messages if m["type"] == "state" for e in m["events"]]
    sent = [{k: v for k, v in e.items() if k not in marks} for e in sent]
    assert sent == [state.redact(e, "ann") for e in played]
    store.close()


async def back_on_her_turn(db: Path) -> tuple[Table, Watcher, list[dict[str, Any]]]:
    """ann starts a critters game against a bot and comes late: her stand-in (grace over) has
    moved for her and holds her seat when she connects on her turn. Returns the table, her
    socket and the events played for her after she came back."""
    store = Store(f"sqlite:///{db}")
    writer = asyncio.get_running_loop().create_task(store.run_writer())
    clock = FakeClock()
    settings = TableSettings(grace_seconds=0.05, turn_seconds=0.2)
    table = Table("LATEAN", "critters", {}, 2, store, settings, clock)
    ann, bot = table.seats
    ann.name, ann.token_hash = "ann", hash_token("ann-token")
    bot.name, bot.bot = "bo", "greedy"
    table.start_actor()
    await table.ask(lambda: table.start("ann-token", 7))
    sock = Watcher(clock)
    for _ in range(5_000):  # to ann's turn after one her stand-in played
        await settle(table)
        state = table.state
        assert state is not None and table.status == "playing"
        stood_in = any(e.get("by") == "ann" for e in state.events())
        if ann.agent is not None and stood_in and state.actors == ("ann",):
            break
        assert clock.step()
    await table.ask(lambda: table.attach(sock, "ann-token", 1))

    def hers() -> list[dict[str, Any]]:
        sent = [e for m in sock.messages if m["type"] == "state" for e in m["events"]]
        return [e for e in sent if e.get("by") == "ann"]

    for _ in range(5_000):  # ann stays silent: her clock runs out (or nothing is left to run)
        await settle(table)
        if table.status != "playing" or hers() or not clock.step():
            break
    await table.stop()
    writer.cancel()
    store.close()
    return table, sock, hers()


def test_a_person_back_on_her_turn_sees_her_clock_and_it_runs(
    tmp_path: Path, loop: asyncio.AbstractEventLoop
) -> None:
    table, sock, hers = loop.run_until_complete(back_on_her_turn(tmp_path / "late.sqlite"))
    first = next(m for m in sock.messages if m["type"] == "state")
    assert first["view"]["turn"] == "ann" and not first["view"]["awaiting"]
    assert table.seats[0].agent is None  # the stand-in stepped aside
    assert first["timers"]["turn"] == 0.2  # her turn, shown with its clock, a whole turn
    assert hers and all(e.get("timeout") is True for e in hers)  # and it runs out


async def clock_started_again(db: Path) -> tuple[float, list[float]]:
    """ann (connected) against a bot, on a fake clock, with a 0.2 s turn clock: on her turn,
    0.15 s in, her clock starts again (as every event at her table starts it), and she stays
    silent. Returns when her turn began and when each move made for her was sent."""
    store = Store(f"sqlite:///{db}")
    writer = asyncio.get_running_loop().create_task(store.run_writer())
    clock = FakeClock()
    table = Table("AGAIN1", "critters", {}, 2, store, TableSettings(turn_seconds=0.2), clock)
    ann, bot = table.seats
    ann.name, ann.token_hash = "ann", hash_token("ann-token")
    bot.name, bot.bot = "bo", "greedy"
    table.start_actor()
    sock = Watcher(clock)
    await table.ask(lambda: table.attach(sock, "ann-token", 1))
    await table.ask(lambda: table.start("ann-token", 7))
    for _ in range(5_000):  # to ann's turn, her turn clock running
        await settle(table)
        state = table.state
        assert state is not None and table.status == "playing"
        if state.actors == ("ann",) and table.turn.due is not None:
            break
        assert clock.step()
    began = clock.now()
    clock.t = began + 0.15
    await table.ask(table._turn_clock)
    timed: list[float] = []
    for _ in range(5_000):  # ann stays silent: her clock runs out, from its new start
        await settle(table)
        timed = [
            at
            for m, at in zip(sock.messages, sock.received_at, strict=True)
            if m["type"] == "state" and any(e.get("by") == "ann" for e in m["events"])
        ]
        if timed or table.status != "playing" or not clock.step():
            break
    await table.stop()
    writer.cancel()
    store.close()
    return began, timed


def test_a_turn_clock_started_again_runs_its_whole_time_from_then(
    tmp_path: Path, loop: asyncio.AbstractEventLoop
) -> None:
    # its one timer, set for the first start, rings early and waits out the rest
    began, timed = loop.run_until_complete(clock_started_again(tmp_path / "again.sqlite"))
    assert timed and timed[0] == pytest.approx(began + 0.15 + 0.2)
