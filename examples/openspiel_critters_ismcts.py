"""OpenSpiel's ISMCTS bot plays the critter game against random play for a few seconds.

The bot is OpenSpiel's as shipped: it searches over worlds the game's own
``resample_from_infostate`` re-deals (the engine's ``determinize``), so it never sees the
opponent's hand. Prints games, wins and the bot's mean search time per move.
Run: ``python examples/openspiel_critters_ismcts.py --seconds 20``
(needs ``pip install 'bestiary[openspiel]'``).
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from bestiary.adapters import openspiel_critters


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--simulations", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = pyspiel.load_game(openspiel_critters.SHORT_NAME, {"players": 2})
    bot = ismcts.ISMCTSBot(
        game=game,
        evaluator=mcts.RandomRolloutEvaluator(random_state=np.random.RandomState(args.seed)),
        uct_c=2.0,
        max_simulations=args.simulations,
        random_state=np.random.RandomState(args.seed),
    )
    rng = random.Random(args.seed)
    games = wins = moves = 0
    searching = 0.0
    start = time.perf_counter()
    while time.perf_counter() - start < args.seconds or games == 0:
        state = game.new_initial_state()
        bot_seat = games % 2
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            elif state.current_player() == bot_seat:
                t = time.perf_counter()
                state.apply_action(bot.step(state))
                searching += time.perf_counter() - t
                moves += 1
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        games += 1
        wins += state.returns()[bot_seat] > 0
    print(f"ISMCTS ({args.simulations} simulations a move) against random play:")
    print(f"  {wins} wins in {games} games, {1000 * searching / max(moves, 1):.0f} ms per move")


if __name__ == "__main__":
    main()
