"""``wild_v0``: Call of the Wild as a native PettingZoo ``ParallelEnv`` on the tick model.

Every live agent acts at every step: an action id from ``WildEncoding`` (0 is ``wait``). The
actions are applied in a random order drawn for the tick from the env's seeded RNG; one that an
earlier action of the same tick made illegal is skipped as a wait, and so is one whose mask bit
was 0 at the start of the tick (``infos[agent]["skipped"]`` says why). Nightfall ends a game
with ``quiet_ticks`` ticks in a row without a meeting. Reward: the change of the agent's score
at each step, so an episode's return is the agent's final score.

``env()``/``raw_env()`` give the same game as an AEC env through PettingZoo's conversion.

The env is ``generic_parallel.TickedParallel`` with wild's declarations: its encoding (the
Nightfall clock in the observation), its game on ticks (``ticks.TickedWild`` with
``quiet_ticks``), its table text, and a refusal of episode options that change the spaces.

>>> e = parallel_env(players=3)
>>> observations, infos = e.reset(seed=7)
>>> sorted(observations), int(e.action_space("player_0").n)
(['player_0', 'player_1', 'player_2'], 36)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv, register
from pettingzoo.utils import parallel_to_aec, wrappers

from bestiary.adapters import generic_aec
from bestiary.adapters.generic_parallel import TickedParallel
from bestiary.adapters.observation_space import dict_space
from bestiary.adapters.render import RENDER_MODES
from bestiary.adapters.ticks import TickedWild
from bestiary.adapters.wild_encoding import WildEncoding
from bestiary.core.errors import BadOption
from bestiary.core.game import State
from bestiary.wild import GAME, WildState

NAME = "wild_v0"

Observation = dict[str, np.ndarray]


def agent_names(players: int) -> list[str]:
    """The agents (and engine player names) of a table of ``players``."""
    return generic_aec.agent_names(GAME.info, players)


class parallel_env(TickedParallel, EzPickle):
    """Call of the Wild for ``players`` agents, every agent acting each tick."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": NAME,
        "render_modes": RENDER_MODES,
        "is_parallelizable": True,
        "render_fps": 4,
    }
    encoding: WildEncoding

    def __init__(
        self,
        players: int = 4,
        options: Mapping[str, Any] | None = None,
        quiet_ticks: int | None = None,
        max_cycles: int = 10_000,
        render_mode: str | None = None,
    ) -> None:
        EzPickle.__init__(self, players, options, quiet_ticks, max_cycles, render_mode)
        self.rules = GAME
        probe = self.seat_agents(players, options, max_cycles, render_mode)
        assert isinstance(probe, WildState)
        self._objectives = bool(probe.deal.options["objectives"])
        self.quiet_ticks = quiet_ticks
        self.encoding = WildEncoding(self.possible_agents, objectives=self._objectives)
        enc = self.encoding
        self._obs_space = dict_space(enc.obs_size, enc.observation_high(), enc.size)
        self._act_space = spaces.Discrete(enc.size)

    @property
    def table(self) -> TickedWild:
        """The ticked game being played (after ``reset``)."""
        table = self.ticked
        assert isinstance(table, TickedWild)
        return table

    def start(self, state: State, seed: int) -> TickedWild:
        assert isinstance(state, WildState)
        return TickedWild(state, self.quiet_ticks, seed=seed)

    def check_episode(self, state: State) -> None:
        assert isinstance(state, WildState)
        if bool(state.deal.options["objectives"]) != self._objectives:
            raise BadOption("the 'objectives' option changes the observation space: set it at make")

    def vector(self, agent: str) -> np.ndarray:
        table = self.table
        return self.encoding.observe(table.state.view(agent), table.quiet_share)

    def describe(self) -> str:
        return describe_table(self.table)


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
