"""The vector envs critters and wild declare (``GameInfo.faces.vector``): cheaper steps.

``make_vector`` (``generic_vector``) finds them; a game that declares none gets the generic
``TurnGames``. Both are Gymnasium 1.x ``VectorEnv`` s of ``num_envs`` games of
``bestiary/Critters-v0`` / ``bestiary/Wild-v0`` (same parameters, opponents chosen the same
way), with the batch arrays, autoreset and infos of ``generic_vector``. Every game plays
exactly what the single env plays for the same seed and actions (tested step by step against
N single envs), with less per step:

- no dict per game: observations and masks are written into preallocated batch arrays,
  read straight from the game state (``counts`` / ``observe_state``: the view's own
  read-outs, tested equal to encoding the view); critters keeps each game's counts and mask
  in bytearrays and copies them into the batch once per step;
- critters (``TurnGames`` with its own step): the learner's legal actions are generated once
  per step (they make the mask and say what an id means), legal moves are applied without
  being checked again (``CrittersState.play_legal``), and opponents are played by the loop the
  ``Match`` driver runs in this setting (the learner acts at once, the opponents in turn,
  reshuffles sampled with the table's RNG, seeded when the first is due), handed a view that
  is built only if the bot reads it;
- wild is real-time, so not a ``TurnGames``: one step is one tick for every seat, and every
  tick is still the core ``Match``'s (``TickedWild.play_tick``), the real-time clock not
  re-implemented. It shares the base (batch buffers, seeding, autoreset); its flag is
  ``skipped`` (int8: the learner's action was skipped as a wait), not ``illegal_action``.

The reasons' strings of the single envs are not carried (they cost a string per game per
step).

>>> envs = CrittersVectorEnv(4, players=2, opponents="random")
>>> observations, infos = envs.reset(seed=1)
>>> observations["action_mask"].shape, int(envs.single_action_space.n)
((4, 539), 539)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from bestiary.adapters.batch import write_nonzero
from bestiary.adapters.critters_encoding import CrittersEncoding
from bestiary.adapters.generic_vector import (
    LazyView,
    TurnGames,
    _count,
    _Games,
    _place,
    make_vector,
)
from bestiary.adapters.gym_envs import CrittersEnv, WildEnv
from bestiary.adapters.ticks import TickedWild
from bestiary.adapters.wild_encoding import WildEncoding
from bestiary.core.agent import Agent
from bestiary.core.driver import BotFault
from bestiary.core.errors import IllegalAction
from bestiary.critters import CrittersState
from bestiary.critters.actions import CrittersAction
from bestiary.wild import WildAction, WildState


class CrittersVectorEnv(TurnGames[CrittersEnv, CrittersEncoding]):
    """``num_envs`` games of ``bestiary/Critters-v0`` (its parameters), stepped together:
    ``TurnGames`` with critters' own step (module docstring)."""

    def __init__(self, num_envs: int, copy: bool = True, **kwargs: Any) -> None:
        """``kwargs``: ``CrittersEnv`` 's (players, opponents, seat, options, illegal_reward,
        max_moves), the same for every game."""
        envs = [CrittersEnv(**kwargs) for _ in range(_count(num_envs))]
        self._seat_games(envs, copy)
        # Each game's state, opponents, moves so far and table RNG (reshuffles), held here:
        # the single env's are Python attributes behind properties.
        self._states: list[CrittersState] = []
        self._opponents: list[Mapping[str, Agent]] = [{} for _ in envs]
        self._moves = [0] * self.num_envs
        # The learner's legal actions and their ids, in the same order (none once it ended).
        self._legal: list[list[CrittersAction]] = [[] for _ in envs]
        self._legal_ids: list[list[int]] = [[] for _ in envs]
        self._chance = [Reshuffles(0) for _ in envs]
        self._ids: dict[int, tuple[Any, int]] = {}  # id(action) -> (action, its id)
        # Each game's observation (counts, a byte each) and mask, kept in bytearrays until the
        # step returns, then copied into the batch arrays at once (``_observations``): an item
        # written into a bytearray costs half what one into a NumPy row does.
        enc = self.encoding
        self._kept_obs: list[bytearray] = [bytearray(enc.obs_size) for _ in envs]
        self._kept_mask: list[bytes | bytearray] = [bytes(enc.size) for _ in envs]
        self._every_id_bytes = b"\x01" * enc.size
        self._wide: dict[int, list[int]] = {}  # games with a count over 255 (a huge deck)

    def _reset(self, i: int, seed: int | None, options: dict[str, Any] | None) -> None:
        # The single env's deal; then the opponents play up to the learner, as in its reset.
        env = self.envs[i]
        chance = self._chance[i] = Reshuffles(env.deal(seed, options))
        state = env.game_state
        _place(self._states, i, state)
        opponents = self._opponents[i] = env._opponents
        chance.settle(state)
        self._moves[i] = moves = _play_opponents(
            state, self.learner, opponents, chance, 0, self.max_moves
        )
        if state.is_over or moves >= self.max_moves:  # over before the learner's turn
            self._count(i, state)
            self._end(i, ())
            self._legal[i] = []
            self._legal_ids[i] = []
            return
        self._observe(i, state)

    def _observe(self, i: int, state: CrittersState) -> None:
        """Game i's observation and, while it goes on, the learner's legal ids."""
        enc = self.encoding
        self._count(i, state)
        mask = self._kept_mask[i] = bytearray(enc.size)
        cache = self._ids
        legal = state.legal_actions_once(self.learner)
        ids = []
        for a in legal:
            # By identity: actions are interned, and hashing a dataclass costs more.
            hit = cache.get(id(a))
            if hit is None or hit[0] is not a:
                if len(cache) > 100_000:
                    cache.clear()
                hit = cache[id(a)] = (a, enc.action_id(a))
            ids.append(hit[1])
            mask[hit[1]] = 1
        self._legal[i] = legal
        self._legal_ids[i] = ids

    def _count(self, i: int, state: CrittersState) -> None:
        """Game i's observation, kept for ``_observations``."""
        counts = self.encoding.counts(state, self.learner)
        kept = self._kept_obs[i] = bytearray(len(counts))
        if self._wide:
            self._wide.pop(i, None)
        try:
            write_nonzero(kept, counts)
        except ValueError:  # a count over 255: this row is written into the batch itself
            self._kept_obs[i] = bytearray(len(counts))
            self._wide[i] = counts

    def _end(self, i: int, winners: Sequence[str]) -> None:
        super()._end(i, winners)
        self._kept_mask[i] = self._every_id_bytes

    def _observations(self) -> dict[str, np.ndarray]:
        self._copy_kept(self._kept_obs, self._obs, np.uint8)
        for i, counts in self._wide.items():
            write_nonzero(self._obs_rows[i], counts)
        self._copy_kept(self._kept_mask, self._mask, np.int8)
        return super()._observations()

    def _step(self, i: int, action_id: int) -> None:
        state = self._states[i]
        action: CrittersAction | None = None
        for j, legal_id in enumerate(self._legal_ids[i]):
            if legal_id == action_id:
                action = self._legal[i][j]
                break
        if action is None:
            self._count(i, state)
            self._refuse(i)
            return
        chance = self._chance[i]
        state.play_legal(action)
        chance.settle(state)
        moves = self._moves[i] + 1
        opponents = self._opponents[i]
        moves = _play_opponents(state, self.learner, opponents, chance, moves, self.max_moves)
        self._moves[i] = moves
        over = state.is_over
        if self._finish(i, over, state.winners() if over else (), moves):
            self._count(i, state)
        else:
            self._observe(i, state)


class Reshuffles:
    """A table's reshuffles, sampled with its RNG as the ``Match`` samples them after a move.

    The RNG is seeded when the first reshuffle is due: most games never reshuffle, and seeding
    a ``random.Random`` is a noticeable part of a new deal.
    """

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rng: random.Random | None = None

    def settle(self, state: CrittersState) -> None:
        """The reshuffles due now."""
        while state.chance_due and not state.is_over:
            if self.rng is None:
                self.rng = random.Random(self.seed)
            state.apply(state.chance_outcome(self.rng))


def _play_opponents(
    state: CrittersState,
    learner: str,
    opponents: Mapping[str, Agent],
    chance: Reshuffles,
    moves: int,
    max_moves: int,
) -> int:
    """The opponents play until the learner must act, as the Match plays them for the single
    env (a bot's move, then due reshuffles); the move count after them."""
    while not state.is_over and moves < max_moves:
        player = state.to_act
        if player is None or player == learner:
            break
        legal = state.legal_actions_once(player)
        action = opponents[player].act(LazyView(state, player), legal)
        if action is None:
            raise BotFault(f"bot for {player} made no move when it had to")
        if any(action is x for x in legal):
            state.play_legal(action)
        else:
            try:
                state.apply(action)  # an equal action built anew, or one the rules refuse
            except IllegalAction as err:
                raise BotFault(
                    f"bot for {player} played {action!r}, which is refused: {err}"
                ) from None
        moves += 1
        chance.settle(state)
    return moves


class WildVectorEnv(_Games[WildEnv, WildEncoding]):
    """``num_envs`` games of ``bestiary/Wild-v0`` (its parameters), one tick per step each."""

    def __init__(self, num_envs: int, copy: bool = True, **kwargs: Any) -> None:
        """``kwargs``: ``WildEnv`` 's (players, opponents, seat, options, quiet_ticks,
        max_ticks), the same for every game."""
        envs = [WildEnv(**kwargs) for _ in range(_count(num_envs))]
        self._setup(envs, envs[0].encoding, copy)
        self.max_ticks = envs[0].max_ticks
        self._seat = self.encoding.seat[self.learner]
        self._scores = [0] * self.num_envs
        self._tables: list[TickedWild] = []
        # The learner's legal actions by id (wait, id 0, is legal but no action).
        self._legal: list[dict[int, WildAction]] = [{} for _ in envs]
        # Each game's observation but the clock, a byte per count, and the clock, kept until
        # the step returns, then copied into the batch at once (``_observations``).
        self._kept_obs = [bytes(self.encoding.obs_size) for _ in envs]
        self._quiet = [0.0] * self.num_envs

    def _flag_key(self) -> str:
        return "skipped"

    def _flag_dtype(self) -> type:
        return np.int8

    def _reset(self, i: int, seed: int | None, options: dict[str, Any] | None) -> None:
        env = self.envs[i]
        env.reset(seed=seed, options=options)
        _place(self._tables, i, env.table)
        self._scores[i] = 0
        self._observe(i)

    def _keep(
        self, i: int, table: TickedWild, state: WildState, scores: dict[str, int] | None = None
    ) -> None:
        """Game i's observation (``WildEncoding.observe_state``'s entries), for
        ``_observations``. bytes() would refuse a count over 255: wild's stay under 124, two
        points per card of six Packs of ten (``observation_high``)."""
        self._kept_obs[i] = bytes(self.encoding.counts(state, self.learner, scores))
        self._quiet[i] = table.quiet_share

    def _observations(self) -> dict[str, np.ndarray]:
        self._copy_kept(self._kept_obs, self._obs, np.uint8)
        self._obs[:, self.encoding.quiet_at] = self._quiet
        return super()._observations()

    def _observe(self, i: int, scores: dict[str, int] | None = None) -> None:
        table = self._tables[i]
        state = table.state
        enc = self.encoding
        self._keep(i, table, state, scores)
        row = self._mask_row(i)
        choices = {}
        for a in state.legal_actions(self.learner):
            action_id = enc.action_id(a)
            choices[action_id] = a
            row[action_id] = 1
        row[0] = 1  # wait
        self._legal[i] = choices

    def _step(self, i: int, action_id: int) -> None:
        table = self._tables[i]
        state = table.state
        chosen: list[WildAction | None] = [None] * self.encoding.n
        action = self._legal[i].get(action_id)
        chosen[self._seat] = action
        report = table.play_tick(chosen)
        # A masked-out id is skipped as a wait; so is the learner's action the tick refused.
        skipped = (action is None and action_id != 0) or self.learner in report.skipped
        self._flags[i] = int(skipped)
        scores = state.scores()
        score = scores[self.learner]
        self._rewards[i] = score - self._scores[i]
        self._scores[i] = score
        over = state.is_over
        truncated = not over and table.ticks >= self.max_ticks
        self._terminated[i] = over
        self._truncated[i] = truncated
        if over or truncated:
            self._keep(i, table, state, scores)
            self._end(i, state.winners() if over else ())
        else:
            self._observe(i, scores)


__all__ = ["CrittersVectorEnv", "LazyView", "WildVectorEnv", "make_vector"]
