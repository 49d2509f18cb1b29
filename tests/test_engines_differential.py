"""Old engine against new: thousands of seeded random games give the digests recorded from the
engines at d71b31d (tests/records/differential.json, made by scripts/differential_fixtures.py
from that commit's source). A digest covers every legal-action list in order, every seat's view
every few steps, the record and the winners, so a rewrite of the rules that changes any of them
(or their order, which seeded bots and recorded trajectories depend on) fails here, pure or
compiled (run with the compiled core first on the path)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.differential import GAMES

RECORDED = json.loads((Path(__file__).parent / "records" / "differential.json").read_text())
CHUNK = 500


@pytest.mark.parametrize(
    ("game", "start"),
    [(game, start) for game in GAMES for start in range(0, len(RECORDED[game]), CHUNK)],
)
def test_seeded_games_match_the_recorded_engine(game: str, start: int) -> None:
    expected = RECORDED[game][start : start + CHUNK]
    got = [GAMES[game](seed) for seed in range(start, start + len(expected))]
    differ = [start + i for i, (a, b) in enumerate(zip(expected, got, strict=True)) if a != b]
    assert not differ, f"{game} seeds that differ from the recorded engine: {differ[:10]}"
