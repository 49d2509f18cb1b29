"""What every OpenSpiel face of bestiary is made of: a table, a game and a state to declare.

A face (``generic_spiel``, ``openspiel_critters``, ``openspiel_wild``) subclasses these and
declares only what is its own:

- ``SpielTable``: what a parameter set fixes. Its ``defaults`` (the parameters), and in
  ``__init__`` the options, ``encoding``, ``length`` (the history bound), ``chance_size`` (the
  most outcomes of a chance node) and ``kind`` (its ``pyspiel.GameType``, from
  ``spiel_pieces.game_type``); ``utilities`` if returns are not +1/-1, ``legal_ids`` if the
  encoding has a cheaper way than its mask, ``observer`` for its observation layout.
- ``SpielGame``: ``tables`` (the face's ``Tables``) and ``state`` (its state class).
- ``SpielState``: ``tables`` again, and its chance model: ``chance_outcomes``,
  ``_apply_chance`` and ``_chance_string`` (``generic_spiel`` deals by seeds;
  ``spiel_chance.Shoe`` lists the outcomes of cards dealt one at a time). A sequential game's
  moves, returns (+1 for each winner, -1 for the others, 0 to all for a game cut at
  ``length`` history entries) and text come from here; a game on ticks is a
  ``spiel_ticks.TickedSpielState`` (who acts, rewards, returns). A face that keeps what each
  seat saw (``_log``, ``Entry``) has its information-state strings from it; one that can
  re-deal what a seat has not seen declares ``_resampler`` and gets OpenSpiel's
  ``resample_from_infostate``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import numpy as np
import pyspiel

from bestiary.adapters.encoding import Encoding
from bestiary.adapters.spiel_cells import Cell, Shared, Tables
from bestiary.core.game import State

# resample_from_infostate re-deals and replays until the seat's information state matches.
RESAMPLE_TRIES = 1000
# What a seat saw: (the seat, or -1 for everyone; what it saw; what the others saw, or None).
Entry = tuple[int, str, str | None]


class SpielTable(Shared):
    """What a parameter set fixes (shared by every state of it: ``Shared``)."""

    defaults: ClassVar[dict[str, Any]]
    encoding: Encoding
    length: int
    chance_size: int
    kind: Any  # the pyspiel.GameType
    # Whether an id is a position in the seat's legal list (``ViewEncoding``): the state then
    # lists them before it reads or names an id.
    positional = False
    # Whether a game that reaches ``length`` history entries is cut there (returning 0 to
    # all); False where ``length`` is a bound the rules keep by themselves.
    cuts = True

    def __init__(self, params: dict[str, Any]) -> None:
        self.params = {**self.defaults, **params}
        self.n = int(self.params["players"])
        self.players = tuple(f"player_{i}" for i in range(self.n))
        self.seat = {p: i for i, p in enumerate(self.players)}

    def utilities(self) -> tuple[float, float, float | None]:
        """The least and most a seat can get, and what every game's returns add up to."""
        return -1.0, 1.0, None

    def info(self) -> Any:
        low, high, total = self.utilities()
        return pyspiel.GameInfo(
            num_distinct_actions=self.encoding.size,
            max_chance_outcomes=self.chance_size,
            num_players=self.n,
            min_utility=low,
            max_utility=high,
            utility_sum=total,
            max_game_length=self.length,
        )

    def legal_ids(self, legal: Sequence[Any]) -> list[int]:
        """The ids of ``legal``, ascending (the mask also primes a ``ViewEncoding``)."""
        return [int(i) for i in np.flatnonzero(self.encoding.mask(legal))]

    def returns(self, winners: Sequence[str]) -> list[float]:
        return [1.0 if p in winners else -1.0 for p in self.players]

    def observer(self, iig_obs_type: Any) -> Any:
        raise NotImplementedError


class SpielGame(pyspiel.Game):
    """A face's game: its table's type and info; makes its states and observers."""

    tables: ClassVar[Tables[Any]]
    state: ClassVar[type[SpielState]]

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        table = self.tables(params or {})
        super().__init__(table.kind, table.info(), table.params)

    def new_initial_state(self) -> SpielState:
        return self.state(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Any:
        if params:
            raise ValueError(f"observation parameters are not supported, not {params!r}")
        return self.tables(self.get_parameters()).observer(iig_obs_type)


def _clone_or_none(value: State | None) -> State | None:
    return None if value is None else value.clone()


class SpielState(pyspiel.State):
    """One game of a sequential face: chance (its model) until the engine exists, then the
    engine's own turns and chance."""

    tables: ClassVar[Tables[Any]]

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self._game = self.tables(game.get_parameters())
        self._engine: Cell[Any] = Cell(None, _clone_or_none)
        self._seen: Cell[list[Entry]] = Cell([], list.copy)
        self._cut = False

    @property
    def engine(self) -> Any:
        return self._engine.value

    @engine.setter
    def engine(self, value: Any) -> None:
        self._engine.value = value

    @property
    def _log(self) -> list[Entry]:
        """What the seats saw, in order (``Entry``)."""
        return self._seen.value

    @_log.setter
    def _log(self, value: list[Entry]) -> None:
        self._seen.value = value

    def log_as_seen(self, sees: Callable[[int], bool]) -> list[str]:
        """The log as an observer sees it who sees the private entries of seats ``sees``."""
        lines = []
        for who, text, public in self._log:
            if who < 0 or sees(who):
                lines.append(text)
            elif public is not None:
                lines.append(public)
        return lines

    def seat_log(self, player: int) -> list[str]:
        """What ``player`` has seen so far, in order."""
        return self.log_as_seen(lambda seat: seat == player)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state ``player_id`` cannot tell from this one, by OpenSpiel's resampling hook:
        the first of ``RESAMPLE_TRIES`` tries of the face's ``_resampler`` that matches."""
        attempt = self._resampler(int(player_id))
        rng = random.Random(int(probability_sampler() * 2**53))
        for _ in range(RESAMPLE_TRIES):
            sample = attempt(rng)
            if sample is not None:
                return sample
        raise RuntimeError(
            f"no re-deal matched seat {player_id}'s information state in {RESAMPLE_TRIES} tries"
        )

    def _resampler(self, player: int) -> Callable[[random.Random], SpielState | None]:
        """One try of a re-deal ``player`` cannot tell from this state: the state, or None."""
        raise NotImplementedError(f"{type(self).__name__} cannot resample an information state")

    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        engine = self._engine.value  # not the property: OpenSpiel asks this at every turn
        if engine is None or engine.chance_due:
            return int(pyspiel.PlayerId.CHANCE)
        return int(self._game.seat[engine.actors[0]])

    def is_terminal(self) -> bool:
        engine = self._engine.value
        return self._cut or (engine is not None and engine.is_over)

    def _legal(self, player: int) -> list[Any]:
        assert self.engine is not None
        legal: list[Any] = self.engine.legal_actions(self._game.players[player])
        return legal

    def _legal_actions(self, player: int) -> list[int]:
        return self._game.legal_ids(self._legal(player))  # type: ignore[no-any-return]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        raise NotImplementedError

    def _apply_chance(self, outcome: int) -> None:
        raise NotImplementedError

    def _chance_string(self, outcome: int) -> str:
        raise NotImplementedError

    def _move(self, player: int, action: int) -> None:
        """Seat ``player``'s decision ``action`` on the engine."""
        game = self._game
        if game.positional:
            game.encoding.mask(self._legal(player))
        self.engine.apply(game.encoding.action(game.players[player], action))

    def _apply_action(self, action: int) -> None:
        self._play(self.current_player(), action)

    def _play(self, player: int, action: int) -> None:
        """``action`` of ``player`` (``PlayerId.CHANCE``, -1: a chance outcome)."""
        if player == pyspiel.PlayerId.CHANCE:
            self._apply_chance(action)
        else:
            self._move(player, action)
        game = self._game
        if game.cuts and not self.is_terminal() and len(self.history()) + 1 >= game.length:
            self._cut = True

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return self._chance_string(action)
        game = self._game
        if game.positional and self.engine is not None:
            game.encoding.mask(self._legal(player))
        return game.encoding.describe(action)  # type: ignore[no-any-return]

    def returns(self) -> list[float]:
        if self.engine is None or not self.engine.is_over:
            return [0.0] * self._game.n
        return self._game.returns(self.engine.winners())  # type: ignore[no-any-return]

    def __str__(self) -> str:
        if self.engine is None:
            return self._dealing()
        return json.dumps(self.engine.view(None), sort_keys=True)

    def _dealing(self) -> str:
        return "dealing"
