"""The critter game as an OpenSpiel Python game: ``python_bestiary_critters``.

Sequential, explicit-stochastic, imperfect information. Chance deals the deck one card at a
time (an outcome is a card type, with probability the share of that type among the cards not
yet dealt); the dealt order is the deck of the engine's record header, so cards go to the hands
one at a time in seat order and the rest is the Draw Pile. When the rules call for a reshuffle,
chance deals the new Draw Pile from the centre pile the same way. Decision ids are those of
``CrittersEncoding``. Returns: +1 for each winner, -1 for the others; a game cut at
``max_game_length`` history entries returns 0 to all.

Parameters: ``players`` (2-8), ``set_size``, ``sets_to_win``, ``hand_limit`` (0: the rules'
default) and ``max_game_length``.

Observation tensor and string: the seat's view now (``CrittersEncoding.observe``). Information
state string: everything the seat has seen, in order (its own cards as dealt and drawn, every
public move); information state tensor: the observation tensor followed by how many moves of
each kind every seat has made (a summary, not the whole history).

>>> import pyspiel
>>> game = pyspiel.load_game("python_bestiary_critters", {"players": 3})
>>> game.num_players(), game.num_distinct_actions()
(3, 890)
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from bestiary.adapters.critters_encoding import CrittersEncoding
from bestiary.adapters.spiel_cells import Cell, Shared
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
}
MOVE_KINDS = (
    "down",
    "down_wild",
    "set",
    "complete",
    "swap_wild",
    "hop_over",
    "game_changer",
    "ultimate",
    "no",
    "allow",
    "pass",
    "discard",
)

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="bestiary: the critter set-collection game",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=8,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULT_PARAMS,
)


def _options(params: dict[str, Any]) -> dict[str, Any]:
    options = {"set_size": int(params["set_size"]), "sets_to_win": int(params["sets_to_win"])}
    if int(params["hand_limit"]) > 0:
        options["hand_limit"] = int(params["hand_limit"])
    return options


class Table(Shared):
    """What a parameter set fixes: players, options, the deck and the encoding."""

    def __init__(self, params: dict[str, Any]) -> None:
        self.params = {**DEFAULT_PARAMS, **params}
        self.n = int(self.params["players"])
        self.players = tuple(f"player_{i}" for i in range(self.n))
        self.options = _options(self.params)
        probe = GAME.new_game(self.players, self.options, seed=0)  # validates the options
        self.deck_counts: dict[str, int] = dict(probe.table.deck.counts)
        self.deck_size = probe.table.deck.size
        self.hand_limit = probe.hand_limit
        self.encoding = CrittersEncoding(self.players, probe.kinds, probe.set_size)
        self.length = int(self.params["max_game_length"])


_TABLES: dict[tuple[tuple[str, Any], ...], Table] = {}


def table_for(params: dict[str, Any]) -> Table:
    """The (cached) table of a parameter set.

    Kept outside the pybind11 game object: Python attributes of a game that only C++ holds
    are lost, so states look their table up by the game's parameters.
    """
    key = tuple(sorted({**DEFAULT_PARAMS, **params}.items()))
    table = _TABLES.get(key)
    if table is None:
        table = _TABLES[key] = Table(dict(key))
    return table


class CrittersGame(pyspiel.Game):
    """The game: players, options and the fixed deck; makes states and observers."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        table = table_for(params or {})
        super().__init__(
            _GAME_TYPE,
            pyspiel.GameInfo(
                num_distinct_actions=table.encoding.size,
                max_chance_outcomes=len(table.encoding.cards),
                num_players=table.n,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=None,
                max_game_length=table.length,
            ),
            table.params,
        )

    def new_initial_state(self) -> CrittersSpielState:
        return CrittersSpielState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> CrittersObserver:
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return CrittersObserver(table_for(self.get_parameters()), perfect_recall)


class CrittersSpielState(pyspiel.State):
    """One game: the deal in progress, then the engine state (a reshuffle deals again)."""

    def __init__(self, game: CrittersGame) -> None:
        super().__init__(game)
        self._game = table_for(game.get_parameters())
        self._engine: Cell[CrittersState | None] = Cell(None, _clone_or_none)
        self._dealt: list[str] = []  # the deck so far, or the new Draw Pile during a reshuffle
        self._seen: Cell[list[tuple[int, str]]] = Cell(
            [], list.copy
        )  # (seat or -1 for everyone, what they saw)
        # Moves of each kind per seat: the summary in the information-state tensor.
        self.moves = np.zeros((self._game.n, len(MOVE_KINDS)), dtype=np.float32)
        self._cut = False

    @property
    def engine(self) -> CrittersState | None:
        return self._engine.value

    @engine.setter
    def engine(self, value: CrittersState | None) -> None:
        self._engine.value = value

    @property
    def _log(self) -> list[tuple[int, str]]:
        """(seat, or -1 for everyone; what they saw), in order."""
        return self._seen.value

    @_log.setter
    def _log(self, value: list[tuple[int, str]]) -> None:
        self._seen.value = value

    # ------------------------------------------------------------------ OpenSpiel

    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        engine = self.engine
        if engine is None or engine.chance_due:
            return int(pyspiel.PlayerId.CHANCE)
        to_act = engine.to_act
        assert to_act is not None
        return self._game.encoding.seat[to_act]

    def is_terminal(self) -> bool:
        return self._cut or (self.engine is not None and self.engine.is_over)

    def _legal_actions(self, player: int) -> list[int]:
        assert self.engine is not None
        enc = self._game.encoding
        return sorted(
            enc.action_id(a) for a in self.engine.legal_actions(self._game.players[player])
        )

    def chance_outcomes(self) -> list[tuple[int, float]]:
        remaining = self._unplaced()
        total = sum(remaining.values())
        index = self._game.encoding.card_index
        return sorted((index[card], n / total) for card, n in remaining.items() if n)

    def _apply_action(self, action: int) -> None:
        if self.is_chance_node():
            self._place(self._game.encoding.cards[action])
        else:
            self._move(action)
        if not self.is_terminal() and len(self.history()) + 1 >= self._game.length:
            self._cut = True

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {self._game.encoding.cards[action]}"
        return self._game.encoding.describe(action)

    def returns(self) -> list[float]:
        if self.engine is None or not self.engine.is_over:
            return [0.0] * self._game.n
        winners = self.engine.winners()
        return [1.0 if p in winners else -1.0 for p in self._game.players]

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
                self._log.append((j % game.n, f"dealt {card}"))
            if len(self._dealt) == game.deck_size:
                header = {
                    "game": "critters",
                    "version": 1,
                    "players": list(game.players),
                    "options": dict(game.options),
                    "deck": self._dealt,
                    "first": game.players[0],
                }
                self._dealt = []
                self._start(GAME.from_header(header))
        elif not sum(self._unplaced().values()):
            order = tuple(self._dealt)
            self._dealt = []
            self._log.append((-1, "the centre pile is shuffled into a new Draw Pile"))
            self._step(Reshuffle(order))

    def _start(self, engine: CrittersState) -> None:
        self.engine = engine
        # The first turn's automatic draw happened in the engine: show it to its player.
        turn = engine.turn
        if turn is not None:
            for card in _gained(Counter(), Counter(engine.hand(turn)), self._dealt_hand(turn)):
                self._log.append((self._game.encoding.seat[turn], f"drew {card}"))

    def _dealt_hand(self, player: str) -> Counter[str]:
        seat = self._game.encoding.seat[player]
        return Counter(text[6:] for who, text in self._log if who == seat and text[:6] == "dealt ")

    def _move(self, action_id: int) -> None:
        assert self.engine is not None
        game = self._game
        player = self.engine.to_act
        assert player is not None
        action = game.encoding.action(player, action_id)
        event = action.to_event()
        self._log.append((-1, json.dumps(event, sort_keys=True)))
        section = game.encoding.section_of(action_id)[0]
        self.moves[game.encoding.seat[player], MOVE_KINDS.index(section)] += 1
        self._step(action)

    def _step(self, action: Any) -> None:
        """Apply ``action``; whoever drew a card in the engine sees which one (privately)."""
        engine = self.engine
        assert engine is not None
        before = {p: Counter(engine.hand(p)) for p in self._game.players}
        engine.apply(action)
        for seat, p in enumerate(self._game.players):
            after = Counter(engine.hand(p))
            for card in _gained(before[p], after, Counter()):
                self._log.append((seat, f"drew {card}"))

    def resample(self, player: int, rng: random.Random) -> CrittersSpielState:
        """A state ``player`` cannot tell from this one, hidden cards re-dealt (for ISMCTS).

        The engine's ``determinize`` deals the unseen cards from the view alone; other seats'
        private history is dropped, since the searching seat never saw it.
        """
        assert self.engine is not None
        name = self._game.players[player]
        other: CrittersSpielState = self.clone()
        other.engine = determinize(self.engine.view(name), name, rng)
        other._log = [(who, text) for who, text in self._log if who in (-1, player)]
        return other

    def seat_log(self, player: int) -> list[str]:
        """What ``player`` has seen so far, in order."""
        return [text for who, text in self._log if who in (-1, player)]


def _gained(before: Counter[str], after: Counter[str], already: Counter[str]) -> list[str]:
    gained = after - before - already
    return sorted(gained.elements())


class CrittersObserver:
    """Tensor and string of a seat: its view now, or (perfect recall) all it has seen."""

    def __init__(self, game: Table, perfect_recall: bool) -> None:
        self.game = game
        self.perfect_recall = perfect_recall
        enc = game.encoding
        size = enc.obs_size + (game.n * len(MOVE_KINDS) if perfect_recall else 0)
        self.tensor = np.zeros(size, dtype=np.float32)
        self.dict = {"observation": self.tensor[: enc.obs_size]}
        if perfect_recall:
            self.dict["moves"] = self.tensor[enc.obs_size :].reshape(game.n, len(MOVE_KINDS))

    def set_from(self, state: CrittersSpielState, player: int) -> None:
        enc = self.game.encoding
        self.tensor.fill(0)
        if state.engine is None:
            for text in state.seat_log(player):
                if text.startswith("dealt "):
                    self.tensor[enc.card_index[text[6:]]] += 1
        else:
            self.tensor[: enc.obs_size] = enc.observe(state.engine.view(self.game.players[player]))
        if self.perfect_recall:
            self.dict["moves"][:] = np.roll(state.moves, -player, axis=0)

    def string_from(self, state: CrittersSpielState, player: int) -> str:
        if self.perfect_recall:
            return f"p{player}\n" + "\n".join(state.seat_log(player))
        if state.engine is None:
            dealt = sorted(t[6:] for t in state.seat_log(player) if t.startswith("dealt "))
            return f"p{player} dealing; hand {' '.join(dealt)}"
        view = state.engine.view(self.game.players[player])
        view.pop("winners", None)
        return f"p{player} " + json.dumps(view, sort_keys=True)


def make_resampler(seed: int) -> Callable[[Any, int], Any]:
    """A resampler for ``ISMCTSBot.set_resampler``, backed by the engine's ``determinize``."""
    rng = random.Random(seed)

    def resample(state: Any, player: int) -> Any:
        return state.resample(player, rng)

    return resample


def _clone_or_none(value: CrittersState | None) -> CrittersState | None:
    return None if value is None else value.clone()


pyspiel.register_game(_GAME_TYPE, CrittersGame)
