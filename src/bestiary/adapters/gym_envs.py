"""Gymnasium single-agent envs: ``bestiary/Critters-v0`` and ``bestiary/Wild-v0`` against bots.

The learner plays one seat; every other seat is a bot from the bot registry
(``bestiary.core.agent.make_bot``), which sees only its own view. Observations and action ids
are the PettingZoo envs' (``CrittersEncoding``, ``WildEncoding``): a ``Dict`` with
``"observation"`` (float32) and ``"action_mask"`` (int8).

- Critters-v0: one step is one move of the learner; the bots then play until the learner must
  act again (its turn, or an answer to an action card aimed at it). Reward +1 for a win (shared
  or not), -1 for a loss, at the end. A masked-out action ends the episode with
  ``illegal_reward`` and ``info["illegal_action"]``, as PettingZoo's classic envs do.
- Wild-v0: one step is one tick. The learner's action (0 is ``wait``) and the bots' (each bot
  acts when its reaction time has passed) are applied in a random order; a masked-out action is
  skipped as a wait (``info["skipped"]``). Reward: the change of the learner's score.

Importing this module registers both ids::

    >>> import gymnasium
    >>> env = gymnasium.make("bestiary.adapters.gym_envs:bestiary/Critters-v0", opponents="random")
    >>> observation, info = env.reset(seed=1)
    >>> sorted(observation)
    ['action_mask', 'observation']
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from bestiary.adapters.critters_encoding import CrittersEncoding
from bestiary.adapters.ticks import TickedWild
from bestiary.adapters.wild_encoding import WildEncoding
from bestiary.core.agent import Agent, make_bot
from bestiary.core.driver import Pace
from bestiary.core.errors import BadOption
from bestiary.critters import GAME as CRITTERS
from bestiary.critters import CrittersState
from bestiary.wild import GAME as WILD
from bestiary.wild import WildAction

Observation = dict[str, np.ndarray]

PACE = Pace()  # bots decide as often as at a live table


def _seating(
    game: str, players: int, low: int, high: int, seat: int, opponents: str | Sequence[str]
) -> tuple[list[str], str, list[str]]:
    """Player names, the learner's name and one bot name per other seat (in seat order)."""
    if not isinstance(players, int) or not low <= players <= high:
        raise BadOption(f"{game} takes {low} to {high} players, not {players!r}")
    if not isinstance(seat, int) or not 0 <= seat < players:
        raise BadOption(f"seat must be between 0 and {players - 1}, not {seat!r}")
    names = [f"player_{i}" for i in range(players)]
    bots = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
    if len(bots) != players - 1:
        raise BadOption(f"name one bot for each of the {players - 1} other seats, not {len(bots)}")
    for bot in bots:
        make_bot(game, bot, names[0], 0)  # refuses unknown names now, in one sentence
    return names, names[seat], bots


def _dict_space(size: int, high: np.ndarray, actions: int) -> spaces.Dict:
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, high, shape=(size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(actions,), dtype=np.int8),
        }
    )


class CrittersEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """The critter game for one learner against bots."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012 (Gymnasium.s attribute)

    def __init__(
        self,
        players: int = 2,
        opponents: str | Sequence[str] = "random",
        seat: int = 0,
        options: Mapping[str, Any] | None = None,
        illegal_reward: float = -1.0,
        max_moves: int = 5_000,
        render_mode: str | None = None,
    ) -> None:
        self.players, self.learner, self.bot_names = _seating(
            "critters",
            players,
            CRITTERS.info.min_players,
            CRITTERS.info.max_players,
            seat,
            opponents,
        )
        self.options = dict(options or {})
        probe = CRITTERS.new_game(self.players, self.options, seed=0)  # validates options
        self.encoding = CrittersEncoding(probe.players, probe.kinds, probe.set_size)
        enc = self.encoding
        self.observation_space = _dict_space(
            enc.obs_size, enc.observation_high(probe.table.deck.size), enc.size
        )
        self.action_space = spaces.Discrete(enc.size)
        self.illegal_reward = illegal_reward
        self.max_moves = max_moves
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise BadOption(f"render_mode {render_mode!r} is not supported (use 'ansi' or None)")
        self.render_mode = render_mode
        self._state: CrittersState | None = None
        self._bots: dict[str, Agent] = {}
        self._moves = 0
        self._chance = random.Random()

    @property
    def game_state(self) -> CrittersState:
        if self._state is None:
            raise RuntimeError("call reset() before using the env")
        return self._state

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        rng = random.Random(int(self.np_random.integers(2**63)))
        game_options = dict(self.options)
        if options and isinstance(options.get("game_options"), Mapping):
            game_options.update(options["game_options"])
        self._state = CRITTERS.new_game(self.players, game_options, seed=rng.randrange(2**63))
        self._chance = random.Random(rng.randrange(2**63))
        bots = iter(self.bot_names)
        self._bots = {
            p: make_bot("critters", next(bots), p, rng.randrange(2**63))
            for p in self.players
            if p != self.learner
        }
        self._moves = 0
        self._play_bots()
        return self._observe(), {}

    def step(self, action: Any) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        state = self.game_state
        a = int(action)
        legal = {self.encoding.action_id(x): x for x in state.legal_actions(self.learner)}
        if a not in legal:
            info = {"illegal_action": f"action {a} is not legal now"}
            return self._observe(), self.illegal_reward, True, False, info
        state.apply(legal[a])
        self._moves += 1
        self._play_bots()
        if state.is_over:
            winners = state.winners()
            reward = 1.0 if self.learner in winners else -1.0
            return self._observe(), reward, True, False, {"winners": winners}
        return self._observe(), 0.0, False, self._moves >= self.max_moves, {}

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        from bestiary.adapters.critters_v0 import describe_table

        return describe_table(self.game_state)

    def action_masks(self) -> np.ndarray:
        """The legal-action mask now (the name sb3-contrib's MaskablePPO looks for)."""
        return self.encoding.mask(self.game_state.legal_actions(self.learner))

    def _play_bots(self) -> None:
        state = self.game_state
        while not state.is_over and self._moves < self.max_moves:
            if state.chance_due:  # a reshuffle: the env's seeded chance, not a move
                state.apply(state.chance_outcome(self._chance))
                continue
            player = state.to_act
            if player is None or player == self.learner:
                return
            choice = self._bots[player].act(state.view(player), state.legal_actions(player))
            if choice is None:
                raise RuntimeError(f"the {player} bot chose nothing on its critters turn")
            state.apply(choice)
            self._moves += 1

    def _observe(self) -> Observation:
        state = self.game_state
        return {
            "observation": self.encoding.observe(state.view(self.learner)),
            "action_mask": self.encoding.mask(state.legal_actions(self.learner)),
        }


class WildEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """Call of the Wild for one learner against bots, one tick per step."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 (Gymnasium.s attribute)

    def __init__(
        self,
        players: int = 4,
        opponents: str | Sequence[str] = "random",
        seat: int = 0,
        options: Mapping[str, Any] | None = None,
        quiet_ticks: int | None = None,
        max_ticks: int = 10_000,
        render_mode: str | None = None,
    ) -> None:
        self.players, self.learner, self.bot_names = _seating(
            "wild", players, WILD.info.min_players, WILD.info.max_players, seat, opponents
        )
        self.options = dict(options or {})
        probe = WILD.new_game(self.players, self.options, seed=0)
        self.encoding = WildEncoding(self.players, bool(probe.deal.options["objectives"]))
        enc = self.encoding
        self.observation_space = _dict_space(enc.obs_size, enc.observation_high(), enc.size)
        self.action_space = spaces.Discrete(enc.size)
        self.quiet_ticks = quiet_ticks
        self.max_ticks = max_ticks
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise BadOption(f"render_mode {render_mode!r} is not supported (use 'ansi' or None)")
        self.render_mode = render_mode
        self._table: TickedWild | None = None
        self._bots: dict[str, Agent] = {}
        self._wait: dict[str, int] = {}
        self._rng = random.Random()
        self._mask = np.zeros(enc.size, dtype=np.int8)
        self._score = 0

    @property
    def table(self) -> TickedWild:
        if self._table is None:
            raise RuntimeError("call reset() before using the env")
        return self._table

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        self._rng = rng = random.Random(int(self.np_random.integers(2**63)))
        game_options = dict(self.options)
        if options and isinstance(options.get("game_options"), Mapping):
            game_options.update(options["game_options"])
        state = WILD.new_game(self.players, game_options, seed=rng.randrange(2**63))
        self._table = TickedWild(state, self.quiet_ticks)
        bots = iter(self.bot_names)
        self._bots = {
            p: make_bot("wild", next(bots), p, rng.randrange(2**63))
            for p in self.players
            if p != self.learner
        }
        self._wait = dict.fromkeys(self._bots, 0)
        self._score = 0
        return self._observe(), {}

    def step(self, action: Any) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        table = self.table
        state = table.state
        enc = self.encoding
        info: dict[str, Any] = {}
        chosen: list[WildAction | None] = [None] * enc.n
        a = int(action)
        if 0 <= a < enc.size and self._mask[a]:
            chosen[enc.seat[self.learner]] = enc.action(self.learner, a)
        else:
            info["skipped"] = f"action {a} was not legal at the start of the tick"
        for player, bot in self._bots.items():
            if self._wait[player] > 0:
                self._wait[player] -= 1
                continue
            choice = bot.act(state.view(player), state.legal_actions(player))
            if choice is not None:
                chosen[enc.seat[player]] = choice
                self._wait[player] = self._rng.choice(PACE.reaction_ticks)
        order = list(range(enc.n))
        self._rng.shuffle(order)
        report = table.play_tick(chosen, order)
        if self.learner in report.skipped:
            info["skipped"] = report.skipped[self.learner]
        score = state.scores()[self.learner]
        reward = float(score - self._score)
        self._score = score
        if state.is_over:
            info["winners"] = state.winners()
        truncated = not state.is_over and table.ticks >= self.max_ticks
        return self._observe(), reward, state.is_over, truncated, info

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        from bestiary.adapters.wild_v0 import describe_table

        return describe_table(self.table)

    def action_masks(self) -> np.ndarray:
        """The legal-action mask now (the name sb3-contrib's MaskablePPO looks for)."""
        return self._mask.copy()

    def _observe(self) -> Observation:
        table = self.table
        state = table.state
        enc = self.encoding
        if state.is_over:
            self._mask = np.zeros(enc.size, dtype=np.int8)
        else:
            self._mask = enc.mask(state.legal_actions(self.learner))
        return {
            "observation": enc.observe(state.view(self.learner), table.quiet_share),
            "action_mask": self._mask.copy(),
        }


gymnasium.register("bestiary/Critters-v0", entry_point="bestiary.adapters.gym_envs:CrittersEnv")
gymnasium.register("bestiary/Wild-v0", entry_point="bestiary.adapters.gym_envs:WildEnv")
