"""The critters table drawn from a seat's view: tableaus with full sets marked, hands, piles,
whose turn, and the action awaiting an answer.

``reveal`` (the omniscient ``summary()``) is given only by the replay viewer's show-everything
mode, to show every hand. Its cards' marks (kinds by their letters, wilds and action cards
by a shape) and its events in words are here too: critters' whole terminal board.

>>> critters_words({"by": "bob", "do": "hop_over", "target": "ann", "kind": "fox", "card": "fox"})
"bob plays Hop Over on ann: take a fox from ann's fox set"
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from bestiary.core.game import State
from bestiary.critters.cards import WILD
from bestiary.tui.boards import Board
from bestiary.tui.marks import player_text
from bestiary.tui.words import Event, LogLine

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


def critter_card(card: str, cards: Cards | None = None) -> str:
    """A critter card's short name with its shape (action cards by their card names; a deck's
    own, from its view's ``cards``, by its title)."""
    if card in CRITTER_SPECIAL:
        return f"{CRITTER_SPECIAL[card]} {CRITTER_CARD_NAMES[card]}"
    if cards and card in cards:
        return f"✦ {cards[card]['title']}"
    return card


Cards = Mapping[str, Mapping[str, Any]]
"""A deck's own action cards as a view shows them: name -> title, description, effects."""


def _cards(cards: Any) -> str:
    return " ".join(str(c) for c in cards) if isinstance(cards, list) else str(cards)


def critters_words(event: Event, cards: Cards | None = None) -> str:
    """One critters event in words (every critters move is public); ``cards`` names a deck's
    own action cards, said by the choice they make, as the sheet's are."""
    by = event.get("by", "")
    do = event.get("do")
    target = event.get("target", "")
    kind = event.get("kind", "")
    if do == "down":
        if event.get("card") == WILD:
            return f"{by} puts down a wild as a {event.get('as')}"
        return f"{by} puts down a {event.get('card')}"
    if do == "set":
        return f"{by} plays a full {kind} set: {_cards(event.get('cards'))}"
    if do == "complete":
        return f"{by} completes their {kind} set with {_cards(event.get('cards'))}"
    if do == "hop_over":
        what = "the wild" if event.get("card") == WILD else f"a {event.get('card')}"
        return f"{by} plays Hop Over on {target}: take {what} from {target}'s {kind} set"
    if do == "game_changer":
        give, take = event.get("give", {}), event.get("take", {})
        return (
            f"{by} plays Game Changer on {target}: give their {give.get('card')} "
            f"({give.get('kind')} set) for {target}'s {take.get('card')} ({take.get('kind')} set)"
        )
    if do == "ultimate_collector":
        return f"{by} plays Ultimate Collector on {target}: steal {target}'s full {kind} set"
    if do == "no":
        return f"{by} says NO! The action is cancelled"
    if do == "allow":
        return f"{by} allows it"
    if do == "swap_wild":
        return (
            f"{by} puts a {kind} in place of the wild in their full {kind} set; "
            f"the wild becomes a {event.get('to')}"
        )
    if do == "pass":
        return f"{by} passes"
    if do == "discard":
        return f"{by} must discard: a {event.get('card')} goes to the centre pile"
    if do == "reshuffle":
        return "the centre pile is shuffled into a new Draw Pile"
    if do == "random_card":  # the card is there only for the two hands it moves between
        what = f"a {event['card']}" if "card" in event else "a card"
        return f"{event.get('to')} takes {what} at random from {event.get('from')}'s hand"
    own = (cards or {}).get(str(do))
    title = own["title"] if own else str(do)
    on = f"{by} plays {title}" + (f" on {target}" if target else "")
    if "give" in event:
        give, take = event.get("give", {}), event.get("take", {})
        return f"{on}: give their {give.get('card')} for {target}'s {take.get('card')}"
    if "card" in event:
        return f"{on}: take a {event.get('card')} from {target}'s {kind} set"
    if "full" in event:
        which = "full" if event.get("full") else "incomplete"
        return f"{on}: protect their {which} {kind} set"
    if kind:
        return f"{on}: steal {target}'s full {kind} set"
    return f"{on}: {own['description']}" if own else on


def critters_line(event: Event, viewer: str | None, after: State, progressed: bool) -> LogLine:
    """A critters event for ``viewer``'s log: lines that target the viewer stand out."""
    cards = after.view(viewer).get("cards") if event.get("do") not in _SAID else None
    targeted = viewer is not None and viewer in (event.get("target"), event.get("from"))
    return LogLine(critters_words(event, cards), targeted)


# the events said without a deck's own cards' names
_SAID: Final = frozenset(
    ("down", "set", "complete", "hop_over", "game_changer", "ultimate_collector", "no", "allow",
     "swap_wild", "pass", "discard", "reshuffle", "random_card")
)  # fmt: skip


View = Mapping[str, Any]


def full_kinds(tableau: list[Mapping[str, Any]]) -> int:
    """How many different kinds this tableau has full sets of (what wins the game).

    >>> full_kinds([{"kind": "fox", "full": True}, {"kind": "fox", "full": True}])
    1
    """
    return len({s["kind"] for s in tableau if s["full"]})


def set_text(card_set: Mapping[str, Any], set_size: int, guarded: bool = False) -> Text:
    """One set: ``[FULL fox: fox fox ★wild]`` or ``fox 2/3: fox ★wild``; a protected set
    (a protect_set card) ends in ``⛨ protected``."""
    kind = card_set["kind"]
    cards = " ".join("★wild" if c == WILD else c for c in card_set["cards"])
    mark = " ⛨ protected" if guarded else ""
    if card_set["full"]:
        return Text(f"[✔ FULL {kind}: {cards}]{mark}", style="bold green")
    return Text(f"{kind} {len(card_set['cards'])}/{set_size}: {cards}{mark}")


def is_protected(view: View, player: str, card_set: Mapping[str, Any]) -> bool:
    """Is this set of ``player``'s protected (the view's ``protected``: owner, kind, full)?"""
    mark = {"kind": card_set["kind"], "full": card_set["full"]}
    return [player, mark] in view.get("protected", ())


def hand_text(cards: list[str], own: Cards | None = None) -> Text:
    return Text("  ".join(critter_card(c, own) for c in cards) or "empty")


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
        if player in view.get("skip_next", ()):
            name.append(" (skips the next turn)", style="dim")
        if player == you:
            hand = hand_text(list(view.get("hand", [])), view.get("cards"))
        elif reveal is not None:
            hand = hand_text(list(reveal["hands"][player]), view.get("cards"))
        else:
            hand = Text(f"{view['hand_sizes'][player]} cards", style="dim")
        sets = Text("  ").join(
            set_text(s, set_size, is_protected(view, player, s)) for s in view["tableaus"][player]
        )
        table.add_row(name, hand, str(full_kinds(view["tableaus"][player])), sets or Text("—"))
    return table


def piles_text(view: View) -> Text:
    """The Draw Pile's size and the centre pile's top cards."""
    centre = list(view["centre_pile"])
    text = Text(f"Draw Pile: {view['draw_pile']} cards   Centre pile: ")
    if centre:
        top = ", ".join(critter_card(c, view.get("cards")) for c in reversed(centre[-3:]))
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
        what = critters_words(pending, view.get("cards")) if pending else "an action"
        who = "YOU" if view["awaiting"] == you else view["awaiting"]
        style = "bold reverse" if view["awaiting"] == you else "bold"
        text.append(f"{what}. {who} must answer: NO! or allow.", style=style)
    elif view.get("turn"):
        who = "Your" if view["turn"] == you else f"{view['turn']}'s"
        text.append(f"{who} turn.", style="bold")
    return text


def cards_text(view: View) -> Text | None:
    """The deck's own action cards, each with its description (None for the sheet's deck)."""
    own: Cards = view.get("cards") or {}
    if not own:
        return None
    return Text("\n".join(f"✦ {c['title']}: {c['description']}" for c in own.values()), style="dim")


def critters_table(view: View, reveal: View | None = None) -> RenderableType:
    """The whole table: status, tableaus and piles (and the deck's own cards, if any)."""
    parts: list[RenderableType] = [
        status_text(view),
        tableaus_table(view, reveal),
        piles_text(view),
    ]
    own = cards_text(view)
    return Group(*parts, own) if own is not None else Group(*parts)


# The board the game declares for the terminal (``GameInfo.faces.terminal``).
BOARD = Board(critters_line, critters_table, "bestiary.tui.critters_app:CrittersApp")
