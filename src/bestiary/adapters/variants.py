"""Small documented critters variants, the same from every adapter (docs/rl.md).

``tiny`` is small enough for exact game-theoretic work (OpenSpiel's CFR, CFR+, NashConv in
seconds): two players, a five-card deck (2 ``mole``, 2 ``mouse``, 1 ``wild``; no action
cards), sets of 2 cards, one full set to win, a hand limit of 1 (one card dealt to each, three
in the Draw Pile). A turn is: draw, then put a critter or the wild (declared) down, or play a
pair (a wild counts) as a full set and win. Its whole game tree, dealt card by card, has 2,386
histories; dealt at once (OpenSpiel ``deal_at_once``) the deal is one chance node of 30 orders.

>>> options = variant_options("tiny")
>>> options["set_size"], options["sets_to_win"], options["hand_limit"]
(2, 1, 1)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bestiary.core.errors import BadOption

DECKS = Path(__file__).resolve().parent / "decks"

VARIANTS: dict[str, dict[str, Any]] = {
    "tiny": {"set_size": 2, "sets_to_win": 1, "hand_limit": 1, "deck": "tiny.toml"},
}


def variant_options(name: str) -> dict[str, Any]:
    """The critters options of variant ``name`` (its deck as a file path), for any adapter."""
    variant = VARIANTS.get(name)
    if variant is None:
        raise BadOption(f"no critters variant called {name!r} (known: {', '.join(VARIANTS)})")
    return {**variant, "deck": str(DECKS / variant["deck"])}
