"""Instructions per move with 1 and 2 workers, counted by callgrind (docs/server.md, "The second
worker's cost per move").

CPU time per move cannot tell the server's own cost from a shared machine's contention (both
vCPUs busy); an instruction count can. Every worker and nginx run under ``valgrind
--tool=callgrind`` (no cache simulation), and play a fixed workload (``seeded_tables``):
``--tables`` tables dealt from fixed seeds, opened through the lobby, then each game played out
to its end by seeded clients, so every run, with one worker or two, plays the same moves (the
games' digest says so). Counters are zeroed once all are up (``callgrind_control -z``), dumped
when the tables are open (``-d``; a dump zeroes them) and again when the last game has ended:
instructions per table opened and per move played, by worker and of nginx. ``--idle`` first
counts one worker with no load at all for that many seconds: what a worker costs per second
whatever it serves, which the play's per-move figure holds ``workers x seconds`` of; ``--hold``
counts that many seconds between opening and play, the tables open and no move. Leases are
lengthened (``--lease``) so that workers slowed ~50x by callgrind keep theirs. Worker counts are
alternated (1, 2 then 2, 1, ...).

    PYTHONPATH=. .venv/bin/python scripts/workers_callgrind.py --rounds 3 --tables 10 --idle 20

The dumps stay in ``--out`` for ``callgrind_annotate``. ``--threads`` counts each of a worker's
threads apart (callgrind's ``--separate-threads``): the loop, the lobby notices' listener, the
lease ticks, the store's writer, and the rest (the limits' thread, the bots', libuv's pool).
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import subprocess
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from scripts.seeded_tables import SEEDED_FLAGS, games_digest, open_and_play
from scripts.workers_bench import row_of
from tests.pg import throwaway_cluster

from bestiary.bench.loadtest import BENCH_FLAGS, _family, free_port
from bestiary.server import workers
from bestiary.server.store import Store


def callgrind(out: Path, threads: bool = False) -> list[str]:
    return [
        "valgrind", "--tool=callgrind", f"--callgrind-out-file={out}/callgrind.%p",
        f"--log-file={out}/valgrind.%p.log", *(["--separate-threads=yes"] if threads else []),
    ]  # fmt: skip


# A worker's threads in the order it starts them (``keeper.join``, then the app's lifespan):
# with ``--separate-threads`` callgrind numbers them so, and dumps each apart (``-NN``).
THREADS = {1: "loop", 2: "notices", 3: "lease", 4: "store writer"}


def thread_dumps(out: Path, pid: int, dump: int) -> list[Path]:
    """The files of one dump: one, or one per thread (``--separate-threads``)."""
    whole = out / f"callgrind.{pid}.{dump}"
    return [whole] if whole.exists() else sorted(out.glob(f"callgrind.{pid}.{dump}-*"))


def summary(path: Path) -> int:
    found = re.search(r"^summary: (\d+)", path.read_text(), re.MULTILINE)
    if not found:
        raise RuntimeError(f"no summary in {path}")
    return int(found.group(1))


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


def instructions(pid: int, out: Path, dump: int = 1) -> int:
    """Dump ``pid``'s counters (the ``dump``-th time: callgrind zeroes them at each dump) and
    read the total back."""
    subprocess.run(["callgrind_control", "-d", str(pid)], capture_output=True, check=True)
    return sum(summary(path) for path in thread_dumps(out, pid, dump))


def by_thread(dumps: list[Path]) -> Counter[str]:
    """The instructions of each of the workers' threads (summed over workers), by role."""
    roles: Counter[str] = Counter()
    for path in dumps:
        number = int(path.name.rsplit("-", 1)[1]) if "-" in path.name else 0
        roles[THREADS.get(number, "other threads")] += summary(path)
    return roles


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


@dataclass
class Run:
    """One counted run: instructions of each worker and of nginx, in each phase."""

    workers: int
    moves: int = 0
    commits: int = 0
    seconds: float = 0.0  # of play (idle: of waiting)
    opening: list[int] = field(default_factory=list)  # each worker's, opening the tables
    playing: list[int] = field(default_factory=list)  # each worker's, playing them out
    nginx: tuple[int, int] = (0, 0)  # opening, playing
    digest: str = ""
    held: float = 0.0  # instructions per worker-second with the tables open and no move (--hold)
    dumps: list[Path] = field(default_factory=list)  # the workers' play (idle: wait) dumps
    threads: Counter[str] = field(default_factory=Counter)  # play, by thread (--threads)


def one_run(
    db: str,
    count: int,
    of: str,
    tables: int,
    seconds: float,
    lease: float,
    seed: int,
    out: Path,
    hold: float = 0.0,
    threads: bool = False,
) -> Run:
    """Open ``tables`` seeded tables, then play every game out, counting each phase apart
    (``tables`` 0: no load at all for ``seconds``: what idle workers cost; ``hold``: that many
    seconds counted between the two, the tables open and no move made)."""
    out.mkdir(parents=True)
    Counted.wrap = callgrind(out, threads)
    find_nginx = workers.find_nginx
    script = nginx_under(callgrind(out), out)
    workers.find_nginx = lambda: script
    ports = [free_port() for _ in range(count)]
    flags = [*BENCH_FLAGS, *SEEDED_FLAGS]
    try:
        cluster = Counted(db, count, free_port(), ports=ports, serve_args=flags, lease=lease)
        cluster.start()
    finally:
        workers.find_nginx = find_nginx
    run = Run(count)
    try:
        procs = [proc.pid for proc in cluster.procs if proc is not None]
        nginx = _family(cluster.nginx.pid) if cluster.nginx else []
        for pid in procs + nginx:
            subprocess.run(["callgrind_control", "-z", str(pid)], capture_output=True, check=True)
        if tables:
            counted: list[int] = []

            def opened() -> None:
                run.opening = [instructions(pid, out, 1) for pid in procs]
                counted[:] = [sum(instructions(pid, out, 1) for pid in nginx), group_commits(db)]
                if hold:
                    began = time.monotonic()
                    time.sleep(hold)
                    held = sum(instructions(pid, out, 2) for pid in procs)
                    run.held = held / count / (time.monotonic() - began)
                    for pid in nginx:
                        instructions(pid, out, 2)

            run.moves, run.seconds = asyncio.run(
                open_and_play(cluster.url, of, tables, seed, opened)
            )
            run.commits = group_commits(db) - counted[1]
            last = 3 if hold else 2
            run.playing = [instructions(pid, out, last) for pid in procs]
            run.nginx = (counted[0], sum(instructions(pid, out, last) for pid in nginx))
            run.dumps = [path for pid in procs for path in thread_dumps(out, pid, last)]
            run.digest = games_digest(db)
            if threads:
                run.threads = by_thread(run.dumps)
        else:
            began = time.monotonic()
            time.sleep(seconds)
            run.seconds = time.monotonic() - began
            run.playing = [instructions(pid, out, 1) for pid in procs]
            run.dumps = [path for pid in procs for path in thread_dumps(out, pid, 1)]
            if threads:
                run.threads = by_thread(run.dumps)
    finally:
        cluster.stop()
    return run


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def report(run: Run, tables: int, idle: float) -> str:
    """One run's line: per move, each worker's and nginx's instructions in play, the part of
    them that idle workers would have cost over the same seconds (``idle`` per worker-second),
    and per table, what opening it cost."""
    if not run.moves:
        per = run.workers * run.seconds
        threads = ", ".join(f"{role} {n / per:,.0f}" for role, n in sorted(run.threads.items()))
        return (
            f"idle, {run.workers} worker(s), {run.seconds:.0f} s: "
            f"{sum(run.playing) / per:,.0f} instructions per worker-second"
        ) + (f"; by thread: {threads}" if threads else "")
    each = " + ".join(f"{n / run.moves:,.0f}" for n in run.playing)
    per_move = sum(run.playing) / run.moves
    idle_share = idle * run.workers * run.seconds / run.moves
    held = f"; tables held open: {run.held:,.0f} per worker-second" if run.held else ""
    threads = ", ".join(f"{role} {n / run.moves:,.0f}" for role, n in sorted(run.threads.items()))
    return (
        (
            f"{run.workers} worker(s), {run.moves:,} moves in {run.seconds:.0f} s "
            f"(games {run.digest}): per move, workers {per_move:,.0f} ({each}), "
            f"of which idle ~{idle_share:,.0f}; nginx {run.nginx[1] / run.moves:,.0f}; "
            f"{run.moves / max(run.commits, 1):.2f} moves per group commit ({run.commits:,}); "
            f"per table opened, workers {sum(run.opening) / tables:,.0f}, "
            f"nginx {run.nginx[0] / tables:,.0f}"
        )
        + held
        + (f"; per move by thread: {threads}" if threads else "")
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--tables", type=int, default=10, help="seeded tables, one game each")
    parser.add_argument("--seed", type=int, default=1, help="table n is dealt from seed + n")
    parser.add_argument("--idle", type=float, default=0.0, help="seconds of idle count first")
    parser.add_argument(
        "--hold", type=float, default=0.0, help="seconds counted with the tables open, no move"
    )
    parser.add_argument("--of", default="critters")
    parser.add_argument("--workers", default="1,2", help="worker counts to compare")
    parser.add_argument("--lease", type=float, default=120.0, help="seconds (callgrind is slow)")
    parser.add_argument("--out", default="", help="where the dumps stay (default: a temp dir)")
    parser.add_argument(
        "--threads", action="store_true", help="count each thread of a worker apart"
    )
    args = parser.parse_args()
    out = Path(args.out or tempfile.mkdtemp(prefix="workers-callgrind-"))
    counts = [int(n) for n in args.workers.split(",")]
    print(uptime(), flush=True)
    runs: dict[int, list[Run]] = {}
    idle = 0.0  # instructions per worker-second with no load
    own: dict[int, Counter[str]] = {}  # the workers' own instructions per move (mean of rounds)
    with throwaway_cluster() as pg:
        if args.idle:
            db = pg.database("idle")
            Store(db).close()
            run = one_run(
                db, 1, args.of, 0, args.idle, args.lease, args.seed, out / "idle", 0, args.threads
            )
            idle = sum(run.playing) / run.seconds
            print(report(run, 0, 0.0), flush=True)
        for round_ in range(args.rounds):
            for count in counts if round_ % 2 == 0 else counts[::-1]:
                db = pg.database(f"counted_{round_}_{count}")
                Store(db).close()
                here = out / f"round{round_ + 1}-{count}w"
                run = one_run(
                    db,
                    count,
                    args.of,
                    args.tables,
                    0.0,
                    args.lease,
                    args.seed,
                    here,
                    args.hold,
                    args.threads,
                )
                print(f"round {round_ + 1}: {report(run, args.tables, idle)}", flush=True)
                print(uptime(), flush=True)
                runs.setdefault(count, []).append(run)
                for dump in run.dumps:
                    functions, objects = own_costs(dump)
                    for name, cost in [
                        *functions.items(),
                        *((f"[{o}]", c) for o, c in objects.items()),
                    ]:
                        own.setdefault(count, Counter())[name] += cost / run.moves / args.rounds
    if not runs:
        return
    print("medians: workers, instructions per move (workers, of which idle, nginx), per group")
    for count, done in sorted(runs.items()):
        per_move = statistics.median(sum(r.playing) / r.moves for r in done)
        idle_share = statistics.median(idle * count * r.seconds / r.moves for r in done)
        routed = statistics.median(r.nginx[1] / r.moves for r in done)
        group = statistics.median(r.moves / max(r.commits, 1) for r in done)
        print(f"{count} {per_move:12,.0f} {idle_share:10,.0f} {routed:8,.0f} {group:6.2f}")
    digests = {r.digest for done in runs.values() for r in done}
    print(f"the same games in every run: {len(digests) == 1} ({', '.join(sorted(digests))})")
    print("the workers' own instructions per move, by shared object and function (mean):")
    shown = sorted(own)
    print(" ".join(f"{count:>11}w" for count in shown))
    for name, _ in (own[shown[0]] + own[shown[-1]]).most_common(30):
        print(" ".join(f"{own[count][name]:12,.0f}" for count in shown), name)


if __name__ == "__main__":
    main()
