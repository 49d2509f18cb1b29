"""``GET /healthz``: whether this process answers and its store commits, now.

The store is asked with a real write: one row of a table of its own (``health``, one row per
server process name) replaced in one transaction, on its own connection and thread, never on the
event loop and never in the tables' writer's queue (a probe must not wait behind, or delay, a
group of moves). A write the database refuses (a lock held past the wait, a read-only or full
disk, a database that is gone) or that takes longer than ``PROBE_SECONDS`` makes the answer 503
with the reason. One probe runs at a time and its answer is kept ``FRESH_SECONDS``, so a flood of
``/healthz`` costs the database at most one small write a second.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import time

from sqlalchemy import Column, Float, MetaData, String, Table, create_engine, delete, insert
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import SQLAlchemyError

PROBE_SECONDS = 3.0
FRESH_SECONDS = 1.0
# a probe waits this long for another writer's lock (the tables' writer holds it for a commit's
# fraction of a millisecond; a lock held longer is storage that cannot commit)
SQLITE_LOCK_SECONDS = 1.0

health_table = Table(
    "health",
    MetaData(),
    Column("probe", String(64), primary_key=True),
    Column("at", Float, nullable=False),
)


class StoreProbe:
    """``await probe.check()``: None when a test write commits, else why it did not."""

    def __init__(self, url: str, name: str) -> None:
        self.url = url
        self.name = name
        self._engine: Engine | None = None
        self._made = False
        self._thread = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="healthz")
        self._running: concurrent.futures.Future[None] | None = None
        self._last: tuple[float, str | None] | None = None

    async def check(self) -> str | None:
        now = time.monotonic()
        if self._last is not None and now - self._last[0] < FRESH_SECONDS:
            return self._last[1]
        running = self._running
        if running is not None and not running.done():
            return "the last test commit has not finished"  # a store that hangs
        self._running = running = self._thread.submit(self._write)
        try:
            await asyncio.wait_for(asyncio.wrap_future(running), PROBE_SECONDS)
            reason = None
        except TimeoutError:
            reason = f"a test commit took over {PROBE_SECONDS:g} s"
        except (SQLAlchemyError, OSError) as exc:
            reason = _one_line(exc)
        self._last = (time.monotonic(), reason)
        return reason

    def _write(self) -> None:
        if self._engine is None:
            sqlite = make_url(self.url).get_backend_name() == "sqlite"
            args = {"timeout": SQLITE_LOCK_SECONDS} if sqlite else {}
            self._engine = create_engine(
                self.url, connect_args=args, pool_size=1, pool_pre_ping=not sqlite
            )
        with self._engine.begin() as conn:
            if not self._made:
                health_table.create(conn, checkfirst=True)
                self._made = True
            conn.execute(delete(health_table).where(health_table.c.probe == self.name))
            conn.execute(insert(health_table).values(probe=self.name, at=time.time()))

    def close(self) -> None:
        self._thread.shutdown(wait=False, cancel_futures=True)
        if self._engine is not None:
            self._engine.dispose()


def _one_line(exc: BaseException) -> str:
    """The driver's own message, first line (SQLAlchemy's adds the statement and a link)."""
    inner = getattr(exc, "orig", None) or exc
    text = str(inner).strip().splitlines()
    return text[0] if text else type(inner).__name__
