"""One table: its seats, its connections, and the actor that alone owns the game engine.

Everything that touches a table goes through its inbox (:meth:`Table.post` / :meth:`Table.ask`)
and runs, one item at a time, in the table's own task. The actor orders the incoming actions,
numbers them (``seq``), stamps them (``t``, seconds since the start), applies them to the engine,
stores them, and sends every seat its own view and every spectator the public one.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from bestiary.core.agent import Agent, bot_entries, make_bot
from bestiary.core.driver import Pace
from bestiary.core.errors import IllegalAction
from bestiary.core.game import Game, State, get_game, replay
from bestiary.server.connection import Connection
from bestiary.server.names import BadName, confusable, normalize_name
from bestiary.server.protocol import PROTOCOL_VERSION, encode, error_message, public_event
from bestiary.server.store import Store, StoredTable

log = logging.getLogger("bestiary.server")
PACE = Pace()

T = TypeVar("T")

# Bots a seat falls back to when its player has been gone past the grace period, best first.
STAND_IN_PREFERENCE = ("heuristic", "greedy", "basic", "honest", "random")


@dataclass(frozen=True)
class TableSettings:
    """How the table runs, apart from the game's own options (all in seconds)."""

    answer_seconds: float = 30.0  # critters: an unanswered action counts as `allow`
    grace_seconds: float = 30.0  # a seat left empty this long is played by a bot
    bot_tick: float = 0.35  # one simulation tick of a bot's reaction time, live
    stand_in: str | None = None  # which bot stands in; None = the best registered one
    # turn-based games: the least time a bot's move waits, so people can follow it
    # (0 for tests and load benchmarks; `bestiary serve` and the lobby's form default to 1 s)
    bot_pause: float = 0.0

    def as_json(self) -> dict[str, Any]:
        return {
            "answer_seconds": self.answer_seconds,
            "grace_seconds": self.grace_seconds,
            "bot_tick": self.bot_tick,
            "stand_in": self.stand_in,
            "bot_pause": self.bot_pause,
        }


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Seat:
    index: int
    name: str | None = None
    bot: str | None = None  # a bot seat; None for a human or an open seat
    token_hash: str | None = None
    connections: set[Connection] = field(default_factory=set)
    agent: Agent | None = None  # the bot playing this seat (a bot seat or a stand-in)
    wake: asyncio.TimerHandle | None = None
    grace: asyncio.TimerHandle | None = None
    grace_due: float = 0.0  # monotonic time the grace period ends (while `grace` runs)

    @property
    def is_open(self) -> bool:
        return self.name is None

    def as_json(self) -> dict[str, Any]:
        return {
            "seat": self.index,
            "name": self.name,
            "bot": self.bot,
            "connected": bool(self.connections) or self.bot is not None,
            "stand_in": self.agent is not None and self.bot is None,
        }

    def stored(self) -> dict[str, Any]:
        return {"name": self.name, "bot": self.bot, "token_hash": self.token_hash}


class TableError(ValueError):
    """A lobby request the table refuses; the message is one readable sentence."""


class Table:
    """A table in the lobby, then a game in play, then a finished record."""

    def __init__(
        self,
        code: str,
        game: str,
        options: dict[str, Any],
        seats: int,
        store: Store,
        settings: TableSettings,
    ) -> None:
        self.code = code
        self.game_name = game
        self.game: Game = get_game(game)
        self.options = options
        self.seats = [Seat(i) for i in range(seats)]
        self.store = store
        self.settings = settings
        self.status = "open"
        self.state: State | None = None
        self.seq = 0
        self.created = time.time()
        self.started: float | None = None  # wall clock, so `t` survives a restart
        self.finished: float | None = None
        self.spectators: set[Connection] = set()
        self.last_progress = 0.0  # monotonic time of the last meeting (wild's nightfall)
        self._meetings = 0
        self._nightfall: asyncio.TimerHandle | None = None
        self._answer: asyncio.TimerHandle | None = None
        self._answer_due = 0.0  # monotonic time the awaited answer counts as `allow`
        self._answer_for: tuple[int, str | None] = (-1, None)  # (seq, awaiting) watched
        self._inbox: asyncio.Queue[Callable[[], None]] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._rng = random.Random(secrets.randbits(64))
        self.on_change: Callable[[Table], None] | None = None
        self.draft = False  # being set up by its creator: not stored, not listed yet
        self.touched = time.monotonic()  # the last lobby change (an open table expires)
        self.max_spectators = 200

    # -- the actor ------------------------------------------------------------------------

    def start_actor(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name=self.code)

    async def _run(self) -> None:
        while True:
            job = await self._inbox.get()
            try:
                job()
            except Exception:  # one bad job must not stop the table
                log.exception("table %s: job failed", self.code)

    def post(self, job: Callable[[], None]) -> None:
        """Queue ``job`` to run inside the actor."""
        self._inbox.put_nowait(job)

    async def ask(self, job: Callable[[], T]) -> T:
        """Run ``job`` inside the actor and return its result (or raise its error)."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()

        def run() -> None:
            try:
                result = job()
            except Exception as err:
                future.set_exception(err)
            else:
                future.set_result(result)

        self.post(run)
        return await future

    async def stop(self) -> None:
        for seat in self.seats:
            for handle in (seat.wake, seat.grace):
                if handle:
                    handle.cancel()
        for handle in (self._nightfall, self._answer):
            if handle:
                handle.cancel()
        if self._task:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def _later(self, delay: float, job: Callable[[], None]) -> asyncio.TimerHandle:
        return asyncio.get_running_loop().call_later(delay, self.post, job)

    # -- lobby (run inside the actor) -------------------------------------------------------

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
        }

    def _seat_json(self, seat: Seat) -> dict[str, Any]:
        shown = seat.as_json()
        if seat.grace is not None:  # a client shows the countdown to the stand-in
            shown["grace_seconds"] = round(max(0.0, seat.grace_due - time.monotonic()), 1)
        return shown

    def join(self, name: str, seat: int | None) -> tuple[int, str]:
        """Seat a human called ``name``; returns (seat, token)."""
        self._require_open()
        name = self._check_name(name)
        chosen = self._open_seat(seat)
        token = secrets.token_urlsafe(24)
        self._unseat_sockets(chosen, "this seat has a new player.")
        chosen.name, chosen.bot, chosen.token_hash = name, None, hash_token(token)
        self._lobby_changed()
        return chosen.index, token

    def add_bot(self, token: str, bot: str, seat: int | None, name: str | None) -> int:
        """Put bot ``bot`` in an open seat (any seated player may)."""
        self._require_open()
        self._seat_of(token)
        known = [e.name for e in bot_entries(self.game_name)]
        if bot not in known:
            raise TableError(
                f"no bot called {bot!r} for {self.game_name} (known: {', '.join(known) or 'none'})."
            )
        chosen = self._open_seat(seat)
        name = self._check_name(name or f"{bot}-{chosen.index + 1}")
        chosen.name, chosen.bot = name, bot
        self._lobby_changed()
        return chosen.index

    def leave(self, token: str) -> None:
        """Give up a seat before the game starts."""
        self._require_open()
        seat = self._seat_of(token)
        if seat.index == 0:
            raise TableError("the host cannot leave the table before it starts.")
        seat.name = seat.token_hash = seat.bot = None
        self._unseat_sockets(seat, "you left this seat.")
        self._lobby_changed()

    def _unseat_sockets(self, seat: Seat, why: str) -> None:
        """The seat's token is no longer valid: every socket that holds it is closed."""
        for conn in seat.connections:
            conn.seat = None
            conn.send(error_message("unseated", why))
            conn.close()
        seat.connections.clear()

    def expire(self) -> bool:
        """An open table nobody joined or started in time goes away; False if it has moved on."""
        if self.status != "open":
            return False
        self.status = "expired"
        self._lobby_changed()
        for conn in self._all_connections():
            conn.close()
        return True

    def start(self, token: str, seed: int | None = None) -> None:
        """Deal and begin: only the host (seat 0) may, once every seat is filled."""
        self._require_open()
        if self._seat_of(token).index != 0:
            raise TableError("only the host (the first seat) can start the game.")
        if any(s.is_open for s in self.seats):
            raise TableError("every seat must be filled (by a player or a bot) before starting.")
        players = [s.name or "" for s in self.seats]
        try:
            self.state = self.game.new_game(players, self.options, seed)
        except ValueError as err:
            raise TableError(str(err)) from None
        self.status = "playing"
        self.started = time.time()
        self._lobby_changed()
        self._begin_play()
        self._broadcast([], None, None)  # after the clocks start: the first state shows them
        for seat in self.seats:
            if not seat.connections:
                self._seat_left(seat)  # a player who never came gets a stand-in in time too

    def _require_open(self) -> None:
        if self.status != "open":
            raise TableError(f"table {self.code} has already started.")

    def _check_name(self, name: str) -> str:
        """The name as it will be shown (NFKC, visible), unless one like it is already here."""
        try:
            name = normalize_name(name)
        except BadName as err:
            raise TableError(str(err)) from None
        taken = confusable(name, [s.name for s in self.seats if s.name is not None])
        if taken == name:
            raise TableError(f"the name {name!r} is already taken at this table.")
        if taken is not None:
            raise TableError(f"the name {name!r} looks too much like {taken!r}, already here.")
        return name

    def _open_seat(self, seat: int | None) -> Seat:
        if seat is None:
            for candidate in self.seats:
                if candidate.is_open:
                    return candidate
            raise TableError(f"table {self.code} is full.")
        if not 0 <= seat < len(self.seats):
            raise TableError(f"there is no seat {seat} at this table.")
        if not self.seats[seat].is_open:
            raise TableError(f"seat {seat} is taken.")
        return self.seats[seat]

    def _seat_of(self, token: str | None) -> Seat:
        if token:
            digest = hash_token(token)
            for seat in self.seats:
                if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                    return seat
        raise TableError("that seat token does not belong to this table.")

    def _lobby_changed(self) -> None:
        self.touched = time.monotonic()
        self._save_table()
        self._announce()

    def _announce(self) -> None:
        """Tell every socket at the table who sits where (seats, bots, presence, status)."""
        message = encode({"type": "table", "table": self.info()})
        for conn in self._all_connections():
            conn.send_text(message)

    # -- rows and restore -------------------------------------------------------------------

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
        settings = TableSettings(**stored.options.get("table", {}))
        table = cls(stored.code, stored.game, options, len(stored.seats), store, settings)
        table.status, table.created = stored.status, stored.created
        table.started, table.finished = stored.started, stored.finished
        for seat, saved in zip(table.seats, stored.seats, strict=True):
            seat.name, seat.bot, seat.token_hash = saved["name"], saved["bot"], saved["token_hash"]
        if stored.header is not None and stored.status != "open":
            lines = [(number + 2, ev) for number, ev in enumerate(stored.events)]
            table.state = replay(stored.header, lines)
            table.seq = len(stored.events)
        return table

    def resume(self) -> None:
        """After a restart: bots and timers pick up where the game was."""
        if self.status == "playing" and self.state is not None:
            self._begin_play()
            for seat in self.seats:
                if seat.bot is None:
                    self._seat_left(seat)

    # -- connections ----------------------------------------------------------------------

    def attach(self, conn: Connection, token: str | None, version: int) -> None:
        """A socket said hello: seat it (with a valid token) or let it watch."""
        if version != PROTOCOL_VERSION:
            conn.send(
                error_message("bad_version", f"this server speaks protocol {PROTOCOL_VERSION}.")
            )
            conn.close()
            return
        seat: Seat | None = None
        if token is not None:
            try:
                seat = self._seat_of(token)
            except TableError as err:
                conn.send(error_message("bad_token", str(err)))
                conn.close()
                return
        if seat is None and len(self.spectators) >= self.max_spectators:
            conn.send(error_message("full", "this table has as many watchers as it takes."))
            conn.close()
            return
        conn.send(
            {
                "type": "welcome",
                "v": PROTOCOL_VERSION,
                "seat": seat.index if seat else None,
                "player": seat.name if seat else None,
                "table": self.info(),
            }
        )
        if self.state is not None:
            conn.send_text(self._state_message(seat.name if seat else None, [], None))
        if seat is None:
            self.spectators.add(conn)
        else:
            conn.seat = seat.index
            self._seat_returned(seat, conn)

    def detach(self, conn: Connection) -> None:
        self.spectators.discard(conn)
        if conn.seat is None:
            return
        seat = self.seats[conn.seat]
        seat.connections.discard(conn)
        if not seat.connections:
            self._seat_left(seat)
            self._announce()

    def _seat_returned(self, seat: Seat, conn: Connection) -> None:
        seat.connections.add(conn)
        if seat.grace:
            seat.grace.cancel()
            seat.grace = None
        if seat.agent is not None and seat.bot is None:
            seat.agent = None  # the player is back: the stand-in steps aside
            if seat.wake:
                seat.wake.cancel()
                seat.wake = None
        if len(seat.connections) == 1:
            self._announce()

    def _seat_left(self, seat: Seat) -> None:
        if self.status != "playing" or seat.bot is not None or seat.grace is not None:
            return
        seat.grace = self._later(self.settings.grace_seconds, lambda: self._grace_over(seat))
        seat.grace_due = time.monotonic() + self.settings.grace_seconds

    def _grace_over(self, seat: Seat) -> None:
        seat.grace = None
        if seat.connections or self.status != "playing" or seat.name is None:
            return
        name = self.settings.stand_in or self._best_bot()
        if name is None:
            return
        seat.agent = make_bot(self.game_name, name, seat.name, self._rng.randrange(2**31))
        self._announce()
        self._wake_bots()

    def _best_bot(self) -> str | None:
        known = [e.name for e in bot_entries(self.game_name)]
        for name in STAND_IN_PREFERENCE:
            if name in known:
                return name
        return known[0] if known else None

    def _all_connections(self) -> list[Connection]:
        conns = list(self.spectators)
        for seat in self.seats:
            conns.extend(seat.connections)
        return conns

    # -- play -----------------------------------------------------------------------------

    def _begin_play(self) -> None:
        for seat in self.seats:
            if seat.bot is not None and seat.name is not None:
                seat.agent = make_bot(
                    self.game_name, seat.bot, seat.name, self._rng.randrange(2**31)
                )
        self.last_progress = time.monotonic()
        self._meetings = len(getattr(self.state, "meetings", None) or ())
        self._after_change()

    def act(self, conn: Connection, event: dict[str, Any], ref: int | str | None) -> None:
        """An action message from a socket (run inside the actor)."""
        if conn.seat is None:
            conn.send(error_message("not_seated", "spectators cannot act.", ref))
            return
        seat = self.seats[conn.seat]
        if self.state is None:
            conn.send(error_message("not_started", "the game has not started yet.", ref))
            return
        by = event.get("by", seat.name)
        if by != seat.name:
            conn.send(error_message("wrong_seat", f"you play {seat.name}, not {by!r}.", ref))
            return
        if event.get("do") in ("nightfall", "reshuffle"):
            conn.send(error_message("illegal", "only the table can do that.", ref))
            return
        event = {**event, "by": seat.name}
        try:
            action = self.game.action_from_event(event)
        except (IllegalAction, ValueError, KeyError, TypeError) as err:
            conn.send(error_message("bad_action", _sentence(err), ref))
            return
        reason = self.apply(action, seat.index, ref)
        if reason is not None:
            conn.send(error_message("illegal", reason, ref))

    def apply(self, action: Any, seat: int | None, ref: int | str | None) -> str | None:
        """Apply one action; returns the engine's reason if it refuses, else None."""
        state = self.state
        if state is None or self.status != "playing":
            return "the game is not in play."
        before = len(state.history)
        try:
            state.apply(action)
        except (IllegalAction, ValueError) as err:
            return _sentence(err)
        t = round(time.time() - (self.started or time.time()), 3)
        new = [a.to_event() for a in state.history[before:]]
        for event in new:
            self.seq += 1
            self.store.append_event(self.code, self.seq, {**event, "t": t})
        # before sending, so the state shows them: Nightfall restarts with a meeting, and an
        # action card starts its target's answer clock
        self._note_progress()
        if self.game_name == "critters" and not state.is_over:
            self._watch_answer()
        self._broadcast(new, seat, ref)
        self._after_change()
        return None

    def _after_change(self) -> None:
        state = self.state
        assert state is not None
        if state.is_over:
            self._finish()
            return
        self._note_progress()
        if self.game_name == "wild" and self._nightfall is None:
            self._schedule_nightfall()
        if self.game_name == "critters":
            self._watch_answer()
        self._wake_bots()

    def _note_progress(self) -> None:
        meetings = len(getattr(self.state, "meetings", None) or ())
        if meetings != self._meetings:
            self._meetings = meetings
            self.last_progress = time.monotonic()

    def _finish(self) -> None:
        self.status = "finished"
        self.finished = time.time()
        for seat in self.seats:
            for handle in (seat.wake, seat.grace):
                if handle:
                    handle.cancel()
            seat.wake = seat.grace = None
        for handle in (self._nightfall, self._answer):
            if handle:
                handle.cancel()
        self._lobby_changed()

    # wild: the table ends a game in which nobody has met for `nightfall_seconds`.
    def _nightfall_seconds(self) -> float:
        value = self.options.get("nightfall_seconds", 120)
        return float(value) if isinstance(value, int | float) else 120.0

    def _schedule_nightfall(self) -> None:
        due = self.last_progress + self._nightfall_seconds() - time.monotonic()
        self._nightfall = self._later(max(due, 0.0), self._nightfall_check)

    def _nightfall_check(self) -> None:
        self._nightfall = None
        if self.status != "playing" or self.state is None:
            return
        if time.monotonic() - self.last_progress >= self._nightfall_seconds() - 1e-3:
            self.apply(self.game.action_from_event({"do": "nightfall"}), None, None)
        else:
            self._schedule_nightfall()

    # critters: a target who does not answer in time is taken to allow.
    def _watch_answer(self) -> None:
        awaiting = getattr(self.state, "awaiting", None)
        seq = self.seq
        if self._answer and self._answer_for == (seq, awaiting):
            return  # already watching this very question
        if self._answer:
            self._answer.cancel()
            self._answer = None
        if awaiting is None:
            return
        seat = next(s for s in self.seats if s.name == awaiting)
        if seat.agent is not None:
            return  # a bot answers by itself
        self._answer_for = (seq, awaiting)

        def timeout() -> None:
            self._answer = None
            if self.seq == seq and getattr(self.state, "awaiting", None) == awaiting:
                self.apply(self.game.action_from_event({"by": awaiting, "do": "allow"}), None, None)

        self._answer = self._later(self.settings.answer_seconds, timeout)
        self._answer_due = time.monotonic() + self.settings.answer_seconds

    # bots: every seat played by an agent acts after its own reaction time.
    def _wake_bots(self) -> None:
        state = self.state
        if state is None or state.is_over:
            return
        for seat in self.seats:
            if seat.agent is None or seat.wake is not None or seat.name is None:
                continue
            if not state.legal_actions(seat.name):
                continue
            if self.game.info.real_time:
                delay = self._rng.choice(PACE.reaction_ticks) * self.settings.bot_tick
            else:  # turn-based: the table's pace, so people can follow each move
                delay = self.settings.bot_pause
            seat.wake = self._later(delay, lambda s=seat: self._bot_turn(s))  # type: ignore[misc]

    def _bot_turn(self, seat: Seat) -> None:
        seat.wake = None
        state = self.state
        if seat.agent is None or state is None or state.is_over or seat.name is None:
            return
        if not state.legal_actions(seat.name):
            return
        action = seat.agent.act(state.view(seat.name), state.legal_actions(seat.name))
        if action is not None:
            reason = self.apply(action, seat.index, None)
            if reason is not None:
                log.warning("table %s: bot %s tried %r: %s", self.code, seat.name, action, reason)
        if self.status == "playing":
            self._wake_bots()

    # -- messages -------------------------------------------------------------------------

    def _state_message(
        self, player: str | None, events: list[dict[str, Any]], ref: int | str | None
    ) -> str:
        state = self.state
        assert state is not None
        over = state.is_over
        message: dict[str, Any] = {
            "type": "state",
            "seq": self.seq,
            "t": round(time.time() - (self.started or time.time()), 3),
            "events": events,
            "view": state.view(player),
            "legal": [a.to_event() for a in state.legal_actions(player)] if player else [],
            "over": over,
        }
        timers = self._timers()
        if timers:
            message["timers"] = timers
        if ref is not None:
            message["ref"] = ref
        if over:
            message["summary"] = state.summary()
            message["winners"] = state.winners()
        return encode(message)

    def _timers(self) -> dict[str, float]:
        """Seconds left on the table's clocks, for the client's countdowns."""
        if self.status != "playing":
            return {}
        now = time.monotonic()
        timers: dict[str, float] = {}
        if self._nightfall is not None:
            left = self.last_progress + self._nightfall_seconds() - now
            timers["nightfall"] = round(max(0.0, left), 1)
        if self._answer is not None:
            timers["answer"] = round(max(0.0, self._answer_due - now), 1)
        return timers

    def _broadcast(self, events: list[dict[str, Any]], actor: int | None, ref: Any) -> None:
        public = [public_event(self.game_name, e) for e in events]
        for seat in self.seats:
            if not seat.connections:
                continue
            own = seat.index == actor
            # a seat sees its own events in full, everything else (chance included) as public
            shown = [
                e if e.get("by") == seat.name else p for e, p in zip(events, public, strict=True)
            ]
            text = self._state_message(seat.name, shown, ref if own else None)
            for conn in seat.connections:
                conn.send_text(text)
        if self.spectators:
            text = self._state_message(None, public, None)
            for conn in self.spectators:
                conn.send_text(text)


def _sentence(err: BaseException) -> str:
    text = str(err.args[0]) if err.args else type(err).__name__
    text = text.strip().rstrip(".")
    return text + "."
