"""The SQLite store: its checkpoints never inside a commit (which runs on the event loop), always
soon after, in the store's own thread; a group of moves committed whole or not at all."""

from __future__ import annotations

import asyncio
import sqlite3
import tempfile
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy.exc import SQLAlchemyError

from bestiary.server.store import CHECKPOINT_SECONDS, Store, Write


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
    group goes in on a new connection."""
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


def _event_indexes(path: Path) -> set[str]:
    with sqlite3.connect(path) as conn:
        found = conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'events'"
        )
        return {name for (name,) in found}


def test_events_are_found_by_code_through_one_index_and_an_old_second_one_is_dropped(
    tmp_path: Path,
) -> None:
    """A table's events are looked up by the unique (code, seq) index; a store made with the
    old index of code alone (which every insert wrote as well) loses it when opened again, and
    keeps every event."""
    path = tmp_path / "db.sqlite"
    store = Store(f"sqlite:///{path}")
    store._write([("event", {"code": "ABCDE", "seq": s, "line": "{}"}) for s in (1, 2)])
    store.close()
    assert _event_indexes(path) == {"events_code_seq"}
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE INDEX ix_events_code ON events (code)")  # as stores had it
    assert _event_indexes(path) == {"events_code_seq", "ix_events_code"}
    Store(f"sqlite:///{path}").close()
    assert _event_indexes(path) == {"events_code_seq"}
    with sqlite3.connect(path) as conn:
        plan = conn.execute(
            "EXPLAIN QUERY PLAN SELECT seq, line FROM events WHERE code = ? ORDER BY seq",
            ("ABCDE",),
        ).fetchall()
    assert "events_code_seq" in " ".join(str(step[-1]) for step in plan)
    assert _lines(path) == [(1, "{}"), (2, "{}")]


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**53), 2**53)
    | st.floats(allow_nan=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=8,
)
table_rows = st.fixed_dictionaries(
    {
        "code": st.sampled_from(["ABCDE", "FGHJK"]),
        "game": st.sampled_from(["critters", "wild"]),
        "options": st.dictionaries(st.text(), json_values, max_size=3),
        "seats": st.lists(st.dictionaries(st.text(), json_values, max_size=3), max_size=4),
        "status": st.sampled_from(["open", "playing", "finished"]),
        "header": st.none() | st.dictionaries(st.text(), json_values, max_size=3),
        "winners": st.none() | st.lists(st.text(), max_size=3),
        "created": st.floats(0, 2e9),
        "started": st.none() | st.floats(0, 2e9),
        "finished": st.none() | st.floats(0, 2e9),
    }
)


def _rows(path: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(path) as conn:
        return list(conn.execute("SELECT * FROM tables ORDER BY code"))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2), table_rows, st.integers(0, 2)), max_size=6))
def test_table_rows_go_in_by_the_driver_as_sqlalchemy_would_store_them(
    writes: list[tuple[int, dict[str, Any], int]],
) -> None:
    """A SQLite group with table rows goes in by the driver itself too (``Store._write_sqlite``):
    the rows stored are, byte for byte, what SQLAlchemy's upsert stores for the same writes,
    and they read back the same; the moves around them are all there."""
    with tempfile.TemporaryDirectory() as tmp:
        fast, slow = Path(tmp) / "fast.sqlite", Path(tmp) / "slow.sqlite"
        by_driver, by_sqlalchemy = Store(f"sqlite:///{fast}"), Store(f"sqlite:///{slow}")
        seqs: Counter[str] = Counter()

        def moves(code: str, count: int) -> list[Write]:
            first = seqs[code] + 1
            seqs[code] += count
            return [("event", {"code": code, "seq": first + n, "line": "{}"}) for n in range(count)]

        for before, row, after in writes:
            code = row["code"]
            by_driver._write([*moves(code, before), ("table", row), *moves(code, after)])
            with by_sqlalchemy.engine.begin() as conn:
                by_sqlalchemy._upsert_table(conn, row)
        assert _rows(fast) == _rows(slow)
        for code in {row["code"] for _, row, _ in writes}:
            shown, kept = by_driver.get(code), by_sqlalchemy.get(code)
            assert shown is not None and kept is not None
            assert shown == replace(kept, events=shown.events)
            assert len(shown.events) == seqs[code]
            assert by_driver.exists(code)
        assert not by_driver.exists("NOPE9")
        by_driver.close()
        by_sqlalchemy.close()
