"""What every part of a table stands on: its state, and the actor that alone runs its jobs.

Everything that touches a table goes through its inbox (:meth:`TableCore.post` /
:meth:`TableCore.ask`) and runs, one item at a time, in the table's own task. The parts
(``seating``, ``presence``, ``table_messages``, ``table_clocks``, ``commits``) each do one job
over this state; ``table.Table`` composes them with the play itself.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

from bestiary.core.driver import Match, Played
from bestiary.core.game import Game, State, get_game
from bestiary.core.records import Event
from bestiary.server.connection import Connection
from bestiary.server.seats import Seat
from bestiary.server.store import Store
from bestiary.server.table_settings import Handle, TableClock, TableSettings

if TYPE_CHECKING:
    from bestiary.server.table import Table

log = logging.getLogger("bestiary.server")

T = TypeVar("T")

# The most actions one call of the driver plays on the event loop. A table behind its clock
# (a short pause, a loaded machine) catches up a few moves per turn of the loop, so no table
# holds the loop from the others however far behind it is.
MOVES_PER_TURN = 4

STORAGE_DOWN = "storage unavailable, retrying; the game is paused and nothing is lost."


class TableError(ValueError):
    """A lobby request the table refuses; the message is one readable sentence."""


def _sentence(err: BaseException) -> str:
    text = str(err.args[0]) if err.args else type(err).__name__
    text = text.strip().rstrip(".")
    return text + "."


class TableCore:
    """A table's state and its actor; the parts' methods are declared here for each other."""

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
        # what the table is, and the game at it
        self.code = code
        self.game_name = game
        self.game: Game = get_game(game)
        self.options = options
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
        self.on_change: Callable[[Table], None] | None = None
        self.draft = False  # being set up by its creator: not stored, not listed yet
        self.touched = time.monotonic()  # the last lobby change (an open table expires)
        self.halted: str | None = None  # why the game cannot go on (its driver failed)
        # the actor (this module)
        self._inbox: asyncio.Queue[Callable[[], None]] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._running = False  # a job is running (a job it posts waits its turn)
        # seating and presence
        self.seats = [Seat(i) for i in range(seats)]
        self.spectators: set[Connection] = set()
        self.max_spectators = 200
        # play (table.Table, see its module docstring) and the clocks (table_clocks)
        self._seeds: tuple[int, list[int]] = (secrets.randbits(63), [])  # table's, bots'
        self._t0 = 0.0  # clock time of tick 0
        self._t_offset = 0.0  # seconds of play before tick 0 (a restored game)
        self._timer: Handle | None = None
        self._timer_at = 0.0  # when it rings (clock time)
        self._armed = 0  # timers set so far: a ring that is not the latest one's is stale
        self._turn: Handle | None = None  # the turn clock of the person to move
        self._turn_due: float | None = None
        self._turn_of: tuple[str, int] | None = None  # that person, and the seq it started at
        self._turn_armed = 0
        self._lead = 0.0  # seconds before its tick a bot decision starts (see _arm)
        self._busy: str | None = None  # "thinking" or "waiting" (to send at its tick)
        # the commit path and its storage pauses (commits)
        self._held: deque[tuple[Callable[[], None], bool]] = deque()  # jobs, whether they reveal
        self._settling = False
        self._unsent = 0  # groups of events made but not yet committed (so not yet sent)
        self._unsent_sends: deque[tuple[list[tuple[list[Connection], bytes]], int, float]] = deque()
        # theirs: the messages, how many events, since when (perf_counter)
        self.paused: str | None = None  # why the store is down, while it is
        self._paused_at = 0.0

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

    if TYPE_CHECKING:  # each part's methods that another part calls (defined in that part)

        def all_connections(self) -> list[Connection]: ...

        def _announce(self) -> None: ...

        def _arm(self) -> None: ...

        def _budget(self) -> float: ...

        def _cancel_timer(self) -> None: ...

        def _due(self) -> None: ...

        def _game_time(self) -> float: ...

        def _hold(self, job: Callable[[], None], reveals: bool = False) -> bool: ...

        def _lobby_changed(self) -> None: ...

        def _messages(
            self, events: list[Event], actor: int | None, ref: Any
        ) -> list[tuple[list[Connection], bytes]]: ...

        def _now_tick(self) -> int: ...

        def _publish(
            self,
            played: list[Played],
            actor: int | None,
            ref: int | str | None,
            t: float | None = None,
            always: bool = False,
        ) -> None: ...

        def _require_open(self) -> None: ...

        def _save_table(self) -> None: ...

        def _seat_agent(self, seat: Seat, name: str | None) -> None: ...

        def _seat_json(self, seat: Seat) -> dict[str, Any]: ...

        def _seat_left(self, seat: Seat) -> None: ...

        def _seat_of(self, token: str | None) -> Seat: ...

        def _state_message(
            self,
            player: str | None,
            events: list[Event],
            ref: int | str | None,
            timers: dict[str, float] | None = None,
        ) -> bytes: ...

        def _stop_turn_clock(self) -> None: ...

        def _storage(self, reason: str | None) -> None: ...

        def _table_message(self) -> bytes: ...

        def _tell(self, message: dict[str, Any]) -> None: ...

        def _tick_time(self, tick: int) -> float: ...

        def _turn_clock(self) -> None: ...

        def info(self) -> dict[str, Any]: ...
