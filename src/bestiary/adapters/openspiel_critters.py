"""The critter game as an OpenSpiel Python game: ``python_bestiary_critters``.

Sequential, explicit-stochastic, imperfect information. Chance deals the deck one card at a
time (an outcome is a card type, with probability the share of that type among the cards not
yet dealt); the dealt order is the deck of the engine's record header, so cards go to the hands
one at a time in seat order and the rest is the Draw Pile. When the rules call for a reshuffle,
chance deals the new Draw Pile from the centre pile the same way. Decision ids are those of
``CrittersEncoding``. Returns: +1 for each winner, -1 for the others; a game cut at
``max_game_length`` history entries returns 0 to all. With two players the game is declared
zero-sum (``Utility.ZERO_SUM``), and a win the two seats share returns 0 to both (a draw), so
``pyspiel.exploitability`` and the zero-sum algorithms accept it; with more it is general-sum.

Parameters: ``players`` (2-8), ``set_size``, ``sets_to_win``, ``hand_limit`` (0: the rules'
default), ``max_game_length``, ``variant`` (``"tiny"``: ``bestiary.adapters.variants``, which
sets the options and the deck) and ``deal_at_once`` (the deal as one chance node whose outcomes
are every distinct order of the deck: small decks only).

A declaration over ``spiel_face``: what is critters' own is its parameters, its encoding, its
chance (the deck card by card, ``spiel_chance.Shoe``, and the reshuffles), its returns (the
shared win of a duel), its observer and its resampling.

Observers honour ``IIGObservationType`` as OpenSpiel's own Python games do (``CrittersObserver``):
the observation is the seat, its hand and the public table now; the information state
(perfect recall) is the seat, its hand and every history entry with the cards it brought the
seat, in order (tensor), or everything the seat has seen, in order (string). ``private_info``
NONE leaves out every hidden card, ALL_PLAYERS shows every hand, ``public_info=False`` leaves
out the table.

>>> import pyspiel
>>> game = pyspiel.load_game("python_bestiary_critters", {"players": 3})
>>> game.num_players(), game.num_distinct_actions()
(3, 890)
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import pyspiel

from bestiary.adapters.critters_encoding import CrittersEncoding
from bestiary.adapters.spiel_cells import Cell, Tables
from bestiary.adapters.spiel_chance import Shoe
from bestiary.adapters.spiel_face import SpielGame, SpielState, SpielTable
from bestiary.adapters.spiel_pieces import PiecesObserver, game_type
from bestiary.adapters.variants import variant_options
from bestiary.core.errors import BadOption
from bestiary.critters import GAME, CrittersState
from bestiary.critters.actions import Reshuffle
from bestiary.critters.state import determinize

SHORT_NAME = "python_bestiary_critters"
DEFAULT_PARAMS: dict[str, Any] = {
    "players": 2,
    "set_size": 3,
    "sets_to_win": 3,
    "hand_limit": 0,
    "max_game_length": 3000,
    "variant": "",
    "deal_at_once": False,
}
# Dealing at once enumerates every distinct order of the deck: only for small decks.
MAX_DEALS = 100_000


def _game_type(utility: Any) -> Any:
    return game_type(
        SHORT_NAME,
        "bestiary: the critter set-collection game",
        pyspiel.GameType.Dynamics.SEQUENTIAL,
        utility,
        pyspiel.GameType.RewardModel.TERMINAL,
        8,
        DEFAULT_PARAMS,
    )


# Registered as general-sum (3+ players: the returns' sum depends on how many share a win);
# a 2-player game is made zero-sum (see ``CrittersSpielState.returns``).
_GAME_TYPE = _game_type(pyspiel.GameType.Utility.GENERAL_SUM)
_ZERO_SUM = _game_type(pyspiel.GameType.Utility.ZERO_SUM)


def _options(params: dict[str, Any]) -> dict[str, Any]:
    if params["variant"]:
        return variant_options(str(params["variant"]))
    options = {"set_size": int(params["set_size"]), "sets_to_win": int(params["sets_to_win"])}
    if int(params["hand_limit"]) > 0:
        options["hand_limit"] = int(params["hand_limit"])
    return options


def _deals(counts: dict[str, int]) -> list[tuple[str, ...]]:
    """Every distinct order of a deck (in a fixed order), or BadOption if there are too many."""
    total = sum(counts.values())
    number = math.factorial(total)
    for n in counts.values():
        number //= math.factorial(n)
    if number > MAX_DEALS:
        raise BadOption(
            f"deal_at_once needs a small deck: this one has {number:,} orders "
            f"(at most {MAX_DEALS:,})"
        )
    orders: list[tuple[str, ...]] = []

    def extend(prefix: list[str], left: Counter[str]) -> None:
        if len(prefix) == total:
            orders.append(tuple(prefix))
            return
        for card in sorted(c for c, n in left.items() if n):
            left[card] -= 1
            prefix.append(card)
            extend(prefix, left)
            prefix.pop()
            left[card] += 1

    extend([], Counter(counts))
    return orders


class Table(SpielTable):
    """What a parameter set fixes: players, options, the deck and the encoding."""

    defaults = DEFAULT_PARAMS
    encoding: CrittersEncoding

    def __init__(self, params: dict[str, Any]) -> None:
        super().__init__(params)
        self.options = _options(self.params)
        probe = GAME.new_game(self.players, self.options, seed=0)  # validates the options
        chanced = [c.name for c in probe.table.deck.own_cards if c.takes_random]
        if chanced:  # its chance deals the deck card by card; a pick from a hand is another
            raise BadOption(
                f"the OpenSpiel critters game cannot model the take_random card {chanced[0]!r} "
                "(chance here deals cards; play such decks through the gym or vector env)"
            )
        self.deck_counts: dict[str, int] = dict(probe.table.deck.counts)
        self.deck_size = probe.table.deck.size
        self.hand_limit = probe.hand_limit
        self.encoding = CrittersEncoding(
            self.players, probe.kinds, probe.set_size, probe.table.deck.own_cards
        )
        self.shoe = Shoe(self.encoding.cards)
        self.length = int(self.params["max_game_length"])
        self.deals = _deals(self.deck_counts) if self.params["deal_at_once"] else []
        self.deal_index = {order: i for i, order in enumerate(self.deals)}
        self.chance_size = max(len(self.encoding.cards), len(self.deals))
        self.kind = _ZERO_SUM if self.n == 2 else _GAME_TYPE

    def utilities(self) -> tuple[float, float, float | None]:
        return -1.0, 1.0, 0.0 if self.n == 2 else None

    def legal_ids(self, legal: Sequence[Any]) -> list[int]:
        return sorted(self.encoding.action_id(a) for a in legal)

    def returns(self, winners: Sequence[str]) -> list[float]:
        if self.n == 2 and len(winners) == 2:
            # Two seats sharing the win beat nobody: a draw, so the duel stays zero-sum.
            return [0.0, 0.0]
        return super().returns(winners)

    def observer(self, iig_obs_type: Any) -> CrittersObserver:
        return CrittersObserver(self, iig_obs_type)


table_for = Tables(DEFAULT_PARAMS, Table)


class CrittersSpielState(SpielState):
    """One game: the deal in progress, then the engine state (a reshuffle deals again)."""

    tables = table_for
    _game: Table
    engine: CrittersState | None

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self._dealt: list[str] = []  # the deck so far, or the new Draw Pile during a reshuffle
        # One row per history entry: (seat acting or -1 for chance, the action or outcome, the
        # (seat, card) pairs it put in hands): the perfect-recall tensor's rows.
        self._rows: Cell[list[Row]] = Cell([], list.copy)
        self._places: Cell[Places | None] = Cell(None, _copy_places)

    # ------------------------------------------------------------------ OpenSpiel

    def chance_outcomes(self) -> list[tuple[int, float]]:
        deals = self._game.deals
        if deals and self.engine is None:
            return [(i, 1.0 / len(deals)) for i in range(len(deals))]
        return self._game.shoe.outcomes(self._unplaced())

    def _apply_chance(self, outcome: int) -> None:
        if self._game.deals and self.engine is None:
            for card in self._game.deals[outcome]:
                self._place(card)
        else:
            self._place(self._game.encoding.cards[outcome])

    def _chance_string(self, outcome: int) -> str:
        if self._game.deals and self.engine is None:
            return "deal " + " ".join(self._game.deals[outcome])
        return f"deal {self._game.encoding.cards[outcome]}"

    def _play(self, actor: int, action: int) -> None:
        mark = len(self._log)
        super()._play(actor, action)
        index = self._game.encoding.card_index
        drawn = len(self._game.encoding.cards)
        # A dealt card is column `card`, a drawn one `cards + card`: one chance entry can both
        # deal and draw (the deal at once, then the first turn's draw), and the seat knows which.
        gains = tuple(
            (who, index[text.split(" ", 1)[1]] + (drawn if text.startswith("drew ") else 0))
            for who, text, _ in self._log[mark:]
            if who >= 0 and text.startswith(("dealt ", "drew "))
        )
        self._rows.value.append((actor, action, gains))

    def __str__(self) -> str:
        if self.engine is None:
            return f"dealing: {len(self._dealt)} of {self._game.deck_size} cards"
        return json.dumps(self.engine.summary(), sort_keys=True)

    # ------------------------------------------------------------------ internals

    def _unplaced(self) -> Counter[str]:
        if self.engine is None:
            pool = Counter(self._game.deck_counts)
        else:
            pool = Counter(self.engine.centre_pile)
        pool.subtract(self._dealt)
        return pool

    def _place(self, card: str) -> None:
        self._dealt.append(card)
        if self.engine is None:
            game = self._game
            limit = game.hand_limit
            j = len(self._dealt) - 1
            if j < limit * game.n:
                self._log.append((j % game.n, f"dealt {card}", None))
            if len(self._dealt) == game.deck_size:
                header = {
                    "game": "critters",
                    "version": 1,
                    "players": list(game.players),
                    "options": dict(game.options),
                    "deck": self._dealt,
                    "first": game.players[0],
                }
                deck, self._dealt = self._dealt, []
                self._places.value = Places(deck, game.players, limit)
                self._start(GAME.from_header(header))
        elif not sum(self._unplaced().values()):
            order = tuple(self._dealt)
            self._dealt = []
            self._log.append((-1, "the centre pile is shuffled into a new Draw Pile", None))
            self._step(Reshuffle(order))

    def _start(self, engine: CrittersState) -> None:
        self.engine = engine
        places = self._places.value
        assert places is not None
        places.follow(engine, places.dealt_hands(), len(places.segments[0]) - places.dealt)
        # The first turn's automatic draw happened in the engine: show it to its player.
        turn = engine.turn
        if turn is not None:
            for card in _gained(Counter(), Counter(engine.hand(turn)), self._dealt_hand(turn)):
                self._log.append((self._game.encoding.seat[turn], f"drew {card}", None))

    def _dealt_hand(self, player: str) -> Counter[str]:
        seat = self._game.encoding.seat[player]
        return Counter(
            text[6:] for who, text, _ in self._log if who == seat and text[:6] == "dealt "
        )

    def _move(self, seat: int, action_id: int) -> None:
        action = self._game.encoding.action(self._game.players[seat], action_id)
        event = action.to_event()
        self._log.append((-1, json.dumps(event, sort_keys=True), None))
        self._step(action)

    def _step(self, action: Any) -> None:
        """Apply ``action``; whoever drew a card in the engine sees which one (privately)."""
        engine = self.engine
        assert engine is not None
        before = {p: Counter(engine.hand(p)) for p in self._game.players}
        pile = engine.draw_pile_size
        places = self._places.value
        if isinstance(action, Reshuffle):
            assert places is not None
            places.segments.append(list(action.order))
            pile = len(action.order)
        engine.apply(action)
        if places is not None:
            places.follow(engine, [before[p] for p in self._game.players], pile)
        for seat, p in enumerate(self._game.players):
            after = Counter(engine.hand(p))
            for card in _gained(before[p], after, Counter()):
                self._log.append((seat, f"drew {card}", None))

    def resample(self, player: int, rng: random.Random) -> CrittersSpielState:
        """A state ``player`` cannot tell from this one, hidden cards re-dealt (for ISMCTS).

        The engine's ``determinize`` deals the unseen cards from the view alone; other seats'
        private history is dropped, since the searching seat never saw it.
        """
        assert self.engine is not None
        name = self._game.players[player]
        other: CrittersSpielState = self.clone()
        other.engine = determinize(self.engine.view(name), name, rng)
        other._places.value = None  # a determinized engine has no dealt history to follow
        other._log = [entry for entry in self._log if entry[0] in (-1, player)]
        # The searching seat knows its own gains, and no chance outcome but through them.
        other._rows.value = [
            (actor, action if actor >= 0 else -1, tuple(g for g in gains if g[0] == player))
            for actor, action, gains in self._rows.value
        ]
        return other

    def _resampler(self, player: int) -> Callable[[random.Random], CrittersSpielState | None]:
        """A try at a state ``player`` cannot tell from this one (``resample_from_infostate``).

        A real history of the game: the deck and every reshuffled Draw Pile dealt again,
        keeping in place the cards the seat drew and every card since shown (put down,
        played, discarded, given), the rest shuffled among the other places; every move
        kept; replayed until the seat's information state matches. Every seat's legal
        actions then follow from its own information state, so ISMCTS needs no
        ``allow_inconsistent_action_sets``.
        """
        places = self._places.value
        if places is None:
            raise ValueError("resample_from_infostate needs a dealt game of this adapter")
        target = self.information_state_string(player)

        def attempt(rng: random.Random) -> CrittersSpielState | None:
            sample = self._replayed(places.redealt(player, rng))
            if sample is None or sample.information_state_string(player) != target:
                return None
            return sample

        return attempt

    def _replayed(self, orders: list[list[str]]) -> CrittersSpielState | None:
        """This state's moves replayed on the dealt ``orders``; None where one is illegal."""
        game = self._game
        index = game.encoding.card_index
        first = [game.deal_index[tuple(orders[0])]] if game.deals else [index[c] for c in orders[0]]
        chance = iter(first + [index[c] for order in orders[1:] for c in order])
        new = CrittersSpielState(self.get_game())
        for actor, action, _ in self._rows.value:
            if actor < 0:
                new.apply_action(next(chance))
            elif action in new.legal_actions():
                new.apply_action(action)
            else:
                return None
        return new

    def rows(self) -> list[Row]:
        """(seat acting or -1 for chance, action or outcome, (seat, column) gains) per entry.

        A gain's column is the card's index for a dealt card, the number of cards plus it for
        a drawn one."""
        return self._rows.value

    def hands(self) -> list[Counter[str]]:
        """Every seat's hand now (during the deal: the cards dealt to it so far)."""
        if self.engine is not None:
            return [Counter(self.engine.hand(p)) for p in self._game.players]
        hands: list[Counter[str]] = [Counter() for _ in self._game.players]
        for who, text, _ in self._log:
            if who >= 0 and text.startswith("dealt "):
                hands[who][text[6:]] += 1
        return hands


Row = tuple[int, int, tuple[tuple[int, int], ...]]
Place = tuple[int, int]  # (dealt order: 0 the deck, k the k-th reshuffle; index, top first)
Card = tuple[Place | None, str]  # a card in a hand: where it was dealt from, if from a pile


class Places:
    """Where every card in a hand was dealt from, as cards move (for resampling).

    A card drawn from a pile keeps its place; a card that leaves a hand (put down, played,
    discarded, given) is public from then on, so its place is ``known``. Two cards alike are
    alike: a card leaving a hand is the earliest of its kind there.
    """

    __slots__ = ("dealt", "drawn_by", "hands", "known", "players", "segments")

    def __init__(self, deck: list[str], players: tuple[str, ...], limit: int) -> None:
        n = len(players)
        self.players = players
        self.segments = [list(deck)]
        self.dealt = limit * n
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self.drawn_by: dict[Place, int] = {}
        self.known: dict[Place, str] = {}
        for j in range(self.dealt):
            self.hands[j % n].append(((0, j), deck[j]))
            self.drawn_by[(0, j)] = j % n

    def copy(self) -> Places:
        other = Places.__new__(Places)
        other.players = self.players
        other.segments = [list(seg) for seg in self.segments]
        other.dealt = self.dealt
        other.hands = [list(h) for h in self.hands]
        other.drawn_by = dict(self.drawn_by)
        other.known = dict(self.known)
        return other

    def dealt_hands(self) -> list[Counter[str]]:
        return [Counter(card for _, card in hand) for hand in self.hands]

    def _take(self, seat: int, card: str) -> Card:
        hand = self.hands[seat]
        at = next(i for i, (_, c) in enumerate(hand) if c == card)
        return hand.pop(at)

    def _show(self, token: Card) -> None:
        if token[0] is not None:
            self.known[token[0]] = token[1]

    def follow(self, engine: CrittersState, before: list[Counter[str]], pile: int) -> None:
        """After ``engine`` changed (``before``: the hands; ``pile`` cards in the newest pile):
        drawn cards join their drawers' hands at their places; others moved in the open."""
        n = len(self.players)
        segment = len(self.segments) - 1
        top = len(self.segments[segment]) - pile
        after = [Counter(engine.hand(p)) for p in self.players]
        gains = [a - b for a, b in zip(after, before, strict=True)]
        losses = [b - a for a, b in zip(after, before, strict=True)]
        turn = engine.turn
        first = self.players.index(turn) if turn is not None else 0
        for i in range(pile - engine.draw_pile_size):
            place = (segment, top + i)
            card = self.segments[segment][top + i]
            seat = next(
                (q for q in sorted(range(n), key=lambda q: q != first) if gains[q][card]), None
            )
            if seat is None:  # the turn's drawer played one alike before it drew: no net gain
                seat = first
                losses[seat][card] += 1
            else:
                gains[seat][card] -= 1
            self.hands[seat].append((place, card))
            self.drawn_by[place] = seat
        for seat in range(n):
            for card in list(gains[seat].elements()):
                giver = next((r for r in range(n) if r != seat and losses[r][card]), None)
                if giver is None:  # from a tableau, in the open
                    token: Card = (None, card)
                else:
                    losses[giver][card] -= 1
                    token = self._take(giver, card)
                self._show(token)
                self.hands[seat].append(token)
        for seat in range(n):
            for card in list(losses[seat].elements()):
                self._show(self._take(seat, card))

    def redealt(self, player: int, rng: random.Random) -> list[list[str]]:
        """Every dealt order again, with what ``player`` drew and every card shown kept in
        place and the rest shuffled among the other places."""
        fixed = dict(self.known)
        for place, seat in self.drawn_by.items():
            if seat == player:
                fixed[place] = self.segments[place[0]][place[1]]
        orders = []
        for k, segment in enumerate(self.segments):
            free = [i for i in range(len(segment)) if (k, i) not in fixed]
            cards = [segment[i] for i in free]
            rng.shuffle(cards)
            order = list(segment)
            for i, card in zip(free, cards, strict=True):
                order[i] = card
            orders.append(order)
        return orders


def _copy_places(value: Places | None) -> Places | None:
    return None if value is None else value.copy()


def _gained(before: Counter[str], after: Counter[str], already: Counter[str]) -> list[str]:
    gained = after - before - already
    return sorted(gained.elements())


class CrittersObserver(PiecesObserver):
    """Tensor and string of a seat for any ``IIGObservationType``, OpenSpiel's convention.

    As in OpenSpiel's own Python games (kuhn_poker, liars_poker) the tensor is made of named
    pieces, in this order:

    - ``player``: the observing seat, one-hot (always).
    - private info: ``SINGLE_PLAYER`` gives ``private_hand`` (the seat's cards, counts per
      card); ``ALL_PLAYERS`` gives ``hands`` (every seat's cards, seat-relative rows); ``NONE``
      gives nothing, so nothing in the result depends on any hidden card.
    - public info (``public_info=True``): without perfect recall, ``public`` (the seat's view
      now without its hand: tableaus, hand sizes, piles, whose turn, the pending action); with
      perfect recall, ``history``: one row per history entry (``max_game_length`` rows),
      ``[seat + 1 relative to the observer (0: chance), action id + 1 (chance: the card + 1
      when the private info shows it, else 0)]``, followed with ``SINGLE_PLAYER`` by the cards
      that entry dealt to the observer, then those it drew (counts per card each), so every
      card is remembered when and how it came (the tiny tree's strings and tensors give the
      same infosets, tested over the whole tree).
    """

    game: Table

    def pieces(self) -> list[tuple[str, tuple[int, ...]]]:
        game = self.game
        enc = game.encoding
        n, c = game.n, len(enc.cards)
        single = self.private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        everyone = self.private == pyspiel.PrivateInfoType.ALL_PLAYERS
        pieces: list[tuple[str, tuple[int, ...]]] = [("player", (n,))]
        if single:
            pieces.append(("private_hand", (c,)))
        elif everyone:
            pieces.append(("hands", (n, c)))
        if self.public and self.perfect_recall:
            pieces.append(("history", (game.length, 2 + (2 * c if single else 0))))
        elif self.public:
            pieces.append(("public", (enc.obs_size - c,)))
        return pieces

    def set_from(self, state: CrittersSpielState, player: int) -> None:
        game = self.game
        enc = game.encoding
        n, c = game.n, len(enc.cards)
        self.tensor.fill(0)
        d = self.dict
        d["player"][player] = 1
        if "private_hand" in d or "hands" in d:
            hands = state.hands()
            for j in range(n if "hands" in d else 1):
                target = d["hands"][j] if "hands" in d else d["private_hand"]
                for card, count in hands[(player + j) % n].items():
                    target[enc.card_index[card]] = count
        if "public" in d and state.engine is not None:
            d["public"][:] = enc.observe(state.engine.view(game.players[player]))[c:]
        if "history" in d:
            rows = d["history"]
            everyone = self.private == pyspiel.PrivateInfoType.ALL_PLAYERS
            for t, (actor, action, gains) in enumerate(state.rows()[: game.length]):
                if actor >= 0:
                    rows[t, 0] = (actor - player) % n + 1
                    rows[t, 1] = action + 1
                elif everyone and action >= 0:
                    rows[t, 1] = action + 1
                for seat, column in gains:
                    if rows.shape[1] > 2 and seat == player:
                        rows[t, 2 + column] += 1

    def string_from(self, state: CrittersSpielState, player: int) -> str:
        game = self.game
        parts = [f"p{player}"]
        if self.private != pyspiel.PrivateInfoType.NONE:
            hands = state.hands()
            for seat in range(game.n):
                if self._sees(seat, player):
                    parts.append(f"hand{seat} " + " ".join(sorted(hands[seat].elements())))
        if self.public and self.perfect_recall:
            parts += state.log_as_seen(lambda seat: self._sees(seat, player))
        elif self.public:
            if state.engine is None:
                parts.append(f"dealing {len(state.history())}")
            else:
                view = state.engine.view(game.players[player])
                for key in ("hand", "winners"):
                    view.pop(key, None)
                parts.append(json.dumps(view, sort_keys=True))
        return "\n".join(parts)


def make_resampler(seed: int) -> Callable[[Any, int], Any]:
    """A resampler for ``ISMCTSBot.set_resampler``, backed by the engine's ``determinize``."""
    rng = random.Random(seed)

    def resample(state: Any, player: int) -> Any:
        return state.resample(player, rng)

    return resample


class CrittersGame(SpielGame):
    """The game: players, options and the fixed deck; makes states and observers."""

    tables = table_for
    state = CrittersSpielState


pyspiel.register_game(_GAME_TYPE, CrittersGame)
