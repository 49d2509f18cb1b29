"""Each game's widget set at the terminal, in one table keyed by the game's ``info.name``.

The terminal drives every game the same way (``LiveTable`` on the core ``Match``), but how a
game looks (its table, its words, its keys) is the game's own; this table is the one place in
``bestiary.tui`` that says which widgets draw which game. A game with no entry here is refused
in one sentence, and nothing else in the terminal code names a game.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rich.console import RenderableType

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
    its play app (``module:Class``, imported only when a game starts: Textual is heavy)."""

    words: Words
    table: Table
    app: str

    def app_class(self) -> Any:
        module, name = self.app.split(":")
        return getattr(importlib.import_module(module), name)


BOARDS: dict[str, Board] = {
    "wild": Board(wild_line, wild_table, "bestiary.tui.wild_app:WildApp"),
    "critters": Board(critters_line, critters_table, "bestiary.tui.critters_app:CrittersApp"),
}


def board_of(game: Game) -> Board:
    """The terminal widgets for ``game``; BadOption if the terminal cannot draw it yet."""
    board = BOARDS.get(game.info.name)
    if board is None:
        raise BadOption(f"{game.info.title} cannot be played in the terminal yet")
    return board
