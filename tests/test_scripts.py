"""Every script in scripts/ runs (docs/benchmarks.md and CONTRIBUTING.md name them): the quick
ones on a tiny workload, those that need a server, valgrind, PostgreSQL or Chromium as far as
their command line (each is a measurement of minutes, run by hand)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "scripts"

# what a script imports from an optional extra (`make test` installs every extra; `make floors`
# only test and rl, so there these runs are skipped, saying why)
EXTRAS = {"core_bench.py": ["pyspiel", "gymnasium"], "train_exploiter.py": ["torch", "sb3_contrib"]}

# (script, arguments, a line its output must hold)
RUNS = [
    ("ceiling.py", ["--games", "2", "--iterations", "5"], "sees hands, 5 playouts a move"),
    ("core_bench.py", ["engines", "0.01"], '"hearts us/step"'),
    ("core_bench.py", ["research", "0.01"], '"ismcts playouts/cpu-s"'),
    ("differential_fixtures.py", ["2"], '"critters"'),
    ("lineups.py", ["--games", "1", "--players", "2"], "45 line-ups x 1 games, 2 players"),
    ("lobby_listing_bench.py", ["--help"], "counts"),
    ("replay_lobby_bench.py", ["--help"], "--seeds SEEDS"),
    ("wal_bench.py", ["--help"], "--seconds SECONDS"),
    ("search_vs_greedy.py", ["--games", "2", "--iterations", "5"], "n=2"),
    ("person_pace.py", ["--help"], "--think THINK"),
    ("first_game_wins.py", ["--help"], "--think THINK"),
    ("screenshots.py", ["--help"], "--out OUT"),
    ("server_callgrind.py", ["--help"], "sources"),
    ("train_exploiter.py", ["--help"], "--opponent OPPONENT"),
    ("workers_bench.py", ["--help"], "--kills KILLS"),
    ("workers_callgrind.py", ["--help"], "--workers WORKERS"),
]


def run(script: str, args: list[str]) -> subprocess.CompletedProcess[str]:
    # The scripts import scripts.* and tests.* from the repository's root, as their docs say.
    path = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([*path, str(ROOT)])}
    return subprocess.run(
        [sys.executable, str(SCRIPTS / script), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize(("script", "args", "shows"), RUNS, ids=[f"{s} {a[0]}" for s, a, _ in RUNS])
def test_the_script_runs(script: str, args: list[str], shows: str) -> None:
    missing = [name for name in EXTRAS.get(script, []) if importlib.util.find_spec(name) is None]
    if missing:
        pytest.skip(f"{script} needs {', '.join(missing)} (an optional extra not installed here)")
    done = run(script, args)
    assert done.returncode == 0, done.stderr[-2000:]
    assert shows in done.stdout


def test_every_script_has_a_run() -> None:
    # The shared module of the callgrind scripts is run through them.
    assert {p.name for p in SCRIPTS.glob("*.py")} == {s for s, _, _ in RUNS} | {"seeded_tables.py"}
