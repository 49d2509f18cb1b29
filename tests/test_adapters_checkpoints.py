"""The released checkpoints (package data): each small, listed with its budget and hash in the
manifest, loaded on a CPU from the package (nothing downloaded) and seated on its protocol."""

from __future__ import annotations

import hashlib
import json

import pytest

pytest.importorskip("sb3_contrib")

from bestiary.adapters import evaluate as ev
from bestiary.adapters.leaderboard import checkpoints

MANIFEST = json.loads((ev.CHECKPOINTS / "MANIFEST.json").read_text(encoding="utf-8"))
RELEASED = sorted(p for p in ev.CHECKPOINTS.iterdir() if p.suffix in (".zip", ".pt"))


def test_every_released_file_is_in_the_manifest_with_its_budget_and_hash() -> None:
    assert sorted(MANIFEST) == [p.name for p in RELEASED]
    assert len(RELEASED) >= 5
    for path in RELEASED:
        entry = MANIFEST[path.name]
        data = path.read_bytes()
        assert len(data) == entry["bytes"] < 1_000_000
        assert hashlib.sha256(data).hexdigest() == entry["sha256"]
        assert entry["steps"] > 0 and entry["cpu_seconds"] > 0


@pytest.mark.parametrize("path", RELEASED, ids=[p.name for p in RELEASED])
def test_a_released_checkpoint_takes_a_seat_on_its_protocol(path: object) -> None:
    import torch

    torch.set_num_threads(1)
    proto = next(p for p in ev.protocols().values() if path in checkpoints(p))
    who = ev.contender(str(path), proto)
    assert who.kind in ("sb3", "dqn")
    opponent = ev.bot_seat(proto.game, proto.opponents[0].bot)
    tally = ev.play_seat(
        proto.game, proto.players, who.seat, opponent, 2, proto.seed, proto.options
    )
    assert tally.games == 2
