"""The critters table drawn from a seat's view: tableaus with full sets marked, hands, piles,
whose turn, and the action awaiting an answer.

``reveal`` (the omniscient ``summary()``) is given only by the replay viewer's show-everything
mode, to show every hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from bestiary.critters.cards import WILD
from bestiary.tui.boards import Board
from bestiary.tui.marks import critter_card, player_text
from bestiary.tui.words import critters_line, critters_words

View = Mapping[str, Any]


def full_kinds(tableau: list[Mapping[str, Any]]) -> int:
    """How many different kinds this tableau has full sets of (what wins the game).

    >>> full_kinds([{"kind": "fox", "full": True}, {"kind": "fox", "full": True}])
    1
    """
    return len({s["kind"] for s in tableau if s["full"]})


def set_text(card_set: Mapping[str, Any], set_size: int) -> Text:
    """One set: ``[FULL fox: fox fox ★wild]`` or ``fox 2/3: fox ★wild``."""
    kind = card_set["kind"]
    cards = " ".join("★wild" if c == WILD else c for c in card_set["cards"])
    if card_set["full"]:
        return Text(f"[✔ FULL {kind}: {cards}]", style="bold green")
    return Text(f"{kind} {len(card_set['cards'])}/{set_size}: {cards}")


def hand_text(cards: list[str]) -> Text:
    return Text("  ".join(critter_card(c) for c in cards) or "empty")


def tableaus_table(view: View, reveal: View | None = None) -> Table:
    """One row per player: hand (yours, or a count), full-set kinds, and every set."""
    players = list(view["players"])
    you = view.get("you")
    set_size = int(view["options"].get("set_size", 3))
    winners = set(view.get("winners", []))
    table = Table(expand=True, show_edge=False, pad_edge=False)
    table.add_column("player", no_wrap=True)
    table.add_column("hand")
    table.add_column("full kinds", no_wrap=True)
    table.add_column("Down Cards and sets")
    for player in players:
        name = player_text(players, player)
        if player == you:
            name.append(" (you)", style="bold")
        if player == view.get("turn") and not view.get("over"):
            name.append(" ◀ turn", style="bold reverse")
        if player in winners:
            name.append(" ♛ wins", style="bold")
        if player == you:
            hand = hand_text(list(view.get("hand", [])))
        elif reveal is not None:
            hand = hand_text(list(reveal["hands"][player]))
        else:
            hand = Text(f"{view['hand_sizes'][player]} cards", style="dim")
        sets = Text("  ").join(set_text(s, set_size) for s in view["tableaus"][player])
        table.add_row(name, hand, str(full_kinds(view["tableaus"][player])), sets or Text("—"))
    return table


def piles_text(view: View) -> Text:
    """The Draw Pile's size and the centre pile's top cards."""
    centre = list(view["centre_pile"])
    text = Text(f"Draw Pile: {view['draw_pile']} cards   Centre pile: ")
    if centre:
        top = ", ".join(critter_card(c) for c in reversed(centre[-3:]))
        text.append(f"{len(centre)} card{'s' if len(centre) != 1 else ''}, top {top}")
    else:
        text.append("empty", style="dim")
    return text


def status_text(view: View) -> Text:
    """Whose move it is, the action awaiting an answer, or the winners."""
    you = view.get("you")
    options = view["options"]
    goal = (
        f"Goal: full sets of {options.get('sets_to_win', 3)} different kinds "
        f"({options.get('set_size', 3)} cards a set). "
    )
    text = Text(goal, style="dim")
    if view.get("over"):
        winners = view.get("winners", [])
        text.append(f"Game over: {' and '.join(winners) or 'nobody'} won.", style="bold")
    elif view.get("awaiting"):
        pending = view.get("pending")
        what = critters_words(pending) if pending else "an action"
        who = "YOU" if view["awaiting"] == you else view["awaiting"]
        style = "bold reverse" if view["awaiting"] == you else "bold"
        text.append(f"{what}. {who} must answer: NO! or allow.", style=style)
    elif view.get("turn"):
        who = "Your" if view["turn"] == you else f"{view['turn']}'s"
        text.append(f"{who} turn.", style="bold")
    return text


def critters_table(view: View, reveal: View | None = None) -> RenderableType:
    """The whole table: status, tableaus and piles."""
    return Group(status_text(view), tableaus_table(view, reveal), piles_text(view))


# The board the game declares for the terminal (``GameInfo.faces.terminal``).
BOARD = Board(critters_line, critters_table, "bestiary.tui.critters_app:CrittersApp")
