"""OpenSpiel's CFR and CFR+ solve the tiny critters variant; prints NashConv by iteration.

The tiny variant (``bestiary.adapters.variants``, docs/rl.md) is loaded with the deal as one
chance outcome. NashConv is the sum over both seats of what a best response gains against the
average policy (0 at a Nash equilibrium); the uniform random policy is the first line.
Run: ``python examples/openspiel_tiny_cfr.py --iterations 100`` (needs ``bestiary[openspiel]``).
"""

from __future__ import annotations

import argparse
import time

import pyspiel
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import cfr, exploitability

from bestiary.adapters import openspiel_critters

SOLVERS = {"cfr": cfr.CFRSolver, "cfr+": cfr.CFRPlusSolver}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--solver", choices=[*SOLVERS, "both"], default="both")
    args = parser.parse_args()
    game = pyspiel.load_game(
        openspiel_critters.SHORT_NAME, {"variant": "tiny", "deal_at_once": True}
    )
    uniform = exploitability.nash_conv(game, policy_lib.UniformRandomPolicy(game))
    print(f"uniform random policy: NashConv {uniform:.6f}")
    checkpoints = sorted({1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, args.iterations})
    for name in SOLVERS if args.solver == "both" else [args.solver]:
        solver = SOLVERS[name](game)
        start = time.perf_counter()
        for i in range(1, args.iterations + 1):
            solver.evaluate_and_update_policy()
            if i in checkpoints:
                conv = exploitability.nash_conv(game, solver.average_policy())
                print(
                    f"{name} iteration {i}: NashConv {conv:.6f} "
                    f"({time.perf_counter() - start:.1f} s)",
                    flush=True,
                )


if __name__ == "__main__":
    main()
