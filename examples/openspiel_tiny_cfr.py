"""OpenSpiel's CFR and CFR+ solve the tiny critters variant; prints NashConv by iteration.

The tiny variant (``bestiary.adapters.variants``, docs/rl.md) is loaded with the deal as one
chance outcome. NashConv is the sum over both seats of what a best response gains against the
average policy (0 at a Nash equilibrium); the uniform random policy is the first line.
``--native`` runs OpenSpiel's C++ solvers on the same tree written as an EFG game that
``pyspiel`` loads natively (``bestiary.adapters.openspiel_efg``), with ``--target`` to stop at a
NashConv; ``--write-efg PATH`` saves that file.
Run: ``python examples/openspiel_tiny_cfr.py --iterations 100`` or
``python examples/openspiel_tiny_cfr.py --native --target 0.001`` (needs
``bestiary[openspiel]``).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import pyspiel
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import cfr, exploitability

from bestiary.adapters import openspiel_critters, openspiel_efg

SOLVERS = {"cfr": cfr.CFRSolver, "cfr+": cfr.CFRPlusSolver}
NATIVE = {"cfr": pyspiel.CFRSolver, "cfr+": pyspiel.CFRPlusSolver}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--iterations", type=int, default=None, help="at most this many (20; with --target 1000)"
    )
    parser.add_argument("--solver", choices=[*SOLVERS, "both"], default="both")
    parser.add_argument("--native", action="store_true", help="C++ solvers on the EFG game")
    parser.add_argument("--target", type=float, default=0.0, help="stop at this NashConv")
    parser.add_argument("--write-efg", type=Path, default=None)
    args = parser.parse_args()
    if args.iterations is None:
        # A target is reached or missed, never cut short by the default of a plain run.
        args.iterations = 1000 if args.target else 20
    start = time.perf_counter()
    game = pyspiel.load_game(
        openspiel_critters.SHORT_NAME, {"variant": "tiny", "deal_at_once": True}
    )
    if args.native or args.write_efg:
        text = openspiel_efg.efg_text(game, "bestiary critters, tiny variant")
        if args.write_efg:
            args.write_efg.write_text(text)
        game = pyspiel.load_efg_game(text)
        print(f"EFG game: {text.count(chr(10)) - 2} nodes, {time.perf_counter() - start:.1f} s")
    conv = exploitability.nash_conv(game, policy_lib.UniformRandomPolicy(game))
    print(f"uniform random policy: NashConv {conv:.6f}")
    checkpoints = {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, args.iterations}
    for name in SOLVERS if args.solver == "both" else [args.solver]:
        solver = (NATIVE if args.native else SOLVERS)[name](game)
        start = time.perf_counter()
        for i in range(1, args.iterations + 1):
            solver.evaluate_and_update_policy()
            if args.native:
                conv = pyspiel.nash_conv(game, solver.average_policy())
            elif i in checkpoints or args.target:
                conv = exploitability.nash_conv(game, solver.average_policy())
            if i in checkpoints or conv <= args.target:
                print(
                    f"{name} iteration {i}: NashConv {conv:.6f} "
                    f"({time.perf_counter() - start:.2f} s)",
                    flush=True,
                )
            if conv <= args.target:
                break
        if args.target and conv > args.target:
            print(
                f"{name}: did not reach NashConv {args.target:g} in {args.iterations} iterations "
                f"(last {conv:.6f}); raise --iterations",
                flush=True,
            )


if __name__ == "__main__":
    main()
