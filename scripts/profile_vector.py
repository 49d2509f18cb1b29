"""Where a vector-env learner step's time goes, against SyncVectorEnv over the single env.

    python scripts/profile_vector.py critters 2 1000          # CPU µs per learner step, both
    python scripts/profile_vector.py critters 2 1000 profile  # and the vector env's profile

16 games, random opponents, one random legal id per game from the batch mask (the loop of
``bestiary bench --adapters``), ``STEPS`` vector steps; CPU time (``time.process_time``), so a
loaded machine slows both alike. The profile groups the vector env's time by what it does.
"""

from __future__ import annotations

import cProfile
import pstats
import sys
import time
from typing import Any

import gymnasium
import numpy as np

from bestiary.adapters import gym_envs
from bestiary.adapters.vector import make_vector

GAMES = 16


def cpu_per_step(venv: Any, steps: int) -> float:
    """CPU µs per learner step over ``steps`` vector steps."""
    rng = np.random.default_rng(1)
    observations, _ = venv.reset(seed=1)
    start = time.process_time()
    for _ in range(steps):
        mask = observations["action_mask"]
        observations, *_ = venv.step((rng.random(mask.shape) * mask).argmax(1))
    return 1e6 * (time.process_time() - start) / (steps * venv.num_envs)


def main() -> None:
    game, players, steps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    single = gym_envs.CrittersEnv if game == "critters" else gym_envs.WildEnv
    sync = gymnasium.vector.SyncVectorEnv([lambda: single(players=players)] * GAMES)
    slow = cpu_per_step(sync, steps)
    fast = cpu_per_step(make_vector(game, GAMES, players=players), steps)
    print(f"{game}, {players} players, {GAMES} games, {steps} steps (CPU µs per learner step)")
    print(f"  SyncVectorEnv over the single env  {slow:8.1f}")
    print(f"  bestiary vector env                {fast:8.1f}   ({slow / fast:.2f}x)")
    if sys.argv[4:] == ["profile"]:
        venv = make_vector(game, GAMES, players=players)
        profile = cProfile.Profile()
        profile.runcall(cpu_per_step, venv, steps)
        pstats.Stats(profile).sort_stats("cumulative").print_stats(25)


if __name__ == "__main__":
    main()
