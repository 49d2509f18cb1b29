"""bestiary's own Objective deck (the sheet names none). Each check reads the game's record alone.

A fulfilled Objective scores its points at the end, unless its holder has more than
``MAX_FACE_DOWN_FOR_OBJECTIVE`` of their own cards face-down at the Watering Hole.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bestiary.core.values import by_fields
from bestiary.wild.cards import CREATURES
from bestiary.wild.meetings import AVOID, EAT, MATE, Meeting

MAX_FACE_DOWN_FOR_OBJECTIVE = 2


@dataclass(frozen=True, slots=True)
class Chronicle:
    """What one player did, as the record shows it: everything an Objective may look at."""

    player: str
    players: tuple[str, ...]
    meetings: Sequence[Meeting]
    den: Sequence[tuple[str, str]]  # (creature, owner)
    ended_by: Sequence[str]
    calls: Sequence[tuple[str, str]]  # (card, call) for each of the player's Calls

    def own_meetings(self) -> list[Meeting]:
        return [m for m in self.meetings if self.player in (m.first, m.second)]

    def mates(self) -> list[Meeting]:
        return [m for m in self.own_meetings() if m.outcome == MATE]

    def eats(self) -> list[Meeting]:
        return [m for m in self.own_meetings() if m.eater == self.player]


@dataclass(frozen=True, slots=True)
class Objective:
    id: str
    title: str
    points: int
    check: Callable[[Chronicle], bool]


def _double_crossed(c: Chronicle) -> bool:
    # Two steps clockwise from the card the player offered.
    return any(
        CREATURES[(CREATURES.index(m.card_of(c.player)) + 2) % 5] == m.call for m in c.eats()
    )


def _ate(creature: str) -> Callable[[Chronicle], bool]:
    return lambda c: any(m.card_of(m.partner_of(c.player)) == creature for m in c.eats())


def _never_hunted(c: Chronicle) -> bool:
    return bool(c.own_meetings()) and all(card == call for card, call in c.calls)


def _never_eaten(c: Chronicle) -> bool:
    met = c.own_meetings()
    return len(met) >= 2 and all(m.outcome != EAT or m.eater == c.player for m in met)


def _met_everyone(c: Chronicle) -> bool:
    partners = {m.partner_of(c.player) for m in c.own_meetings()}
    return partners == set(c.players) - {c.player}


def _last_meeting_eaten(c: Chronicle) -> bool:
    return bool(c.meetings) and c.meetings[-1].eater == c.player


OBJECTIVES: tuple[Objective, ...] = (
    Objective(
        "three_partners",
        "Mate with three different players",
        3,
        lambda c: len({m.partner_of(c.player) for m in c.mates()}) >= 3,
    ),
    Objective("eat_megalotaur", "Eat a megalotaur", 2, _ate("megalotaur")),
    Objective("eat_skeevil", "Eat a skeevil", 1, _ate("skeevil")),
    Objective("bring_sundown", "End the game: bring Sundown", 2, lambda c: c.player in c.ended_by),
    Objective(
        "full_menagerie",
        "Have all five creatures in your Den",
        3,
        lambda c: {creature for creature, _ in c.den} == set(CREATURES),
    ),
    Objective(
        "double_cross",
        "Double-cross someone: eat while your Call was two steps clockwise from your card",
        2,
        _double_crossed,
    ),
    Objective(
        "never_hunt",
        "Meet at least once and never make a Call other than your card's own",
        1,
        _never_hunted,
    ),
    Objective("mate_twice", "Mate at least twice", 1, lambda c: len(c.mates()) >= 2),
    Objective("three_kills", "Eat three times", 2, lambda c: len(c.eats()) >= 3),
    Objective("big_den", "Have at least six cards in your Den", 2, lambda c: len(c.den) >= 6),
    Objective(
        "peacemaker",
        "Be in two meetings that end in avoiding",
        1,
        lambda c: sum(m.outcome == AVOID for m in c.own_meetings()) >= 2,
    ),
    Objective(
        "untouchable",
        "Meet at least twice and never have your card eaten",
        2,
        _never_eaten,
    ),
    Objective("well_travelled", "Meet every other player at least once", 2, _met_everyone),
    Objective("last_laugh", "Eat in the last meeting of the game", 2, _last_meeting_eaten),
)

OBJECTIVE_BY_ID: dict[str, Objective] = {o.id: o for o in OBJECTIVES}
OBJECTIVE_IDS: tuple[str, ...] = tuple(o.id for o in OBJECTIVES)


# Copied and pickled by their fields (bestiary.core.values: compiled classes need it).
by_fields(Chronicle, Objective)
