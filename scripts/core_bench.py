"""The compiled core against the pure one, in CPU time (the machine is shared: wall time is not).

Runs on whichever bestiary is first on the path, and prints one JSON line:

    PYTHONPATH=src python scripts/core_bench.py engines         # the pure source tree
    PYTHONPATH=build/core python scripts/core_bench.py engines  # the compiled core (make core)
    PYTHONPATH=/tmp/old/src python scripts/core_bench.py research  # an older commit (git archive)
    python scripts/core_bench.py engines 0.01   # a hundredth of the work (a smoke run)

``engines``: CPU µs per step of ``bestiary bench``'s loop (random legal games, dealing and legal
actions included) and of OpenSpiel's C++ hearts in the loop of ``bench --peers``.
``research``: learner steps per CPU-second of ``SyncVectorEnv`` over the single env and of the
vector env (16 games, ``bench --adapters``' loop), and ISMCTS playouts per CPU-second
(``bench --sim``'s: 200 per move from 10 early critters positions). Alternate the compared runs
(docs/benchmarks.md).
"""

from __future__ import annotations

import json
import random
import sys
import time
from typing import Any


def engines(scale: float = 1.0) -> dict[str, Any]:
    from bestiary.bench import bench_engine

    out: dict[str, Any] = {}
    for game, players, games in (("critters", 2, 1500), ("critters", 4, 1000), ("wild", 4, 1500)):
        start = time.process_time()
        steps = bench_engine(game, players, max(1, round(games * scale)), 1).steps
        out[f"{game} {players}p us/step"] = 1e6 * (time.process_time() - start) / steps
    import pyspiel

    from bestiary.adapters.speed import _spiel_episode

    hearts, rng, steps = pyspiel.load_game("hearts"), random.Random(1), 0
    start = time.process_time()
    while time.process_time() - start < 3.0 * scale:
        steps += _spiel_episode(hearts, rng)
    out["hearts us/step"] = 1e6 * (time.process_time() - start) / steps
    return out


def research(scale: float = 1.0) -> dict[str, Any]:
    from bestiary.adapters.speed import bench_vector
    from bestiary.sim.speed import bench_ismcts

    out: dict[str, Any] = {}
    for game, players in (("critters", 2), ("wild", 4)):
        sync, ours = bench_vector(game, players, seconds=3.0 * scale, seed=1)
        out[f"{game} SyncVectorEnv steps/cpu-s"] = sync.steps / sync.cpu_seconds
        out[f"{game} vector env steps/cpu-s"] = ours.steps / ours.cpu_seconds
    start = time.process_time()
    searched = bench_ismcts(2, max(1, round(200 * scale)), 10, 1)
    out["ismcts playouts/cpu-s"] = searched.count / (time.process_time() - start)
    return out


if __name__ == "__main__":
    import bestiary

    try:
        from bestiary.build import core_build

        core = core_build().line()
    except ImportError:  # a commit from before the compiled core
        core = "core pure Python (before the build)"
    scale = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
    measured = {"engines": engines, "research": research}[sys.argv[1]](scale)
    print(json.dumps({"from": bestiary.__file__, "core": core, **measured}))
