"""What both games' OpenSpiel observers share: a tensor of named pieces, and who is shown.

OpenSpiel's own Python games (kuhn_poker, liars_poker) lay an observation out as one float32
vector cut into named pieces (``observer.dict``); ``private_info`` says whose hidden cards an
observer shows.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel


def named_pieces(
    pieces: list[tuple[str, tuple[int, ...]]],
) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """One zeroed float32 tensor and a view of it per named piece, in order."""
    sizes = [int(np.prod(shape)) for _, shape in pieces]
    tensor = np.zeros(sum(sizes), dtype=np.float32)
    views: dict[str, np.ndarray] = {}
    at = 0
    for (name, shape), size in zip(pieces, sizes, strict=True):
        views[name] = tensor[at : at + size].reshape(shape)
        at += size
    return tensor, views


def shows(private: Any, seat: int, player: int) -> bool:
    """Whether an observer of ``player`` with ``private`` info shows ``seat``'s hidden cards."""
    if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
        return True
    return bool(private == pyspiel.PrivateInfoType.SINGLE_PLAYER and seat == player)
