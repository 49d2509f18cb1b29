"""Gymnasium single-agent envs: ``bestiary/Critters-v0`` and ``bestiary/Wild-v0`` against opponents.

The learner plays one seat. Every other seat is an opponent: a bot name from the bot registry
(``bestiary.core.agent.make_bot``), an ``Agent``, a policy (a callable observation -> id, an
SB3 model, a torch module) or a ``policies.snapshot`` of one (self-play); each sees only its
own view. Observations and action ids are the PettingZoo envs' (``CrittersEncoding``,
``WildEncoding``): a ``Dict`` with ``"observation"`` (float32) and ``"action_mask"`` (int8).

The mask while the episode goes on is the learner's legal actions, never all zero (wild's
``wait`` is always legal; critters only returns when the learner must act). On the
observation that ends an episode (terminated or truncated) the mask is all ones: nothing is
legal any more, and under Gymnasium 1.x's default ``NEXT_STEP`` autoreset a vector env's next
step ignores the action and resets, so a masked sampler always has something to sample.
Infos have the same keys at every step (``bestiary.adapters.infos``).

- Critters-v0: one step is one move of the learner; the opponents then play until the learner
  must act again (its turn, or an answer to an action card aimed at it). Reward +1 for a win
  (shared or not), -1 for a loss, at the end. A masked-out action ends the episode with
  ``illegal_reward`` and ``info["illegal_action"]`` (the reason; ``""`` otherwise), as
  PettingZoo's classic envs do.
- Wild-v0: one step is one tick. The learner's action (0 is ``wait``) and the opponents' (each
  acts when its reaction time has passed) are applied in a random order; a masked-out action is
  skipped as a wait (``info["skipped"]``, ``info["skip_reason"]``). Reward: the change of the
  learner's score.

Importing this module registers both ids::

    >>> import gymnasium
    >>> env = gymnasium.make("bestiary.adapters.gym_envs:bestiary/Critters-v0", opponents="random")
    >>> observation, info = env.reset(seed=1)
    >>> sorted(observation)
    ['action_mask', 'observation']
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from bestiary.adapters.critters_encoding import CrittersEncoding
from bestiary.adapters.generic_gym import (
    AgainstOpponents,
    GameEnv,
    Opponents,
    end_mask,
    episode_options,
    seating,
)
from bestiary.adapters.infos import tick_info
from bestiary.adapters.observation_space import dict_space
from bestiary.adapters.policies import ViewEncoder
from bestiary.adapters.render import RENDER_MODES, check_render_mode, show
from bestiary.adapters.ticks import TickedWild
from bestiary.adapters.wild_encoding import WildEncoding
from bestiary.core.game import State
from bestiary.critters import CrittersState
from bestiary.wild import GAME as WILD
from bestiary.wild import WildAction
from bestiary.wild.info import VARIANTS as WILD_VARIANTS

__all__ = ["CrittersEnv", "Opponents", "WildEnv"]

Observation = dict[str, np.ndarray]


class CrittersEnv(GameEnv):
    """The critter game for one learner against opponents: ``GameEnv`` with its declarations
    (the game, random opponents by default, observation bounds from the deck, its table text)."""

    encoding: CrittersEncoding

    def __init__(
        self,
        players: int = 2,
        opponents: Opponents = "random",
        seat: int = 0,
        options: Mapping[str, Any] | None = None,
        illegal_reward: float = -1.0,
        max_moves: int = 5_000,
        render_mode: str | None = None,
    ) -> None:
        super().__init__(
            "critters", players, opponents, seat, options, illegal_reward, max_moves, render_mode
        )

    def observation_high(self, probe: State) -> np.ndarray:
        assert isinstance(probe, CrittersState)
        return self.encoding.observation_high(probe.table.deck.size)

    def legal_move(self, action_id: int) -> Any | None:
        # Each critters action has its own id: a lookup, cheaper than a whole mask per step.
        legal = self.game_state.legal_actions(self.learner)
        return {self.encoding.action_id(x): x for x in legal}.get(action_id)

    def describe(self) -> str:
        from bestiary.adapters.critters_v0 import describe_table

        return describe_table(self.game_state)

    if TYPE_CHECKING:  # the generic property, typed as critters' (no extra call per step)

        @property
        def game_state(self) -> CrittersState: ...


class WildEnv(AgainstOpponents):
    """Call of the Wild for one learner against opponents, one tick per step."""

    game = "wild"
    encoding: WildEncoding

    metadata: dict[str, Any] = {"render_modes": RENDER_MODES, "render_fps": 4}  # noqa: RUF012 (Gymnasium's attribute)

    def __init__(
        self,
        players: int = 4,
        opponents: Opponents = "random",
        seat: int = 0,
        options: Mapping[str, Any] | None = None,
        quiet_ticks: int | None = None,
        max_ticks: int = 10_000,
        render_mode: str | None = None,
    ) -> None:
        self.players, self.learner, self.opponent_specs = seating(
            "wild", players, WILD.info.min_players, WILD.info.max_players, seat, opponents
        )
        self.options = dict(options or {})
        probe = WILD.new_game(self.players, self.options, seed=0)
        self.encoding = WildEncoding(self.players, bool(probe.deal.options["objectives"]))
        enc = self.encoding
        self.observation_space = dict_space(enc.obs_size, enc.observation_high(), enc.size)
        self.action_space = spaces.Discrete(enc.size)
        self.quiet_ticks = quiet_ticks
        self.max_ticks = max_ticks
        self.render_mode = check_render_mode(render_mode)
        self._table: TickedWild | None = None
        self._opponents = self._seat(random.Random(0))
        self._mask = end_mask(enc.size)
        self._score = 0

    def _encoder(self) -> ViewEncoder:
        # An opponent's policy sees the public Nightfall clock, as the learner does.
        return lambda view: self.encoding.observe(view, self.table.quiet_share)

    @property
    def table(self) -> TickedWild:
        if self._table is None:
            raise RuntimeError("call reset() before using the env")
        return self._table

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        rng = random.Random(int(self.np_random.integers(2**63)))
        game_options = episode_options(self.options, options)
        state = WILD.new_game(self.players, game_options, seed=rng.randrange(2**63))
        self._opponents = self._seat(rng)
        # The opponents sit in the Match and decide at their reaction times, as at a table.
        self._table = TickedWild(
            state, self.quiet_ticks, self._opponents, seed=rng.randrange(2**63)
        )
        self._score = 0
        return self._observe(), tick_info(self.players)

    def step(self, action: Any) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        table = self.table
        state = table.state
        enc = self.encoding
        skipped = ""
        chosen: list[WildAction | None] = [None] * enc.n
        a = int(action)
        if 0 <= a < enc.size and self._mask[a]:
            chosen[enc.seat[self.learner]] = enc.action(self.learner, a)
        else:
            skipped = f"action {a} was not legal at the start of the tick"
        report = table.play_tick(chosen)
        skipped = report.skipped.get(self.learner, skipped)
        score = state.scores()[self.learner]
        reward = float(score - self._score)
        self._score = score
        truncated = not state.is_over and table.ticks >= self.max_ticks
        info = tick_info(self.players, state.winners() if state.is_over else (), skipped)
        return self._observe(), reward, state.is_over, truncated, info

    def render(self) -> str | None:
        from bestiary.adapters.wild_v0 import describe_table

        return show(lambda: describe_table(self.table), self.render_mode)

    def action_masks(self) -> np.ndarray:
        """The legal-action mask now (the name sb3-contrib's MaskablePPO looks for)."""
        return self._mask.copy()

    def _observe(self) -> Observation:
        table = self.table
        state = table.state
        enc = self.encoding
        if state.is_over or table.ticks >= self.max_ticks:
            self._mask = end_mask(enc.size)
        else:
            self._mask = enc.mask(state.legal_actions(self.learner))
        return {
            "observation": enc.observe(state.view(self.learner), table.quiet_share),
            "action_mask": self._mask.copy(),
        }


gymnasium.register("bestiary/Critters-v0", entry_point="bestiary.adapters.gym_envs:CrittersEnv")
gymnasium.register("bestiary/Wild-v0", entry_point="bestiary.adapters.gym_envs:WildEnv")
# Wild's small variant for 2 (docs/rl.md): 3-card Packs; options=... replaces its options.
gymnasium.register(
    "bestiary/Wild-small-v0",
    entry_point="bestiary.adapters.gym_envs:WildEnv",
    kwargs={"players": 2, "options": WILD_VARIANTS["small"]},
)
