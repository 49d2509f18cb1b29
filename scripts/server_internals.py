"""What the server's event loop waits on under load: its commits and its garbage collections.

    python scripts/server_internals.py critters 200 10
    GC_THRESHOLDS=50000,20,1000 python scripts/server_internals.py critters 200 10

Runs one level of ``bestiary bench server`` (its server, clients and row) with the server's
store ``_write`` and garbage collector timed; when the server is stopped it prints how many
commits it made (writes per commit; their duration p50/p90/p99/max) and how long each generation
of collections took (count, total, longest). Both run on the loop: each stalls every table.
``GC_THRESHOLDS`` replaces the server's collection thresholds (``run.COLLECT_THRESHOLDS``).
"""

from __future__ import annotations

import os
import sys
import time

INSTRUMENTS = """
import gc, signal, sys, time
from bestiary.server import store

commits, collections, started = [], {}, {}

def timed(write):
    def write_timed(self, batch):
        start = time.perf_counter()
        write(self, batch)
        commits.append((time.perf_counter() - start, len(batch)))
    return write_timed

store.Store._write = timed(store.Store._write)

def collected(phase, info):
    generation = info["generation"]
    if phase == "start":
        started[generation] = time.perf_counter()
    else:
        collections.setdefault(generation, []).append(time.perf_counter() - started[generation])

gc.callbacks.append(collected)

def report(*_):
    durations = sorted(d for d, _ in commits)
    writes = sum(n for _, n in commits)
    if durations:
        at = lambda p: 1000 * durations[min(len(durations) - 1, int(p * len(durations)))]
        longest = 1000 * durations[-1]
        print(f"commits: {len(durations)}, {writes / len(durations):.1f} writes each; ms p50 "
              f"{at(0.5):.2f}, p90 {at(0.9):.2f}, p99 {at(0.99):.2f}, max {longest:.1f}")
    for generation, times in sorted(collections.items()):
        print(f"gc generation {generation}: {len(times)} collections, {1000 * sum(times):.0f} ms "
              f"in all, longest {1000 * max(times):.1f} ms")
    sys.stdout.flush()
    sys.exit(0)

signal.signal(signal.SIGTERM, report)
from bestiary.server import run
if __THRESHOLDS__:
    run.COLLECT_THRESHOLDS = __THRESHOLDS__
"""


def main(game: str, tables: int, seconds: float) -> None:
    from bestiary.bench.loadtest import run_server_bench

    chosen = os.environ.get("GC_THRESHOLDS")
    thresholds = tuple(int(n) for n in chosen.split(",")) if chosen else None
    prelude = INSTRUMENTS.replace("__THRESHOLDS__", repr(thresholds))
    run_server_bench([game], [tables], seconds, prelude=prelude)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    started = time.monotonic()
    main(sys.argv[1], int(sys.argv[2]), float(sys.argv[3]))
    print(f"({time.monotonic() - started:.0f} s in all)")
