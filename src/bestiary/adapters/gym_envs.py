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
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from bestiary.adapters.critters_encoding import CrittersEncoding
from bestiary.adapters.infos import step_info, tick_info
from bestiary.adapters.policies import ViewEncoder, opponent
from bestiary.adapters.render import RENDER_MODES, check_render_mode, show
from bestiary.adapters.ticks import TickedWild
from bestiary.adapters.wild_encoding import WildEncoding
from bestiary.core.agent import Agent
from bestiary.core.driver import Match
from bestiary.core.errors import BadOption
from bestiary.critters import GAME as CRITTERS
from bestiary.critters import CrittersState
from bestiary.wild import GAME as WILD
from bestiary.wild import WildAction
from bestiary.wild.info import VARIANTS as WILD_VARIANTS

Observation = dict[str, np.ndarray]


Opponents = Any  # a spec (bot name, Agent, policy, snapshot) or one per other seat


def _seating(
    game: str, players: int, low: int, high: int, seat: int, opponents: Opponents
) -> tuple[list[str], str, list[Any]]:
    """Player names, the learner's name and one opponent spec per other seat (in seat order)."""
    if not isinstance(players, int) or not low <= players <= high:
        raise BadOption(f"{game} takes {low} to {high} players, not {players!r}")
    if not isinstance(seat, int) or not 0 <= seat < players:
        raise BadOption(f"seat must be between 0 and {players - 1}, not {seat!r}")
    names = [f"player_{i}" for i in range(players)]
    specs = list(opponents) if isinstance(opponents, list | tuple) else [opponents] * (players - 1)
    if len(specs) != players - 1:
        raise BadOption(
            f"name one opponent for each of the {players - 1} other seats, not {len(specs)}"
        )
    return names, names[seat], specs


def _end_mask(size: int) -> np.ndarray:
    """The mask of an episode's last observation: all ones (see the module docstring)."""
    return np.ones(size, dtype=np.int8)


def _dict_space(size: int, high: np.ndarray, actions: int) -> spaces.Dict:
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, high, shape=(size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(actions,), dtype=np.int8),
        }
    )


class _AgainstOpponents(gymnasium.Env[dict[str, Any], np.int64]):
    """What both envs share: the learner's seat and the opponents in the other seats."""

    game = ""
    players: list[str]
    learner: str
    opponent_specs: list[Any]
    encoding: Any

    def set_opponents(self, opponents: Opponents) -> None:
        """New opponents from the next ``reset`` on (self-play, leagues); checked now."""
        n = len(self.players)
        seat = self.players.index(self.learner)
        self.opponent_specs = _seating(self.game, n, n, n, seat, opponents)[2]
        self._opponents = self._seat(random.Random(0))

    def _seat(self, rng: random.Random) -> dict[str, Agent]:
        """The opponents of one episode (bots made anew with fresh seeds; policies reused)."""
        others = [p for p in self.players if p != self.learner]
        return {
            p: opponent(spec, self.game, p, rng.randrange(2**63), self.encoding, self._encoder())
            for p, spec in zip(others, self.opponent_specs, strict=True)
        }

    def _encoder(self) -> ViewEncoder:
        """How an opponent's policy sees its view: as the learner sees its own."""
        return self.encoding.observe  # type: ignore[no-any-return]


class CrittersEnv(_AgainstOpponents):
    """The critter game for one learner against opponents."""

    game = "critters"
    encoding: CrittersEncoding

    metadata: dict[str, Any] = {"render_modes": RENDER_MODES, "render_fps": 1}  # noqa: RUF012 (Gymnasium's attribute)

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
        self.players, self.learner, self.opponent_specs = _seating(
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
        self.render_mode = check_render_mode(render_mode)
        self._state: CrittersState | None = None
        self._match: Match | None = None
        # Made once now, so that a bad opponent is refused at make, not at the first reset.
        self._opponents = self._seat(random.Random(0))
        self._moves = 0

    @property
    def game_state(self) -> CrittersState:
        if self._state is None:
            raise RuntimeError("call reset() before using the env")
        return self._state

    @property
    def match(self) -> Match:
        """The driver playing the game: opponents inside it, the learner outside."""
        if self._match is None:
            raise RuntimeError("call reset() before using the env")
        return self._match

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        table_seed = self.deal(seed, options)
        self._match = Match(CRITTERS, self.game_state, self._opponents, seed=table_seed)
        self._play_opponents()
        return self._observe(), self._info()

    def deal(self, seed: int | None = None, options: dict[str, Any] | None = None) -> int:
        """A new episode's game and opponents (``reset`` without the driver); the table's seed.

        Shared with the vector env, so that both start every episode alike.
        """
        super().reset(seed=seed)
        rng = random.Random(int(self.np_random.integers(2**63)))
        game_options = dict(self.options)
        if options and isinstance(options.get("game_options"), Mapping):
            game_options.update(options["game_options"])
        self._state = CRITTERS.new_game(self.players, game_options, seed=rng.randrange(2**63))
        table_seed = rng.randrange(2**63)
        self._opponents = self._seat(rng)
        self._moves = 0
        return table_seed

    def step(self, action: Any) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        state = self.game_state
        a = int(action)
        legal = {self.encoding.action_id(x): x for x in state.legal_actions(self.learner)}
        if a not in legal:
            info = self._info(f"action {a} is not legal now")
            return self._observe(over=True), self.illegal_reward, True, False, info
        self.match.submit(self.learner, legal[a])
        self._moves += 1
        self._play_opponents()
        if state.is_over:
            reward = 1.0 if self.learner in state.winners() else -1.0
            return self._observe(), reward, True, False, self._info()
        truncated = self._moves >= self.max_moves
        return self._observe(over=truncated), 0.0, False, truncated, self._info()

    def render(self) -> str | None:
        from bestiary.adapters.critters_v0 import describe_table

        return show(lambda: describe_table(self.game_state), self.render_mode)

    def action_masks(self) -> np.ndarray:
        """The legal-action mask now (the name sb3-contrib's MaskablePPO looks for)."""
        state = self.game_state
        if state.is_over or self._moves >= self.max_moves:
            return _end_mask(self.encoding.size)
        return self.encoding.mask(state.legal_actions(self.learner))

    def _info(self, illegal: str = "") -> dict[str, Any]:
        state = self.game_state
        info = step_info(self.players, state.winners() if state.is_over else ())
        info["illegal_action"] = illegal
        return info

    def _play_opponents(self) -> None:
        """The driver plays the opponents (and samples chance) until the learner must act."""
        match, state = self.match, self.game_state
        while not state.is_over and self._moves < self.max_moves:
            if self.learner in state.actors:
                return
            due = match.next_due()
            if due is None:
                return
            self._moves += sum(p.by is not None for p in match.advance(due))

    def _observe(self, over: bool = False) -> Observation:
        state = self.game_state
        mask = _end_mask(self.encoding.size) if over else self.action_masks()
        return {"observation": self.encoding.observe(state.view(self.learner)), "action_mask": mask}


class WildEnv(_AgainstOpponents):
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
        self.players, self.learner, self.opponent_specs = _seating(
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
        self.render_mode = check_render_mode(render_mode)
        self._table: TickedWild | None = None
        self._opponents = self._seat(random.Random(0))
        self._mask = _end_mask(enc.size)
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
        game_options = dict(self.options)
        if options and isinstance(options.get("game_options"), Mapping):
            game_options.update(options["game_options"])
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
            self._mask = _end_mask(enc.size)
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
