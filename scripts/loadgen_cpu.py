"""CPU time per move of ``bestiary bench server``'s load generator, old clients against new.

Each tree named on the command line (``name=PYTHONPATH``: a compiled core's ``build/...`` with
that tree's generator) runs ``bench server`` in a process of its own, alternated in each round;
the server is the one its PYTHONPATH holds (give every tree the same compiled server, so that
only the clients differ). Per level: moves/s, p99, and the CPU-seconds the generator process and
the server used per move (``Level.client_cpu`` and ``server_cpu`` / moves, not the table's
rounded percentages); then the medians over the rounds.

    PYTHONPATH=. .venv/bin/python scripts/loadgen_cpu.py old=/tmp/old/core:tests/toygame \\
        new=build/core:tests/toygame --of critters --tables 50,200 --rounds 3

``--callgrind DIR``: the generator's process runs under ``valgrind --tool=callgrind`` instead
(the server does not), its counters zeroed once the level's tables are open and dumped when the
level ends: user-space instructions per move, the steady measure on a shared machine (the
kernel's socket work is not in it). Give one table count.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

from scripts.workers_callgrind import callgrind

ONE_RUN = """
import json, sys
from bestiary.bench.loadtest import run_server_bench
levels = run_server_bench([sys.argv[1]], [int(n) for n in sys.argv[2].split(",")],
                          float(sys.argv[3]), echo=lambda line: None, movers=int(sys.argv[4]))
print(json.dumps([{"tables": l.tables, "moves": l.moves, "rate": l.moves / l.seconds,
                   "p99": l.percentile(0.99),
                   "errors": l.errors, "gen_us": 1e6 * l.client_cpu / max(l.moves, 1),
                   "server_us": 1e6 * l.server_cpu / max(l.moves, 1)} for l in levels]))
"""


# Under callgrind: the level's CPU readings (one before its clock starts, one after it ends)
# zero the generator's counters and dump them.
COUNTED = """
import os, subprocess
from bestiary.bench import loadtest
readings, read = [], loadtest._cpu_seconds
def counted(pid):
    if len(readings) < 2:
        action = "-z" if not readings else "-d"
        subprocess.run(["callgrind_control", action, str(os.getpid())], check=True,
                       capture_output=True)
    readings.append(pid)
    return read(pid)
loadtest._cpu_seconds = counted
"""


def one_run(
    pythonpath: str, of: str, tables: str, seconds: float, movers: int, out: Path | None
) -> list[dict[str, float]]:
    env = {**os.environ, "PYTHONPATH": pythonpath}
    command = [sys.executable, "-c", ONE_RUN, of, tables, str(seconds), str(movers)]
    if out is not None:
        out.mkdir(parents=True)
        command = [*callgrind(out), sys.executable, "-c", COUNTED + ONE_RUN, *command[3:]]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    rows: list[dict[str, float]] = json.loads(done.stdout.strip().splitlines()[-1])
    if out is not None:
        (dump,) = out.glob("callgrind.*.1")
        found = re.search(r"^summary: (\d+)", dump.read_text(), re.MULTILINE)
        rows[0]["instructions"] = int(found.group(1)) if found else 0
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="+", help="name=PYTHONPATH")
    parser.add_argument("--of", default="critters")
    parser.add_argument("--tables", default="50,200")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--movers", type=int, default=0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--callgrind", type=Path, help="count instructions; dumps go here")
    args = parser.parse_args()
    trees = [tree.split("=", 1) for tree in args.trees]
    seen: dict[tuple[str, float], list[float]] = defaultdict(list)
    for round_ in range(1, args.rounds + 1):
        for name, path in trees:
            load = os.getloadavg()[0]
            out = args.callgrind and args.callgrind / f"round{round_}-{name}"
            for row in one_run(path, args.of, args.tables, args.seconds, args.movers, out):
                per_move = row.get("instructions", 0) / max(row["moves"], 1)
                seen[(name, row["tables"])].append(per_move or row["gen_us"])
                if per_move:
                    print(f"round {round_} {name:6} instructions/move={per_move:,.0f} "
                          f"({row['moves']:.0f} moves)")  # fmt: skip
                print(
                    f"round {round_} {name:6} {args.of} movers={args.movers} "
                    f"tables={row['tables']:4} moves/s={row['rate']:7,.0f} "
                    f"p99={row['p99']:6.1f}ms errors={row['errors']} "
                    f"generator={row['gen_us']:6.1f} server={row['server_us']:6.1f} "
                    f"CPU-us/move load={load:.1f}",
                    flush=True,
                )
    for (name, tables), values in sorted(seen.items()):
        shown = ", ".join(f"{v:.1f}" for v in values)
        unit = "instructions" if args.callgrind else "CPU-us"
        print(f"median {name:6} tables={tables:4} generator "
              f"{statistics.median(values):,.1f} {unit}/move ({shown})")  # fmt: skip


if __name__ == "__main__":
    main()
