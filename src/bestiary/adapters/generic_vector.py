"""A vector env for any registered game, from what it declares: many games, one batch array.

``make_vector(game, num_envs, **kwargs)`` finds the game's vector env through what the game
declares (``GameInfo.faces.vector``, a ``module:name`` factory ``(num_envs, **kwargs)``); a
turn-based game that declares none gets ``TurnGames``: ``num_envs`` games of its generic
Gymnasium env (``generic_gym.GameEnv``: its encoding, or the generic one from its view and
legal actions, and its opponents), stepped together as one Gymnasium 1.x ``VectorEnv``.
Observations are a ``Dict`` of two batch arrays, ``"observation"`` (float32, ``(num_envs,
obs_size)``) and ``"action_mask"`` (int8, ``(num_envs, actions)``); actions a
``MultiDiscrete`` batch. Each game plays exactly what its single env plays for the same seed
and actions (``TurnGames`` steps that env itself; a game's own vector env may step its games
more cheaply, and is tested equal to its single env).

Autoreset is Gymnasium's default, ``NEXT_STEP`` (``metadata["autoreset_mode"]``): the step
that ends a game returns its last observation with an **all-ones** mask (nothing is legal any
more; every id is accepted), and the next step ignores that game's action, resets it and
returns its first observation (reward 0, not terminated). ``reset(seed=s)`` seeds game i with
``s + i``, as ``SyncVectorEnv`` does. Infos have the same keys at every step, as batch arrays
with Gymnasium's ``_key`` masks (all true): ``winners`` (``(num_envs, players)`` int8, the
winners' bits on the step that ends a game, else 0) and the step's flag: ``illegal_action``
(bool: the step ended on a masked-out id) for a turn-based game.

>>> envs = make_vector("critters", 4, players=2, opponents="random")
>>> observations, infos = envs.reset(seed=1)
>>> observations["action_mask"].shape, sorted(infos)
((4, 539), ['_illegal_action', '_winners', 'illegal_action', 'winners'])
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import Any, Generic, Protocol, TypeVar, cast

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from bestiary.adapters.generic_gym import AgainstOpponents, GameEnv, Observation, Opponents
from bestiary.core.driver import LazyView
from bestiary.core.errors import BadOption
from bestiary.core.game import get_game
from bestiary.core.info import resolve


class Sizes(Protocol):
    """What the batch buffers need of an encoding: its observation's and its ids' sizes."""

    size: int
    obs_size: int


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
EnvT = TypeVar("EnvT", bound=AgainstOpponents)
EncodingT = TypeVar("EncodingT", bound=Sizes)
TurnEnvT = TypeVar("TurnEnvT", bound=GameEnv)


class _Games(VectorEnv[dict[str, np.ndarray], np.ndarray, np.ndarray], Generic[EnvT, EncodingT]):
    """What every vector env shares: the games, the batch buffers, seeding and autoreset.

    Per game, what a step decides (reward, ended, ...) is kept in Python lists and becomes a
    batch array once per step: an item write into a NumPy array costs far more than one into a
    list.
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

    def reset_games(
        self, ids: Sequence[int], seeds: Sequence[int | None], options: dict[str, Any] | None = None
    ) -> None:
        """Reset games ``ids`` only (seeded by ``seeds``), for faces whose library resets games
        itself (SB3's ``VecEnv``, Tianshou's collector); read them with ``_observations``."""
        for i, seed in zip(ids, seeds, strict=True):
            self._terminated[i] = self._truncated[i] = self._ended[i] = False
            self._flags[i] = 0
            self._rewards[i] = 0.0
            self._winners[i] = 0
            self._reset(i, seed, options)

    def step_games(self, ids: Sequence[int], actions: Sequence[int]) -> None:
        """Step games ``ids`` only, with no autoreset: a game that ends stays ended (its last
        observation, an all-ones mask) until ``reset_games``; stepping it again is refused."""
        for i, action_id in zip(ids, actions, strict=True):
            if self._ended[i]:
                raise BadOption(f"game {i} has ended: reset it before stepping it again")
            self._flags[i] = 0
            self._rewards[i] = 0.0
            self._terminated[i] = self._truncated[i] = False
            self._winners[i] = 0
            self._step(i, int(action_id))
            self._ended[i] = self._terminated[i] or self._truncated[i]

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

    def _copy_kept(self, kept: Sequence[bytes | bytearray], into: np.ndarray, dtype: type) -> None:
        """Each game's row, kept as bytes (a byte per entry) while the step ran, copied into
        the batch array ``into`` at once: an item into a bytes object costs a fraction of one
        into a NumPy row."""
        np.copyto(into, np.frombuffer(b"".join(kept), dtype=dtype).reshape(into.shape))

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
        """The info key of the step's flag (turn-based ``illegal_action``, on ticks ``skipped``)."""
        raise NotImplementedError

    def _flag_dtype(self) -> type:
        raise NotImplementedError


class TurnGames(_Games[TurnEnvT, EncodingT]):
    """``num_envs`` games of a turn-based game's Gymnasium env, stepped together.

    Each game is its single env, stepped as it is (through the core ``Match``), its observation
    and mask copied into the batch rows. A game's own vector env (critters') is this one with
    its own, cheaper step, which ends its games as the single env does with ``_refuse`` and
    ``_finish``.
    """

    def __init__(self, game: str, num_envs: int, copy: bool = True, **kwargs: Any) -> None:
        """``kwargs``: ``GameEnv`` 's (players, opponents, seat, options, illegal_reward,
        max_moves), the same for every game."""
        self._seat_games(
            [cast(TurnEnvT, GameEnv(game, **kwargs)) for _ in range(_count(num_envs))], copy
        )

    def _seat_games(self, envs: list[TurnEnvT], copy: bool) -> None:
        self._setup(envs, cast(EncodingT, envs[0].encoding), copy)
        self.illegal_reward = envs[0].illegal_reward
        self.max_moves = envs[0].max_moves

    def _flag_key(self) -> str:
        return "illegal_action"

    def _flag_dtype(self) -> type:
        return np.bool_

    def _reset(self, i: int, seed: int | None, options: dict[str, Any] | None) -> None:
        observation, _ = self.envs[i].reset(seed=seed, options=options)
        self._copy(i, observation)

    def _step(self, i: int, action_id: int) -> None:
        observation, reward, terminated, truncated, info = self.envs[i].step(action_id)
        self._copy(i, observation)
        self._rewards[i] = float(reward)
        self._terminated[i] = terminated
        self._truncated[i] = truncated
        self._flags[i] = int(bool(info["illegal_action"]))
        if terminated or truncated:
            won = info["winners"].tolist()
            self._end(i, [p for p, w in zip(self.players, won, strict=True) if w])

    def _copy(self, i: int, observation: Observation) -> None:
        """Game i's observation and mask, as its single env returned them, into the rows."""
        self._obs_rows[i][:] = np.asarray(observation["observation"], dtype=np.float32).data
        self._mask_rows[i][:] = np.asarray(observation["action_mask"], dtype=np.int8).data

    def _refuse(self, i: int) -> None:
        """Game i's step ended on a masked-out id: the episode ends, as in the single env."""
        self._rewards[i] = self.illegal_reward
        self._terminated[i] = True
        self._flags[i] = 1
        self._end(i, ())

    def _finish(self, i: int, over: bool, winners: Sequence[str], moves: int) -> bool:
        """After the learner's move and the opponents': end game i if it is over (reward +1
        for a win, -1 for a loss) or cut at ``max_moves``; whether it ended."""
        if over:
            self._rewards[i] = 1.0 if self.learner in winners else -1.0
            self._terminated[i] = True
            self._end(i, winners)
            return True
        if moves >= self.max_moves:
            self._truncated[i] = True
            self._end(i, ())
            return True
        return False


def make_vector(game: str, num_envs: int, **kwargs: Any) -> VectorEnv[Any, Any, Any]:
    """The vector env of ``game`` with ``num_envs`` games: the one it declares, else
    ``TurnGames``; ``kwargs`` are its single Gymnasium env's."""
    try:
        info = get_game(game).info
    except KeyError as err:
        raise BadOption(f"no vector env for {game!r}: {err.args[0]}") from None
    reference = info.faces.vector
    if reference is not None:
        made: VectorEnv[Any, Any, Any] = resolve(reference)(num_envs, **kwargs)
        return made
    if info.real_time:
        raise BadOption(
            f"no vector env for {game!r}: it is real-time and declares none "
            "(the generic one takes turn-based games)"
        )
    return TurnGames(game, num_envs, **kwargs)


__all__ = ["LazyView", "TurnGames", "make_vector"]
