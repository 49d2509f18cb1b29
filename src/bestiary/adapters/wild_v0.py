"""``wild_v0``: Call of the Wild as a native PettingZoo ``ParallelEnv`` on the tick model.

Every live agent acts at every step: an action id from ``WildEncoding`` (0 is ``wait``). The
actions are applied in a random order drawn for the tick from the env's seeded RNG; one that an
earlier action of the same tick made illegal is skipped as a wait, and so is one whose mask bit
was 0 at the start of the tick (``infos[agent]["skipped"]`` says why). Nightfall ends a game
with ``quiet_ticks`` ticks in a row without a meeting. Reward: the change of the agent's score
at each step, so an episode's return is the agent's final score.

``env()``/``raw_env()`` give the same game as an AEC env through PettingZoo's conversion.

>>> e = parallel_env(players=3)
>>> observations, infos = e.reset(seed=7)
>>> sorted(observations), int(e.action_space("player_0").n)
(['player_0', 'player_1', 'player_2'], 36)
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv, ParallelEnv, register
from pettingzoo.utils import parallel_to_aec, wrappers

from bestiary.adapters import generic_aec
from bestiary.adapters.generic_aec import game_options
from bestiary.adapters.infos import tick_info
from bestiary.adapters.observation_space import SpacePerAgent, dict_space
from bestiary.adapters.render import RENDER_MODES, check_render_mode, show
from bestiary.adapters.ticks import TickedWild
from bestiary.adapters.wild_encoding import WildEncoding
from bestiary.core.errors import BadOption
from bestiary.wild import GAME, WildAction

NAME = "wild_v0"

Observation = dict[str, np.ndarray]


def agent_names(players: int) -> list[str]:
    """The agents (and engine player names) of a table of ``players``."""
    return generic_aec.agent_names(GAME.info, players)


class parallel_env(SpacePerAgent, ParallelEnv[str, Observation, int], EzPickle):
    """Call of the Wild for ``players`` agents, every agent acting each tick."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": NAME,
        "render_modes": RENDER_MODES,
        "is_parallelizable": True,
        "render_fps": 4,
    }

    def __init__(
        self,
        players: int = 4,
        options: Mapping[str, Any] | None = None,
        quiet_ticks: int | None = None,
        max_cycles: int = 10_000,
        render_mode: str | None = None,
    ) -> None:
        EzPickle.__init__(self, players, options, quiet_ticks, max_cycles, render_mode)
        self.possible_agents = agent_names(players)
        self.agents: list[str] = []
        self.options = dict(options or {})
        probe = GAME.new_game(self.possible_agents, self.options, seed=0)  # validates options
        self._objectives = bool(probe.deal.options["objectives"])
        self.quiet_ticks = quiet_ticks
        self.max_cycles = max_cycles
        self.render_mode = check_render_mode(render_mode)
        self.encoding = WildEncoding(self.possible_agents, objectives=self._objectives)
        enc = self.encoding
        self._obs_space = dict_space(enc.obs_size, enc.observation_high(), enc.size)
        self._act_space = spaces.Discrete(enc.size)
        self._rng = random.Random()
        self._table: TickedWild | None = None
        self._masks: dict[str, np.ndarray] = {}
        self._scores: dict[str, int] = {}

    # -------------------------------------------------------------- PettingZoo API

    @property
    def table(self) -> TickedWild:
        """The ticked game being played (after ``reset``)."""
        if self._table is None:
            raise RuntimeError("call reset() before using the env")
        return self._table

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        if seed is not None:
            self._rng = random.Random(seed)
        episode_options = game_options(self.options, options)
        state = GAME.new_game(
            self.possible_agents, episode_options, seed=self._rng.randrange(2**63)
        )
        if bool(state.deal.options["objectives"]) != self._objectives:
            raise BadOption("the 'objectives' option changes the observation space: set it at make")
        self._table = TickedWild(state, self.quiet_ticks, seed=self._rng.randrange(2**63))
        self.agents = list(self.possible_agents)
        self._scores = dict.fromkeys(self.agents, 0)
        observations = {a: self._observe(a) for a in self.agents}
        return observations, {a: tick_info(self.possible_agents) for a in self.agents}

    def step(
        self, actions: Mapping[str, Any]
    ) -> tuple[
        dict[str, Observation],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        table = self.table
        enc = self.encoding
        reasons: dict[str, str] = {}
        chosen: list[WildAction | None] = [None] * enc.n
        for agent, action_id in actions.items():
            if agent not in self.agents:
                continue
            a = int(action_id)
            mask = self._masks.get(agent)
            if mask is None or not 0 <= a < enc.size or not mask[a]:
                reasons[agent] = f"action {a} was not legal at the start of the tick"
                continue
            chosen[enc.seat[agent]] = enc.action(agent, a)
        report = table.play_tick(chosen)
        reasons.update(report.skipped)
        state = table.state
        scores = state.scores()
        rewards = {a: float(scores[a] - self._scores[a]) for a in self.agents}
        self._scores = scores
        over = state.is_over
        cut = not over and table.ticks >= self.max_cycles
        terminations = dict.fromkeys(self.agents, over)
        truncations = dict.fromkeys(self.agents, cut)
        winners = state.winners() if over else ()
        seats = self.possible_agents
        infos = {a: tick_info(seats, winners, reasons.get(a, "")) for a in self.agents}
        observations = {a: self._observe(a) for a in self.agents}
        if over or cut:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        return show(lambda: describe_table(self.table), self.render_mode)

    def close(self) -> None:
        self._table = None

    # ---------------------------------------------------------------- internals

    def _observe(self, agent: str) -> Observation:
        table = self.table
        state = table.state
        enc = self.encoding
        if state.is_over:
            mask = np.zeros(enc.size, dtype=np.int8)
        else:
            mask = enc.mask(state.legal_actions(agent))
        self._masks[agent] = mask
        return {
            "observation": enc.observe(state.view(agent), table.quiet_share),
            "action_mask": mask.copy(),
        }


def describe_table(table: TickedWild) -> str:
    """A few lines of public text about the table (the ``ansi`` render)."""
    state = table.state
    lines = [f"tick {table.ticks}, {table.quiet} quiet of {table.quiet_ticks}"]
    for p in state.players:
        call = state.offer_call(p) or "-"
        lines.append(
            f"{p}: hand {state.hand_size(p)}, pack {state.pack_size(p)}, call {call}, "
            f"den {len(state.den(p))}"
        )
    if state.is_over:
        lines.append(f"over: winners {', '.join(state.winners())}")
    return "\n".join(lines)


def raw_env(**kwargs: Any) -> AECEnv[str, Observation, int]:
    """The AEC form of ``wild_v0`` through PettingZoo's ``parallel_to_aec``."""
    aec: AECEnv[str, Observation, int] = parallel_to_aec(parallel_env(**kwargs))
    return aec


def env(**kwargs: Any) -> AECEnv[str, Observation, int]:
    """The AEC form with PettingZoo's usual checks (bounds, call order)."""
    aec = raw_env(**kwargs)
    aec = wrappers.AssertOutOfBoundsWrapper(aec)
    aec = wrappers.OrderEnforcingWrapper(aec)
    return aec


register("parallel", f"bestiary/{NAME}", entry_point="bestiary.adapters.wild_v0:parallel_env")
register("aec", f"bestiary/{NAME}", entry_point="bestiary.adapters.wild_v0:env")
