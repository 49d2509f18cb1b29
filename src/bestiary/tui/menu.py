"""Your legal critters moves as a short menu: a few groups, each opening onto its moves.

Built only from ``legal_actions``, so no entry is one the engine would refuse. Labels are
read off each action's record event (docs/records.md), the engines' fixed interface.

>>> class Act:
...     def __init__(self, event): self.event = event
...     def to_event(self): return self.event
>>> moves = [Act({"by": "a", "do": "pass"}), Act({"by": "a", "do": "down", "card": "fox"})]
>>> groups = group_moves(moves)
>>> [(g.title, [m.label for m in g.moves]) for g in groups]
[('Put a card down', ['fox']), ('Pass', ['pass'])]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bestiary.critters.cards import WILD

# Group order: the everyday moves first, the answers to an action (when asked) on their own.
GROUPS: tuple[tuple[str, str], ...] = (
    ("no", "Say NO!"),
    ("allow", "Allow it"),
    ("set", "Play a full set"),
    ("complete", "Complete a set"),
    ("down", "Put a card down"),
    ("swap_wild", "Swap a wild out of a full set"),
    ("hop_over", "Hop Over (take a Down Card)"),
    ("game_changer", "Game Changer (swap Down Cards)"),
    ("ultimate_collector", "Ultimate Collector (steal a full set)"),
    ("pass", "Pass"),
    ("discard", "Discard (hand too big, no other move)"),
)
_TITLES = dict(GROUPS)
_ORDER = {do: i for i, (do, _) in enumerate(GROUPS)}


@dataclass(frozen=True)
class Move:
    """One menu entry: a legal action and how it reads."""

    label: str
    action: Any


@dataclass
class MoveGroup:
    """A group of moves of one kind (all the Hop Overs, all the Pass...)."""

    do: str
    title: str
    moves: list[Move] = field(default_factory=list)


def move_label(event: dict[str, Any]) -> str:
    """The words for one move inside its group."""
    do = event.get("do")
    cards = " ".join(event.get("cards", []))
    if do == "down":
        return f"wild as {event['as']}" if event.get("card") == WILD else str(event["card"])
    if do == "set":
        return f"{event['kind']}: {cards}"
    if do == "complete":
        return f"{event['kind']} set + {cards}"
    if do == "swap_wild":
        return f"{event['kind']} in for the wild; the wild goes to {event['to']}"
    if do == "discard":
        return str(event["card"])
    if do == "no":
        return "NO! (play your NO! card)"
    # an action card, the sheet's or a deck's own: by the choice it makes on cards
    if "full" in event:  # protect_set: one of your own sets
        which = "full" if event["full"] else "incomplete"
        on = f" (on {event['target']})" if "target" in event else ""
        return f"protect your {which} {event['kind']} set{on}"
    if "give" in event:
        give, take = event["give"], event["take"]
        return (
            f"your {give['card']} ({give['kind']} set) for {event['target']}'s "
            f"{take['card']} ({take['kind']} set)"
        )
    if "card" in event and "target" in event:
        return f"{event['target']}'s {event['card']} (from their {event['kind']} set)"
    if "kind" in event and "target" in event:
        return f"{event['target']}'s full {event['kind']} set"
    if "target" in event:
        return f"on {event['target']}"
    return str(do)


def group_moves(
    actions: Iterable[Any], cards: Mapping[str, Mapping[str, Any]] | None = None
) -> list[MoveGroup]:
    """Legal actions grouped by kind of move, groups in a fixed order, moves in engine order;
    a deck's own card (``cards``: a view's) is a group titled by its name and description."""
    groups: dict[str, MoveGroup] = {}
    own = cards or {}
    for action in actions:
        event = action.to_event()
        do = str(event.get("do"))
        title = _TITLES.get(do) or (
            f"{own[do]['title']} ({own[do]['description'].rstrip('.')})" if do in own else do
        )
        group = groups.setdefault(do, MoveGroup(do, title))
        group.moves.append(Move(move_label(event), action))
    return sorted(groups.values(), key=lambda g: _ORDER.get(g.do, len(_ORDER)))
