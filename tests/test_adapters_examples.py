"""Each example script runs to the end and prints its result (briefly: a fraction of a second)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
ARGS = {
    "openspiel_critters_ismcts.py": ["--seconds", "0.3", "--simulations", "5"],
    "openspiel_tiny_cfr.py": ["--iterations", "1", "--solver", "cfr+"],
}


@pytest.mark.parametrize(
    ("script", "needs", "expected"),
    [
        ("pettingzoo_critters_reinforce.py", "pettingzoo", "win rate against random play"),
        ("gymnasium_wild_random_search.py", "gymnasium", "mean final score on new deals"),
        ("openspiel_critters_ismcts.py", "pyspiel", "wins in"),
        ("openspiel_tiny_cfr.py", "pyspiel", "cfr+ iteration 1: NashConv"),
    ],
)
def test_example_prints_its_result(script: str, needs: str, expected: str) -> None:
    pytest.importorskip(needs)
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / script), *ARGS.get(script, ["--seconds", "0.3"])],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert expected in done.stdout
