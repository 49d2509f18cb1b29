"""The critter card vocabulary, the default deck (docs/rulings.md) and deck files.

A deck is a multiset of cards: critter kinds (each a lower-case name), ``wild``, ``no`` and
action cards, the sheet's or the deck's own (defined in the vocabulary of
``bestiary.critters.effects``, docs/cards.md). A deck file (TOML or JSON) looks like::

    kinds = { fox = 6, owl = 6, frog = 6 }
    wild = 6
    actions = { no = 6, hop_over = 5, game_changer = 5, ultimate_collector = 3, sneak = 2 }

    [cards.sneak]
    description = "Take a Down Card from an opponent's incomplete set, then draw a card."
    effects = ["choose_target", "take_down", "draw 1", "answerable_by_no"]
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from bestiary.core.errors import BadOption
from bestiary.core.values import by_fields
from bestiary.critters.effects import SHEET_CARDS, ActionCard, card_from_spec

# Final: the compiled core reads them as constants, not as module globals looked up per use.
WILD: Final = "wild"
NO: Final = "no"
HOP_OVER: Final = "hop_over"
GAME_CHANGER: Final = "game_changer"
ULTIMATE_COLLECTOR: Final = "ultimate_collector"
ACTION_CARDS: Final = (NO, HOP_OVER, GAME_CHANGER, ULTIMATE_COLLECTOR)
NON_CRITTERS: Final = frozenset((WILD, *ACTION_CARDS))
# A deck's own card may not take a name the records already give a meaning (an event's "do").
RESERVED: Final = frozenset(
    (
        *NON_CRITTERS,
        "down",
        "set",
        "complete",
        "allow",
        "swap_wild",
        "pass",
        "discard",
        "reshuffle",
        "random_card",
    )
)

DEFAULT_KINDS: Final = (
    "fox",
    "owl",
    "frog",
    "hedgehog",
    "otter",
    "rabbit",
    "raccoon",
    "squirrel",
    "turtle",
)

# the form of a critter kind's or a deck's own action card's name
NAME_PATTERN = re.compile(r"^[a-z][a-z0-9_]{0,31}$")


@dataclass(frozen=True, slots=True)
class Deck:
    """A deck's composition: how many of each card (kinds in the order the deck names them)."""

    kinds: tuple[str, ...]
    counts: tuple[tuple[str, int], ...]
    # the action cards it may hold, each defined by its effects: the sheet's, then its own
    actions: tuple[ActionCard, ...] = SHEET_CARDS

    @property
    def own_cards(self) -> tuple[ActionCard, ...]:
        """The cards this deck defines beyond the sheet's (a record's header carries them)."""
        return self.actions[len(SHEET_CARDS) :]

    def action_card(self, name: str) -> ActionCard | None:
        for card in self.actions:
            if card.name == name:
                return card
        return None

    @property
    def size(self) -> int:
        return sum(n for _, n in self.counts)

    def cards(self) -> list[str]:
        """Every card once per copy, kinds first, then wild and the action cards."""
        return [card for card, n in self.counts for _ in range(n)]

    def count_of(self) -> dict[str, int]:
        return dict(self.counts)

    def most_full_kinds(self, set_size: int) -> int:
        """The most different kinds one player could ever hold full sets of at once: each
        needs a critter of its kind and wilds for the cards its kind lacks, so the kinds that
        lack the fewest are filled first, while the deck's wilds last."""
        counts = self.count_of()
        lacking = sorted(max(0, set_size - counts[kind]) for kind in self.kinds if counts[kind])
        wilds, kinds = counts[WILD], 0
        for short in lacking:
            if short > wilds:
                break
            wilds -= short
            kinds += 1
        return kinds


def make_deck(
    kinds: Mapping[str, int],
    wild: int,
    actions: Mapping[str, int],
    where: str = "the deck",
    own: tuple[ActionCard, ...] = (),
) -> Deck:
    """Validate names and counts and build a Deck; BadOption (one sentence) if they are wrong.

    ``own`` are the deck's own action cards (already checked as definitions), counted in
    ``actions`` after the sheet's."""
    if not kinds:
        raise BadOption(f"{where} names no critter kinds")
    for kind, n in kinds.items():
        if not isinstance(kind, str) or not NAME_PATTERN.match(kind) or kind in NON_CRITTERS:
            raise BadOption(f"{where} has a bad critter kind name {kind!r}")
        _check_count(n, f"{where}: the count of {kind}")
    _check_count(wild, f"{where}: the count of wild")
    names = (*ACTION_CARDS, *(card.name for card in own))
    for card in own:
        if card.name in RESERVED or card.name in kinds or not NAME_PATTERN.match(card.name):
            raise BadOption(f"{where} cannot name a card {card.name!r}: the name is taken")
        if card.name not in actions:
            raise BadOption(f"{where} defines card {card.name!r} but gives it no count in actions")
    for name, n in actions.items():
        if name not in names:
            raise BadOption(
                f"{where} has an unknown action card {name!r} (known: {', '.join(names)}; "
                "a new card needs its [cards.NAME] definition)"
            )
        _check_count(n, f"{where}: the count of {name}")
    counts = [(k, int(n)) for k, n in kinds.items()]
    counts.append((WILD, int(wild)))
    counts.extend((name, int(actions.get(name, 0))) for name in names)
    return Deck(tuple(kinds), tuple(counts), (*SHEET_CARDS, *own))


def _check_count(n: object, what: str) -> None:
    if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 1000:
        raise BadOption(f"{what} must be a whole number from 0 to 1000, not {n!r}")


DEFAULT_DECK = make_deck(
    {kind: 6 for kind in DEFAULT_KINDS},
    6,
    {NO: 6, HOP_OVER: 5, GAME_CHANGER: 5, ULTIMATE_COLLECTOR: 3},
)


def deck_from_spec(spec: object, where: str = "the deck file", text: str = "") -> Deck:
    """A Deck from a parsed deck file (``kinds``, ``wild``, ``actions``, ``cards``); ``text``
    is the file's, so that a bad card definition is refused naming its line."""
    if not isinstance(spec, dict):
        raise BadOption(f"{where} must hold an object with kinds, wild and actions")
    unknown = set(spec) - {"kinds", "wild", "actions", "cards"}
    if unknown:
        raise BadOption(f"{where} has unknown keys: {', '.join(sorted(map(str, unknown)))}")
    kinds: Any = spec.get("kinds")
    actions: Any = spec.get("actions", {})
    if not isinstance(kinds, dict):
        raise BadOption(f"{where} needs a 'kinds' table of critter kind = count")
    if not isinstance(actions, dict):
        raise BadOption(f"{where}: 'actions' must be a table of action card = count")
    own = cards_from_spec(spec.get("cards", {}), where, text)
    return make_deck(kinds, spec.get("wild", 0), actions, where, own)


def cards_from_spec(cards: object, where: str, text: str = "") -> tuple[ActionCard, ...]:
    """A deck's own card definitions (a ``cards`` table of name = definition)."""
    if not isinstance(cards, dict):
        raise BadOption(f"{where}: 'cards' must be a table of card name = definition")
    return tuple(
        card_from_spec(str(name), spec, _line_of(where, text, str(name)))
        for name, spec in cards.items()
    )


def _line_of(where: str, text: str, name: str) -> str:
    """``where`` and the line that opens card ``name``'s definition (TOML or JSON), if found."""
    pattern = re.compile(
        rf"^\s*(\[\s*cards\s*\.\s*\"?{re.escape(name)}\"?\s*\]|\"?{re.escape(name)}\"?\s*[=:]\s*\{{)"
    )
    for number, line in enumerate(text.splitlines(), 1):
        if pattern.match(line):
            return f"{where} line {number}"
    return where


def load_deck_file(path: str | Path) -> Deck:
    """Read a TOML (``.toml``) or JSON deck file."""
    where = f"deck file {path}"
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise BadOption(f"cannot read {where} ({err})") from None
    try:
        spec: object = tomllib.loads(text) if str(path).endswith(".toml") else json.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as err:
        raise BadOption(f"{where} is not valid TOML/JSON ({err})") from None
    except RecursionError:
        raise BadOption(f"{where} is nested too deeply") from None
    except ValueError:  # an integer past sys.get_int_max_str_digits()
        raise BadOption(f"{where} holds a number with too many digits") from None
    return deck_from_spec(spec, where, text)


def deck_from_option(value: object) -> Deck:
    """The deck an option names: a deck file's path, or a deck's content given inline.

    Content is a deck file's object (``kinds``, ``wild``, ``actions``), an object of
    card: count, or a list of cards.
    """
    where = "option deck"
    if isinstance(value, str):
        return load_deck_file(value)
    if isinstance(value, list):
        return deck_of_cards(value, where)
    if not isinstance(value, Mapping):
        raise BadOption(f"{where} must name a deck file or give a deck's content")
    if "kinds" in value:
        return deck_from_spec(dict(value), where)
    kinds = {k: n for k, n in value.items() if k not in NON_CRITTERS}
    actions = {k: n for k, n in value.items() if k in ACTION_CARDS}
    return make_deck(kinds, value.get(WILD, 0), actions, where)


def deck_of_cards(
    cards: object, where: str = "the header's deck", own: tuple[ActionCard, ...] = ()
) -> Deck:
    """The composition of an explicit deck list (kinds in a fixed order, whatever the shuffle);
    ``own`` are the deck's own action cards (the header's ``cards``)."""
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise BadOption(f"{where} must be a list of card names")
    kinds: dict[str, int] = {}
    others: dict[str, int] = {card.name: 0 for card in own}
    for card in cards:
        if card in NON_CRITTERS or card in others:
            others[card] = others.get(card, 0) + 1
        else:
            kinds[card] = kinds.get(card, 0) + 1
    wild = others.pop(WILD, 0)
    if kinds and all(kind in DEFAULT_KINDS for kind in kinds):
        # A short deck of default critters is still the default game: a wild may be declared
        # as any of the nine kinds, even one whose cards are not in this deck.
        kinds = {kind: kinds.get(kind, 0) for kind in DEFAULT_KINDS}
    order = sorted(kinds, key=_kind_order)
    return make_deck({k: kinds[k] for k in order}, wild, others, where, own)


def _kind_order(kind: str) -> tuple[int, str]:
    """Default kinds in the sheet's order, others after them by name (stable for any shuffle)."""
    return (DEFAULT_KINDS.index(kind) if kind in DEFAULT_KINDS else len(DEFAULT_KINDS), kind)


# Copied and pickled by their fields (bestiary.core.values: compiled classes need it).
by_fields(Deck)
