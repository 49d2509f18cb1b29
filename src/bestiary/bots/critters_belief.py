"""What a critters seat believes about the cards it cannot see, and deals that fit it.

Hard facts come from the view: which cards are unseen (the deck less the seat's hand, every
tableau and the centre pile) and how many each other hand holds. A deal always honours them.

Clues come from what players did, read off the successive views the seat is handed (a bot sees
nothing else): a player who let an Ultimate Collector take a full set almost surely held no NO!;
a player who passed (their hand grew by the one card they drew) held no critter of a kind they
have not yet completed, or they would have put it down. A clue covers the cards the player held
at that moment; every card they play afterwards may be one of those, so a clue covers fewer
cards as the game goes on (``clean``, a lower bound), and the cards they draw are not covered.

Clues are what sensible players do, not rules, so each one is honoured with probability
``trust`` per deal: the belief leans on them without ever ruling the true deal out.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, MutableSequence, Sequence
from dataclasses import dataclass
from typing import Any

from bestiary.critters.actions import GameChanger, HopOver, UltimateCollector
from bestiary.critters.cards import ACTION_CARDS, NO
from bestiary.critters.state import CrittersState, determinize
from bestiary.critters.view import unseen_cards

View = Mapping[str, Any]

TRUST = 0.85


@dataclass
class Clue:
    """At least ``clean`` of ``player``'s cards are none of ``excluded`` (``why`` says how)."""

    player: str
    excluded: frozenset[str]
    clean: int
    why: str


class Belief:
    """One seat's clues, kept up to date from each view it is handed."""

    def __init__(self, me: str, trust: float = TRUST) -> None:
        self.me = me
        self.trust = trust
        self.clues: list[Clue] = []
        self._last: View | None = None
        self._move: Any = None

    def remember(self, move: Any) -> None:
        """The move the seat made on its last view (its answer, if any, is a clue)."""
        self._move = move

    def observe(self, view: View) -> None:
        """Read what happened since the previous view into the clues."""
        last, self._last = self._last, view
        move, self._move = self._move, None
        if last is None or view["over"]:
            return
        started = _turns_started(last, view, self.me)
        played: dict[str, int] = {}
        answered = _answer(last, view, move)
        for p in view["players"]:
            if p == self.me:
                continue
            before = last["hand_sizes"][p] - (1 if answered == (p, True) else 0)
            drew = 1 if p in started else 0
            played[p] = max(0, before + drew - view["hand_sizes"][p])
        if answered is not None and not answered[1] and isinstance(move, UltimateCollector):
            target = answered[0]
            self._add(target, frozenset((NO,)), last["hand_sizes"][target], "allowed a steal")
        sizes = view["hand_sizes"]
        for clue in self.clues:
            clue.clean = max(0, min(clue.clean - played[clue.player], sizes[clue.player]))
        for p in started:
            before = last["hand_sizes"][p] - (1 if answered == (p, True) else 0)
            if view["hand_sizes"][p] == before + 1:  # drew one card and played none: a pass
                done = {s["kind"] for s in view["tableaus"][p] if s["full"]}
                open_kinds = frozenset(k for k in view["kinds"] if k not in done)
                self._add(p, open_kinds, view["hand_sizes"][p], "passed")
        self.clues = [c for c in self.clues if c.clean > 0]

    def _add(self, player: str, excluded: frozenset[str], clean: int, why: str) -> None:
        if clean > 0 and excluded:
            self.clues.append(Clue(player, excluded, clean, why))

    def deal(self, view: View, rng: random.Random) -> tuple[dict[str, list[str]], list[str]]:
        """Other hands and the Draw Pile (top last), dealt from the unseen cards by the clues."""
        pool = unseen_cards(dict(view), self.me)
        rng.shuffle(pool)
        sizes = {p: n for p, n in view["hand_sizes"].items() if p != self.me}
        hands: dict[str, list[str]] = {p: [] for p in sizes}
        # Slot i of a player's hand must avoid every honoured clue that covers i cards or more;
        # the most demanding slots are dealt first, while the pool still has cards for them.
        slots: list[tuple[int, str, frozenset[str]]] = []
        honoured = [c for c in self.clues if c.player in sizes and rng.random() < self.trust]
        for p, n in sizes.items():
            mine = [c for c in honoured if c.player == p]
            for i in range(min(n, max((c.clean for c in mine), default=0))):
                excluded = frozenset().union(*(c.excluded for c in mine if c.clean > i))
                slots.append((-len(excluded), p, excluded))
        slots.sort(key=lambda slot: slot[0])
        for _, p, excluded in slots:
            hands[p].append(_take(pool, excluded))
        for p, n in sizes.items():
            while len(hands[p]) < n:
                hands[p].append(pool.pop())
        return hands, pool

    def sample(self, view: View, rng: random.Random) -> CrittersState:
        """A full state the seat cannot tell from the real one, dealt by :meth:`deal`."""
        hands, draw = self.deal(view, rng)
        order = [card for p in view["players"] if p != self.me for card in hands[p]] + draw
        return determinize(dict(view), self.me, _Dealt(order, rng.getrandbits(64)))


def _take(pool: list[str], excluded: frozenset[str]) -> str:
    """A card from the (shuffled) pool that is none of ``excluded``, else any card."""
    for i in range(len(pool) - 1, -1, -1):
        if pool[i] not in excluded:
            return pool.pop(i)
    return pool.pop()


class _Dealt(random.Random):
    """An RNG whose one shuffle lays the cards in a chosen order (the belief's deal).

    ``determinize`` deals the other hands in seat order from the shuffled unseen cards and
    leaves the rest as the Draw Pile; this hands it the belief's deal instead of a uniform one.
    """

    def __init__(self, order: list[str], seed: int) -> None:
        super().__init__(seed)
        self._order: list[str] | None = order

    def shuffle(self, x: MutableSequence[Any]) -> None:
        order, self._order = self._order, None
        if order is None or sorted(order) != sorted(x):
            raise ValueError("the belief's deal does not hold the unseen cards")
        x[:] = order


def _turns_started(last: View, view: View, me: str) -> list[str]:
    """Players (not ``me``) whose turn began between two views of ``me``.

    ``me`` acts on every one of its turns, so at most one round passes between two views: the
    turns begun are those of the seats after ``last``'s turn player, up to ``view``'s (a whole
    round when both are ``me``'s turns: ``me`` never decides twice in one turn of its own).
    """
    players: Sequence[str] = view["players"]
    a, b = last["turn"], view["turn"]
    if a is None or b is None or (a == b and a != me):
        return []
    i, j = players.index(a), players.index(b)
    n = len(players)
    steps = (j - i) % n or n
    return [p for p in (players[(i + k) % n] for k in range(1, steps + 1)) if p != me]


def _answer(last: View, view: View, move: Any) -> tuple[str, bool] | None:
    """(target, said NO?) for the action card ``move`` the seat played on ``last``, if any."""
    if not isinstance(move, HopOver | GameChanger | UltimateCollector):
        return None
    if move.play not in ACTION_CARDS:
        return None  # a deck's own card may take no answer, or draw: the pile says too little
    before, now = last["centre_pile"], view["centre_pile"]
    if now[: len(before)] != before or len(now) <= len(before):
        return None  # reshuffled since: the answer cannot be read off the pile
    return move.target, len(now) > len(before) + 1 and now[len(before) + 1] == NO
