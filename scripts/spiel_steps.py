"""Seeded random play through an OpenSpiel face, chance included: the loop callgrind counts.

    python scripts/spiel_steps.py python_bestiary_critters '{"players": 2}' 3000
    valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        .venv/bin/python scripts/spiel_steps.py python_bestiary_wild '{"players": 2}' 3000

A step is one node: a chance outcome drawn by its probability, a joint pick at a simultaneous
node, or one legal action, each drawn from ``random.Random(0)``; a finished game starts a new
one. Instructions per step are the run's instructions less a run of 0 steps (the imports),
divided by the steps.
"""

from __future__ import annotations

import json
import random
import sys

import pyspiel

import bestiary.adapters.generic_spiel
import bestiary.adapters.openspiel_critters
import bestiary.adapters.openspiel_wild  # noqa: F401 (each registers its game)


def play(name: str, params: dict[str, object], steps: int) -> None:
    game = pyspiel.load_game(name, params)
    rng = random.Random(0)
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            state = game.new_initial_state()
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        elif state.is_simultaneous_node():
            picks = [rng.choice(state.legal_actions(p)) for p in range(game.num_players())]
            state.apply_actions(picks)
        else:
            state.apply_action(rng.choice(state.legal_actions()))


if __name__ == "__main__":
    play(sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3]))
