"""Bring your model to the table: wrapped policies play whole games through the sim runner."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from bestiary.adapters import gym_envs
from bestiary.adapters.policies import (
    PolicyAgent,
    as_policy,
    policy_agent,
    policy_factory,
)
from bestiary.core import agent as agent_module
from bestiary.core.agent import register_bot
from bestiary.core.errors import BadOption, IllegalAction
from bestiary.critters import GAME as CRITTERS
from bestiary.sim.runner import GameSpec, play_game
from bestiary.wild import GAME as WILD


@pytest.fixture(autouse=True)
def _forget_test_bots() -> Iterator[None]:
    """The bots registered here leave the registry after each test (others list it)."""
    agent_module.bot_entries("critters")  # the built-in bots register on first use
    before = set(agent_module._BOTS)
    yield
    for key in set(agent_module._BOTS) - before:
        del agent_module._BOTS[key]


def _sim(game: str, policy: Any, name: str, players: int) -> Any:
    """One whole game of ``bestiary sim``'s runner with the policy in seat 1."""
    register_bot(game, name, "a wrapped policy (test)", rank=-1)(policy_factory(policy, game))
    bots = (name, *["random"] * (players - 1))
    result = play_game(GameSpec(0, game, bots, seed=7, keep_record=True))
    assert result.ended in ("won", "exhausted", "sundown", "nightfall", "out_of_cards")
    assert result.record is not None
    return result


def test_a_torch_module_plays_whole_sim_games_of_both() -> None:
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    calls = {"n": 0}

    class Net(torch.nn.Module):  # type: ignore[misc,name-defined]
        def __init__(self, inputs: int, actions: int) -> None:
            super().__init__()
            self.layer = torch.nn.Linear(inputs, actions)

        def forward(self, x: Any) -> Any:
            calls["n"] += 1
            return self.layer(x)

    critters = gym_envs.CrittersEnv(players=2)
    net = Net(critters.encoding.obs_size, critters.encoding.size)
    result = _sim("critters", net, "torch-critters", 2)
    assert calls["n"] > 0
    assert any('"by":"p1"' in line for line in result.record[1:])
    wild = gym_envs.WildEnv(players=3)
    calls["n"] = 0
    _sim("wild", Net(wild.encoding.obs_size, wild.encoding.size), "torch-wild", 3)
    assert calls["n"] > 0


def test_an_sb3_model_plays_a_whole_sim_game() -> None:
    sb3 = pytest.importorskip("sb3_contrib")
    env = gym_envs.CrittersEnv(players=2)
    model = sb3.MaskablePPO("MultiInputPolicy", env, n_steps=32, batch_size=32, seed=1)
    model.learn(32)
    result = _sim("critters", model, "sb3-critters", 2)
    assert any('"by":"p1"' in line for line in result.record[1:])


def test_a_policy_sees_only_its_own_view_and_mask() -> None:
    seen: list[dict[str, np.ndarray]] = []

    def first_legal(observation: dict[str, np.ndarray]) -> int:
        seen.append(observation)
        return int(np.flatnonzero(observation["action_mask"])[0])

    _sim("critters", first_legal, "first-legal", 2)
    assert seen and all(o["action_mask"].any() for o in seen)
    assert set(seen[0]) == {"observation", "action_mask"}


def test_an_illegal_choice_is_one_sentence_and_no_substitute() -> None:
    agent = policy_agent(lambda observation: 10_000, "critters", "p1")
    state = CRITTERS.new_game(["p1", "p2"], {}, seed=1)
    with pytest.raises(IllegalAction, match="chose action 10000, not legal"):
        agent.act(state.view("p1"), state.legal_actions("p1"))
    wild = WILD.new_game(["p1", "p2"], {}, seed=1)
    waiting = policy_agent(lambda observation: 10_000, "wild", "p1")
    assert waiting.act(wild.view("p1"), wild.legal_actions("p1")) is None  # a wait


def test_anything_else_is_refused_in_one_sentence() -> None:
    assert as_policy(42) is None and as_policy("random") is None
    with pytest.raises(BadOption, match="a int is not a policy"):
        policy_factory(42, "critters")
    with pytest.raises(BadOption, match="unknown game 'chess'"):
        PolicyAgent(lambda o: 0, "chess", "p1")
