"""Where tables and their game records live: SQLAlchemy, SQLite by default, PostgreSQL by URL.

A table row holds the lobby (seats, options, status) and, once started, the record header;
each applied event is one row of ``events``, so a game's record is its header plus its events
in ``seq`` order (docs/records.md).

The promise (docs/reliability.md, "Durability"): **no client ever sees an event the store has
not committed.** Table actors queue their writes and then ask to be told when everything they
queued is committed (:meth:`Store.commit`); only then do they send anything. One writer commits
everything queued by every table since its last commit in one transaction (group commit: under
load many tables' events share one commit), in a worker thread so that the event loop keeps
serving while the disk works. A failed commit is kept, in order, and retried with backoff;
meanwhile every watcher (each table) is told the store is down, and told again when it is back.
A record whose events have a hole is never served as if whole: it is marked ``damaged``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import queue
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from itertools import groupby
from operator import itemgetter
from typing import Any, NamedTuple, Protocol, TypeVar

import orjson
from sqlalchemy import (
    JSON,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    and_,
    create_engine,
    event,
    func,
    insert,
    inspect,
    or_,
    select,
    update,
)
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, IntegrityError, SQLAlchemyError

log = logging.getLogger("bestiary.server")

metadata = MetaData()

tables_table = Table(
    "tables",
    metadata,
    Column("code", String(16), primary_key=True),
    Column("game", String(16), nullable=False),
    Column("options", JSON, nullable=False),
    Column("seats", JSON, nullable=False),
    Column("status", String(16), nullable=False, index=True),
    Column("header", JSON, nullable=True),
    Column("winners", JSON, nullable=True),
    Column("created", Float, nullable=False),
    Column("started", Float, nullable=True),
    Column("finished", Float, nullable=True),
    # the lobby's finished games, newest first, a page at a time: read from the index's end,
    # so a page costs the same however many games have finished (Store.finished)
    Index("tables_status_finished", "status", "finished", "code"),
)

events_table = Table(
    "events",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    # no index of its own: the unique (code, seq) index below serves lookups by code (its first
    # column), and every insert wrote both indexes' scattered pages (see _drop_code_index)
    Column("code", String(16), ForeignKey("tables.code"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("line", Text, nullable=False),
    Index("events_code_seq", "code", "seq", unique=True),  # a seq is written once, ever
)

DAMAGED = "damaged"  # the status of a table whose record has a hole

# Retry a failed commit after 0.05 s, doubling up to 2 s: a lock or a full disk usually clears
# within seconds, and a short first wait keeps a blip from being noticed at all.
RETRY_FIRST = 0.05
RETRY_MAX = 2.0
# SQLite waits this long for another process's lock before a commit fails (and is retried).
# Its commits run on the event loop (see Store), so the wait is short: every table waits with it.
SQLITE_BUSY_SECONDS = 0.02


@dataclass
class StoredTable:
    """One table as read back from the store."""

    code: str
    game: str
    options: dict[str, Any]
    seats: list[dict[str, Any]]
    status: str
    header: dict[str, Any] | None
    winners: list[str] | None
    created: float
    started: float | None
    finished: float | None
    events: list[dict[str, Any]] = field(default_factory=list)


class FinishedGame(NamedTuple):
    """A finished game as the lobby lists it (the store's row without header or events)."""

    code: str
    game: str
    seats: list[dict[str, Any]]
    winners: list[str] | None
    finished: float


OLD_CODE_INDEX = "ix_events_code"


def _drop_code_index(engine: Engine) -> None:
    """Drop the index of events by code alone that stores made before 2026-12-02 have: the
    unique (code, seq) index answers the same lookups, and each insert wrote both (a SQLite
    group of 37 moves over 200 tables committed in about a third less CPU without it:
    docs/benchmarks.md, "the merged main against the targets (third sitting)")."""
    if OLD_CODE_INDEX not in {index["name"] for index in inspect(engine).get_indexes("events")}:
        return
    try:
        with engine.begin() as conn:
            conn.exec_driver_sql(f"DROP INDEX IF EXISTS {OLD_CODE_INDEX}")
    except SQLAlchemyError as exc:  # another process dropping it at once: it is gone either way
        log.warning("could not drop the redundant index %s: %s", OLD_CODE_INDEX, exc)


def _sqlite_pragmas(wal_limit: int, dbapi_connection: Any, _record: Any) -> None:
    # WAL + NORMAL: a commit does not wait for the disk each time, yet survives a crash of
    # the process (only a power cut can lose the last commits).
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    # No checkpoint inside a commit: a commit runs on the event loop, and a checkpoint (copying
    # the log into the database, then waiting for the disk) would stall every table.
    # The store checkpoints in a thread of its own instead (Store._checkpoint).
    cursor.execute("PRAGMA wal_autocheckpoint=0")
    # Whenever the log starts over from its beginning, its file is cut back to this size.
    cursor.execute(f"PRAGMA journal_size_limit={int(wal_limit)}")
    cursor.close()


# A thread beside the loop (this writer, the bots) holds the GIL for up to the interpreter's
# switch interval (5 ms) each time the loop wants it back, and the loop holds it as long from
# them: at 1 ms a commit waits less for the loop, and other tables' latency stays near flat while
# bots think.
SWITCH_SECONDS = 0.001

# how often, at most, SQLite's write-ahead log is copied into the database (beside the loop)
CHECKPOINT_SECONDS = 1.0
# SQLite's write-ahead log is kept under about this size (plus what a tenth of a second of
# writing adds; `serve --wal-limit`).
# A passive checkpoint beside a writer that commits every millisecond never catches up with the
# last frames, and the log only starts over once a checkpoint has copied every frame in it: so
# past this size the writer holds its next group while one checkpoint copies the rest and cuts
# the file to nothing (TRUNCATE). The loop serves on meanwhile; only commits wait.
WAL_LIMIT_BYTES = 64 * 1024 * 1024
# A read on behalf of a request (the lobby's list, a finished game, a table's owner) runs in
# one of these threads, never on the loop, and its request is answered 503 after this long.
READERS = 4
READ_SECONDS = 4.0
T = TypeVar("T")
WAL_LOOK_SECONDS = 0.1


def quick_switches() -> None:
    """Make the interpreter hand the GIL between threads every ``SWITCH_SECONDS`` at most."""
    if sys.getswitchinterval() > SWITCH_SECONDS:
        sys.setswitchinterval(SWITCH_SECONDS)


class StoreUnavailable(Exception):
    """The database cannot be opened; the message is one sentence for the user."""


class StoreSlow(Exception):
    """A read on behalf of a request that the database did not answer in time, or refused:
    the request is answered 503 with this one sentence, and the loop never waited for it."""


def _unavailable(url: str, exc: Exception) -> StoreUnavailable:
    try:
        shown = make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return StoreUnavailable(f"{url!r} is not a database URL (e.g. sqlite:///bestiary.sqlite).")
    # the driver's own first line says why (refused, no such database, bad password...)
    reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
    if isinstance(exc, ImportError):
        reason += " (for PostgreSQL: pip install 'bestiary[postgres]')"
    return StoreUnavailable(f"cannot open the database {shown}: {reason}")


def _reason(exc: BaseException) -> str:
    """The database's own first line (locked, read-only, disk full, connection closed...)."""
    text = str(getattr(exc, "orig", None) or exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _upsert_statement(dialect: str) -> Any:
    """INSERT ... ON CONFLICT DO UPDATE of a table row, for the databases that have it (None:
    select, then write). Built once: its compiled form is then reused for every row."""
    inserts: dict[str, Any] = {"sqlite": sqlite_insert, "postgresql": postgresql_insert}
    insert_for = inserts.get(dialect)
    if insert_for is None:
        return None
    statement = insert_for(tables_table)
    changed = {c.name: statement.excluded[c.name] for c in tables_table.c if c.name != "code"}
    return statement.on_conflict_do_update(index_elements=["code"], set_=changed)


# the driver's own placeholders, by its paramstyle (PEP 249): the n-th one
_MARK: dict[str, Callable[[int], str]] = {
    "qmark": lambda _: "?",
    "numeric": lambda n: f":{n}",
    "format": lambda _: "%s",
    "pyformat": lambda _: "%s",
}


def _marks(paramstyle: str, count: int) -> str | None:
    """``count`` placeholders for the driver's own SQL (None: a style that names them)."""
    mark = _MARK.get(paramstyle)
    return mark and ", ".join(mark(n) for n in range(1, count + 1))


# A table row as SQLite's driver takes it, bound as SQLAlchemy binds it (``_upsert_statement``'s
# row): its columns in order, JSON columns as ``json.dumps`` text (None too: ``null``, as
# SQLAlchemy's JSON type stores it unless told otherwise), the rest as they are.
_COLUMNS = tuple(column.name for column in tables_table.c)
_AS_JSON = tuple(isinstance(column.type, JSON) for column in tables_table.c)
_SQLITE_UPSERT = (
    f"INSERT INTO tables ({', '.join(_COLUMNS)}) VALUES ({_marks('qmark', len(_COLUMNS))}) "
    f"ON CONFLICT (code) DO UPDATE SET "
    + ", ".join(f"{name} = excluded.{name}" for name in _COLUMNS if name != "code")
)


def _table_values(row: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(
        json.dumps(row[name]) if as_json else row[name]
        for name, as_json in zip(_COLUMNS, _AS_JSON, strict=True)
    )


Write = tuple[str, dict[str, Any]]
Watcher = Callable[[str | None], None]  # called with the reason the store is down, None: back


class NotOwner(Exception):
    """Writes for tables another process owns now (it took them over): never committed."""

    def __init__(self, codes: set[str]) -> None:
        super().__init__(f"tables {', '.join(sorted(codes))} are owned by another process")
        self.codes = codes


class Owners(Protocol):
    """Table ownership among several server processes (``bestiary.server.ownership``): every
    transaction is fenced, so only a table's owner ever commits its writes."""

    def check(self, conn: Any, batch: Sequence[Write]) -> set[str]:
        """Inside the transaction, before any write: the batch's tables this process does not
        own (their rows stay locked until the commit, so no takeover can come between)."""

    def write(self, conn: Any, kind: str, row: dict[str, Any]) -> None:
        """A write of the owners' own (claim, release, hand-off), in its place in the batch."""

    def insert_events(self, cursor: Any, events: list[tuple[str, int, str]]) -> set[str]:
        """With a cursor of the driver's own on an autocommit connection: insert the events of
        the tables this process owns and lock their rows, in one statement that is its own
        transaction; returns the tables it does not own (none of their events inserted)."""

    def lost(self, codes: set[str]) -> None:
        """Called from the writer's thread: these tables are another process's now."""


class Store:
    """The database, with queued writes committed in groups by :meth:`run_writer`.

    A SQLite commit (WAL, no wait for the disk) takes a fraction of a millisecond, so it runs on
    the event loop: a move is sent in the next turn of the loop, with no hand-off to a thread and
    back (under load those hand-offs, waiting for the GIL, were most of a move's latency). Other
    databases answer over a connection, so their commits run in one thread (``inline`` chooses).
    """

    def __init__(
        self, url: str, inline: bool | None = None, wal_limit: int = WAL_LIMIT_BYTES
    ) -> None:
        self.url = url
        self.wal_limit = wal_limit
        try:
            sqlite = self._sqlite = make_url(url).get_backend_name() == "sqlite"
            self.inline = sqlite if inline is None else inline
            if sqlite:
                self.engine: Engine = create_engine(
                    url, connect_args={"timeout": SQLITE_BUSY_SECONDS}
                )
                event.listen(self.engine, "connect", partial(_sqlite_pragmas, wal_limit))
            else:  # a server may drop connections (restart, pg_terminate_backend): test first
                self.engine = create_engine(url, pool_pre_ping=True)
            metadata.create_all(self.engine)
            _drop_code_index(self.engine)
            for index in tables_table.indexes:  # create_all adds none to an older store's table
                index.create(self.engine, checkfirst=True)
        except (SQLAlchemyError, ImportError, ArgumentError) as exc:  # no driver: ImportError
            raise _unavailable(url, exc) from exc
        # Events go in as the driver's own executemany: the hot path of every move, where
        # SQLAlchemy's per-row processing cost more than the database's work.
        style = self.engine.dialect.paramstyle
        marks, mark = _marks(style, 3), _marks(style, 1)
        self._insert_events = marks and f"INSERT INTO events (code, seq, line) VALUES ({marks})"
        # a new table's code is checked against every stored one: half the cost as the driver's own
        self._find_code = mark and f"SELECT 1 FROM tables WHERE code = {mark}"
        self._upsert = _upsert_statement(self.engine.dialect.name)
        self._pending: list[Write] = []
        self._waiters: list[Callable[[], None]] = []
        self._wake = asyncio.Event()
        self._watchers: list[Watcher] = []
        self.down: str | None = None  # why the last commit failed, while it keeps failing
        self._down_since = 0.0
        # Other databases: one thread of the writer's own does every write, in order. The loop
        # hands it a group through a plain queue and is told once the group is committed, by one
        # callback (an executor's futures and a task waking on each would cost far more per
        # group). ``_sending``: a group is on its way or being written.
        self._groups: queue.SimpleQueue[list[Write] | None] = queue.SimpleQueue()
        self._writer: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None  # while run_writer runs (thread)
        self._told: asyncio.AbstractEventLoop | None = None  # the loop the thread tells
        self._sending = False
        self._retry_delay = RETRY_FIRST
        # the group the thread is writing, with its waiters, and how it ended (None: fine),
        # kept for close() when the loop has stopped hearing from the thread
        self._inflight: tuple[list[Write], list[Callable[[], None]]] | None = None
        self._inflight_error: BaseException | None = None
        # SQLite's checkpoints: in their own thread, which sqlite3 leaves the GIL while it works
        self._checkpoints = (
            ThreadPoolExecutor(max_workers=1, thread_name_prefix="checkpoint") if sqlite else None
        )
        self._checkpoint_due = 0.0
        self._reads = ThreadPoolExecutor(max_workers=READERS, thread_name_prefix="store-read")
        self._wal_looked = 0.0  # when the writer last looked at the log's size
        self.owners: Owners | None = None  # several processes: fences every commit
        # the writer's own connection for batches of events only (one statement, autocommit):
        # kept open, so no pool checkout and no liveness ping per commit
        self._events_conn: Any = None
        self._events_cursor: Any = None  # the driver's own, on that connection

    # -- writes (queued, then committed in groups) ----------------------------------------

    def save_table(self, row: dict[str, Any]) -> None:
        """Insert or replace a table row (lobby changes, start, finish)."""
        self._queue("table", row)

    def append_event(self, code: str, seq: int, line: dict[str, Any]) -> None:
        self._queue("event", {"code": code, "seq": seq, "line": orjson.dumps(line).decode()})

    def write(self, kind: str, row: dict[str, Any]) -> None:
        """Queue one of the owners' own writes (``Owners.write``), in order with the rest."""
        self._queue(kind, row)

    def commit(self, done: Callable[[], None]) -> None:
        """Call ``done`` (on the event loop) once everything queued so far is committed."""
        self._waiters.append(done)
        self._kick()

    async def committed(self) -> None:
        """Once everything queued so far is committed: a lobby change (a table made, a seat
        taken) is answered only then, as a move is sent only then. While the store is down
        this waits, as the tables do."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def told() -> None:
            if not done.done():  # a request that gave up has cancelled it
                done.set_result(None)

        self.commit(told)
        await done

    def watch(self, watcher: Watcher) -> None:
        """Tell ``watcher`` when commits start failing (with the reason) and when they work."""
        self._watchers.append(watcher)

    def unwatch(self, watcher: Watcher) -> None:
        if watcher in self._watchers:
            self._watchers.remove(watcher)

    @property
    def queued(self) -> int:
        """Writes not yet committed."""
        return len(self._pending)

    def _queue(self, kind: str, row: dict[str, Any]) -> None:
        self._pending.append((kind, row))
        self._kick()

    def _kick(self) -> None:
        """Something was queued: the writer sends it once this turn of the loop is done."""
        if self._loop is None:
            self._wake.set()  # inline, or no writer yet (it looks when it starts)
        elif not self._sending:
            self._sending = True
            self._loop.call_soon(self._send)

    async def run_writer(self) -> None:
        """Commit queued writes until cancelled: one transaction per group, retried until it
        holds. Inline (SQLite): on the loop. Otherwise: in the writer's own thread."""
        if self.inline:
            await self._write_inline()
            return
        quick_switches()  # its thread and the loop share the GIL
        loop = asyncio.get_running_loop()
        self._loop = self._told = loop
        self._sending = False
        if self._writer is None:
            self._writer = threading.Thread(target=self._writing, name="store", daemon=True)
            self._writer.start()
        self._kick()  # whatever was queued before the writer ran
        try:
            await loop.create_future()  # until cancelled (shutdown)
        finally:
            if self._loop is loop:  # from now on close() commits what is left
                self._loop = None

    async def _write_inline(self) -> None:
        delay = RETRY_FIRST
        while True:
            await self._wake.wait()
            await asyncio.sleep(0)  # the rest of this turn of the loop joins the group
            self._wake.clear()
            batch, waiters = self._pending, self._waiters
            if not batch and not waiters:
                continue
            self._pending, self._waiters = [], []
            if self._wal_full():
                await asyncio.get_running_loop().run_in_executor(self._checkpoints, self._truncate)
            try:
                if batch:
                    self._write(batch)
            except (SQLAlchemyError, OSError) as exc:
                # Keep the group, in front of anything queued since, and try again later.
                self._requeue(batch, waiters, exc, delay)
                await asyncio.sleep(delay)
                delay = min(RETRY_MAX, delay * 2)
                self._wake.set()
                continue
            delay = RETRY_FIRST
            self._done(batch, waiters)

    def _send(self) -> None:
        """On the loop: hand everything queued to the writer's thread as one group."""
        if self._loop is None:
            self._sending = False
            return
        batch, waiters = self._pending, self._waiters
        self._pending, self._waiters = [], []
        if not batch:
            self._sending = False
            self._done(batch, waiters)
            return
        self._inflight, self._inflight_error = (batch, waiters), None
        self._groups.put(batch)

    def _writing(self) -> None:
        """The writer's thread: write each group it is handed, then tell the loop."""
        while (batch := self._groups.get()) is not None:
            error: BaseException | None = None
            try:
                self._write(batch)
            except Exception as exc:  # kept and retried, as the loop decides
                error = exc
            self._inflight_error = error
            loop = self._told
            with contextlib.suppress(RuntimeError):  # the loop is closed: close() sees it
                if loop is not None:
                    loop.call_soon_threadsafe(self._written, error)

    def _written(self, error: BaseException | None) -> None:
        """On the loop: the group in flight is committed (or failed, and goes again later)."""
        if self._inflight is None:
            return  # close() has dealt with it
        (batch, waiters), self._inflight = self._inflight, None
        if error is not None:
            delay = self._retry_delay
            self._requeue(batch, waiters, error, delay)
            self._retry_delay = min(RETRY_MAX, delay * 2)
            if self._loop is not None:
                self._loop.call_later(delay, self._send)  # still _sending: nothing else starts
            return
        self._retry_delay = RETRY_FIRST
        self._done(batch, waiters)
        if self._pending or self._waiters:  # what came in meanwhile: the next group, now
            self._send()
        else:
            self._sending = False

    def _requeue(
        self,
        batch: list[Write],
        waiters: list[Callable[[], None]],
        exc: BaseException,
        delay: float,
    ) -> None:
        """A group failed: keep it, in front of anything queued since, and say so."""
        self._pending = batch + self._pending
        self._waiters = waiters + self._waiters
        self._failed(exc, delay, len(batch))

    def _done(self, batch: list[Write], waiters: list[Callable[[], None]]) -> None:
        """A group is committed: tell whoever waited for it."""
        if self.down is not None:
            self._recovered(len(batch))
        if batch:
            self._checkpoint_soon()
        for done in waiters:
            try:
                done()
            except Exception:  # one table's trouble is not the writer's
                log.exception("store: a commit callback failed")

    def _failed(self, exc: BaseException, delay: float, count: int) -> None:
        reason = _reason(exc)
        first = self.down is None
        if first:
            self._down_since = time.monotonic()
        self.down = reason
        log.error(
            "store: commit of %d writes failed (%s); tables paused, retrying in %.2f s",
            count,
            reason,
            delay,
        )
        if first:
            self._tell(reason)

    def _recovered(self, count: int) -> None:
        log.warning(
            "store: commits work again after %.1f s (%d writes committed, none lost); "
            "tables resume",
            time.monotonic() - self._down_since,
            count,
        )
        self.down = None
        self._tell(None)

    def _tell(self, reason: str | None) -> None:
        for watcher in list(self._watchers):
            try:
                watcher(reason)
            except Exception:
                log.exception("store: a watcher failed")

    def flush(self) -> None:
        """Commit everything queued so far now, in this thread (start-up, tests, shutdown)."""
        if not self._pending:
            return
        batch, self._pending = self._pending, []
        try:
            self._write(batch)
        except BaseException:
            self._pending = batch + self._pending
            raise

    def _checkpoint_soon(self) -> None:
        now = time.monotonic()
        if self._checkpoints is not None and now >= self._checkpoint_due:
            self._checkpoint_due = float("inf")  # until this one is done
            self._checkpoints.submit(self._checkpoint)

    def _checkpoint(self) -> None:
        """Copy what the log holds into the database, without waiting for anyone (PASSIVE: the
        writer goes on meanwhile; what it cannot copy yet is left for the next one)."""
        try:
            with self.engine.connect() as conn:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
        except SQLAlchemyError as exc:  # the commits say loudly when storage is down
            log.debug("store: checkpoint failed: %s", _reason(exc))
        finally:
            self._checkpoint_due = time.monotonic() + CHECKPOINT_SECONDS

    def _truncate(self) -> None:
        """The checkpoint thread, while the writer holds its commits: copy every frame and cut
        the log to nothing. A reader still on an old snapshot makes it give up after SQLite's
        busy wait (the log is then cut back on a later try, or when it next starts over)."""
        try:
            with self.engine.connect() as conn:
                busy, frames, copied = conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)").one()
            if busy:
                log.info(
                    "store: the log could not be cut back yet (%d of %d frames)", copied, frames
                )
        except SQLAlchemyError as exc:
            log.debug("store: checkpoint failed: %s", _reason(exc))

    def _wal_full(self) -> bool:
        """Whether SQLite's log is past its limit (looked at every WAL_LOOK_SECONDS at most)."""
        now = time.monotonic()
        if self._checkpoints is None or now < self._wal_looked + WAL_LOOK_SECONDS:
            return False
        self._wal_looked = now
        try:
            return os.stat(f"{self.engine.url.database}-wal").st_size > self.wal_limit
        except (OSError, TypeError):  # no log yet, or a database in memory
            return False

    def _write(self, batch: Sequence[Write]) -> None:
        while True:
            try:
                self._write_once(batch)
                return
            except NotOwner as refused:  # nothing of it was committed: the rest goes again
                batch = [write for write in batch if write[1].get("code") not in refused.codes]
                assert self.owners is not None
                self.owners.lost(refused.codes)
            except IntegrityError:
                # A table whose next seq is stored already was played on elsewhere: its copy
                # here is stale and is dropped; the group goes again without it, so one table's
                # refusal never holds every other table's moves back.
                stale = self._stale(batch) if self.owners is not None else set()
                if not stale:
                    raise
                batch = [write for write in batch if write[1].get("code") not in stale]
                assert self.owners is not None
                self.owners.lost(stale)

    def _stale(self, batch: Sequence[Write]) -> set[str]:
        """The tables of ``batch`` some of whose events' seqs are stored already."""
        first: dict[str, int] = {}
        for kind, row in batch:
            if kind == "event":
                first[row["code"]] = min(first.get(row["code"], row["seq"]), row["seq"])
        stored = select(events_table.c.code, func.max(events_table.c.seq)).where(
            events_table.c.code.in_(sorted(first))
        )
        with self.engine.connect() as conn:
            rows = conn.execute(stored.group_by(events_table.c.code)).all()
        return {code for code, last in rows if last is not None and last >= first[code]}

    def _write_once(self, batch: Sequence[Write]) -> None:
        owners = self.owners
        if (owners is not None or self._sqlite) and all(kind == "event" for kind, _ in batch):
            self._write_events(owners, [(r["code"], r["seq"], r["line"]) for _, r in batch])
            return
        if self._sqlite and owners is None:
            self._write_sqlite(batch)
            return
        with self.engine.begin() as conn:
            if owners is not None:
                lost = owners.check(conn, batch)
                if lost:
                    raise NotOwner(lost)
            events: list[tuple[str, int, str]] = []
            for kind, row in batch:
                if kind == "event":
                    events.append((row["code"], row["seq"], row["line"]))
                    continue
                if events:
                    self._insert(conn, events)
                    events = []
                if kind == "table":
                    self._upsert_table(conn, row)
                elif owners is not None:
                    owners.write(conn, kind, row)
            if events:
                self._insert(conn, events)

    def _write_events(self, owners: Owners | None, events: list[tuple[str, int, str]]) -> None:
        """Moves only (the usual group), by the driver itself: a worker's one fenced statement,
        committed as it runs, or SQLite's ``executemany`` in one transaction (SQLAlchemy's work
        per statement and per row would be most of a group's cost)."""
        lost: set[str] = set()
        with self._driver("a group of events") as cursor:
            if owners is not None:
                lost = owners.insert_events(cursor, events)
            else:
                cursor.execute("BEGIN")
                cursor.executemany(self._insert_events, events)
                cursor.execute("COMMIT")
        if lost and owners is not None:
            owners.lost(lost)

    def _write_sqlite(self, batch: Sequence[Write]) -> None:
        """A SQLite group with table rows (a table opened, joined, started or finished, among
        moves) by the driver itself too, in one transaction: each run of events one
        ``executemany``, each run of rows one upsert (SQLAlchemy's work per statement would be
        most of a lobby change's cost to the store)."""
        with self._driver("a group with table rows") as cursor:
            cursor.execute("BEGIN")
            for kind, run in groupby(batch, key=itemgetter(0)):
                rows = [row for _, row in run]
                if kind == "event":
                    cursor.executemany(
                        self._insert_events, [(r["code"], r["seq"], r["line"]) for r in rows]
                    )
                else:  # SQLite has no owners, whose own writes are the only other kind
                    assert kind == "table", kind
                    cursor.executemany(_SQLITE_UPSERT, [_table_values(row) for row in rows])
            cursor.execute("COMMIT")

    @contextlib.contextmanager
    def _driver(self, what: str) -> Iterator[Any]:
        """The writer's own connection's cursor (kept open: no pool checkout and no liveness
        ping per commit). A failure drops the connection (it may hold the transaction open: it
        is opened afresh at the retry) and is raised as SQLAlchemy's, which the writer
        retries."""
        errors = self.engine.dialect.loaded_dbapi.Error
        try:
            if self._events_conn is None:
                conn = self.engine.connect().execution_options(isolation_level="AUTOCOMMIT")
                self._events_conn, driver = conn, conn.connection.driver_connection
                assert driver is not None  # a connection just opened
                self._events_cursor = driver.cursor()
            yield self._events_cursor
        except (SQLAlchemyError, OSError, errors) as exc:
            self._drop_events_conn()
            if isinstance(exc, errors):  # as SQLAlchemy would say it: the writer retries those
                raise DBAPIError(what, None, exc) from exc
            raise

    def _drop_events_conn(self) -> None:
        conn, self._events_conn, self._events_cursor = self._events_conn, None, None
        if conn is not None:
            try:
                conn.invalidate()
                conn.close()
            except SQLAlchemyError as exc:
                log.debug("store: closing a broken connection: %s", _reason(exc))

    def _insert(self, conn: Any, events: list[tuple[str, int, str]]) -> None:
        if self._insert_events:
            conn.exec_driver_sql(self._insert_events, events)
        else:  # a driver whose placeholders take names
            rows = [{"code": code, "seq": seq, "line": line} for code, seq, line in events]
            conn.execute(insert(events_table), rows)

    def _upsert_table(self, conn: Any, row: dict[str, Any]) -> None:
        if self._upsert is not None:  # one statement where the database has one
            conn.execute(self._upsert, row)
            return
        code = row["code"]
        found = conn.execute(select(tables_table.c.code).where(tables_table.c.code == code))
        if found.first() is None:
            conn.execute(insert(tables_table), [row])
        else:
            values = {k: v for k, v in row.items() if k != "code"}
            conn.execute(update(tables_table).where(tables_table.c.code == code).values(values))

    # -- reads ----------------------------------------------------------------------------

    def beside(self, work: Callable[..., T], *args: Any) -> asyncio.Future[T]:
        """Run ``work(*args)`` in a reader thread (a read, or a replay of what was read)."""
        return asyncio.get_running_loop().run_in_executor(self._reads, partial(work, *args))

    async def read(self, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)`` beside the loop, waited for READ_SECONDS at most (StoreSlow)."""
        return await within(self.beside(work, *args))

    def load(self, statuses: Sequence[str]) -> list[StoredTable]:
        """Tables in the given statuses, with their events (in ``seq`` order).

        A table whose record has a hole is left out (and marked damaged, with a log line).
        """
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(tables_table).where(tables_table.c.status.in_(list(statuses)))
            ).mappings()
            found = [StoredTable(**dict(r)) for r in rows]
            for table in found:
                self._read_events(conn, table)
        return [t for t in found if t.status != DAMAGED]

    def exists(self, code: str) -> bool:
        """Whether a table row ``code`` is stored (queued writes aside: those are live tables)."""
        if self._sqlite and self.inline and self._find_code:  # the writer's own connection:
            # its writes run here, on the loop, so the two never meet
            with self._driver("a table's code looked up") as cursor:
                return cursor.execute(self._find_code, (code,)).fetchone() is not None
        with self.engine.connect() as conn:
            if self._find_code:
                return conn.exec_driver_sql(self._find_code, (code,)).first() is not None
            found = conn.execute(select(tables_table.c.code).where(tables_table.c.code == code))
            return found.first() is not None

    def get(self, code: str) -> StoredTable | None:
        """One table with its events; a record with a hole comes back with status ``damaged``."""
        with self.engine.connect() as conn:
            row = conn.execute(select(tables_table).where(tables_table.c.code == code)).first()
            if row is None:
                return None
            table = StoredTable(**dict(row._mapping))
            self._read_events(conn, table)
        return table

    def finished_table(self, code: str) -> StoredTable | None:
        """One finished table without its events (None if there is none, or its record has a
        hole: marked damaged by reading it whole, as ``get`` does); its events a page at a
        time from ``event_page``."""
        with self.engine.connect() as conn:
            row = conn.execute(select(tables_table).where(tables_table.c.code == code)).first()
            if row is None or row.status != "finished":
                return None
            c = events_table.c
            count, last = conn.execute(
                select(func.count(), func.max(c.seq)).where(c.code == code)
            ).one()
        if count != (last or 0):  # a hole: the whole read marks it damaged, and says so
            whole = self.get(code)
            return None if whole is None or whole.status != "finished" else whole
        return StoredTable(**dict(row._mapping))

    def event_page(self, code: str, after: int, limit: int) -> list[tuple[int, dict[str, Any]]]:
        """Up to ``limit`` of a table's events past seq ``after``, as (seq, event), in order."""
        c = events_table.c
        query = (
            select(c.seq, c.line).where(c.code == code, c.seq > after).order_by(c.seq).limit(limit)
        )
        with self.engine.connect() as conn:
            return [(seq, orjson.loads(line)) for seq, line in conn.execute(query)]

    def finished(
        self, limit: int = 50, offset: int = 0, before: tuple[float, str] | None = None
    ) -> list[FinishedGame]:
        """Finished games, newest first (ties by code), ``offset`` on or, given ``before``
        (a game's ``(finished, code)``), those after it: only what the lobby lists of each."""
        c = tables_table.c
        query = select(c.code, c.game, c.seats, c.winners, c.finished).where(c.status == "finished")
        if before is not None:
            when, code = before
            query = query.where(or_(c.finished < when, and_(c.finished == when, c.code < code)))
        query = query.order_by(c.finished.desc(), c.code.desc()).offset(offset).limit(limit)
        with self.engine.connect() as conn:
            return [FinishedGame(*row) for row in conn.execute(query)]

    def _read_events(self, conn: Any, table: StoredTable) -> None:
        rows = conn.execute(
            select(events_table.c.seq, events_table.c.line)
            .where(events_table.c.code == table.code)
            .order_by(events_table.c.seq)
        ).all()
        table.events = [orjson.loads(line) for _, line in rows]
        hole = next((i + 1 for i, (seq, _) in enumerate(rows) if seq != i + 1), None)
        if hole is not None and table.status != DAMAGED:
            log.error(
                "table %s: its record has a hole at seq %d (%d events stored); "
                "marked damaged, never served as a whole record",
                table.code,
                hole,
                len(rows),
            )
            table.status = DAMAGED
            try:
                with self.engine.begin() as marking:
                    marking.execute(
                        update(tables_table)
                        .where(tables_table.c.code == table.code)
                        .values(status=DAMAGED)
                    )
            except SQLAlchemyError as exc:
                log.error("table %s: could not mark it damaged: %s", table.code, _reason(exc))

    def close(self, attempts: int = 5) -> None:
        """Commit what is queued (retrying a few times), or say loudly what could not be."""
        if self._writer is not None:  # let the thread finish the group it is writing
            self._groups.put(None)
            self._writer.join()
            self._writer = None
        if self._inflight is not None:  # the writer was stopped mid-commit: see how it ended
            batch, _ = self._inflight
            self._inflight = None
            if self._inflight_error is not None:
                self._pending = batch + self._pending
        delay = RETRY_FIRST
        for attempt in range(attempts):
            try:
                self.flush()
                break
            except (SQLAlchemyError, OSError) as exc:
                if attempt == attempts - 1:
                    codes = sorted({row["code"] for _, row in self._pending})
                    events = sum(1 for kind, _ in self._pending if kind == "event")
                    log.critical(
                        "store: shutting down with %d writes NOT committed (%d events; tables "
                        "%s): %s",
                        len(self._pending),
                        events,
                        ", ".join(codes),
                        _reason(exc),
                    )
                    break
                time.sleep(delay)
                delay = min(RETRY_MAX, delay * 2)
        self._drop_events_conn()
        if self._checkpoints is not None:
            self._checkpoints.shutdown(wait=True)
        self._reads.shutdown(wait=False, cancel_futures=True)
        self.engine.dispose()


async def within(work: asyncio.Future[T], seconds: float = READ_SECONDS) -> T:
    """Wait for a read beside the loop (left to finish on its own if it takes too long):
    StoreSlow, one sentence, if it is not done within ``seconds`` or the database refused it."""
    try:
        return await asyncio.wait_for(asyncio.shield(work), seconds)
    except TimeoutError:
        raise StoreSlow(
            f"the database did not answer within {seconds:g} s; try again shortly."
        ) from None
    except SQLAlchemyError as exc:
        log.warning("store: a read failed: %s", _reason(exc))
        raise StoreSlow("the database is unavailable; try again shortly.") from None
