"""How cards and players look on screen: a shape or letter beside every colour.

Colour is a help, never the only sign: a terminal without colour (or a colour-blind player)
reads the shapes and letters.

>>> creature_mark("skeevil")
'■ skeevil'
>>> player_mark(["ann", "bob"], "bob")
'B:bob'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rich.text import Text

from bestiary.critters.cards import WILD

CREATURE_SHAPES: Final = {
    "megalotaur": "▲",
    "snerlep": "~",
    "fizzalisk": "✦",
    "wiffaloon": "●",
    "skeevil": "■",
}
CREATURE_COLOURS: Final = {
    "megalotaur": "red",
    "snerlep": "green",
    "fizzalisk": "yellow",
    "wiffaloon": "cyan",
    "skeevil": "magenta",
}
PLAYER_COLOURS: Final = ("bright_blue", "bright_red", "bright_green", "yellow", "magenta", "cyan")

# Critters: kinds get their first letters; wilds and action cards get a shape.
CRITTER_SPECIAL: Final = {
    WILD: "★",
    "no": "✋",
    "hop_over": "↷",
    "game_changer": "⇄",
    "ultimate_collector": "⚑",
}
CRITTER_CARD_NAMES: Final = {
    WILD: WILD,  # the card's own name
    "no": "NO!",
    "hop_over": "Hop Over",
    "game_changer": "Game Changer",
    "ultimate_collector": "Ultimate Collector",
}


def creature_mark(creature: str) -> str:
    """A creature with its shape, readable without colour."""
    return f"{CREATURE_SHAPES.get(creature, '?')} {creature}"


def creature_text(creature: str) -> Text:
    """A creature with its shape, in its colour."""
    return Text(creature_mark(creature), style=CREATURE_COLOURS.get(creature, ""))


def player_mark(players: Sequence[str], player: str) -> str:
    """A player's seat letter and name (A for the first seat, B for the second, ...)."""
    seat = players.index(player)
    return f"{chr(ord('A') + seat)}:{player}"


def player_text(players: Sequence[str], player: str) -> Text:
    seat = players.index(player)
    return Text(player_mark(players, player), style=f"bold {PLAYER_COLOURS[seat % 6]}")


def critter_card(card: str) -> str:
    """A critter card's short name with its shape (action cards by their card names)."""
    if card in CRITTER_SPECIAL:
        return f"{CRITTER_SPECIAL[card]} {CRITTER_CARD_NAMES[card]}"
    return card
