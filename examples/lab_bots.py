"""A designer's own bot for the balance lab: ``bestiary sim critters --bots lab_bots:Builder``.

A bot factory is called as ``factory(player, rng)`` and returns an object with ``player`` and
``act(view, legal)``: the seat's view and its legal actions; it returns one of them (or None to
wait, in a real-time game). Run from this folder, or put it on ``PYTHONPATH``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

# Moves that build the bot's own sets, best first (critters' event words, docs/records.md).
BUILDING = ("set", "complete", "down")


class Builder:
    """Builds its own sets whenever it can; otherwise plays any legal move at random."""

    def __init__(self, player: str, rng: random.Random) -> None:
        self.player = player
        self.rng = rng

    def act(self, view: Mapping[str, Any], legal: Sequence[Any]) -> Any | None:
        if not legal:
            return None
        for word in BUILDING:
            building = [a for a in legal if a.to_event()["do"] == word]
            if building:
                return self.rng.choice(building)
        return self.rng.choice(list(legal))
