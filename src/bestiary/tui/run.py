"""Entry points for the command line: start a game at the terminal, or step through a record."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bestiary.core.agent import bot_entries
from bestiary.core.errors import BadOption
from bestiary.core.records import Event, Header
from bestiary.tui.live import TICK_SECONDS, LiveTable, bot_list

# The bots a game is played against when --bots is not given, in order of preference.
PREFERRED_BOTS = {"wild": ("honest", "random"), "critters": ("greedy", "random")}


def default_bot(game: str) -> str:
    """The bot to fill seats with when none is named."""
    known = [entry.name for entry in bot_entries(game)]
    for name in PREFERRED_BOTS.get(game, ()):
        if name in known:
            return name
    if not known:
        raise BadOption(f"no bots are registered for {game} yet")
    return known[0]


def new_table(
    game: str,
    players: int,
    bots: str | None,
    options: Mapping[str, Any],
    seed: int | None,
    name: str,
    tick_seconds: float = TICK_SECONDS,
) -> LiveTable:
    """A table with ``name`` in the first seat and bots in the rest (BadOption if it can't)."""
    if not name.strip():
        raise BadOption("--name must not be empty")
    if players < 2:
        raise BadOption("a game needs at least 2 players")
    names = bot_list(bots or default_bot(game), players)
    try:
        return LiveTable.new(game, name, names, options, seed, tick_seconds)
    except (KeyError, TypeError) as err:
        raise BadOption(str(err.args[0]) if err.args else str(err)) from None


def play(table: LiveTable, save: Path | None = None) -> None:
    """Run the game's app until the player quits; then write the record if asked."""
    if table.name == "wild":
        from bestiary.tui.wild_app import WildApp

        WildApp(table).run()
    else:
        from bestiary.tui.critters_app import CrittersApp

        CrittersApp(table).run()
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
