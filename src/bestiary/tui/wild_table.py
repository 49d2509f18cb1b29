"""The wild table drawn from a seat's view: offers and their Calls, asks, Dens, Pack sizes,
the Watering Hole, scores and the food chain.

``reveal`` (the omniscient ``summary()``) is given only by the replay viewer's show-everything
mode; a player's screen is drawn from their own view alone. Its creatures' marks (a shape
beside every colour) and its events in words are here too: wild's whole terminal board.

>>> creature_mark("skeevil")
'■ skeevil'
>>> wild_words({"by": "ann", "do": "call", "call": "megalotaur"})
"ann calls 'HROOM!' (megalotaur) with a face-down card"
>>> wild_words({"by": "ann", "do": "call", "card": "snerlep", "call": "megalotaur"})
"ann calls 'HROOM!' (megalotaur) with their snerlep"
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, Final

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from bestiary.core.game import State
from bestiary.tui.boards import Board
from bestiary.tui.marks import player_text
from bestiary.tui.words import Event, LogLine
from bestiary.wild.cards import CREATURES, SOUNDS

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


def creature_mark(creature: str) -> str:
    """A creature with its shape, readable without colour."""
    return f"{CREATURE_SHAPES.get(creature, '?')} {creature}"


def creature_text(creature: str) -> Text:
    """A creature with its shape, in its colour."""
    return Text(creature_mark(creature), style=CREATURE_COLOURS.get(creature, ""))


def wild_words(event: Event, viewer: str | None = None, meeting: str | None = None) -> str:
    """One wild event in words; ``meeting`` is the outcome text when the event made one."""
    by = event.get("by", "")
    do = event.get("do")
    card = event.get("card") if by != viewer else None
    if do == "draw":
        return f"{by} draws a card"
    if do == "call":
        call = event["call"]
        hidden = f"their {card}" if card else "a face-down card"
        return f"{by} calls {SOUNDS[call]!r} ({call}) with {hidden}"
    if do == "withdraw":
        return f"{by} takes their offer back"
    if do == "discard":
        what = f"a {card}" if card else "a card"
        return f"{by} discards {what} face-down at the Watering Hole"
    if do == "reveal_own":
        return f"{by} flips their own offer: it goes face-down to the Watering Hole"
    if do == "meet":
        other = event.get("with", "")
        if meeting is not None:
            return f"{by} and {other} meet: {meeting}"
        return f"{by} asks {other} to meet"
    if do == "nightfall":
        return "Nightfall: no meeting for too long, the game ends"
    return str(event)


def wild_line(event: Event, viewer: str | None, after: State, progressed: bool) -> LogLine:
    """A wild event for ``viewer``'s log; ``progressed``: it made a meeting (``after``'s last)."""
    from bestiary.wild import WildState, describe_meeting

    if event.get("do") == "meet" and progressed and isinstance(after, WildState):
        text = wild_words(event, viewer, meeting=describe_meeting(after.meetings[-1]))
        return LogLine(text, viewer is not None and viewer in (event.get("by"), event.get("with")))
    return LogLine(wild_words(event, viewer), viewer is not None and event.get("with") == viewer)


View = Mapping[str, Any]


def food_chain() -> Text:
    """The food chain round the circle, then every Call's sound.

    >>> print(food_chain().plain.replace("the next", "..."))
    Food chain: ▲ megalotaur › ~ snerlep › ✦ fizzalisk › ● wiffaloon › ■ skeevil › ▲ (each eats ...)
    Calls: ▲ HROOM!  ~ SNIK-SNIK!  ✦ FZZZT!  ● WOOO-FA!  ■ KEE-KEE!
    """
    line = Text("Food chain: ", style="bold")
    for creature in CREATURES:
        line.append_text(creature_text(creature))
        line.append(" › ", style="dim")
    line.append(f"{CREATURE_SHAPES[CREATURES[0]]} (each eats the next)\n", style="dim")
    line.append("Calls: ", style="bold")
    for creature in CREATURES:
        line.append(
            f"{CREATURE_SHAPES[creature]} {SOUNDS[creature]}  ", style=CREATURE_COLOURS[creature]
        )
    line.rstrip()
    return line


def _cards(creatures: list[str], numbered: bool = False, picked: int | None = None) -> Text:
    text = Text()
    for n, creature in enumerate(creatures, start=1):
        if n > 1:
            text.append("  ")
        if n - 1 == picked:
            text.append(f"[{n}:", style="bold reverse")
            text.append_text(creature_text(creature).copy())
            text.append("]", style="bold reverse")
            continue
        if numbered:
            text.append(f"{n}:", style="bold")
        text.append_text(creature_text(creature))
    return text


def _call_text(call: str) -> Text:
    return Text(f"{SOUNDS[call]} ({call})", style=CREATURE_COLOURS[call])


def _offer(view: View, player: str, reveal: View | None) -> Text:
    you = view.get("you")
    card = None
    if player == you and view.get("offer"):
        card = view["offer"]["card"]
    elif reveal is not None and reveal["offers"].get(player):
        card = reveal["offers"][player]["card"]
    call = view["calls"].get(player)
    if call is None:
        return Text("—", style="dim")
    text = Text()
    if card is None:
        text.append("▯ face-down ", style="bold")
    else:
        text.append_text(creature_text(card))
        text.append(" ")
    text.append("calls ")
    text.append_text(_call_text(call))
    return text


def _hand(view: View, player: str, reveal: View | None, picked: int | None) -> Text:
    if player == view.get("you"):
        return _cards(list(view.get("hand", [])), numbered=True, picked=picked)
    if reveal is not None:
        return _cards(list(reveal["hands"][player]))
    n = view["hand_sizes"][player]
    return Text(f"{n} card{'s' if n != 1 else ''}", style="dim")


def _asks(view: View, player: str) -> Text:
    you = view.get("you")
    text = Text()
    for asker, asked in view["asks"]:
        if asker != player:
            continue
        if asked == you:
            text.append(" ⚠ ASKS YOU ", style="bold reverse")
        else:
            text.append(f"→{asked} ")
    return text


def _den(view: View, player: str) -> Text:
    den = view["dens"][player]
    if not den:
        return Text("empty", style="dim")
    counts = Counter(card["creature"] for card in den)
    text = Text()
    for creature in CREATURES:
        if counts[creature]:
            text.append_text(creature_text(creature))
            text.append(f"×{counts[creature]} ")
    foreign = sum(card["owner"] != player for card in den)
    text.append(f"({foreign} from others)", style="dim")
    return text


def players_table(view: View, reveal: View | None = None, picked: int | None = None) -> Table:
    """One row per player: Pack, hand, offer and Call, asks out, Den and score.

    ``picked`` is the index of the card you have picked in your hand, shown in brackets.
    """
    players = list(view["players"])
    you = view.get("you")
    winners = set(view.get("winners", []))
    table = Table(expand=True, show_edge=False, pad_edge=False)
    for column in ("player", "pack", "hand", "offer", "asks", "den", "score"):
        table.add_column(column, no_wrap=column in ("player", "pack", "score"))
    for player in players:
        name = player_text(players, player)
        if player == you:
            name.append(" (you)", style="bold")
        if player in winners:
            name.append(" ♛ wins", style="bold")
        if player in view.get("ended_by", []):
            name.append(" ☀ Sundown", style="bold")
        table.add_row(
            name,
            str(view["packs"][player]),
            _hand(view, player, reveal, picked),
            _offer(view, player, reveal),
            _asks(view, player),
            _den(view, player),
            str(view["scores"][player]),
        )
    return table


def watering_hole(view: View, reveal: View | None = None) -> Text:
    """Face-up cards counted by creature; face-down cards counted per owner (their creatures
    shown only when ``reveal`` is given)."""
    hole = view["watering_hole"]
    text = Text("Watering Hole: ", style="bold")
    face_up = Counter(card["creature"] for card in hole["face_up"])
    face_down: dict[str, int] = {p: n for p, n in hole["face_down"].items() if n}
    if not face_up and not face_down:
        text.append("empty", style="dim")
        return text
    for creature in CREATURES:
        if face_up[creature]:
            text.append_text(creature_text(creature))
            text.append(f"×{face_up[creature]}  ")
    if face_down:
        text.append("face-down: " + ", ".join(f"{p} {n}" for p, n in face_down.items()))
    if reveal is not None:
        hidden = Counter(c["creature"] for c in reveal["watering_hole"] if not c["face_up"])
        if hidden:
            text.append(" (")
            text.append_text(
                Text(" ").join(
                    creature_text(c) + Text(f"×{hidden[c]}") for c in CREATURES if hidden[c]
                )
            )
            text.append(")")
    return text


def asks_to_you(view: View) -> list[str]:
    """Players who asked this seat to meet and are waiting for an answer."""
    you = view.get("you")
    return [asker for asker, asked in view["asks"] if asked == you]


def wild_table(view: View, reveal: View | None = None, picked: int | None = None) -> RenderableType:
    """The whole table: food chain, players, Watering Hole, Objectives, and the end."""
    parts: list[RenderableType] = [
        food_chain(),
        players_table(view, reveal, picked),
        watering_hole(view, reveal),
    ]
    objective = view.get("objective")
    if objective and "objectives" not in view:
        parts.append(Text(f"Your Objective ({objective['points']} pt): {objective['title']}"))
    for player, shown in view.get("objectives", {}).items():  # turned up at the end
        done = "scored" if shown.get("scored") else "not scored"
        parts.append(
            Text(f"{player}'s Objective ({shown['points']} pt): {shown['title']} — {done}")
        )
    if view.get("over"):
        winners = " and ".join(view.get("winners", [])) or "nobody"
        parts.append(Text(f"Game over: {winners} won.", style="bold"))
    return Group(*parts)


# The board the game declares for the terminal (``GameInfo.faces.terminal``).
BOARD = Board(wild_line, wild_table, "bestiary.tui.wild_app:WildApp")
