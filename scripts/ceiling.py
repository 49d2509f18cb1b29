"""How far above ``greedy`` the critters search gets when it cheats (``bestiary.sim.ceiling``).

    python scripts/ceiling.py --sees hands --iterations 400 --games 400 --jobs 2
    python scripts/ceiling.py --sees future --games 1000 --jobs 2

2 players, seats alternating, game i dealt as game i of ``bestiary ladder --seed SEED``'s
``ismcts`` against ``greedy`` (the ladder prints these seers at its own playout count). Prints
the seer's win share with its 95% Wilson interval and the time the run took.
"""

from __future__ import annotations

import argparse
import time

from bestiary.bots.critters_search import ISMCTS_ITERATIONS
from bestiary.sim.ceiling import SEERS, Games, play
from bestiary.sim.ladder import in_parallel, pieces
from bestiary.sim.stats import wilson


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sees", choices=SEERS, default="hands")
    parser.add_argument("--iterations", type=int, default=ISMCTS_ITERATIONS)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    start = time.perf_counter()
    parts = [
        Games(args.sees, 2, args.seed, a, b, args.iterations)
        for a, b in pieces(args.games, args.jobs)
    ]
    wins = sum(in_parallel(play, parts, args.jobs))
    low, high = wilson(wins, args.games)
    print(
        f"sees {args.sees}, {args.iterations} playouts a move, against greedy: "
        f"{wins / args.games:.3f} [{low:.3f}, {high:.3f}] n={args.games} "
        f"({time.perf_counter() - start:.0f} s)"
    )


if __name__ == "__main__":
    main()
