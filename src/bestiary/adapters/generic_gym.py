"""Any registered turn-based game as a Gymnasium env against opponents: ``bestiary/Game-v0``.

The face a game gets for free, from what it declares: its encoding (``GameInfo.faces.encoding``)
or the generic one from its view and legal actions (``bestiary.adapters.encoding``). The
learner plays one seat; every other seat is an opponent (a bot name, an ``Agent``, a policy or
a snapshot: ``policies.opponent``), each seeing only its own view. The game is played through
the core ``Match`` driver (chance sampled by the driver from the env's seed), so it plays as it
does in ``bestiary sim`` and at a live table.

One step is one move of the learner; the opponents then play until the learner must act again.
Reward +1 for a win (shared or not), -1 for a loss, at the end. A masked-out action ends the
episode with ``illegal_reward`` and ``info["illegal_action"]`` (the reason; ``""`` otherwise).
The last observation's mask is all ones: nothing is legal any more, and under Gymnasium 1.x's
default ``NEXT_STEP`` autoreset a vector env's next step ignores the action and resets, so a
masked sampler always has something to sample. Infos have the same keys at every step
(``bestiary.adapters.infos``); ``reset(options={"game_options": {...}})`` changes the game's
options for one episode. A game's own env (``gym_envs.CrittersEnv``) is this one with its name,
its default opponents, its observation bounds and its ``ansi`` text declared. ``vector_env``
runs ``n`` of them in Gymnasium's synchronous vector env.

>>> import gymnasium
>>> env = gymnasium.make("bestiary/Game-v0", game="critters", opponents="random")
>>> sorted(env.reset(seed=1)[0])
['action_mask', 'observation']
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from bestiary.adapters.encoding import Encoding, ViewEncoding, encoding_for
from bestiary.adapters.infos import step_info
from bestiary.adapters.observation_space import dict_space
from bestiary.adapters.policies import ViewEncoder, opponent
from bestiary.adapters.render import RENDER_MODES, check_render_mode, show
from bestiary.core.agent import Agent
from bestiary.core.driver import Match
from bestiary.core.errors import BadOption
from bestiary.core.game import State, get_game

Observation = dict[str, np.ndarray]

Opponents = Any  # a spec (bot name, Agent, policy, snapshot) or one per other seat


def seating(
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


def end_mask(size: int) -> np.ndarray:
    """The mask of an episode's last observation: all ones (see the module docstring)."""
    return np.ones(size, dtype=np.int8)


def episode_options(base: Mapping[str, Any], options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The game's options for one episode: ``reset``'s ``"game_options"`` over the env's."""
    merged = dict(base)
    if options and isinstance(options.get("game_options"), Mapping):
        merged.update(options["game_options"])
    return merged


class AgainstOpponents(gymnasium.Env[dict[str, Any], np.int64]):
    """What every single-learner env shares: the learner's seat, the opponents in the others."""

    game = ""
    players: list[str]
    learner: str
    opponent_specs: list[Any]
    encoding: Any

    def set_opponents(self, opponents: Opponents) -> None:
        """New opponents from the next ``reset`` on (self-play, leagues); checked now."""
        n = len(self.players)
        seat = self.players.index(self.learner)
        self.opponent_specs = seating(self.game, n, n, n, seat, opponents)[2]
        self._opponents = self._seat(random.Random(0))

    def _seat(self, rng: random.Random) -> dict[str, Agent]:
        """The opponents of one episode (bots made anew with fresh seeds; policies reused)."""
        others = [p for p in self.players if p != self.learner]
        # The generic encoding remembers the last legal list: an opponent's policy gets its own.
        shared = None if isinstance(self.encoding, ViewEncoding) else self.encoding
        return {
            p: opponent(spec, self.game, p, rng.randrange(2**63), shared, self._encoder())
            for p, spec in zip(others, self.opponent_specs, strict=True)
        }

    def _encoder(self) -> ViewEncoder:
        """How an opponent's policy sees its view: as the learner sees its own."""
        return self.encoding.observe  # type: ignore[no-any-return]


class GameEnv(AgainstOpponents):
    """``game`` for one learner in ``seat`` against ``opponents`` (default: its default bot)."""

    metadata: dict[str, Any] = {"render_modes": RENDER_MODES, "render_fps": 1}  # noqa: RUF012 (Gymnasium's attribute)

    def __init__(
        self,
        game: str,
        players: int = 2,
        opponents: Opponents = None,
        seat: int = 0,
        options: Mapping[str, Any] | None = None,
        illegal_reward: float = -1.0,
        max_moves: int = 5_000,
        render_mode: str | None = None,
    ) -> None:
        try:
            self.rules = get_game(game)
        except KeyError as err:
            raise BadOption(str(err.args[0])) from None
        info = self.rules.info
        if info.real_time:
            raise BadOption(
                f"{game} is real-time: the generic Gymnasium face takes turn-based games"
            )
        self.game = game
        spec = info.default_bot if opponents is None else opponents
        self.players, self.learner, self.opponent_specs = seating(
            game, players, info.min_players, info.max_players, seat, spec
        )
        self.options = dict(options or {})
        probe = self.rules.new_game(self.players, self.options, seed=0)  # validates options
        self.encoding: Encoding = encoding_for(game, probe.view(self.learner))
        enc = self.encoding
        self.observation_space = dict_space(enc.obs_size, self.observation_high(probe), enc.size)
        self.action_space = spaces.Discrete(enc.size)
        self.illegal_reward = illegal_reward
        self.max_moves = max_moves
        self.render_mode = check_render_mode(render_mode)
        self._state: State | None = None
        self._match: Match | None = None
        # Made once now, so that a bad opponent is refused at make, not at the first reset.
        self._opponents = self._seat(random.Random(0))
        self._moves = 0

    def observation_high(self, probe: State) -> np.ndarray:
        """The observation's upper bounds: the generic encoding's bytes are at most 127; a
        game's own encoding is unbounded here unless its env declares its bounds."""
        enc = self.encoding
        if isinstance(enc, ViewEncoding):
            return enc.observation_high()
        return np.full(enc.obs_size, np.inf, dtype=np.float32)

    def legal_move(self, action_id: int) -> Any | None:
        """The learner's legal move that ``action_id`` stands for, or None if none."""
        mask = self.encoding.mask(self.game_state.legal_actions(self.learner))
        if not 0 <= action_id < len(mask) or not mask[action_id]:
            return None
        return self.encoding.action(self.learner, action_id)

    def describe(self) -> str:
        """The ``ansi`` render: the public view, unless the game's env says it in its words."""
        return str(self.game_state.view(None))

    @property
    def game_state(self) -> State:
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
        self._match = Match(self.rules, self.game_state, self._opponents, seed=table_seed)
        self._play_opponents()
        return self._observe(), self._info()

    def deal(self, seed: int | None = None, options: dict[str, Any] | None = None) -> int:
        """A new episode's game and opponents (``reset`` without the driver); the table's seed.

        Shared with the vector env, so that both start every episode alike.
        """
        super().reset(seed=seed)
        rng = random.Random(int(self.np_random.integers(2**63)))
        game_options = episode_options(self.options, options)
        self._state = self.rules.new_game(self.players, game_options, seed=rng.randrange(2**63))
        table_seed = rng.randrange(2**63)
        self._opponents = self._seat(rng)
        self._moves = 0
        return table_seed

    def step(self, action: Any) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        state = self.game_state
        a = int(action)
        move = self.legal_move(a)
        if move is None:
            info = self._info(f"action {a} is not legal now")
            return self._observe(over=True), self.illegal_reward, True, False, info
        self.match.submit(self.learner, move)
        self._moves += 1
        self._play_opponents()
        if state.is_over:
            reward = 1.0 if self.learner in state.winners() else -1.0
            return self._observe(), reward, True, False, self._info()
        truncated = self._moves >= self.max_moves
        return self._observe(over=truncated), 0.0, False, truncated, self._info()

    def action_masks(self) -> np.ndarray:
        """The legal-action mask now (the name sb3-contrib's MaskablePPO looks for)."""
        state = self.game_state
        if state.is_over or self._moves >= self.max_moves:
            return end_mask(self.encoding.size)
        return self.encoding.mask(state.legal_actions(self.learner))

    def render(self) -> str | None:
        return show(self.describe, self.render_mode)

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
        mask = end_mask(self.encoding.size) if over else self.action_masks()
        return {"observation": self.encoding.observe(state.view(self.learner)), "action_mask": mask}


def vector_env(game: str, num_envs: int, **kwargs: Any) -> gymnasium.vector.SyncVectorEnv:
    """``num_envs`` copies of ``GameEnv(game, **kwargs)`` stepped together (Gymnasium's own)."""
    if not isinstance(num_envs, int) or num_envs < 1:
        raise BadOption(f"num_envs must be a whole number of at least 1, not {num_envs!r}")
    GameEnv(game, **kwargs)  # refuses a bad game, seat, opponent or option now, in one sentence
    return gymnasium.vector.SyncVectorEnv([lambda: GameEnv(game, **kwargs)] * num_envs)


gymnasium.register("bestiary/Game-v0", entry_point="bestiary.adapters.generic_gym:GameEnv")
