"""A game on ticks as an OpenSpiel state: every seat picks at each tick, chance orders them.

The state's engine is the game on ticks (``ticks.TickedWild``'s shape: ``state``, ``ticks``,
``play_tick(chosen, order)``). At each decision node every seat picks an id (its table's
``legal_ids``, ``wait`` among them): simultaneously, or with the table's ``turn_based`` one
after another in seat order, no seat seeing another's pick until the tick is played (its own
log says ``picked ...``). When two or more seats act, a chance node picks the order they are
applied in (every order equally likely), and the tick is played in that order; with one or no
actor there is nothing to order. Rewards: the change of each seat's score at the tick;
returns: the scores.

A face declares, beside its table, its deal (``_deal_outcomes``, ``_deal``, ``_deal_string``:
chance until ``_deal`` sets ``engine``) and what a tick showed each seat (``_before_tick`` and
``_ticked``, for its log).
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import pyspiel

from bestiary.adapters.spiel_cells import Cell
from bestiary.adapters.spiel_face import SpielState


class TickedSpielState(SpielState):
    """One game: the deal (the face's chance), then ticks, each perhaps followed by an order."""

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        n = self._game.n
        self._chosen: list[Any] | None = None  # a tick waiting for its order
        self._picks: list[int] = []  # turn-based: the ids picked so far this tick
        # Every tick so far: (the seats' ids, the order's chance outcome or -1), for replays.
        self._ticks: Cell[list[tuple[tuple[int, ...], int]]] = Cell([], list.copy)
        self._rewards = [0.0] * n
        self._scores = [0.0] * n

    # ------------------------------------------------------------------ declared by a face

    def _deal_outcomes(self) -> list[tuple[int, float]]:
        raise NotImplementedError

    def _deal(self, outcome: int) -> None:
        raise NotImplementedError

    def _deal_string(self, outcome: int) -> str:
        raise NotImplementedError

    def _before_tick(self) -> Any:
        """What ``_ticked`` needs to know of the game as it was before the tick."""
        return None

    def _ticked(self, applied: Any, before: Any) -> None:
        """The tick was played (``applied``: ``play_tick``'s report): log what it showed."""

    # ------------------------------------------------------------------ OpenSpiel

    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if self._engine.value is None or self._chosen is not None:
            return int(pyspiel.PlayerId.CHANCE)
        if self._game.turn_based:
            return len(self._picks)
        return int(pyspiel.PlayerId.SIMULTANEOUS)

    def is_terminal(self) -> bool:
        engine = self._engine.value  # not the property: OpenSpiel asks this at every turn
        if engine is None:
            return False
        over: bool = engine.state.is_over
        return over

    def _legal_actions(self, player: int) -> list[int]:
        legal = self._engine.value.state.legal_actions(self._game.players[player])
        return self._game.legal_ids(legal)  # type: ignore[no-any-return]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._chosen is None:
            return self._deal_outcomes()
        count = math.factorial(sum(a is not None for a in self._chosen))
        return [(i, 1.0 / count) for i in range(count)]

    def _move(self, player: int, action: int) -> None:
        """Turn-based, one seat's pick (the tick is played once every seat has picked)."""
        self._picks.append(action)
        self._log.append((player, f"picked {self._game.encoding.describe(action)}", None))
        self._rewards = [0.0] * self._game.n
        if len(self._picks) == self._game.n:
            picks, self._picks = self._picks, []
            self._apply_actions(picks)

    def _apply_chance(self, outcome: int) -> None:
        """A dealt outcome, or the order of a tick."""
        if self._chosen is None:
            self._deal(outcome)
            return
        acting = [s for s, a in enumerate(self._chosen) if a is not None]
        order = list(itertools.permutations(acting))[outcome]
        chosen, self._chosen = self._chosen, None
        ticks = self._ticks.value
        ticks[-1] = (ticks[-1][0], outcome)
        self._tick(chosen, order)

    def _apply_actions(self, actions: list[int]) -> None:
        """The joint decision of a tick: apply it now, or after chance orders it."""
        game = self._game
        chosen = [game.encoding.action(p, a) for p, a in zip(game.players, actions, strict=True)]
        self._ticks.value.append((tuple(actions), -1))
        if sum(a is not None for a in chosen) >= 2:
            self._chosen = chosen
            self._rewards = [0.0] * game.n
        else:
            self._tick(chosen, [s for s, a in enumerate(chosen) if a is not None])

    def _chance_string(self, outcome: int) -> str:
        return self._deal_string(outcome) if self._chosen is None else f"order {outcome}"

    def rewards(self) -> list[float]:
        return list(self._rewards)

    def returns(self) -> list[float]:
        return list(self._scores)

    def _tick(self, chosen: list[Any], order: list[int] | tuple[int, ...]) -> None:
        before = self._before_tick()
        self._ticked(self.engine.play_tick(chosen, list(order)), before)
        scores = self.engine.state.scores()
        new = [float(scores[p]) for p in self._game.players]
        self._rewards = [a - b for a, b in zip(new, self._scores, strict=True)]
        self._scores = new
