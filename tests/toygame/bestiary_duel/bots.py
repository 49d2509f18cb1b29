"""Duel's bots, registered when the game's info (``bots``) has this module imported."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from bestiary.core.agent import register_bot
from bestiary_duel import Swap


@register_bot("duel", "duel-keeper", "Keeps a 6 or more, swaps anything lower.", rank=1)
class Keeper:
    """Keeps a card of 6 or more, swaps anything lower: decides from its own card only."""

    def __init__(self, player: str, rng: random.Random) -> None:
        self.player = player
        self.rng = rng

    def act(self, view: Mapping[str, Any], legal: Sequence[Any]) -> Any | None:
        swap = [a for a in legal if isinstance(a, Swap)]
        if swap and int(view["card"]) < 6:
            return swap[0]
        return legal[0] if legal else None


@register_bot("duel", "random", "A random legal move.")
class Random:
    def __init__(self, player: str, rng: random.Random) -> None:
        self.player = player
        self.rng = rng

    def act(self, view: Mapping[str, Any], legal: Sequence[Any]) -> Any | None:
        return self.rng.choice(list(legal)) if legal else None
