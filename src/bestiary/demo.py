"""``make run``: a narrated bot-vs-bot game of Call of the Wild in the terminal.

The demo is ``bestiary sim``'s game told aloud: the same seated line-up (the terminal's default
bot in every seat, ``default_bot`` at the driver's pace), dealt and seeded by
``bestiary.sim.runner.start_match``, and played by the core ``Match`` driver one due tick after
another, exactly as ``play_game`` plays it. Every line is what a spectator may know: the
events come through the game's ``redact``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from rich.console import Console
from rich.table import Table

from bestiary.core.driver import MAX_TICKS
from bestiary.sim.runner import GameSpec, start_match
from bestiary.tui.live import LiveTable, Told
from bestiary.tui.watch import opening, watch_spec
from bestiary.wild import CREATURES, GAME, SOUNDS, WildState, describe_meeting


def demo_spec(players: int, seed: int) -> GameSpec:
    """The demo's game as ``bestiary sim`` states it: game 0 of
    ``bestiary sim wild --players N --bots BOT --games 1 --seed S``, with the terminal's
    default bot in every seat."""
    return watch_spec(GAME.info.name, players, seed)


def demo_table(players: int, seed: int) -> LiveTable:
    """The demo's table, watched from no seat (everything a spectator may see)."""
    return LiveTable.watching(start_match(demo_spec(players, seed)))


def wild_state(table: LiveTable) -> WildState:
    state = table.state
    assert isinstance(state, WildState)  # the demo seats only wild
    return state


def narrate(table: LiveTable) -> Iterator[str]:
    """Play the demo's table to its end, yielding one Rich-markup line per thing worth saying."""
    state = wild_state(table)
    told_meetings = 0
    while not state.is_over:
        start = len(table.told)
        if not table.step(limit=MAX_TICKS):
            break
        for told in table.told[start:]:
            line = _line(state, told, told_meetings)
            told_meetings += told.progressed
            if line:
                yield line
    if state.ended_by:
        who = " and ".join(state.ended_by)
        yield f"[bold yellow]Sundown![/] {who} used their last card."


def _line(state: WildState, told: Told, meetings_before: int) -> str | None:
    event = told.event
    by, do = event.get("by", ""), event.get("do")
    if do == "call":
        return f"{by} calls [bold]{SOUNDS[event['call']]!r}[/] with a face-down card"
    if do == "meet":
        if not told.progressed:
            return f"[dim]{by} beckons to {event['with']}[/]"
        meeting = state.meetings[meetings_before]  # the meetings come in the events' order
        shown = (
            f"{meeting.first} shows a {meeting.first_card}, "
            f"{meeting.second} a {meeting.second_card}"
        )
        colour = {"mate": "green", "eat": "red", "avoid": "cyan"}[meeting.outcome]
        return f"  [{colour}]{meeting.first} and {meeting.second} meet[/]: {shown}. " + (
            describe_meeting(meeting)
        )
    if do == "withdraw":
        return f"[dim]{by} takes the card back[/]"
    if do == "discard":
        return f"[dim]{by} throws a card face-down into the Watering Hole[/]"
    if do == "nightfall":
        return "[bold blue]Nightfall.[/] Nobody has met for too long; the game ends."
    return None


def final_table(state: WildState) -> Table:
    table = Table(title="The Dens at the end")
    table.add_column("player")
    table.add_column("Den")
    table.add_column("from others", justify="right")
    table.add_column("score", justify="right")
    scores = state.scores()
    for p in state.players:
        den = ", ".join(c if o == p else f"{c} ({o})" for c, o in state.den(p)) or "-"
        table.add_row(p, den, str(state.foreign_den_cards(p)), str(scores[p]))
    return table


def run_demo(
    players: int, seed: int | None, delay: float, *, console: Console | None = None
) -> None:
    """Narrate a bot-vs-bot game with ``players`` seats in the terminal."""
    console = console or Console()
    table = opening(console, GAME.info.name, players, seed)
    if table is None:
        return
    state = wild_state(table)
    calls = ", ".join(f"{c} {SOUNDS[c]!r}" for c in CREATURES)
    console.print(f"The Calls: {calls}")
    console.print("Food chain: " + " → ".join((*CREATURES, CREATURES[0])))
    for line in narrate(table):
        console.print(line)
        if delay > 0:
            time.sleep(delay)
    console.print(final_table(state))
    winners = state.winners()
    verb = "wins" if len(winners) == 1 else "share the win"
    console.print(f"[bold green]{' and '.join(winners)} {verb}![/]")
