"""Screens shared by the play apps: the rules summary (help) and the end of the game."""

from __future__ import annotations

from typing import ClassVar

from rich.console import RenderableType
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown, Static

WILD_HELP = """\
# Call of the Wild — how to play

Everyone plays at once; there are no turns. Bots act on their own clocks.

* **Call**: put a card from your hand face-down and make a Call — the sound of any creature.
  Call your card's own sound to try to **mate**; another sound to **hunt** or **double-cross**.
* **Meet**: two players making the same Call may meet. Both must ask: you ask them, they ask you
  (either order). Cards are then turned up:
  * same creature, and the Call is that creature's own: **mate** — each Den gets the other's card;
  * neighbours on the food chain: the **eater's owner takes both cards** to their Den;
  * anything else (two apart, or the same creature while both were hunting): **avoid** — both
    cards go face-up to the Watering Hole.
* Food chain: megalotaur eats snerlep eats fizzalisk eats wiffaloon eats skeevil, and skeevil
  infests megalotaur.
* **Draw** when your hand plus your offer is below the hand limit (2; 3 with three players).
* **Discard** any card from your hand face-down to the Watering Hole, any time.
* **Sundown**: the game ends when someone meets with their very last card. Every Den card is a
  point; ties go to whoever holds most cards from other players' Packs.
* Nightfall (bestiary's own rule): if nobody meets for too long, the game ends.

## Keys
| key | does |
| --- | --- |
| `1` `2` `3` | pick a card in your hand |
| `m` `s` `f` `w` `k` | call the picked card: megalotaur, snerlep, fizzalisk, wiffaloon, skeevil |
| `enter` | call the picked card with its own sound (the honest Call) |
| `a` then a number | ask a player to meet |
| `y` | agree to meet the player who asked you |
| `b` | take your offer back |
| `d` | draw a card |
| `x` then a number | discard a card from your hand |
| `R` | flip your own offer (it goes face-down to the Watering Hole) |
| `?` | this help · `escape` close · `q` quit |
"""

CRITTERS_HELP = """\
# The critter game — how to play

Turns go round the table. On your turn you draw one card, then make exactly one move:

* **Put a card down** (a critter, or a wild declared as a kind): it joins your set of that kind.
* **Play a full set** from your hand at once, or **complete** one of your sets from your hand.
* **Action cards**: *Hop Over* takes a Down Card from an opponent's incomplete set; *Game
  Changer* swaps one of your Down Cards with one of theirs (never from full sets); *Ultimate
  Collector* steals a full set whole.
* **NO!**: when an action targets you, you are always asked — play a NO! card to cancel it, or
  allow it.
* **Swap a wild**: a critter from your hand takes a wild's place in a full set; the wild moves on.
* **Pass** when your hand is within the limit (5; 4 with six or more players).
* **Win** with full sets of 3 different kinds (3 cards a set, wilds help, at least one critter).

## Keys
| key | does |
| --- | --- |
| `↑` `↓` `enter` | choose in the menu: a group, then a move (`backspace` goes back) |
| `n` / `a` | when asked: say NO! / allow |
| `?` | this help · `escape` close · `q` quit |
"""


class HelpScreen(ModalScreen[None]):
    """The rules summary and the keys; any of escape, ? or q closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,q", "dismiss", "close"),
    ]

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Markdown(self.text)


class EndScreen(ModalScreen[None]):
    """The end of the game: winners, scores and everything turned up."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,enter", "app.quit", "quit")]

    def __init__(self, body: RenderableType) -> None:
        super().__init__()
        self.body = body

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="end"):
            yield Static(self.body, id="end-body")
            yield Static("Press q to leave.", id="end-hint")
