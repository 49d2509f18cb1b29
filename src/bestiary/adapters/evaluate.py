"""``bestiary evaluate``: any policy scored on a fixed, versioned protocol per game and variant.

A protocol (``protocols.toml``, data with a version string) fixes the table (players, the
variant's options), the opponents and how many games against each, the seeds (game g of a
block is seeded ``seed + g``; every block, and so every policy, meets the same deals) and the
seat rotation (game g seats the policy in seat g % players, every other seat the opponent).
Each game is played by ``bestiary sim``'s runner (the core ``Match``, as a live table): a
trained policy sits at the table as a bestiary agent (``policies.policy_agent``) and, in
wild, decides at its reaction times as the bots do. A score is the win share (a win shared by
k counts 1/k) with its 95% Wilson interval (``bestiary.sim.stats``), per opponent.

POLICY is one of: a bot name of the game (the registry's, ``policies.policy_factory`` bots
included once registered), ``module:NAME`` (a policy: a callable ``observation -> action id``,
an SB3 model or a torch module; or a bot factory ``(player, rng) -> Agent``), an SB3 /
sb3-contrib ``.zip`` checkpoint, or a TorchScript ``.pt`` file (or the reference DQN's
``.pt``). Every game is seeded and policies play deterministically, so a score is the same to
the digit for the same protocol version on any machine. ``ismcts`` plays with its iteration
budget only here (its time cap, for live tables, would make a busy machine's games differ).

>>> critters = protocol("critters")
>>> critters.version, critters.players, [b.bot for b in critters.opponents]
('critters-2p-v1', 2, ['random', 'greedy', 'ismcts'])
"""

from __future__ import annotations

import inspect
import json
import random
import tomllib
import warnings
import zipfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bestiary.adapters.policies import as_policy, encoding_from_view, policy_agent
from bestiary.core.agent import Agent, bot_entries, make_bot
from bestiary.core.errors import BadOption
from bestiary.core.game import get_game
from bestiary.core.info import resolve
from bestiary.sim.runner import GameSpec, play_game
from bestiary.sim.stats import WinShare

PROTOCOLS = Path(__file__).with_name("protocols.toml")
CHECKPOINTS = Path(__file__).with_name("checkpoints")
Progress = Callable[[int], None]  # called with the number of games just played


@dataclass(frozen=True)
class Block:
    """One opponent of a protocol and the games against it."""

    bot: str
    games: int


@dataclass(frozen=True)
class Protocol:
    """A fixed evaluation: the table, the opponents, the seeds and the seat rotation."""

    game: str
    variant: str
    version: str
    players: int
    seed: int
    opponents: tuple[Block, ...]
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> str:
        return f"{self.game}/{self.variant}" if self.variant else self.game

    @property
    def games(self) -> int:
        return sum(b.games for b in self.opponents)

    def as_json(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "game": self.game,
            "variant": self.variant,
            "players": self.players,
            "options": dict(self.options),
            "seed": self.seed,
            "opponents": [{"bot": b.bot, "games": b.games} for b in self.opponents],
            "seats": "game g of a block: seed + g, the policy in seat g % players",
        }


def variant_options(game: str, variant: str) -> dict[str, Any]:
    """The game options of a named variant (wild's ``small``, critters' ``tiny``)."""
    if not variant:
        return {}
    if game == "wild":
        from bestiary.wild.info import VARIANTS

        if variant in VARIANTS:
            return dict(VARIANTS[variant])
    elif game == "critters":
        from bestiary.adapters.variants import VARIANTS
        from bestiary.adapters.variants import variant_options as critters_options

        if variant in VARIANTS:
            return critters_options(variant)
    raise BadOption(f"no {game} variant called {variant!r}")


def protocols() -> dict[str, Protocol]:
    """Every protocol, by key (``critters``, ``wild``, ``wild/small``)."""
    data = tomllib.loads(PROTOCOLS.read_text(encoding="utf-8"))
    out = {}
    for key, entry in data.items():
        game, _, variant = key.partition("/")
        out[key] = Protocol(
            game,
            variant,
            entry["version"],
            entry["players"],
            entry["seed"],
            tuple(Block(b["bot"], b["games"]) for b in entry["opponents"]),
            variant_options(game, variant),
        )
    return out


def protocol(game: str, variant: str | None = None) -> Protocol:
    """The protocol of ``game`` (and ``variant``); one sentence if there is none."""
    known = protocols()
    key = f"{game}/{variant}" if variant else game
    if key not in known:
        raise BadOption(f"no evaluation protocol for {key!r} (known: {', '.join(known)})")
    return known[key]


# ------------------------------------------------------------------ the policy under test

SeatMaker = Callable[[str, int], Agent]  # (player, seed) -> the agent in that seat


def _untimed(game: str, name: str) -> SeatMaker | None:
    """``ismcts`` with its iterations only: a time cap would let a busy machine's games differ."""
    if (game, name) != ("critters", "ismcts"):
        return None
    from bestiary.bots.critters_search import ISMCTS_ITERATIONS, IsmctsBot
    from bestiary.search.ismcts import Budget

    budget = Budget(iterations=ISMCTS_ITERATIONS, millis=None)
    return lambda player, seed: IsmctsBot(player, random.Random(seed), budget=budget)


def bot_seat(game: str, name: str) -> SeatMaker:
    """A registered bot by name, as the protocol seats it."""
    fixed = _untimed(game, name)
    if fixed is not None:
        return fixed
    return lambda player, seed: make_bot(game, name, player, seed)


def _sizes(proto: Protocol) -> tuple[int, int]:
    """The observation's and the action ids' sizes of the protocol's table."""
    rules = get_game(proto.game)
    players = [f"p{s + 1}" for s in range(proto.players)]
    state = rules.new_game(players, dict(proto.options), seed=0)
    enc = encoding_from_view(proto.game, state.view(players[0]))
    return int(enc.obs_size), int(enc.size)


def _check_sizes(policy: Any, proto: Protocol, source: str) -> None:
    """Refuse, in one sentence, a checkpoint trained on another table's observations or ids."""
    space = getattr(policy, "observation_space", None)
    obs = getattr(space, "spaces", {}).get("observation") if space is not None else None
    trained_obs = obs.shape[0] if obs is not None else getattr(policy, "high", None)
    if isinstance(trained_obs, list):
        trained_obs = len(trained_obs)
    actions = getattr(getattr(policy, "action_space", None), "n", getattr(policy, "actions", None))
    obs_size, size = _sizes(proto)
    if (trained_obs, actions) != (None, None) and (trained_obs, actions) != (obs_size, size):
        raise BadOption(
            f"{source} was trained on {trained_obs} observation entries and {actions} action "
            f"ids, but {proto.key} with {proto.players} players has {obs_size} and {size}"
        )


def _load_sb3(path: Path) -> Any:
    try:
        with zipfile.ZipFile(path) as saved:
            data = json.loads(saved.read("data"))
    except (zipfile.BadZipFile, KeyError, ValueError):
        raise BadOption(f"{path} is not a Stable-Baselines3 checkpoint (.zip)") from None
    module = str(data.get("policy_class", {}).get("__module__", ""))
    try:
        if "maskable" in module:
            from sb3_contrib import MaskablePPO

            return MaskablePPO.load(path, device="cpu")
        import stable_baselines3 as sb3

        for algorithm in (sb3.PPO, sb3.A2C, sb3.DQN):
            try:
                return algorithm.load(path, device="cpu")
            except (KeyError, ValueError, TypeError, RuntimeError, AssertionError):
                continue
    except ImportError:
        raise BadOption(f"{path} needs Stable-Baselines3 (pip install 'bestiary[learn]')") from None
    raise BadOption(f"{path} is an SB3 checkpoint of none of MaskablePPO, PPO, A2C and DQN")


def _load_torch(path: Path) -> Any:
    try:
        import torch
    except ImportError:
        raise BadOption(f"{path} needs torch (pip install 'bestiary[learn]')") from None
    try:
        with warnings.catch_warnings():  # torch 2.13 calls TorchScript deprecated; it loads
            warnings.simplefilter("ignore", DeprecationWarning)
            return torch.jit.load(str(path), map_location="cpu")  # type: ignore[no-untyped-call]
    except RuntimeError:
        pass
    from bestiary.adapters.baselines import QNet

    try:
        return QNet.load(path)
    except Exception:  # a torch file of any other kind: one sentence below
        raise BadOption(
            f"{path} is neither a TorchScript module nor a reference DQN checkpoint"
        ) from None


def _is_factory(thing: Any) -> bool:
    """A bot factory ``(player, rng) -> Agent`` takes two arguments; a policy takes one."""
    try:
        return len(inspect.signature(thing).parameters) == 2
    except (TypeError, ValueError):
        return False


@dataclass(frozen=True)
class Contender:
    """The policy under test: its name, what it is, and how it takes a seat."""

    name: str
    kind: str  # bot, callable, sb3, torchscript, dqn, factory
    seat: SeatMaker


def contender(spec: str, proto: Protocol) -> Contender:
    """POLICY (module docstring) for ``proto``'s table; one sentence if it is none of them."""
    game = proto.game
    path = Path(spec)
    if path.suffix in (".zip", ".pt", ".pth", ".ts"):
        if not path.is_file():
            raise BadOption(f"no checkpoint file at {spec}")
        policy = _load_sb3(path) if path.suffix == ".zip" else _load_torch(path)
        _check_sizes(policy, proto, spec)
        kind = (
            "sb3"
            if path.suffix == ".zip"
            else ("dqn" if hasattr(policy, "high") else "torchscript")
        )
        return Contender(spec, kind, lambda player, seed: policy_agent(policy, game, player))
    if ":" in spec:
        try:
            thing = resolve(spec)
        except (ImportError, AttributeError, ValueError) as err:
            raise BadOption(f"cannot load {spec}: {err}") from None
        if _is_factory(thing):
            return Contender(spec, "factory", lambda p, seed: thing(p, random.Random(seed)))
        if as_policy(thing) is None:
            raise BadOption(f"{spec} is neither a policy nor a bot factory")
        _check_sizes(thing, proto, spec)
        return Contender(spec, "callable", lambda player, seed: policy_agent(thing, game, player))
    names = [e.name for e in bot_entries(game)]
    if spec in names:
        return Contender(spec, "bot", bot_seat(game, spec))
    raise BadOption(
        f"{spec!r} is no {game} bot ({', '.join(names)}), module:NAME, SB3 .zip or "
        "TorchScript .pt file"
    )


# ------------------------------------------------------------------ scoring


@dataclass
class Tally(WinShare):
    """Games of one seat: its win share (a shared win counts 1/k), sole and shared wins."""

    against: str = ""
    games: int = 0
    wins: float = 0.0
    won: int = 0
    shared: int = 0

    def add(self, share: float, winners: int) -> None:
        self.games += 1
        self.wins += share
        self.won += share > 0 and winners == 1
        self.shared += share > 0 and winners > 1

    def as_json(self) -> dict[str, Any]:
        low, high = self.interval
        return {
            "against": self.against,
            "games": self.games,
            "share": round(self.rate, 6),
            "low": round(low, 6),
            "high": round(high, 6),
            "won": self.won,
            "shared": self.shared,
            "lost": self.games - self.won - self.shared,
        }

    def cell(self) -> str:
        low, high = self.interval
        return f"{self.rate:.3f} [{low:.3f}, {high:.3f}]"


def play_seat(
    game: str,
    players: int,
    seat: SeatMaker,
    against: SeatMaker,
    games: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    progress: Progress | None = None,
    name: str = "",
) -> Tally:
    """``games`` sim games of ``seat`` against ``against`` in every other seat: game g seeded
    ``seed + g``, ``seat`` in seat g % players."""
    tally = Tally(against=name)
    for g in range(games):
        learner = g % players
        bots = tuple("seat" if s == learner else "other" for s in range(players))

        def maker(game_name: str, role: str, player: str, bot_seed: int) -> Agent:
            return (seat if role == "seat" else against)(player, bot_seed)

        spec = GameSpec(g, game, bots, seed=seed + g, options=dict(options or {}))
        result = play_game(spec, bot_maker=maker)
        tally.add(result.win_share(learner), len(result.winners))
        if progress is not None:
            progress(1)
    return tally


@dataclass
class Evaluation:
    """A policy's scores on one protocol."""

    policy: str
    kind: str
    protocol: Protocol
    scores: list[Tally]

    @property
    def score(self) -> float:
        """The mean of the per-opponent win shares (the headline number)."""
        return sum(s.rate for s in self.scores) / len(self.scores)

    def as_json(self) -> dict[str, Any]:
        return {
            "policy": self.policy,
            "kind": self.kind,
            "protocol": self.protocol.as_json(),
            "score": round(self.score, 6),
            "scores": [s.as_json() for s in self.scores],
        }

    def lines(self) -> list[str]:
        proto = self.protocol
        out = [f"{self.policy} on protocol {proto.version} ({proto.players} players):"]
        for s in self.scores:
            out.append(
                f"  vs {s.against:<8} {s.cell()}  n={s.games}  "
                f"(won {s.won}, shared {s.shared}, lost {s.games - s.won - s.shared})"
            )
        out.append(f"  score (mean win share): {self.score:.3f}")
        return out


def evaluate(
    policy: str | Contender,
    game: str,
    variant: str | None = None,
    progress: Progress | None = None,
) -> Evaluation:
    """Score ``policy`` (POLICY as in the module docstring, or a ``Contender``) on the
    protocol of ``game`` / ``variant``."""
    proto = protocol(game, variant)
    who = policy if isinstance(policy, Contender) else contender(policy, proto)
    scores = [
        play_seat(
            proto.game,
            proto.players,
            who.seat,
            bot_seat(proto.game, block.bot),
            block.games,
            proto.seed,
            proto.options,
            progress,
            block.bot,
        )
        for block in proto.opponents
    ]
    return Evaluation(who.name, who.kind, proto, scores)
