"""A small league baseline: MaskablePPO against a pool of the scripted bots and frozen copies
of itself, on the vector env through SB3 (``sb3_vector.Sb3VecEnv``), one core.

Each generation trains ``steps`` learner steps; game i of the vector env plays pool member
i mod len(pool) (``env_method("set_opponents", ...)``, from its next reset). The pool starts
as the setting's anchors (``random`` and the best cheap scripted bot) and gains a
``policies.snapshot`` of the learner after every generation (the latest ``keep`` kept).
``python -m bestiary.adapters.league KEY`` trains one setting, saves
``checkpoints/KEY_league.zip`` (optimizer state left out) and adds it to ``MANIFEST.json``;
``bestiary evaluate`` scores it on the protocol (docs/leaderboard.md).
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import torch

from bestiary.adapters.evaluate import CHECKPOINTS
from bestiary.adapters.policies import snapshot
from bestiary.adapters.release import _compact
from bestiary.adapters.sb3_vector import Sb3VecEnv
from bestiary.adapters.vector import make_vector
from bestiary.wild.info import VARIANTS as WILD_VARIANTS

Echo = Callable[[str], None]


@dataclass(frozen=True)
class League:
    """One league setting: the table, the anchors of the pool, the budget."""

    key: str  # the protocol's key, ``/`` as ``-``
    game: str
    players: int
    anchors: tuple[str, ...]
    generations: int = 4
    steps: int = 24_576  # learner steps per generation: 12 rollouts of 256 steps x 8 games
    games: int = 8  # games in the vector env
    keep: int = 3  # snapshots kept in the pool
    options: Mapping[str, Any] = field(default_factory=dict)


LEAGUES = {
    "critters": League("critters", "critters", 2, ("random", "greedy")),
    # 12 generations: at 4 (98,304 steps) it only drew with reader (docs/rl.md).
    "wild-small": League(
        "wild-small",
        "wild",
        2,
        ("random", "reader"),
        generations=12,
        options=WILD_VARIANTS["small"],
    ),
}


def train_league(league: League, seed: int = 1, echo: Echo = print) -> Any:
    """MaskablePPO trained in the league (module docstring); returns the model."""
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)
    envs = Sb3VecEnv(
        make_vector(
            league.game,
            league.games,
            players=league.players,
            opponents=league.anchors[0],
            options=league.options,
        )
    )
    envs.seed(seed)
    model = MaskablePPO(
        "MultiInputPolicy", envs, n_steps=256, batch_size=256, seed=seed, verbose=0, device="cpu"
    )
    pool: list[Any] = list(league.anchors)
    snapshots: list[Any] = []
    for generation in range(league.generations):
        for i in range(league.games):
            envs.env_method("set_opponents", pool[i % len(pool)], indices=[i])
        model.learn(league.steps, reset_num_timesteps=False)
        snapshots = [*snapshots, snapshot(model)][-league.keep :]
        pool = [*league.anchors, *snapshots]
        echo(f"{league.key}: generation {generation + 1}, {model.num_timesteps} steps")
    return model


def main(keys: list[str]) -> None:
    manifest_path = CHECKPOINTS / "MANIFEST.json"
    for key in keys or list(LEAGUES):
        league = LEAGUES[key]
        start = time.process_time()
        model = train_league(league)
        seconds = time.process_time() - start
        _compact(model)
        path = CHECKPOINTS / f"{key}_league.zip"
        model.save(path)
        data = path.read_bytes()
        entry = {
            "file": path.name,
            "setting": key,
            "agent": "league (MaskablePPO)",
            "steps": model.num_timesteps,
            "seed": 1,
            "trained_against": "pool: "
            + ", ".join(league.anchors)
            + f" and its last {league.keep} snapshots",
            "cpu_seconds": round(seconds, 1),
            "bytes": len(data),
            "sha256": hashlib.sha256(data).hexdigest(),
            "torch": torch.__version__,
        }
        manifest = (
            json.loads(manifest_path.read_text(encoding="utf-8")) if manifest_path.exists() else {}
        )
        manifest[path.name] = entry
        manifest_path.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
        print(json.dumps(entry), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
