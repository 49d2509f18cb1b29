"""Where tables and their game records live: SQLAlchemy, SQLite by default, PostgreSQL by URL.

A table row holds the lobby (seats, options, status) and, once started, the record header;
each applied event is one row of ``events``, so a game's record is its header plus its events
in ``seq`` order (RECORDS.md). Writes are queued by the table actors and flushed by one writer
in a single transaction per batch: under load many events share one commit.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    JSON,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

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
)

events_table = Table(
    "events",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("code", String(16), ForeignKey("tables.code"), nullable=False, index=True),
    Column("seq", Integer, nullable=False),
    Column("line", Text, nullable=False),
)


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


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL + NORMAL: a commit does not wait for the disk each time, yet survives a crash of
    # the process (only a power cut can lose the last commits).
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


class StoreUnavailable(Exception):
    """The database cannot be opened; the message is one sentence for the user."""


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


class Store:
    """The database, with a write-behind queue flushed by :meth:`run_writer`."""

    def __init__(self, url: str) -> None:
        self.url = url
        try:
            self.engine: Engine = create_engine(url)
            if self.engine.dialect.name == "sqlite":
                event.listen(self.engine, "connect", _sqlite_pragmas)
            metadata.create_all(self.engine)
        except (SQLAlchemyError, ImportError) as exc:  # a missing driver is an ImportError
            raise _unavailable(url, exc) from exc
        self._pending: list[tuple[str, dict[str, Any]]] = []
        self._wake = asyncio.Event()

    # -- writes (queued) ------------------------------------------------------------------

    def save_table(self, row: dict[str, Any]) -> None:
        """Insert or replace a table row (lobby changes, start, finish)."""
        self._queue("table", row)

    def append_event(self, code: str, seq: int, line: dict[str, Any]) -> None:
        self._queue("event", {"code": code, "seq": seq, "line": json.dumps(line)})

    def _queue(self, kind: str, row: dict[str, Any]) -> None:
        self._pending.append((kind, row))
        self._wake.set()

    async def run_writer(self) -> None:
        """Flush queued writes forever, one transaction per batch."""
        while True:
            await self._wake.wait()
            self._wake.clear()
            self.flush()

    def flush(self) -> None:
        """Write everything queued so far in one transaction."""
        if not self._pending:
            return
        batch, self._pending = self._pending, []
        with self.engine.begin() as conn:
            events: list[dict[str, Any]] = []
            for kind, row in batch:
                if kind == "event":
                    events.append(row)
                    continue
                if events:
                    conn.execute(insert(events_table), events)
                    events = []
                self._upsert_table(conn, row)
            if events:
                conn.execute(insert(events_table), events)

    def _upsert_table(self, conn: Any, row: dict[str, Any]) -> None:
        code = row["code"]
        found = conn.execute(select(tables_table.c.code).where(tables_table.c.code == code))
        if found.first() is None:
            conn.execute(insert(tables_table), [row])
        else:
            values = {k: v for k, v in row.items() if k != "code"}
            conn.execute(update(tables_table).where(tables_table.c.code == code).values(values))

    # -- reads ----------------------------------------------------------------------------

    def load(self, statuses: Sequence[str]) -> list[StoredTable]:
        """Tables in the given statuses, with their events (in ``seq`` order)."""
        self.flush()
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(tables_table).where(tables_table.c.status.in_(list(statuses)))
            ).mappings()
            found = [StoredTable(**dict(r)) for r in rows]
            for table in found:
                table.events = self._events(conn, table.code)
        return found

    def exists(self, code: str) -> bool:
        """Whether a table row ``code`` is stored (queued writes aside: those are live tables)."""
        with self.engine.connect() as conn:
            found = conn.execute(select(tables_table.c.code).where(tables_table.c.code == code))
            return found.first() is not None

    def get(self, code: str) -> StoredTable | None:
        self.flush()
        with self.engine.connect() as conn:
            row = conn.execute(select(tables_table).where(tables_table.c.code == code)).first()
            if row is None:
                return None
            table = StoredTable(**dict(row._mapping))
            table.events = self._events(conn, code)
        return table

    def finished(self, limit: int = 50) -> list[StoredTable]:
        """The most recently finished games, newest first, without their events."""
        self.flush()
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(tables_table)
                .where(tables_table.c.status == "finished")
                .order_by(tables_table.c.finished.desc())
                .limit(limit)
            ).mappings()
            return [StoredTable(**dict(r)) for r in rows]

    @staticmethod
    def _events(conn: Any, code: str) -> list[dict[str, Any]]:
        lines = conn.execute(
            select(events_table.c.line)
            .where(events_table.c.code == code)
            .order_by(events_table.c.seq)
        ).scalars()
        return [json.loads(line) for line in lines]

    def close(self) -> None:
        self.flush()
        self.engine.dispose()
