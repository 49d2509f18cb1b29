"""Simulation figures for ``bestiary bench --sim``: games/s per core with random bots, and
ISMCTS iterations per second. Measured, never asserted."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from bestiary.sim.runner import play_game
from bestiary.sim.seating import sim_specs


@dataclass(frozen=True)
class Rate:
    what: str
    count: int
    unit: str
    seconds: float

    def line(self) -> str:
        per = self.count / self.seconds
        total = f"({self.count:,} in {self.seconds:.2f} s)"
        return f"  {self.what:<36} {per:12,.1f} {self.unit}/s  {total}"


def bench_sim_games(game: str, players: int, games: int, seed: int) -> Rate:
    """Whole simulated games with ``random`` bots through the runner, in this process (one core).

    For wild this includes the tick model: every player is asked to act every tick and given a
    fresh view; for critters every move goes through a view and a determinization.
    """
    specs = sim_specs(game, ["random"], players, games, seed)
    start = time.perf_counter()
    for spec in specs:
        play_game(spec)
    return Rate(f"sim {game}, {players} random bots", games, "games", time.perf_counter() - start)


def bench_ismcts(players: int, iterations: int, positions: int, seed: int) -> Rate:
    """ISMCTS iterations per second from early critters positions (the ``ismcts`` bot's search)."""
    from bestiary.bots.critters_search import IsmctsBot
    from bestiary.critters import GAME
    from bestiary.search.ismcts import Budget

    names = [f"p{i + 1}" for i in range(players)]
    done = 0
    seconds = 0.0
    for i in range(positions):
        state = GAME.new_game(names, seed=seed + i)
        actor = state.to_act
        assert actor is not None
        bot = IsmctsBot(actor, random.Random(seed + i), Budget(iterations=iterations))
        bot.act(state.view(actor), state.legal_actions(actor))
        assert bot.last is not None
        done += bot.last.iterations
        seconds += bot.last.seconds
    return Rate(f"ismcts, critters {players} players", done, "iterations", seconds)
