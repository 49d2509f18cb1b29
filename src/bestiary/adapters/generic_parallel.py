"""A real-time game on ticks as a PettingZoo ``ParallelEnv`` over an encoding.

What a ticked game's parallel env needs, knowing nothing of the game: every live agent acts
at every step (an id of the encoding; the mask at the start of the tick says which are legal);
the game on ticks (``Ticked``: the core ``Match`` driving the learners every tick) applies
them in its seeded order, skipping one an earlier action of the tick made illegal, and one
whose mask bit was 0 (``infos[agent]["skipped"]`` says why: ``infos.tick_info``). Reward: the
change of the agent's score at each step, so an episode's return is its final score. A game
over ends the episode (terminations); ``max_cycles`` ticks cut it (truncations).

A game's env (``wild_v0``) subclasses ``TickedParallel`` and declares ``rules``,
``encoding`` and the spaces (then calls ``seat_agents``), ``start`` (its game on ticks) and,
where it has them, ``check_episode``, ``vector`` (the observation) and ``describe``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import numpy as np
from pettingzoo import ParallelEnv

from bestiary.adapters.encoding import Encoding
from bestiary.adapters.generic_aec import Observation, SeatedAgents
from bestiary.adapters.infos import tick_info
from bestiary.adapters.observation_space import SpacePerAgent
from bestiary.adapters.render import show
from bestiary.core.game import State


class TickDone(Protocol):
    skipped: dict[str, str]


class Ticked(Protocol):
    """A game on ticks (``ticks.TickedWild``'s shape): its state, its clock, one tick."""

    @property
    def state(self) -> Any: ...

    @property
    def ticks(self) -> int: ...

    def play_tick(self, chosen: Sequence[Any]) -> TickDone: ...


Step = tuple[
    dict[str, Observation],
    dict[str, float],
    dict[str, bool],
    dict[str, bool],
    dict[str, dict[str, Any]],
]


class TickedParallel(SeatedAgents, SpacePerAgent, ParallelEnv[str, Observation, int]):
    """A ticked game's parallel env (module docstring): a subclass declares the game."""

    encoding: Encoding

    def _unseat(self) -> None:
        self.seat = {a: i for i, a in enumerate(self.possible_agents)}
        self._table: Ticked | None = None
        self._masks: dict[str, np.ndarray] = {}
        self._scores: dict[str, int] = {}

    @property
    def ticked(self) -> Ticked:
        """The game on ticks being played (after ``reset``)."""
        if self._table is None:
            raise RuntimeError("call reset() before using the env")
        return self._table

    def start(self, state: State, seed: int) -> Ticked:
        """``state`` on ticks, its Match seeded with ``seed``."""
        raise NotImplementedError

    def vector(self, agent: str) -> np.ndarray:
        """``agent``'s observation vector now."""
        return self.encoding.observe(self.ticked.state.view(agent))

    def describe(self) -> str:
        """The ``ansi`` render."""
        raise NotImplementedError

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        state = self.new_episode(seed, options)
        self._table = self.start(state, self._rng.randrange(2**63))
        self.agents = list(self.possible_agents)
        self._scores = dict.fromkeys(self.agents, 0)
        observations = {a: self._observe(a) for a in self.agents}
        return observations, {a: tick_info(self.possible_agents) for a in self.agents}

    def step(self, actions: Mapping[str, Any]) -> Step:
        table = self.ticked
        enc = self.encoding
        reasons: dict[str, str] = {}
        chosen: list[Any] = [None] * len(self.possible_agents)
        for agent, action_id in actions.items():
            if agent not in self.agents:
                continue
            a = int(action_id)
            mask = self._masks.get(agent)
            if mask is None or not 0 <= a < enc.size or not mask[a]:
                reasons[agent] = f"action {a} was not legal at the start of the tick"
                continue
            chosen[self.seat[agent]] = enc.action(agent, a)
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
        return show(self.describe, self.render_mode)

    def close(self) -> None:
        self._table = None

    def _observe(self, agent: str) -> Observation:
        state = self.ticked.state
        enc = self.encoding
        if state.is_over:
            mask = np.zeros(enc.size, dtype=np.int8)
        else:
            mask = enc.mask(state.legal_actions(agent))
        self._masks[agent] = mask
        return {"observation": self.vector(agent), "action_mask": mask.copy()}
