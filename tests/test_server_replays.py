"""A long finished game never holds the server up (docs/reliability.md, "The loop"): a game's
length is bounded whatever its options, its replay and record are streamed from the store as
they are worked out beside the loop, its table is brought back beside the loop, and the lobby
answers meanwhile. Against ``bestiary serve`` in its own process."""

from __future__ import annotations

import contextlib
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import orjson

from bestiary.core.game import get_game, redacted, replay
from bestiary.core.records import parse_lines
from bestiary.critters.info import MAX_EVENTS
from bestiary.server.lobby import KEPT_REPLAY_BYTES
from bestiary.server.store import Store
from tests.serverproc import ServerProcess

# 8 players on the largest deck a table takes (500 cards: 200 kinds of 2, seldom a full set):
# a random game goes on until the bound on a game's length ends it (before that bound, such
# games ran past 130,000 events), and its public views step by step come to some 100 MB.
DECK = {"kinds": {f"k{i:03d}": 2 for i in range(200)}, "wild": 3, "actions": {"hop_over": 97}}
PLAYERS = [f"p{i}" for i in range(8)]
CODE = "LONG22"
SHORT = "SHORT1"
MIB = 1024 * 1024


def long_game(seed: int, deck: Any = DECK) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    game = get_game("critters")
    options = {
        "stall_reshuffles": 1000,
        "hand_limit": 4,
        **({} if deck is None else {"deck": deck}),
    }
    state = game.new_game(PLAYERS, options, seed)
    game.random_playout(state, random.Random(seed), 1_000_000)
    assert state.summary()["over"]
    return state.header(), list(state.events())


def store_finished(
    db: str, header: dict[str, Any], events: list[dict[str, Any]], code: str = CODE
) -> None:
    """The game as the server stores a finished table (its seats bots, nobody's token)."""
    store = Store(db)
    store.save_table(
        {
            "code": code,
            "game": "critters",
            "options": {"rules": {}, "table": {}},
            "seats": [{"name": p, "bot": "random", "token_hash": None} for p in PLAYERS],
            "status": "finished",
            "header": header,
            "winners": [],
            "created": 1e9,
            "started": 1e9,
            "finished": 1e9 + 1,
        }
    )
    for seq, event in enumerate(events, start=1):
        store.append_event(code, seq, event)
    store.flush()
    store.close()


def bots_table(
    http: httpx.Client, deck: Any, bot_pause: float, bot: str = "random", seed: int | None = None
) -> str:
    """A critters table of ann and 7 ``bot``s on ``deck`` with stall_reshuffles 1000, ticks
    of 1 ms and ann's seat a bot's at once: it runs as fast as the server lets it. ``seed``
    (a server with ``allow_seeds``): the deal, else the server's own."""
    made = http.post(
        "/api/tables",
        json={
            "game": "critters",
            "seats": 8,
            "name": "ann",
            "options": {"deck": deck, "stall_reshuffles": 1000, "hand_limit": 4},
            "bots": [{"bot": bot}] * 7,
            "start": seed is None,
            "tick_seconds": 0.001,
            "bot_pause": bot_pause,
            "grace_seconds": 0,
        },
    )
    assert made.status_code == 201, made.text
    code = str(made.json()["code"])
    if seed is not None:
        started = http.post(
            f"/api/tables/{code}/start", json={"token": made.json()["token"], "seed": seed}
        )
        assert started.status_code == 200, started.text
    return code


@contextlib.contextmanager
def lobby_polled(url: str) -> Iterator[list[float]]:
    """``GET /api/games`` at ``url`` every 20 ms while inside: yields [its slowest answer]."""
    slowest, done = [0.0], threading.Event()

    def poll() -> None:
        with httpx.Client(base_url=url, timeout=60) as asking:
            while not done.is_set():
                start = time.monotonic()
                assert asking.get("/api/games").status_code == 200
                slowest[0] = max(slowest[0], time.monotonic() - start)
                time.sleep(0.02)

    polling = threading.Thread(target=poll)
    polling.start()
    try:
        yield slowest
    finally:
        done.set()
        polling.join()


def rss(pid: int) -> float:
    """A process's resident memory in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS"):
            return int(line.split()[1]) / 1024
    return 0.0


class Streamed:
    """What a streamed replay came to, kept in bounded memory: its size, its first bytes, its
    last bytes (the summary, header and events) and how many frames it sent."""

    def __init__(self, answer: httpx.Response, keep: int = 4 * MIB) -> None:
        self.size, self.frames, self.head, self.tail = 0, 0, b"", b""
        carry = b""
        for chunk in answer.iter_bytes():
            self.size += len(chunk)
            if len(self.head) < 4096:
                self.head += chunk[:4096]
            seen = carry + chunk
            self.frames += seen.count(b'{"event":')
            carry = seen[-8:]  # a frame's start split across two chunks is counted once
            self.frames -= carry.count(b'{"event":')
            self.tail = (self.tail + chunk)[-keep:]
        self.frames += carry.count(b'{"event":')

    def ending(self) -> dict[str, Any]:
        """The replay's summary, header and events (all after its last frame)."""
        at = self.tail.rfind(b'],"summary":')
        assert at >= 0, "the replay's end came whole"
        parsed: dict[str, Any] = orjson.loads(b"{" + self.tail[at + 2 :])
        return parsed


def test_a_game_at_its_length_bound_is_streamed_while_the_lobby_answers(tmp_path: Path) -> None:
    header, events = long_game(seed=0)
    assert MAX_EVENTS <= len(events) < MAX_EVENTS + 100
    assert events[-1]["ending"] == "stalled"
    short_header, short_events = long_game(seed=1, deck=None)
    db = f"sqlite:///{tmp_path / 'db.sqlite'}"
    store_finished(db, header, events)
    store_finished(db, short_header, short_events, SHORT)
    with ServerProcess(db, tmp_path / "log") as server, server.http() as http:
        assert server.process is not None
        pid = server.process.pid
        before = rss(pid)
        peak = before
        with lobby_polled(server.url) as slowest:
            sizes = []
            for _ in range(2):  # too large to keep in the cache: streamed anew, the same
                with http.stream("GET", f"/api/tables/{CODE}/replay", timeout=120) as answer:
                    assert answer.status_code == 200
                    assert answer.headers["content-type"] == "application/json"
                    got = Streamed(answer)
                peak = max(peak, rss(pid))
                assert got.size > 8 * KEPT_REPLAY_BYTES  # far more than the cache keeps
                assert got.head.startswith(
                    orjson.dumps({"code": CODE, "game": "critters", "players": PLAYERS})[:-1]
                    + b',"frames":[{"event":null,"view":'
                )
                assert got.frames == 1 + len(events)  # the deal, then each event
                end = got.ending()
                assert end["header"] == header and end["events"] == events
                assert end["summary"]["over"] and end["summary"]["winners"]
                sizes.append(got.size)
            assert sizes[0] == sizes[1]
            with http.stream("GET", f"/api/tables/{CODE}/record", timeout=60) as answer:
                assert answer.status_code == 200
                assert answer.headers["content-type"].startswith("text/plain")
                record = answer.read().decode()
            assert parse_lines(record.splitlines()) == (
                header,
                [(n, e) for n, e in enumerate(events, start=2)],
            )
            table = http.get(f"/api/tables/{CODE}", timeout=60)
            assert table.status_code == 200 and table.json()["status"] == "finished"
            assert table.json()["seq"] == len(events)
            peak = max(peak, rss(pid))
        # a short game's replay, whole: its frames are the game's public views step by step,
        # and it is kept, so the second answer is the first, byte for byte
        first = http.get(f"/api/tables/{SHORT}/replay")
        assert first.status_code == 200
        replayed = first.json()
        game = get_game("critters")
        state = replay(short_header, [])
        assert replayed["frames"][0] == {"event": None, "view": state.view(None)}
        for frame, event in zip(replayed["frames"][1:], short_events, strict=True):
            state.apply(game.action_from_event(event))
            assert frame == {"event": redacted(state, [event], None)[0], "view": state.view(None)}
        assert replayed["summary"] == state.summary()
        assert http.get(f"/api/tables/{SHORT}/replay").content == first.content
        assert http.get("/api/tables/NOSUCH/replay").status_code == 404
        assert http.get("/api/tables/NOSUCH/record").status_code == 404
    print(
        f"{len(events)} events, replay {sizes[0] / MIB:.1f} MiB; slowest lobby answer meanwhile"
        f" {slowest[0]:.3f} s; RSS {before:.0f} -> {peak:.0f} MiB"
    )
    assert slowest[0] < 1.0
    assert peak - before < 200  # a chunk at a time (before: RSS grew by the replay's size)


SEEDS = (1, 2, 3, 4, 5)
# 150 kinds of 2 cards and 3 wilds: a win takes all three wilds, so greedy bots go round and round
STUCK = {"kinds": {f"k{i:03d}": 2 for i in range(150)}, "wild": 3, "actions": {"hop_over": 20}}


def test_a_table_at_full_speed_ends_at_the_bound_on_a_game_s_length(tmp_path: Path) -> None:
    """Options cannot lift a game's length past its bound: 8 random bots at full speed on a deck
    that goes round for ever (before the bound: 150,152 moves in 150 s, and on)."""
    db = f"sqlite:///{tmp_path / 'db.sqlite'}"
    limits = "tables_per_minute=1000, seats_per_address=1000, allow_seeds=True"
    with ServerProcess(db, tmp_path / "log", server=limits) as server, server.http() as http:
        # chosen deals where greedy bots never gather the three wilds a win takes: each table
        # ends at the bound, none past it
        codes = [bots_table(http, STUCK, bot_pause=0, bot="greedy", seed=seed) for seed in SEEDS]
        deadline = time.monotonic() + 300
        lengths = []
        for code in codes:
            while (table := http.get(f"/api/tables/{code}").json())["status"] != "finished":
                assert time.monotonic() < deadline, f"still playing at seq {table['seq']}"
                time.sleep(0.5)
            record = http.get(f"/api/tables/{code}/record").text.splitlines()
            header, events = parse_lines(record)
            assert len(events) == table["seq"] and len(events) < MAX_EVENTS + 100
            assert header["options"]["stall_reshuffles"] == 1000
            if len(events) >= MAX_EVENTS:
                assert events[-1][1]["ending"] == "stalled"
            lengths.append(len(events))
        print(f"lengths {lengths}")
        assert min(lengths) >= MAX_EVENTS
        critters = next(g for g in http.get("/api/games").json() if g["name"] == "critters")
        assert f"{MAX_EVENTS:,} events" in critters["endings"]["stalled"]
