"""Measure several workers on this machine (docs/server.md, "More than one process").

On a throwaway PostgreSQL cluster (tests/pg.py: fsync off, so commits are the CPU's, not a
disk's): (1) PostgreSQL's own commits per second for one event-sized insert per transaction
(pgbench, 2 clients); (2) ``bestiary bench server`` with one process on SQLite (the default)
and through nginx with 1 and 2 workers, alternated ``--rounds`` times; (3) takeover after
``kill -9`` of one of 2 workers: the seconds until every game it owned has a new event at its
player's socket, and whether every event each client saw is the store's.

    PYTHONPATH=. .venv/bin/python scripts/workers_bench.py --rounds 3 --tables 50,200 --seconds 10
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from tests.pg import USER, Cluster, throwaway_cluster

from bestiary.server.loadtest import run_server_bench
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


def transactions(db: str) -> int:
    """Transactions the database has committed so far (PostgreSQL's own count)."""
    store = Store(db)
    try:
        with store.engine.connect() as conn:
            found = conn.exec_driver_sql(
                "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
            ).scalar()
    finally:
        store.close()
    return int(found or 0)


def takeover(cluster: Cluster, round_: int) -> str:
    """One kill -9 of worker 0 of 2, as tests/test_server_workers.py does it."""
    done = subprocess.run(
        [".venv/bin/pytest", "-q", "-s", "-p", "no:randomly", "-p", "no:cacheprovider",
         "tests/test_server_workers.py", "-k", "kill_9"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    lines = [line for line in done.stdout.splitlines() if line.startswith("kill -9")]
    return lines[0] if lines else f"round {round_}: failed\n{done.stdout[-2000:]}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--tables", default="50,200")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--of", default="critters")
    parser.add_argument("--workers", default="0,1,2", help="worker counts to compare")
    parser.add_argument("--kills", type=int, default=3, help="kill -9 runs")
    args = parser.parse_args()
    counts = [int(n) for n in args.tables.split(",")]
    print(subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    with throwaway_cluster() as cluster:
        db = cluster.database("commits")
        tps = commits_per_second(cluster, db, 10)
        print(f"PostgreSQL: {tps:,.0f} commits/s (one event insert each, 2 clients, fsync off)")
        rates: dict[tuple[int, int], list[float]] = {}
        p99: dict[tuple[int, int], list[float]] = {}
        for round_ in range(args.rounds):
            for workers in [int(n) for n in args.workers.split(",")]:  # 0: SQLite, no nginx
                db = cluster.database(f"bench_{round_}_{workers}")
                Store(db).close()  # (unused with 0 workers: that bench makes a SQLite file)
                print(f"-- round {round_ + 1}, {workers} worker(s) --", flush=True)
                before = transactions(db)
                levels = run_server_bench(
                    [args.of],
                    counts,
                    args.seconds,
                    workers=workers,
                    db=db if workers else None,
                    echo=print,
                )
                if workers:  # (lease ticks and reads count too: an upper bound on commits)
                    commits = transactions(db) - before
                    moves = sum(level.moves for level in levels)
                    print(f"{commits:,} PostgreSQL transactions: {moves / commits:.1f} moves each")
                for level in levels:
                    key = (workers, level.tables)
                    rates.setdefault(key, []).append(level.moves / level.server_cpu)
                    p99.setdefault(key, []).append(level.percentile(0.99))
        print(subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
        print("medians over rounds: workers, tables, moves per server CPU-s, p99 ms")
        for key in sorted(rates):
            print(
                f"{key[0]} {key[1]:4} {statistics.median(rates[key]):10,.0f} "
                f"{statistics.median(p99[key]):8.1f}"
            )
    for round_ in range(args.kills):
        print(takeover(cluster, round_), flush=True)
        time.sleep(1)


if __name__ == "__main__":
    main()
