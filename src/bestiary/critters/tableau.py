"""A player's Down Cards: their sets in a row, oldest first, and how moves find a set in it.

A tableau is a list of ``(kind, cards)`` tuples; a set is full when it holds exactly
``set_size`` cards (all-wild full sets are never made). Plain functions of a tableau, so the
state, the legal-move generator and the refusals share one reading of the row.

>>> row = [("fox", ("fox", "fox", "fox")), ("fox", ("fox", "wild", "fox")), ("owl", ("wild",))]
>>> incomplete(row, "owl", 3), incomplete(row, "fox", 3)
(2, -1)
>>> swappable(row, "fox", 3)  # the older fox set holds no wild: the newer one is taken
1
>>> kinds_full(row, 3)
1
"""

from __future__ import annotations

from collections.abc import Sequence

from bestiary.critters.cards import WILD

CardSet = tuple[str, tuple[str, ...]]
"""One set in front of a player: its kind and its cards (wilds are declared as the kind)."""


def incomplete(tableau: Sequence[CardSet], kind: str, size: int) -> int:
    """The index of the (one) incomplete ``kind`` set, or -1."""
    for i, (k, cards) in enumerate(tableau):
        if k == kind and len(cards) < size:
            return i
    return -1


def swappable(tableau: Sequence[CardSet], kind: str, size: int) -> int:
    """The index of the full ``kind`` set ``swap_wild`` takes, or -1 if none holds a wild.

    docs/rulings.md: with two full sets of a kind, ``swap_wild`` takes the older of those that hold
    a wild (a full set without a wild has nothing to swap).
    """
    for i, (k, cards) in enumerate(tableau):
        if k == kind and len(cards) == size and WILD in cards:
            return i
    return -1


def has_full(tableau: Sequence[CardSet], kind: str, size: int) -> bool:
    return any(k == kind and len(cards) == size for k, cards in tableau)


def kinds_full(tableau: Sequence[CardSet], size: int) -> int:
    """How many different kinds the player holds a full set of (what winning counts)."""
    kinds: list[str] = []  # a few at most: cheaper than a set, checked after every move
    for kind, cards in tableau:
        if len(cards) == size and kind not in kinds:
            kinds.append(kind)
    return len(kinds)


def fills_with_wilds(cards: tuple[str, ...] | None, last: int) -> bool:
    """Would one more wild make this incomplete set an all-wild full set?"""
    return cards is not None and len(cards) == last and all(c == WILD for c in cards)
