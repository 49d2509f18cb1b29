"""``critters_v0``: the critter set-collection game as a PettingZoo AEC env.

The agent to act is whoever the rules wait for: the turn player, or the target of an action
card who must answer ``no`` or ``allow``. Observations are ``{"observation": float32 vector,
"action_mask": int8 vector}`` built from the agent's own view (``CrittersEncoding``); the mask
is all zero for every agent but the one to act. The action space is the same fixed
``Discrete`` for every agent, set by the deck, the set size and the player count. The game is
played by the core ``Match`` driver (every agent an outside seat), which samples reshuffles
from the env's seed. Reward at the end: +1 for each winner
(a shared win too), -1 for the others; 0 for all when ``max_cycles`` moves cut the game short.

>>> e = env(players=3)
>>> e.reset(seed=3)
>>> e.agent_selection, int(e.action_space("player_0").n)
('player_0', 890)
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv, register
from pettingzoo.utils import wrappers

from bestiary.adapters import generic_aec
from bestiary.adapters.critters_encoding import CrittersEncoding
from bestiary.adapters.generic_aec import game_options
from bestiary.adapters.infos import step_info
from bestiary.adapters.observation_space import dict_space
from bestiary.adapters.render import RENDER_MODES, check_render_mode, show
from bestiary.core.driver import Match
from bestiary.core.errors import BadOption
from bestiary.critters import GAME, CrittersState

NAME = "critters_v0"

Observation = dict[str, np.ndarray]


def agent_names(players: int) -> list[str]:
    """The agents (and engine player names) of a table of ``players``."""
    return generic_aec.agent_names(GAME.info, players)


def encoding_for(state: CrittersState) -> CrittersEncoding:
    """The encoding that fits ``state``'s table (players, deck kinds, set size)."""
    return CrittersEncoding(state.players, state.kinds, state.set_size)


class raw_env(AECEnv[str, Observation, int], EzPickle):
    """The critter game for ``players`` agents; ``options`` are the game's (docs/rulings.md)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": NAME,
        "render_modes": RENDER_MODES,
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        players: int = 2,
        options: Mapping[str, Any] | None = None,
        max_cycles: int = 5_000,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        EzPickle.__init__(self, players, options, max_cycles, render_mode)
        self.possible_agents = agent_names(players)
        self.agents: list[str] = []
        self.options = dict(options or {})
        probe = GAME.new_game(self.possible_agents, self.options, seed=0)  # validates options
        self.encoding = encoding_for(probe)
        self._deck_size = probe.table.deck.size
        self.max_cycles = max_cycles
        self.render_mode = check_render_mode(render_mode)
        enc = self.encoding
        high = enc.observation_high(self._deck_size)
        self._obs_space = dict_space(enc.obs_size, high, enc.size)
        self._act_space = spaces.Discrete(enc.size)
        self._rng = random.Random()
        self._state: CrittersState | None = None
        self._match = Match(GAME, GAME.new_game(self.possible_agents, self.options, seed=0), {})
        self._moves = 0

    @functools.cache  # noqa: B019 (one space object per agent, as required)
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    @functools.cache  # noqa: B019
    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    @property
    def game_state(self) -> CrittersState:
        """The engine state being played (after ``reset``)."""
        if self._state is None:
            raise RuntimeError("call reset() before using the env")
        return self._state

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        episode_options = game_options(self.options, options)
        state = GAME.new_game(
            self.possible_agents, episode_options, seed=self._rng.randrange(2**63)
        )
        if encoding_for(state).size != self.encoding.size:
            raise BadOption("these game options change the action space: set them at make")
        self._state = state
        # Every seat is an outside seat of the one driver, which samples chance from its seed.
        self._match = Match(GAME, state, {}, seed=self._rng.randrange(2**63))
        self._moves = 0
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: step_info(self.agents) for a in self.agents}
        self.agent_selection = state.to_act or self.agents[0]

    def observe(self, agent: str) -> Observation:
        state = self.game_state
        enc = self.encoding
        return {
            "observation": enc.observe(state.view(agent)),
            "action_mask": enc.mask(state.legal_actions(agent)),
        }

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: None is only for agents that are done")
        state = self.game_state
        self._cumulative_rewards[agent] = 0.0
        self._match.submit(agent, self.encoding.action(agent, int(action)))
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
        to_act = state.to_act
        self.agent_selection = to_act if to_act is not None else agent

    def render(self) -> str | None:
        return show(lambda: describe_table(self.game_state), self.render_mode)

    def close(self) -> None:
        self._state = None


def describe_table(state: CrittersState) -> str:
    """Public text about the table (the ``ansi`` render): tableaus and whose turn it is."""
    lines = [f"turn {state.turn}, awaiting {state.awaiting}, draw pile {len(state.draw_pile)}"]
    for p in state.players:
        sets = ", ".join(
            f"{s['kind']}{'!' if s['full'] else ''}:{len(s['cards'])}" for s in state.tableau(p)
        )
        lines.append(f"{p}: {len(state.hand(p))} in hand; {sets or 'nothing down'}")
    if state.is_over:
        lines.append(f"over: winners {', '.join(state.winners())}")
    return "\n".join(lines)


def env(**kwargs: Any) -> AECEnv[str, Observation, int]:
    """``critters_v0`` with PettingZoo's usual wrappers: an illegal move ends the game at -1."""
    aec: AECEnv[str, Observation, int] = raw_env(**kwargs)
    aec = wrappers.TerminateIllegalWrapper(aec, illegal_reward=-1)
    aec = wrappers.AssertOutOfBoundsWrapper(aec)
    aec = wrappers.OrderEnforcingWrapper(aec)
    return aec


register("aec", f"bestiary/{NAME}", entry_point="bestiary.adapters.critters_v0:env")
