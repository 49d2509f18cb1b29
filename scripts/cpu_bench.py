"""Engine speed in CPU time, for comparing two versions on a busy machine.

    python scripts/cpu_bench.py wild 4 300 5
    PYTHONPATH=/path/to/old/checkout/src python scripts/cpu_bench.py wild 4 300 5

Plays ``games`` seeded random games (seeds 1..games) ``runs`` times with the engine's own
``random_playout`` and prints the least CPU time per step: on a machine shared with other
work, CPU time moves far less than the wall time that ``bestiary bench`` reports.
"""

from __future__ import annotations

import random
import sys
import time

from bestiary.core.game import get_game


def main() -> None:
    game, players, games, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    rules = get_game(game)
    names = [f"p{i + 1}" for i in range(players)]
    best = float("inf")
    for _ in range(runs):
        steps = 0
        start = time.process_time()
        for i in range(games):
            state = rules.new_game(names, seed=1 + i)
            steps += rules.random_playout(state, random.Random(1 + i), max_steps=100_000)
        best = min(best, 1e6 * (time.process_time() - start) / steps)
    print(f"{game} {players}: {best:.2f} µs/step (CPU, least of {runs} runs of {games} games)")


if __name__ == "__main__":
    main()
