"""The SQLite store: its checkpoints never inside a commit (which runs on the event loop), always
soon after, in the store's own thread; a group of moves committed whole or not at all."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

import pytest
from sqlalchemy.exc import SQLAlchemyError

from bestiary.server.store import CHECKPOINT_SECONDS, Store


def test_the_log_is_copied_into_the_database_beside_the_loop(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite"
    store = Store(f"sqlite:///{path}")
    with store.engine.connect() as conn:  # a commit never checkpoints by itself
        assert conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 0
    before = path.stat().st_size

    async def write() -> float:
        writer = asyncio.get_running_loop().create_task(store.run_writer())
        committed = asyncio.Event()
        for seq in range(1, 3001):
            store.append_event("ABCDE", seq, {"by": "ann", "do": "pass", "pad": "x" * 200})
        store.commit(committed.set)
        await committed.wait()
        start = time.monotonic()
        while path.stat().st_size <= before + 500_000 and time.monotonic() - start < 10:
            await asyncio.sleep(0.05)
        writer.cancel()
        return time.monotonic() - start

    waited = asyncio.run(write())
    store.close()
    assert path.stat().st_size > before + 500_000, "the log was never checkpointed"
    assert waited < CHECKPOINT_SECONDS + 5


def _lines(path: Path) -> list[tuple[int, str]]:
    with sqlite3.connect(path) as conn:
        return list(conn.execute("SELECT seq, line FROM events ORDER BY seq"))


def test_a_group_of_moves_goes_in_whole_or_not_at_all(tmp_path: Path) -> None:
    """A group of events only (the usual one) is written by SQLite's driver itself, in one
    transaction: a group that fails (here a seq written twice) leaves none of its lines, the
    writer's error is SQLAlchemy's (so the writer retries, as for any commit), and the next
    group goes in on a new connection; groups with table rows still go through SQLAlchemy."""
    path = tmp_path / "db.sqlite"
    store = Store(f"sqlite:///{path}")
    row = {"code": "ABCDE", "seq": 0, "line": "{}"}
    store._write([("event", {**row, "seq": s, "line": f'{{"n":{s}}}'}) for s in (1, 2, 3)])
    with pytest.raises(SQLAlchemyError):
        store._write([("event", {**row, "seq": s}) for s in (4, 5, 3)])
    assert [seq for seq, _ in _lines(path)] == [1, 2, 3]
    store._write([("event", {**row, "seq": s}) for s in (4, 5)])
    assert _lines(path) == [(1, '{"n":1}'), (2, '{"n":2}'), (3, '{"n":3}'), (4, "{}"), (5, "{}")]
    store.close()
