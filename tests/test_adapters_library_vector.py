"""The vector envs as SB3's ``VecEnv`` and Tianshou's vector env, as they are: the same games
as the Gymnasium vector env, and short training runs (smokes) with MaskablePPO and Tianshou's
DQN on them."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("torch")

from bestiary.adapters.vector import make_vector
from bestiary.wild.info import VARIANTS as WILD_VARIANTS

SETTINGS = {
    "critters": {"players": 2, "opponents": "greedy"},
    "wild-small": {"players": 2, "opponents": "random", "options": WILD_VARIANTS["small"]},
}


def _vector(setting: str, n: int) -> Any:
    return make_vector(setting.split("-")[0], n, **SETTINGS[setting])


def _same(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> None:
    assert sorted(a) == sorted(b)
    for key in a:
        np.testing.assert_array_equal(a[key], b[key])


@pytest.mark.parametrize("setting", sorted(SETTINGS))
def test_sb3_face_plays_the_vector_envs_games_resetting_in_the_same_step(setting: str) -> None:
    pytest.importorskip("stable_baselines3")
    from bestiary.adapters.sb3_vector import Sb3VecEnv

    vector = _vector(setting, 1)
    face = Sb3VecEnv(_vector(setting, 1))
    rng = np.random.default_rng(0)
    expected, _ = vector.reset(seed=5)
    face.seed(5)
    got: Any = face.reset()
    _same(got, expected)
    endings = 0
    for _ in range(400):
        np.testing.assert_array_equal(face.env_method("action_masks")[0], got["action_mask"][0])
        action = int(rng.choice(np.flatnonzero(got["action_mask"][0])))
        expected, reward, terminated, truncated, _ = vector.step([action])
        got, rewards, dones, infos = face.step(np.array([action]))
        assert rewards[0] == pytest.approx(reward[0])
        assert dones[0] == (terminated[0] or truncated[0])
        if dones[0]:
            endings += 1
            _same(infos[0]["terminal_observation"], {k: v[0] for k, v in expected.items()})
            assert infos[0]["TimeLimit.truncated"] == bool(truncated[0] and not terminated[0])
            expected, *_ = vector.step([0])  # Gymnasium's next step only resets the game
        _same(got, expected)
        assert got["action_mask"][0].any()
    assert endings >= 1


@pytest.mark.parametrize("setting", sorted(SETTINGS))
def test_maskable_ppo_trains_on_the_sb3_face(setting: str) -> None:
    pytest.importorskip("sb3_contrib")
    import torch
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    from bestiary.adapters.sb3_vector import Sb3VecEnv

    torch.set_num_threads(1)
    envs = Sb3VecEnv(_vector(setting, 4))
    assert is_masking_supported(envs)
    model = MaskablePPO(
        "MultiInputPolicy", envs, n_steps=64, batch_size=64, n_epochs=1, seed=1, device="cpu"
    )
    model.learn(total_timesteps=256)
    assert model.num_timesteps >= 256
    observations = envs.reset()
    masks = get_action_masks(envs)
    actions, _ = model.predict(observations, action_masks=masks, deterministic=True)
    assert all(masks[i, a] for i, a in enumerate(actions))


@pytest.mark.parametrize("setting", sorted(SETTINGS))
def test_tianshou_dqn_trains_on_the_tianshou_face(setting: str) -> None:
    pytest.importorskip("tianshou")
    import torch
    from tianshou.algorithm import DQN  # type: ignore[attr-defined]
    from tianshou.algorithm.algorithm_base import (  # type: ignore[attr-defined]
        policy_within_training_step,
    )
    from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
    from tianshou.algorithm.optim import AdamOptimizerFactory
    from tianshou.data import Collector, VectorReplayBuffer
    from tianshou.utils.net.common import Net

    from bestiary.adapters.tianshou_vector import TianshouVectorEnv

    torch.set_num_threads(1)
    torch.manual_seed(1)
    np.random.seed(1)  # Tianshou's exploration draws from NumPy's global generator
    envs = TianshouVectorEnv(_vector(setting, 4))
    games: Any = envs.games
    envs.seed(10)
    space = games.single_observation_space["observation"]
    actions = int(games.single_action_space.n)
    net = Net(state_shape=space.shape, action_shape=actions, hidden_sizes=[64])
    policy = DiscreteQLearningPolicy(
        model=net, action_space=games.single_action_space, eps_training=0.5
    )
    algorithm = DQN(policy=policy, optim=AdamOptimizerFactory(lr=1e-3), target_update_freq=20)
    buffer = VectorReplayBuffer(2_000, 4)
    collector: Collector[Any] = Collector(algorithm, envs, buffer, exploration_noise=True)
    collector.reset()
    losses = []
    for _ in range(5):
        with policy_within_training_step(policy):
            collector.collect(n_step=80)
            losses.append(algorithm.update(buffer=buffer, sample_size=32).loss)  # type: ignore[attr-defined]
    assert len(buffer) == 400
    assert np.isfinite(losses).all()
    # Every collected action was legal in its observation (the mask reached the policy), and
    # the infos kept their fixed keys.
    stored: Any = buffer[buffer.sample_indices(0)]  # every stored step, each game's in order
    assert stored.obs.mask[np.arange(len(stored)), stored.act].all()
    assert stored.done.any()  # games ended and the collector reset them (partial resets)
    assert stored.info.winners.shape == (len(buffer), 2)
