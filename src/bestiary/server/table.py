"""One table: its seats, its connections, and the actor that alone owns the game.

Everything that touches a table goes through its inbox (:meth:`Table.post` / :meth:`Table.ask`)
and runs, one item at a time, in the table's own task. The game itself is played by the core's
one driver (``bestiary.core.driver.Match``), which the table drives with its clock: wall time
becomes ticks (``tick = elapsed / pace.tick_seconds``), one timer waits for ``match.next_due()``
(bots, chance, the quiet clock, answer clocks), people's actions go in through ``match.submit``
and a stand-in is a bot the match is given for an absent player's seat. The table numbers the
events (``seq``), stamps them (``t``, seconds of play), has the store commit them, and only then
sends every seat its own view of them (``core.game.redacted``) and every spectator the public one.

Bots that think (registered with a thinking time: the search bots) think off the event loop, in
a worker thread, so that a table of them does not hold up every other table. While a table's
bots think or its events are being committed, the jobs that would touch its game wait their
turn (in order) rather than run beside them.

The table is made of parts that each do one job, over one state and one actor
(``table_core``): its seats (``seating``), who is connected (``presence``), what it sends
(``table_messages``), its clocks (``table_clocks``) and the commit path with its storage pauses
(``commits``); ``Table`` composes them with the lobby's rows and the play itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

from bestiary.core.agent import Agent, bot_entries, make_bot
from bestiary.core.driver import Match, Played
from bestiary.core.game import replay
from bestiary.server.commits import Commits
from bestiary.server.connection import Connection
from bestiary.server.presence import Presence
from bestiary.server.protocol import error_message
from bestiary.server.seating import Seating, check_bot
from bestiary.server.seats import Seat, hash_token
from bestiary.server.store import Store, StoredTable, quick_switches
from bestiary.server.table_clocks import Clocks
from bestiary.server.table_core import MOVES_PER_TURN, STORAGE_DOWN, TableError, _sentence, log
from bestiary.server.table_messages import Messages
from bestiary.server.table_settings import TableClock, TableSettings
from bestiary.sim.runner import derive_seeds

__all__ = [
    "Table",
    "TableClock",
    "TableError",
    "TableSettings",
    "_sentence",
    "check_bot",
    "hash_token",
]

# Bots think here, off the event loop. Two threads: a second table's bots need not queue
# behind a long search (the GIL shares one core between them and the loop either way).
_THINKERS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="bots")


def _think(match: Match, to_tick: int) -> list[Played]:
    quick_switches()
    return match.advance(to_tick, MOVES_PER_TURN)


class Table(Seating, Presence, Messages, Clocks, Commits):
    """A table in the lobby, then a game in play, then a finished record."""

    async def stop(self) -> None:
        for seat in self.seats:
            if seat.grace:
                seat.grace.cancel()
        self._cancel_timer()
        self._stop_turn_clock()
        self.store.unwatch(self._storage)
        if self._task:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def info(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "game": self.game_name,
            "options": self.options,
            "settings": self.settings.as_json(),
            "status": self.status,
            "seats": [self._seat_json(s) for s in self.seats],
            "seq": self.seq,
            "winners": self.state.winners() if self.state and self.state.is_over else [],
            "created": self.created,
            "halted": self.halted,
        }

    def expire(self) -> bool:
        """An open table nobody joined or started in time goes away; False if it has moved on."""
        if self.status != "open":
            return False
        self.status = "expired"
        self._lobby_changed()
        for conn in self.all_connections():
            conn.close()
        return True

    def start(self, token: str, seed: int | None = None) -> None:
        """Deal and begin: only the host (seat 0) may, once every seat is filled."""
        self._require_open()
        if self._seat_of(token).index != 0:
            raise TableError("only the host (the first seat) can start the game.")
        if any(s.is_open for s in self.seats):
            raise TableError("every seat must be filled (by a player or a bot) before starting.")
        self.begin(seed)
        for seat in self.seats:
            if not seat.connections:
                self._seat_left(seat)  # a player who never came gets a stand-in in time too

    def _lobby_changed(self) -> None:
        self.touched = time.monotonic()
        self._save_table()
        self._announce()

    def row(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "game": self.game_name,
            "options": {"rules": self.options, "table": self.settings.as_json()},
            "seats": [s.stored() for s in self.seats],
            "status": self.status,
            "header": self.state.header() if self.state else None,
            "winners": self.state.winners() if self.state and self.state.is_over else None,
            "created": self.created,
            "started": self.started,
            "finished": self.finished,
        }

    def _save_table(self) -> None:
        if self.draft:
            return
        self.store.save_table(self.row())
        if self.on_change:
            self.on_change(self)

    @classmethod
    def restore(cls, stored: StoredTable, store: Store) -> Table:
        """Rebuild a table from the store: a game in play is replayed from its record."""
        options = stored.options.get("rules", {})
        settings = TableSettings.from_json(stored.options.get("table", {}))
        table = cls(stored.code, stored.game, options, len(stored.seats), store, settings)
        table.status, table.created = stored.status, stored.created
        table.started, table.finished = stored.started, stored.finished
        for seat, saved in zip(table.seats, stored.seats, strict=True):
            seat.name, seat.bot, seat.token_hash = saved["name"], saved["bot"], saved["token_hash"]
            seat.address = saved.get("address")
        if stored.header is not None and stored.status != "open":
            lines = [(number + 2, ev) for number, ev in enumerate(stored.events)]
            table.state = replay(stored.header, lines)
            table.seq = len(stored.events)
            last = stored.events[-1].get("t") if stored.events else None
            table._t_offset = float(last) if isinstance(last, int | float) else 0.0
        return table

    def resume(self) -> None:
        """After a restart: the driver picks up where the game was (bots, timers, stand-ins).

        A game that cannot go on (a bot that cannot be seated again, a driver that fails) is
        halted and reported, never retried in a loop."""
        if self.status == "playing" and self.state is not None:
            try:
                self._begin_play()
            except Exception as err:
                self._halt(f"it could not be resumed after a restart ({_sentence(err)})")
                return
            for seat in self.seats:
                if seat.bot is None:
                    self._seat_left(seat)

    def _halt(self, why: str) -> None:
        """Stop this table's play for good (logged, told to every socket, shown in its info):
        its clock stops and nothing it does runs again; every other table plays on."""
        if self.halted is not None:
            return
        self.halted = why
        self._cancel_timer()
        log.error("table %s: halted: %s", self.code, why)
        self._tell(error_message("halted", f"this game is halted: {why}"))

    def begin(self, seed: int | None = None) -> None:
        """Deal and play, every seat being filled (``start`` once the host may start).

        ``seed`` is the operator's (a server setting) or a test's own; None: a secret one.
        """
        try:
            self._deal(seed)
        except ValueError as err:
            raise TableError(str(err)) from None
        self.status = "playing"
        self.started = time.time()
        self._lobby_changed()
        self._begin_play()

    def _deal(self, seed: int | None) -> None:
        """Deal the game. One seed (the operator's, else a secret one) gives the deal, the
        table's own draws and each bot's, derived as ``bestiary sim`` derives a game's."""
        players = [s.name or "" for s in self.seats]
        chosen = secrets.randbits(63) if seed is None else seed
        deal, table, bots = derive_seeds(chosen, len(players))
        self.state = self.game.new_game(players, self.options, deal)
        self._seeds = (table, bots)

    def _begin_play(self) -> None:
        """Seat the bots and start the driver's clock (a new deal, or a restored game)."""
        state = self.state
        assert state is not None
        table_seed, bot_seeds = self._seeds
        agents: dict[str, Agent] = {}
        for seat in self.seats:
            if seat.bot is not None and seat.name is not None:
                seed = bot_seeds[seat.index] if bot_seeds else secrets.randbits(63)
                seat.agent = make_bot(self.game_name, seat.bot, seat.name, seed)
                seat.agent_name = seat.bot
                agents[seat.name] = seat.agent
        before = len(state.history)
        self.match = Match(self.game, state, agents, seed=table_seed, pace=self.pace, strict=False)
        self._t0 = self.clock.now()
        self._set_lead()
        drawn = state.events()[before:]  # chance the driver drew as play began
        self._publish([Played(0, None, drawn)], None, None, always=True)

    def _seat_agent(self, seat: Seat, name: str | None) -> None:
        """Give ``seat`` to bot ``name`` (a stand-in), or back to its player (None)."""
        if name is None or seat.name is None:
            seat.agent = seat.agent_name = None
        else:
            seat.agent = make_bot(self.game_name, name, seat.name, secrets.randbits(63))
            seat.agent_name = name
        if self.match is not None and seat.name is not None:
            self.match.set_agent(seat.name, seat.agent)
        if self.state is not None and seat.name in self.state.actors:
            self._turn_clock()  # her move changed hands: a person's clock starts, a bot's stops
        self._set_lead()
        self._arm()

    def _set_lead(self) -> None:
        """A decision starts this long before its tick: the slowest seated bot's thinking time
        (within the budget), so that its answer is sent at its tick, as fast as the hand that
        leaves one legal move: timing never tells what a bot holds."""
        thinking = {e.name: e.seconds for e in bot_entries(self.game_name)}
        slowest = max((thinking.get(s.agent_name or "", 0.0) for s in self.seats), default=0.0)
        self._lead = min(self._budget(), slowest)

    def _budget(self) -> float:
        return self.settings.budget(self.game.info.real_time)

    def act(self, conn: Connection, event: dict[str, Any], ref: int | str | None) -> None:
        """An action message from a socket (run inside the actor)."""
        if conn.seat is None:
            conn.send(error_message("not_seated", "spectators cannot act.", ref))
            return
        seat = self.seats[conn.seat]
        if self.state is None or seat.name is None:
            conn.send(error_message("not_started", "the game has not started yet.", ref))
            return
        by = event.get("by", seat.name)
        if by != seat.name:
            conn.send(error_message("wrong_seat", f"you play {seat.name}, not {by!r}.", ref))
            return
        event["by"] = seat.name  # the socket's own message: nothing else holds it
        try:
            action = self.game.action_from_event(event)
        except (ValueError, KeyError, TypeError) as err:
            conn.send(error_message("bad_action", _sentence(err), ref))
            return
        if self.paused is not None:
            conn.send(error_message("storage", STORAGE_DOWN, ref))
            return
        if self.halted is not None:
            conn.send(error_message("halted", f"this game is halted: {self.halted}", ref))
            return
        if self.match is None or self.status != "playing":
            conn.send(error_message("illegal", "the game is not in play.", ref))
            return
        if not self._may_run():
            self._keep(partial(self.act, conn, event, ref))
            return
        if getattr(action, "by", None) != seat.name:
            conn.send(error_message("illegal", "only the table can do that.", ref))
            return
        try:
            events = self.match.submit(seat.name, action)
        except ValueError as err:  # IllegalAction: the rules' own reason
            conn.send(error_message("illegal", _sentence(err), ref))
            return
        played = Played(self.match.tick, seat.name, events)
        self._publish([played], seat.index, ref, t=self._game_time())

    def _due(self) -> None:
        """The timer: the driver runs what is due (bots' decisions); in a worker thread when a
        seated bot is registered as one that thinks (``seconds``), else at once."""
        due, match = self._next_due(), self.match
        if due is None or match is None:
            return
        if self._due_at(due) > self.clock.now() + 1e-3:
            self._arm()  # a timer from before a change: what is due now is later
            return
        to_tick = max(due, self._now_tick())
        self._busy = "thinking"
        if self._lead <= 0:  # cheap bots: a thread hop would cost more than their thinking
            run = partial(match.advance, to_tick, MOVES_PER_TURN)
            self._thought(to_tick, self._advance(run, to_tick))
            return
        thinking = asyncio.get_running_loop().run_in_executor(_THINKERS, _think, match, to_tick)
        thinking.add_done_callback(
            lambda done: self.post(
                partial(self._thought, to_tick, self._advance(done.result, to_tick))
            )
        )

    def _advance(self, run: Callable[[], list[Played]], tick: int) -> list[Played]:
        try:
            return run()
        except Exception as err:  # a faulty bot or engine: this table halts, the others go on
            log.exception("table %s: the driver failed at tick %d", self.code, tick)
            self._halt(f"the table's driver failed at tick {tick} ({_sentence(err)})")
            return []

    def _thought(self, tick: int, played: list[Played]) -> None:
        publish = partial(self._publish, played, None, None)
        wait = self._t0 + tick * self.pace.tick_seconds - self.clock.now()
        if wait > 0 and any(p.events for p in played):
            self._busy = "waiting"  # thought early: sent at its tick, not before
            self.clock.later(wait, partial(self.post, publish))
        else:
            publish()
