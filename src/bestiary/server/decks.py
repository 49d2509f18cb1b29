"""The critters decks a server offers: ``default`` and the operator's deck folder, by name.

A client never names a path: the folder is read once when the server starts, and a request's
``deck`` is either one of those names or a deck's content (``{"kinds", "wild", "actions"}``,
validated like a deck file by the game's own ``deck_from_spec``). The engine is always handed
content, never a string, so nothing a client sends reaches the disk.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

import orjson

from bestiary.core.errors import BadOption
from bestiary.critters.cards import ACTION_CARDS, DEFAULT_DECK, WILD, Deck, deck_from_spec
from bestiary.critters.cards import load_deck_file as read_operator_deck

log = logging.getLogger("bestiary.server")

DEFAULT = "default"
DECK_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")
DECK_SUFFIXES = (".toml", ".json")
MAX_DECK_BYTES = 2048  # a deck's content in a request, as compact JSON
MAX_DECK_CARDS = 500  # dealing and viewing stay cheap


def deck_content(deck: Deck) -> dict[str, Any]:
    """A deck as a deck file's content: ``{"kinds": {...}, "wild": n, "actions": {...}}``."""
    counts = dict(deck.counts)
    return {
        "kinds": {kind: counts[kind] for kind in deck.kinds},
        "wild": counts[WILD],
        "actions": {name: counts[name] for name in ACTION_CARDS if counts[name]},
    }


class DeckShelf:
    """The decks on offer by name, read once; ``resolve`` turns a request's deck into content."""

    def __init__(self, folder: Path | None = None) -> None:
        self.decks: dict[str, dict[str, Any]] = {DEFAULT: deck_content(DEFAULT_DECK)}
        if folder is None:
            return
        for path in sorted(folder.iterdir()):
            if path.suffix not in DECK_SUFFIXES or path.stem == DEFAULT:
                continue
            if not DECK_NAME.match(path.stem) or path.stem in self.decks:
                log.warning("deck %s skipped: name it a-z, 0-9, _ or -, once", path)
                continue
            try:
                self.decks[path.stem] = self._checked(read_operator_deck(path), path.stem)
            except BadOption as err:
                log.warning("deck %s skipped: %s", path, err)
        log.info("decks offered: %s", ", ".join(self.decks))

    def names(self) -> list[str]:
        return list(self.decks)

    def resolve(self, value: object) -> dict[str, Any] | None:
        """The deck content for the engine (None for the default); BadOption otherwise."""
        if isinstance(value, str):
            if value == DEFAULT:
                return None
            if value in self.decks:
                return self.decks[value]
            shown = value if len(value) <= 40 else value[:40] + "..."
            raise BadOption(
                f"there is no deck called {shown!r} on this server (decks: {', '.join(self.decks)})"
            )
        if isinstance(value, dict):
            try:
                size = len(orjson.dumps(value))
            except orjson.JSONEncodeError:
                raise BadOption("a deck's counts must be whole numbers from 0 to 1000") from None
            if size > MAX_DECK_BYTES:
                raise BadOption(f"a deck's content must be at most {MAX_DECK_BYTES} bytes of JSON")
            return self._checked(deck_from_spec(value, "the deck"), "the deck")
        raise BadOption(
            "option deck must be a deck's name (GET /api/decks) or a deck's content "
            "(kinds, wild, actions)"
        )

    @staticmethod
    def _checked(deck: Deck, where: str) -> dict[str, Any]:
        if deck.size > MAX_DECK_CARDS:
            raise BadOption(f"{where} has {deck.size} cards; at most {MAX_DECK_CARDS} are allowed")
        return deck_content(deck)
