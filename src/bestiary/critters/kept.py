"""What the critters engine keeps to go faster, in one place, and what each trades.

The rules (``moves``, ``state``, ``refusals``) are correct without any of it: a table made with
``keep=False`` (``Table.keep``) builds every action anew and keeps nothing, and
``tests/test_critters_kept.py`` plays seeded games both ways and compares every legal list,
view and record. What is kept:

- **Interned actions** (``interned``): an action is a value, built once and reused, so listing a
  hand's moves allocates almost nothing; ``interned_like`` lets ``apply`` find a sent action in
  the legal list by identity. Trades memory (bounded: the cache is emptied past 500,000).
- **Each seat's ready-made actions** (``SeatMoves``): the rules (``moves``) ask for a move by
  its words, and it is found by a kind's place and a count instead of by a key built per
  candidate move; shared by every game whose table has the same players, set size and kinds
  (``_BOOKS``, at most 256: a server's tables each bring theirs).
- **Tables of determinized views** (``shared_table``), so that states re-dealt from views of one
  game share their ready-made actions too (at most 256).
- The state keeps, until it changes, its legal lists and the public part of its views
  (``CrittersState._kept``): a table asks for the mover's actions, then ``apply`` asks again to
  check the move sent, and every seat's view of one move shares one public part.
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import Any, Final

from bestiary.critters.actions import (
    Allow,
    Complete,
    Down,
    GameChanger,
    HopOver,
    Pass,
    PlayCard,
    PlaySet,
    Protect,
    SayNo,
    SwapWild,
    UltimateCollector,
)
from bestiary.critters.cards import WILD
from bestiary.critters.setup import Table

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
    """One seat's moves, made when first asked for and kept, found by their words (a kind, a
    card, how many) through tables indexed by a kind's place and a count: no key is built per
    candidate move. What it trades: a few hundred actions per seat kept for the game (and
    shared, ``_BOOKS``) against building each one at every listing.

    With ``keep`` False (the plain path) nothing is interned or kept across listings: a
    ``SeatMoves`` is made for each listing, and each action built anew, as the rules alone
    would."""

    def __init__(self, by: str, size: int, kinds: tuple[str, ...], keep: bool = True) -> None:
        self.by = by
        self.size = size
        self.keep = keep
        self.passes: Pass = self._make(Pass, by)
        self.allow: Allow = self._make(Allow, by)
        self.say_no: SayNo = self._make(SayNo, by)
        self._place = {kind: i for i, kind in enumerate(kinds)}
        self._downs: dict[str, Down] = {k: self._make(Down, by, k, None) for k in kinds}
        self._wild_downs: dict[str, Down] = {k: self._make(Down, by, WILD, k) for k in kinds}
        # PlaySet of n critters of the kind (the rest wilds) at [n]
        self._sets: dict[str, list[PlaySet | None]] = {k: [None] * (size + 1) for k in kinds}
        # kind -> to -> SwapWild
        self._swaps: dict[str, dict[str, SwapWild]] = {}
        # kind -> Complete putting n of the kind and (need - n) wilds at need * (size + 1) + n
        self._completes: dict[str, list[Complete | None]] = {}
        # card -> kind -> HopOver from seat q taking the kind at 2 * q, a wild at 2 * q + 1
        self._hops: dict[str, dict[str, list[HopOver | None]]] = {}
        # card -> seat q -> GameChanger at give * 2k + take, where each is 2 * the kind's
        # place + 1 for a wild (k kinds)
        self._changers: dict[str, dict[int, list[GameChanger | None]]] = {}

    def _make(self, cls: Any, *args: Any) -> Any:
        return interned(cls, *args) if self.keep else cls(*args)

    def down(self, kind: str) -> Down:
        return self._downs[kind]

    def wild_down(self, kind: str) -> Down:
        return self._wild_downs[kind]

    def play_set(self, kind: str, n: int) -> PlaySet:
        row = self._sets[kind]
        found = row[n]
        if found is None:
            cards = (kind,) * n + (WILD,) * (self.size - n)
            found = row[n] = self._make(PlaySet, self.by, kind, cards)
        return found

    def complete(self, kind: str, need: int, n: int) -> Complete:
        width = self.size + 1
        row = self._completes.get(kind)
        if row is None:
            row = self._completes[kind] = [None] * (width * width)
        found = row[need * width + n]
        if found is None:
            cards = (kind,) * n + (WILD,) * (need - n)
            found = row[need * width + n] = self._make(Complete, self.by, kind, cards)
        return found

    def swap_wild(self, kind: str, to: str) -> SwapWild:
        row = self._swaps.get(kind)
        if row is None:
            row = self._swaps[kind] = {}
        found = row.get(to)
        if found is None:
            found = row[to] = self._make(SwapWild, self.by, kind, to)
        return found

    def hop_over(self, play: str, q: int, target: str, kind: str, card: str) -> HopOver:
        rows = self._hops.get(play)
        if rows is None:
            rows = self._hops[play] = {}
        row = rows.get(kind)
        if row is None:
            row = rows[kind] = []
        at = 2 * q + (card == WILD)
        if len(row) <= at:
            row.extend([None] * (at + 1 - len(row)))
        found = row[at]
        if found is None:
            found = row[at] = self._make(HopOver, self.by, target, kind, card, play)
        return found

    def changer(
        self, play: str, q: int, target: str, k1: str, c1: str, k2: str, c2: str
    ) -> GameChanger:
        rows = self._changers.get(play)
        if rows is None:
            rows = self._changers[play] = {}
        width = 2 * len(self._place)
        row = rows.get(q)
        if row is None:
            row = rows[q] = [None] * (width * width)
        place = self._place
        at = (2 * place[k1] + (c1 == WILD)) * width + 2 * place[k2] + (c2 == WILD)
        found = row[at]
        if found is None:
            found = row[at] = self._make(GameChanger, self.by, target, k1, c1, k2, c2, play)
        return found

    def steal(self, target: str, kind: str, play: str) -> UltimateCollector:
        if self.keep:  # found without _make's argument tuple: steals are listed often
            key = (UltimateCollector, self.by, target, kind, play)
            found: UltimateCollector | None = _CACHE.get(key)
            if found is not None:
                return found
        made: UltimateCollector = self._make(UltimateCollector, self.by, target, kind, play)
        return made

    def protect(self, play: str, kind: str, full: bool, target: str | None) -> Protect:
        made: Protect = self._make(Protect, self.by, play, kind, full, target)
        return made

    def play_card(self, play: str, target: str | None) -> PlayCard:
        made: PlayCard = self._make(PlayCard, self.by, play, target)
        return made


# Seats' ready-made actions, shared by every game whose table has the same players, set size
# and kinds (a lab's thousands of games, a search's determinized states), which would otherwise
# each make them again. Bounded: a server's
# tables with players of their own each bring a book, and finished tables must leave nothing.
_BOOKS: Final[dict[tuple[tuple[str, ...], int, int, tuple[str, ...]], SeatMoves]] = {}


def seat_moves(t: Table, p: int, by: str) -> SeatMoves:
    """Seat ``p``'s ready-made actions (``by`` is its player), found for the game once (made
    afresh each time on the plain path)."""
    if not t.keep:
        return SeatMoves(by, t.set_size, t.kinds, False)
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


_TABLES: Final[dict[Any, Table]] = {}


def shared_table(key: Any) -> Table | None:
    """The table of determinized views ``key`` names, if one was shared (``share_table``)."""
    return _TABLES.get(key)


def share_table(key: Any, table: Table) -> None:
    """Share ``table`` under ``key``: states re-dealt from views of one game then share it,
    and so their ready-made actions."""
    if len(_TABLES) > 256:
        _TABLES.clear()
    _TABLES[key] = table
