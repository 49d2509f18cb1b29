"""The critters State: turns, moves, action cards and their answers, winning (docs/rulings.md).

Internally players are seat indices and a tableau is a list of ``(kind, cards)`` tuples (oldest
first); a set is full when it holds exactly ``set_size`` cards (all-wild full sets are never
made). The Draw Pile is stored top *last* so that drawing is a cheap ``pop()``.
"""

from __future__ import annotations

import random
from typing import Any, Final, Self

from bestiary.core.chance import RandomSource, shuffle
from bestiary.core.errors import IllegalAction
from bestiary.core.records import Event, Header
from bestiary.critters.actions import (
    PLAYED,
    Allow,
    Complete,
    CrittersAction,
    Discard,
    Down,
    GameChanger,
    HopOver,
    Pass,
    PlayCard,
    Played,
    PlaySet,
    Protect,
    RandomCard,
    Reshuffle,
    SayNo,
    SwapWild,
    UltimateCollector,
    action_from_event,
)
from bestiary.critters.cards import NO, WILD
from bestiary.critters.effects import (
    DRAW,
    PROTECT_SET,
    SKIP_TURN,
    STEAL_SET,
    SWAP_DOWN,
    TAKE_DOWN,
    TAKE_RANDOM,
)
from bestiary.critters.info import MAX_EVENTS
from bestiary.critters.kept import interned, seat_moves
from bestiary.critters.moves import Guards, turn_moves
from bestiary.critters.refusals import refusal
from bestiary.critters.setup import Table
from bestiary.critters.summary import summary_of
from bestiary.critters.tableau import (
    CardSet,
    incomplete,
    kinds_full,
    swappable,
)
from bestiary.critters.view import (
    Public,
    card_sets,
    public_part,
    redact,
    table_of_view,
    unseen_cards,
    view_of,
    view_parts,
)

# keys of what a state keeps until it changes (``_kept``)
_PUBLIC: Final = ("public", 0)
_TABLEAU: Final = "tableau"


class CrittersState:
    """One game of critters in progress (the ``State`` protocol of bestiary.core.game)."""

    def __init__(
        self, table: Table, chance_seed: int | None, hands: list[list[str]], draw: list[str]
    ) -> None:
        """A game on ``table`` before its first turn begins: ``hands`` dealt, the Draw Pile
        ``draw`` (top last), nothing down, the first player to play. ``deal`` and ``from_view``
        are the two ways in.

        Every field of a game is declared here, once: a copy (``clone``) and pickling take
        them all from this declaration (``_fields``), but for what is only kept (``_KEPT``).
        """
        self._t = table
        self.players = table.players
        # Chance is always an explicit event (a reshuffle; a take_random card's pick), sampled
        # by the driver. A record made from a seed alone gets reshuffle k from
        # random.Random(f"...{seed}:{k}") instead (``chance_outcome(None)``): the same game on
        # every machine.
        self._chance_seed = chance_seed
        self._shuffles = 0
        self._hands = hands
        self._draw = draw
        self._centre: list[str] = []
        self._tabs: list[list[CardSet]] = [[] for _ in table.players]
        self._turn = table.first
        self._awaiting = -1  # the seat who must answer the pending action card, or -1
        self._pending: CrittersAction | None = None
        self._chance = False  # a chance event is due (a reshuffle, or the pick of _pending)
        self._quiet = 0
        self._began_empty = False
        # The stalled ending: reshuffles since the table last held a new full set (full sets are
        # never broken up or lost, so a new one is one just made: see _made_full).
        self._stale = 0
        self._winners: tuple[int, ...] | None = None
        self._ending: str | None = None
        # seats whose next turn is skipped (a deck's skip_turn card), in the order played
        self._skips: tuple[int, ...] = ()
        # protected sets (a deck's protect_set card): (seat, kind, full), until that seat's
        # turn comes round again
        self._guards: Guards = ()
        self._log: list[CrittersAction] = []
        # answers kept until the state changes (see _kept): a table asks for each seat's view
        # and the mover's actions, then again for the actions to check the move it sends
        self._memo_at = -1
        self._memos: dict[tuple[str, int], Any] = {}

    @classmethod
    def deal(cls, table: Table, chance_seed: int | None) -> Self:
        """The start of a game: ``table.deal`` dealt one card at a time from the first player,
        the rest the Draw Pile, and the first turn's draw made."""
        n = len(table.players)
        hands: list[list[str]] = [[] for _ in range(n)]
        deal = table.deal
        dealt = n * table.hand_limit
        for i in range(dealt):
            hands[(table.first + i) % n].append(deal[i])
        state = cls(table, chance_seed, hands, list(reversed(deal[dealt:])))
        state._begin_turn(table.first)
        return state

    @classmethod
    def from_view(cls, view: dict[str, Any], player: str, rng: random.Random) -> Self:
        """A state ``player`` cannot tell from the real one: what their view hides (other
        hands, the Draw Pile's order) dealt afresh by ``rng`` (determinization for search).

        The result owns its own chance seed (it reshuffles by itself during search) and has no
        record history: its ``header()`` describes no real deal.
        """
        pool = unseen_cards(view, player)
        shuffle(rng, pool)
        table = table_of_view(view)
        hands: list[list[str]] = []
        for p in table.players:
            if p == player:
                hands.append(list(view["hand"]))
            else:
                n = view["hand_sizes"][p]
                hands.append(pool[:n])
                del pool[:n]
        seat = table.seat
        over = bool(view["over"])
        state = cls(table, rng.getrandbits(64), hands, pool)
        state._centre = list(view["centre_pile"])
        state._tabs = [card_sets(view, p) for p in table.players]
        if view["turn"] is not None:
            state._turn = seat[view["turn"]]
        state._awaiting = -1 if view["awaiting"] is None else seat[view["awaiting"]]
        state._pending = None if view["pending"] is None else action_from_event(view["pending"])
        state._chance = bool(view["chance_due"])
        state._quiet = int(view["quiet_turns"])
        state._began_empty = bool(view["began_with_empty_draw_pile"])
        state._stale = int(view.get("stale_reshuffles", 0))
        if over:
            state._winners = tuple(seat[w] for w in view["winners"])
            state._ending = "won"
        state._skips = tuple([seat[p] for p in view.get("skip_next", ())])
        state._guards = tuple(
            [(seat[p], m["kind"], bool(m["full"])) for p, m in view.get("protected", ())]
        )
        return state

    # ----------------------------------------------------------------- public read-outs
    @property
    def is_over(self) -> bool:
        return self._winners is not None

    @property
    def set_size(self) -> int:
        return self._t.set_size

    @property
    def sets_to_win(self) -> int:
        return self._t.sets_to_win

    @property
    def hand_limit(self) -> int:
        return self._t.hand_limit

    @property
    def kinds(self) -> tuple[str, ...]:
        return self._t.kinds

    @property
    def table(self) -> Table:
        return self._t

    @property
    def turn(self) -> str | None:
        return None if self._winners is not None else self.players[self._turn]

    @property
    def awaiting(self) -> str | None:
        return None if self._awaiting < 0 else self.players[self._awaiting]

    @property
    def pending(self) -> CrittersAction | None:
        return self._pending

    @property
    def chance_due(self) -> bool:
        return self._chance

    @property
    def actors(self) -> tuple[str, ...]:
        """The one player who must act, as a tuple (the State protocol's shape)."""
        player = self.to_act
        return () if player is None else (player,)

    @property
    def progress(self) -> int:
        return len(self._log)  # critters has no quiet clock; every event is progress

    def quiet_action(self) -> None:
        return None

    def timeout_action(self, player: str) -> Allow | None:
        """An awaited target who does not answer in time is taken to ``allow``."""
        if self._awaiting >= 0 and self.players[self._awaiting] == player:
            allow: Allow = interned(Allow, player)
            return allow
        return None

    def ending(self) -> str | None:
        """``won`` (someone has the sets), ``exhausted`` or ``stalled`` once over (see
        ``INFO.endings``); None while in play."""
        return self._ending

    def tallies(self) -> dict[str, int]:
        return {}  # no outcome beyond the winners; the lab counts moves from the record

    def redact(self, event: Event, viewer: str | None) -> Event:
        return redact(event, viewer)

    @property
    def to_act(self) -> str | None:
        """Who must act next (the awaited target, else the turn player); None at chance or end."""
        if self._winners is not None or self._chance:
            return None
        return self.players[self._awaiting if self._awaiting >= 0 else self._turn]

    @property
    def quiet_turns(self) -> int:
        """Consecutive turns that began with an empty Draw Pile and ended in pass/discard."""
        return self._quiet

    @property
    def stale_reshuffles(self) -> int:
        """Reshuffles since a new full set was last made (the stalled ending counts them)."""
        return self._stale

    @property
    def began_with_empty_draw_pile(self) -> bool:
        return self._began_empty

    @property
    def skip_next(self) -> list[str]:
        """The players whose next turn is skipped (a skip_turn card was played on them)."""
        return [self.players[i] for i in self._skips]

    @property
    def protected(self) -> list[tuple[str, str, bool]]:
        """The protected sets (a protect_set card was played): (owner, kind, full), in the
        order protected."""
        return [(self.players[i], kind, full) for i, kind, full in self._guards]

    @property
    def random_card_due(self) -> bool:
        """A take_random card is taking effect: chance picks a card of its target's hand."""
        return self._chance and self._pending is not None

    def hand(self, player: str) -> list[str]:
        """``player``'s hand (hidden information: not for other seats)."""
        return list(self._hands[self._t.seat[player]])

    def hand_size(self, player: str) -> int:
        return len(self._hands[self._t.seat[player]])

    def hand_at(self, seat: int) -> list[str]:
        """The hand of ``seat`` (an index): the state's own list, to read and never change (for
        the refusals and the encoders; a list, not a Sequence, so compiled readers iterate it
        natively)."""
        return self._hands[seat]

    def tableau_at(self, seat: int) -> list[CardSet]:
        """The sets in front of ``seat``, oldest first: the state's own list, to read and never
        change (as ``hand_at``)."""
        return self._tabs[seat]

    def tableau(self, player: str) -> list[dict[str, Any]]:
        """``player``'s sets, oldest first, JSON-shaped. Read-only: every view made before the
        state changes shares it (four seats' views of one move cost one)."""
        seat = self._t.seat[player]
        kept = self._kept()
        key = (_TABLEAU, seat)
        shown: list[dict[str, Any]] | None = kept.get(key)
        if shown is None:
            shown = kept[key] = self._tableau(seat)
        return shown

    def _tableau(self, seat: int) -> list[dict[str, Any]]:
        size = self._t.set_size
        return [
            {"kind": kind, "cards": list(cards), "full": len(cards) == size}
            for kind, cards in self._tabs[seat]
        ]

    def _kept(self) -> dict[tuple[str, int], Any]:
        """What is kept for this state: every change appends to the log, so its length dates
        what is kept (nothing on the plain path: ``Table.keep``, bestiary.critters.kept)."""
        if not self._t.keep:
            return {}
        if self._memo_at != len(self._log):
            self._memo_at = len(self._log)
            self._memos = {}
        return self._memos

    @property
    def draw_pile(self) -> list[str]:
        """The Draw Pile, top first (hidden information: for tests and determinization)."""
        return self._draw[::-1]

    @property
    def draw_pile_size(self) -> int:
        return len(self._draw)

    @property
    def centre_pile(self) -> list[str]:
        return list(self._centre)

    def winners(self) -> list[str]:
        return [] if self._winners is None else [self.players[i] for i in self._winners]

    def scores(self) -> dict[str, int]:
        size = self._t.set_size
        return {name: kinds_full(self._tabs[i], size) for i, name in enumerate(self.players)}

    def down_cards(self, player: str) -> int:
        return sum(len(cards) for _, cards in self._tabs[self._t.seat[player]])

    def view(self, player: str | None) -> dict[str, Any]:
        """``player``'s view; what every seat sees alike is kept until the state changes."""
        return view_of(self, player, self._kept_public())

    def view_in_parts(self, player: str | None) -> list[dict[str, Any]]:
        """``self.view(player)`` as dicts whose keys, merged in order, are the view; the table
        and the play are the same objects for every seat until the state changes
        (``core.game.view_in_parts``)."""
        return view_parts(self, player, self._kept_public())

    def _kept_public(self) -> Public:
        kept = self._kept()
        public: Public | None = kept.get(_PUBLIC)
        if public is None:
            public = kept[_PUBLIC] = public_part(self)
        return public

    def summary(self) -> dict[str, Any]:
        return summary_of(self)

    def header(self) -> Header:
        t = self._t
        head: Header = {
            "game": "critters",
            "version": 1,
            "players": list(t.players),
            "options": t.options(),
        }
        if t.seed is not None:
            head["seed"] = t.seed
        head["deck"] = list(t.deal)
        own = t.deck.own_cards
        if own:  # the deck's own action cards, so that the record replays anywhere
            head["cards"] = {card.name: card.spec() for card in own}
        head["first"] = t.players[t.first]
        return head

    def events(self) -> list[Event]:
        log, over = self._log, self._winners is not None
        return [self._event(a, over and i == len(log) - 1) for i, a in enumerate(log)]

    @property
    def history(self) -> tuple[CrittersAction, ...]:
        return tuple(self._log)

    # ----------------------------------------------------------------- copying
    # Through the constructor, then field by field as ``__init__`` declares them: a compiled
    # (mypyc) state has no __dict__ to copy and cannot be made without its __init__.
    def clone(self) -> Self:
        other = type(self)(self._t, self._chance_seed, [h[:] for h in self._hands], self._draw[:])
        for name in _fields(self):
            setattr(other, name, _copied(getattr(self, name)))
        return other

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (and deep-copied) through the constructor too, for the same reason."""
        made = (self._t, self._chance_seed, self._hands, self._draw)
        return type(self), made, {name: getattr(self, name) for name in _fields(self)}

    def __setstate__(self, fields: dict[str, Any]) -> None:
        for name, value in fields.items():
            setattr(self, name, value)

    def shuffle_draw_pile(self, rng: random.Random) -> None:
        """Put the Draw Pile in a fresh random order (its order is nobody's knowledge: a search
        that knows every hand still cannot know it, ``bestiary.sim.ceiling``). What the state
        keeps until it changes (views, legal actions) holds no card of the pile: it stays."""
        shuffle(rng, self._draw)

    # ----------------------------------------------------------------- chance
    def chance_outcome(self, rng: random.Random | None = None) -> Reshuffle | RandomCard:
        """What chance does now (only meaningful while ``chance_due``): a random reshuffle of
        the centre pile, or, while a take_random card takes effect, a card of its target's hand
        picked at random.

        ``rng`` None: the outcome the record's own seed gives (for records that carry no chance
        events); IllegalAction if the game has no seed.
        """
        pending = self._pending
        if isinstance(pending, PLAYED):  # a take_random card: a card of its target's hand
            if rng is None:
                if self._chance_seed is None:
                    raise IllegalAction("a random_card event is due here")
                rng = random.Random(f"critters random card {self._chance_seed}:{len(self._log)}")
            target = getattr(pending, "target", None)
            hand = self._hands[self._t.seat[target]] if target is not None else []
            return RandomCard(target or "", pending.by, hand[rng.randrange(len(hand))])
        if rng is None:
            if self._chance_seed is None:
                raise IllegalAction("a reshuffle event is due here")
            rng = random.Random(f"critters reshuffle {self._chance_seed}:{self._shuffles}")
        order = self._centre[:]
        shuffle(rng, order)
        return Reshuffle(tuple(order))

    # ----------------------------------------------------------------- legal actions
    def legal_actions(self, player: str) -> list[CrittersAction]:
        """Every legal action of ``player`` now, in a stable order (empty if not theirs to act).

        Kept until the state changes (a fresh list is returned each time): a table asks for
        them to offer the mover, then ``apply`` asks again to check the move sent. Looked up in
        ``_kept`` directly, as every kept answer is: a ``partial`` to make it would be a call
        through Python objects in compiled code."""
        seat = self._t.seat.get(player)
        if seat is None or self._winners is not None or self._chance:
            return []
        kept = self._kept()
        key = ("legal", seat)
        acts: list[CrittersAction] | None = kept.get(key)
        if acts is None:
            acts = kept[key] = self._legal_now(seat)
        return acts[:]

    def legal_actions_once(self, player: str) -> list[CrittersAction]:
        """``legal_actions``, made anew and not kept: for a caller that asks once per position
        (``bestiary.adapters.vector``: the learner's mask, a random opponent's pick), which
        would only pay for keeping them."""
        seat = self._t.seat.get(player)
        if seat is None or self._winners is not None or self._chance:
            return []
        return self._legal_now(seat)

    def _legal_now(self, p: int) -> list[CrittersAction]:
        """The rules' legal actions of seat ``p``: an awaited target answers (NO! only with a
        ``no`` card); the turn player has the moves of ``turn_moves``, then pass at or below the
        hand limit, or, above it with no move at all, a discard of any card."""
        by = self.players[p]
        if self._awaiting >= 0:
            if p != self._awaiting:
                return []
            book = seat_moves(self._t, p, by)
            return [book.say_no, book.allow] if NO in self._hands[p] else [book.allow]
        if p != self._turn:
            return []
        hand = self._hands[p]
        acts = turn_moves(self._t, self._hands, self._tabs, p, by, self._guards)
        if len(hand) <= self._t.hand_limit:
            acts.append(seat_moves(self._t, p, by).passes)
        elif not acts:
            acts = [interned(Discard, by, c) for c in self._t.card_order if c in hand]
        return acts

    # ----------------------------------------------------------------- applying
    def apply(self, action: Any) -> list[Event]:
        """Apply a legal action or raise IllegalAction with a reason (state unchanged).

        Returns the one event it made. While a reshuffle is due only a reshuffle is legal.
        """
        if self._winners is not None:
            raise IllegalAction("the game is over")
        if isinstance(action, Reshuffle):
            self._check_reshuffle(action)
            self._reshuffle(action)
            return [action.to_event()]
        if isinstance(action, RandomCard):
            self._check_random_card(action)
            self._random_card(action)
            return [self._event(action, self.is_over)]
        if self._chance:
            if self._pending is not None:
                raise IllegalAction(
                    f"a card of {getattr(self._pending, 'target', None)}'s hand must first be "
                    "picked at random (a random_card event is due here)"
                )
            raise IllegalAction(
                "the centre pile must be reshuffled into a new Draw Pile first (a reshuffle "
                "event is due here)"
            )
        reason = refusal(self, action)
        if reason is not None:
            raise IllegalAction(reason)
        self.play_legal(action)
        # is_over, not `self._winners is not None`: mypy (and so mypyc's compiled check) still
        # holds _winners as None from the test above, and the compiled build would refuse it.
        return [self._event(action, self.is_over)]

    def _event(self, action: CrittersAction, last: bool) -> Event:
        """The record's event of ``action``; the one that ended the game says why (``ending``,
        an extra key that replays ignore: the rules reach the same end by themselves)."""
        event = action.to_event()
        return {**event, "ending": self._ending} if last else event

    def _check_random_card(self, action: RandomCard) -> None:
        pending = self._pending
        if not self._chance or not isinstance(pending, PLAYED):
            raise IllegalAction("no card is being taken at random here")
        target = getattr(pending, "target", None)
        if (action.from_, action.to) != (target, pending.by):
            raise IllegalAction(
                f"the {pending.play} takes a card of {target}'s hand into {pending.by}'s, "
                f"not of {action.from_}'s into {action.to}'s"
            )
        if action.card not in self._hands[self._t.seat[action.from_]]:
            raise IllegalAction(f"{action.from_} holds no {action.card}")

    def _check_reshuffle(self, action: Reshuffle) -> None:
        if self._pending is not None:
            raise IllegalAction("a random_card event is due here, not a reshuffle")
        if not self._chance:
            raise IllegalAction("no reshuffle is due here (the Draw Pile is not being renewed)")
        if sorted(action.order) != sorted(self._centre):
            raise IllegalAction("a reshuffle must hold exactly the centre pile's cards")

    def random_playout(self, rng: random.Random, max_steps: int) -> int:
        """Random legal play by whoever must act (chance included) until the end or
        ``max_steps``; the number of steps. Legal actions are applied without re-checking."""
        steps = 0
        source = RandomSource(rng)
        while steps < max_steps and self._winners is None:
            if self._chance:
                self.play_legal(self.chance_outcome(rng))
            else:
                seat = self._awaiting if self._awaiting >= 0 else self._turn
                self.play_legal(source.pick(self._legal_now(seat)))  # once a position: not kept
            steps += 1
        return steps

    def play_legal(self, action: CrittersAction) -> None:
        """Apply ``action``, taken from this state's ``legal_actions`` (or ``chance_outcome``)
        just now, without checking it again: the trusted apply of the hot paths (learners,
        ``bestiary.adapters.vector``; search playouts, ``bestiary.bots.critters_search``).

        It makes the same change as ``apply`` but returns no event; an action that is not legal
        here leaves the state undefined, so anything from outside goes through ``apply``.

        By type tests, the commonest first: the compiled core calls each handler directly,
        where a table of handlers would call them as Python objects."""
        if isinstance(action, Down):
            self._do_down(action)
        elif isinstance(action, Pass):
            self._do_pass(action)
        elif isinstance(action, Allow):
            self._do_allow(action)
        elif isinstance(action, Discard):
            self._do_discard(action)
        elif isinstance(action, (HopOver, GameChanger, UltimateCollector, PlayCard, Protect)):
            self._do_action_card(action)
        elif isinstance(action, PlaySet):
            self._do_set(action)
        elif isinstance(action, Complete):
            self._do_complete(action)
        elif isinstance(action, SwapWild):
            self._do_swap_wild(action)
        elif isinstance(action, SayNo):
            self._do_no(action)
        elif isinstance(action, RandomCard):
            self._random_card(action)
        else:
            self._reshuffle(action)

    def _reshuffle(self, action: Reshuffle) -> None:
        order = action.order
        self._log.append(action)
        self._shuffles += 1
        self._stale += 1
        self._draw = list(reversed(order))
        self._centre = []
        self._chance = False
        if self._draw:
            self._hands[self._turn].append(self._draw.pop())

    def _begin_turn(self, seat: int) -> None:
        self._turn = seat
        self._began_empty = not self._draw
        if len(self._log) >= MAX_EVENTS:  # however the options let it go on: a bounded record
            self._ranked_ending("stalled")
            return
        if self._draw:
            self._hands[seat].append(self._draw.pop())
        elif self._centre:
            if self._stale >= self._t.stall_reshuffles:
                self._ranked_ending("stalled")  # it would only go round again
            else:
                self._chance = True

    def _end_turn(self, quiet: bool) -> None:
        if self._winners is not None:
            return
        self._quiet = self._quiet + 1 if quiet and self._began_empty else 0
        n = len(self.players)
        if self._quiet >= n:
            self._ranked_ending("exhausted")
            return
        seat = (self._turn + 1) % n
        if self._guards:  # a seat's protection lasts until its turn comes round, skipped or not
            self._unguard(seat)
        while self._skips and seat in self._skips:  # that seat's turn is skipped, once
            self._skips = tuple(s for s in self._skips if s != seat)
            seat = (seat + 1) % n
            if self._guards:
                self._unguard(seat)
        self._begin_turn(seat)

    def _unguard(self, seat: int) -> None:
        self._guards = tuple(g for g in self._guards if g[0] != seat)

    def _ranked_ending(self, ending: str) -> None:
        """The end by ranking (RULINGS.md's exhausted ending; the stalled one ranks alike):
        most different full-set kinds, then most Down Cards, then a shared win."""
        size = self._t.set_size
        ranks = [(kinds_full(tab, size), sum(len(c) for _, c in tab)) for tab in self._tabs]
        best = max(ranks)
        self._finish(tuple(i for i, r in enumerate(ranks) if r == best), ending)

    def _finish(self, seats: tuple[int, ...], ending: str) -> None:
        self._winners = seats
        self._ending = ending
        self._awaiting = -1
        self._pending = None

    def _made_full(self) -> None:
        """A set just became full: the table holds a new full set (the stalled ending's count
        starts again). Every move that fills a set calls it, so no move recounts the table."""
        self._stale = 0

    def _check_win(self, p: int, q: int = -1) -> None:
        """Seat ``p`` (and ``q``, an allowed action card's target) wins with full sets of
        enough kinds; both at once share the win."""
        goal, size = self._t.sets_to_win, self._t.set_size
        p_won = kinds_full(self._tabs[p], size) >= goal
        q_won = q >= 0 and kinds_full(self._tabs[q], size) >= goal
        if p_won and q_won:
            self._finish((min(p, q), max(p, q)), "won")
        elif p_won or q_won:
            self._finish((p if p_won else q,), "won")

    # tableau changes ------------------------------------------------------
    def _arrive(self, seat: int, kind: str, card: str) -> None:
        tab = self._tabs[seat]
        i = incomplete(tab, kind, self._t.set_size)
        if i < 0:
            tab.append((kind, (card,)))
            i = len(tab) - 1
        else:
            tab[i] = (kind, (*tab[i][1], card))
        if len(tab[i][1]) == self._t.set_size:
            self._made_full()

    def _leave(self, seat: int, kind: str, card: str) -> None:
        tab = self._tabs[seat]
        i = incomplete(tab, kind, self._t.set_size)
        cards = list(tab[i][1])
        cards.remove(card)
        if cards:
            tab[i] = (kind, tuple(cards))
        else:
            del tab[i]

    # handlers -------------------------------------------------------------
    def _do_down(self, a: Down) -> None:
        p = self._turn
        self._log.append(a)
        self._hands[p].remove(a.card)
        self._arrive(p, a.kind, a.card)
        self._check_win(p)
        self._end_turn(False)

    def _do_set(self, a: PlaySet) -> None:
        p = self._turn
        self._log.append(a)
        hand = self._hands[p]
        for c in a.cards:
            hand.remove(c)
        self._tabs[p].append((a.kind, tuple(a.cards)))
        self._made_full()
        self._check_win(p)
        self._end_turn(False)

    def _do_complete(self, a: Complete) -> None:
        p = self._turn
        self._log.append(a)
        hand = self._hands[p]
        for c in a.cards:
            hand.remove(c)
        tab = self._tabs[p]
        i = incomplete(tab, a.kind, self._t.set_size)
        tab[i] = (a.kind, tab[i][1] + tuple(a.cards))
        self._made_full()
        self._check_win(p)
        self._end_turn(False)

    def _do_action_card(self, a: Played) -> None:
        """The card goes to the centre pile; its target answers if the card may be answered by
        NO!, else it takes effect at once."""
        p = self._turn
        self._log.append(a)
        self._hands[p].remove(a.play)
        self._centre.append(a.play)
        target = -1 if a.target is None else self._t.seat[a.target]
        card = self._t.action_card(a.play)
        if card is not None and card.answerable:
            self._pending = a
            self._awaiting = target
        else:
            self._take_effect(a, p, target)

    def _do_no(self, a: SayNo) -> None:
        self._log.append(a)
        self._hands[self._awaiting].remove(NO)
        self._centre.append(NO)
        self._pending = None
        self._awaiting = -1
        self._end_turn(False)

    def _do_allow(self, a: Allow) -> None:
        self._log.append(a)
        action = self._pending
        p, q = self._turn, self._awaiting
        self._pending = None
        self._awaiting = -1
        if isinstance(action, (HopOver, GameChanger, UltimateCollector, PlayCard, Protect)):
            self._take_effect(action, p, q)

    def _take_effect(
        self,
        a: Played,
        p: int,
        q: int,
        start: int = 0,
    ) -> None:
        """Seat ``p``'s card ``a`` on seat ``q`` (-1: none) does what its definition says, each
        effect in the order written from ``start``; then the win is checked for both and the
        turn ends. At take_random it stops: chance picks the card (``_random_card``, which
        goes on with the effects after it)."""
        card = self._t.action_card(a.play)
        effects = () if card is None else card.effects
        for at in range(start, len(effects)):
            effect = effects[at]
            if effect == TAKE_RANDOM:
                if q >= 0 and self._hands[q]:
                    self._pending = a
                    self._chance = True
                    return
            elif effect == PROTECT_SET and isinstance(a, Protect):
                self._guards = (*self._guards, (p, a.kind, a.full))
            elif effect == TAKE_DOWN and isinstance(a, HopOver):
                self._leave(q, a.kind, a.card)
                self._arrive(p, a.kind, a.card)
            elif effect == SWAP_DOWN and isinstance(a, GameChanger):
                self._leave(p, a.give_kind, a.give_card)
                self._leave(q, a.take_kind, a.take_card)
                self._arrive(p, a.take_kind, a.take_card)
                self._arrive(q, a.give_kind, a.give_card)
            elif effect == STEAL_SET and isinstance(a, UltimateCollector):
                size = self._t.set_size
                tab = self._tabs[q]
                i = next(i for i, (k, c) in enumerate(tab) if k == a.kind and len(c) == size)
                self._tabs[p].append(tab.pop(i))
            elif effect == SKIP_TURN:
                if q not in self._skips:
                    self._skips = (*self._skips, q)
            elif effect.startswith(DRAW):
                hand = self._hands[p]
                for _ in range(int(effect.split()[1])):
                    if self._draw:
                        hand.append(self._draw.pop())
        self._check_win(p, q)
        self._end_turn(False)

    def _random_card(self, a: RandomCard) -> None:
        """Chance's pick for a take_random card: the card changes hands, then the card's
        effects after take_random take place."""
        played = self._pending
        self._log.append(a)
        self._pending = None
        self._chance = False
        seat = self._t.seat
        p, q = seat[a.to], seat[a.from_]
        self._hands[q].remove(a.card)
        self._hands[p].append(a.card)
        if isinstance(played, PLAYED):
            card = self._t.action_card(played.play)
            after = 0 if card is None else card.effects.index(TAKE_RANDOM) + 1
            self._take_effect(played, p, q, after)

    def _do_swap_wild(self, a: SwapWild) -> None:
        p = self._turn
        self._log.append(a)
        self._hands[p].remove(a.kind)
        tab = self._tabs[p]
        i = swappable(tab, a.kind, self._t.set_size)
        cards = list(tab[i][1])
        cards[cards.index(WILD)] = a.kind
        tab[i] = (a.kind, tuple(cards))
        self._arrive(p, a.to, WILD)
        self._check_win(p)
        self._end_turn(False)

    def _do_pass(self, a: Pass) -> None:
        self._log.append(a)
        self._end_turn(True)

    def _do_discard(self, a: Discard) -> None:
        self._log.append(a)
        self._hands[self._turn].remove(a.card)
        self._centre.append(a.card)
        self._end_turn(True)


# What the constructor is given, and what a state only keeps for itself (``_kept``): a copy
# and a pickle take every other field ``__init__`` declares.
_GIVEN: Final = frozenset(("_t", "players", "_chance_seed", "_hands", "_draw"))
_KEPT: Final = frozenset(("_memo_at", "_memos"))


def _fields(state: CrittersState) -> list[str]:
    """The fields of ``state`` a copy takes, as ``__init__`` declares them (compiled, the
    class lists them in ``__mypyc_attrs__``)."""
    names = getattr(type(state), "__mypyc_attrs__", None) or tuple(vars(state))
    return [name for name in names if name not in _GIVEN and name not in _KEPT]


def _copied(value: Any) -> Any:
    """A field's value for a copy: a list copied, with the lists in it (a tableau's, every
    seat's); everything else (tuples, numbers, text, actions) is never changed in place."""
    if isinstance(value, list):
        return [v[:] if isinstance(v, list) else v for v in value]
    return value


def determinize(
    state_or_view: CrittersState | dict[str, Any], player: str, rng: random.Random
) -> CrittersState:
    """``CrittersState.from_view`` of ``player``'s view (of a state, or the view itself)."""
    view = state_or_view.view(player) if isinstance(state_or_view, CrittersState) else state_or_view
    return CrittersState.from_view(view, player, rng)


__all__ = ["CardSet", "CrittersState", "determinize"]
