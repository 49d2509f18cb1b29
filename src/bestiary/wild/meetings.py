"""Resolved meetings: the public history of the game, and how to say one in words."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bestiary.core.values import by_fields
from bestiary.wild.cards import EATING_VERBS, SOUNDS

MATE, EAT, AVOID = "mate", "eat", "avoid"


@dataclass(frozen=True, slots=True)
class Meeting:
    """One resolved meeting. ``first`` asked first, ``second`` agreed."""

    first: str
    second: str
    call: str
    first_card: str
    second_card: str
    outcome: str
    eater: str | None

    @property
    def players(self) -> tuple[str, str]:
        return (self.first, self.second)

    def card_of(self, player: str) -> str:
        return self.first_card if player == self.first else self.second_card

    def partner_of(self, player: str) -> str:
        return self.second if player == self.first else self.first

    def to_dict(self) -> dict[str, Any]:
        """The meeting as docs/records.md's ``meetings`` entry."""
        return {
            "players": [self.first, self.second],
            "call": self.call,
            "cards": {self.first: self.first_card, self.second: self.second_card},
            "outcome": self.outcome,
            "eater": self.eater,
        }


def describe_meeting(meeting: Meeting) -> str:
    """The meeting in words, e.g. for narration and logs.

    >>> describe_meeting(Meeting("ann", "bob", "skeevil", "megalotaur", "skeevil", "eat", "bob"))
    "skeevil infests megalotaur: bob eats ann's card"
    >>> describe_meeting(Meeting("ann", "bob", "snerlep", "snerlep", "snerlep", "mate", None))
    "two snerleps answer 'SNIK-SNIK!' and mate: ann and bob swap cards into their Dens"
    """
    a, b = meeting.first_card, meeting.second_card
    p, q = meeting.first, meeting.second
    if meeting.outcome == MATE:
        return f"two {a}s answer {SOUNDS[a]!r} and mate: {p} and {q} swap cards into their Dens"
    if meeting.outcome == EAT:
        if meeting.eater == p:
            return f"{a} {EATING_VERBS[a]} {b}: {p} eats {q}'s card"
        return f"{b} {EATING_VERBS[b]} {a}: {q} eats {p}'s card"
    if a == b:
        return (
            f"two {a}s meet on {SOUNDS[meeting.call]!r}, both hunting: they avoid each other "
            "and both cards go face-up to the Watering Hole"
        )
    return (
        f"{a} and {b} are too far apart on the food chain: they avoid each other "
        "and both cards go face-up to the Watering Hole"
    )


# Copied and pickled by their fields (bestiary.core.values: compiled classes need it).
by_fields(Meeting)
