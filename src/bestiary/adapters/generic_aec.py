"""Any registered turn-based game as a PettingZoo AEC env, knowing nothing but the registry.

This is the path a new game gets for free, before it has an encoding of its own (``wild`` and
``critters`` have dense ones: ``critters_v0``, ``wild_v0``). The game is played through the
core ``Match`` driver (chance sampled by the driver from the env's seed), so it plays exactly
as it does in ``bestiary sim`` and at a live table.

- Action ``i`` is the ``i``-th of the agent's legal actions, in the engine's stable order;
  the action space is ``Discrete(max_actions)`` and the mask marks the first ``len(legal)``.
  A game with more legal actions than ``max_actions`` is refused with one sentence.
- The observation is the agent's own view (``State.view``, the allow-list) as ASCII JSON
  bytes, zero-padded to ``max_view_bytes`` (``uint8``; ``view_from`` reads it back), so
  nothing hidden from the seat can reach the learner; plus the ``int8`` action mask.
- Reward at the end: +1 for each winner (a shared win too), -1 for the others.
- ``infos`` have a fixed shape: ``{"winners": int8 vector in seat order}``, all zero until
  the end (``infos.step_info``).

>>> e = env("critters", players=2, max_actions=2048)
>>> e.reset(seed=1)
>>> e.agent_selection
'player_0'
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from bestiary.adapters.encoding import Encoding
from bestiary.adapters.infos import step_info
from bestiary.adapters.observation_space import SpacePerAgent
from bestiary.adapters.render import RENDER_MODES, check_render_mode, show
from bestiary.core.driver import Match
from bestiary.core.errors import BadOption
from bestiary.core.game import Game, State, get_game
from bestiary.core.info import GameInfo

Observation = dict[str, np.ndarray]


def agent_names(info: GameInfo, players: int) -> list[str]:
    """The agents (and engine player names) of a table of ``players`` at the game ``info`` is."""
    if not isinstance(players, int) or isinstance(players, bool):
        raise BadOption(f"players must be a whole number, not {players!r}")
    info.check_player_count(players)
    return [f"player_{i}" for i in range(players)]


def game_options(
    base: Mapping[str, Any], reset_options: Mapping[str, Any] | None
) -> dict[str, Any]:
    """Options for one episode: ``reset(options={"game_options": {...}})`` overrides the env's.

    Other keys of ``reset``'s options are ignored, as Gymnasium envs do.
    """
    merged = dict(base)
    if reset_options and "game_options" in reset_options:
        extra = reset_options["game_options"]
        if not isinstance(extra, Mapping):
            raise BadOption("reset option 'game_options' must be a mapping of game options")
        merged.update(extra)
    return merged


def view_from(observation: np.ndarray) -> dict[str, Any]:
    """The view an observation carries (its JSON bytes, without the zero padding)."""
    view: dict[str, Any] = json.loads(bytes(observation).rstrip(b"\0").decode("ascii"))
    return view


class SeatedAgents:
    """What every encoded multi-agent env sets up first: its agents (``player_0`` ...), the
    game's options, its limits and its render mode, with no episode yet (``_unseat``)."""

    rules: Game

    def seat_agents(
        self,
        players: int,
        options: Mapping[str, Any] | None,
        max_cycles: int,
        render_mode: str | None,
    ) -> State:
        """The agents, options and limits; the options checked on a game dealt with seed 0."""
        self.possible_agents = agent_names(self.rules.info, players)
        self.agents: list[str] = []
        self.options = dict(options or {})
        self.max_cycles = max_cycles
        self.render_mode = check_render_mode(render_mode)
        self._rng = random.Random()
        self._unseat()
        return self.rules.new_game(self.possible_agents, self.options, seed=0)

    def _unseat(self) -> None:
        """Forget the episode: no game is being played."""

    def check_episode(self, state: State) -> None:
        """Refuse an episode's options that would change the spaces (none by default)."""

    def new_episode(self, seed: int | None, options: Mapping[str, Any] | None) -> State:
        """An episode's game: dealt from the env's seeded RNG (reseeded by ``seed``), with
        ``reset``'s ``game_options`` over the env's, and checked."""
        if seed is not None:
            self._rng = random.Random(seed)
        episode_options = game_options(self.options, options)
        state = self.rules.new_game(
            self.possible_agents, episode_options, seed=self._rng.randrange(2**63)
        )
        self.check_episode(state)
        return state


class EncodedAEC(SeatedAgents, SpacePerAgent, AECEnv[str, Observation, int]):
    """A turn-based game as an AEC env over an encoding (``adapters.encoding``'s shape).

    What a game's own AEC env (``critters_v0``) and the generic one share: the agents, the
    driver (every agent an outside seat; it samples chance from the env's seed), rewards at
    the end (+1 for each winner, -1 for the others; 0 for all when ``max_cycles`` moves cut the
    game short), infos of one fixed shape (``infos.step_info``). A subclass sets ``rules``,
    ``encoding`` and the spaces, then calls ``seat_agents``; it may declare ``describe`` (the
    ``ansi`` text), ``check_episode`` and ``decode``.
    """

    encoding: Encoding

    def _unseat(self) -> None:
        self._match: Match | None = None
        self._moves = 0

    @property
    def game_state(self) -> State:
        """The engine state being played (after ``reset``)."""
        if self._match is None:
            raise RuntimeError("call reset() before using the env")
        return self._match.state

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        state = self.new_episode(seed, options)
        self._match = Match(self.rules, state, {}, seed=self._rng.randrange(2**63))
        self._moves = 0
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: step_info(self.agents) for a in self.agents}
        self.agent_selection = self._next(self.agents[0])

    def observe(self, agent: str) -> Observation:
        state = self.game_state
        enc = self.encoding
        return {
            "observation": enc.observe(state.view(agent)),
            "action_mask": enc.mask(state.legal_actions(agent)),
        }

    def decode(self, agent: str, action: int | None) -> Any:
        """The move ``action`` stands for (the driver refuses an illegal one)."""
        if action is None:
            raise ValueError(f"{agent} must act: None is only for agents that are done")
        return self.encoding.action(agent, int(action))

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        move = self.decode(agent, action)
        state = self.game_state
        self._cumulative_rewards[agent] = 0.0
        assert self._match is not None
        self._match.submit(agent, move)
        self._moves += 1
        self._clear_rewards()
        if state.is_over:
            winners = state.winners()
            for a in self.agents:
                self.rewards[a] = 1.0 if a in winners else -1.0
                self.terminations[a] = True
                self.infos[a] = step_info(self.possible_agents, winners)
        elif self._moves >= self.max_cycles:
            self.truncations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        self.agent_selection = self._next(agent)

    def _next(self, fallback: str) -> str:
        actors = self.game_state.actors
        return actors[0] if actors else fallback

    def describe(self) -> str:
        """The ``ansi`` render: the public view as JSON, unless the game's env says it better."""
        return json.dumps(self.game_state.view(None), sort_keys=True)

    def render(self) -> str | None:
        return show(self.describe, self.render_mode)

    def close(self) -> None:
        self._match = None


class raw_env(EncodedAEC, EzPickle):
    """``game`` for ``players`` agents named ``player_0``, ``player_1``, ..."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "bestiary_generic_v0",
        "render_modes": RENDER_MODES,
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        game: str,
        players: int = 2,
        options: Mapping[str, Any] | None = None,
        max_actions: int = 256,
        max_view_bytes: int = 8192,
        max_cycles: int = 10_000,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        EzPickle.__init__(
            self, game, players, options, max_actions, max_view_bytes, max_cycles, render_mode
        )
        self.rules = get_game(game)
        if self.rules.info.real_time:
            raise BadOption(f"{game} is real-time: the generic AEC path takes turn-based games")
        self.seat_agents(players, options, max_cycles, render_mode)
        self.max_actions = max_actions
        self.max_view_bytes = max_view_bytes
        self._obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0, 127, shape=(max_view_bytes,), dtype=np.uint8),
                "action_mask": spaces.Box(0, 1, shape=(max_actions,), dtype=np.int8),
            }
        )
        self._act_space = spaces.Discrete(max_actions)

    def _legal(self, agent: str) -> list[Any]:
        legal = self.game_state.legal_actions(agent)
        if len(legal) > self.max_actions:
            raise BadOption(
                f"{agent} has {len(legal)} legal actions, more than max_actions={self.max_actions}"
            )
        return legal

    # The view as bytes and the i-th legal action (the generic encoding's ids, uint8 here).
    def observe(self, agent: str) -> Observation:
        state = self.game_state
        mask = np.zeros(self.max_actions, dtype=np.int8)
        mask[: len(self._legal(agent))] = 1
        text = json.dumps(state.view(agent), sort_keys=True, ensure_ascii=True).encode("ascii")
        if len(text) > self.max_view_bytes:
            raise BadOption(
                f"{agent}'s view takes {len(text)} bytes, more than "
                f"max_view_bytes={self.max_view_bytes}"
            )
        view = np.zeros(self.max_view_bytes, dtype=np.uint8)
        view[: len(text)] = np.frombuffer(text, dtype=np.uint8)
        return {"observation": view, "action_mask": mask}

    def decode(self, agent: str, action: int | None) -> Any:
        legal = self._legal(agent)
        if action is None or not 0 <= int(action) < len(legal):
            raise ValueError(f"{agent} must choose one of its {len(legal)} legal actions")
        return legal[int(action)]


def env(game: str, **kwargs: Any) -> Any:
    """The wrapped AEC env (PettingZoo's order enforcing and bounds checks)."""
    wrapped = raw_env(game, **kwargs)
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(wrapped))
