"""Wild actions: small frozen values whose ``to_event()`` is exactly a RECORDS.md event line.

>>> Meet("ann", "bob").to_event()
{'by': 'ann', 'do': 'meet', 'with': 'bob'}
>>> Call("ann", "skeevil", "megalotaur")
Call(by='ann', card='skeevil', call='megalotaur')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bestiary.core.errors import IllegalAction
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


def _text(event: dict[str, Any], key: str, what: str) -> str:
    value = event.get(key)
    if not isinstance(value, str) or not value:
        raise IllegalAction(f"a {what} event needs {key!r} as a non-empty string")
    return value


def _creature(event: dict[str, Any], key: str, what: str) -> str:
    value = _text(event, key, what)
    if value not in CREATURE_INDEX:
        raise IllegalAction(
            f"{value!r} is not a creature "
            "(use megalotaur, snerlep, fizzalisk, wiffaloon or skeevil)"
        )
    return value


def action_from_event(event: Any) -> WildAction:
    """Parse one record event; IllegalAction with a reason if it is malformed.

    >>> action_from_event({"by": "ann", "do": "discard", "card": "snerlep", "t": 3.5})
    Discard(by='ann', card='snerlep')
    """
    if not isinstance(event, dict):
        raise IllegalAction("an event must be a JSON object")
    do = event.get("do")
    if do == "nightfall":
        return Nightfall()
    if not isinstance(do, str):
        raise IllegalAction("an event needs 'do' naming the action")
    if do not in _BUILDERS:
        raise IllegalAction(f"{do!r} is not a wild action ({', '.join(sorted(_ALL_DOS))})")
    by = _text(event, "by", do)
    return _BUILDERS[do](by, event)


_BUILDERS: dict[str, Callable[[str, dict[str, Any]], WildAction]] = {
    "draw": lambda by, e: Draw(by),
    "call": lambda by, e: Call(by, _creature(e, "card", "call"), _creature(e, "call", "call")),
    "withdraw": lambda by, e: Withdraw(by),
    "discard": lambda by, e: Discard(by, _creature(e, "card", "discard")),
    "meet": lambda by, e: Meet(by, _text(e, "with", "meet")),
    "reveal_own": lambda by, e: RevealOwn(by),
}
_ALL_DOS = (*_BUILDERS, "nightfall")
