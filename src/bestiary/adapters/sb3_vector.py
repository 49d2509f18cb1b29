"""The vector envs as Stable-Baselines3 ``VecEnv`` s: ``Sb3VecEnv(make_vector(game, n, ...))``.

SB3 trains on its own ``VecEnv``, not on Gymnasium's ``VectorEnv``: it refuses the vector envs
of ``bestiary.adapters.vector`` as they are. This face steps the same games (no copy of the
rules: ``generic_vector``'s ``step_games`` / ``reset_games``) with SB3's conventions:

- autoreset in the same step: the step that ends a game returns the **next** game's first
  observation, and the ended game's last one in ``infos[i]["terminal_observation"]``
  (``infos[i]["TimeLimit.truncated"]`` on a truncation);
- ``seed(s)`` then ``reset()`` seeds game i with ``s + i``, as ``reset(seed=s)`` of the vector
  env does, so both play the same games for the same actions;
- ``action_masks()`` and ``env_method("action_masks")`` give the legal ids of every game
  (what sb3-contrib's ``MaskablePPO`` asks for); ``env_method("set_opponents", spec)`` puts
  new opponents in (self-play), from each game's next reset;
- infos: ``winners`` (int8, one entry per seat) and the step's flag (critters
  ``illegal_action``, wild ``skipped``), every step.

>>> from bestiary.adapters.vector import make_vector
>>> envs = Sb3VecEnv(make_vector("critters", 2, players=2))
>>> envs.seed(1)
[1, 2]
>>> envs.reset()["action_mask"].shape
(2, 539)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from stable_baselines3.common.vec_env import VecEnv

from bestiary.adapters.generic_vector import _Games
from bestiary.core.errors import BadOption

# Methods reached through ``env_method``: what a game's single env does that the vector
# env does not step itself (its opponents) and the masks.
_METHODS = ("action_masks", "set_opponents")


class Sb3VecEnv(VecEnv):
    """A bestiary vector env (``make_vector``'s) as an SB3 ``VecEnv`` (module docstring)."""

    def __init__(self, games: Any) -> None:
        if not isinstance(games, _Games):
            raise BadOption(
                f"Sb3VecEnv takes a bestiary vector env (make_vector), not a {type(games).__name__}"
            )
        self.games = games
        super().__init__(games.num_envs, games.single_observation_space, games.single_action_space)
        self._actions: list[int] = [0] * self.num_envs
        self._last: dict[str, np.ndarray] = {}
        self._flag = games._flag_key()

    def reset(self) -> dict[str, np.ndarray]:
        n = self.num_envs
        options = self._options[0] or None
        self.games.reset_games(range(n), list(self._seeds), options)
        self._reset_seeds()
        self._reset_options()
        self.reset_infos = [{} for _ in range(n)]
        self._last = self.games._observations()
        return self._last

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions).reshape(self.num_envs).tolist()

    def step_wait(
        self,
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, list[dict[str, Any]]]:
        games = self.games
        n = self.num_envs
        games.step_games(range(n), self._actions)
        observations = games._observations()
        rewards = np.array(games._rewards, dtype=np.float32)
        terminated = np.array(games._terminated, dtype=np.bool_)
        truncated = np.array(games._truncated, dtype=np.bool_)
        dones = terminated | truncated
        infos: list[dict[str, Any]] = [
            {"winners": games._winners[i].copy(), self._flag: games._flags[i]} for i in range(n)
        ]
        ended = np.flatnonzero(dones).tolist()
        if ended:
            for i in ended:
                infos[i]["terminal_observation"] = {
                    key: batch[i].copy() for key, batch in observations.items()
                }
                infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
            games.reset_games(ended, [None] * len(ended))
            observations = games._observations()
        self._last = observations
        return observations, rewards, dones, infos

    def action_masks(self) -> np.ndarray:
        """Every game's legal ids now (bool, ``(num_envs, actions)``)."""
        if not self._last:
            raise BadOption("call reset() before asking for the action masks")
        return self._last["action_mask"].astype(bool)

    def close(self) -> None:
        self.games.close()

    def _indices(self, indices: Any) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        if attr_name == "action_masks":
            return [lambda i=i: self.action_masks()[i] for i in self._indices(indices)]
        return [getattr(self.games.envs[i], attr_name) for i in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        for i in self._indices(indices):
            setattr(self.games.envs[i], attr_name, value)

    def env_method(
        self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any
    ) -> list[Any]:
        chosen = self._indices(indices)
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in chosen]
        if method_name == "set_opponents":
            return [self.games.envs[i].set_opponents(*method_args, **method_kwargs) for i in chosen]
        raise BadOption(
            f"env_method reaches {' and '.join(_METHODS)} of a bestiary vector env, "
            f"not {method_name!r}"
        )

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False for _ in self._indices(indices)]
