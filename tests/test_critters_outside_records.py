"""critters records written from the texts alone (sheet, RULINGS, RECORDS), replayed by the CLI.

Each ``tests/records/critters/NAME.jsonl`` has ``NAME.expected.json``, computed by hand: either the
full ``bestiary replay --json`` object, or ``{"exit": 2, "line": N}`` for a record the engine must
refuse at line N with one sentence on stderr.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bestiary.cli import app

RECORDS = Path(__file__).parent / "records" / "critters"
NAMES = sorted(p.name.removesuffix(".jsonl") for p in RECORDS.glob("*.jsonl"))

# Records where the engine disagrees with what the texts clearly say: none found so far.
KNOWN_DISAGREEMENTS: dict[str, str] = {}


def _param(name: str) -> Any:
    reason = KNOWN_DISAGREEMENTS.get(name)
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(name, id=name, marks=marks)


def test_every_record_has_an_expectation() -> None:
    assert len(NAMES) >= 25
    assert all((RECORDS / f"{name}.expected.json").is_file() for name in NAMES)


@pytest.mark.parametrize("name", [_param(n) for n in NAMES])
def test_outside_record_replays_as_the_texts_say(name: str) -> None:
    expected = json.loads((RECORDS / f"{name}.expected.json").read_text(encoding="utf-8"))
    result = CliRunner().invoke(app, ["replay", str(RECORDS / f"{name}.jsonl"), "--json"])
    if "exit" in expected:
        assert result.exit_code == expected["exit"], result.output
        assert result.stdout == ""
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in result.stderr
        assert f"line {expected['line']}:" in lines[0]
    else:
        assert result.exit_code == 0, result.stderr
        assert json.loads(result.stdout) == expected
