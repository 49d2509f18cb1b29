"""PettingZoo conformance of ``critters_v0`` and ``wild_v0``, and their documented behaviour."""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pettingzoo = pytest.importorskip("pettingzoo")

from pettingzoo.test import (  # noqa: E402
    api_test,
    parallel_api_test,
    parallel_seed_test,
    render_test,
    seed_test,
)

from bestiary.adapters import critters_v0, wild_v0  # noqa: E402
from bestiary.core.errors import BadOption  # noqa: E402
from bestiary.core.game import replay  # noqa: E402
from bestiary.critters.state import determinize  # noqa: E402
from bestiary.wild.info import VARIANTS as WILD_VARIANTS  # noqa: E402


@pytest.fixture(autouse=True)
def _quiet_advice() -> Any:
    # api_test advises Box observations; the classic card envs use a Dict with a mask, as we do.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


@pytest.mark.parametrize("players", [2, 4])
def test_critters_passes_api_test(players: int) -> None:
    api_test(critters_v0.env(players=players), num_cycles=300)


def test_critters_passes_api_test_with_sets_of_four() -> None:
    api_test(critters_v0.env(players=3, options={"set_size": 4}), num_cycles=300)


@pytest.mark.parametrize("players", [2, 5])
def test_critters_passes_seed_test(players: int) -> None:
    seed_test(lambda: critters_v0.env(players=players), num_cycles=200)


@pytest.mark.parametrize("players", [2, 3, 6])
def test_wild_passes_parallel_api_test(players: int) -> None:
    parallel_api_test(wild_v0.parallel_env(players=players), num_cycles=400)


def test_the_small_wild_variant_passes_the_api_tests() -> None:
    small = WILD_VARIANTS["small"]
    parallel_api_test(wild_v0.parallel_env(players=2, options=small), num_cycles=400)
    api_test(wild_v0.env(players=2, options=small), num_cycles=300)


def test_wild_passes_parallel_seed_test() -> None:
    parallel_seed_test(lambda: wild_v0.parallel_env(players=4), num_cycles=200)


def test_wild_as_aec_passes_api_and_seed_tests() -> None:
    api_test(wild_v0.env(players=3), num_cycles=300)
    seed_test(lambda: wild_v0.env(players=2), num_cycles=200)


def test_both_are_registered_with_pettingzoo() -> None:
    import bestiary.adapters.pettingzoo_envs  # noqa: F401

    aec = pettingzoo.make("aec", "bestiary/critters_v0", players=3)
    aec.reset(seed=1)
    assert aec.unwrapped.metadata["name"] == "critters_v0"
    par = pettingzoo.make("parallel", "bestiary/wild_v0", players=2)
    observations, _ = par.reset(seed=1)
    assert sorted(observations) == ["player_0", "player_1"]
    assert pettingzoo.make("aec", "bestiary/wild_v0", players=2) is not None


def test_critters_mask_is_zero_for_agents_not_on_turn() -> None:
    env = critters_v0.raw_env(players=4)
    env.reset(seed=11)
    rng = np.random.default_rng(0)
    for _ in range(40):
        to_act = env.agent_selection
        state = env.game_state
        for agent in env.agents:
            mask = env.observe(agent)["action_mask"]
            if agent == to_act:
                legal = {env.encoding.action_id(a) for a in state.legal_actions(agent)}
                assert set(np.flatnonzero(mask)) == legal and legal
            else:
                assert not mask.any()
        mask = env.observe(to_act)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
        if env.terminations[env.agent_selection]:
            break


def test_critters_same_seed_same_game_and_options_reach_the_engine() -> None:
    a = critters_v0.raw_env(players=2, options={"sets_to_win": 4})
    b = critters_v0.raw_env(players=2, options={"sets_to_win": 4})
    a.reset(seed=5)
    b.reset(seed=5)
    assert a.game_state.header() == b.game_state.header()
    assert a.game_state.sets_to_win == 4
    a.reset(seed=6)
    assert a.game_state.header()["deck"] != b.game_state.header()["deck"]


def test_critters_rewards_winners_plus_one_others_minus_one() -> None:
    env = critters_v0.raw_env(players=3)
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(20_000):
        observation, reward, terminated, truncated, _ = env.last()
        returns[agent] += float(reward)
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    winners = env.game_state.winners()
    assert winners
    assert returns == {a: (1.0 if a in winners else -1.0) for a in env.possible_agents}


def test_critters_illegal_move_ends_the_game_at_minus_one() -> None:
    env = critters_v0.env(players=2)
    env.reset(seed=3)
    observation, *_ = env.last()
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(illegal)
    assert all(env.terminations.values())
    assert env.rewards[env.possible_agents[0]] == -1


def test_wild_return_is_the_final_score_and_winners_are_reported() -> None:
    env = wild_v0.parallel_env(players=3)
    observations, _ = env.reset(seed=9)
    rng = np.random.default_rng(9)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    infos: dict[str, dict[str, Any]] = {}
    while env.agents:
        actions = {
            a: int(rng.choice(np.flatnonzero(observations[a]["action_mask"]))) for a in env.agents
        }
        observations, rewards, _, _, infos = env.step(actions)
        for a, r in rewards.items():
            returns[a] += r
    state = env.table.state
    assert state.is_over
    assert returns == {a: float(s) for a, s in state.scores().items()}
    bits = [int(p in state.winners()) for p in state.players]
    assert all(info["winners"].tolist() == bits for info in infos.values())


def test_wild_masked_out_action_is_skipped_as_a_wait() -> None:
    env = wild_v0.parallel_env(players=2)
    observations, _ = env.reset(seed=4)
    mask = observations["player_0"]["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = env.table.state.summary()
    _, _, _, _, infos = env.step({"player_0": illegal, "player_1": 0})
    assert infos["player_0"]["skipped"] == 1
    assert "not legal" in infos["player_0"]["skip_reason"]
    assert infos["player_1"]["skipped"] == 0 and infos["player_1"]["skip_reason"] == ""
    assert env.table.state.summary() == before


def test_wild_nightfall_after_the_quiet_budget() -> None:
    env = wild_v0.parallel_env(players=2, quiet_ticks=3)
    env.reset(seed=1)
    for _ in range(3):
        _, _, terminations, _, _ = env.step({"player_0": 0, "player_1": 0})
    assert all(terminations.values())
    assert env.table.state.events()[-1] == {"do": "nightfall"}
    assert env.agents == []


def test_wild_truncates_at_max_cycles() -> None:
    env = wild_v0.parallel_env(players=2, max_cycles=2)
    env.reset(seed=1)
    env.step({"player_0": 0, "player_1": 0})
    _, _, terminations, truncations, _ = env.step({"player_0": 0, "player_1": 0})
    assert all(truncations.values()) and not any(terminations.values())


def test_reset_options_pass_game_options_through() -> None:
    env = wild_v0.parallel_env(players=2)
    env.reset(seed=1, options={"game_options": {"mating_bonus": True}})
    assert env.table.state.deal.options["mating_bonus"] is True
    env.reset(seed=1, options={"unrelated": 1})
    assert env.table.state.deal.options["mating_bonus"] is False


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: critters_v0.env(players=1), "critters takes 2 to 8 players, not 1"),
        (lambda: wild_v0.parallel_env(players=9), "wild takes 2 to 6 players, not 9"),
        (lambda: critters_v0.env(options={"colour": "red"}), "colour"),
        (lambda: wild_v0.parallel_env(render_mode="rgb_array"), "render_mode 'rgb_array'"),
    ],
)
def test_bad_settings_are_refused_in_one_sentence(make: Any, message: str) -> None:
    with pytest.raises(BadOption, match=message):
        make()


def test_objectives_cannot_be_switched_at_reset() -> None:
    env = wild_v0.parallel_env(players=2)
    with pytest.raises(BadOption, match="objectives"):
        env.reset(options={"game_options": {"objectives": True}})


@settings(max_examples=15, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 10_000), steps=st.integers(0, 120))
def test_critters_observation_unchanged_when_hidden_cards_are_redealt(
    players: int, seed: int, steps: int
) -> None:
    env = critters_v0.raw_env(players=players)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if env.terminations[env.agent_selection]:
            break
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    real = env.game_state
    for agent in env.possible_agents:
        seen = env.observe(agent)
        env._state = determinize(real.view(agent), agent, random.Random(seed))
        redealt = env.observe(agent)
        env._state = real
        assert np.array_equal(seen["observation"], redealt["observation"])
        assert np.array_equal(seen["action_mask"], redealt["action_mask"])


@settings(max_examples=10, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 10_000))
def test_critters_episode_record_replays_to_the_same_table(players: int, seed: int) -> None:
    env = critters_v0.raw_env(players=players)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _agent in env.agent_iter(20_000):
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    state = env.game_state
    assert state.is_over
    again = replay(state.header(), list(enumerate(state.events(), start=2)))
    assert again.summary() == state.summary()


def test_envs_pickle_by_their_settings() -> None:
    import pickle

    env = pickle.loads(pickle.dumps(critters_v0.raw_env(players=3, options={"set_size": 4})))
    env.reset(seed=1)
    assert env.game_state.set_size == 4 and len(env.possible_agents) == 3
    par = pickle.loads(pickle.dumps(wild_v0.parallel_env(players=5, quiet_ticks=7)))
    assert len(par.possible_agents) == 5 and par.quiet_ticks == 7


@pytest.mark.parametrize("make", [critters_v0.raw_env, wild_v0.parallel_env])
def test_ansi_render_describes_the_table(make: Any) -> None:
    env = make(players=2, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert "player_0" in text and "player_1" in text
    assert make(players=2).render() is None


@pytest.mark.parametrize("make", [critters_v0.env, wild_v0.env])
def test_render_modes_pass_render_test(make: Any, capsys: pytest.CaptureFixture[str]) -> None:
    render_test(make)  # every mode in the metadata, "human" included
    assert "player_1" in capsys.readouterr().out  # human printed the public table
