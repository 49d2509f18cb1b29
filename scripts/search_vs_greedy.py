"""The critters ``ismcts`` against ``greedy`` with one search setting changed: a tuning probe.

    python scripts/search_vs_greedy.py --iterations 100 --games 400 --jobs 2
    python scripts/search_vs_greedy.py --confidence none --noise 0.1   # the search before

2 players, seats alternating; game g is dealt from seed 1000 + g and seats the search in seat
g % 2, so two settings meet the same deals. Prints the search's win share with its 95% Wilson
interval and its mean time per decision. docs/sim.md has the figures it gave.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import time
from typing import Any

from bestiary.bots import critters, critters_search
from bestiary.bots.critters_search import IsmctsBot
from bestiary.core.agent import make_bot
from bestiary.critters import GAME
from bestiary.search.ismcts import Budget
from bestiary.sim.ladder import in_parallel
from bestiary.sim.stats import wilson


def play(part: tuple[dict[str, Any], int, int]) -> tuple[float, int, float]:
    """Wins, decisions and seconds of the search over games ``start`` to ``stop``."""
    setting, start, stop = part
    critters.PLAYOUT_NOISE = setting["noise"]
    searcher = dataclasses.replace(
        critters_search.SEARCHER, confidence=setting["confidence"], depth=setting["depth"]
    )
    wins, decisions, spent = 0.0, 0, 0.0
    for g in range(start, stop):
        state = GAME.new_game(["a", "b"], seed=1000 + g)
        me, other = ("a", "b") if g % 2 == 0 else ("b", "a")
        bots = {
            me: IsmctsBot(me, random.Random(g), Budget(iterations=setting["iterations"]), searcher),
            other: make_bot("critters", "greedy", other, g),
        }
        while not state.is_over:
            if state.chance_due:
                state.apply(state.chance_outcome(random.Random(g)))
                continue
            actor = state.to_act
            assert actor is not None
            clock = time.perf_counter()
            move = bots[actor].act(state.view(actor), state.legal_actions(actor))
            if actor == me:
                spent += time.perf_counter() - clock
                decisions += 1
            state.apply(move)
        winners = state.winners()
        wins += 1 / len(winners) if me in winners else 0.0
    return wins, decisions, spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=critters_search.ISMCTS_ITERATIONS)
    parser.add_argument("--confidence", default=str(critters_search.SEARCHER.confidence))
    parser.add_argument("--noise", type=float, default=critters.PLAYOUT_NOISE)
    parser.add_argument("--depth", type=int, default=critters_search.SEARCHER.depth)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    confidence = None if args.confidence.lower() == "none" else float(args.confidence)
    setting = {
        "iterations": args.iterations,
        "confidence": confidence,
        "noise": args.noise,
        "depth": args.depth,
    }
    half = args.games // args.jobs if args.jobs > 1 else args.games
    parts = [(setting, a, min(args.games, a + half)) for a in range(0, args.games, half)]
    results = in_parallel(play, parts, args.jobs)
    wins = sum(r[0] for r in results)
    decisions = sum(r[1] for r in results)
    seconds = sum(r[2] for r in results)
    low, high = wilson(wins, args.games)
    print(
        f"{setting}: {wins / args.games:.3f} [{low:.3f}, {high:.3f}] n={args.games}, "
        f"{1000 * seconds / max(1, decisions):.1f} ms a decision"
    )


if __name__ == "__main__":
    main()
