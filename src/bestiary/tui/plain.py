"""Text from a file someone sent you, made safe for a terminal: control characters shown escaped.

A player's name in a record is whatever its writer put there. Printed as it is, an escape
sequence in it would clear the screen, retitle the window or plant a hyperlink; shown escaped
(``\\x1b``), the reader sees what the file holds and the terminal obeys nothing.
"""

from __future__ import annotations

import re
from typing import Any

from bestiary.core.records import Event, Header

# C0, DEL and C1: every character a terminal may act on rather than show.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")


def _escape(match: re.Match[str]) -> str:
    return f"\\x{ord(match.group()):02x}"


def escaped(text: str) -> str:
    """``text`` with each control character written as ``\\xNN``.

    >>> escaped("eve\\x1b[2J")
    'eve\\\\x1b[2J'
    """
    return _CONTROL.sub(_escape, text)


def json_escaped(text: str) -> str:
    """JSON text with DEL and C1 written as ``\\u00NN`` (JSON escapes C0 itself); still the
    same JSON, since those characters can stand only inside its strings."""
    return _CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _shown(obj: Any) -> Any:
    if isinstance(obj, str):
        return escaped(obj)
    if isinstance(obj, list):
        return [_shown(item) for item in obj]
    if isinstance(obj, dict):
        return {escaped(key): _shown(value) for key, value in obj.items()}
    return obj


def record_for_terminal(
    header: Header, events: list[tuple[int, Event]]
) -> tuple[Header, list[tuple[int, Event]]]:
    """The record with every text escaped: the same game (names stay distinct, cards hold no
    control characters), only what reaches the screen differs. ValueError if two names differ
    only where one holds a control character and the other its written escape."""
    shown_header = _shown(header)
    players = shown_header.get("players")
    if isinstance(players, list) and len(set(map(str, players))) != len(players):
        raise ValueError("two player names differ only by control characters")
    return shown_header, [(line, _shown(event)) for line, event in events]
