"""Every option a game was played with, so a figure can be traced to its rules.

A record's header holds the options the rules resolved (critters' ``hand_limit`` default is 5,
or 4 with six or more players), but not every option: a deck is dealt, not named, and
``first`` sits beside the options. Here every option the game declares gets a value: the
header's, else the one asked for, else the declared default. A deck option becomes its name
(``default``, a deck file's stem, or ``content``) and ``deck_hash``, the first 16 hex digits
of the SHA-256 of its content as compact, key-sorted JSON; ``deck_content`` gives the content
itself (a run writes it once, not once per game).
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bestiary.core.game import get_game


def every_option(game: str, asked: Mapping[str, Any], header: Mapping[str, Any]) -> dict[str, Any]:
    """Each declared option of ``game`` as played (``header`` is the record's header)."""
    info = get_game(game).info
    resolved = header.get("options", {})
    values: dict[str, Any] = {}
    for spec in info.options:
        if spec.kind == "deck":
            name, digest = _deck_id(game, json.dumps(asked.get(spec.name), sort_keys=True))
            values[spec.name] = name
            values[f"{spec.name}_hash"] = digest
        elif spec.name in resolved:
            values[spec.name] = resolved[spec.name]
        elif spec.name in header:
            values[spec.name] = header[spec.name]
        else:
            values[spec.name] = asked.get(spec.name, spec.default)
    return values


def deck_content(game: str, value: Any) -> dict[str, Any] | None:
    """The content of the deck an option names (None for a game without decks)."""
    book = get_game(game).info.decks
    if book is None:
        return None
    if value is None:
        return book.default()
    if isinstance(value, str):
        return book.from_file(Path(value))
    return book.from_content(value)


def deck_hash(content: Mapping[str, Any]) -> str:
    """The first 16 hex digits of the SHA-256 of ``content`` as compact, key-sorted JSON."""
    text = json.dumps(content, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def deck_name(value: Any) -> str:
    """``default``, a deck file's stem, or ``content`` for a deck given inline."""
    if value is None:
        return "default"
    return Path(value).stem if isinstance(value, str) else "content"


@functools.lru_cache(maxsize=64)
def _deck_id(game: str, value_json: str) -> tuple[str, str]:
    """(name, hash) of a deck option (cached: every game of an arm asks the same)."""
    value = json.loads(value_json)
    content = deck_content(game, value)
    return deck_name(value), "" if content is None else deck_hash(content)


def decks_of(game: str, options: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """``{hash: content}`` of the decks an arm's options name (empty for a game without)."""
    info = get_game(game).info
    found: dict[str, dict[str, Any]] = {}
    for spec in info.options:
        if spec.kind == "deck":
            content = deck_content(game, options.get(spec.name))
            if content is not None:
                found[deck_hash(content)] = {
                    "name": deck_name(options.get(spec.name)),
                    "content": content,
                }
    return found
