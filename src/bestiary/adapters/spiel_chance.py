"""Chance as explicit OpenSpiel outcomes, the way a face declares it.

A face's chance model is three methods of its state (``spiel_face.SpielState``):
``chance_outcomes``, ``_apply_chance`` and ``_chance_string``. The generic face deals by seeds
(``generic_spiel``); a game whose chance is cards dealt from a known stock declares it card by
card, each outcome a card with probability its share of what is left: ``Shoe`` lists those
outcomes (critters' deck and reshuffles, wild's Packs and Objectives).

>>> Shoe(["ant", "bee", "cat"]).outcomes({"cat": 1, "ant": 3, "bee": 0})
[(0, 0.75), (2, 0.25)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence


class Shoe:
    """Cards dealt one at a time from a stock: an outcome is a card's index in ``cards``."""

    __slots__ = ("cards", "index")

    def __init__(self, cards: Sequence[str]) -> None:
        self.cards = tuple(cards)
        self.index = {card: i for i, card in enumerate(self.cards)}

    def outcomes(self, left: Mapping[str, int]) -> list[tuple[int, float]]:
        """Each card still in ``left`` (counts per card), by index, with its share of them."""
        total = sum(left.values())
        index = self.index
        return sorted((index[card], n / total) for card, n in left.items() if n)
