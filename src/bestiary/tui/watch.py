"""``bestiary demo GAME`` for a game with no narrated demo of its own: bots play, the log tells it.

The game is ``bestiary sim``'s game 0 (``bestiary sim GAME --players N --bots BOT --games 1
--seed S``, the terminal's default bot in every seat), played by the core ``Match`` driver one
due tick after another and watched from no seat: every line is the game's terminal board's
words for an event as a spectator may see it (``core.game.redacted``), and at the end its table
with everything turned up.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

from rich.console import Console

from bestiary.core.driver import MAX_TICKS, Pace
from bestiary.core.game import get_game
from bestiary.sim.runner import GameSpec, start_match
from bestiary.sim.seating import sim_specs
from bestiary.tui.live import LiveTable
from bestiary.tui.run import terminal_bot


def watch_spec(game: str, players: int, seed: int) -> GameSpec:
    """Game 0 of ``bestiary sim GAME --players N --bots BOT --games 1 --seed S``, with the
    terminal's default bot in every seat."""
    return sim_specs(game, [terminal_bot(game, Pace())], players, 1, seed)[0]


def told_lines(table: LiveTable) -> Iterator[str]:
    """Play the table to its end, yielding the log's new lines as they come."""
    shown = len(table.log)
    while not table.state.is_over:
        if not table.step(limit=MAX_TICKS):
            break
        for line in table.log[shown:]:
            yield line.text
        shown = len(table.log)


def opening(console: Console, game: str, players: int, seed: int | None) -> LiveTable | None:
    """The watched table (None, said in one line, if ``players`` does not fit the game), after
    saying who sits at it and which ``bestiary sim`` command plays the same game."""
    info = get_game(game).info
    if not info.min_players <= players <= info.max_players:
        console.print(
            f"[red]error:[/] {info.name} takes {info.min_players} to {info.max_players} "
            f"players, not {players}"
        )
        return None
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    spec = watch_spec(game, players, seed)
    table = LiveTable.watching(start_match(spec))
    console.print(f"[bold]{info.title}[/]: {', '.join(table.state.players)} (seed {seed})")
    console.print(
        f"Every seat is the {spec.bots[0]!r} bot; this is the game that `bestiary sim "
        f"{game} --players {players} --bots {spec.bots[0]} --games 1 --seed {seed}` plays."
    )
    return table


def run_watch(
    game: str, players: int, seed: int | None, delay: float, *, console: Console | None = None
) -> None:
    """Narrate a bot-vs-bot game of ``game`` with ``players`` seats in the terminal."""
    console = console or Console()
    table = opening(console, game, players, seed)
    if table is None:
        return
    for line in told_lines(table):
        console.print(line, markup=False, highlight=False)
        if delay > 0:
            time.sleep(delay)
    state = table.state
    console.print(table.board.table(state.view(None), state.summary()))
    winners = state.winners()
    verb = "wins" if len(winners) == 1 else "share the win"
    console.print(f"[bold green]{' and '.join(winners) or 'nobody'} {verb}.[/]")
