"""Game options given on a command line as ``key=value`` (values read as JSON when they parse)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from bestiary.core.errors import BadOption


def parse_options(pairs: Iterable[str]) -> dict[str, Any]:
    """Parse ``key=value`` strings; ``true``, ``3`` and ``"x"`` are JSON, anything else a string.

    >>> parse_options(["mating_bonus=true", "set_size=4", "deck=my.toml"])
    {'mating_bonus': True, 'set_size': 4, 'deck': 'my.toml'}
    """
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key:
            raise BadOption(f"option {pair!r} should look like key=value")
        try:
            options[key] = json.loads(raw)
        except json.JSONDecodeError:
            options[key] = raw
    return options
