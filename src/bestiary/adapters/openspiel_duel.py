"""bestiary's ``ismcts`` bot against OpenSpiel's own ISMCTS, at the same time per move.

OpenSpiel's bot is ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` with its default settings
(UCT constant, final policy, child selection), random rollouts, and bestiary's resampler (the
engine's ``determinize``); it is given as many simulations per move as it runs in the time
bestiary's bot took per move, calibrated on the game's opening positions. Games are 2-player,
seats alternating; bestiary's bot sees only its seat's view and legal actions.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from bestiary.adapters import openspiel_critters
from bestiary.core.agent import Agent
from bestiary.sim.parallel import game_seed
from bestiary.sim.stats import wilson


@dataclass
class Duel:
    """What a run gave: bestiary's win share and each side's mean seconds per move."""

    games: int
    wins: float
    ours_seconds: float
    theirs_seconds: float
    simulations: int  # OpenSpiel's simulations per move at the end of the run
    ours_moves: int = 0
    theirs_moves: int = 0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)


def _their_bot(game: Any, simulations: int, seed: int) -> Any:
    bot = ismcts.ISMCTSBot(
        game=game,
        evaluator=mcts.RandomRolloutEvaluator(random_state=np.random.RandomState(seed)),
        uct_c=2.0,
        max_simulations=simulations,
        random_state=np.random.RandomState(seed),
        allow_inconsistent_action_sets=True,
    )
    bot.set_resampler(openspiel_critters.make_resampler(seed))
    return bot


def simulations_per_second(game: Any, seed: int, positions: int = 5) -> float:
    """OpenSpiel ISMCTS's simulations per second from opening positions of the game."""
    bot = _their_bot(game, 40, seed)
    rng = random.Random(seed)
    spent = 0.0
    for _ in range(positions):
        state = game.new_initial_state()
        while state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        start = time.perf_counter()
        bot.step(state)
        spent += time.perf_counter() - start
    return 40 * positions / spent


def duel(
    make_ours: Callable[[str, int], Agent],
    ours_seconds: float,
    games: int,
    seed: int,
    first: int = 0,
) -> Duel:
    """Play ``games`` 2-player games: ``make_ours(player, seed)`` against OpenSpiel's ISMCTS.

    ``ours_seconds`` is bestiary's bot's time per move (measured beforehand); OpenSpiel's bot
    gets the simulations it runs in that time, re-levelled after every game on the times
    measured so far. The games are numbered from ``first``, and game ``g`` is seeded from
    (``seed``, ``g``) alone, so a run split into pieces plays the same deals.
    """
    game = pyspiel.load_game(openspiel_critters.SHORT_NAME, {"players": 2})
    table = openspiel_critters.table_for(game.get_parameters())
    simulations = max(1, round(ours_seconds * simulations_per_second(game, seed)))
    wins = 0.0
    spent = {0: 0.0, 1: 0.0}
    moves = {0: 0, 1: 0}
    for g in range(first, first + games):
        rng = random.Random(game_seed(seed, g))
        theirs = _their_bot(game, simulations, seed + g)
        ours_seat = g % 2
        name = table.players[ours_seat]
        ours = make_ours(name, seed + g)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
                continue
            seat = state.current_player()
            start = time.perf_counter()
            if seat == ours_seat:
                engine = state.engine
                move = ours.act(engine.view(name), engine.legal_actions(name))
                assert move is not None, "a critters bot always moves when it must"
                action = table.encoding.action_id(move)
            else:
                action = theirs.step(state)
            spent[seat == ours_seat] += time.perf_counter() - start
            moves[seat == ours_seat] += 1
            state.apply_action(action)
        # Keep OpenSpiel's time per move level with ours as the games go (positions differ).
        mine, its = spent[1] / max(1, moves[1]), spent[0] / max(1, moves[0])
        if its > 0:
            simulations = max(1, round(simulations * min(2.0, max(0.5, mine / its))))
        # The engine's winners, not the returns: a shared win returns 0 (the zero-sum duel)
        # and counts a half here, as everywhere in bestiary.
        winners = state.engine.winners() if state.engine is not None else []
        if name in winners:
            wins += 1.0 / len(winners)
    return Duel(
        games,
        wins,
        spent[1] / max(1, moves[1]),
        spent[0] / max(1, moves[0]),
        simulations,
        moves[1],
        moves[0],
    )
