"""The decks a server offers, by name: each game's ``default`` and the operator's deck folder.

A client never names a path: the folder is read once when the server starts, and a request's
``deck`` is either one of those names or a deck's content, read by the game's own deck book
(``GameInfo.decks``). The engine is always handed content, never a string, so nothing a client
sends reaches the disk. The server knows no game's deck format.
"""

from __future__ import annotations

import logging
import os
import re
import stat
from pathlib import Path
from typing import Any

import orjson

from bestiary.core.errors import BadOption
from bestiary.core.game import games
from bestiary.core.info import GameInfo

log = logging.getLogger("bestiary.server")

DEFAULT = "default"
DECK_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")
DECK_SUFFIXES = (".toml", ".json")
MAX_DECK_BYTES = 2048  # a deck's content in a request, as compact JSON
MAX_DECK_FILE_BYTES = 64 * 1024  # a deck file in the operator's folder (comments and all)


class DeckShelf:
    """The decks on offer per game by name, read once; ``resolve`` turns a request's deck into
    content for that game."""

    def __init__(self, folder: Path | None = None) -> None:
        self.decks: dict[str, dict[str, dict[str, Any]]] = {}
        for rules in games():
            book = rules.info.decks
            if book is None:
                continue
            shelf = self.decks[rules.info.name] = {DEFAULT: book.default()}
            for path in sorted(folder.iterdir()) if folder is not None else ():
                if path.suffix not in DECK_SUFFIXES or path.stem == DEFAULT:
                    continue
                if not DECK_NAME.match(path.stem) or path.stem in shelf:
                    log.warning("deck %s skipped: name it a-z, 0-9, _ or -, once", path)
                    continue
                unfit = _unfit(path)
                if unfit:
                    log.warning("deck %s skipped: %s", path, unfit)
                    continue
                try:
                    shelf[path.stem] = book.from_file(path)
                except (BadOption, ValueError, RecursionError) as err:
                    # ValueError: an integer past Python's digit limit; RecursionError: nesting
                    log.warning("deck %s skipped for %s: %s", path, rules.info.name, _said(err))
            log.info("decks offered for %s: %s", rules.info.name, ", ".join(shelf))

    def listing(self) -> list[dict[str, Any]]:
        """Every deck on offer: its game, its name and its content."""
        return [
            {"game": game, "name": name, "deck": deck}
            for game, shelf in self.decks.items()
            for name, deck in shelf.items()
        ]

    def resolve(self, info: GameInfo, value: object) -> dict[str, Any] | None:
        """The deck content for the engine (None for the default); BadOption otherwise."""
        book, shelf = info.decks, self.decks.get(info.name, {})
        if book is None:
            raise BadOption(f"{info.name} has no decks")
        if isinstance(value, str):
            if value == DEFAULT:
                return None
            if value in shelf:
                return shelf[value]
            shown = value if len(value) <= 40 else value[:40] + "..."
            raise BadOption(
                f"there is no deck called {shown!r} on this server (decks: {', '.join(shelf)})"
            )
        if isinstance(value, dict):
            try:
                size = len(orjson.dumps(value))
            except orjson.JSONEncodeError:
                raise BadOption("a deck's counts must be whole numbers from 0 to 1000") from None
            if size > MAX_DECK_BYTES:
                raise BadOption(f"a deck's content must be at most {MAX_DECK_BYTES} bytes of JSON")
            return book.from_content(value)
        raise BadOption("option deck must be a deck's name (GET /api/decks) or a deck's content")


def _unfit(path: Path) -> str:
    """Why a deck file is not read at all ("" if it may be): only a regular file of at most
    MAX_DECK_FILE_BYTES (a FIFO would wait for a writer forever, /dev/zero never ends).
    Opened without waiting and looked at through that open file, so what is looked at is what
    the link or name pointed to at that moment."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as err:
        return f"cannot open it ({err.strerror})"
    try:
        info = os.fstat(fd)
    finally:
        os.close(fd)
    if not stat.S_ISREG(info.st_mode):
        return "not a regular file"
    if info.st_size > MAX_DECK_FILE_BYTES:
        return f"larger than {MAX_DECK_FILE_BYTES} bytes"
    return ""


def _said(err: BaseException) -> str:
    if isinstance(err, RecursionError):
        return "nested too deeply"
    text = str(err)
    return text if len(text) <= 200 else text[:197] + "..."
