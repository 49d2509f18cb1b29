"""Any registered turn-based game as an OpenSpiel Python game: ``python_bestiary_game``.

The face a game gets for free, from what it declares (``spiel_face`` with a seeded deal):
decision ids are those of its encoding (``GameInfo.faces.encoding``), or of the generic one
(``bestiary.adapters.encoding``: the ``i``-th legal action). Sequential, explicit-stochastic,
imperfect information:

- chance first picks the deal, one of ``deals`` seeds, each equally likely (``new_game`` with
  that seed): the deal is hidden, each seat sees only its own view of it;
- whenever the game's own chance is due (``State.chance_due``), chance picks one of
  ``chance_samples`` draws, each equally likely (``chance_outcome`` with a generator seeded
  from the deal and the draw): a uniform sample of the game's chance, since a game gives no
  list of its outcomes and their probabilities.

A game whose chance is a known stock of cards is better declared card by card
(``spiel_chance.Shoe``), as ``openspiel_critters`` and ``openspiel_wild`` do.

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

from bestiary.adapters.encoding import ViewEncoding, encoding_for
from bestiary.adapters.spiel_cells import Tables
from bestiary.adapters.spiel_face import SpielGame, SpielState, SpielTable
from bestiary.adapters.spiel_pieces import game_type
from bestiary.core.errors import BadOption
from bestiary.core.game import get_game, redacted

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


class Table(SpielTable):
    """What a parameter set fixes: the game, its players and options, and the encoding."""

    defaults = DEFAULT_PARAMS
    kind = _GAME_TYPE

    def __init__(self, params: dict[str, Any]) -> None:
        super().__init__(params)
        name = str(self.params["game"])
        if not name:
            raise BadOption("name the game: python_bestiary_game takes a 'game' parameter")
        try:
            self.rules = get_game(name)
        except KeyError as err:
            raise BadOption(str(err.args[0])) from None
        if self.rules.info.real_time:
            raise BadOption(f"{name} is real-time: the generic OpenSpiel face is for turn-based")
        self.rules.info.check_player_count(self.n)
        self.options = json.loads(str(self.params["options"]))
        probe = self.rules.new_game(self.players, self.options, seed=0)  # validates options
        self.encoding = encoding_for(name, probe.view(self.players[0]))
        self.positional = isinstance(self.encoding, ViewEncoding)
        self.deals = int(self.params["deals"])
        self.samples = int(self.params["chance_samples"])
        self.length = int(self.params["max_game_length"])
        if min(self.deals, self.samples, self.length) < 1:
            raise BadOption("deals, chance_samples and max_game_length must be at least 1")
        self.chance_size = max(self.deals, self.samples)

    def observer(self, iig_obs_type: Any) -> ViewObserver:
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return ViewObserver(self, perfect_recall)


table_for = Tables(DEFAULT_PARAMS, Table)


class BestiarySpielState(SpielState):
    """One game: the deal's chance node, then the engine state (its chance sampled)."""

    tables = table_for

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self._deal = 0
        self._draws = 0  # chance draws so far (each seeds its own generator)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        count = self._game.deals if self.engine is None else self._game.samples
        return [(i, 1.0 / count) for i in range(count)]

    def _apply_chance(self, outcome: int) -> None:
        game, engine = self._game, self.engine
        if engine is None:
            self._deal = outcome
            self.engine = game.rules.new_game(game.players, game.options, seed=outcome)
        else:
            rng = random.Random(f"{self._deal}:{self._draws}:{outcome}")
            self._draws += 1
            engine.apply(engine.chance_outcome(rng))

    def _chance_string(self, outcome: int) -> str:
        return f"deal {outcome}" if self.engine is None else f"chance {outcome}"


class BestiaryGame(SpielGame):
    """The game: which registered game, its players and options; makes states and observers."""

    tables = table_for
    state = BestiarySpielState


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
