"""The vector envs play exactly what N single Gym envs play, with batch arrays and masks."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.vector import AutoresetMode  # noqa: E402

from bestiary.adapters import gym_envs  # noqa: E402
from bestiary.adapters.critters_encoding import CrittersEncoding  # noqa: E402
from bestiary.adapters.variants import variant_options  # noqa: E402
from bestiary.adapters.vector import CrittersVectorEnv, WildVectorEnv, make_vector  # noqa: E402
from bestiary.adapters.wild_encoding import WildEncoding  # noqa: E402
from bestiary.core.errors import BadOption  # noqa: E402
from bestiary.critters import GAME as CRITTERS  # noqa: E402
from bestiary.wild import GAME as WILD  # noqa: E402

FEW = settings(max_examples=12, deadline=None)


@FEW
@given(seed=st.integers(0, 10_000), players=st.integers(2, 5))
def test_critters_state_encoding_equals_the_views(seed: int, players: int) -> None:
    names = [f"p{i}" for i in range(players)]
    state = CRITTERS.new_game(names, seed=seed)
    enc = CrittersEncoding(state.players, state.kinds, state.set_size)
    rng = random.Random(seed)
    for _ in range(400):
        for p in names:
            out = [0.0] * enc.obs_size
            enc.observe_state(state, p, out)
            assert out == enc.observe(state.view(p)).tolist()
        if state.is_over:
            break
        if state.chance_due:
            state.apply(state.chance_outcome(rng))
        else:
            state.apply(rng.choice(state.legal_actions(state.actors[0])))


@FEW
@given(seed=st.integers(0, 10_000), players=st.integers(2, 6), objectives=st.booleans())
def test_wild_state_encoding_equals_the_views(seed: int, players: int, objectives: bool) -> None:
    names = [f"p{i}" for i in range(players)]
    state = WILD.new_game(names, {"objectives": objectives}, seed=seed)
    enc = WildEncoding(state.players, objectives)
    rng = random.Random(seed)
    for step in range(600):
        quiet = (step % 7) / 7
        for p in names:
            out = [0.0] * enc.obs_size
            enc.observe_state(state, p, quiet, out)
            # float32 both ways: the share of the clock is stored as float32 in the batch.
            assert np.array(out, np.float32).tolist() == enc.observe(state.view(p), quiet).tolist()
        if state.is_over:
            break
        p = rng.choice(names)
        legal = state.legal_actions(p)
        if legal:
            state.apply(rng.choice(legal))


@FEW
@given(seed=st.integers(0, 10_000))
def test_play_legal_is_apply_for_legal_actions(seed: int) -> None:
    names = ["a", "b", "c"]
    checked, fast = (CRITTERS.new_game(names, seed=seed) for _ in range(2))
    rng = random.Random(seed)
    while not checked.is_over:
        if checked.chance_due:
            outcome = checked.chance_outcome(rng)
            checked.apply(outcome)
            fast.apply(outcome)
            continue
        action = rng.choice(checked.legal_actions(checked.actors[0]))
        checked.apply(action)
        fast.play_legal(action)
        assert fast.events() == checked.events()
        assert fast.view(None) == checked.view(None)


def _single_envs(game: str, n: int, kwargs: dict[str, Any]) -> list[Any]:
    cls = gym_envs.CrittersEnv if game == "critters" else gym_envs.WildEnv
    return [cls(**kwargs) for _ in range(n)]


_BIG_DECK = {"fox": 100, "owl": 100, "frog": 100, "wild": 6, "no": 6, "hop_over": 5}

CASES = [
    ("critters", {"players": 2, "opponents": "random"}),
    ("critters", {"players": 3, "opponents": ["greedy", "random"], "seat": 1}),
    ("critters", {"players": 2, "opponents": "greedy", "max_moves": 12}),
    # Four players empty the Draw Pile: reshuffles, sampled with the table's RNG.
    ("critters", {"players": 4, "opponents": "random", "seat": 2}),
    ("critters", {"players": 2, "opponents": "random", "options": variant_options("tiny")}),
    # A Draw Pile of more than 255 cards: counts that do not fit the env's byte per entry.
    ("critters", {"players": 2, "opponents": "random", "options": {"deck": _BIG_DECK}}),
    ("wild", {"players": 4, "opponents": "random", "quiet_ticks": 40}),
    ("wild", {"players": 3, "opponents": ["reader", "honest"], "seat": 2, "max_ticks": 60}),
]


@pytest.mark.parametrize(("game", "kwargs"), CASES)
def test_vector_env_equals_single_envs_step_by_step(game: str, kwargs: dict[str, Any]) -> None:
    n = 3
    venv = make_vector(game, n, **kwargs)
    singles = _single_envs(game, n, kwargs)
    obs, infos = venv.reset(seed=11)
    single_obs = [env.reset(seed=11 + i)[0] for i, env in enumerate(singles)]
    ended = [False] * n
    rng = np.random.default_rng(5)
    ends = 0
    for _ in range(400):
        for i in range(n):
            np.testing.assert_array_equal(obs["observation"][i], single_obs[i]["observation"])
            np.testing.assert_array_equal(obs["action_mask"][i], single_obs[i]["action_mask"])
        mask = obs["action_mask"]
        actions = (rng.random(mask.shape) * mask).argmax(1)
        if rng.random() < 0.05:  # now and then a masked-out id (illegal, or a skipped wait)
            actions[0] = int(np.flatnonzero(mask[0] == 0)[0]) if (mask[0] == 0).any() else 0
        obs, rewards, terminated, truncated, infos = venv.step(actions)
        for i, env in enumerate(singles):
            if ended[i]:  # Gymnasium's NEXT_STEP autoreset, as SyncVectorEnv does it
                single_obs[i], _ = env.reset()
                reward, term, trunc = 0.0, False, False
                info: dict[str, Any] = {"winners": np.zeros(len(env.players), np.int8)}
            else:
                single_obs[i], reward, term, trunc, info = env.step(int(actions[i]))
            assert rewards[i] == reward
            assert (terminated[i], truncated[i]) == (term, trunc)
            np.testing.assert_array_equal(infos["winners"][i], info["winners"])
            if game == "critters" and not ended[i]:
                assert infos["illegal_action"][i] == bool(info["illegal_action"])
            if game == "wild" and not ended[i]:
                assert infos["skipped"][i] == info["skipped"]
            ended[i] = term or trunc
            ends += ended[i]
    assert ends >= 3  # the comparison crossed several episode ends and autoresets


@pytest.mark.parametrize(("game", "kwargs"), CASES)
def test_masks_never_all_zero_where_the_learner_acts(game: str, kwargs: dict[str, Any]) -> None:
    venv = make_vector(game, 4, **kwargs)
    obs, _ = venv.reset(seed=3)
    rng = np.random.default_rng(3)
    ended = np.zeros(4, dtype=bool)
    for _ in range(300):
        mask = obs["action_mask"]
        assert mask.any(axis=1).all()
        assert mask[ended].all()  # the observation that ended a game: every id accepted
        assert venv.observation_space.contains(obs)
        obs, _, terminated, truncated, _ = venv.step((rng.random(mask.shape) * mask).argmax(1))
        ended = terminated | truncated


def test_vector_envs_follow_gymnasium_vector_conventions() -> None:
    venv = CrittersVectorEnv(5, players=3, opponents="random")
    assert venv.num_envs == 5
    assert venv.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert venv.single_action_space == gym_envs.CrittersEnv(players=3).action_space
    assert venv.action_space.shape == (5,)
    obs, infos = venv.reset(seed=[1, 2, 3, 4, 5])
    assert obs["observation"].shape == (5, venv.encoding.obs_size)
    assert obs["observation"].dtype == np.float32
    assert obs["action_mask"].dtype == np.int8
    assert set(infos) == {"winners", "_winners", "illegal_action", "_illegal_action"}
    venv.action_space.seed(0)
    wrapped = gymnasium.wrappers.vector.RecordEpisodeStatistics(venv)
    wrapped.reset(seed=0)
    episodes = 0
    for _ in range(200):
        mask = wrapped.unwrapped._mask
        action = (np.random.default_rng(0).random(mask.shape) * mask).argmax(1)
        *_, infos = wrapped.step(action)
        episodes += int(infos.get("_episode", np.zeros(5, bool)).sum())
    assert episodes > 0


def test_copy_false_returns_the_buffers_and_copy_true_does_not() -> None:
    shared = WildVectorEnv(2, players=2, copy=False)
    first, _ = shared.reset(seed=1)
    second, *_ = shared.step(np.zeros(2, dtype=np.int64))
    assert first["observation"] is second["observation"]
    fresh = WildVectorEnv(2, players=2)
    first, _ = fresh.reset(seed=1)
    second, *_ = fresh.step(np.zeros(2, dtype=np.int64))
    assert first["observation"] is not second["observation"]


def test_bad_settings_are_refused_in_one_sentence() -> None:
    with pytest.raises(BadOption, match="at least one game"):
        CrittersVectorEnv(0)
    with pytest.raises(BadOption, match="opponent"):
        WildVectorEnv(2, opponents=3.5)
    with pytest.raises(BadOption, match="no vector env"):
        make_vector("chess", 2)
    with pytest.raises(BadOption, match="one seed per game"):
        CrittersVectorEnv(2).reset(seed=[1, 2, 3])
    with pytest.raises(BadOption, match="partial resets"):
        CrittersVectorEnv(2).reset(options={"reset_mask": np.array([True, False])})


def test_set_opponents_reaches_every_game_from_its_next_reset() -> None:
    venv = CrittersVectorEnv(2, players=2, opponents="random")
    venv.set_opponents("greedy")
    venv.reset(seed=1)
    assert all(type(env._opponents["player_1"]).__name__ == "GreedyBot" for env in venv.envs)


@pytest.mark.parametrize("game", ["critters", "wild"])
def test_bench_times_sync_and_vector_envs_side_by_side(game: str) -> None:
    from bestiary.adapters.speed import bench_vector, vector_speedup

    rates = bench_vector(game, 2, seconds=0.05, games=3)
    assert [r.name.split()[0] for r in rates] == ["SyncVectorEnv", "bestiary"]
    assert all(r.steps > 0 and r.steps % 3 == 0 for r in rates)
    speedup = vector_speedup(rates)
    assert speedup is not None and "x learner steps/s" in speedup and "per CPU-second" in speedup
