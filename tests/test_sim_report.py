"""The HTML report renders, is self-contained and holds its plots, warnings and paired tables."""

from __future__ import annotations

import base64
import re

from bestiary import lab
from bestiary.sim.report import render_experiment

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _images(page: str) -> list[bytes]:
    return [base64.b64decode(m) for m in re.findall(r'src="data:image/png;base64,([^"]+)"', page)]


def test_report_embeds_every_plot_as_png() -> None:
    run = lab.experiment("wild", ["reader", "honest"], players=2, games=8, seed=1)
    page = render_experiment(run, command="bestiary sim wild")
    images = _images(page)
    # win rate per bot, per seat, convergence, scores, game length
    assert len(images) == 5
    assert all(image.startswith(PNG_MAGIC) for image in images)
    for heading in ("Win rate per bot", "Win rate per seat", "Convergence", "Scores per bot"):
        assert heading in page
    assert "Nightfall ended" in page and "time per game" in page and "chi-square" in page
    assert "<code>bestiary sim wild</code>" in page
    assert "http" not in page.replace('lang="en"', "")  # nothing fetched from elsewhere


def test_a_comparison_and_a_sweep_add_paired_tables_and_plots() -> None:
    run = lab.experiment(
        "wild",
        ["reader", "honest"],
        players=2,
        games=8,
        seed=1,
        compare={"mating_bonus": True},
        sweep={"players": [3]},
    )
    page = render_experiment(run)
    assert "Paired: compare (mating_bonus=true) minus base" in page
    assert "Sweep players" in page
    # + paired differences, a convergence and a score plot for the second arm, the sweep
    assert len(_images(page)) == 9


def test_a_stalled_run_carries_its_warning() -> None:
    run = lab.experiment(
        "wild", ["reader", "random"], players=2, games=20, seed=1, options={"nightfall_seconds": 2}
    )
    assert "class='warn'" in render_experiment(run)
