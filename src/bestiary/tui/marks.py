"""How players look on screen: a seat letter beside every colour.

Colour is a help, never the only sign: a terminal without colour (or a colour-blind player)
reads the shapes and letters. Each game's cards get their marks in its board module.

>>> player_mark(["ann", "bob"], "bob")
'B:bob'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rich.text import Text

PLAYER_COLOURS: Final = ("bright_blue", "bright_red", "bright_green", "yellow", "magenta", "cyan")


def player_mark(players: Sequence[str], player: str) -> str:
    """A player's seat letter and name (A for the first seat, B for the second, ...)."""
    seat = players.index(player)
    return f"{chr(ord('A') + seat)}:{player}"


def player_text(players: Sequence[str], player: str) -> Text:
    seat = players.index(player)
    return Text(player_mark(players, player), style=f"bold {PLAYER_COLOURS[seat % 6]}")
