"""Search linear policies for ``bestiary/Wild-v0`` against bots for a few seconds.

Random search: perturb the weights, keep the perturbation when the mean return (the learner's
final score) over a few episodes improves. Prints the best mean score found next to a uniformly
random policy's. Run: ``python examples/gymnasium_wild_random_search.py --seconds 10``
(needs ``pip install 'bestiary[rl]'``).
"""

from __future__ import annotations

import argparse
import time

import gymnasium
import numpy as np

import bestiary.adapters.gym_envs  # noqa: F401  (registers bestiary/Wild-v0)


def episode(env, weights, seed, rng):
    observation, _ = env.reset(seed=seed)
    total = 0.0
    while True:
        legal = np.flatnonzero(observation["action_mask"])
        if weights is None:
            action = int(rng.choice(legal))
        else:
            scores = observation["observation"] @ weights[:, legal]
            action = int(legal[int(np.argmax(scores))])
        observation, reward, terminated, truncated, _ = env.step(action)
        total += float(reward)
        if terminated or truncated:
            return total


def mean_return(env, weights, seeds, rng):
    return float(np.mean([episode(env, weights, s, rng) for s in seeds]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opponents", default="honest")
    args = parser.parse_args()
    env = gymnasium.make("bestiary/Wild-v0", players=3, opponents=args.opponents)
    rng = np.random.default_rng(args.seed)
    seeds = list(range(args.seed, args.seed + 6))
    size = env.observation_space["observation"].shape[0]
    best = rng.normal(0, 0.1, (size, env.action_space.n))
    best_score = mean_return(env, best, seeds, rng)
    start, tried = time.perf_counter(), 0
    while time.perf_counter() - start < args.seconds:
        candidate = best + rng.normal(0, 0.05, best.shape)
        score = mean_return(env, candidate, seeds, rng)
        tried += 1
        if score > best_score:
            best, best_score = candidate, score
    held_out = list(range(1000, 1010))
    print(f"tried {tried} policies in {args.seconds:.0f} s against {args.opponents} bots")
    searched = mean_return(env, best, held_out, rng)
    random_play = mean_return(env, None, held_out, rng)
    print(f"mean final score on new deals: searched {searched:.2f}, random {random_play:.2f}")


if __name__ == "__main__":
    main()
