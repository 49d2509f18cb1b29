"""Vector envs for learners: many critters or wild games stepped together, one batch array.

``CrittersVectorEnv`` and ``WildVectorEnv`` are Gymnasium 1.x ``VectorEnv`` s: ``num_envs``
games of ``bestiary/Critters-v0`` / ``bestiary/Wild-v0`` (same parameters, opponents chosen
the same way), observations a ``Dict`` of two batch arrays, ``"observation"`` (float32,
``(num_envs, obs_size)``) and ``"action_mask"`` (int8, ``(num_envs, actions)``), actions a
``MultiDiscrete`` batch. Every game plays exactly what the single env plays for the same
seed and actions (tested step by step against N single envs), with less per step:

- no dict per game: observations and masks are written into preallocated batch arrays,
  read straight from the game state (``observe_state``: the view's own read-outs, tested
  equal to encoding the view);
- critters: the learner's legal actions are generated once per step (they make the mask and
  say what an id means), legal moves are applied without being checked again
  (``CrittersState.play_legal``), and opponents are played by the loop the ``Match`` driver
  runs in this setting (the learner acts at once, the opponents in turn, reshuffles sampled
  with the table's RNG), handed a view that is built only if the bot reads it;
- wild: every tick is still the core ``Match``'s (``TickedWild.play_tick``), the real-time
  clock is not re-implemented.

Autoreset is Gymnasium's default, ``NEXT_STEP`` (``metadata["autoreset_mode"]``): the step
that ends a game returns its last observation with an **all-ones** mask (nothing is legal any
more; every id is accepted), and the next step ignores that game's action, resets it and
returns its first observation (reward 0, not terminated). On every other step a game's mask is
the learner's legal actions, never all zero. ``reset(seed=s)`` seeds game i with ``s + i``,
as ``SyncVectorEnv`` does.

Infos have the same keys at every step, as batch arrays (with Gymnasium's ``_key`` masks,
all true): ``winners`` (``(num_envs, players)`` int8, the winners' bits on the step that ends
a game, else 0); critters ``illegal_action`` (bool: the step ended on a masked-out id); wild
``skipped`` (int8: the learner's action was skipped as a wait). The reasons' strings of the
single envs are not carried (they cost a string per game per step).

>>> envs = CrittersVectorEnv(4, players=2, opponents="random")
>>> observations, infos = envs.reset(seed=1)
>>> observations["action_mask"].shape, int(envs.single_action_space.n)
((4, 539), 539)
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, MutableSequence, Sequence
from typing import Any, Generic, TypeVar, cast

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from bestiary.adapters.batch import write_nonzero
from bestiary.adapters.critters_encoding import CrittersEncoding
from bestiary.adapters.gym_envs import CrittersEnv, Opponents, WildEnv
from bestiary.adapters.ticks import TickedWild
from bestiary.adapters.wild_encoding import WildEncoding
from bestiary.core.agent import Agent
from bestiary.core.driver import BotFault
from bestiary.core.errors import BadOption, IllegalAction
from bestiary.critters import CrittersState
from bestiary.wild import WildAction


class LazyView(Mapping[str, Any]):
    """``state.view(player)``, built the first time a bot reads it (a random bot never does)."""

    __slots__ = ("_player", "_state", "_view")

    def __init__(self, state: Any, player: str) -> None:
        self._state = state
        self._player = player
        self._view: dict[str, Any] | None = None

    def _built(self) -> dict[str, Any]:
        if self._view is None:
            self._view = self._state.view(self._player)
        return self._view

    def __getitem__(self, key: str) -> Any:
        return self._built()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._built())

    def __len__(self) -> int:
        return len(self._built())


def _count(num_envs: Any) -> int:
    if not isinstance(num_envs, int) or isinstance(num_envs, bool) or num_envs < 1:
        raise BadOption(f"a vector env needs at least one game, not num_envs={num_envs!r}")
    return num_envs


T = TypeVar("T")


def _place(items: list[T], i: int, item: T) -> None:
    """``items[i] = item``, appending at the first reset (games reset in order)."""
    if i < len(items):
        items[i] = item
    else:
        items.append(item)


# Type parameters, not attributes redeclared narrower in each game's env: a compiled (mypyc)
# class keeps one type per attribute.
EnvT = TypeVar("EnvT", bound="CrittersEnv | WildEnv")
EncodingT = TypeVar("EncodingT", bound="CrittersEncoding | WildEncoding")


class _Games(VectorEnv[dict[str, np.ndarray], np.ndarray, np.ndarray], Generic[EnvT, EncodingT]):
    """What both vector envs share: the games, the batch buffers, seeding and autoreset.

    Per game, what a step decides (reward, ended, ...) is kept in Python lists and becomes a
    batch array once per step: an item write into a NumPy array costs a few hundred
    instructions, into a list a few.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012

    envs: list[EnvT]
    encoding: EncodingT

    def _setup(self, envs: list[EnvT], encoding: EncodingT, copy: bool) -> None:
        self.envs = envs
        self.num_envs = n = len(envs)
        first = envs[0]
        self.encoding = encoding
        self.learner = first.learner
        self.players = first.players
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(self.single_observation_space, n)
        self.action_space = batch_space(self.single_action_space, n)
        self.copy = copy
        enc = self.encoding
        self._obs = np.zeros((n, enc.obs_size), dtype=np.float32)
        self._mask = np.zeros((n, enc.size), dtype=np.int8)
        self._rewards = [0.0] * n
        self._terminated = [False] * n
        self._truncated = [False] * n
        self._ended = [False] * n
        self._flags = [0] * n  # the game's own info flag of the step (``_flag_key``)
        self._winners = np.zeros((n, len(self.players)), dtype=np.int8)
        self._won = False  # some row of _winners is set
        self._all = np.ones(n, dtype=np.bool_)
        # Rows as memoryviews: item writes on them cost a fraction of NumPy's.
        self._obs_rows = [cast(MutableSequence[float], row.data) for row in self._obs]
        self._mask_rows = [cast(MutableSequence[int], row.data) for row in self._mask]
        self._no_obs = np.zeros(enc.obs_size, dtype=np.float32).data
        self._no_ids = np.zeros(enc.size, dtype=np.int8).data
        self._every_id = np.ones(enc.size, dtype=np.int8).data

    def set_opponents(self, opponents: Opponents) -> None:
        """New opponents in every game from its next reset (self-play, leagues)."""
        for env in self.envs:
            env.set_opponents(opponents)

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        n = self.num_envs
        if seed is None:
            seeds: list[int | None] = [None] * n
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(n)]
        else:
            seeds = list(seed)
        if len(seeds) != n:
            raise BadOption(f"give one seed per game ({n}), not {len(seeds)}")
        if options and "reset_mask" in options:
            raise BadOption(
                "partial resets (options['reset_mask']) are not supported: games reset "
                "themselves the step after they end"
            )
        self._winners[:] = 0
        self._won = False
        for i in range(n):
            self._terminated[i] = self._truncated[i] = self._ended[i] = False
            self._flags[i] = 0
            self._reset(i, seeds[i], options)
        return self._observations(), self._infos()

    def step(
        self, actions: Any
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        ids: list[int] = np.asarray(actions).reshape(self.num_envs).tolist()
        if self._won:
            self._winners[:] = 0
            self._won = False
        ended = self._ended
        for i in range(self.num_envs):
            self._flags[i] = 0
            self._rewards[i] = 0.0
            self._terminated[i] = self._truncated[i] = False
            if ended[i]:  # NEXT_STEP autoreset: this step only resets the game
                self._reset(i, None, None)
                ended[i] = False
                continue
            self._step(i, ids[i])
            ended[i] = self._terminated[i] or self._truncated[i]
        return (
            self._observations(),
            np.array(self._rewards, dtype=np.float64),
            np.array(self._terminated, dtype=np.bool_),
            np.array(self._truncated, dtype=np.bool_),
            self._infos(),
        )

    def _observations(self) -> dict[str, np.ndarray]:
        if self.copy:
            return {"observation": self._obs.copy(), "action_mask": self._mask.copy()}
        return {"observation": self._obs, "action_mask": self._mask}

    def _infos(self) -> dict[str, Any]:
        key = self._flag_key()
        return {
            "winners": self._winners.copy(),
            "_winners": self._all.copy(),
            key: np.array(self._flags, dtype=self._flag_dtype()),
            f"_{key}": self._all.copy(),
        }

    def _obs_row(self, i: int) -> MutableSequence[float]:
        """Game i's observation row, zeroed for the encoding to fill."""
        row = self._obs_rows[i]
        row[:] = self._no_obs  # a memoryview row takes a buffer
        return row

    def _mask_row(self, i: int) -> MutableSequence[int]:
        """Game i's mask row, zeroed."""
        row = self._mask_rows[i]
        row[:] = self._no_ids
        return row

    def _end(self, i: int, winners: Sequence[str]) -> None:
        """Game i's last observation: the winners' bits, and the all-ones mask."""
        if winners:
            self._winners[i] = [p in winners for p in self.players]
            self._won = True
        self._mask_rows[i][:] = self._every_id

    # per game
    def _reset(self, i: int, seed: int | None, options: dict[str, Any] | None) -> None:
        raise NotImplementedError

    def _step(self, i: int, action_id: int) -> None:
        raise NotImplementedError

    def _flag_key(self) -> str:
        """The info key of the game's own flag (critters ``illegal_action``, wild ``skipped``)."""
        raise NotImplementedError

    def _flag_dtype(self) -> type:
        raise NotImplementedError


class CrittersVectorEnv(_Games[CrittersEnv, CrittersEncoding]):
    """``num_envs`` games of ``bestiary/Critters-v0`` (its parameters), stepped together."""

    def __init__(self, num_envs: int, copy: bool = True, **kwargs: Any) -> None:
        """``kwargs``: ``CrittersEnv`` 's (players, opponents, seat, options, illegal_reward,
        max_moves), the same for every game."""
        envs = [CrittersEnv(**kwargs) for _ in range(_count(num_envs))]
        self._setup(envs, envs[0].encoding, copy)
        self.illegal_reward = envs[0].illegal_reward
        self.max_moves = envs[0].max_moves
        # Each game's state, opponents, moves so far and table RNG (reshuffles), held here:
        # the single env's are Python attributes behind properties.
        self._states: list[CrittersState] = []
        self._opponents: list[Mapping[str, Agent]] = [{} for _ in envs]
        self._moves = [0] * self.num_envs
        self._legal: list[dict[int, Any]] = [{} for _ in envs]
        self._rngs = [random.Random(0) for _ in envs]
        self._ids: dict[int, tuple[Any, int]] = {}  # id(action) -> (action, its id)

    def _flag_key(self) -> str:
        return "illegal_action"

    def _flag_dtype(self) -> type:
        return np.bool_

    def _reset(self, i: int, seed: int | None, options: dict[str, Any] | None) -> None:
        # The single env's deal; then the opponents play up to the learner, as in its reset.
        env = self.envs[i]
        rng = self._rngs[i] = random.Random(env.deal(seed, options))
        state = env.game_state
        _place(self._states, i, state)
        opponents = self._opponents[i] = env._opponents
        _settle(state, rng)
        self._moves[i] = moves = _play_opponents(
            state, self.learner, opponents, rng, 0, self.max_moves
        )
        if state.is_over or moves >= self.max_moves:  # over before the learner's turn
            self.encoding.observe_state(state, self.learner, self._obs_row(i))
            self._end(i, ())
            self._legal[i] = {}
            return
        self._observe(i, state)

    def _observe(self, i: int, state: CrittersState) -> None:
        """Game i's observation and, while it goes on, the learner's legal ids."""
        enc = self.encoding
        write_nonzero(self._obs_row(i), enc.counts(state, self.learner))
        row = self._mask_row(i)
        cache = self._ids
        choices = {}
        for a in state.legal_actions(self.learner):
            # By identity: actions are interned, and hashing a dataclass costs more.
            hit = cache.get(id(a))
            if hit is None or hit[0] is not a:
                if len(cache) > 100_000:
                    cache.clear()
                hit = cache[id(a)] = (a, enc.action_id(a))
            choices[hit[1]] = a
            row[hit[1]] = 1
        self._legal[i] = choices

    def _step(self, i: int, action_id: int) -> None:
        state = self._states[i]
        action = self._legal[i].get(action_id)
        if action is None:  # masked out: the episode ends, as in the single env
            write_nonzero(self._obs_row(i), self.encoding.counts(state, self.learner))
            self._rewards[i] = self.illegal_reward
            self._terminated[i] = True
            self._flags[i] = 1
            self._end(i, ())
            return
        rng = self._rngs[i]
        state.play_legal(action)
        _settle(state, rng)
        moves = self._moves[i] + 1
        moves = _play_opponents(state, self.learner, self._opponents[i], rng, moves, self.max_moves)
        self._moves[i] = moves
        if state.is_over:
            winners = state.winners()
            write_nonzero(self._obs_row(i), self.encoding.counts(state, self.learner))
            self._rewards[i] = 1.0 if self.learner in winners else -1.0
            self._terminated[i] = True
            self._end(i, winners)
        elif moves >= self.max_moves:
            write_nonzero(self._obs_row(i), self.encoding.counts(state, self.learner))
            self._truncated[i] = True
            self._end(i, ())
        else:
            self._observe(i, state)


def _settle(state: CrittersState, rng: Any) -> None:
    """Reshuffles due now, sampled with the table's RNG (what ``Match`` does after a move)."""
    while state.chance_due and not state.is_over:
        state.apply(state.chance_outcome(rng))


def _play_opponents(
    state: CrittersState,
    learner: str,
    opponents: Mapping[str, Agent],
    rng: Any,
    moves: int,
    max_moves: int,
) -> int:
    """The opponents play until the learner must act, as the Match plays them for the single
    env (a bot's move, then due reshuffles); the move count after them."""
    while not state.is_over and moves < max_moves:
        player = state.to_act
        if player is None or player == learner:
            break
        legal = state.legal_actions(player)
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
        _settle(state, rng)
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

    def _observe(self, i: int) -> None:
        table = self._tables[i]
        state = table.state
        enc = self.encoding
        enc.observe_state(state, self.learner, table.quiet_share, self._obs_row(i))
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
        score = state.scores()[self.learner]
        self._rewards[i] = score - self._scores[i]
        self._scores[i] = score
        over = state.is_over
        truncated = not over and table.ticks >= self.max_ticks
        self._terminated[i] = over
        self._truncated[i] = truncated
        if over or truncated:
            enc = self.encoding
            enc.observe_state(state, self.learner, table.quiet_share, self._obs_row(i))
            self._end(i, state.winners() if over else ())
        else:
            self._observe(i)


def make_vector(game: str, num_envs: int, **kwargs: Any) -> CrittersVectorEnv | WildVectorEnv:
    """The vector env of ``game`` (``critters`` or ``wild``) with ``num_envs`` games."""
    if game == "critters":
        return CrittersVectorEnv(num_envs, **kwargs)
    if game == "wild":
        return WildVectorEnv(num_envs, **kwargs)
    raise BadOption(f"no vector env for the game {game!r} (critters, wild)")


__all__ = ["CrittersVectorEnv", "LazyView", "WildVectorEnv", "make_vector"]
