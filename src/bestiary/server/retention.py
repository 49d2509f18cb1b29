"""How many finished games the store keeps: the oldest beyond ``--keep-finished``, or finished
more than ``--keep-days`` ago, are deleted by a sweep in a thread of its own (docs/reliability.md,
"Disk"). With each table's record bounded, this bounds the store in all.

A game to go is first marked ``deleting`` (no longer listed or served, in one short
transaction), then its events are deleted a few hundred rows per transaction, then its row: no
transaction holds SQLite's write lock for long, so the store's writer (which waits only
``SQLITE_BUSY_SECONDS`` for it) is never held up. A sweep cut short (a crash, a lock) leaves
``deleting`` rows that the next sweep finishes first. Every step names the rows it changes by
their status, so two workers sweeping at once delete each game once and nothing else.

Open tables and games in play are never touched; a game finished within twice
``--finished-table-seconds`` neither (its players may still be at its table, asking for its replay).
Expired open tables (never played: no events) go after ``EXPIRED_SECONDS``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, TypeVar

from sqlalchemy import and_, delete, func, or_, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import OperationalError, SQLAlchemyError
from sqlalchemy.sql import Executable

from bestiary.server.store import events_table, tables_table

if TYPE_CHECKING:
    from bestiary.server.lobby import Lobby
    from bestiary.server.settings import ServerSettings
    from bestiary.server.store import Store

log = logging.getLogger("bestiary.server")
T = TypeVar("T")

DELETING = "deleting"  # the status of a finished game being deleted (never shown)
GAMES_PER_STEP = 50  # games marked for deletion per transaction
EVENTS_PER_STEP = 500  # event rows deleted per transaction (a few ms of SQLite's write lock)
PAUSE_SECONDS = 0.005  # between two deleting transactions: the writer's commits go first
LOCKED_TRIES = 40  # a step tried this often while the write lock is held elsewhere
LOCKED_PAUSE = 0.05  # seconds between two tries
EXPIRED_SECONDS = 86400.0  # an expired open table is kept a day (its code may still be asked)
SWEEP_SECONDS = 60.0  # between two sweeps
STOP_SECONDS = 3.0  # a shutdown waits this long at most for a sweep under way
DAY = 86400.0


@dataclass(frozen=True)
class Retention:
    """What the store keeps of finished games (``serve --keep-finished``, ``--keep-days``)."""

    keep_finished: int  # the newest this many
    keep_days: float  # and none finished longer ago than this
    protect_seconds: float  # nor any younger than this, whatever the two above say


def sweep(
    engine: Engine,
    retention: Retention,
    now: float | None = None,
    halt: threading.Event | None = None,
) -> list[str]:
    """Delete the finished games (and expired open tables) past ``retention`` at ``now``
    (wall-clock seconds, as ``tables.finished``): the codes deleted, oldest first. Set
    ``halt`` stops it between two games (the rest is the next sweep's)."""
    now = time.time() if now is None else now
    gone: list[str] = []
    # marked games left by a sweep cut short go first, then each batch marked
    while halt is None or not halt.is_set():
        codes = _marked(engine)
        if not codes:
            if not _mark(engine, retention, now):
                break
            continue
        for code in codes:
            if halt is not None and halt.is_set():
                return gone
            _delete_game(engine, code)
            gone.append(code)
    if halt is not None and halt.is_set():
        return gone
    return gone + _delete_expired(engine, now - EXPIRED_SECONDS)


def _marked(engine: Engine) -> list[str]:
    c = tables_table.c
    query = select(c.code).where(c.status == DELETING).order_by(c.code).limit(GAMES_PER_STEP)
    with engine.connect() as conn:
        return [code for (code,) in conn.execute(query)]


def _in_turn(engine: Engine, step: Callable[[Connection], T]) -> T:
    """``step`` in a transaction of its own, tried again while another connection holds the
    write lock (SQLite's writer, committing every few milliseconds under load): the sweep
    waits for the writer, never the writer for the sweep."""
    for _ in range(LOCKED_TRIES - 1):
        try:
            with engine.begin() as conn:
                return step(conn)
        except OperationalError:
            time.sleep(LOCKED_PAUSE)
    with engine.begin() as conn:
        return step(conn)


def _mark(engine: Engine, retention: Retention, now: float) -> int:
    """Mark the next few finished games past the retention ``deleting``; how many."""
    return _in_turn(engine, partial(_mark_in, retention, now))


def _mark_in(retention: Retention, now: float, conn: Connection) -> int:
    c = tables_table.c
    finished = and_(c.status == "finished", c.finished < now - retention.protect_seconds)
    newest = conn.execute(  # the last game kept by count (None: fewer than that)
        select(c.finished, c.code)
        .where(c.status == "finished")
        .order_by(c.finished.desc(), c.code.desc())
        .offset(retention.keep_finished - 1)
        .limit(1)
    ).first()
    past = c.finished < now - retention.keep_days * DAY
    if newest is not None:
        when, code = newest
        past = or_(past, c.finished < when, and_(c.finished == when, c.code < code))
    batch = (
        select(c.code)
        .where(finished, past)
        .order_by(c.finished, c.code)
        .limit(GAMES_PER_STEP)
        .scalar_subquery()
    )
    marked = conn.execute(
        update(tables_table)
        .where(c.code.in_(batch), c.status == "finished")
        .values(status=DELETING)
    )
    return int(marked.rowcount)


def _delete_game(engine: Engine, code: str) -> None:
    """A marked game's events, a step at a time, then its row."""
    e = events_table.c
    with engine.connect() as conn:
        last = conn.execute(select(func.max(e.seq)).where(e.code == code)).scalar() or 0
    for top in range(EVENTS_PER_STEP, last + EVENTS_PER_STEP, EVENTS_PER_STEP):
        _in_turn(
            engine, partial(_execute, delete(events_table).where(e.code == code, e.seq <= top))
        )
        time.sleep(PAUSE_SECONDS)
    t = tables_table.c
    _in_turn(  # events stored after the count above (none should be) go too
        engine, partial(_execute, delete(events_table).where(e.code == code))
    )
    _in_turn(
        engine, partial(_execute, delete(tables_table).where(t.code == code, t.status == DELETING))
    )


def _execute(statement: Executable, conn: Connection) -> None:
    conn.execute(statement)


def _expired_step(before: float, conn: Connection) -> list[str]:
    c = tables_table.c
    found = conn.execute(
        select(c.code)
        .where(c.status == "expired", c.created < before)
        .order_by(c.code)
        .limit(GAMES_PER_STEP)
    )
    codes = [code for (code,) in found]
    if codes:
        conn.execute(delete(events_table).where(events_table.c.code.in_(codes)))
        conn.execute(delete(tables_table).where(c.code.in_(codes), c.status == "expired"))
    return codes


def _delete_expired(engine: Engine, before: float) -> list[str]:
    gone: list[str] = []
    while codes := _in_turn(engine, partial(_expired_step, before)):
        gone += codes
        time.sleep(PAUSE_SECONDS)
    return gone


class Sweeper:
    """Sweeps every ``every`` seconds in a thread of its own until stopped; ``gone`` is told
    the codes deleted (from that thread)."""

    def __init__(
        self,
        engine: Engine,
        retention: Retention,
        gone: Callable[[list[str]], None],
        every: float = SWEEP_SECONDS,
    ) -> None:
        self.engine, self.retention, self.gone, self.every = engine, retention, gone, every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="retention", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """Stop between two games, waiting STOP_SECONDS at most: a game left half deleted is
        marked ``deleting``, and the next sweep (after a restart too) finishes it."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(STOP_SECONDS)

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            try:
                codes = sweep(self.engine, self.retention, halt=self._stop)
            except SQLAlchemyError as exc:  # a lock or an outage: the next sweep goes on
                log.info("retention: a sweep was cut short: %s", str(exc).splitlines()[0])
                continue
            if codes:
                log.info("retention: %d finished or expired tables deleted", len(codes))
                self.gone(codes)


def sweeper_for(store: Store, lobby: Lobby, limits: ServerSettings) -> Sweeper:
    """The server's sweeper (inside the running loop): the replays it had cached of the games
    deleted are dropped on the loop."""
    loop = asyncio.get_running_loop()
    retention = Retention(
        keep_finished=limits.keep_finished,
        keep_days=limits.keep_days,
        protect_seconds=2 * limits.finished_table_seconds,
    )

    def gone(codes: list[str]) -> None:
        with contextlib.suppress(RuntimeError):  # the loop has closed: nothing is cached
            loop.call_soon_threadsafe(lobby.forget_replays, codes)

    return Sweeper(store.engine, retention, gone, limits.sweep_seconds)
