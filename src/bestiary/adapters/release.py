"""The released checkpoints (package data, ``adapters/checkpoints/``): the reference baselines
trained at a small, stated budget on one core, saved small enough to ship and load on a CPU.

``python -m bestiary.adapters.release`` trains every entry of ``RELEASES`` (seeded: the same
weights every run on the same library versions), saves it as ``KEY_AGENT.zip`` (MaskablePPO,
its optimizer's state left out: nothing to resume, a third of the size) or ``KEY_AGENT.pt``
(the masked DQN), and writes ``MANIFEST.json``: the budget in learner steps, the seed, the
CPU seconds it took, the size and the SHA-256 of each file. Nothing is ever downloaded: the
files ship in the wheel, and ``bestiary evaluate`` scores them on the protocols
(docs/leaderboard.md).
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

from bestiary.adapters.baselines import SETTINGS, train_dqn, train_ppo
from bestiary.adapters.evaluate import CHECKPOINTS


@dataclass(frozen=True)
class Release:
    """One released checkpoint: the protocol key's stem, the agent, the budget, the seed."""

    stem: str  # the baselines' setting, named as the protocol's key (``/`` as ``-``)
    agent: str  # ppo or dqn
    steps: int
    seed: int = 1

    @property
    def path(self) -> Path:
        return CHECKPOINTS / f"{self.stem}_{self.agent}{'.zip' if self.agent == 'ppo' else '.pt'}"


RELEASES = (
    Release("critters", "ppo", 50_000),
    Release("critters", "dqn", 50_000),
    Release("wild-small", "ppo", 60_000),
    Release("wild-small", "dqn", 60_000),
    Release("wild", "dqn", 50_000),
)


def _compact(model: Any) -> None:
    """Drop the optimizer's running state (Adam's moments): the policy plays the same."""
    optimizer = model.policy.optimizer
    model.policy.optimizer = type(optimizer)(model.policy.parameters(), **optimizer.defaults)


def train(release: Release) -> dict[str, Any]:
    """Train and save one release; its manifest entry."""
    torch.set_num_threads(1)
    setting = SETTINGS[release.stem]
    start = time.process_time()
    if release.agent == "ppo":
        model = train_ppo(setting, release.steps, release.seed)
        _compact(model)
    else:
        model = train_dqn(setting, release.steps, release.seed)
    seconds = time.process_time() - start
    release.path.parent.mkdir(parents=True, exist_ok=True)
    model.save(release.path)
    data = release.path.read_bytes()
    return {
        "file": release.path.name,
        "setting": release.stem,
        "agent": release.agent,
        "steps": release.steps,
        "seed": release.seed,
        "trained_against": "random",
        "cpu_seconds": round(seconds, 1),
        "bytes": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
        "torch": torch.__version__,
    }


def main(names: list[str]) -> None:
    manifest_path = CHECKPOINTS / "MANIFEST.json"
    manifest = (
        json.loads(manifest_path.read_text(encoding="utf-8")) if manifest_path.exists() else {}
    )
    for release in RELEASES:
        if names and release.path.name not in names:
            continue
        entry = train(release)
        manifest[entry["file"]] = entry
        print(json.dumps(entry), flush=True)
        manifest_path.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
