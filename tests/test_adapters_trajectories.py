"""Same seeds, same trajectories: the vector envs and the single Gym envs against digests
recorded from main at 1964043 (before the vector env's rewrite for speed, issue 23).

Each case plays a fixed number of steps from a seeded reset with actions drawn from the mask by
a seeded NumPy generator (now and then a masked-out id), and hashes everything a learner
receives: observations, masks, rewards, terminations, truncations and every info array. A
change that moves one float of one observation changes the digest. Both builds run this file
(the compiled core in ``make test``, the pure tree in ``make pytest-pure``).
"""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from bestiary.adapters import gym_envs
from bestiary.adapters.vector import make_vector

CASES: list[tuple[str, dict[str, Any]]] = [
    ("critters", {"players": 2, "opponents": "random"}),
    ("critters", {"players": 4, "opponents": ["greedy", "random", "random"], "seat": 1}),
    ("wild", {"players": 4, "opponents": "random"}),
    ("wild", {"players": 3, "opponents": ["reader", "honest"], "seat": 2, "max_ticks": 80}),
]

VECTOR_DIGESTS = {
    0: "a3024b65671fcd4d1ad2f19ea7e7f1ad498f4d360d3935ab74611826f5040c1a",
    1: "56c2876de4a3f16283158bcd92f5b1d2ff2b7a2527e14457afbcb0d27951a181",
    2: "fc9412f6e9f614c64b2fb88b65eeaf2ae92792be4b83694b3c9c71bec0ed3546",
    3: "599921b0b4c2f70815ea78f08e6e977fa73a446046808ee39002d3e302038ab1",
}
SINGLE_DIGESTS = {
    0: "cd318bba617fd6bacd6f5b53f84d8e99ee0044947d21555335b9ce1fc60248fd",
    1: "4796fd99ffedf7080aa91b5d9dbbc457c76aa609f064fcc21442dbc37535f7a6",
    2: "53948ee5678a7d85effd6baaab5e9b1061107a2eb81c98689960d675c906482b",
    3: "167f81e81535169b9f53c0e03a126319a301f644236b2917392d91211912fde5",
}


def _feed(digest: Any, *arrays: Any) -> None:
    for array in arrays:
        digest.update(np.ascontiguousarray(array).tobytes())


def _infos(digest: Any, infos: dict[str, Any]) -> None:
    for key in sorted(infos):
        value = infos[key]
        if isinstance(value, str):
            digest.update(value.encode())
        else:
            _feed(digest, np.asarray(value))


def _action(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """A random legal id per row; now and then a masked-out one (illegal, or a skipped wait)."""
    actions = (rng.random(mask.shape) * mask).argmax(-1)
    if rng.random() < 0.03:
        actions = (rng.random(mask.shape) * (1 - mask)).argmax(-1)
    return np.asarray(actions)


def vector_digest(game: str, kwargs: dict[str, Any], steps: int = 300) -> str:
    venv = make_vector(game, 4, **kwargs)
    digest = hashlib.sha256()
    observations, infos = venv.reset(seed=7)
    rng = np.random.default_rng(7)
    _feed(digest, observations["observation"], observations["action_mask"])
    _infos(digest, infos)
    for _ in range(steps):
        step = venv.step(_action(rng, observations["action_mask"]))
        observations, rewards, terminated, truncated, infos = step
        _feed(digest, observations["observation"], observations["action_mask"])
        _feed(digest, rewards, terminated, truncated)
        _infos(digest, infos)
    return digest.hexdigest()


def single_digest(game: str, kwargs: dict[str, Any], steps: int = 300) -> str:
    env: Any = gym_envs.CrittersEnv(**kwargs) if game == "critters" else gym_envs.WildEnv(**kwargs)
    digest = hashlib.sha256()
    observation, info = env.reset(seed=7)
    rng = np.random.default_rng(7)
    for _ in range(steps):
        _feed(digest, observation["observation"], observation["action_mask"])
        _infos(digest, info)
        step = env.step(int(_action(rng, observation["action_mask"])))
        observation, reward, terminated, truncated, info = step
        _feed(digest, np.float64(reward), np.bool_(terminated), np.bool_(truncated))
        if terminated or truncated:
            observation, info = env.reset()
    return digest.hexdigest()


@pytest.mark.parametrize("case", range(len(CASES)))
def test_vector_env_trajectories_are_those_recorded(case: int) -> None:
    game, kwargs = CASES[case]
    assert vector_digest(game, kwargs) == VECTOR_DIGESTS[case]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_single_env_trajectories_are_those_recorded(case: int) -> None:
    game, kwargs = CASES[case]
    assert single_digest(game, kwargs) == SINGLE_DIGESTS[case]
