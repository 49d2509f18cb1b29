"""wild records written from the texts alone (rule sheet, docs/rulings.md, docs/records.md),
via the CLI.

Each ``tests/records/wild/NAME.jsonl`` has ``NAME.expected.json``, computed by hand: either the full
``bestiary replay --json`` object or ``{"exit": 2, "line": N}`` for a record the engine must refuse.
The texts fix what is in a hand and in a Den but not the order of either list (docs/records.md gives
``hands`` and ``dens`` as plain lists), so those two are compared as multisets; everything else,
including the Watering Hole in arrival order and the meetings in play order, must match exactly.
"""

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bestiary.cli import app

RECORDS = Path(__file__).parent / "records" / "wild"
NAMES = sorted(p.stem for p in RECORDS.glob("*.jsonl"))


def _key(item: Any) -> str:
    return json.dumps(item, sort_keys=True)


def _unordered(state: dict[str, Any]) -> dict[str, Any]:
    """The state with each hand and each Den sorted, since the texts leave their order open."""
    out = dict(state)
    out["hands"] = {p: sorted(h) for p, h in state["hands"].items()}
    out["dens"] = {p: sorted(d, key=_key) for p, d in state["dens"].items()}
    return out


def test_the_records_are_there() -> None:
    assert len(NAMES) >= 25
    for name in NAMES:
        assert (RECORDS / f"{name}.expected.json").is_file(), name


@pytest.mark.parametrize("name", NAMES)
def test_record_replays_as_the_texts_say(name: str) -> None:
    expected = json.loads((RECORDS / f"{name}.expected.json").read_text())
    result = CliRunner().invoke(app, ["replay", str(RECORDS / f"{name}.jsonl"), "--json"])
    if "exit" in expected:
        assert result.exit_code == expected["exit"], result.output
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1, result.stderr
        assert "Traceback" not in result.stderr
        assert re.search(rf"\bline {expected['line']}\b", lines[0]), lines[0]
        return
    assert result.exit_code == 0, result.stderr
    assert _unordered(json.loads(result.stdout)) == _unordered(expected)
