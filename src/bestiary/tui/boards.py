"""Each game's widget set at the terminal, in one table keyed by the game's ``info.name``.

The terminal drives every game the same way (``LiveTable`` on the core ``Match``), but how a
game looks (its table, its words, its keys) is the game's own; this table is the one place in
``bestiary.tui`` that says which widgets draw which game, and nothing else in the terminal code
names a game. A game with no entry is still replayed and narrated with the plain board (its
events and views as they are); only playing it at the keyboard needs an app of its own.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rich.console import Group, RenderableType
from rich.pretty import Pretty
from rich.text import Text

from bestiary.core.errors import BadOption
from bestiary.core.game import Game, State
from bestiary.core.records import Event
from bestiary.tui.critters_table import critters_table
from bestiary.tui.wild_table import wild_table
from bestiary.tui.words import LogLine, critters_line, wild_line

View = Mapping[str, Any]
# (event as the viewer may see it, viewer, the state just after it, whether it made progress)
Words = Callable[[Event, str | None, State, bool], LogLine]
Table = Callable[[View, View | None], RenderableType]


@dataclass(frozen=True)
class Board:
    """How one game is drawn: its words, its table (``reveal``: the omniscient summary) and
    its play app (``module:Class``, imported only when a game starts: Textual is heavy; None:
    the game cannot be played at the keyboard yet)."""

    words: Words
    table: Table
    app: str | None = None

    def app_class(self) -> Any:
        if self.app is None:
            raise BadOption("this game has no terminal app yet")
        module, name = self.app.split(":")
        return getattr(importlib.import_module(module), name)


def plain_words(event: Event, viewer: str | None, after: State, progressed: bool) -> LogLine:
    """Any game's event as it is: who, what, and the rest of its fields.

    >>> plain_words({"by": "ann", "do": "swap", "card": 3}, "bo", None, False).text
    'ann: swap (card 3)'
    """
    rest = ", ".join(f"{k} {v}" for k, v in event.items() if k not in ("by", "do"))
    text = f"{event.get('by', 'the table')}: {event.get('do', '?')}" + (
        f" ({rest})" if rest else ""
    )
    return LogLine(
        text, viewer is not None and viewer in event.values() and event.get("by") != viewer
    )


def plain_table(view: View, reveal: View | None = None) -> RenderableType:
    """Any game's view as it is (and, in the omniscient mode, its summary)."""
    parts: list[RenderableType] = [Pretty(dict(view))]
    if reveal is not None:
        parts += [Text("Everything:", style="bold"), Pretty(dict(reveal))]
    return Group(*parts)


PLAIN = Board(plain_words, plain_table)


BOARDS: dict[str, Board] = {
    "wild": Board(wild_line, wild_table, "bestiary.tui.wild_app:WildApp"),
    "critters": Board(critters_line, critters_table, "bestiary.tui.critters_app:CrittersApp"),
}


def board_of(game: Game) -> Board:
    """The terminal widgets for ``game`` (the plain board for a game with none of its own)."""
    return BOARDS.get(game.info.name, PLAIN)
