"""Critter actions: small frozen values whose ``to_event()`` is exactly an event line of
docs/records.md.

Card lists are tuples so that every action is hashable (search and RL adapters key on them).

>>> Down("ann", "wild", "fox").to_event()
{'by': 'ann', 'do': 'down', 'card': 'wild', 'as': 'fox'}
>>> action_from_event({"by": "bo", "do": "swap_wild", "kind": "owl", "to": "fox"})
SwapWild(by='bo', kind='owl', to='fox')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bestiary.core.errors import MalformedEvent
from bestiary.core.records import Event, parse_event
from bestiary.core.values import by_fields
from bestiary.critters.cards import GAME_CHANGER, HOP_OVER, NAME_PATTERN, ULTIMATE_COLLECTOR, WILD


@dataclass(frozen=True, slots=True)
class Down:
    """Put one critter card (or a wild declared ``as_`` a kind) down in front of you."""

    by: str
    card: str
    as_: str | None = None

    @property
    def kind(self) -> str:
        return self.as_ if self.card == WILD and self.as_ is not None else self.card

    def to_event(self) -> Event:
        if self.card == WILD:
            return {"by": self.by, "do": "down", "card": WILD, "as": self.as_}
        return {"by": self.by, "do": "down", "card": self.card}


@dataclass(frozen=True, slots=True)
class PlaySet:
    """Play a full set of ``kind`` from hand at once (wilds allowed, at least one critter)."""

    by: str
    kind: str
    cards: tuple[str, ...]

    def to_event(self) -> Event:
        return {"by": self.by, "do": "set", "kind": self.kind, "cards": list(self.cards)}


@dataclass(frozen=True, slots=True)
class Complete:
    """Put cards from hand on your incomplete ``kind`` set so that it becomes exactly full."""

    by: str
    kind: str
    cards: tuple[str, ...]

    def to_event(self) -> Event:
        return {"by": self.by, "do": "complete", "kind": self.kind, "cards": list(self.cards)}


# A played action card is one of five actions, by the choice its definition makes
# (bestiary.critters.effects): take_down (HopOver), swap_down (GameChanger), steal_set
# (UltimateCollector), protect_set (Protect), none (PlayCard). ``play`` names the card played,
# and is its events' "do": the sheet's card by default, a deck's own card making the same
# choice otherwise.


@dataclass(frozen=True, slots=True)
class HopOver:
    """Play ``play`` (a take_down card) to take ``card`` (the kind or ``wild``) from
    ``target``'s incomplete ``kind`` set."""

    by: str
    target: str
    kind: str
    card: str
    play: str = HOP_OVER

    def to_event(self) -> Event:
        return {
            "by": self.by,
            "do": self.play,
            "target": self.target,
            "kind": self.kind,
            "card": self.card,
        }


@dataclass(frozen=True, slots=True)
class GameChanger:
    """Play ``play`` (a swap_down card) to swap one of your Down Cards for one of ``target``'s
    (neither from a full set)."""

    by: str
    target: str
    give_kind: str
    give_card: str
    take_kind: str
    take_card: str
    play: str = GAME_CHANGER

    def to_event(self) -> Event:
        return {
            "by": self.by,
            "do": self.play,
            "target": self.target,
            "give": {"kind": self.give_kind, "card": self.give_card},
            "take": {"kind": self.take_kind, "card": self.take_card},
        }


@dataclass(frozen=True, slots=True)
class UltimateCollector:
    """Play ``play`` (a steal_set card) to steal ``target``'s (older) full ``kind`` set, whole."""

    by: str
    target: str
    kind: str
    play: str = ULTIMATE_COLLECTOR

    def to_event(self) -> Event:
        return {"by": self.by, "do": self.play, "target": self.target, "kind": self.kind}


@dataclass(frozen=True, slots=True)
class PlayCard:
    """Play ``play``, a deck's card that makes no choice on cards, on ``target`` (None if the
    card chooses none)."""

    by: str
    play: str
    target: str | None = None

    def to_event(self) -> Event:
        if self.target is None:
            return {"by": self.by, "do": self.play}
        return {"by": self.by, "do": self.play, "target": self.target}


@dataclass(frozen=True, slots=True)
class Protect:
    """Play ``play``, a deck's protect_set card, to protect your ``kind`` set (your full one if
    ``full``, else your incomplete one), on ``target`` if the card also chooses one."""

    by: str
    play: str
    kind: str
    full: bool
    target: str | None = None

    def to_event(self) -> Event:
        event: Event = {"by": self.by, "do": self.play}
        if self.target is not None:
            event["target"] = self.target
        event["kind"] = self.kind
        event["full"] = self.full
        return event


@dataclass(frozen=True, slots=True)
class RandomCard:
    """Chance: ``card``, picked at random from ``from_``'s hand, goes to ``to``'s hand (a deck's
    take_random card). Only the two of them see which card (``view.redact``)."""

    from_: str
    to: str
    card: str

    def to_event(self) -> Event:
        return {"do": RANDOM_CARD, "from": self.from_, "to": self.to, "card": self.card}


RANDOM_CARD = "random_card"  # the chance event's "do"


@dataclass(frozen=True, slots=True)
class SayNo:
    """The target's answer "It's Okay to Say NO!": the action is cancelled."""

    by: str

    def to_event(self) -> Event:
        return {"by": self.by, "do": "no"}


@dataclass(frozen=True, slots=True)
class Allow:
    """The target's answer letting the action take effect."""

    by: str

    def to_event(self) -> Event:
        return {"by": self.by, "do": "allow"}


@dataclass(frozen=True, slots=True)
class SwapWild:
    """A critter ``kind`` from hand replaces the wild in your full ``kind`` set; the wild moves
    to your ``to`` set, re-declared."""

    by: str
    kind: str
    to: str

    def to_event(self) -> Event:
        return {"by": self.by, "do": "swap_wild", "kind": self.kind, "to": self.to}


@dataclass(frozen=True, slots=True)
class Pass:
    """End the turn without playing (only with a hand at or below the limit)."""

    by: str

    def to_event(self) -> Event:
        return {"by": self.by, "do": "pass"}


@dataclass(frozen=True, slots=True)
class Discard:
    """The forced discard of a player above the hand limit who has no other legal move."""

    by: str
    card: str

    def to_event(self) -> Event:
        return {"by": self.by, "do": "discard", "card": self.card}


@dataclass(frozen=True, slots=True)
class Reshuffle:
    """Chance: the centre pile becomes the new Draw Pile in ``order`` (top first)."""

    order: tuple[str, ...]

    def to_event(self) -> Event:
        return {"do": "reshuffle", "order": list(self.order)}


CrittersAction = (
    Down
    | PlaySet
    | Complete
    | HopOver
    | GameChanger
    | UltimateCollector
    | PlayCard
    | Protect
    | SayNo
    | Allow
    | SwapWild
    | Pass
    | Discard
    | Reshuffle
    | RandomCard
)


Played = HopOver | GameChanger | UltimateCollector | PlayCard | Protect
"""An action card played (``play`` names it)."""
PLAYED = (HopOver, GameChanger, UltimateCollector, PlayCard, Protect)


def action_from_event(event: Any) -> CrittersAction:
    """Parse one record event; MalformedEvent naming what is wrong if it is not an action.

    Parsing checks the event's shape only; whether the rules allow the action is ``apply``'s
    to say (IllegalAction). An event whose ``do`` is no action of the records' is read as a
    deck's own action card, by the keys it carries (whether this deck has that card, making that
    choice, is the rules' to say too).
    """
    do = event.get("do") if isinstance(event, dict) else None
    if isinstance(do, str) and do not in _PARSERS and NAME_PATTERN.match(do):
        return _own_card(event)
    return parse_event(event, _PARSERS, "critters")


def _own_card(event: Event) -> CrittersAction:
    play, by = _text(event, "do"), _text(event, "by")
    if "give" in event or "take" in event:
        return _game_changer(event)
    if "full" in event:
        return _protect(event)
    if "card" in event:
        return HopOver(by, _text(event, "target"), _text(event, "kind"), _text(event, "card"), play)
    if "kind" in event:
        return UltimateCollector(by, _text(event, "target"), _text(event, "kind"), play)
    target = event.get("target")
    if target is not None and (not isinstance(target, str) or not target):
        raise MalformedEvent(f"the {play} event needs 'target' as a player's name")
    return PlayCard(by, play, target)


def _protect(event: Event) -> Protect:
    play, by, full = _text(event, "do"), _text(event, "by"), event.get("full")
    if not isinstance(full, bool):
        raise MalformedEvent(f"the {play} event needs 'full' as true or false (got {full!r})")
    target = event.get("target")
    if target is not None and (not isinstance(target, str) or not target):
        raise MalformedEvent(f"the {play} event needs 'target' as a player's name")
    return Protect(by, play, _text(event, "kind"), full, target)


def _down(event: Event) -> Down:
    by, card = _text(event, "by"), _text(event, "card")
    if card == WILD:
        return Down(by, WILD, _text(event, "as"))
    declared = event.get("as")
    if declared is not None and not isinstance(declared, str):
        raise MalformedEvent(f"the down event needs 'as' as text or null (got {declared!r})")
    return Down(by, card, declared)  # a critter declared "as" a kind: the rules refuse it


def _game_changer(event: Event) -> GameChanger:
    give, take = _object(event, "give"), _object(event, "take")
    return GameChanger(
        _text(event, "by"),
        _text(event, "target"),
        _text(give, "kind", "give"),
        _text(give, "card", "give"),
        _text(take, "kind", "take"),
        _text(take, "card", "take"),
        _text(event, "do"),
    )


_PARSERS: dict[str, Callable[[Event], CrittersAction]] = {
    "down": _down,
    "set": lambda e: PlaySet(_text(e, "by"), _text(e, "kind"), _cards(e, "cards")),
    "complete": lambda e: Complete(_text(e, "by"), _text(e, "kind"), _cards(e, "cards")),
    "hop_over": lambda e: HopOver(
        _text(e, "by"), _text(e, "target"), _text(e, "kind"), _text(e, "card")
    ),
    "game_changer": _game_changer,
    "ultimate_collector": lambda e: UltimateCollector(
        _text(e, "by"), _text(e, "target"), _text(e, "kind")
    ),
    "no": lambda e: SayNo(_text(e, "by")),
    "allow": lambda e: Allow(_text(e, "by")),
    "swap_wild": lambda e: SwapWild(_text(e, "by"), _text(e, "kind"), _text(e, "to")),
    "pass": lambda e: Pass(_text(e, "by")),
    "discard": lambda e: Discard(_text(e, "by"), _text(e, "card")),
    "reshuffle": lambda e: Reshuffle(_cards(e, "order")),
    RANDOM_CARD: lambda e: RandomCard(_text(e, "from"), _text(e, "to"), _text(e, "card")),
}


def _text(obj: dict[str, Any], key: str, inside: str | None = None) -> str:
    value = obj.get(key)
    if not isinstance(value, str) or not value:
        where = f"the event's {inside!r}" if inside else f"the {obj.get('do')} event"
        raise MalformedEvent(f"{where} needs a text {key!r} (got {value!r})")
    return value


def _cards(obj: dict[str, Any], key: str) -> tuple[str, ...]:
    value = obj.get(key)
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise MalformedEvent(f"the {obj.get('do')} event needs {key!r} as a list of card names")
    return tuple(value)


def _object(obj: dict[str, Any], key: str) -> dict[str, Any]:
    value = obj.get(key)
    if not isinstance(value, dict):
        raise MalformedEvent(
            f"the {obj.get('do')} event needs {key!r} as an object with kind and card"
        )
    return value


# Copied and pickled by their fields (bestiary.core.values: compiled classes need it).
by_fields(
    Down,
    PlaySet,
    Complete,
    HopOver,
    GameChanger,
    UltimateCollector,
    PlayCard,
    Protect,
    SayNo,
    Allow,
    SwapWild,
    Pass,
    Discard,
    Reshuffle,
    RandomCard,
)
