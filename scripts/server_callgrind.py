"""Instructions per move of one ``bestiary serve`` process (SQLite), old code against new.

CPU time per move on a machine shared with other jobs moves with their load; an instruction count
does not. The one-process server that ``bestiary bench server`` loads runs under ``valgrind
--tool=callgrind`` (no cache simulation), once per source tree named on the command line
(``name=PYTHONPATH`` of the server: a compiled core's ``build/...`` or a ``src``); once it is up
its counters are zeroed, the bench's own load plays one level (``--tables``, ``--seconds``;
tables are opened and replaced through the lobby inside the count, as in the bench), and the
counters are dumped: the server's user-space instructions / moves the clients saw. The kernel's
share (socket writes and reads, SQLite's file writes) is not in it: the bench's ``moves/cpu-s``
is. Sources are alternated in each round.

    PYTHONPATH=.:src .venv/bin/python scripts/server_callgrind.py \\
        old=build/base:tests/toygame new=build/core:tests/toygame --rounds 3

The bench's load is timed: each run plays the moves callgrind's pace allows, different ones
every run, and the lobby's churn (finished games replaced) is inside the count. ``--seeded N``
counts a fixed workload instead (``seeded_tables``, as ``workers_callgrind.py`` does for
workers): ``N`` tables dealt from fixed seeds, opened through the lobby (counted apart), then
every game played out to its end by seeded clients, one move at a time: the same moves in every
run (the games' digest says so), their instructions per move counted without the lobby's.

The dumps stay in ``--out`` for ``callgrind_annotate``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from scripts.seeded_tables import SEEDED_FLAGS, games_digest, open_and_play
from scripts.workers_callgrind import callgrind, instructions, own_costs

from bestiary.bench.loadtest import BENCH_FLAGS, _levels, _wait_up, free_port, server_command


def one_run(
    pythonpath: str, of: str, tables: int, seconds: float, movers: int, out: Path
) -> tuple[int, int, Path]:
    """Moves and the server's instructions of one counted level, and its dump."""
    out.mkdir(parents=True)
    port = free_port()
    env = {**os.environ, "PYTHONPATH": pythonpath}
    command = [*callgrind(out), *server_command(port, f"sqlite:///{out / 'bench.sqlite'}")]
    server = subprocess.Popen(command, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_up(base, server, seconds=600)  # imports under callgrind take a minute or more
        subprocess.run(
            ["callgrind_control", "-z", str(server.pid)], capture_output=True, check=True
        )
        level = _levels(
            base, [server.pid], games=[of], table_counts=[tables], seconds=seconds, echo=print,
            thinkers=0, movers=movers,
        )[0]  # fmt: skip
        served = instructions(server.pid, out, 1)
    finally:
        server.terminate()
        server.wait(timeout=120)
    return level.moves, served, out / f"callgrind.{server.pid}.1"


def seeded_run(
    pythonpath: str, of: str, tables: int, seed: int, out: Path
) -> tuple[int, int, int, str, Path]:
    """The fixed workload on one ``bestiary serve`` (SQLite): moves, the server's instructions
    opening the tables and playing them out, the games' digest, and the play's dump."""
    out.mkdir(parents=True)
    port = free_port()
    db = f"sqlite:///{out / 'seeded.sqlite'}"
    env = {**os.environ, "PYTHONPATH": pythonpath}
    serve = [
        "serve", "--host", "127.0.0.1", "--port", str(port), "--db", db,
        *BENCH_FLAGS, *SEEDED_FLAGS,
    ]  # fmt: skip
    command = [*callgrind(out), sys.executable, "-c", "from bestiary.cli import main; main()"]
    server = subprocess.Popen([*command, *serve], env=env, stdout=subprocess.DEVNULL)
    moves, opening, played = count_seeded(server, port, of, tables, seed, out)
    return moves, opening, played, games_digest(db), out / f"callgrind.{server.pid}.2"


def count_seeded(
    server: subprocess.Popen[bytes],
    port: int,
    of: str,
    tables: int,
    seed: int,
    out: Path,
    warm: bool = False,
) -> tuple[int, int, int]:
    """``seeded_tables``' workload on ``server`` (under callgrind, dumping into ``out``), then
    the server stopped: moves, instructions opening the tables (dump 1), playing them out (dump
    2). ``warm``: one table opened and played first, not counted."""
    base = f"http://127.0.0.1:{port}"
    opening: list[int] = []
    try:
        _wait_up(base, server, seconds=600)  # imports under callgrind take a minute or more
        if warm:
            asyncio.run(open_and_play(base, of, 1, seed - 1, lambda: None))
        subprocess.run(
            ["callgrind_control", "-z", str(server.pid)], capture_output=True, check=True
        )
        moves, _ = asyncio.run(
            open_and_play(
                base, of, tables, seed, lambda: opening.append(instructions(server.pid, out, 1))
            )
        )
        played = instructions(server.pid, out, 2)
    finally:
        server.terminate()
        server.wait(timeout=120)
    return moves, opening[0], played


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("sources", nargs="+", help="name=PYTHONPATH of the server, alternated")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--of", default="critters")
    parser.add_argument("--movers", type=int, default=0)
    parser.add_argument("--top", type=int, default=30, help="functions listed")
    parser.add_argument(
        "--seeded", type=int, default=0, help="tables of the fixed workload (0: the bench's load)"
    )
    parser.add_argument("--seed", type=int, default=1, help="--seeded: table n dealt from seed + n")
    parser.add_argument("--out", default="", help="where the dumps stay (default: a temp dir)")
    args = parser.parse_args()
    sources = dict(s.split("=", 1) for s in args.sources)
    out = Path(args.out or tempfile.mkdtemp(prefix="server-callgrind-"))
    print(subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip(), flush=True)
    per_move: dict[str, list[float]] = {}
    own: dict[str, Counter[str]] = {}  # the server's own instructions per move (mean of rounds)
    digests: set[str] = set()
    for round_ in range(args.rounds):
        for name, pythonpath in sources.items():
            here = out / f"round{round_ + 1}-{name}"
            start = time.monotonic()
            opened = ""
            if args.seeded:
                moves, opening, served, digest, dump = seeded_run(
                    pythonpath, args.of, args.seeded, args.seed, here
                )
                digests.add(digest)
                opened = f", {opening / args.seeded:,.0f} per table opened, games {digest}"
            else:
                moves, served, dump = one_run(
                    pythonpath, args.of, args.tables, args.seconds, args.movers, here
                )
            if not moves:  # e.g. wild: its 5 s Nightfall ends games before callgrind answers
                raise SystemExit(f"{name}: no move was answered in the counted level ({here})")
            per_move.setdefault(name, []).append(served / moves)
            functions, objects = own_costs(dump)
            for key, cost in [*functions.items(), *((f"[{o}]", c) for o, c in objects.items())]:
                own.setdefault(name, Counter())[key] += cost / moves / args.rounds
            print(
                f"round {round_ + 1}, {name}: {moves:,} moves, {served / moves:,.0f} server "
                f"instructions per move{opened} ({time.monotonic() - start:.0f} s; dump in {here})",
                flush=True,
            )
            print(subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    print("medians: source, server instructions per move (each round's)")
    for name, runs in per_move.items():
        each = ", ".join(f"{r:,.0f}" for r in runs)
        print(f"{name:>8} {statistics.median(runs):12,.0f}   ({each})")
    if args.seeded:
        print(f"the same games in every run: {len(digests) == 1} ({', '.join(sorted(digests))})")
    names = list(own)
    print("the server's own instructions per move, by shared object and function (mean of rounds):")
    print(" ".join(f"{name:>12}" for name in names))
    everything = sum(own.values(), Counter())
    for key, _ in everything.most_common(args.top):
        print(" ".join(f"{own[name][key]:12,.0f}" for name in names), key)


if __name__ == "__main__":
    main()
