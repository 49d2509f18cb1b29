"""CPU time of the store's commits, one group at a time: ``python scripts/store_bench.py``.

Each line is the least of 5 runs of 20 commits, on a fresh SQLite file (WAL): a group of N
events (a move's commit under light load is 1 event; under heavy load tens), and a table row
(the lobby's upsert). Run it with ``PYTHONPATH=<an older checkout>/src`` to compare.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from pathlib import Path

from bestiary.server.store import Store

ROW = {
    "code": "T0",
    "game": "critters",
    "options": {},
    "seats": [{"seat": 0, "name": "ann"}],
    "status": "playing",
    "header": None,
    "winners": None,
    "created": 0.0,
    "started": None,
    "finished": None,
}


async def main() -> None:
    store = Store(f"sqlite:///{Path(tempfile.mkdtemp()) / 'bench.sqlite'}")
    store._write([("table", ROW)])
    seq = 0
    for size in (1, 10, 50):
        best = float("inf")
        for _ in range(5):
            groups = []
            for _ in range(20):
                group = []
                for _ in range(size):
                    seq += 1
                    line = '{"do":"down","by":"ann","card":"fox","t":1.25}'
                    group.append(("event", {"code": "T0", "seq": seq, "line": line}))
                groups.append(group)
            started = time.process_time()
            for group in groups:
                store._write(group)
            best = min(best, (time.process_time() - started) / 20)
        print(
            f"{size:3} events: {best * 1e6:6.0f} us a commit, {best * 1e6 / size:5.1f} us an event"
        )
    best = float("inf")
    for _ in range(5):
        started = time.process_time()
        for i in range(20):
            store._write([("table", {**ROW, "code": f"T{i}"})])
        best = min(best, (time.process_time() - started) / 20)
    print(f"table row: {best * 1e6:6.0f} us a commit")


if __name__ == "__main__":
    asyncio.run(main())
