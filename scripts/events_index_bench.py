"""CPU time of one SQLite group commit of moves with and without the old index of events by code
alone (the store's schema otherwise: WAL, ``synchronous=NORMAL``, no autocheckpoint, a unique
(code, seq) index), as the bench's server at 200 tables commits them: 37 moves of random tables.

    .venv/bin/python scripts/events_index_bench.py [--groups 3000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import tempfile
import time
from pathlib import Path

LINE = '{"do":"play","by":"ann","card":"fox","t":12.345}' * 3  # a move's line, about its size


def per_commit(code_index: bool, groups: int, tables: int = 200, moves: int = 37) -> float:
    """CPU µs per group commit of ``moves`` events over ``tables`` tables."""
    conn = sqlite3.connect(Path(tempfile.mkdtemp()) / "events.sqlite", isolation_level=None)
    for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "wal_autocheckpoint=0"):
        conn.execute(f"PRAGMA {pragma}")
    conn.execute(
        "CREATE TABLE events (id INTEGER PRIMARY KEY AUTOINCREMENT, code VARCHAR(16) NOT NULL,"
        " seq INTEGER NOT NULL, line TEXT NOT NULL)"
    )
    if code_index:
        conn.execute("CREATE INDEX ix_events_code ON events (code)")
    conn.execute("CREATE UNIQUE INDEX events_code_seq ON events (code, seq)")
    rng = random.Random(1)
    seqs = {f"T{n:04d}{rng.randrange(10**6):06d}": 0 for n in range(tables)}
    codes = list(seqs)
    start = time.process_time()
    for group in range(groups):
        rows = []
        for _ in range(moves):
            code = rng.choice(codes)
            seqs[code] += 1
            rows.append((code, seqs[code], LINE))
        conn.execute("BEGIN")
        conn.executemany("INSERT INTO events (code, seq, line) VALUES (?, ?, ?)", rows)
        conn.execute("COMMIT")
        if group % 200 == 199:  # the store checkpoints beside the loop, about this often
            conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
    conn.close()
    return (time.process_time() - start) / groups * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--groups", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    for _ in range(args.rounds):
        with_index = per_commit(True, args.groups)
        without = per_commit(False, args.groups)
        print(f"with the code index {with_index:6.0f}  without {without:6.0f}  CPU us per commit")


if __name__ == "__main__":
    main()
