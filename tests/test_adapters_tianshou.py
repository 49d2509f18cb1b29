"""Tianshou's PettingZoo wrapper collects critters games, shared wins included, into a buffer.

Replay buffers allocate one array per info key from the first step: an info whose shape
varies (a list of winners, two names on a shared win) used to make ``VectorReplayBuffer.add``
raise a shape mismatch. The winners are a fixed bit vector now (``bestiary.adapters.infos``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("tianshou")
pytest.importorskip("pettingzoo")

from tianshou.algorithm.multiagent.marl import MultiAgentPolicy
from tianshou.algorithm.random import (
    MARLRandomDiscreteMaskedOffPolicyAlgorithm as RandomAlgorithm,
)
from tianshou.data import Collector, VectorReplayBuffer
from tianshou.env import DummyVectorEnv, PettingZooEnv

from bestiary.adapters import critters_v0

STEPS = 10_000


def _table() -> PettingZooEnv:
    return PettingZooEnv(critters_v0.env(players=2))


def test_tianshou_collects_10000_random_steps_with_shared_wins() -> None:
    np.random.seed(2)  # Tianshou's random policy draws from NumPy's global generator
    envs = DummyVectorEnv([_table for _ in range(4)])
    envs.seed([20, 21, 22, 23])
    probe = _table()
    policy = MultiAgentPolicy({a: RandomAlgorithm.Policy(probe.action_space) for a in probe.agents})
    buffer = VectorReplayBuffer(STEPS, 4)
    collector: Collector[Any] = Collector(policy, envs, buffer)
    collector.reset()
    stats = collector.collect(n_step=STEPS)
    assert len(buffer) == STEPS
    assert stats.n_collected_episodes > 100
    winners = buffer.info.winners[: len(buffer)]
    assert winners.shape == (STEPS, 2) and winners.dtype == np.int8
    finals = buffer.done[: len(buffer)]
    # Every finished game names at least one winner; some of them are shared wins.
    assert (winners[finals].sum(axis=1) >= 1).all()
    assert (winners.sum(axis=1) == 2).any()
    assert not winners[~finals].any()
