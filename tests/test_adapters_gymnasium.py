"""Gymnasium conformance of ``bestiary/Critters-v0`` and ``bestiary/Wild-v0`` against bots."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from bestiary.adapters import gym_envs  # noqa: E402
from bestiary.core.errors import BadOption  # noqa: E402


@pytest.mark.parametrize(
    ("env_id", "kwargs"),
    [
        ("bestiary/Critters-v0", {}),
        ("bestiary/Critters-v0", {"players": 3, "opponents": ["greedy", "random"], "seat": 1}),
        ("bestiary/Wild-v0", {}),
        ("bestiary/Wild-v0", {"players": 3, "opponents": "honest", "seat": 2}),
        ("bestiary/Wild-small-v0", {}),
        ("bestiary/Wild-small-v0", {"opponents": "reader", "seat": 1}),
    ],
)
def test_registered_envs_pass_check_env(env_id: str, kwargs: dict[str, Any]) -> None:
    env = gymnasium.make(env_id, **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)


def _play(env: Any, seed: int) -> tuple[float, dict[str, Any], int]:
    observation, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total, steps = 0.0, 0
    while True:
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, reward, terminated, truncated, info = env.step(action)
        total += float(reward)
        steps += 1
        if terminated or truncated:
            return total, info, steps


def test_critters_episode_against_bots_ends_in_win_or_loss() -> None:
    env = gym_envs.CrittersEnv(players=3, opponents=["greedy", "random"])
    total, info, _ = _play(env, seed=4)
    assert env.game_state.is_over
    winners = env.game_state.winners()
    assert total == (1.0 if "player_0" in winners else -1.0)
    assert info["winners"].tolist() == [int(p in winners) for p in env.players]
    # The learner only ever acted when the rules waited for it.
    learner_moves = [e for e in env.game_state.events() if e.get("by") == "player_0"]
    assert learner_moves


def test_wild_episode_against_bots_returns_the_final_score() -> None:
    env = gym_envs.WildEnv(players=3, opponents=["reader", "hunter"])
    total, info, _ = _play(env, seed=8)
    state = env.table.state
    assert state.is_over
    assert total == state.scores()["player_0"]
    assert info["winners"].tolist() == [int(p in state.winners()) for p in state.players]
    assert any(e.get("by") == "player_1" for e in state.events())


def test_same_seed_same_episode() -> None:
    a = gym_envs.WildEnv(players=2, opponents="trickster")
    b = gym_envs.WildEnv(players=2, opponents="trickster")
    _play(a, seed=3)
    _play(b, seed=3)
    assert a.table.state.events() == b.table.state.events()


def test_critters_illegal_action_ends_the_episode() -> None:
    env = gym_envs.CrittersEnv()
    observation, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == -1.0
    assert "not legal" in info["illegal_action"]


def test_wild_illegal_action_is_a_wait() -> None:
    env = gym_envs.WildEnv(players=2)
    observation, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, _, terminated, _, info = env.step(illegal)
    assert not terminated
    assert info["skipped"] == 1 and "not legal" in info["skip_reason"]
    assert not any(e.get("by") == "player_0" for e in env.table.state.events())


@pytest.mark.parametrize(
    ("make", "error", "message"),
    [
        (lambda: gym_envs.CrittersEnv(opponents="nobody"), BadOption, "no bot called 'nobody'"),
        (lambda: gym_envs.WildEnv(players=3, opponents=["random"]), BadOption, "one opponent for"),
        (lambda: gym_envs.CrittersEnv(opponents=42), BadOption, "not a value of type int"),
        (lambda: gym_envs.WildEnv(opponents={"a": 1}), BadOption, "bot name, an Agent, a policy"),
        (lambda: gym_envs.CrittersEnv(render_mode="rgb_array"), BadOption, "not supported"),
        (lambda: gym_envs.WildEnv(players=3, seat=3), BadOption, "seat must be between 0 and 2"),
        (lambda: gym_envs.CrittersEnv(players=9), BadOption, "2 to 8 players"),
    ],
)
def test_bad_settings_are_refused(make: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        make()


@pytest.mark.parametrize("make", [gym_envs.CrittersEnv, gym_envs.WildEnv])
def test_action_masks_match_the_observed_mask(make: Any) -> None:
    env = make(players=2)
    observation, _ = env.reset(seed=2)
    for _ in range(5):
        mask = env.action_masks()
        assert np.array_equal(mask, observation["action_mask"])
        observation, _, terminated, truncated, _ = env.step(int(np.flatnonzero(mask)[-1]))
        if terminated or truncated:
            break


@pytest.mark.parametrize(
    ("env_id", "kwargs"),
    [
        ("bestiary/Critters-v0", {"players": 2}),
        ("bestiary/Wild-v0", {"players": 2, "quiet_ticks": 4, "opponents": "honest"}),
    ],
)
def test_vector_masks_are_never_all_zero_under_next_step_autoreset(
    env_id: str, kwargs: dict[str, Any]
) -> None:
    envs = gymnasium.make_vec(env_id, num_envs=3, vectorization_mode="sync", **kwargs)
    assert envs.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP
    observations, _ = envs.reset(seed=11)
    rng = np.random.default_rng(11)
    ends = 0
    for _ in range(600):
        masks = observations["action_mask"]
        assert masks.any(axis=1).all()  # a masked sampler always has an action to take
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        observations, _, terminated, truncated, infos = envs.step(actions)
        ends += int((terminated | truncated).sum())
        for i in np.flatnonzero(terminated | truncated):
            # The last observation of an episode: every id is accepted (and ignored on reset).
            assert observations["action_mask"][i].all()
            assert infos["winners"][i].any() or truncated[i]
    assert ends >= 3
    envs.close()


def test_human_render_prints_the_public_table(capsys: pytest.CaptureFixture[str]) -> None:
    env = gym_envs.CrittersEnv(render_mode="human")
    env.reset(seed=1)
    assert env.render() is None
    assert "turn" in capsys.readouterr().out
