"""The critters deck book: how a deck option is read from a file or from content.

Front ends never parse a critters deck themselves: the server's deck shelf and any other
driver ask the game's ``GameInfo.decks`` (this book), so a new game with decks brings its own.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bestiary.core.errors import BadOption
from bestiary.critters.cards import (
    DEFAULT_DECK,
    NO,
    WILD,
    Deck,
    deck_from_spec,
    load_deck_file,
)

MAX_DECK_CARDS = 500  # dealing and viewing stay cheap


def deck_content(deck: Deck) -> dict[str, Any]:
    """A deck as a deck file's content: ``{"kinds": {...}, "wild": n, "actions": {...}}``,
    and ``"cards": {...}`` defining the deck's own action cards if it has any."""
    counts = dict(deck.counts)
    names = [NO, *(card.name for card in deck.actions)]
    content: dict[str, Any] = {
        "kinds": {kind: counts[kind] for kind in deck.kinds},
        "wild": counts[WILD],
        "actions": {name: counts[name] for name in names if counts[name]},
    }
    if deck.own_cards:
        content["cards"] = {card.name: card.spec() for card in deck.own_cards}
    return content


def _capped(deck: Deck, where: str) -> dict[str, Any]:
    if deck.size > MAX_DECK_CARDS:
        raise BadOption(f"{where} has {deck.size} cards; at most {MAX_DECK_CARDS} are allowed")
    return deck_content(deck)


class CrittersDecks:
    """``GameInfo.decks`` for critters: the default deck, deck files, deck content."""

    def default(self) -> dict[str, Any]:
        return deck_content(DEFAULT_DECK)

    def from_file(self, path: Path) -> dict[str, Any]:
        """An operator's deck file (TOML or JSON) as content; BadOption if it is no deck."""
        return _capped(load_deck_file(path), path.stem)

    def from_content(self, value: object) -> dict[str, Any]:
        """A deck given as content, checked exactly like a deck file; BadOption if not."""
        return _capped(deck_from_spec(value, "the deck"), "the deck")


DECKS = CrittersDecks()
