"""Wild actions: small frozen values whose ``to_event()`` is exactly a docs/records.md event line.

>>> Meet("ann", "bob").to_event()
{'by': 'ann', 'do': 'meet', 'with': 'bob'}
>>> Call("ann", "skeevil", "megalotaur")
Call(by='ann', card='skeevil', call='megalotaur')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bestiary.core.errors import MalformedEvent
from bestiary.core.records import Event, parse_event
from bestiary.core.values import by_fields
from bestiary.wild.cards import CREATURE_INDEX


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw the top card of your Pack."""

    by: str

    def to_event(self) -> dict[str, Any]:
        return {"by": self.by, "do": "draw"}


@dataclass(frozen=True, slots=True)
class Call:
    """Offer ``card`` face-down from your hand and make the Call of ``call``."""

    by: str
    card: str
    call: str

    def to_event(self) -> dict[str, Any]:
        return {"by": self.by, "do": "call", "card": self.card, "call": self.call}


@dataclass(frozen=True, slots=True)
class Withdraw:
    """Take your offer back into your hand."""

    by: str

    def to_event(self) -> dict[str, Any]:
        return {"by": self.by, "do": "withdraw"}


@dataclass(frozen=True, slots=True)
class Discard:
    """Put a card from your hand face-down at the Watering Hole."""

    by: str
    card: str

    def to_event(self) -> dict[str, Any]:
        return {"by": self.by, "do": "discard", "card": self.card}


@dataclass(frozen=True, slots=True)
class Meet:
    """Ask ``with_`` to meet; if they already asked you, you meet now."""

    by: str
    with_: str

    def to_event(self) -> dict[str, Any]:
        return {"by": self.by, "do": "meet", "with": self.with_}


@dataclass(frozen=True, slots=True)
class RevealOwn:
    """Flip your own offer: it goes face-down to the Watering Hole."""

    by: str

    def to_event(self) -> dict[str, Any]:
        return {"by": self.by, "do": "reveal_own"}


@dataclass(frozen=True, slots=True)
class Nightfall:
    """The table ends the game (live play and simulation only)."""

    def to_event(self) -> dict[str, Any]:
        return {"do": "nightfall"}


WildAction = Draw | Call | Withdraw | Discard | Meet | RevealOwn | Nightfall


def action_from_event(event: Any) -> WildAction:
    """Parse one record event; MalformedEvent naming what is wrong if it is not an action.

    Parsing checks the event's shape (and that cards are creatures); whether the rules allow
    the action is ``apply``'s to say (IllegalAction).

    >>> action_from_event({"by": "ann", "do": "discard", "card": "snerlep", "t": 3.5})
    Discard(by='ann', card='snerlep')
    """
    return parse_event(event, _PARSERS, "wild")


_PARSERS: dict[str, Callable[[Event], WildAction]] = {
    "draw": lambda e: Draw(_text(e, "by")),
    "call": lambda e: Call(_text(e, "by"), _creature(e, "card"), _creature(e, "call")),
    "withdraw": lambda e: Withdraw(_text(e, "by")),
    "discard": lambda e: Discard(_text(e, "by"), _creature(e, "card")),
    "meet": lambda e: Meet(_text(e, "by"), _text(e, "with")),
    "reveal_own": lambda e: RevealOwn(_text(e, "by")),
    "nightfall": lambda e: Nightfall(),
}


def _text(event: Event, key: str) -> str:
    value = event.get(key)
    if not isinstance(value, str) or not value:
        raise MalformedEvent(f"a {event.get('do')} event needs {key!r} as a non-empty string")
    return value


def _creature(event: Event, key: str) -> str:
    value = _text(event, key)
    if value not in CREATURE_INDEX:
        raise MalformedEvent(
            f"{value!r} is not a creature "
            "(use megalotaur, snerlep, fizzalisk, wiffaloon or skeevil)"
        )
    return value


# Copied and pickled by their fields (bestiary.core.values: compiled classes need it).
by_fields(Draw, Call, Withdraw, Discard, Meet, RevealOwn, Nightfall)
