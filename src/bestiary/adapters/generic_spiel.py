"""Any registered turn-based game as an OpenSpiel Python game: ``python_bestiary_game``.

The face a game gets for free, from what it declares: decision ids are those of its encoding
(``GameInfo.faces.encoding``), or of the generic one (``bestiary.adapters.encoding``: the
``i``-th legal action). Sequential, explicit-stochastic, imperfect information:

- chance first picks the deal, one of ``deals`` seeds, each equally likely (``new_game`` with
  that seed): the deal is hidden, each seat sees only its own view of it;
- whenever the game's own chance is due (``State.chance_due``), chance picks one of
  ``chance_samples`` draws, each equally likely (``chance_outcome`` with a generator seeded
  from the deal and the draw): a uniform sample of the game's chance, since a game gives no
  list of its outcomes and their probabilities.

Returns: +1 for each winner, -1 for the others; a game cut at ``max_game_length`` history
entries returns 0 to all. Observation: the seat's view now (the encoding's tensor; its JSON as
the string). Information state string (perfect recall): every event the seat has seen, as it
may see it (``core.game.redacted``), then its view now.

Parameters: ``game`` (a registered game's name), ``players``, ``options`` (the game's options
as a JSON object), ``deals``, ``chance_samples``, ``max_game_length``.

>>> import pyspiel
>>> game = pyspiel.load_game("python_bestiary_game", {"game": "critters", "players": 3})
>>> game.num_players()
3
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

from bestiary.adapters.encoding import Encoding, encoding_for
from bestiary.adapters.spiel_cells import Cell, Shared, Tables
from bestiary.adapters.spiel_pieces import game_type
from bestiary.core.errors import BadOption
from bestiary.core.game import State, get_game, redacted

SHORT_NAME = "python_bestiary_game"
DEFAULT_PARAMS: dict[str, Any] = {
    "game": "",  # a registered game's name: there is no default
    "players": 2,
    "options": "{}",
    "deals": 1000,
    "chance_samples": 100,
    "max_game_length": 2000,
}

_GAME_TYPE = game_type(
    SHORT_NAME,
    "bestiary: any registered turn-based game",
    pyspiel.GameType.Dynamics.SEQUENTIAL,
    pyspiel.GameType.Utility.GENERAL_SUM,
    pyspiel.GameType.RewardModel.TERMINAL,
    8,
    DEFAULT_PARAMS,
    information_state_tensor=False,
)


class Table(Shared):
    """What a parameter set fixes: the game, its players and options, and the encoding."""

    def __init__(self, params: dict[str, Any]) -> None:
        self.params = {**DEFAULT_PARAMS, **params}
        name = str(self.params["game"])
        if not name:
            raise BadOption("name the game: python_bestiary_game takes a 'game' parameter")
        try:
            self.rules = get_game(name)
        except KeyError as err:
            raise BadOption(str(err.args[0])) from None
        if self.rules.info.real_time:
            raise BadOption(f"{name} is real-time: the generic OpenSpiel face is for turn-based")
        self.n = int(self.params["players"])
        self.rules.info.check_player_count(self.n)
        self.players = tuple(f"player_{i}" for i in range(self.n))
        self.options = json.loads(str(self.params["options"]))
        probe = self.rules.new_game(self.players, self.options, seed=0)  # validates options
        self.encoding: Encoding = encoding_for(name, probe.view(self.players[0]))
        self.seat = {p: i for i, p in enumerate(self.players)}
        self.deals = int(self.params["deals"])
        self.samples = int(self.params["chance_samples"])
        self.length = int(self.params["max_game_length"])
        if min(self.deals, self.samples, self.length) < 1:
            raise BadOption("deals, chance_samples and max_game_length must be at least 1")


table_for = Tables(DEFAULT_PARAMS, Table)


class BestiaryGame(pyspiel.Game):
    """The game: which registered game, its players and options; makes states and observers."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        table = table_for(params or {})
        super().__init__(
            _GAME_TYPE,
            pyspiel.GameInfo(
                num_distinct_actions=table.encoding.size,
                max_chance_outcomes=max(table.deals, table.samples),
                num_players=table.n,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=None,
                max_game_length=table.length,
            ),
            table.params,
        )

    def new_initial_state(self) -> BestiarySpielState:
        return BestiarySpielState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> ViewObserver:
        if params:
            raise ValueError(f"observation parameters are not supported, not {params!r}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return ViewObserver(table_for(self.get_parameters()), perfect_recall)


def _clone_or_none(value: State | None) -> State | None:
    return None if value is None else value.clone()


class BestiarySpielState(pyspiel.State):
    """One game: the deal's chance node, then the engine state (its chance sampled)."""

    def __init__(self, game: BestiaryGame) -> None:
        super().__init__(game)
        self._game = table_for(game.get_parameters())
        self._engine: Cell[State | None] = Cell(None, _clone_or_none)
        self._deal = 0
        self._draws = 0  # chance draws so far (each seeds its own generator)
        self._cut = False

    @property
    def engine(self) -> State | None:
        return self._engine.value

    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        engine = self.engine
        if engine is None or engine.chance_due:
            return int(pyspiel.PlayerId.CHANCE)
        return self._game.seat[engine.actors[0]]

    def is_terminal(self) -> bool:
        return self._cut or (self.engine is not None and self.engine.is_over)

    def _legal(self, player: int) -> list[Any]:
        assert self.engine is not None
        return self.engine.legal_actions(self._game.players[player])

    def _legal_actions(self, player: int) -> list[int]:
        mask = self._game.encoding.mask(self._legal(player))
        return [int(i) for i in np.flatnonzero(mask)]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        count = self._game.deals if self.engine is None else self._game.samples
        return [(i, 1.0 / count) for i in range(count)]

    def _apply_action(self, action: int) -> None:
        game, engine = self._game, self.engine
        if engine is None:
            self._deal = action
            self._engine.value = game.rules.new_game(game.players, game.options, seed=action)
        elif engine.chance_due:
            rng = random.Random(f"{self._deal}:{self._draws}:{action}")
            self._draws += 1
            engine.apply(engine.chance_outcome(rng))
        else:
            player = self.current_player()
            enc = game.encoding
            enc.mask(self._legal(player))  # the list the id indexes (the generic encoding)
            engine.apply(enc.action(game.players[player], action))
        if not self.is_terminal() and len(self.history()) + 1 >= game.length:
            self._cut = True

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}" if self.engine is None else f"chance {action}"
        enc = self._game.encoding
        if self.engine is not None:
            enc.mask(self._legal(player))
        return enc.describe(action)

    def returns(self) -> list[float]:
        if self.engine is None or not self.engine.is_over:
            return [0.0] * self._game.n
        winners = self.engine.winners()
        return [1.0 if p in winners else -1.0 for p in self._game.players]

    def __str__(self) -> str:
        if self.engine is None:
            return "dealing"
        return json.dumps(self.engine.view(None), sort_keys=True)


class ViewObserver:
    """A seat's view now (tensor and string), or everything it has seen (perfect recall)."""

    def __init__(self, game: Table, perfect_recall: bool) -> None:
        self.game = game
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(game.encoding.obs_size, dtype=np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: BestiarySpielState, player: int) -> None:
        self.tensor.fill(0)
        if state.engine is not None:
            view = state.engine.view(self.game.players[player])
            self.tensor[:] = self.game.encoding.observe(view)

    def string_from(self, state: BestiarySpielState, player: int) -> str:
        engine = state.engine
        if engine is None:
            return f"p{player} dealing"
        name = self.game.players[player]
        view = json.dumps(engine.view(name), sort_keys=True)
        if not self.perfect_recall:
            return f"p{player} {view}"
        seen = redacted(engine, engine.events(), name)
        return "\n".join([f"p{player}", *(json.dumps(e, sort_keys=True) for e in seen), view])


pyspiel.register_game(_GAME_TYPE, BestiaryGame)
