"""Call of the Wild as an OpenSpiel Python game: ``python_bestiary_wild``.

A simultaneous-move game on the tick model (``bestiary.adapters.ticks``): at each decision node
every seat picks an action id of ``WildEncoding`` (0 is ``wait``, always legal). When two or
more seats act, a chance node picks the order they are applied in (every order equally likely);
an action an earlier one made illegal is skipped as a wait. Chance first deals each Pack one
card at a time in seat order (an outcome is a creature, by its share of that Pack's cards not
yet dealt) and, with ``objectives``, one Objective per seat. Nightfall ends a game after
``quiet_ticks`` ticks without a meeting (0: the game's ``nightfall_seconds`` at the core
driver's 0.35 s ticks, 343 ticks). Rewards: the change of each seat's
score; returns: the scores.

Observers honour every ``IIGObservationType`` (``WildObserver``), as critters' do: the
observation is the seat, its hidden cards (hand, face-down offered card, Objective) and the
public table now; the information state adds (tensor) how many moves of each kind every seat
has made, or (string) is everything the seat has seen, in order (own cards and moves in full,
others' moves as the table sees them, meetings). ``private_info`` NONE leaves out every hidden
card and Objective, ALL_PLAYERS shows every seat's, ``public_info=False`` leaves out the table;
observation parameters are refused.

A declaration over ``spiel_ticks`` (any game on ticks: the picks, simultaneous or turn-based,
the order of a tick as chance, score changes as rewards) and ``spiel_face``: what is wild's own
is its parameters, its encoding, its deal (each Pack card by card and the Objectives,
``spiel_chance.Shoe``), what a tick shows each seat, its observer and its resampling.

>>> import pyspiel
>>> game = pyspiel.load_game("python_bestiary_wild", {"players": 3})
>>> game.num_players(), game.num_distinct_actions()
(3, 36)
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pyspiel

from bestiary.adapters.spiel_cells import Cell, Tables
from bestiary.adapters.spiel_chance import Shoe
from bestiary.adapters.spiel_face import SpielGame, SpielTable
from bestiary.adapters.spiel_pieces import PiecesObserver, game_type
from bestiary.adapters.spiel_ticks import TickedSpielState
from bestiary.adapters.ticks import TickedWild, TickReport
from bestiary.adapters.wild_encoding import CALL, DISCARD, MEET, WildEncoding
from bestiary.wild import (
    CREATURES,
    GAME,
    OBJECTIVES,
    Call,
    Discard,
    Draw,
    Nightfall,
    RevealOwn,
    WildAction,
    Withdraw,
    describe_meeting,
)

SHORT_NAME = "python_bestiary_wild"
# 4 players by default, as every other face of wild (PettingZoo, Gymnasium, the vector env)
# and ``bestiary sim``: one default per game; pass ``players`` for 2 (CFR, ISMCTS duels).
DEFAULT_PARAMS: dict[str, Any] = {
    "players": 4,
    "mating_bonus": False,
    "objectives": False,
    "quiet_ticks": 0,
    "turn_based": False,
}
MOVE_KINDS = ("draw", "call", "withdraw", "discard", "meet", "reveal_own")


def _game_type(dynamics: Any) -> Any:
    return game_type(
        SHORT_NAME,
        "bestiary: Call of the Wild on ticks",
        dynamics,
        pyspiel.GameType.Utility.GENERAL_SUM,
        pyspiel.GameType.RewardModel.REWARDS,
        6,
        DEFAULT_PARAMS,
    )


# Registered simultaneous; ``turn_based`` makes a game sequential (each seat picks in turn,
# unseen by the others until the tick is played), as OpenSpiel's ISMCTS and CFR need.
_GAME_TYPE = _game_type(pyspiel.GameType.Dynamics.SIMULTANEOUS)
_TURNS = _game_type(pyspiel.GameType.Dynamics.SEQUENTIAL)


# Chance deals each Pack (two of each creature) and the Objectives (one of each) card by card.
PACK = Shoe(CREATURES)
OBJECTIVE_SHOE = Shoe([o.id for o in OBJECTIVES])


class Table(SpielTable):
    """What a parameter set fixes: players, options, the Nightfall clock and the encoding."""

    defaults = DEFAULT_PARAMS
    encoding: WildEncoding
    cuts = False  # ``length`` is the most a game can last (below)

    def __init__(self, params: dict[str, Any]) -> None:
        super().__init__(params)
        self.options = {
            "mating_bonus": bool(self.params["mating_bonus"]),
            "objectives": bool(self.params["objectives"]),
        }
        probe = GAME.new_game(self.players, self.options, seed=0)  # validates players, options
        # 0: the game's own Nightfall clock at the driver's ticks (the one model).
        self.quiet_setting = int(self.params["quiet_ticks"]) or None
        self.quiet_ticks = TickedWild(probe, self.quiet_setting).quiet_ticks
        self.encoding = WildEncoding(self.players, self.options["objectives"])
        deal = 10 * self.n + (self.n if self.options["objectives"] else 0)
        # Each meeting uses two cards, so at most 5n meetings; between two of them, and after
        # the last, at most quiet_ticks ticks, each a decision (one per seat when turn-based)
        # and perhaps an order.
        self.turn_based = bool(self.params["turn_based"])
        per_tick = self.n + 1 if self.turn_based else 2
        self.length = deal + per_tick * (5 * self.n + 1) * self.quiet_ticks
        self.chance_size = max(5, len(OBJECTIVES), math.factorial(self.n))
        self.kind = _TURNS if self.turn_based else _GAME_TYPE

    def utilities(self) -> tuple[float, float, float | None]:
        return 0.0, float(2 * 10 * self.n + 3), None  # scores: every card twice, and bonuses

    def legal_ids(self, legal: Sequence[Any]) -> list[int]:
        return [0, *sorted(self.encoding.action_id(a) for a in legal)]  # 0: wait

    def observer(self, iig_obs_type: Any) -> WildObserver:
        return WildObserver(self, iig_obs_type)


table_for = Tables(DEFAULT_PARAMS, Table)


class WildSpielState(TickedSpielState):
    """One game: the deal in progress, then ticks (each perhaps followed by an order).

    Its engine is the game on ticks (``TickedWild``), also known as ``table``."""

    tables = table_for
    _game: Table

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        n = self._game.n
        self._packs: list[list[str]] = [[] for _ in range(n)]
        self._objectives: list[str] = []
        self._tokens: Cell[Tokens | None] = Cell(None, _copy_or_none)
        # Moves of each kind per seat: the summary in the information-state tensor.
        self.moves = np.zeros((n, len(MOVE_KINDS)), dtype=np.float32)

    @property
    def table(self) -> TickedWild | None:
        table: TickedWild | None = self._engine.value
        return table

    # ------------------------------------------------------------------ the deal

    def _deal_outcomes(self) -> list[tuple[int, float]]:
        seat = self._dealing_seat()
        if seat is not None:
            left = Counter(dict.fromkeys(CREATURES, 2))
            left.subtract(self._packs[seat])
            return PACK.outcomes(left)
        assert self._game.options["objectives"]
        left = Counter(OBJECTIVE_SHOE.cards)
        left.subtract(self._objectives)
        return OBJECTIVE_SHOE.outcomes(left)

    def _deal(self, outcome: int) -> None:
        """A card dealt to the Pack being dealt, or the next seat's Objective."""
        seat = self._dealing_seat()
        if seat is not None:
            card = CREATURES[outcome]
            self._packs[seat].append(card)
            if len(self._packs[seat]) <= (3 if self._game.n == 3 else 2):
                self._log.append((seat, f"drew {card}", None))
        else:
            self._objectives.append(OBJECTIVES[outcome].id)
            self._log.append(
                (len(self._objectives) - 1, f"objective {OBJECTIVES[outcome].id}", None)
            )
        if self._dealing_seat() is None and (
            not self._game.options["objectives"] or len(self._objectives) == self._game.n
        ):
            self._start()

    def _deal_string(self, outcome: int) -> str:
        if self._dealing_seat() is not None:
            return f"deal {CREATURES[outcome]}"
        return f"objective {OBJECTIVES[outcome].id}"

    def __str__(self) -> str:
        if self.table is None:
            return f"dealing: {sum(len(p) for p in self._packs)} cards"
        return json.dumps(self.table.state.summary(), sort_keys=True)

    # ------------------------------------------------------------------ internals

    def _dealing_seat(self) -> int | None:
        for seat, pack in enumerate(self._packs):
            if len(pack) < 10:
                return seat
        return None

    def _start(self) -> None:
        game = self._game
        header: dict[str, Any] = {
            "game": "wild",
            "version": 1,
            "players": list(game.players),
            "options": dict(game.options),
            "packs": {p: list(pack) for p, pack in zip(game.players, self._packs, strict=True)},
        }
        if game.options["objectives"]:
            header["objectives"] = dict(zip(game.players, self._objectives, strict=True))
        table = self.engine = TickedWild(GAME.from_header(header), game.quiet_setting)
        self._tokens.value = Tokens(self._packs, table.state.limit)

    def _before_tick(self) -> tuple[list[Counter[str]], int]:
        assert self.table is not None
        state = self.table.state
        return [Counter(state.hand(p)) for p in self._game.players], len(state.meetings)

    def _ticked(self, applied: TickReport, before: tuple[list[Counter[str]], int]) -> None:
        """Log the tick: its moves (what the others saw of each), draws, meetings, Nightfall;
        and follow the cards for resampling."""
        table = self.table
        assert table is not None
        game = self._game
        state = table.state
        hands, met = before
        self._log.append((-1, f"tick {table.ticks}", None))
        tokens = self._tokens.value
        assert tokens is not None
        for action in applied.applied:
            if isinstance(action, Nightfall):
                continue
            seat = game.encoding.seat[action.by]
            event = action.to_event()
            tokens.follow(seat, action, len(self._ticks.value) - 1)
            self.moves[seat, MOVE_KINDS.index(event["do"])] += 1
            seen = {"by": event["by"], "do": event["do"]}
            for key in ("call", "with"):
                if key in event:
                    seen[key] = event[key]
            public = json.dumps(seen, sort_keys=True)
            self._log.append((seat, json.dumps(event, sort_keys=True), public))
            if isinstance(action, Draw):
                # Each seat acts once a tick, so after a draw its hand grew by the drawn card.
                for card in (Counter(state.hand(action.by)) - hands[seat]).elements():
                    self._log.append((seat, f"drew {card}", None))
        for meeting in state.meetings[met:]:
            for p in meeting.players:
                tokens.reveal(game.encoding.seat[p])
            self._log.append((-1, describe_meeting(meeting), None))
        if applied.nightfall:
            self._log.append((-1, "nightfall", None))

    def _resampler(self, player: int) -> Callable[[random.Random], WildSpielState | None]:
        """A try at a state ``player`` cannot tell from this one (``resample_from_infostate``).

        A real history of the game: the Packs re-dealt (the seat's own keeps the cards it has
        drawn, in order), the other seats' Objectives re-drawn, the hidden card of their Calls
        and discards re-chosen from their new hands, their picks this tick (turn-based)
        re-chosen, every public move and tick order kept; replayed until the seat's
        information state matches (the first try that does). Every seat's legal actions
        then follow from its own information state, so ISMCTS needs no
        ``allow_inconsistent_action_sets``.
        """
        target = self.seat_log(player)
        return lambda rng: self._replayed(player, rng, target)

    def _replayed(
        self, player: int, rng: random.Random, target: list[str]
    ) -> WildSpielState | None:
        """One try of ``resample_from_infostate``: the replayed state, or None on a mismatch."""
        game = self._game
        n = game.n
        seen = sum(1 for w, t, _ in self._log if w == player and t.startswith("drew "))
        tokens = self._tokens.value
        packs = []
        for seat in range(n):
            # Fixed: what the seat drew from its own Pack, and the cards of any Pack that
            # meetings showed (at the places they were drawn from); the rest is re-dealt.
            if seat == player:
                fixed = dict(enumerate(self._packs[seat][:seen]))
            else:
                fixed = dict(tokens.known[seat]) if tokens is not None else {}
            rest = Counter(dict.fromkeys(CREATURES, 2))
            rest.subtract(fixed.values())
            cards = list(rest.elements())
            rng.shuffle(cards)
            packs.append([fixed[k] if k in fixed else cards.pop() for k in range(10)])
        objectives = list(range(len(OBJECTIVES)))
        rng.shuffle(objectives)
        if player < len(self._objectives):
            own = next(i for i, o in enumerate(OBJECTIVES) if o.id == self._objectives[player])
            objectives.remove(own)
            objectives.insert(player, own)
        new = WildSpielState(self.get_game())
        dealt = sum(len(p) for p in self._packs)
        for seat in range(n):
            for card in packs[seat][: max(0, dealt - 10 * seat)]:
                new.apply_action(CREATURES.index(card))
        for objective in objectives[: len(self._objectives)]:
            new.apply_action(objective)
        at = 0  # how many of the seat's log lines the replay has matched so far
        forced = tokens.forced if tokens is not None else {}
        for t, (joint, order) in enumerate(self._ticks.value):
            picks = [
                a if q == player else new._hidden_pick(q, a, rng, forced.get((t, q)))
                for q, a in enumerate(joint)
            ]
            if None in picks:
                return None
            for a in picks:
                assert a is not None
                if game.turn_based:
                    new.apply_action(a)
            if not game.turn_based:
                new.apply_actions(picks)
            if order >= 0:
                new.apply_action(order)
            lines = new.seat_log(player)
            if lines[at:] != target[at : len(lines)]:
                return None
            at = len(lines)
        for q, a in enumerate(self._picks):  # this tick's picks so far (turn-based)
            new.apply_action(a if q == player else rng.choice(new._legal_actions(q)))
        if new.seat_log(player) != target:
            return None
        return new

    def _hidden_pick(
        self, seat: int, action: int, rng: random.Random, shown: str | None = None
    ) -> int | None:
        """``action`` of ``seat`` with its hidden part (the card of a Call or a discard)
        chosen afresh from the seat's legal actions now (a Call's card that a meeting later
        showed: ``shown``); None if it has no such action."""
        legal = self._legal_actions(seat)
        if shown is not None:
            action = CALL + 5 * CREATURES.index(shown) + (action - CALL) % 5
            options = [action] if action in legal else []
        elif CALL <= action < MEET:
            options = [
                a for a in legal if CALL <= a < MEET and (a - CALL) % 5 == (action - CALL) % 5
            ]
        elif DISCARD <= action < CALL:
            options = [a for a in legal if DISCARD <= a < CALL]
        else:
            options = [action] if action in legal else []
        return rng.choice(options) if options else None

    def hidden(self, seat: int) -> tuple[list[str], str | None, str | None]:
        """``seat``'s hidden cards now: its hand, its face-down offered card, its Objective."""
        player = self._game.players[seat]
        if self.table is None:  # during the deal: the cards it has drawn so far
            hand = [t[5:] for w, t, _ in self._log if w == seat and t.startswith("drew ")]
            mine = [t for w, t, _ in self._log if w == seat and t.startswith("objective ")]
            return hand, None, mine[0][10:] if mine else None
        state = self.table.state
        offer = state.offer(player)
        return state.hand(player), None if offer is None else offer[0], state.objective(player)


class WildObserver(PiecesObserver):
    """Tensor and string of a seat for any ``IIGObservationType``, OpenSpiel's convention.

    The tensor is named pieces, in this order (as critters' ``CrittersObserver``):

    - ``player``: the observing seat, one-hot (always).
    - private info: ``SINGLE_PLAYER`` gives the seat's hidden cards, ``private_hand`` (counts
      per creature), ``private_offer`` (its face-down offered card, one-hot) and, with
      ``objectives``, ``private_objective``; ``ALL_PLAYERS`` gives ``hands``, ``offers`` (and
      ``objectives``) with one seat-relative row per seat; ``NONE`` gives nothing, so nothing
      in the result depends on a hidden card or Objective.
    - public info (``public_info=True``): ``public``, the seat's observation vector
      (``WildEncoding``) without its hand, offered card and Objective: Calls, hand and Pack
      sizes, Dens, the Watering Hole, scores, asks, the Nightfall clock; with perfect recall
      also ``moves``, how many moves of each kind every seat has made (seat-relative).

    Strings follow the same pieces; with perfect recall and public info the string is
    everything the observer saw, in order (the hidden part of a move, a Call's card or a
    discarded card, only for the seats the private info shows).
    """

    game: Table

    def pieces(self) -> list[tuple[str, tuple[int, ...]]]:
        game = self.game
        private = self.private
        n, k = game.n, len(OBJECTIVES)
        objectives = bool(game.options["objectives"])
        pieces: list[tuple[str, tuple[int, ...]]] = [("player", (n,))]
        if private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            pieces += [("private_hand", (5,)), ("private_offer", (5,))]
            pieces += [("private_objective", (k,))] if objectives else []
        elif private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            pieces += [("hands", (n, 5)), ("offers", (n, 5))]
            pieces += [("objectives", (n, k))] if objectives else []
        enc = game.encoding
        # The observation vector's public part: all but the hand, the offered card (slots
        # 0-9) and the Objective (the last slots, with objectives).
        self._public = slice(10, enc.obs_size - (k if objectives else 0))
        if self.public:
            pieces.append(("public", (self._public.stop - self._public.start,)))
            if self.perfect_recall:
                pieces.append(("moves", (n, len(MOVE_KINDS))))
        return pieces

    def set_from(self, state: WildSpielState, player: int) -> None:
        game = self.game
        n = game.n
        self.tensor.fill(0)
        d = self.dict
        d["player"][player] = 1
        single = "private_hand" in d
        if single or "hands" in d:
            for j in range(1 if single else n):
                hand, offer, objective = state.hidden((player + j) % n)
                rows = [d[k] if single else d[k][j] for k in _PIECES[single] if k in d]
                for card in hand:
                    rows[0][CREATURES.index(card)] += 1
                if offer is not None:
                    rows[1][CREATURES.index(offer)] = 1
                if objective is not None and len(rows) > 2:
                    rows[2][OBJECTIVE_INDEX[objective]] = 1
        if "public" in d and state.table is not None:
            view = state.table.state.view(game.players[player])
            d["public"][:] = game.encoding.observe(view, state.table.quiet_share)[self._public]
        if "moves" in d:
            d["moves"][:] = np.roll(state.moves, -player, axis=0)

    def string_from(self, state: WildSpielState, player: int) -> str:
        game = self.game
        parts = [f"p{player}"]
        for seat in range(game.n):
            if self._sees(seat, player):
                hand, offer, objective = state.hidden(seat)
                parts.append(f"hand{seat} {' '.join(sorted(hand))}; offer {offer or '-'}")
                if game.options["objectives"]:
                    parts[-1] += f"; objective {objective or '-'}"
        if self.public and self.perfect_recall:
            parts += state.log_as_seen(lambda seat: self._sees(seat, player))
        elif self.public and state.table is None:
            parts.append(f"dealing {len(state.history())}")
        elif self.public:
            assert state.table is not None
            view = state.table.state.view(game.players[player])
            for key in ("hand", "offer", "objective"):
                view.pop(key, None)
            parts.append(f"quiet {state.table.quiet} " + json.dumps(view, sort_keys=True))
        return "\n".join(parts)


OBJECTIVE_INDEX = {o.id: i for i, o in enumerate(OBJECTIVES)}
# The private pieces of one seat, in tensor order (SINGLE_PLAYER's names, ALL_PLAYERS').
_PIECES = {
    True: ("private_hand", "private_offer", "private_objective"),
    False: ("hands", "offers", "objectives"),
}


class Tokens:
    """Which Pack place each seat's cards were drawn from, as they move (for resampling).

    A card is its (Pack place, creature); two of a creature are alike, so a Call or a
    discard takes the seat's earliest-drawn one. A meeting shows both offered cards: their
    places are ``known``, and the Calls that offered them ``forced`` ((tick index, seat):
    the card), since a re-deal must offer the same cards there.
    """

    __slots__ = ("calls", "drawn", "forced", "hand", "known", "offer", "packs")

    def __init__(self, packs: list[list[str]], limit: int) -> None:
        n = len(packs)
        self.hand = [[(k, packs[s][k]) for k in range(limit)] for s in range(n)]
        self.offer: list[tuple[int, str] | None] = [None] * n
        self.calls: list[list[int]] = [[] for _ in range(n)]  # the Calls on the offer now
        self.drawn = [limit] * n
        self.packs = packs
        self.known: list[dict[int, str]] = [{} for _ in range(n)]
        self.forced: dict[tuple[int, int], str] = {}

    def copy(self) -> Tokens:
        other = Tokens.__new__(Tokens)
        other.hand = [list(h) for h in self.hand]
        other.offer = list(self.offer)
        other.calls = [list(c) for c in self.calls]
        other.drawn = list(self.drawn)
        other.packs = self.packs
        other.known = [dict(k) for k in self.known]
        other.forced = dict(self.forced)
        return other

    def _take(self, seat: int, card: str) -> tuple[int, str]:
        hand = self.hand[seat]
        token = min(t for t in hand if t[1] == card)
        hand.remove(token)
        return token

    def follow(self, seat: int, action: WildAction, tick: int) -> None:
        """Move ``seat``'s cards as its applied ``action`` did, at tick index ``tick``."""
        if isinstance(action, Draw):
            k = self.drawn[seat]
            self.hand[seat].append((k, self.packs[seat][k]))
            self.drawn[seat] = k + 1
        elif isinstance(action, Call):
            old = self.offer[seat]
            if old is not None:
                self.hand[seat].append(old)
            self.offer[seat] = self._take(seat, action.card)
            self.calls[seat] = [tick]
        elif isinstance(action, Withdraw):
            old = self.offer[seat]
            if old is not None:
                self.hand[seat].append(old)
            self.offer[seat], self.calls[seat] = None, []
        elif isinstance(action, Discard):
            self._take(seat, action.card)
        elif isinstance(action, RevealOwn):
            self.offer[seat], self.calls[seat] = None, []

    def reveal(self, seat: int) -> None:
        """A meeting showed ``seat``'s offered card."""
        token = self.offer[seat]
        if token is not None:
            self.known[seat][token[0]] = token[1]
            for tick in self.calls[seat]:
                self.forced[(tick, seat)] = token[1]
        self.offer[seat], self.calls[seat] = None, []


def _copy_or_none(value: Tokens | None) -> Tokens | None:
    return None if value is None else value.copy()


class WildGame(SpielGame):
    """The game: players and options; makes states and observers."""

    tables = table_for
    state = WildSpielState


pyspiel.register_game(_GAME_TYPE, WildGame)
