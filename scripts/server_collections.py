"""The garbage collector in the bench's server: collections by generation, their CPU per move,
their pauses, and the server's RSS through the level, under collection thresholds alternated.

The one-process server that ``bestiary bench server`` loads starts after a prelude that times
every collection with ``gc.callbacks`` (the collecting thread's CPU time, so another job on the
machine does not inflate it) and sets ``run.COLLECT_THRESHOLDS`` to the thresholds named; every
half second it writes its counts to a file. Counts are taken from just before the level to just
after it (what start-up collected is left out). Thresholds are alternated in each round.

    PYTHONPATH=build/core:tests/toygame:. .venv/bin/python scripts/server_collections.py \\
        1000,10,1000 3000,10,1000 --rounds 3 --tables 200 --seconds 15
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from bestiary.bench.loadtest import _levels, _wait_up, free_port, server_command

PRELUDE = """
import gc, json, os, threading, time
import bestiary.server.run as _run
_run.COLLECT_THRESHOLDS = tuple(int(n) for n in os.environ["COLLECT_THRESHOLDS"].split(","))
_s = {"n": [0, 0, 0], "cpu": [0.0, 0.0, 0.0], "pauses": [[], [], []], "rss": []}
_began = [0.0]
def _timed(phase, info):
    if phase == "start":
        _began[0] = time.thread_time()
        return
    g, took = info["generation"], time.thread_time() - _began[0]
    _s["n"][g] += 1
    _s["cpu"][g] += took
    _s["pauses"][g].append(round(took * 1000, 2))
gc.callbacks.append(_timed)
def _write():
    while True:
        time.sleep(0.5)
        pages = int(open("/proc/self/statm").read().split()[1])
        _s["rss"].append((time.monotonic(), pages * os.sysconf("SC_PAGE_SIZE") // 2**20))
        _s["process_cpu"] = time.process_time()
        out = os.environ["COLLECTIONS_OUT"]
        open(out + ".tmp", "w").write(json.dumps(_s))
        os.replace(out + ".tmp", out)
threading.Thread(target=_write, daemon=True).start()
"""


def counts(path: Path) -> dict[str, Any]:
    written: dict[str, Any] = json.loads(path.read_text())
    return written


def one_level(thresholds: str, of: str, tables: int, seconds: float, out: Path) -> dict[str, Any]:
    """One level under ``thresholds``: per move, each generation's collections and CPU, the
    pauses, and the RSS (MB) every 5 s of the level."""
    port = free_port()
    db = f"sqlite:///{out.with_suffix('.sqlite')}"
    env = {**os.environ, "COLLECT_THRESHOLDS": thresholds, "COLLECTIONS_OUT": str(out)}
    server = subprocess.Popen(server_command(port, db, PRELUDE), env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_up(base, server, seconds=120)
        time.sleep(1.0)
        before = counts(out)
        level = _levels(
            base, [server.pid], games=[of], table_counts=[tables], seconds=seconds,
            echo=print, thinkers=0, movers=0,
        )[0]  # fmt: skip
        time.sleep(1.0)
        after = counts(out)
    finally:
        server.terminate()
        server.wait(timeout=60)
    moves = max(level.moves, 1)
    seen = len(before["rss"])
    return {
        "moves": level.moves,
        "collections": [a - b for a, b in zip(after["n"], before["n"], strict=True)],
        "us_per_move": [
            (a - b) * 1e6 / moves for a, b in zip(after["cpu"], before["cpu"], strict=True)
        ],
        "pauses_ms": [p[len(q) :] for p, q in zip(after["pauses"], before["pauses"], strict=True)],
        "server_us_per_move": (after["process_cpu"] - before["process_cpu"]) * 1e6 / moves,
        "rss_mb": [mb for _, mb in after["rss"][seen::10]],
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("thresholds", nargs="+", help="g0,g1,g2 thresholds, alternated")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--of", default="critters")
    args = parser.parse_args()
    out = Path(tempfile.mkdtemp(prefix="server-collections-"))
    totals: dict[str, list[float]] = {}
    for round_ in range(args.rounds):
        for thresholds in args.thresholds:
            print(subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
            got = one_level(thresholds, args.of, args.tables, args.seconds, out / "counts.json")
            us, pauses = got["us_per_move"], got["pauses_ms"]
            totals.setdefault(thresholds, []).append(sum(us))
            each = ", ".join(
                f"gen{g} {got['collections'][g]} x (median {statistics.median(p or [0]):.1f}, "
                f"max {max(p or [0]):.1f} ms) = {us[g]:.1f} us"
                for g, p in enumerate(pauses)
            )
            print(
                f"round {round_ + 1}, {thresholds}: {got['moves']:,} moves; the collector per "
                f"move {sum(us):.1f} us of the server's {got['server_us_per_move']:.0f} "
                f"({each}); RSS MB every 5 s: {got['rss_mb']}",
                flush=True,
            )
    print("medians: thresholds, the collector's CPU per move (us), each round's")
    for thresholds, runs in totals.items():
        each = ", ".join(f"{r:.1f}" for r in runs)
        print(f"{thresholds:>16} {statistics.median(runs):8.1f}   ({each})")


if __name__ == "__main__":
    main()
