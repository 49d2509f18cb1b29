"""Where a vector-env learner step's time goes, against SyncVectorEnv over the single env.

    python scripts/profile_vector.py critters 2 1000          # CPU µs per learner step, both
    python scripts/profile_vector.py critters 2 1000 profile  # and the profiles of both

It also prints the floor under any vector env of this engine and driver: the same 16 games
played with only the work that cannot be skipped (the learner's legal moves and one of them
applied, the opponents' moves through the same loop, reshuffles and new deals; in wild the
Match's tick), no observation, mask or info written. ``SyncVectorEnv`` / floor is the largest
speed-up any vector env over this engine could show.

16 games, random opponents, one random legal id per game from the batch mask (the loop of
``bestiary bench --adapters``), ``STEPS`` vector steps; CPU time (``time.process_time``), so a
loaded machine slows both alike. The profile groups the vector env's time by what it does.
"""

from __future__ import annotations

import cProfile
import pstats
import random
import sys
import time
from typing import Any

import gymnasium
import numpy as np

from bestiary.adapters import gym_envs
from bestiary.adapters.vector import _play_opponents, _settle, make_vector

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


def floor_per_step(venv: Any, steps: int) -> float:
    """CPU µs per learner step of the engine and driver work alone (see the module's doc)."""
    rng = random.Random(1)
    venv.reset(seed=1)
    learner = venv.learner
    start = time.process_time()
    for _ in range(steps):
        for i, env in enumerate(venv.envs):
            if env.game == "critters":
                state = venv._states[i]
                if state.is_over or venv._moves[i] >= venv.max_moves:
                    venv._reset(i, None, None)  # a new deal, opponents up to the learner
                    continue
                state.play_legal(rng.choice(state.legal_actions(learner)))
                _settle(state, venv._rngs[i])
                venv._moves[i] = _play_opponents(
                    state,
                    learner,
                    venv._opponents[i],
                    venv._rngs[i],
                    venv._moves[i] + 1,
                    venv.max_moves,
                )
            else:
                table = venv._tables[i]
                if table.state.is_over or table.ticks >= venv.max_ticks:
                    env.reset()
                    continue
                chosen: list[Any] = [None] * len(table.state.players)
                legal = table.state.legal_actions(learner)
                pick = rng.randrange(len(legal) + 1)  # uniform over the mask: wait is one id
                chosen[venv._seat] = legal[pick] if pick < len(legal) else None
                table.play_tick(chosen)
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
    floor = floor_per_step(make_vector(game, GAMES, players=players), steps)
    print(f"  floor: engine and driver alone     {floor:8.1f}   ({slow / floor:.2f}x at most)")
    if sys.argv[4:] == ["profile"]:
        for what, run in (("the vector env", cpu_per_step), ("the floor", floor_per_step)):
            print(f"\nProfile of {what}:")
            profile = cProfile.Profile()
            profile.runcall(run, make_vector(game, GAMES, players=players), steps)
            pstats.Stats(profile).sort_stats("cumulative").print_stats(25)


if __name__ == "__main__":
    main()
