"""The HTML report renders, is self-contained and holds its plots."""

from __future__ import annotations

import base64
import re

import pytest

from bestiary.sim.parallel import run_games
from bestiary.sim.report import render_report
from bestiary.sim.seating import sim_specs
from bestiary.sim.summary import Summary, summarize

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _summary(options: dict[str, object]) -> Summary:
    specs = sim_specs("wild", ["reader", "honest"], 2, 8, seed=1, options=options)
    return summarize("wild", 2, run_games(specs, jobs=1))


def _images(page: str) -> list[bytes]:
    return [base64.b64decode(m) for m in re.findall(r'src="data:image/png;base64,([^"]+)"', page)]


def test_report_embeds_every_plot_as_png() -> None:
    page = render_report([("base", _summary({}))], command="bestiary sim wild")
    images = _images(page)
    # win rate per bot, per seat, scores, game length
    assert len(images) == 4
    assert all(image.startswith(PNG_MAGIC) for image in images)
    for heading in ("Win rate per bot", "Win rate per seat", "Scores per bot", "Game length"):
        assert heading in page
    assert "<code>bestiary sim wild</code>" in page
    assert "http" not in page.replace('lang="en"', "")  # nothing fetched from elsewhere


def test_comparison_adds_a_side_by_side_table() -> None:
    page = render_report([("base", _summary({})), ("bonus", _summary({"mating_bonus": True}))])
    assert "Side by side" in page
    assert len(_images(page)) == 5  # one score histogram per run
    assert page.count("<tr><td>reader</td>") == 1


def test_report_needs_a_run() -> None:
    with pytest.raises(ValueError):
        render_report([])
