"""How a game is drawn at the terminal: its own board, which the game declares, or the generic one.

The terminal drives every game the same way (``LiveTable`` on the core ``Match``), but how a
game looks (its table, its words, its keys) is the game's own: its info names a ``Board``
(``GameInfo.faces.terminal``, a ``module:name`` reference), so nothing in the terminal code
names a game. A game that declares none gets the generic board: its views shown readably, its
events as they are, and its legal actions as a menu (``bestiary.tui.generic_app``), so every
registered game is played, replayed and narrated at the terminal at once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table as Grid
from rich.text import Text

from bestiary.core.game import Game, State
from bestiary.core.info import resolve
from bestiary.core.records import Event
from bestiary.tui.words import LogLine

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
    app: str = "bestiary.tui.generic_app:GenericApp"

    def app_class(self) -> Any:
        return resolve(self.app)


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


def shown(value: Any) -> str:
    """A view's value in words: lists joined, objects as ``key: value``, nothing as a dash.

    >>> shown({"ann": "3", "bo": ["1", "2"]}), shown(None), shown(True)
    ('ann: 3; bo: 1, 2', '-', 'yes')
    """
    if value is None or value == [] or value == {}:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Mapping):
        return "; ".join(f"{k}: {shown(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(shown(v) for v in value)
    return str(value)


def fields(title: str, view: View) -> Grid:
    grid = Grid(title=title, title_justify="left", show_header=False, box=None)
    grid.add_column(style="bold")
    grid.add_column()
    for key, value in view.items():
        grid.add_row(str(key).replace("_", " "), shown(value))
    return grid


def plain_table(view: View, reveal: View | None = None) -> RenderableType:
    """Any game's view, one row per field (and, in the omniscient mode, its summary)."""
    parts: list[RenderableType] = [fields("What you see", view)]
    if reveal is not None:
        parts += [Text(""), fields("Everything:", reveal)]
    return Group(*parts)


GENERIC = Board(plain_words, plain_table)


def board_of(game: Game) -> Board:
    """The terminal board ``game`` declares (the generic board for a game with none)."""
    reference = game.info.faces.terminal
    if reference is None:
        return GENERIC
    board = resolve(reference)
    if not isinstance(board, Board):
        raise TypeError(f"{reference} is not a terminal Board")
    return board
