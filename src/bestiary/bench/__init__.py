"""Engine benchmarks: seeded random legal games on one core (``bestiary bench``)."""

from __future__ import annotations

import platform
import random
import time
from dataclasses import dataclass

from bestiary.build import core_build
from bestiary.core.game import get_game


@dataclass(frozen=True)
class EngineBench:
    game: str
    players: int
    games: int
    steps: int
    seconds: float

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds

    @property
    def steps_per_second(self) -> float:
        return self.steps / self.seconds

    @property
    def micros_per_step(self) -> float:
        return 1e6 * self.seconds / self.steps

    def report(self) -> str:
        return (
            f"{self.game}: {self.players} players, {self.games} random games, {self.steps} steps "
            f"in {self.seconds:.2f} s (Python {platform.python_version()}, one core, "
            f"{core_build().line()})\n"
            f"  games/s   {self.games_per_second:12,.1f}\n"
            f"  steps/s   {self.steps_per_second:12,.0f}\n"
            f"  µs/step   {self.micros_per_step:12.2f}  (legal-action generation included)"
        )


def bench_engine(game: str, players: int, games: int, seed: int) -> EngineBench:
    """Play ``games`` seeded random games; time covers dealing, legal actions and apply."""
    rules = get_game(game)
    rules.info.check_player_count(players)
    if games < 1:
        raise ValueError("--games must be at least 1")
    names = [f"p{i + 1}" for i in range(players)]
    steps = 0
    start = time.perf_counter()
    for i in range(games):
        rng = random.Random(seed + i)
        state = rules.new_game(names, seed=seed + i)
        steps += rules.random_playout(state, rng, max_steps=100_000)
    seconds = time.perf_counter() - start
    return EngineBench(game, players, games, steps, seconds)
