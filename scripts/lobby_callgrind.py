"""Instructions per table opened and per game played out, of one ``bestiary serve`` process
(SQLite, the bench's server), old code against new (docs/benchmarks.md, "the lobby's cost per
table").

At 200 critters tables the bench replaces a finished game every ~70 moves through the lobby: 5
HTTP requests (made, joined by three, started) and 4 WebSocket handshakes, each with its table
rows written. This counts that cost apart from the moves'. The server runs under ``valgrind
--tool=callgrind`` (no cache simulation) once per source tree named on the command line
(``name=PYTHONPATH`` of the server), alternated in each round, with the bench's limits and, as
``seeded_tables`` wants, seeds allowed and no clock: one table is opened and played out first
(imports, caches and compiled statements warm), then the counters are zeroed, ``--tables``
seeded tables are opened one at a time (made, joined, started, four sockets connected, each
seat shown its first state) and the counters dumped: **per table opened**; then every game is
played out by seeded clients (the same moves in every run: the games' digest says so) and its
sockets closed, and the counters dumped again: per move, and a whole game's life (opened,
played, closed), of which the opening is a share.

    PYTHONPATH=.:src .venv/bin/python scripts/lobby_callgrind.py \\
        old=/work/main/src:tests/toygame new=src:tests/toygame --rounds 3

The dumps stay in ``--out`` for ``callgrind_annotate``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from scripts.seeded_tables import games_digest
from scripts.server_callgrind import count_seeded
from scripts.workers_callgrind import callgrind, own_costs, uptime

from bestiary.bench.loadtest import free_port, server_command


@dataclass
class Run:
    """One counted run: instructions opening the tables, then playing them out."""

    opening: int
    playing: int
    moves: int
    digest: str
    dump: Path  # of the opening


def one_run(pythonpath: str, of: str, tables: int, seed: int, out: Path) -> Run:
    out.mkdir(parents=True)
    port = free_port()
    db = f"sqlite:///{out / 'lobby.sqlite'}"
    env = {**os.environ, "PYTHONPATH": pythonpath}
    server = subprocess.Popen([*callgrind(out), *server_command(port, db, seeded=True)], env=env)
    moves, opening, playing = count_seeded(server, port, of, tables, seed, out, warm=True)
    digest = games_digest(db)
    return Run(opening, playing, moves, digest, out / f"callgrind.{server.pid}.1")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("sources", nargs="+", help="name=PYTHONPATH of the server, alternated")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--tables", type=int, default=10, help="seeded tables, one game each")
    parser.add_argument("--seed", type=int, default=1, help="table n is dealt from seed + n")
    parser.add_argument("--of", default="critters")
    parser.add_argument("--top", type=int, default=30, help="functions listed (opening)")
    parser.add_argument("--out", default="", help="where the dumps stay (default: a temp dir)")
    args = parser.parse_args()
    sources = dict(s.split("=", 1) for s in args.sources)
    out = Path(args.out or tempfile.mkdtemp(prefix="lobby-callgrind-"))
    print(uptime(), flush=True)
    runs: dict[str, list[Run]] = {}
    own: dict[str, Counter[str]] = {}  # own instructions per table opened (mean of rounds)
    for round_ in range(args.rounds):
        names = list(sources) if round_ % 2 == 0 else list(sources)[::-1]
        for name in names:
            here = out / f"round{round_ + 1}-{name}"
            run = one_run(sources[name], args.of, args.tables, args.seed, here)
            runs.setdefault(name, []).append(run)
            functions, objects = own_costs(run.dump)
            for key, cost in [*functions.items(), *((f"[{o}]", c) for o, c in objects.items())]:
                own.setdefault(name, Counter())[key] += cost / args.tables / args.rounds
            opened, life = run.opening / args.tables, (run.opening + run.playing) / args.tables
            print(
                f"round {round_ + 1}, {name}: per table opened {opened:,.0f}; {run.moves:,} "
                f"moves (games {run.digest}), per move {run.playing / run.moves:,.0f}; per game's "
                f"life {life:,.0f}, the opening {opened / life:.1%} of it (dumps in {here})",
                flush=True,
            )
            print(uptime(), flush=True)
    print("medians: source, per table opened, per move played, per game's life (each round's)")
    for name, done in runs.items():
        opened = [r.opening / args.tables for r in done]
        per_move = [r.playing / r.moves for r in done]
        life = [(r.opening + r.playing) / args.tables for r in done]
        each = ", ".join(f"{n:,.0f}" for n in opened)
        print(
            f"{name:>8} {statistics.median(opened):12,.0f} {statistics.median(per_move):10,.0f} "
            f"{statistics.median(life):13,.0f}   (opened: {each})"
        )
    digests = {r.digest for done in runs.values() for r in done}
    print(f"the same games in every run: {len(digests) == 1} ({', '.join(sorted(digests))})")
    print("the server's own instructions per table opened, by shared object and function (mean):")
    shown = list(own)
    print(" ".join(f"{name:>12}" for name in shown))
    for key, _ in sum(own.values(), Counter()).most_common(args.top):
        print(" ".join(f"{own[name][key]:12,.0f}" for name in shown), key)


if __name__ == "__main__":
    main()
