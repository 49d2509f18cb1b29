"""Legal-action generation for the turn player: every move but pass and discard.

Actions are values, interned and reused, and each seat's ready-made actions live in a
``SeatMoves`` found by kind and count, so generating a hand's moves builds few objects. No
``add = acts.append`` alias: compiled, a bound method is a call through a Python object,
``acts.append`` a direct C call.
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import Any, Final

from bestiary.critters.actions import (
    Allow,
    Complete,
    CrittersAction,
    Down,
    GameChanger,
    HopOver,
    Pass,
    PlayCard,
    PlaySet,
    SayNo,
    SwapWild,
    UltimateCollector,
)
from bestiary.critters.cards import WILD
from bestiary.critters.effects import STEAL_SET, SWAP_DOWN, TAKE_DOWN, ActionCard
from bestiary.critters.setup import Table
from bestiary.critters.tableau import CardSet, fills_with_wilds

_CACHE: Final[dict[tuple[Any, ...], Any]] = {}


def interned(cls: Any, *args: Any) -> Any:
    """Actions are values: intern them, so generating legal actions rarely builds objects."""
    key = (cls, *args)
    action = _CACHE.get(key)
    if action is None:
        if len(_CACHE) > 500_000:
            _CACHE.clear()
        action = _CACHE[key] = cls(*args)
    return action


def interned_like(action: Any) -> Any:
    """The interned action equal to ``action`` (made by ``interned`` from its fields, in their
    order), or None if there is none."""
    kind = type(action)
    names = _FIELDS.get(kind)
    if names is None:
        if not is_dataclass(kind):
            return None
        names = _FIELDS[kind] = tuple(f.name for f in fields(kind) if f.init)
    try:
        found = _CACHE.get((kind, *[getattr(action, name) for name in names]))
    except TypeError:  # unhashable fields: never interned
        return None
    return found if found == action else None


_FIELDS: Final[dict[type, tuple[str, ...]]] = {}  # an action class's fields, in their order


class SeatMoves:
    """One seat's actions made so far, found by what varies: a kind, how many cards of it."""

    def __init__(self, by: str, size: int, kinds: tuple[str, ...]) -> None:
        self.by = by
        self.size = size
        self.passes: Pass = interned(Pass, by)
        self.allow: Allow = interned(Allow, by)
        self.say_no: SayNo = interned(SayNo, by)
        # a critter down, and PlaySet with n cards of the kind at [n] (the rest wilds), by the
        # kind's place in the deck's kinds
        self.downs: list[Down] = [interned(Down, by, k, None) for k in kinds]
        self.sets: list[list[PlaySet | None]] = [[None] * (size + 1) for _ in kinds]
        # a wild down as each kind; a held kind swapped for the wild of its set, to each kind
        self.wild_downs: list[Down] = [interned(Down, by, WILD, k) for k in kinds]
        self.swaps: dict[str, list[SwapWild]] = {}
        # kind -> Complete putting n of the kind and (need - n) wilds at need * (size + 1) + n
        self.completes: dict[str, list[Complete | None]] = {}
        # card -> kind -> HopOver from seat q taking the kind at 2 * q, a wild at 2 * q + 1
        self.hops: dict[str, dict[str, list[HopOver | None]]] = {}
        # card -> seat q -> GameChanger at give * 2k + take, where each is 2 * a kind's place
        # + 1 for a wild (k kinds): found by ints, not by a key of names per candidate
        self.changers: dict[str, dict[int, list[GameChanger | None]]] = {}

    def play_set(self, i: int, kind: str, n: int) -> PlaySet:
        row = self.sets[i]
        found = row[n]
        if found is None:
            cards = (kind,) * n + (WILD,) * (self.size - n)
            found = row[n] = interned(PlaySet, self.by, kind, cards)
        return found

    def complete(self, kind: str, need: int, n: int) -> Complete:
        width = self.size + 1
        row = self.completes.get(kind)
        if row is None:
            row = self.completes[kind] = [None] * (width * width)
        found = row[need * width + n]
        if found is None:
            cards = (kind,) * n + (WILD,) * (need - n)
            found = row[need * width + n] = interned(Complete, self.by, kind, cards)
        return found

    def swap_wild(self, kind: str, kinds: tuple[str, ...]) -> list[SwapWild]:
        found = self.swaps.get(kind)
        if found is None:
            found = self.swaps[kind] = [interned(SwapWild, self.by, kind, k) for k in kinds]
        return found

    def hop_over(self, play: str, q: int, target: str, kind: str, card: str) -> HopOver:
        rows = self.hops.get(play)
        if rows is None:
            rows = self.hops[play] = {}
        row = rows.get(kind)
        if row is None:
            row = rows[kind] = []
        at = 2 * q + (card == WILD)
        if len(row) <= at:
            row.extend([None] * (at + 1 - len(row)))
        found = row[at]
        if found is None:
            found = row[at] = interned(HopOver, self.by, target, kind, card, play)
        return found

    def changers_of(self, play: str, q: int) -> list[GameChanger | None]:
        rows = self.changers.get(play)
        if rows is None:
            rows = self.changers[play] = {}
        found = rows.get(q)
        if found is None:
            width = 2 * len(self.downs)  # a down per kind
            found = rows[q] = [None] * (width * width)
        return found


# Seats' ready-made actions, shared by every game whose table has the same players, set size
# and kinds (a lab's thousands of games, a search's determinized states), which would otherwise
# each make them again. Bounded: a server's
# tables with players of their own each bring a book, and finished tables must leave nothing.
_BOOKS: Final[dict[tuple[tuple[str, ...], int, int, tuple[str, ...]], SeatMoves]] = {}


def seat_moves(t: Table, p: int, by: str) -> SeatMoves:
    """Seat ``p``'s ready-made actions (``by`` is its player), found for the game once."""
    found: SeatMoves | None = t.memo.get(p)
    if found is None:
        key = (t.players, p, t.set_size, t.kinds)
        found = _BOOKS.get(key)
        if found is None:
            if len(_BOOKS) > 256:
                _BOOKS.clear()
            found = _BOOKS[key] = SeatMoves(by, t.set_size, t.kinds)
        t.memo[p] = found
    return found


def turn_moves(
    t: Table, hand: list[str], tabs: list[list[CardSet]], p: int, by: str
) -> list[CrittersAction]:
    """Every move but pass/discard for the turn player ``p`` (seat) holding ``hand``.

    ``tabs`` is every seat's tableau, in seat order. The hand is counted in a list by each
    card's place (``Table.card_at``: the kinds first), so the moves are found from counts.
    """
    size = t.set_size
    kinds = t.kinds
    at = t.card_at
    cnt = [0] * len(t.card_order)
    for c in hand:
        j = at[c]
        cnt[j] = cnt[j] + 1  # compiled, `cnt[j] += 1` is a generic Python addition
    wilds = cnt[t.wild_at]
    last = size - 1
    inc: list[CardSet] = []  # the incomplete sets, oldest first
    wild_full: list[str] = []  # kinds with a full set holding a wild (swap_wild)
    blocked: list[str] = []  # kinds where one more wild would make an all-wild full set
    for card_set in tabs[p]:
        cards = card_set[1]
        n_cards = len(cards)
        if n_cards < size:
            inc.append(card_set)
            if fills_with_wilds(cards, last):
                blocked.append(card_set[0])
        elif WILD in cards:
            wild_full.append(card_set[0])
    book = seat_moves(t, p, by)
    acts: list[CrittersAction] = []
    n_kinds = len(kinds)
    downs = book.downs
    for i in range(n_kinds):
        if cnt[i]:
            acts.append(downs[i])
    if wilds:
        every = book.wild_downs
        acts.extend(every if not blocked else [a for a in every if a.as_ not in blocked])
    low = max(1, size - wilds)
    for i in range(n_kinds):
        top = min(cnt[i], size)
        for n in range(low, top + 1):
            acts.append(book.play_set(i, kinds[i], n))
    for k, cards in inc:
        need = size - len(cards)
        has = cnt[at[k]]
        for n in range(0, min(has, need) + 1):
            if need - n <= wilds and (n or k in cards):
                acts.append(book.complete(k, need, n))
    if wild_full:
        for i in range(n_kinds):
            k = kinds[i]
            if cnt[i] and k in wild_full:
                swaps = book.swap_wild(k, kinds)
                acts.extend(swaps if not blocked else [a for a in swaps if a.to not in blocked])
    for card, place in t.playable:
        if cnt[place]:
            _card_moves(acts, book, t, p, card, inc, tabs, blocked)
    return acts


def _card_moves(
    acts: list[CrittersAction],
    book: SeatMoves,
    t: Table,
    p: int,
    card: ActionCard,
    inc: list[CardSet],
    tabs: list[list[CardSet]],
    blocked: list[str],
) -> None:
    """Append every play of the action ``card`` held by seat ``p``, by what its definition
    chooses: a card that takes or swaps or steals needs something to take (RULINGS: an action
    needs a legal target); one that chooses nothing on cards is played on any opponent."""
    size = t.set_size
    players = t.players
    n = len(players)
    by = book.by
    play = card.name
    choice = card.choice
    if choice == TAKE_DOWN:
        for step in range(1, n):
            q = (p + step) % n
            for kind, cards in tabs[q]:
                if len(cards) < size:
                    if kind in cards:
                        acts.append(book.hop_over(play, q, players[q], kind, kind))
                    if WILD in cards and kind not in blocked:
                        acts.append(book.hop_over(play, q, players[q], kind, WILD))
    elif choice == SWAP_DOWN:
        if inc:
            _game_changers(acts, book, t, p, play, inc, tabs, blocked)
    elif choice == STEAL_SET:
        for step in range(1, n):
            q = (p + step) % n
            seen: list[str] = []
            for kind, cards in tabs[q]:
                if len(cards) == size and kind not in seen:
                    seen.append(kind)
                    acts.append(
                        _CACHE.get((UltimateCollector, by, players[q], kind, play))
                        or interned(UltimateCollector, by, players[q], kind, play)
                    )
    elif card.targeted:
        for step in range(1, n):
            acts.append(interned(PlayCard, by, play, players[(p + step) % n]))
    else:
        acts.append(interned(PlayCard, by, play, None))


def _game_changers(
    acts: list[CrittersAction],
    book: SeatMoves,
    t: Table,
    p: int,
    play: str,
    inc: list[CardSet],
    tabs: list[list[CardSet]],
    blocked: list[str],
) -> None:
    """Append every swap_down play of ``play`` by seat ``p``, whose incomplete sets are
    ``inc``."""
    size = t.set_size
    last = size - 1
    players = t.players
    n = len(players)
    width = 2 * len(t.kinds)
    give = _offered(inc, t)
    for step in range(1, n):
        q = (p + step) % n
        theirs = [s for s in tabs[q] if len(s[1]) < size]
        if not theirs:
            continue
        take = _offered(theirs, t)
        target = players[q]
        row = book.changers_of(play, q)
        for k1, c1, g in give:
            for k2, c2, h in take:
                if k1 != k2:
                    if c2 == WILD and k2 in blocked:
                        continue
                    if c1 == WILD and fills_with_wilds(_cards_of(theirs, k1), last):
                        continue
                found = row[g * width + h]
                if found is None:
                    found = row[g * width + h] = interned(
                        GameChanger, book.by, target, k1, c1, k2, c2, play
                    )
                acts.append(found)


def _offered(sets: list[CardSet], t: Table) -> list[tuple[str, str, int]]:
    """The cards a game_changer may move out of these incomplete sets, in order: (kind, card,
    2 * the kind's place + 1 for a wild)."""
    at = t.card_at
    out: list[tuple[str, str, int]] = []
    for kind, cards in sets:
        i = 2 * at[kind]
        if kind in cards:
            out.append((kind, kind, i))
        if WILD in cards:
            out.append((kind, WILD, i + 1))
    return out


def _cards_of(sets: list[CardSet], kind: str) -> tuple[str, ...] | None:
    """The cards of the ``kind`` set among these incomplete sets, or None."""
    for k, cards in sets:
        if k == kind:
            return cards
    return None
