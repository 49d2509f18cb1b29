"""The SQLite store's checkpoints: never inside a commit (which runs on the event loop), always
soon after, in the store's own thread."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

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
