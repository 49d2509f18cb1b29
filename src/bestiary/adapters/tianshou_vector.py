"""The vector envs as a Tianshou vector env: ``TianshouVectorEnv(make_vector(game, n, ...))``.

Tianshou's ``Collector`` steps a ``BaseVectorEnv`` and resets the games that ended itself
(``reset(env_id=...)``). This face steps the bestiary vector env's games in one batch
(``generic_vector``'s ``step_games`` / ``reset_games``; no worker per game) with Tianshou's
conventions:

- observations are Tianshou's masked form, one dict per game: ``{"obs": float32 vector,
  "mask": bool vector}`` (its DQN and random policies read ``obs.mask``; the legal ids, an
  all-ones mask on a game's last observation);
- ``seed(s)`` seeds game i with ``s + i`` at the next reset, as the vector env's
  ``reset(seed=s)`` does;
- infos: ``winners`` (int8, one entry per seat) and the step's flag (critters
  ``illegal_action``, wild ``skipped``), every step, so replay buffers keep fixed shapes.

>>> from bestiary.adapters.vector import make_vector
>>> envs = TianshouVectorEnv(make_vector("critters", 2, players=2))
>>> observations, infos = envs.reset()
>>> len(envs), sorted(observations[0]), observations[0]["mask"].shape
(2, ['mask', 'obs'], (539,))
"""

from __future__ import annotations

from typing import Any

import numpy as np
from tianshou.env import BaseVectorEnv

from bestiary.adapters.generic_vector import _Games
from bestiary.core.errors import BadOption

_SPACES = {"action_space": "single_action_space", "observation_space": "single_observation_space"}


class TianshouVectorEnv(BaseVectorEnv):
    """A bestiary vector env (``make_vector``'s) as a Tianshou vector env (module docstring).

    Synchronous: every step is one batch of the ready games (``is_async`` False)."""

    def __init__(self, games: Any) -> None:  # no workers: the games are stepped in one batch
        if not isinstance(games, _Games):
            raise BadOption(
                f"TianshouVectorEnv takes a bestiary vector env (make_vector), "
                f"not a {type(games).__name__}"
            )
        self.games = games
        self.env_num = games.num_envs
        self.is_async = False
        self.wait_num = self.env_num
        self.timeout = None
        self.is_closed = False
        self.workers = []
        self.waiting_conn = []
        self.waiting_id = []
        self.ready_id = list(range(self.env_num))
        self._seeds: list[int | None] = [None] * self.env_num
        self._flag = games._flag_key()

    def get_env_attr(self, key: str, id: Any = None) -> list[Any]:
        ids = self._wrap_id(id)
        if key in _SPACES:
            space = getattr(self.games, _SPACES[key])
            return [space for _ in ids]
        return [getattr(self.games.envs[i], key, None) for i in ids]

    def set_env_attr(self, key: str, value: Any, id: Any = None) -> None:
        for i in self._wrap_id(id):
            setattr(self.games.envs[i], key, value)

    def _rows(self, ids: list[int]) -> np.ndarray:
        batch = self.games._observations()
        rows = np.empty(len(ids), dtype=object)
        for k, i in enumerate(ids):
            rows[k] = {
                "obs": batch["observation"][i].copy(),
                "mask": batch["action_mask"][i].astype(bool),
            }
        return rows

    def _infos(self, ids: list[int]) -> np.ndarray:
        games = self.games
        infos = np.empty(len(ids), dtype=object)
        for k, i in enumerate(ids):
            infos[k] = {
                "winners": games._winners[i].copy(),
                self._flag: games._flags[i],
                "env_id": i,
            }
        return infos

    def reset(self, env_id: Any = None, **kwargs: Any) -> tuple[np.ndarray, np.ndarray]:
        ids = [int(i) for i in self._wrap_id(env_id)]
        self.games.reset_games(ids, [self._seeds[i] for i in ids], kwargs.get("options"))
        for i in ids:
            self._seeds[i] = None
        return self._rows(ids), self._infos(ids)

    def step(self, action: Any, id: Any = None) -> tuple[Any, ...]:
        ids = [int(i) for i in self._wrap_id(id)]
        if action is None:
            raise BadOption("a synchronous vector env needs one action per game, not None")
        games = self.games
        games.step_games(ids, np.asarray(action).reshape(len(ids)).tolist())
        return (
            self._rows(ids),
            np.array([games._rewards[i] for i in ids], dtype=np.float64),
            np.array([games._terminated[i] for i in ids], dtype=np.bool_),
            np.array([games._truncated[i] for i in ids], dtype=np.bool_),
            self._infos(ids),
        )

    def seed(self, seed: int | list[int] | None = None) -> list[list[int] | None]:
        if seed is None:
            seeds: list[int | None] = [None] * self.env_num
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(self.env_num)]
        else:
            seeds = list(seed)
        self._seeds = seeds
        return [None if s is None else [s] for s in seeds]

    def render(self, **kwargs: Any) -> list[Any]:
        return [env.render() for env in self.games.envs]

    def close(self) -> None:
        self.is_closed = True
        self.games.close()
