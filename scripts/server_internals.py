"""What the server's event loop waits on under load: its commits and its garbage collections.

    python scripts/server_internals.py critters 200 10
    GC_THRESHOLDS=50000,20,1000 python scripts/server_internals.py critters 200 10

Starts ``bestiary serve`` (SQLite in a temp dir, the bench's limits) pinned to core 0 with the
store's ``_write`` and the garbage collector timed, loads it from core 1 with the bench's own
clients for one level (`bestiary bench server`'s row is printed), stops it, and prints how many
commits it made (writes per commit; their duration p50/p90/p99/max) and how long each generation
of collections took (count, total, longest). Both run on the loop: each stalls every table.
``GC_THRESHOLDS`` replaces the server's collection thresholds (``run.COLLECT_THRESHOLDS``).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SERVER = """
import gc, signal, sys, time
from bestiary.server import store

commits, collections, started = [], {}, {}

def timed(write):
    def run(self, batch):
        start = time.perf_counter()
        write(self, batch)
        commits.append((time.perf_counter() - start, len(batch)))
    return run

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
from bestiary.server.run import serve
from bestiary.server.settings import ServerSettings
from bestiary.server.table import TableSettings
serve(port=__PORT__, db=__DB__, quiet=True, rate=5000.0, settings=TableSettings(grace_seconds=3600),
      server=ServerSettings(max_connections=5000, max_per_address=5000, tables_per_minute=1e6))
"""


def main(game: str, tables: int, seconds: float) -> None:
    from bestiary.server.live import free_port
    from bestiary.server.loadtest import HEADER, _pin, _run, _run_level, _wait_up

    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        db = f"sqlite:///{Path(tmp) / 'internals.sqlite'}"
        chosen = os.environ.get("GC_THRESHOLDS")
        thresholds = tuple(int(n) for n in chosen.split(",")) if chosen else None
        code = SERVER.replace("__PORT__", str(port)).replace("__DB__", repr(db))
        code = code.replace("__THRESHOLDS__", repr(thresholds))
        server = subprocess.Popen([sys.executable, "-c", code], preexec_fn=lambda: _pin(0))
        _pin(1)
        base = f"http://127.0.0.1:{port}"
        try:
            _wait_up(base, server)
            level = _run(_run_level(base, game, tables, seconds, server.pid))
            print(HEADER)
            print(level.row())
        finally:
            server.terminate()
            server.wait(timeout=30)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    started = time.monotonic()
    main(sys.argv[1], int(sys.argv[2]), float(sys.argv[3]))
    print(f"({time.monotonic() - started:.0f} s in all, pid {os.getpid()})")
