"""Train a linear policy on PettingZoo's ``critters_v0`` for a few seconds (REINFORCE).

Seat player_0 learns against uniformly random opponents; the script prints its win rate
before and after training. Run: ``python examples/pettingzoo_critters_reinforce.py --seconds 10``
(needs ``pip install 'bestiary[rl]'``).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from bestiary.adapters import critters_v0


def play(env, weights, rng, learn_rate=0.0):
    """One game; player_0 samples from softmax(obs @ weights) over legal ids. Returns its reward."""
    env.reset(seed=int(rng.integers(2**31)))
    trajectory = []
    final = 0.0
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        if agent == "player_0":
            final = float(reward)
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        if agent == "player_0":
            x = observation["observation"] / 10.0
            logits = x @ weights[:, legal]
            p = np.exp(logits - logits.max())
            p /= p.sum()
            k = rng.choice(len(legal), p=p)
            trajectory.append((x, legal, p, k))
            env.step(int(legal[k]))
        else:
            env.step(int(rng.choice(legal)))
    if learn_rate:
        for x, legal, p, k in trajectory:
            grad = -p
            grad[k] += 1.0
            weights[:, legal] += learn_rate * final * np.outer(x, grad)
    return final


def win_rate(env, weights, rng, games):
    return sum(play(env, weights, rng) > 0 for _ in range(games)) / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    env = critters_v0.raw_env(players=2)
    env.reset(seed=args.seed)
    size = env.observation_space("player_0")["observation"].shape[0]
    weights = np.zeros((size, env.action_space("player_0").n))
    before = win_rate(env, weights, rng, 40)
    start, games = time.perf_counter(), 0
    while time.perf_counter() - start < args.seconds:
        play(env, weights, rng, learn_rate=0.05)
        games += 1
    after = win_rate(env, weights, rng, 40)
    print(f"trained on {games} games in {args.seconds:.0f} s")
    print(f"win rate against random play: before {before:.0%}, after {after:.0%} (40 games each)")


if __name__ == "__main__":
    main()
