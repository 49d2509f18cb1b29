"""``critters_v0``: the critter set-collection game as a PettingZoo AEC env.

The agent to act is whoever the rules wait for: the turn player, or the target of an action
card who must answer ``no`` or ``allow``. Observations are ``{"observation": float32 vector,
"action_mask": int8 vector}`` built from the agent's own view (``CrittersEncoding``); the mask
is all zero for every agent but the one to act. The action space is the same fixed
``Discrete`` for every agent, set by the deck, the set size and the player count. The game is
played by the core ``Match`` driver (every agent an outside seat), which samples reshuffles
from the env's seed. Reward at the end: +1 for each winner (a shared win too), -1 for the
others; 0 for all when ``max_cycles`` moves cut the game short. The env is
``generic_aec.EncodedAEC`` with critters' declarations: its encoding, its observation bounds
(from the deck), its table text, and a refusal of episode options that change the spaces.

>>> e = env(players=3)
>>> e.reset(seed=3)
>>> e.agent_selection, int(e.action_space("player_0").n)
('player_0', 890)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, cast

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv, register
from pettingzoo.utils import wrappers

from bestiary.adapters import generic_aec
from bestiary.adapters.critters_encoding import CrittersEncoding
from bestiary.adapters.generic_aec import EncodedAEC
from bestiary.adapters.observation_space import dict_space
from bestiary.adapters.render import RENDER_MODES
from bestiary.core.errors import BadOption
from bestiary.core.game import State
from bestiary.critters import GAME, CrittersState

NAME = "critters_v0"

Observation = dict[str, np.ndarray]


def agent_names(players: int) -> list[str]:
    """The agents (and engine player names) of a table of ``players``."""
    return generic_aec.agent_names(GAME.info, players)


def encoding_for(state: CrittersState) -> CrittersEncoding:
    """The encoding that fits ``state``'s table (players, deck kinds, set size)."""
    return CrittersEncoding(state.players, state.kinds, state.set_size, state.table.deck.own_cards)


class raw_env(EncodedAEC, EzPickle):
    """The critter game for ``players`` agents; ``options`` are the game's (docs/rulings.md)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": NAME,
        "render_modes": RENDER_MODES,
        "is_parallelizable": False,
        "render_fps": 1,
    }
    encoding: CrittersEncoding

    def __init__(
        self,
        players: int = 2,
        options: Mapping[str, Any] | None = None,
        max_cycles: int = 5_000,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        EzPickle.__init__(self, players, options, max_cycles, render_mode)
        self.rules = GAME
        probe = self.seat_agents(players, options, max_cycles, render_mode)
        assert isinstance(probe, CrittersState)
        self.encoding = encoding_for(probe)
        self._deck_size = probe.table.deck.size
        enc = self.encoding
        high = enc.observation_high(self._deck_size)
        self._obs_space = dict_space(enc.obs_size, high, enc.size)
        self._act_space = spaces.Discrete(enc.size)

    @property
    def game_state(self) -> CrittersState:
        """The engine state being played (after ``reset``)."""
        return cast(CrittersState, super().game_state)

    def check_episode(self, state: State) -> None:
        assert isinstance(state, CrittersState)
        if encoding_for(state).size != self.encoding.size:
            raise BadOption("these game options change the action space: set them at make")

    def describe(self) -> str:
        return describe_table(self.game_state)


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
