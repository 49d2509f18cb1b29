"""The Call of the Wild table: ``WildState`` holds the game and applies actions.

Internally seats are indices and creatures are ints (food-chain order); hands are counts per
creature, Packs are lists with the top card last, and action objects are interned per table so
that legal-action generation allocates little. Names appear only at the edges.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Self

from bestiary.core.errors import IllegalAction
from bestiary.core.values import by_arguments
from bestiary.wild.actions import Call, Discard, Draw, Meet, Nightfall, RevealOwn, Withdraw
from bestiary.wild.cards import CREATURE_INDEX, CREATURES, EATEN, EATS, SAME, relation_at
from bestiary.wild.info import INFO, MAX_EVENTS, PACK_OPTIONS
from bestiary.wild.meetings import AVOID, EAT, MATE, Meeting
from bestiary.wild.objectives import (
    MAX_FACE_DOWN_FOR_OBJECTIVE,
    OBJECTIVE_BY_ID,
    Chronicle,
)
from bestiary.wild.setup import Deal
from bestiary.wild.summary import summary_of
from bestiary.wild.view import public_part, redact, seat_view, seat_view_parts, view_part

NO_CARD = -1
_NIGHTFALL = Nightfall()
ALL_CREATURES = range(5)


class Tables:
    """Everything fixed for one list of players: seats and every action object, built once."""

    __slots__ = ("call", "discard", "draw", "meet", "n", "players", "reveal", "seat", "withdraw")

    def __init__(self, players: tuple[str, ...]) -> None:
        self.players = players
        self.n = len(players)
        self.seat = {p: i for i, p in enumerate(players)}
        self.draw = [Draw(p) for p in players]
        self.withdraw = [Withdraw(p) for p in players]
        self.reveal = [RevealOwn(p) for p in players]
        self.discard = [[Discard(p, c) for c in CREATURES] for p in players]
        self.call = [[[Call(p, c, s) for s in CREATURES] for c in CREATURES] for p in players]
        self.meet = [[Meet(p, q) for q in players] for p in players]


_TABLES: dict[tuple[str, ...], Tables] = {}


def tables_for(players: tuple[str, ...]) -> Tables:
    tables = _TABLES.get(players)
    if tables is None:
        if len(_TABLES) > 256:  # many distinct tables (a long-running server): start afresh
            _TABLES.clear()
        tables = _TABLES[players] = Tables(players)
    return tables


# Every field of a game in progress, declared once here (a compiled class has no __dict__ to
# read them from): what a pickled or deep-copied state keeps, and what ``_copy`` gives a clone
# its own of. The view cache (``_public``, ``_public_at``) is no field: each copy makes its own.
_FIELDS = (
    "_asks",
    "_dens",
    "_held",
    "_hole",
    "_log",
    "_offer_call",
    "_offer_card",
    "_over",
    "_packs",
    "_t",
    "deal",
    "ended_by",
    "limit",
    "meetings",
    "players",
)


class WildState:
    """One game of Call of the Wild in progress (see docs/wild.md for the rules as played)."""

    players: tuple[str, ...]
    deal: Deal
    limit: int
    meetings: list[Meeting]
    ended_by: list[str]

    def __init__(self, deal: Deal, copy_of: WildState | None = None) -> None:
        """A new game of ``deal`` (or, for ``clone``, a copy of ``copy_of``, a game of it: a
        compiled (mypyc) state cannot be made without its __init__)."""
        if copy_of is not None:
            self._copy(copy_of)
            return
        self.deal = deal
        self.players = deal.players
        self._t = tables_for(deal.players)
        n = len(deal.players)
        self.limit = 3 if n == 3 else 2
        self._packs = [[CREATURE_INDEX[c] for c in reversed(deal.packs[p])] for p in deal.players]
        # each hand, in arrival order (a view shows it so); a few cards, so "is c held" is a scan
        self._held: list[list[int]] = [[] for _ in range(n)]
        for i in range(n):  # setup draws are not events
            for _ in range(self.limit):
                self._held[i].append(self._packs[i].pop())
        self._offer_card = [NO_CARD] * n
        self._offer_call = [NO_CARD] * n
        self._asks = [0] * n  # bit j of _asks[i]: seat i has asked seat j to meet
        self._dens: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        self._hole: list[tuple[int, int, bool]] = []
        self._log: list[Any] = []
        self._public_at = -1  # the log's length when _public was made (see view)
        self._public: tuple[dict[str, Any], dict[str, Any] | None] = ({}, None)
        self._over = False
        self.meetings = []
        self.ended_by = []

    # ----------------------------------------------------------------- the protocol

    @property
    def is_over(self) -> bool:
        return self._over

    def clone(self) -> Self:
        return type(self)(self.deal, self)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (and deep-copied) as a new game of its deal given its fields: a compiled
        (mypyc) state is made only through its __init__."""
        kept = {name: getattr(self, name) for name in _FIELDS}
        return type(self), (self.deal,), kept

    def __setstate__(self, kept: dict[str, Any]) -> None:
        for name, value in kept.items():
            setattr(self, name, value)
        self._public_at = -1

    def _copy(self, other: WildState) -> None:
        """Become a copy of ``other`` (every list its own, so neither game moves the other)."""
        self.deal = other.deal
        self.players = other.players
        self._t = other._t
        self.limit = other.limit
        self._packs = [p[:] for p in other._packs]
        self._held = [h[:] for h in other._held]
        self._offer_card = other._offer_card[:]
        self._offer_call = other._offer_call[:]
        self._asks = other._asks[:]
        self._dens = [d[:] for d in other._dens]
        self._hole = other._hole[:]
        self._log = other._log[:]
        self._public_at = -1
        self._over = other._over
        self.meetings = other.meetings[:]
        self.ended_by = other.ended_by[:]

    def legal_actions(self, player: str) -> list[Any]:
        """Every action ``player`` may take now (Nightfall is the table's, never a player's)."""
        t = self._t
        i = t.seat.get(player)
        if i is None or self._over:
            return []
        hand = self._held[i]
        off = self._offer_card[i]
        out: list[Any] = []
        if len(hand) + (off >= 0) < self.limit and self._packs[i]:
            out.append(t.draw[i])
        calls = t.call[i]
        discards = t.discard[i]
        for c in ALL_CREATURES:
            if c in hand:
                out += calls[c]
                out.append(discards[c])
            elif c == off:
                out += calls[c]
        if off >= 0:
            out.append(t.withdraw[i])
            out.append(t.reveal[i])
            call = self._offer_call[i]
            asked = self._asks[i]
            meets = t.meet[i]
            offer_call = self._offer_call
            for j in range(t.n):
                if j != i and offer_call[j] == call and not (asked >> j) & 1:
                    out.append(meets[j])
        return out

    @property
    def actors(self) -> tuple[str, ...]:
        """Everyone with a legal action: there are no turns in wild."""
        if self._over:
            return ()
        return tuple(p for p in self.players if self.legal_actions(p))

    @property
    def chance_due(self) -> bool:
        return False  # every Pack is shuffled at the deal; play has no chance events

    def chance_outcome(self, rng: Any = None) -> Any:
        raise IllegalAction("wild has no chance events after the deal")

    @property
    def progress(self) -> int:
        """Meetings so far: each one restarts the Nightfall clock."""
        return len(self.meetings)

    def quiet_action(self) -> Nightfall:
        return _NIGHTFALL

    def timeout_action(self, player: str) -> None:
        return None  # nobody is ever waited for in wild

    def ending(self) -> str | None:
        """``sundown``, ``nightfall`` or ``out_of_cards`` once over (None while in play)."""
        if not self._over:
            return None
        if self.ended_by:
            return "sundown"
        if self._log and type(self._log[-1]) is Nightfall:
            return "nightfall"
        if any(self._packs):  # ended with cards left: by the record's bound, as at Nightfall
            return "nightfall"
        return "out_of_cards"

    def tallies(self) -> dict[str, int]:
        """Meetings by outcome: ``mate``, ``eat``, ``avoid``."""
        counts = {MATE: 0, EAT: 0, AVOID: 0}
        for meeting in self.meetings:
            counts[meeting.outcome] += 1
        return counts

    def redact(self, event: dict[str, Any], viewer: str | None) -> dict[str, Any]:
        return redact(event, viewer)

    def apply(self, action: Any) -> list[dict[str, Any]]:
        """Apply one legal action, or raise IllegalAction with the reason (state unchanged).

        Returns the one event it made (as a list: the shape every game's ``apply`` has).
        """
        self.play(action)
        return [action.to_event()]

    def play(self, action: Any) -> None:
        """``apply`` without building the event line: the random-play and search loops'."""
        if self._over:
            raise IllegalAction("the game is over: no action is legal after it ends")
        cls = type(action)
        if cls is Nightfall:
            self._log.append(action)
            self._finish([])
            return
        if cls not in _KINDS:
            raise IllegalAction(f"{action!r} is not a wild action")
        i = self._t.seat.get(action.by)
        if i is None:
            raise IllegalAction(f"{action.by!r} is not playing at this table")
        if cls is Call:
            self._call(i, action)
        elif cls is Meet:
            self._meet(i, action)
        elif cls is Draw:
            self._draw(i)
        elif cls is Discard:
            self._discard(i, action)
        elif cls is Withdraw:
            self._withdraw(i)
        else:
            self._reveal_own(i)
        self._log.append(action)
        if (cls is Discard or cls is RevealOwn or cls is Meet) and not self._over:
            self._end_if_no_cards()  # only these can take a player's last card away
        if len(self._log) >= MAX_EVENTS and not self._over:  # a bounded record, whatever the
            self._finish([])  # options: as at Nightfall (a card is left somewhere, see ending)

    def winners(self) -> list[str]:
        """Highest score; then most Den cards from other Packs; still tied: all share the win."""
        if not self._over:
            return []
        scores = self.scores()
        keys = [(scores[p], self._foreign(i)) for i, p in enumerate(self.players)]
        best = max(keys)
        return [p for p, key in zip(self.players, keys, strict=True) if key == best]

    def scores(self) -> dict[str, int]:
        """Den points (with the mating bonus if on); Objectives count once the game is over."""
        bonus = self.deal.options["mating_bonus"]
        result = {}
        for i, p in enumerate(self.players):
            den = self._dens[i]
            points = len(den) + (self._foreign(i) if bonus else 0)
            if self._over and self.deal.objectives is not None and self.objective_scores(p):
                points += OBJECTIVE_BY_ID[self.deal.objectives[p]].points
            result[p] = points
        return result

    def view(self, player: str | None) -> dict[str, Any]:
        """``player``'s view. What every seat sees alike is kept until the state changes (every
        change appends to the log): a table sends four views of each move."""
        return seat_view(self, player, self._kept_public())

    def view_in_parts(self, player: str | None) -> list[dict[str, Any]]:
        """``self.view(player)`` as dicts whose keys, merged in order, are the view; the table
        is one object for every seat until the state changes (``core.game.view_in_parts``)."""
        return seat_view_parts(self, player, self._kept_public())

    def _kept_public(self) -> tuple[dict[str, Any], dict[str, Any] | None]:
        if self._public_at != len(self._log):
            self._public = public_part(self)
            self._public_at = len(self._log)
        return self._public

    def view_part(self, player: str | None, key: str) -> Any:
        """``self.view(player)[key]`` for a key answered alone (``view.view_part``), else
        KeyError: what a lazy view (``core.driver.LazyView``) reads first."""
        return view_part(self, player, key)

    def summary(self) -> dict[str, Any]:
        return summary_of(self)

    def header(self) -> dict[str, Any]:
        deal = self.deal
        header: dict[str, Any] = {
            "game": "wild",
            "version": 1,
            "players": list(deal.players),
            "options": _recorded(deal.options),
        }
        if deal.seed is not None:
            header["seed"] = deal.seed
        header["packs"] = {p: list(deal.packs[p]) for p in deal.players}
        if deal.objectives is not None:
            header["objectives"] = dict(deal.objectives)
        return header

    def events(self) -> list[dict[str, Any]]:
        return [a.to_event() for a in self._log]

    # ----------------------------------------------------------- read-only helpers

    @property
    def history(self) -> Sequence[Any]:
        """Every action applied so far, in order (the record's events as objects)."""
        return tuple(self._log)

    def hand(self, player: str) -> list[str]:
        """``player``'s hand in the order the cards arrived: drawn, or back from the offer
        (hidden information: not for other seats)."""
        return [CREATURES[c] for c in self._held[self._t.seat[player]]]

    def offer(self, player: str) -> tuple[str, str] | None:
        """``player``'s offer as (card, call), or None (the card is hidden from other seats)."""
        i = self._t.seat[player]
        if self._offer_card[i] < 0:
            return None
        return CREATURES[self._offer_card[i]], CREATURES[self._offer_call[i]]

    def offer_call(self, player: str) -> str | None:
        """The Call ``player`` is making, if any (public)."""
        call = self._offer_call[self._t.seat[player]]
        return CREATURES[call] if call >= 0 else None

    def pack(self, player: str) -> list[str]:
        """``player``'s Pack, top first (hidden information: for tests and umpires only)."""
        return [CREATURES[c] for c in reversed(self._packs[self._t.seat[player]])]

    def pack_size(self, player: str) -> int:
        return len(self._packs[self._t.seat[player]])

    def hand_size(self, player: str) -> int:
        return len(self._held[self._t.seat[player]])

    def den(self, player: str) -> list[tuple[str, str]]:
        """``player``'s Den as (creature, owner) pairs, in the order the cards arrived."""
        return [(CREATURES[c], self.players[o]) for c, o in self._dens[self._t.seat[player]]]

    def watering_hole(self) -> list[tuple[str, str, bool]]:
        """The Watering Hole as (creature, owner, face_up), oldest first (face-down is hidden)."""
        return [(CREATURES[c], self.players[o], up) for c, o, up in self._hole]

    def asks(self) -> list[tuple[str, str]]:
        """Pending asks as (asker, asked), in seat order (public: asking is done in the open)."""
        n = self._t.n
        return [
            (self.players[i], self.players[j])
            for i in range(n)
            for j in range(n)
            if (self._asks[i] >> j) & 1
        ]

    def objective(self, player: str) -> str | None:
        """``player``'s Objective id (hidden from other seats until the end), or None."""
        objectives = self.deal.objectives
        return objectives[player] if objectives is not None else None

    def chronicle(self, player: str) -> Chronicle:
        calls = [(a.card, a.call) for a in self._log if type(a) is Call and a.by == player]
        den = self.den(player)
        return Chronicle(player, self.players, self.meetings, den, self.ended_by, calls)

    def objective_fulfilled(self, player: str) -> bool:
        """Whether ``player``'s Objective's condition holds now (withholding not considered)."""
        objective_id = self.objective(player)
        if objective_id is None:
            return False
        return OBJECTIVE_BY_ID[objective_id].check(self.chronicle(player))

    # The same read-outs by seat index, cards as indices into ``CREATURES`` (the RL encoders'
    # fast path: no names looked up, no lists built). Read-only; hidden information as above.

    def held_at(self, seat: int) -> Sequence[int]:
        """The hand of ``seat`` (hidden information), as ``hand`` orders it."""
        return self._held[seat]

    def offer_at(self, seat: int) -> tuple[int, int]:
        """(card, call) of ``seat``'s offer, -1 each if none (the card is hidden information)."""
        return self._offer_card[seat], self._offer_call[seat]

    def hand_size_at(self, seat: int) -> int:
        return len(self._held[seat])

    def pack_size_at(self, seat: int) -> int:
        return len(self._packs[seat])

    def den_at(self, seat: int) -> Sequence[tuple[int, int]]:
        """``seat``'s Den as (creature, owner's seat) pairs, as ``den`` orders it."""
        return self._dens[seat]

    def hole_at(self) -> Sequence[tuple[int, int, bool]]:
        """The Watering Hole as (creature, owner's seat, face_up), oldest first."""
        return self._hole

    def asks_at(self, seat: int) -> int:
        """Bit j set: ``seat`` has asked seat j to meet."""
        return self._asks[seat]

    def face_down_count(self, player: str) -> int:
        seat = self._t.seat[player]
        return sum(1 for _, o, up in self._hole if o == seat and not up)

    def objective_scores(self, player: str) -> bool:
        """Fulfilled, and not withheld for too many own cards face-down at the Watering Hole."""
        return (
            self.objective_fulfilled(player)
            and self.face_down_count(player) <= MAX_FACE_DOWN_FOR_OBJECTIVE
        )

    def foreign_den_cards(self, player: str) -> int:
        return self._foreign(self._t.seat[player])

    # ------------------------------------------------------------------ the moves

    def _draw(self, i: int) -> None:
        if len(self._held[i]) + (self._offer_card[i] >= 0) >= self.limit:
            raise IllegalAction(
                f"{self.players[i]} already holds {self.limit} cards counting the offer "
                f"(the hand limit is {self.limit})"
            )
        pack = self._packs[i]
        if not pack:
            raise IllegalAction(f"{self.players[i]}'s Pack is empty")
        self._held[i].append(pack.pop())

    def _call(self, i: int, action: Call) -> None:
        c = CREATURE_INDEX.get(action.card, NO_CARD)
        s = CREATURE_INDEX.get(action.call, NO_CARD)
        if s < 0:
            raise IllegalAction(f"{action.call!r} is not a creature's Call")
        hand = self._held[i]
        off = self._offer_card[i]
        if c < 0 or (c not in hand and off != c):
            raise IllegalAction(f"{self.players[i]} has no {action.card} in hand to call with")
        if off >= 0:  # the old offer returns to the hand first
            hand.append(off)
            self._lapse_asks(i)
        hand.remove(c)
        self._offer_card[i] = c
        self._offer_call[i] = s

    def _withdraw(self, i: int) -> None:
        off = self._offer_card[i]
        if off < 0:
            raise IllegalAction(f"{self.players[i]} has no offer to withdraw")
        self._held[i].append(off)
        self._offer_card[i] = self._offer_call[i] = NO_CARD
        self._lapse_asks(i)

    def _discard(self, i: int, action: Discard) -> None:
        c = CREATURE_INDEX.get(action.card, NO_CARD)
        if c < 0 or c not in self._held[i]:
            raise IllegalAction(
                f"{self.players[i]} has no {action.card} in hand to discard "
                "(an offered card cannot be discarded)"
            )
        self._held[i].remove(c)
        self._hole.append((c, i, False))

    def _reveal_own(self, i: int) -> None:
        off = self._offer_card[i]
        if off < 0:
            raise IllegalAction(f"{self.players[i]} has no offer to reveal")
        self._offer_card[i] = self._offer_call[i] = NO_CARD
        self._hole.append((off, i, False))
        self._lapse_asks(i)

    def _meet(self, i: int, action: Meet) -> None:
        j = self._t.seat.get(action.with_)
        me = self.players[i]
        if j is None:
            raise IllegalAction(f"{action.with_!r} is not playing at this table")
        if j == i:
            raise IllegalAction(f"{me} cannot meet themselves")
        if self._offer_call[i] < 0:
            raise IllegalAction(f"{me} has made no Call, so cannot ask to meet")
        if self._offer_call[j] < 0:
            raise IllegalAction(f"{action.with_} has made no Call, so cannot be met")
        if self._offer_call[i] != self._offer_call[j]:
            raise IllegalAction(
                f"{me} calls {CREATURES[self._offer_call[i]]} but {action.with_} calls "
                f"{CREATURES[self._offer_call[j]]}: only the same Calls meet"
            )
        if (self._asks[i] >> j) & 1:
            raise IllegalAction(f"{me} has already asked {action.with_} to meet")
        if (self._asks[j] >> i) & 1:
            self._resolve(j, i)
        else:
            self._asks[i] |= 1 << j

    def _resolve(self, a: int, b: int) -> None:
        """Seat ``a`` asked first, ``b`` agreed; the asker's card is always appended first."""
        ca, cb, call = self._offer_card[a], self._offer_card[b], self._offer_call[a]
        self._offer_card[a] = self._offer_call[a] = NO_CARD
        self._offer_card[b] = self._offer_call[b] = NO_CARD
        self._lapse_asks(a)
        self._lapse_asks(b)
        eater: int | None = None
        met = relation_at(ca, cb)
        if met == SAME and call == ca:  # both honest: each Den gets the other's card
            outcome = MATE
            self._dens[a].append((cb, b))
            self._dens[b].append((ca, a))
        elif met in (EATS, EATEN):  # neighbours: the eater takes both, whatever the Call
            outcome = EAT
            eater = a if met == EATS else b
            self._dens[eater].append((ca, a))
            self._dens[eater].append((cb, b))
        else:  # the same creature both hunting, or two steps apart: face-up to the Hole
            outcome = AVOID
            self._hole.append((ca, a, True))
            self._hole.append((cb, b, True))
        names = self.players
        self.meetings.append(
            Meeting(
                names[a],
                names[b],
                CREATURES[call],
                CREATURES[ca],
                CREATURES[cb],
                outcome,
                None if eater is None else names[eater],
            )
        )
        ended = [s for s in sorted((a, b)) if not self._held[s] and not self._packs[s]]
        if ended:
            self._finish([names[s] for s in ended])

    def _lapse_asks(self, i: int) -> None:
        asks = self._asks
        asks[i] = 0
        mask = ~(1 << i)
        for j in range(self._t.n):
            asks[j] &= mask

    def _end_if_no_cards(self) -> None:
        for i in range(self._t.n):
            if self._held[i] or self._offer_card[i] >= 0 or self._packs[i]:
                return
        self._finish([])

    def _finish(self, ended_by: list[str]) -> None:
        """Sundown (or Nightfall): hands and offers go back face-down to their Packs."""
        self._over = True
        self.ended_by = ended_by
        for i in range(self._t.n):
            returned = self._held[i]
            if self._offer_card[i] >= 0:
                returned.append(self._offer_card[i])
            self._packs[i][:0] = returned  # under the Pack
            self._held[i] = []
            self._offer_card[i] = self._offer_call[i] = NO_CARD
            self._asks[i] = 0

    def _foreign(self, i: int) -> int:
        return sum(1 for _, owner in self._dens[i] if owner != i)

    def __repr__(self) -> str:
        status = "over" if self._over else f"{len(self._log)} events"
        return f"<WildState {', '.join(self.players)}: {status}>"


def _recorded(options: dict[str, Any]) -> dict[str, Any]:
    """The options a record names: the Pack options only when they make smaller Packs, so that a
    record of the sheet's game reads as it did before those options existed."""
    return {
        name: value
        for name, value in options.items()
        if name not in PACK_OPTIONS or value != PACK_DEFAULTS[name]
    }


PACK_DEFAULTS = {name: INFO.option(name).default for name in PACK_OPTIONS}

_KINDS = frozenset((Call, Meet, Draw, Discard, Withdraw, RevealOwn))


by_arguments(Tables, lambda t: (t.players,))  # copy and pickle: bestiary.core.values
