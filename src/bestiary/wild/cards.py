"""The card vocabulary of Call of the Wild: five creatures, their food chain and their Calls.

Creatures are numbered in food-chain order; each eats the next one, the last eats the first.

>>> CREATURES[eaten_by_index(0)]
'snerlep'
>>> relation("skeevil", "megalotaur")
'eats'
>>> relation("megalotaur", "fizzalisk")
'apart'
"""

from __future__ import annotations

from typing import Final

CREATURES: Final = ("megalotaur", "snerlep", "fizzalisk", "wiffaloon", "skeevil")
CREATURE_INDEX: Final = {name: i for i, name in enumerate(CREATURES)}

# bestiary's own sounds: short, distinct, pronounceable (the sheet only says each has one).
SOUNDS: Final = {
    "megalotaur": "HROOM!",
    "snerlep": "SNIK-SNIK!",
    "fizzalisk": "FZZZT!",
    "wiffaloon": "WOOO-FA!",
    "skeevil": "KEE-KEE!",
}

# How each creature eats the next one, for narration ("skeevil infests megalotaur").
EATING_VERBS: Final = {
    "megalotaur": "tramples",
    "snerlep": "swallows",
    "fizzalisk": "zaps",
    "wiffaloon": "gobbles",
    "skeevil": "infests",
}

PACK_SIZE: Final = 10
COPIES_PER_PACK: Final = 2


def fresh_pack(creatures: int = 5, copies: int = COPIES_PER_PACK) -> tuple[str, ...]:
    """The unshuffled Pack a seed shuffles: the first ``creatures`` of the food chain,
    ``copies`` times (the sheet's: all five, twice; smaller Packs are options).

    >>> fresh_pack(3, 1)
    ('megalotaur', 'snerlep', 'fizzalisk')
    """
    return CREATURES[:creatures] * copies


FRESH_PACK: Final = fresh_pack()


def eaten_by_index(creature: int) -> int:
    """The creature that ``creature`` eats (one step clockwise)."""
    return (creature + 1) % 5


SAME: Final = "same"
EATS: Final = "eats"
EATEN: Final = "eaten"
APART: Final = "apart"
# by how many steps clockwise b stands from a on the food chain
_BY_STEP: Final = (SAME, EATS, APART, APART, EATEN)


def relation(a: str, b: str) -> str:
    """How creature ``a`` stands to ``b``: ``same``, ``eats``, ``eaten`` or ``apart``."""
    return relation_at(CREATURE_INDEX[a], CREATURE_INDEX[b])


def relation_at(a: int, b: int) -> str:
    """``relation`` of creatures by their places on the food chain."""
    return _BY_STEP[(b - a) % 5]
