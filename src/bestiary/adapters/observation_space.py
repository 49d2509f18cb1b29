"""The observation space every encoded face shares: the encoding's vector and the action mask.

>>> space = dict_space(3, np.ones(3, dtype=np.float32), 2)
>>> sorted(space)
['action_mask', 'observation']
"""

from __future__ import annotations

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
