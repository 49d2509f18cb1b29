"""The Ray backend gives the same results as local processes (skipped without Ray)."""

from __future__ import annotations

import pytest

from bestiary.sim.parallel import run_games
from bestiary.sim.seating import sim_specs

ray = pytest.importorskip("ray")


def test_ray_backend_matches_local_processes() -> None:
    specs = sim_specs("wild", ["reader", "hunter"], 2, 6, seed=11, keep_record=True)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        remote = list(run_games(specs, backend="ray"))
    finally:
        ray.shutdown()
    assert remote == list(run_games(specs, jobs=1))
