"""``make run``: a narrated bot-vs-bot game of Call of the Wild in the terminal.

The bots here are deliberately small: mostly honest, sometimes hunting or double-crossing, and
they answer Calls they hear. They see only their own view, like any player.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

from rich.console import Console
from rich.table import Table

from bestiary.wild import (
    CREATURES,
    GAME,
    SOUNDS,
    Call,
    Draw,
    Meet,
    Nightfall,
    WildState,
    Withdraw,
    describe_meeting,
)

NAMES = ("ann", "bob", "cat", "dan", "eve", "fay")
QUIET_TICKS = 60  # ticks without a meeting before Nightfall falls on the demo table


class DemoBot:
    """A small policy that reads only ``view``: answer Calls, mostly honestly."""

    def __init__(self, name: str, rng: random.Random) -> None:
        self.name = name
        self.rng = rng
        self.waited = 0
        self.honesty = rng.uniform(0.55, 0.85)

    def act(self, view: dict[str, Any]) -> Any | None:
        hand: list[str] = view["hand"]
        offer = view["offer"]
        me = self.name
        held = len(hand) + (offer is not None)
        if held < view["hand_limit"] and view["packs"][me] and self.rng.random() < 0.8:
            return Draw(me)
        if offer is None:
            self.waited = 0
            return self.call(hand, view) if hand else None
        asked_me = [a for a, b in view["asks"] if b == me]
        if asked_me:
            return Meet(me, asked_me[0])
        mine = {b for a, b in view["asks"] if a == me}
        partners = [p for p, call in view["calls"].items() if p != me and call == offer["call"]]
        fresh = [p for p in partners if p not in mine]
        if fresh:
            return Meet(me, self.rng.choice(fresh))
        self.waited += 1
        if self.waited > self.rng.randint(2, 6):
            self.waited = 0
            if hand and self.rng.random() < 0.7:
                return self.call([*hand, offer["card"]], view)
            return Withdraw(me)
        return None

    def call(self, cards: list[str], view: dict[str, Any]) -> Call:
        """Answer a Call someone is making if a card fits; otherwise open with a card."""
        heard = [c for p, c in view["calls"].items() if p != self.name and c is not None]
        honest = self.rng.random() < self.honesty
        if heard and self.rng.random() < 0.8:
            for call in self.rng.sample(heard, len(heard)):
                target = CREATURES.index(call)
                honest_card = call
                hunter = CREATURES[(target - 1) % 5]  # eats what the Call claims
                crosser = CREATURES[(target - 2) % 5]  # eats a hunter of that Call
                options = [honest_card] if honest else [hunter, crosser]
                for card in options:
                    if card in cards:
                        return Call(self.name, card, call)
        card = self.rng.choice(cards)
        if honest:
            return Call(self.name, card, card)
        prey = CREATURES[(CREATURES.index(card) + 1) % 5]
        return Call(self.name, card, prey)


def narrate(state: WildState, rng: random.Random) -> Iterator[str]:
    """Play the demo game to its end, yielding one Rich-markup line per thing worth saying."""
    bots = {p: DemoBot(p, rng) for p in state.players}
    quiet = 0
    while not state.is_over:
        order = list(state.players)
        rng.shuffle(order)
        met = len(state.meetings)
        for p in order:
            if state.is_over:
                break
            action = bots[p].act(state.view(p))
            if action is None or action not in state.legal_actions(p):
                continue
            was_asked = (action.with_, p) in state.asks() if isinstance(action, Meet) else False
            state.apply(action)
            line = _line(state, action, was_asked)
            if line:
                yield line
        quiet = 0 if len(state.meetings) != met else quiet + 1
        if quiet >= QUIET_TICKS and not state.is_over:
            state.apply(Nightfall())
            yield "[bold blue]Nightfall.[/] Nobody has met for too long; the game ends."
    if state.ended_by:
        who = " and ".join(state.ended_by)
        yield f"[bold yellow]Sundown![/] {who} used their last card."


def _line(state: WildState, action: Any, was_asked: bool) -> str | None:
    if isinstance(action, Call):
        sound = SOUNDS[action.call]
        return f"{action.by} calls [bold]{sound!r}[/] with a face-down card"
    if isinstance(action, Meet):
        if not was_asked:
            return f"[dim]{action.by} beckons to {action.with_}[/]"
        meeting = state.meetings[-1]
        shown = (
            f"{meeting.first} shows a {meeting.first_card}, "
            f"{meeting.second} a {meeting.second_card}"
        )
        colour = {"mate": "green", "eat": "red", "avoid": "cyan"}[meeting.outcome]
        return f"  [{colour}]{meeting.first} and {meeting.second} meet[/]: {shown}. " + (
            describe_meeting(meeting)
        )
    if isinstance(action, Withdraw):
        return f"[dim]{action.by} takes the card back[/]"
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
    """Narrate a bot-vs-bot game with ``players`` seats (2-6) in the terminal."""
    console = console or Console()
    if not 2 <= players <= len(NAMES):
        console.print(f"[red]error:[/] wild takes 2 to {len(NAMES)} players, not {players}")
        return
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    state = GAME.new_game(NAMES[:players], seed=seed)
    rng = random.Random(seed)
    console.print(f"[bold]Call of the Wild[/]: {', '.join(state.players)} (seed {seed})")
    calls = ", ".join(f"{c} {SOUNDS[c]!r}" for c in CREATURES)
    console.print(f"The Calls: {calls}")
    console.print("Food chain: " + " → ".join((*CREATURES, CREATURES[0])))
    for line in narrate(state, rng):
        console.print(line)
        if delay > 0:
            time.sleep(delay)
    console.print(final_table(state))
    winners = state.winners()
    verb = "wins" if len(winners) == 1 else "share the win"
    console.print(f"[bold green]{' and '.join(winners)} {verb}![/]")
