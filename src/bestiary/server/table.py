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
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, Protocol, TypeVar

from bestiary.core.agent import Agent, bot_entries, default_bot, make_bot
from bestiary.core.driver import Match, Pace, Played
from bestiary.core.game import Game, State, get_game, redacted, replay
from bestiary.core.records import Event
from bestiary.server.connection import Connection
from bestiary.server.names import BadName, confusable, normalize_name
from bestiary.server.protocol import PROTOCOL_VERSION, encode, error_message, legal_json
from bestiary.server.store import Store, StoredTable, quick_switches
from bestiary.sim.runner import derive_seeds

log = logging.getLogger("bestiary.server")

T = TypeVar("T")

_PACE = Pace()

# The most actions one call of the driver plays on the event loop. A table behind its clock
# (a short pause, a loaded machine) catches up a few moves per turn of the loop, so no table
# holds the loop from the others however far behind it is.
MOVES_PER_TURN = 4


@dataclass(frozen=True)
class TableSettings:
    """How the table runs, apart from the game's own options (all in seconds).

    ``tick_seconds`` and ``answer_seconds`` are the core's one real-time model (``Pace``), with
    its defaults; ``think_seconds`` is a bot's time budget for one decision (None: the time a
    bot waits before it acts, see :meth:`budget`): the stand-in is the strongest bot that
    decides within it (``core.agent.default_bot``).
    """

    answer_seconds: float = _PACE.answer_seconds  # critters: an unanswered action is `allow`
    grace_seconds: float = 30.0  # a seat left empty this long is played by a bot
    tick_seconds: float = _PACE.tick_seconds  # one tick of the driver's clock, live
    stand_in: str | None = None  # which bot stands in; None = default_bot within think_seconds
    think_seconds: float | None = None
    # the bots' pace, one of the driver's PACES (the lobby's "Bots' pace", `serve --pace`): a
    # person's pace while a person sits at the table, the lab's at a table of bots only
    bots_pace: str = "normal"
    # turn-based games: seconds a bot's move waits, over the pace's own (None: the pace's; the
    # API's `bot_pause`, which tests use to run a critters table quickly or slowly)
    bot_pause: float | None = None
    # turn-based games: a person's turn clock; when it runs out, a bot makes that one move for
    # them and the log says so (None: no clock, the table waits)
    turn_seconds: float | None = 90.0

    @property
    def pace(self) -> Pace:
        pace = Pace.chosen(self.bots_pace, self.tick_seconds, self.answer_seconds, people=None)
        if self.bot_pause is None:
            return pace
        # at least a tick: a pause of 0 ticks would play every bot's turn at the same instant
        pause = max(1, round(self.bot_pause / self.tick_seconds))
        return replace(pace, turn_pause_ticks=pause, person_turn_pause_ticks=pause)

    def budget(self, real_time: bool) -> float:
        """A decision's time budget: the shortest reaction of a real-time bot (0.7 s by
        default), the pause before a turn-based bot moves (1 s), or ``think_seconds``."""
        if self.think_seconds is not None:
            return self.think_seconds
        pace = self.pace
        return pace.seconds(min(pace.reaction_ticks) if real_time else pace.turn_pause_ticks)

    def as_json(self) -> dict[str, Any]:
        return {
            "answer_seconds": self.answer_seconds,
            "grace_seconds": self.grace_seconds,
            "tick_seconds": self.tick_seconds,
            "stand_in": self.stand_in,
            "think_seconds": self.think_seconds,
            "bots_pace": self.bots_pace,
            "bot_pause": self.bot_pause,
            "turn_seconds": self.turn_seconds,
        }

    @classmethod
    def from_json(cls, stored: dict[str, Any]) -> TableSettings:
        """Settings as stored with a table (keys this version does not know are ignored)."""
        known = cls.__dataclass_fields__
        return cls(**{k: v for k, v in stored.items() if k in known})


class Handle(Protocol):
    def cancel(self) -> None: ...


class TableClock:
    """A table's time: monotonic seconds, and a scheduler. Tests step a fake one."""

    def now(self) -> float:
        return time.monotonic()

    def later(self, delay: float, callback: Callable[[], None]) -> Handle:
        return asyncio.get_running_loop().call_later(delay, callback)


# Bots think here, off the event loop. Two threads: a second table's bots need not queue
# behind a long search (the GIL shares one core between them and the loop either way).
_THINKERS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="bots")


def _think(match: Match, to_tick: int) -> list[Played]:
    quick_switches()
    return match.advance(to_tick, MOVES_PER_TURN)


STORAGE_DOWN = "storage unavailable, retrying; the game is paused and nothing is lost."


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
    agent_name: str | None = None  # that bot's registered name
    grace: Handle | None = None
    grace_due: float = 0.0  # table-clock time the grace period ends (while `grace` runs)
    address: str | None = None  # the client (``client_key``) that took it: seats per address

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
        # the address too: seats per address still count after a restart or a takeover
        return {
            "name": self.name,
            "bot": self.bot,
            "token_hash": self.token_hash,
            "address": self.address,
        }


class TableError(ValueError):
    """A lobby request the table refuses; the message is one readable sentence."""


def check_bot(game: str, bot: str) -> None:
    """TableError unless ``game`` has a bot called ``bot``."""
    known = [e.name for e in bot_entries(game)]
    if bot not in known:
        raise TableError(f"no bot called {bot!r} for {game} (known: {', '.join(known) or 'none'}).")


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
        clock: TableClock | None = None,
    ) -> None:
        self.code = code
        self.game_name = game
        self.game: Game = get_game(game)
        self.options = options
        self.seats = [Seat(i) for i in range(seats)]
        self.store = store
        self.settings = settings
        self.pace = settings.pace
        self.clock = clock or TableClock()
        self.status = "open"
        self.state: State | None = None
        self.match: Match | None = None
        self.seq = 0
        self.created = time.time()
        self.started: float | None = None  # wall clock, so `t` survives a restart
        self.finished: float | None = None
        self.spectators: set[Connection] = set()
        self._inbox: asyncio.Queue[Callable[[], None]] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._running = False  # a job is running (a job it posts waits its turn)
        self.on_change: Callable[[Table], None] | None = None
        self.draft = False  # being set up by its creator: not stored, not listed yet
        self.touched = time.monotonic()  # the last lobby change (an open table expires)
        self.max_spectators = 200
        # play (see the module docstring)
        self._seeds: tuple[int, list[int]] = (secrets.randbits(63), [])  # table's, bots'
        self._t0 = 0.0  # clock time of tick 0
        self._t_offset = 0.0  # seconds of play before tick 0 (a restored game)
        self._timer: Handle | None = None
        self._turn: Handle | None = None  # the turn clock of the person to move
        self._turn_due: float | None = None
        self._busy: str | None = None  # "thinking" or "waiting" (to send at its tick)
        self._held: deque[tuple[Callable[[], None], bool]] = deque()  # jobs, whether they reveal
        self._settling = False
        self._unsent = 0  # groups of events made but not yet committed (so not yet sent)
        self.paused: str | None = None  # why the store is down, while it is
        self.halted: str | None = None  # why the game cannot go on (its driver failed)
        self._paused_at = 0.0
        self._lead = 0.0  # seconds before its tick a bot decision starts (see _arm)

    # -- the actor ------------------------------------------------------------------------

    def start_actor(self) -> None:
        """The table is in the lobby: it runs, and hears of the store's outages. (Not before: a
        table refused while being set up must leave nothing that holds it.)"""
        if self._task is None:
            self.store.watch(self._storage)
            self._task = asyncio.get_running_loop().create_task(self._run(), name=self.code)

    async def _run(self) -> None:
        while True:
            self._job(await self._inbox.get())

    def _job(self, job: Callable[[], None]) -> None:
        self._running = True
        try:
            job()
        except Exception:  # one bad job must not stop the table
            log.exception("table %s: job failed", self.code)
        finally:
            self._running = False

    def post(self, job: Callable[[], None]) -> None:
        """Run ``job`` inside the actor: at once when the actor is idle (the loop runs one
        callback at a time, so nothing else is inside it meanwhile; this saves a task switch per
        move), else queued after what is waiting (a job posting another, or jobs in line)."""
        if self._running or self._task is None or not self._inbox.empty():
            self._inbox.put_nowait(job)
        else:
            self._job(job)

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
            if seat.grace:
                seat.grace.cancel()
        self._cancel_timer()
        self._stop_turn_clock()
        self.store.unwatch(self._storage)
        if self._task:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def _later(self, delay: float, job: Callable[[], None]) -> Handle:
        return self.clock.later(delay, partial(self.post, job))

    def quiet(self) -> bool:
        """Whether nothing will happen at this table until its clock moves (nothing queued,
        being thought or committed): a test steps a fake clock when it is."""
        if not self._inbox.empty():
            return False
        if self._busy == "waiting":
            return True
        return self._busy is None and not self._held and self._unsent == 0

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
            "halted": self.halted,
        }

    def _seat_json(self, seat: Seat) -> dict[str, Any]:
        shown = seat.as_json()
        if seat.grace is not None:  # a client shows the countdown to the stand-in
            shown["grace_seconds"] = round(max(0.0, seat.grace_due - self.clock.now()), 1)
        return shown

    def join(self, name: str, seat: int | None, address: str | None = None) -> tuple[int, str]:
        """Seat a human called ``name`` (from client ``address``); returns (seat, token)."""
        self._require_open()
        name = self._check_name(name)
        chosen = self._open_seat(seat)
        token = secrets.token_urlsafe(24)
        self._unseat_sockets(chosen, "this seat has a new player.")
        chosen.name, chosen.bot, chosen.token_hash = name, None, hash_token(token)
        chosen.address = address
        self._lobby_changed()
        return chosen.index, token

    def seats_of(self, address: str) -> int:
        """Seats a person from client ``address`` holds here (an open table or a game in play)."""
        if self.status not in ("open", "playing"):
            return 0
        return sum(1 for s in self.seats if s.address == address and s.bot is None)

    def remove(self, token: str, seat: int) -> None:
        """The host takes a seat back: before the start, any other seat is opened again; after
        it, a player who stays away (no socket) loses the seat to a bot for the rest of the game.
        The removed player's token is refused from then on."""
        if self._seat_of(token).index != 0:
            raise TableError("only the host (the first seat) can remove a player.")
        if not 0 < seat < len(self.seats):
            raise TableError(f"there is no other seat {seat} at this table.")
        chosen = self.seats[seat]
        if chosen.is_open:
            raise TableError(f"seat {seat} is empty.")
        if self.status == "open":
            self._unseat_sockets(chosen, "the host gave your seat to someone else.")
            chosen.name = chosen.bot = chosen.token_hash = chosen.address = None
            self._lobby_changed()
            return
        if self.status != "playing":
            raise TableError("the game is over.")
        if chosen.bot is not None:
            raise TableError(f"seat {seat} is played by a bot already.")
        if chosen.connections:
            raise TableError(
                f"{chosen.name} is at the table; only a player who stays away can be replaced."
            )
        if self._hold(partial(self._replace, chosen)):
            return
        self._replace(chosen)

    def _replace(self, seat: Seat) -> None:
        """An absent player's seat becomes a bot's for good (the stand-in the table would use)."""
        if seat.grace:
            seat.grace.cancel()
            seat.grace = None
        try:
            name = seat.agent_name or self.settings.stand_in
            name = name or default_bot(self.game_name, self._budget())
        except ValueError:
            raise TableError("this game has no bot to take the seat.") from None
        if seat.agent is None:
            self._seat_agent(seat, name)
        seat.bot, seat.token_hash, seat.address = name, None, None
        self._lobby_changed()

    def add_bot(self, token: str, bot: str, seat: int | None, name: str | None) -> int:
        """Put bot ``bot`` in an open seat (any seated player may)."""
        self._require_open()
        self._seat_of(token)
        check_bot(self.game_name, bot)
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
        seat.name = seat.token_hash = seat.bot = seat.address = None
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
        self.begin(seed)
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
        message = self._table_message()
        for conn in self._all_connections():
            conn.send_text(message)

    def _table_message(self) -> str:
        return encode({"type": "table", "table": self.info()})

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

    # -- connections ----------------------------------------------------------------------

    def attach(self, conn: Connection, token: str | None, version: int) -> None:
        """A socket said hello: seat it (with a valid token) or let it watch."""
        if self._hold(partial(self.attach, conn, token, version), reveals=True):
            return  # it will be sent the committed state, not one still being written
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
        if self.paused is not None:
            conn.send(error_message("storage", STORAGE_DOWN))
        if self.halted is not None:
            conn.send(error_message("halted", f"this game is halted: {self.halted}"))
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
            self._seat_agent(seat, None)  # the player is back: the stand-in steps aside
        if len(seat.connections) == 1:
            self._announce()

    def _seat_left(self, seat: Seat) -> None:
        if self.status != "playing" or seat.bot is not None or seat.grace is not None:
            return
        seat.grace = self._later(self.settings.grace_seconds, lambda: self._grace_over(seat))
        seat.grace_due = self.clock.now() + self.settings.grace_seconds

    def _all_connections(self) -> list[Connection]:
        conns = list(self.spectators)
        for seat in self.seats:
            conns.extend(seat.connections)
        return conns

    def _grace_over(self, seat: Seat) -> None:
        seat.grace = None
        if seat.connections or self.status != "playing" or seat.name is None:
            return
        if self._hold(partial(self._grace_over, seat)):
            return
        try:
            name = self.settings.stand_in or default_bot(self.game_name, self._budget())
        except ValueError:
            return  # a game with no bot: the seat simply waits for its player
        self._seat_agent(seat, name)
        self._announce()

    # -- play -----------------------------------------------------------------------------

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
        event = {**event, "by": seat.name}
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
        if self._hold(partial(self.act, conn, event, ref)):
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

    # the clock: one timer, at the driver's next due tick

    def _now_tick(self) -> int:
        return max(0, int((self.clock.now() - self._t0) / self.pace.tick_seconds + 1e-9))

    def _game_time(self) -> float:
        """Seconds of play so far (the clock stands still while the store is down)."""
        if self.match is None:
            return 0.0
        now = self._paused_at if self.paused is not None else self.clock.now()
        return self._t_offset + now - self._t0

    def _tick_time(self, tick: int) -> float:
        return self._t_offset + tick * self.pace.tick_seconds

    # the turn clock (turn-based games): a person to move has ``turn_seconds``

    def _stop_turn_clock(self) -> None:
        if self._turn is not None:
            self._turn.cancel()
        self._turn = self._turn_due = None

    def _turn_clock(self) -> None:
        """Start the turn clock of the person who must move now, if any (re-armed after every
        change; answers have the driver's own answer clock)."""
        self._stop_turn_clock()
        seconds, state, match = self.settings.turn_seconds, self.state, self.match
        if seconds is None or self.game.info.real_time or state is None or match is None:
            return
        if state.is_over or self.status != "playing":
            return
        people = [p for p in state.actors if p not in match.agents]
        if not people or state.timeout_action(people[0]) is not None:
            return
        self._turn_due = self.clock.now() + seconds
        self._turn = self._later(seconds, partial(self._turn_over, people[0], self.seq))

    def _turn_over(self, player: str, seq: int) -> None:
        """The clock ran out: the table's quick bot makes this one move for ``player``."""
        self._turn = None
        if self.seq != seq or self.status != "playing" or self.paused is not None:
            if self.seq == seq and self.status == "playing":
                self._turn_clock()  # paused: the player gets a whole turn when play resumes
            return
        if self._hold(partial(self._turn_over, player, seq)):
            return
        state, match = self.state, self.match
        if self.seq != seq or state is None or match is None or player in match.agents:
            return
        if player not in state.actors or not (legal := state.legal_actions(player)):
            return
        try:
            stand_in = make_bot(self.game_name, default_bot(self.game_name, 0.0), player, 0)
        except ValueError:
            return  # a game with no bot: the table waits for its player
        action = stand_in.act(state.view(player), legal) or legal[0]
        events = match.submit(player, action)
        self._publish([Played(match.tick, player, events)], None, None, t=self._game_time())

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _arm(self) -> None:
        """Wait for the driver's next due tick (re-armed after every change)."""
        self._cancel_timer()
        match = self.match
        if match is None or self._busy or self.paused or self.halted or self.status != "playing":
            return
        due = match.next_due()
        if due is None:
            return
        wait = self._t0 + due * self.pace.tick_seconds - self._lead - self.clock.now()
        self._timer = self.clock.later(max(0.0, wait), partial(self.post, self._due))

    def _hold(self, job: Callable[[], None], reveals: bool = False) -> bool:
        """Whether game job ``job`` must wait (and is kept, in order, until it may run): the
        table's bots are thinking, an earlier job waits, something is due first (which starts
        now), or ``job`` ``reveals`` the state (a socket's first view) while events of it are
        not yet committed. Otherwise the driver's clock is brought to now and ``job`` runs."""
        match = self.match
        queued = bool(self._held) and not self._settling
        blocked = queued or (reveals and self._unsent > 0)
        free = self._busy is None and self.paused is None and self.status == "playing"
        free = free and self.halted is None
        if free and not blocked and match is not None:
            due, now = match.next_due(), self._now_tick()  # one reading: the clock moves on
            if due is not None and due <= now:
                self._due()
            else:
                match.advance(now)  # nothing is due by then: this only sets the tick
        if self._busy is None and not blocked:
            return False
        if self._settling:
            self._held.appendleft((job, reveals))  # it was first in line: it stays first
        else:
            self._held.append((job, reveals))
        return True

    def _due(self) -> None:
        """The timer: the driver runs what is due (bots' decisions); in a worker thread when a
        seated bot is registered as one that thinks (``seconds``), else at once."""
        self._timer = None
        match = self.match
        if match is None or self._busy or self.paused or self.halted or self.status != "playing":
            return
        due = match.next_due()
        if due is None:
            return
        if self._t0 + due * self.pace.tick_seconds - self._lead > self.clock.now() + 1e-3:
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

    # commit, then send

    def _publish(
        self,
        played: list[Played],
        actor: int | None,
        ref: int | str | None,
        t: float | None = None,
        always: bool = False,
    ) -> None:
        """Number, stamp and store new events; they are sent once the store has them."""
        match = self.match
        assert match is not None and self.state is not None
        for fault in match.faults:
            log.warning("table %s: %s", self.code, fault)
        match.faults.clear()
        events: list[Event] = []
        for step in played:
            stamp = round(self._tick_time(step.tick) if t is None else t, 3)
            # The driver's own moves are its bots' and, for a seat no bot plays, the answer
            # the clock gave when it ran out: marked, so the log says so (records ignore it).
            timed_out = actor is None and step.by is not None and step.by not in match.agents
            for event in step.events:
                if timed_out and event.get("by") == step.by:
                    event = {**event, "timeout": True}
                self.seq += 1
                self.store.append_event(self.code, self.seq, {**event, "t": stamp})
                events.append(event)
        self._busy = None  # whatever thought these events is done
        if events or always:
            self._turn_clock()  # before the messages are made: they show it
        if events or always:
            finished = self.state.is_over and self.status == "playing"
            if finished:
                self._finish()
            # Messages are made now, from the state these events made, and sent once they are
            # committed; meanwhile the table plays on (later events are sent after these).
            sends = self._messages(events, actor, ref)
            if finished:
                sends.append((self._all_connections(), self._table_message()))
            self._unsent += 1
            # Sent by the store's writer itself, on the loop, right after the commit: no inbox
            # round trip per group (the actor is idle whenever a callback runs).
            # (As a job of this actor: whatever it causes waits its turn.)
            self.store.commit(partial(self._job, partial(self._committed, sends)))
        self._settled()

    def _committed(self, sends: list[tuple[list[Connection], str]]) -> None:
        self._unsent -= 1
        for conns, text in sends:
            for conn in conns:
                conn.send_text(text)
        self._settled()

    def _settled(self) -> None:
        """Run the jobs that waited and may run now, in order, then wait for the clock."""
        if self._settling:
            return  # a waiting job's own events: the loop below goes on with the next one
        self._settling = True
        try:
            while self._held and self._busy is None:
                job, reveals = self._held[0]
                if reveals and self._unsent > 0:
                    break
                self._held.popleft()
                try:
                    job()
                except Exception:
                    log.exception("table %s: job failed", self.code)
        finally:
            self._settling = False
        self._arm()

    def _finish(self) -> None:
        self._stop_turn_clock()
        self.status = "finished"
        self.finished = time.time()
        for seat in self.seats:
            if seat.grace:
                seat.grace.cancel()
            seat.grace = None
        self._cancel_timer()
        self._save_table()

    # the store: pause while it cannot commit, resume with nothing lost

    def _storage(self, reason: str | None) -> None:
        """The store's news (run by its writer on the loop): down (with why), or back."""
        if self.status != "playing":
            return
        if reason is not None and self.paused is None:
            self.paused = reason
            self._paused_at = self.clock.now()
            self._cancel_timer()
            log.warning("table %s: paused, storage unavailable (%s)", self.code, reason)
            self._tell(error_message("storage", STORAGE_DOWN))
        elif reason is None and self.paused is not None:
            self._t0 += self.clock.now() - self._paused_at  # no tick passed while paused
            self.paused = None
            log.warning("table %s: storage is back, play resumes", self.code)
            self._tell({"type": "notice", "code": "storage_back", "message": "storage is back."})
            self._arm()

    def move_out(self, why: str) -> None:
        """Another server process serves this table from now on (``server.keeper``): nothing more
        is played here, and every socket is told ``moving`` and closed (clients reconnect)."""
        self.paused = why
        self.store.unwatch(self._storage)
        self._cancel_timer()
        self._tell(error_message("moving", why))
        for conn in self._all_connections():
            conn.close()

    def _tell(self, message: dict[str, Any]) -> None:
        text = encode(message)
        for conn in self._all_connections():
            conn.send_text(text)

    # -- messages -------------------------------------------------------------------------

    def _timers(self) -> dict[str, float]:
        """The driver's public timers, as seconds left at this message (the clients'
        countdowns): ``quiet`` (the quiet clock: wild's Nightfall) and ``answer`` (the answer
        the table will give for a player who lets it run out)."""
        if self.match is None or self.status != "playing":
            return {}
        now = self._game_time()
        out: dict[str, float] = {}
        for name, due in self.match.deadlines().items():
            tick = min(due.values()) if isinstance(due, dict) else due
            out[name] = round(max(0.0, self._tick_time(tick) - now), 1)
        if self._turn_due is not None:
            out["turn"] = round(max(0.0, self._turn_due - self.clock.now()), 1)
        return out

    def _state_message(
        self,
        player: str | None,
        events: list[Event],
        ref: int | str | None,
        timers: dict[str, float] | None = None,
    ) -> str:
        state = self.state
        assert state is not None
        over = state.is_over
        message: dict[str, Any] = {
            "type": "state",
            "seq": self.seq,
            "t": round(self._game_time(), 3),
            "events": events,
            "view": state.view(player),
            "legal": legal_json(state.legal_actions(player)) if player else [],
            "over": over,
        }
        timers = self._timers() if timers is None else timers
        if timers:
            message["timers"] = timers
        if ref is not None:
            message["ref"] = ref
        if over:
            message["summary"] = state.summary()
            message["winners"] = state.winners()
        return encode(message)

    def _messages(
        self, events: list[Event], actor: int | None, ref: Any
    ) -> list[tuple[list[Connection], str]]:
        """Every seat its own view and its own form of each event; spectators the public one
        (one message shared by all of them)."""
        state = self.state
        assert state is not None
        timers = self._timers()
        sends: list[tuple[list[Connection], str]] = []
        for seat in self.seats:
            if not seat.connections:
                continue
            shown = redacted(state, events, seat.name)
            own = ref if seat.index == actor else None
            text = self._state_message(seat.name, shown, own, timers)
            sends.append((list(seat.connections), text))
        if self.spectators:
            text = self._state_message(None, redacted(state, events, None), None, timers)
            sends.append((list(self.spectators), text))
        return sends


def _sentence(err: BaseException) -> str:
    text = str(err.args[0]) if err.args else type(err).__name__
    text = text.strip().rstrip(".")
    return text + "."
