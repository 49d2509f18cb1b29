"""The observation space every encoded face shares: the encoding's vector and the action mask,
and the PettingZoo envs' one space object per agent (``SpacePerAgent``).

>>> space = dict_space(3, np.ones(3, dtype=np.float32), 2)
>>> sorted(space)
['action_mask', 'observation']
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
from gymnasium import spaces


def dict_space(size: int, high: np.ndarray, actions: int) -> spaces.Dict:
    """``{"observation": float32 Box(0, high), "action_mask": int8 Box(0, 1)}``."""
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, high, shape=(size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(actions,), dtype=np.int8),
        }
    )


class SpacePerAgent:
    """``observation_space(agent)`` and ``action_space(agent)``: the env's two spaces, the
    same object for an agent at every call, as PettingZoo requires (listed before its env)."""

    _obs_space: spaces.Space[Any]
    _act_space: spaces.Space[Any]

    @functools.cache  # noqa: B019 (one space object per agent, as required)
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    @functools.cache  # noqa: B019
    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space
