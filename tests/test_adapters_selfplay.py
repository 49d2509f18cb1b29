"""Opponents in the Gym envs: bot names, Agents, callables and policy snapshots (self-play)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from bestiary.adapters import gym_envs
from bestiary.adapters.policies import snapshot


def _episode(env: Any, seed: int) -> None:
    observation, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while True:
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            return


class FirstLegal:
    """An Agent: plays the first legal action (waits in wild when there is none)."""

    def __init__(self) -> None:
        self.player = "anyone"
        self.calls = 0

    def act(self, view: Mapping[str, Any], legal: Sequence[Any]) -> Any | None:
        self.calls += 1
        return legal[0] if legal else None


@pytest.mark.parametrize("make", [gym_envs.CrittersEnv, gym_envs.WildEnv])
def test_agent_and_callable_opponents_play_their_seats(make: Any) -> None:
    agent = FirstLegal()
    seen: list[int] = []

    def last_legal(observation: dict[str, np.ndarray]) -> int:
        seen.append(int(observation["action_mask"].sum()))
        return int(np.flatnonzero(observation["action_mask"])[-1])

    env = make(players=3, opponents=[agent, last_legal], options={})
    _episode(env, seed=5)
    state = env.game_state if make is gym_envs.CrittersEnv else env.table.state
    assert agent.calls > 0 and seen and min(seen) >= 1
    moved = {e.get("by") for e in state.events()}
    assert {"player_1", "player_2"} <= moved


def test_a_policy_snapshot_plays_self_play_through_sb3() -> None:
    sb3 = pytest.importorskip("sb3_contrib")
    torch = pytest.importorskip("torch")
    env = gym_envs.CrittersEnv(players=2, opponents="random")
    model = sb3.MaskablePPO(
        "MultiInputPolicy", env, n_steps=64, batch_size=32, seed=0, device="cpu"
    )
    model.learn(64)
    frozen = snapshot(model)
    env.set_opponents(frozen)
    before = [p.detach().clone() for p in model.policy.parameters()]
    model.learn(128, reset_num_timesteps=False)
    # The learner kept learning against its frozen self ...
    assert any(
        not torch.equal(a, b) for a, b in zip(before, model.policy.parameters(), strict=True)
    )
    opponent = env._opponents["player_1"]
    assert getattr(opponent, "policy", None) is frozen
    # ... and the opponent's moves are the snapshot's (its own legal actions, its own view).
    assert any(e.get("by") == "player_1" for e in env.game_state.events())
