"""A bot's parameters: declared with bounds and defaults, written after its name.

``reader(decay=0.5)`` is the reader bot with its ``decay`` set to 0.5; ``reader`` alone plays
at every default. Every interface that takes a bot by name takes this form (sim, tournament,
sweeps and grids, the ladder, the lab page), so how people play can be studied like any rule.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class BotParam:
    """One number a bot plays by: its default and the bounds it makes sense within."""

    name: str
    default: float
    minimum: float
    maximum: float
    description: str
    integer: bool = False

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "default": self.default,
            "minimum": self.minimum,
            "maximum": self.maximum,
            "integer": self.integer,
            "description": self.description,
        }

    def shown(self) -> str:
        """``decay=0.85 (0 to 1)``: the parameter as ``bestiary bots`` lists it."""
        return f"{self.name}={self.default:g} ({self.minimum:g} to {self.maximum:g})"


_CALL = re.compile(r"^([A-Za-z0-9_.:-]+)\((.*)\)$")


def split_bot(spec: str) -> tuple[str, dict[str, str]]:
    """(name, raw parameters) of ``name(key=value, ...)``; ValueError in one sentence.

    >>> split_bot("reader(decay=0.5, pair=2)")
    ('reader', {'decay': '0.5', 'pair': '2'})
    >>> split_bot("greedy")
    ('greedy', {})
    """
    spec = spec.strip()
    if "(" not in spec and ")" not in spec:
        return spec, {}
    match = _CALL.match(spec)
    if match is None:
        raise ValueError(f"bot {spec!r} is not written name(key=value, ...)")
    name, inside = match.groups()
    raw: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in inside.split(","))):
        key, sep, value = part.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise ValueError(f"bot {spec!r}: {part!r} is not written key=value")
        if key.strip() in raw:
            raise ValueError(f"bot {spec!r} sets {key.strip()!r} twice")
        raw[key.strip()] = value.strip()
    return name, raw


def bot_settings(name: str, raw: Mapping[str, str], params: Sequence[BotParam]) -> dict[str, float]:
    """The parameters ``raw`` sets, checked against what ``name`` declares (one sentence)."""
    declared = {p.name: p for p in params}
    settings: dict[str, float] = {}
    for key, text in raw.items():
        param = declared.get(key)
        if param is None:
            known = ", ".join(declared) or "none"
            raise ValueError(f"bot {name!r} has no parameter {key!r} (its parameters: {known})")
        try:
            value = float(text)
        except ValueError:
            raise ValueError(f"bot {name!r}: {key}={text} is not a number") from None
        if not param.minimum <= value <= param.maximum:
            raise ValueError(
                f"bot {name!r}: {key}={text} is outside {param.minimum:g} to {param.maximum:g}"
            )
        if param.integer and value != int(value):
            raise ValueError(f"bot {name!r}: {key}={text} is not a whole number")
        settings[key] = int(value) if param.integer else value
    return settings


def split_outside(text: str, sep: str = ",") -> list[str]:
    """``text`` split at each ``sep`` outside parentheses, parts stripped, empty ones dropped.

    >>> split_outside("reader(decay=0.5,pair=2), greedy")
    ['reader(decay=0.5,pair=2)', 'greedy']
    """
    parts, depth, start = [], 0, 0
    for i, char in enumerate(text):
        depth += (char == "(") - (char == ")")
        if char == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [part.strip() for part in parts if part.strip()]
