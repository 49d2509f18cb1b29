"""Instructions per move with 1 and 2 workers, counted by callgrind (docs/server.md, "The second
worker's cost per move").

CPU time per move cannot tell the server's own cost from a shared machine's contention (both
vCPUs busy); an instruction count can. Every worker and nginx run under ``valgrind
--tool=callgrind`` (no cache simulation); once all are up their counters are zeroed
(``callgrind_control -z``), the same light load as ``bestiary bench server`` plays for
``--seconds``, and the counters are dumped (``-d``): instructions of all workers (and of
nginx) / moves the clients saw. Leases are lengthened (``--lease``) so that workers slowed
~50x by callgrind keep theirs. Worker counts are alternated in each round.

    PYTHONPATH=. .venv/bin/python scripts/workers_callgrind.py --rounds 2 --tables 10 --seconds 30

The dumps stay in ``--out`` for ``callgrind_annotate``.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import ClassVar

from scripts.workers_bench import row_of
from tests.pg import throwaway_cluster

from bestiary.server import workers
from bestiary.server.live import free_port
from bestiary.server.loadtest import BENCH_FLAGS, _family, _levels
from bestiary.server.store import Store


def callgrind(out: Path) -> list[str]:
    return [
        "valgrind", "--tool=callgrind", f"--callgrind-out-file={out}/callgrind.%p",
        f"--log-file={out}/valgrind.%p.log",
    ]  # fmt: skip


class Counted(workers.Workers):
    """Workers each started under callgrind, given the time callgrind's slowdown takes."""

    wrap: ClassVar[list[str]] = []
    nginx_seconds = 300.0  # nginx and the workers it asks are under callgrind

    def command(self, k: int) -> list[str]:
        return [*self.wrap, *super().command(k)]

    def wait_up(self, k: int, seconds: float = 900) -> None:
        super().wait_up(k, seconds)


def nginx_under(wrap: list[str], out: Path) -> str:
    """A script that runs nginx under ``wrap``, as one process (``master_process off``: a
    forked worker's counters reach no file of their own; the master only waits; nginx
    keeps the last -g)."""
    script = out / "nginx"
    script.write_text(
        "#!/bin/sh\n"
        f'exec {" ".join(wrap)} {workers.find_nginx()} "$@" -g "daemon off; master_process off;"\n'
    )
    script.chmod(0o755)
    return str(script)


def instructions(pid: int, out: Path) -> int:
    """Dump ``pid``'s counters (since they were zeroed) and read the total back."""
    subprocess.run(["callgrind_control", "-d", str(pid)], capture_output=True, check=True)
    dump = out / f"callgrind.{pid}.1"
    found = re.search(r"^summary: (\d+)", dump.read_text(), re.MULTILINE)
    if not found:
        raise RuntimeError(f"no summary in {dump}")
    return int(found.group(1))


def own_costs(dump: Path) -> tuple[Counter[str], Counter[str]]:
    """Each function's and each shared object's own instructions in a dump (callgrind_annotate
    reads dumps taken mid-run, whose frames were entered before the zeroing, as inclusive)."""
    names: dict[str, str] = {}
    functions: Counter[str] = Counter()
    objects: Counter[str] = Counter()
    function = obj = owner = ""
    after_call = False
    for line in dump.read_text().splitlines():
        key, _, value = line.partition("=")
        if key in ("ob", "fn", "cob", "cfn", "fl", "fi", "fe", "cfi", "cfl"):
            compressed = re.match(r"\((\d+)\)(?: (.*))?", value)
            if compressed:  # "(n) name" names n once; "(n)" alone refers to it later
                ref = ("o" if "ob" in key else "f") + compressed.group(1)
                value = names.setdefault(ref, compressed.group(2) or ref)
            if key == "ob":
                obj = value.rsplit("/", 1)[-1]
            elif key == "fn":
                function, owner = value, obj
        elif key == "calls":
            after_call = True  # the next cost line is the call's, inclusive
        elif line[:1] in "0123456789+-*":
            fields = line.split()  # position, then Ir (absent: none)
            if not after_call and len(fields) > 1:
                functions[function] += int(fields[1])
                objects[owner] += int(fields[1])
            after_call = False
    return functions, objects


def group_commits(db: str) -> int:
    """Transactions that inserted events so far (each row's ``xmin`` is the transaction that
    inserted it: one per group commit)."""
    return int(row_of(db, "SELECT count(DISTINCT xmin::text) FROM events")[0])


def one_run(
    db: str,
    count: int,
    of: str,
    tables: int,
    seconds: float,
    lease: float,
    out: Path,
    probe: bool = True,
) -> tuple[int, int, int, int, int, list[Path]]:
    """Moves, the idle probe table's pings, group commits, workers' and nginx's instructions
    of one counted run, and the workers' dumps. ``tables`` 0: no load at all for ``seconds``
    (what idle workers cost); ``probe`` False: the idle table does not ping."""
    out.mkdir(parents=True)
    Counted.wrap = callgrind(out)
    find_nginx = workers.find_nginx
    script = nginx_under(callgrind(out), out)
    workers.find_nginx = lambda: script
    ports = [free_port() for _ in range(count)]
    try:
        cluster = Counted(db, count, free_port(), ports=ports, serve_args=BENCH_FLAGS, lease=lease)
        cluster.start()
    finally:
        workers.find_nginx = find_nginx
    try:
        procs = [proc.pid for proc in cluster.procs if proc is not None]
        nginx = _family(cluster.nginx.pid) if cluster.nginx else []
        for pid in procs + nginx:
            subprocess.run(["callgrind_control", "-z", str(pid)], capture_output=True, check=True)
        before = group_commits(db)
        pings = moves = 0
        if tables:
            level = _levels(
                cluster.url, procs, games=[of], table_counts=[tables], seconds=seconds,
                echo=print, thinkers=0, movers=0, probe=probe,
            )[0]  # fmt: skip
            moves, pings = level.moves, len(level.probe)
        else:
            time.sleep(seconds)
        commits = group_commits(db) - before
        served = sum(instructions(pid, out) for pid in procs)
        routed = sum(instructions(pid, out) for pid in nginx)
    finally:
        cluster.stop()
    return moves, pings, commits, served, routed, [out / f"callgrind.{pid}.1" for pid in procs]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--of", default="critters")
    parser.add_argument("--workers", default="1,2", help="worker counts to compare")
    parser.add_argument("--lease", type=float, default=30.0, help="seconds (callgrind is slow)")
    parser.add_argument(
        "--no-probe",
        dest="probe",
        action="store_false",
        help="the idle table does not ping (its pings come as fast as the workers answer)",
    )
    parser.add_argument("--out", default="", help="where the dumps stay (default: a temp dir)")
    args = parser.parse_args()
    out = Path(args.out or tempfile.mkdtemp(prefix="workers-callgrind-"))
    print(subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip(), flush=True)
    per_move: dict[int, list[tuple[float, float, float]]] = {}
    own: dict[int, Counter[str]] = {}  # the workers' own instructions per move (mean of rounds)
    with throwaway_cluster() as pg:
        for round_ in range(args.rounds):
            for count in [int(n) for n in args.workers.split(",")]:
                db = pg.database(f"counted_{round_}_{count}")
                Store(db).close()
                here = out / f"round{round_ + 1}-{count}w"
                moves, pings, commits, served, routed, dumps = one_run(
                    db, count, args.of, args.tables, args.seconds, args.lease, here, args.probe
                )
                # idle (no tables): per second of each worker, since no move shares the cost
                per = moves or count * args.seconds
                unit = "move" if moves else "worker-second"
                print(
                    f"round {round_ + 1}, {count} worker(s): {moves:,} moves, {pings:,} pings, "
                    f"{served / per:,.0f} worker instructions per {unit}, "
                    f"{routed / per:,.0f} nginx's, {moves / max(commits, 1):.1f} moves per group "
                    f"commit ({commits:,}); dumps in {here}",
                    flush=True,
                )
                for dump in dumps:
                    functions, objects = own_costs(dump)
                    for name, cost in [
                        *functions.items(),
                        *((f"[{o}]", c) for o, c in objects.items()),
                    ]:
                        own.setdefault(count, Counter())[name] += cost / per / args.rounds
                per_move.setdefault(count, []).append(
                    (served / per, routed / per, moves / max(commits, 1))
                )
                print(subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    print(
        "medians: workers, worker instructions per move (idle: per worker-second), nginx's, "
        "moves per group commit"
    )
    for count, runs in sorted(per_move.items()):
        print(
            f"{count} {statistics.median(r[0] for r in runs):14,.0f} "
            f"{statistics.median(r[1] for r in runs):10,.0f} "
            f"{statistics.median(r[2] for r in runs):6.1f}"
        )

    counts = sorted(own)
    print(
        "the workers' own instructions per move (or worker-second), by shared object and "
        "function (mean of rounds):"
    )
    print(" ".join(f"{count:>11}w" for count in counts))
    for name, _ in (own[counts[0]] + own[counts[-1]]).most_common(30):
        print(" ".join(f"{own[count][name]:12,.0f}" for count in counts), name)


if __name__ == "__main__":
    main()
