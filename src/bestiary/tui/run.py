"""Entry points for the command line: start a game at the terminal, or step through a record."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bestiary.core.agent import default_bot
from bestiary.core.driver import Pace
from bestiary.core.errors import BadOption
from bestiary.core.game import get_game
from bestiary.core.info import GameInfo
from bestiary.core.records import Event, Header
from bestiary.tui.live import LiveTable, bot_list


def bot_budget(info: GameInfo, pace: Pace) -> float:
    """Seconds a bot may think per decision and still keep the table's pace: its shortest
    reaction in a real-time game, the pause before its move in a turn-based one."""
    ticks = min(pace.reaction_ticks) if info.real_time else pace.turn_pause_ticks
    return pace.seconds(ticks)


def terminal_bot(game: str, pace: Pace) -> str:
    """The bot that fills the seats when ``--bots`` names none: ``default_bot`` at this pace."""
    try:
        return default_bot(game, bot_budget(get_game(game).info, pace))
    except ValueError as err:
        raise BadOption(str(err)) from None


def new_table(
    game: str,
    players: int,
    bots: str | None,
    options: Mapping[str, Any],
    seed: int | None,
    name: str,
    tick_seconds: float | None = None,
) -> LiveTable:
    """A table with ``name`` in the first seat and bots in the rest (BadOption if it can't).

    ``tick_seconds`` changes the length of the driver's tick (``Pace.tick_seconds``); the bots
    keep the driver's "normal" pace for a table where a person sits (``Pace.chosen``).
    """
    if not name.strip():
        raise BadOption("--name must not be empty")
    if players < 2:
        raise BadOption("a game needs at least 2 players")
    try:
        tick = Pace().tick_seconds if tick_seconds is None else tick_seconds
        pace = Pace.chosen("normal", tick_seconds=tick)
    except ValueError as err:
        raise BadOption(str(err)) from None
    names = bot_list(bots or terminal_bot(game, pace), players)
    try:
        return LiveTable.new(game, name, names, options, seed, pace)
    except (KeyError, TypeError) as err:
        raise BadOption(str(err.args[0]) if err.args else str(err)) from None


def play(table: LiveTable, save: Path | None = None) -> None:
    """Run the game's app until the player quits; then write the record if asked."""
    table.board.app_class()(table).run()
    if save is not None:
        table.save(save)
        print(f"The game's record is in {save}.")


def view_replay(header: Header, events: list[tuple[int, Event]]) -> None:
    """Step through a (valid) record; without a terminal, print the final table instead."""
    from bestiary.tui.replay_app import Replay, ReplayApp

    record = Replay(header, events)
    if sys.stdout.isatty() and sys.stdin.isatty():
        ReplayApp(record).run()
        return
    from rich.console import Console

    app = ReplayApp(record, step=record.length)
    Console().print(app.record.words(app.step, reveal=True))
    Console().print(app.table(app.state))
