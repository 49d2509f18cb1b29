"""Reference baselines: MaskablePPO and a masked Double DQN on each game, trained and measured.

``bestiary baselines`` trains, on one core (``torch.set_num_threads(1)``) and within a budget
of learner env steps (so a result does not depend on the machine's load):

- **MaskablePPO** (sb3-contrib) on ``bestiary/Critters-v0`` / ``bestiary/Wild-v0`` (two envs,
  two seats), against ``random`` opponents; ``wild-small`` is wild's small variant for 2
  (``bestiary.wild.info.VARIANTS``), the same agents with the variant's options;
- **masked Double DQN** (below, in torch) on the vector env (``bestiary.adapters.vector``),
  same games, same opponents. SB3's DQN takes no action mask, and Tianshou's API changes
  between major versions; this one uses the mask where a DQN must: exploration samples only
  legal ids, and both the greedy choice and the bootstrap target maximise over legal ids.

Each agent is saved to ``OUT/GAME_AGENT.zip`` (PPO) or ``.pt`` (DQN), loaded back from that
file and evaluated through ``bestiary sim``'s runner as a bestiary agent
(``policies.policy_agent``): its win share (a win shared by k counts 1/k) against
``random``, ``greedy`` (critters) / ``reader`` (wild) in every other seat, and against
``ismcts`` (critters, a small sample: it thinks ~0.25 s a move), seats rotating, each with
n and a 95% Wilson interval. The reference bots are measured in the same harness beside them
(against the cheap opponents; their games against ``ismcts`` are docs/bots.md's ladder). In
wild a bot at the table decides only at its reaction times (2 to 6 ticks apart) while the
agents were trained acting every tick, so wild agents are also measured as trained, in the
Gym env, beside a uniformly random legal id at every tick (``random ids``). ``OUT/GAME.json``
holds every figure.
"""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, cast

import numpy as np
import torch
from gymnasium import spaces

from bestiary.adapters import gym_envs
from bestiary.adapters.evaluate import play_seat
from bestiary.adapters.policies import as_policy, policy_agent
from bestiary.adapters.vector import make_vector
from bestiary.core.agent import Agent
from bestiary.sim.bots import make_agent
from bestiary.sim.stats import wilson
from bestiary.wild.info import VARIANTS as WILD_VARIANTS

Echo = Callable[[str], None]


@dataclass(frozen=True)
class Setting:
    """One game's baseline setting: the table, the training seats and the yardsticks."""

    game: str
    players: int
    seats: tuple[int, ...]  # learner seats while training (one env each)
    against: tuple[str, ...]  # evaluation opponents, cheap ones
    search: str | None  # the strongest search bot (a smaller sample)
    references: tuple[str, ...]  # bots measured in the learner's seat, beside the agents
    # Real time: also measured as trained, acting every tick in the Gym env (a bot at the
    # table decides only at its reaction times, 2 to 6 ticks apart).
    every_tick: bool = False
    options: Mapping[str, Any] = field(default_factory=dict)  # the game's, for a variant


SETTINGS = {
    "critters": Setting(
        "critters", 2, (0, 1), ("random", "greedy"), "ismcts", ("random", "greedy")
    ),
    "wild": Setting(
        "wild", 4, (0, 2), ("random", "reader"), None, ("random", "reader"), every_tick=True
    ),
    # The small wild variant (docs/rl.md): 2 players, 3-card Packs.
    "wild-small": Setting(
        "wild",
        2,
        (0, 1),
        ("random", "reader"),
        None,
        ("random", "reader"),
        every_tick=True,
        options=WILD_VARIANTS["small"],
    ),
}
UNIFORM = "random ids"  # the reference policy: a uniformly random legal id at every step


class UniformIds:
    """A policy choosing a uniformly random legal id (the every-tick learners' yardstick)."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def __call__(self, observation: dict[str, np.ndarray]) -> int:
        return int(self.rng.choice(np.flatnonzero(observation["action_mask"])))


TRAINING_OPPONENT = "random"


# ------------------------------------------------------------------ masked Double DQN


class QNet(torch.nn.Module):
    """Observation vector -> one Q-value per action id (inputs scaled by the space's bounds)."""

    scale: torch.Tensor

    def __init__(self, high: Sequence[float], actions: int, hidden: int = 128) -> None:
        super().__init__()
        self.register_buffer("scale", 1.0 / torch.as_tensor(high, dtype=torch.float32))
        self.layers = torch.nn.Sequential(
            torch.nn.Linear(len(high), hidden),
            torch.nn.ReLU(),
            torch.nn.Linear(hidden, hidden),
            torch.nn.ReLU(),
            torch.nn.Linear(hidden, actions),
        )
        self.high = list(map(float, high))
        self.actions = actions
        self.hidden = hidden

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = self.layers(x * self.scale)
        return out

    def save(self, path: Path) -> None:
        shape = {"high": self.high, "actions": self.actions, "hidden": self.hidden}
        torch.save({"shape": shape, "weights": self.state_dict()}, path)

    @classmethod
    def load(cls, path: Path) -> QNet:
        saved = torch.load(path, weights_only=True)
        net = cls(**saved["shape"])
        net.load_state_dict(saved["weights"])
        net.eval()
        return net


def _masked_argmax(q: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    return torch.where(mask, q, -torch.inf).argmax(1)


def train_dqn(setting: Setting, steps: int, seed: int, games: int = 8) -> QNet:
    """A masked Double DQN trained for ``steps`` learner steps on the vector env."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    per_seat = max(1, games // len(setting.seats))
    venvs = [
        make_vector(
            setting.game,
            per_seat,
            players=setting.players,
            opponents=TRAINING_OPPONENT,
            seat=seat,
            options=setting.options,
        )
        for seat in setting.seats
    ]
    first = venvs[0]
    box = cast(spaces.Box, cast(spaces.Dict, first.single_observation_space)["observation"])
    net = QNet(
        np.maximum(box.high, 1.0).tolist(), int(cast(spaces.Discrete, first.single_action_space).n)
    )
    target = copy.deepcopy(net)
    optimiser = torch.optim.Adam(net.parameters(), lr=5e-4)
    replay = _Replay(min(50_000, max(steps, 1)), len(net.high), net.actions)
    current = [venv.reset(seed=seed + 1000 * k)[0] for k, venv in enumerate(venvs)]
    ended = [np.zeros(per_seat, dtype=bool) for _ in venvs]
    taken = updates = 0
    while taken < steps:
        explore = max(0.05, 1.0 - taken / (0.5 * steps))
        for k, venv in enumerate(venvs):
            x, mask = current[k]["observation"], current[k]["action_mask"]
            with torch.no_grad():
                greedy = _masked_argmax(net(torch.as_tensor(x)), torch.as_tensor(mask) > 0)
            random_legal = (rng.random(mask.shape) * mask).argmax(1)
            chosen = np.where(rng.random(per_seat) < explore, random_legal, greedy.numpy())
            after, reward, terminated, truncated, _ = venv.step(chosen)
            done = terminated | truncated
            live = ~ended[k]  # a step right after an episode's end only reset the game
            replay.add(x[live], chosen[live], reward[live], after, done, live)
            taken += int(live.sum())
            ended[k] = done
            current[k] = after
        if replay.size >= 500:
            _learn(net, target, optimiser, replay, rng)
            updates += 1
            if updates % 250 == 0:
                target.load_state_dict(net.state_dict())
    net.eval()
    return net


class _Replay:
    """A ring buffer of transitions (observation, id, reward, next observation and mask)."""

    def __init__(self, capacity: int, obs_size: int, actions: int) -> None:
        self.x = np.zeros((capacity, obs_size), dtype=np.float32)
        self.next_x = np.zeros((capacity, obs_size), dtype=np.float32)
        self.next_mask = np.zeros((capacity, actions), dtype=np.bool_)
        self.action = np.zeros(capacity, dtype=np.int64)
        self.reward = np.zeros(capacity, dtype=np.float32)
        self.done = np.zeros(capacity, dtype=np.float32)
        self.capacity = capacity
        self.at = self.size = 0

    def add(
        self,
        x: np.ndarray,
        action: np.ndarray,
        reward: np.ndarray,
        after: dict[str, np.ndarray],
        done: np.ndarray,
        live: np.ndarray,
    ) -> None:
        rows = np.arange(self.at, self.at + len(x)) % self.capacity
        self.x[rows] = x
        self.action[rows] = action
        self.reward[rows] = reward
        self.next_x[rows] = after["observation"][live]
        self.next_mask[rows] = after["action_mask"][live] > 0
        self.done[rows] = done[live]
        self.at = (self.at + len(x)) % self.capacity
        self.size = min(self.capacity, self.size + len(x))


def _learn(
    net: QNet,
    target: QNet,
    optimiser: torch.optim.Optimizer,
    replay: _Replay,
    rng: np.random.Generator,
    batch: int = 128,
    gamma: float = 0.99,
) -> None:
    rows = rng.integers(0, replay.size, batch)
    x = torch.as_tensor(replay.x[rows])
    next_x = torch.as_tensor(replay.next_x[rows])
    next_mask = torch.as_tensor(replay.next_mask[rows])
    with torch.no_grad():
        best = _masked_argmax(net(next_x), next_mask)  # Double DQN: online net chooses
        future = target(next_x).gather(1, best.unsqueeze(1)).squeeze(1)
        goal = (
            torch.as_tensor(replay.reward[rows])
            + gamma * (1.0 - torch.as_tensor(replay.done[rows])) * future
        )
    q = net(x).gather(1, torch.as_tensor(replay.action[rows]).unsqueeze(1)).squeeze(1)
    loss = torch.nn.functional.smooth_l1_loss(q, goal)
    optimiser.zero_grad()
    loss.backward()  # type: ignore[no-untyped-call]
    torch.nn.utils.clip_grad_norm_(net.parameters(), 10.0)
    optimiser.step()


# ------------------------------------------------------------------ MaskablePPO


def train_ppo(setting: Setting, steps: int, seed: int) -> Any:
    """sb3-contrib's MaskablePPO for ``steps`` learner steps, one env per training seat."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    single = gym_envs.CrittersEnv if setting.game == "critters" else gym_envs.WildEnv

    def build(seat: int) -> Callable[[], Any]:
        return lambda: single(
            players=setting.players,
            opponents=TRAINING_OPPONENT,
            seat=seat,
            options=setting.options,
        )

    env = DummyVecEnv([build(seat) for seat in setting.seats])
    rollout = max(16, min(256, steps // len(setting.seats)))
    model = MaskablePPO(
        "MultiInputPolicy",
        env,
        n_steps=rollout,
        batch_size=64,
        seed=seed,
        verbose=0,
        device="cpu",
    )
    model.learn(total_timesteps=steps)
    return model


def load_policy(path: Path) -> Any:
    """A saved baseline (``.zip``: MaskablePPO, ``.pt``: the DQN) as a policy."""
    if path.suffix == ".zip":
        from sb3_contrib import MaskablePPO

        return MaskablePPO.load(path, device="cpu")
    return QNet.load(path)


# ------------------------------------------------------------------ evaluation


@dataclass
class Score:
    """One cell of the leaderboard: a win share over ``games``, with its Wilson interval."""

    against: str
    games: int
    share: float
    low: float
    high: float
    seconds: float
    # Games the seat won alone, and whose win it shared (a 0-0 game is shared by everyone).
    won: int = 0
    shared: int = 0

    def cell(self) -> str:
        return f"{self.share:.2f} [{self.low:.2f}, {self.high:.2f}] n={self.games}"


def evaluate(
    game: str,
    players: int,
    seat_agent: Callable[[str], Agent] | str,
    against: str,
    games: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
) -> Score:
    """Win share of one seat (a policy's agent, or a bot by name) over ``games`` sim games
    (of ``options``), its seat rotating, every other seat ``against`` (``evaluate.play_seat``)."""
    start = time.perf_counter()

    def seat(player: str, bot_seed: int) -> Agent:
        if isinstance(seat_agent, str):
            return make_agent(game, seat_agent, player, bot_seed)
        return seat_agent(player)

    def other(player: str, bot_seed: int) -> Agent:
        return make_agent(game, against, player, bot_seed)

    tally = play_seat(game, players, seat, other, games, seed, options)
    low, high = tally.interval
    seconds = time.perf_counter() - start
    return Score(against, games, tally.rate, low, high, seconds, tally.won, tally.shared)


def evaluate_every_tick(
    policy: Any, setting: Setting, against: str, games: int, seed: int
) -> Score:
    """Win share of ``policy`` in the Gym env it was trained in (acting every tick), its
    seat rotating, every other seat ``against``."""
    start = time.perf_counter()
    play = as_policy(policy)
    assert play is not None
    wins = 0.0
    won = shared = 0
    for g in range(games):
        seat = g % setting.players
        env = gym_envs.WildEnv(
            players=setting.players, opponents=against, seat=seat, options=setting.options
        )
        observation, _ = env.reset(seed=seed + g)
        while True:
            observation, _, terminated, truncated, info = env.step(play(observation))
            if terminated or truncated:
                winners = info["winners"]
                wins += float(winners[seat]) / max(1, int(winners.sum()))
                if winners[seat]:
                    won += int(winners.sum()) == 1
                    shared += int(winners.sum()) > 1
                break
    low, high = wilson(wins, games)
    share = wins / games if games else 0.0
    seconds = time.perf_counter() - start
    return Score(f"{against}, every tick", games, share, low, high, seconds, won, shared)


@dataclass
class Row:
    """One agent (or reference bot) and its scores."""

    game: str
    agent: str
    steps: int = 0
    train_seconds: float = 0.0
    checkpoint: str = ""
    checkpoint_bytes: int = 0
    scores: list[Score] = field(default_factory=list)


def _measure(
    row: Row,
    setting: Setting,
    seat: Callable[[str], Agent] | str,
    policy: Any,
    eval_games: int,
    search_games: int,
    seed: int,
    echo: Echo,
) -> Row:
    """``row``'s scores: in sim games (a bot name, or the policy's agent), then as trained."""
    opponents = list(setting.against)
    if setting.search and search_games > 0:
        opponents.append(setting.search)
    for against in opponents:
        games = search_games if against == setting.search else eval_games
        row.scores.append(
            evaluate(setting.game, setting.players, seat, against, games, seed, setting.options)
        )
    if setting.every_tick and policy is not None:
        for against in setting.against:
            row.scores.append(evaluate_every_tick(policy, setting, against, eval_games, seed))
    echo(f"  {row.agent:<10} " + "  ".join(f"vs {s.against} {s.cell()}" for s in row.scores))
    return row


def _agent_of(policy: Any, game: str) -> Callable[[str], Agent]:
    return lambda player: policy_agent(policy, game, player)


TRAINERS = (("ppo", train_ppo, ".zip"), ("dqn", train_dqn, ".pt"))


def run_baselines(
    games: Sequence[str],
    steps: int,
    out: Path,
    seed: int = 1,
    eval_games: int = 200,
    search_games: int = 50,
    echo: Echo = print,
) -> list[Row]:
    """Train, save, reload and evaluate both agents on each setting (``games``: keys of
    ``SETTINGS``, a game or a variant); write ``out/SETTING.json``."""
    torch.set_num_threads(1)
    out.mkdir(parents=True, exist_ok=True)
    rows: list[Row] = []
    for game in games:
        setting = SETTINGS[game]
        echo(
            f"{game}: {setting.players} players, "
            f"trained against {TRAINING_OPPONENT}, {steps} steps each"
        )
        for name in setting.references:  # against the search bot: docs/bots.md's ladder
            rows.append(_measure(Row(game, name), setting, name, None, eval_games, 0, seed, echo))
        if setting.every_tick:
            uniform = UniformIds(seed)
            row = Row(game, UNIFORM)
            rows.append(
                _measure(
                    row,
                    setting,
                    _agent_of(uniform, setting.game),
                    uniform,
                    eval_games,
                    0,
                    seed,
                    echo,
                )
            )
        for agent, train, suffix in TRAINERS:
            start = time.perf_counter()
            model = train(setting, steps, seed)
            seconds = time.perf_counter() - start
            path = out / f"{game}_{agent}{suffix}"
            model.save(path)
            policy = load_policy(path)  # what is measured is what was saved
            row = Row(game, agent, steps, round(seconds, 1), str(path), path.stat().st_size)
            seat = _agent_of(policy, setting.game)
            rows.append(_measure(row, setting, seat, policy, eval_games, search_games, seed, echo))
            echo(
                f"    trained in {seconds:.0f} s, "
                f"checkpoint {path} ({row.checkpoint_bytes:,} bytes)"
            )
        ours = [asdict(r) for r in rows if r.game == game]
        command = (
            f"bestiary baselines {game} --steps {steps} --eval-games {eval_games} "
            f"--search-games {search_games} --seed {seed}"
        )
        saved = {"command": command, "date": time.strftime("%Y-%m-%d"), "rows": ours}
        (out / f"{game}.json").write_text(json.dumps(saved, indent=1) + "\n", encoding="utf-8")
    return rows
