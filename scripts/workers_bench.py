"""Measure several workers on this machine (docs/server.md, "More than one process").

On a throwaway PostgreSQL cluster (tests/pg.py: fsync off, so commits are the CPU's, not a
disk's): (1) PostgreSQL's own commits per second for one event-sized insert per transaction
(pgbench, 2 clients); (2) ``bestiary bench server`` with one process on SQLite (the default)
and through nginx with 1 and 2 workers, alternated ``--rounds`` times; (3) takeover after
``kill -9`` of one of 2 workers: the seconds until every game it owned has a new event at its
player's socket, and whether every event each client saw is the store's.

    PYTHONPATH=. .venv/bin/python scripts/workers_bench.py --rounds 3 --tables 50,200 --seconds 10

``--variant NAME=SRC`` (repeatable) compares source trees (e.g. ``git archive REV src | tar -x
-C /tmp/before``): each run's load and workers import ``bestiary`` from ``SRC``, the variants
alternated within each round.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.pg import USER, Cluster, throwaway_cluster

from bestiary.server.store import Store

INSERT = "INSERT INTO events (code, seq, line) VALUES ('BENCH1', :seq, '{\"do\": \"pass\"}');\n"


def commits_per_second(cluster: Cluster, db: str, seconds: int) -> float:
    """pgbench: one transaction per event insert, as a worker's group commit of one event."""
    name = db.rsplit("/", 1)[1]
    script = Path(tempfile.mkdtemp()) / "event.sql"
    script.write_text("\\set seq random(1, 2000000000)\n" + INSERT)
    os.chmod(script.parent, 0o755)
    os.chmod(script, 0o644)
    store = Store(db)
    store.save_table(
        {"code": "BENCH1", "game": "critters", "options": {}, "seats": [], "status": "finished",
         "header": None, "winners": None, "created": 0.0, "started": None, "finished": None}
    )  # fmt: skip
    store.close()
    done = cluster.run(
        "pgbench", "-h", "127.0.0.1", "-p", str(cluster.port), "-U", USER, "-n", "-c", "2",
        "-T", str(seconds), "-f", str(script), name,
    )  # fmt: skip
    for line in done.stdout.splitlines():
        if line.startswith("tps"):
            return float(line.split()[2])
    raise RuntimeError(done.stderr + done.stdout)


def row_of(db: str, sql: str) -> Any:
    """The one row ``sql`` answers in ``db``."""
    store = Store(db)
    try:
        with store.engine.connect() as conn:
            return conn.exec_driver_sql(sql).one()
    finally:
        store.close()


def transactions(db: str) -> int:
    """Transactions the database has committed so far (PostgreSQL's own count)."""
    sql = "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
    return int(row_of(db, sql)[0] or 0)


def takeover(cluster: Cluster, round_: int) -> str:
    """One kill -9 of worker 0 of 2, as tests/test_server_workers.py does it."""
    done = subprocess.run(
        [".venv/bin/pytest", "-q", "-s", "-p", "no:randomly", "-p", "no:cacheprovider",
         "tests/test_server_workers.py", "-k", "kill_9"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    lines = [line for line in done.stdout.splitlines() if line.startswith("kill -9")]
    return lines[0] if lines else f"round {round_}: failed\n{done.stdout[-2000:]}"


# one run of the bench in a process of its own, importing bestiary from the variant's tree
ONE_RUN = """
import json, sys
from bestiary.bench.loadtest import run_server_bench
levels = run_server_bench([sys.argv[1]], [int(n) for n in sys.argv[2].split(",")],
    float(sys.argv[3]), workers=int(sys.argv[4]), db=sys.argv[5] or None, echo=print)
print("LEVELS " + json.dumps([[lv.tables, lv.moves, lv.server_cpu, lv.percentile(0.99)]
    for lv in levels]))
"""


def bench_in(src: str, of: str, tables: str, seconds: float, workers: int, db: str) -> list[Any]:
    """``bestiary bench server`` with ``bestiary`` imported from ``src``: [tables, moves, server
    CPU-s, p99 ms] per level."""
    path = os.pathsep.join([src, *os.environ.get("PYTHONPATH", "").split(os.pathsep)[1:]])
    done = subprocess.run(
        [sys.executable, "-c", ONE_RUN, of, tables, str(seconds), str(workers), db],
        capture_output=True, text=True, check=False, env={**os.environ, "PYTHONPATH": path},
    )  # fmt: skip
    print("\n".join(line for line in done.stdout.splitlines() if not line.startswith("LEVELS")))
    found = [line for line in done.stdout.splitlines() if line.startswith("LEVELS ")]
    if not found:
        raise RuntimeError(done.stderr[-2000:])
    levels: list[Any] = json.loads(found[0].removeprefix("LEVELS "))
    return levels


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--tables", default="50,200")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--of", default="critters")
    parser.add_argument("--workers", default="0,1,2", help="worker counts to compare")
    parser.add_argument("--kills", type=int, default=3, help="kill -9 runs")
    parser.add_argument("--variant", action="append", default=[], help="NAME=SRC (repeatable)")
    args = parser.parse_args()
    variants = dict(v.split("=", 1) for v in args.variant) or {"": "src"}
    print(subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    with throwaway_cluster() as cluster:
        db = cluster.database("commits")
        tps = commits_per_second(cluster, db, 10)
        print(f"PostgreSQL: {tps:,.0f} commits/s (one event insert each, 2 clients, fsync off)")
        rates: dict[tuple[str, int, int], list[float]] = {}
        p99: dict[tuple[str, int, int], list[float]] = {}
        for round_ in range(args.rounds):
            for name, src in variants.items():
                for workers in [int(n) for n in args.workers.split(",")]:  # 0: SQLite, no nginx
                    db = cluster.database(f"bench_{round_}_{len(rates)}_{workers}")
                    Store(db).close()  # (unused with 0 workers: that bench makes a SQLite file)
                    print(f"-- round {round_ + 1}, {name} {workers} worker(s) --", flush=True)
                    before = transactions(db)
                    levels = bench_in(
                        src, args.of, args.tables, args.seconds, workers, db if workers else ""
                    )
                    if workers:  # (lease ticks, lobby and limits count too: an upper bound)
                        commits = transactions(db) - before
                        moves = sum(level[1] for level in levels)
                        print(
                            f"{commits:,} PostgreSQL transactions: {moves / commits:.1f} moves each"
                        )
                    for tables, moves, server_cpu, level_p99 in levels:
                        key = (name, workers, tables)
                        rates.setdefault(key, []).append(moves / server_cpu)
                        p99.setdefault(key, []).append(level_p99)
                    print(subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
        print("medians over rounds: variant, workers, tables, moves per server CPU-s, p99 ms")
        for key in sorted(rates):
            print(
                f"{key[0]} {key[1]} {key[2]:4} {statistics.median(rates[key]):10,.0f} "
                f"{statistics.median(p99[key]):8.1f}   (rounds: "
                + ", ".join(f"{rate:,.0f}" for rate in rates[key])
                + ")"
            )
    for round_ in range(args.kills):
        print(takeover(cluster, round_), flush=True)
        time.sleep(1)


if __name__ == "__main__":
    main()
