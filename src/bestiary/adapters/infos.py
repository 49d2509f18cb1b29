"""Step infos of a fixed shape, the same keys at every step of every env.

Replay buffers (Tianshou's ``VectorReplayBuffer``, SB3's) allocate one array per info key from
the first step they see and refuse a later value of another shape. So no info is a list whose
length varies (two names on a shared win) or a key that comes and goes:

- ``winners``: int8 vector, one entry per seat in seat order, 1 for each winner; all zero while
  the game goes on (and after a truncation).
- ``skipped`` (wild only): 1 if this agent's action of the step was skipped as a wait, else 0;
  ``skip_reason``: why, or ``""``.

>>> info = step_info(("ann", "bo"), winners=["ann", "bo"])
>>> info["winners"].tolist()
[1, 1]
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

import numpy as np


def winner_bits(players: Sequence[str], winners: Collection[str]) -> np.ndarray:
    """1 for each seat (in seat order) that won, 0 for the others."""
    return np.fromiter((p in winners for p in players), dtype=np.int8, count=len(players))


def step_info(players: Sequence[str], winners: Collection[str] = ()) -> dict[str, Any]:
    """The info of a turn-based step: the winners' bit vector (all zero while in play)."""
    return {"winners": winner_bits(players, winners)}


def tick_info(
    players: Sequence[str], winners: Collection[str] = (), skip_reason: str = ""
) -> dict[str, Any]:
    """The info of a tick: winners, and whether (and why) the agent's action was skipped."""
    return {
        "winners": winner_bits(players, winners),
        "skipped": int(bool(skip_reason)),
        "skip_reason": skip_reason,
    }
