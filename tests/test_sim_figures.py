"""The report's figures do not mislead: read back from the figures' own data."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import matplotlib
import numpy as np
import pytest
from matplotlib.colors import to_hex
from matplotlib.container import BarContainer, ErrorbarContainer
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from typer.testing import CliRunner

from bestiary import lab
from bestiary.cli import app
from bestiary.sim.experiment import Experiment
from bestiary.sim.plots import BOT_COLOURS, data_range, sweep_figure
from bestiary.sim.report import colours_of, render_experiment, report_figures


def _xs(line: Line2D | None) -> list[float]:
    assert line is not None
    return [float(x) for x in np.asarray(line.get_xdata(), dtype=float)]


def _ys(line: Line2D | None) -> list[float]:
    assert line is not None
    return [float(y) for y in np.asarray(line.get_ydata(), dtype=float)]


@pytest.fixture(scope="module")
def hand_limit() -> Experiment:
    # hand_limit's declared default is "none": the rules make it 5 at two players.
    return lab.experiment(
        "critters", ["greedy"], players=2, games=30, seed=1, sweep={"hand_limit": [4, 6]}
    )


@pytest.fixture(scope="module")
def mixed() -> Experiment:
    return lab.experiment(
        "wild",
        ["reader", "honest", "hunter", "trickster"],
        players=4,
        games=16,
        seed=1,
        compare={"mating_bonus": True},
        sweep={"bots": [("trickster", "reader", "honest", "hunter")]},
    )


def test_the_sweep_baseline_sits_at_the_value_the_rules_used(hand_limit: Experiment) -> None:
    sweep = hand_limit.sweeps[0]
    assert sweep.baseline == "5" and sweep.default
    assert [p.value for p in sweep.points] == ["4", "5", "6"]
    assert [p.paired is None for p in sweep.points] == [False, True, False]
    figure = sweep_figure(sweep, colours_of(hand_limit))
    seats = figure.axes[0]  # greedy fills every seat: the first panel is the seats'
    assert seats.get_ylabel() == "win rate per seat"
    points = [c for c in seats.containers if isinstance(c, ErrorbarContainer)]
    xs = _xs(points[0].lines[0])
    assert xs == sorted(xs) and xs[1] - xs[0] == pytest.approx(1.0)
    assert xs[1] == pytest.approx(5.0, abs=0.2)
    # The baseline is marked: a dotted line at 5 on every panel, and in its tick label.
    for axes in figure.axes:
        marks = [ln for ln in axes.lines if ln.get_linestyle() == ":"]
        assert [_xs(m)[0] for m in marks] == [5.0]
    labels = [t.get_text() for t in figure.axes[-1].get_xticklabels()]
    assert labels == ["4", "5\n(baseline, default)", "6"]
    assert [t.get_position()[0] for t in figure.axes[-1].get_xticklabels()] == [4.0, 5.0, 6.0]


def test_every_value_axis_starts_at_zero_and_length_is_counted_in_moves(
    hand_limit: Experiment,
) -> None:
    figure = sweep_figure(hand_limit.sweeps[0], colours_of(hand_limit))
    assert all(axes.get_ylim()[0] == 0.0 for axes in figure.axes)
    length = figure.axes[-1]
    assert "moves" in length.get_ylabel()
    line = next(c for c in length.containers if isinstance(c, ErrorbarContainer)).lines[0]
    means = [sum(p.played.summary.lengths) / 30 for p in hand_limit.sweeps[0].points]
    assert _ys(line) == pytest.approx(means)


def test_a_real_time_sweep_counts_length_in_actions_not_ticks() -> None:
    run = lab.experiment(
        "wild",
        ["reader", "random"],
        players=2,
        games=6,
        seed=1,
        sweep={"nightfall_seconds": [30]},
    )
    figure = sweep_figure(run.sweeps[0], colours_of(run))
    length = figure.axes[-1]
    assert "actions" in length.get_ylabel()
    line = next(c for c in length.containers if isinstance(c, ErrorbarContainer)).lines[0]
    means = [sum(p.played.summary.lengths) / 6 for p in run.sweeps[0].points]
    assert _ys(line) == pytest.approx(means)
    game_length = dict(report_figures(run))["Game length"]
    assert isinstance(game_length, Figure)
    assert game_length.axes[0].get_xlabel() == "length (actions)"


def _bot_colours(figures: list[Figure], bots: set[str]) -> dict[str, set[str]]:
    """Every colour each bot is drawn in, over every artist that names it."""
    seen: dict[str, set[str]] = defaultdict(set)
    for figure in figures:
        for axes in figure.axes:
            for patch in axes.patches:
                if patch.get_gid() in bots:
                    seen[str(patch.get_gid())].add(to_hex(patch.get_facecolor()))
            for line in axes.lines:
                if line.get_label() in bots:
                    seen[str(line.get_label())].add(to_hex(str(line.get_color())))
            for container in axes.containers:
                label = container.get_label()
                if isinstance(container, BarContainer) and label in bots:
                    seen[label] |= {to_hex(p.get_facecolor()) for p in container.patches}
                data = container.lines[0] if isinstance(container, ErrorbarContainer) else None
                if data is not None and (label in bots or data.get_gid() in bots):
                    name = label if label in bots else str(data.get_gid())
                    seen[name].add(to_hex(data.get_color()))
    return seen


def test_a_bot_keeps_one_colour_in_every_figure_of_a_report(mixed: Experiment) -> None:
    figures = [f for _, f in report_figures(mixed) if isinstance(f, Figure)]
    bots = {"reader", "honest", "hunter", "trickster"}
    seen = _bot_colours(figures, bots)
    assert set(seen) == bots
    assert all(len(colours) == 1 for colours in seen.values()), seen
    assert len({next(iter(c)) for c in seen.values()}) == 4  # and no two bots share one
    # The baseline names the order: reader first, in the palette's first colour.
    assert seen["reader"] == {BOT_COLOURS[0].lower()}
    # Seats and arms are never drawn in a bot's colour.
    bot_colours = {c.lower() for c in BOT_COLOURS}
    seat_figure = dict(report_figures(mixed))["Win rate per seat"]
    assert isinstance(seat_figure, Figure)
    assert not {to_hex(p.get_facecolor()) for p in seat_figure.axes[0].patches} & bot_colours


def test_a_bot_in_every_seat_is_left_out_of_win_rate_plots_and_said(
    hand_limit: Experiment,
) -> None:
    figures = dict(report_figures(hand_limit))
    assert isinstance(figures["Win rate per bot"], str)
    assert "greedy fills every seat" in str(figures["Win rate per bot"])
    assert "by construction" in str(figures["Convergence (base)"])
    sweep = figures["Sweep hand_limit"]
    assert isinstance(sweep, Figure)
    assert "win rate per bot" not in [a.get_ylabel() for a in sweep.axes]
    assert any("greedy fills every seat" in t.get_text() for t in sweep.texts)
    page = render_experiment(hand_limit)
    assert "greedy fills every seat" in page


def test_the_paired_plot_says_which_arm_is_subtracted_from_which(mixed: Experiment) -> None:
    figure = dict(report_figures(mixed))["Paired differences"]
    assert isinstance(figure, Figure)
    assert "compare (mating_bonus=true) minus base" in figure.axes[0].get_xlabel()
    assert "Holm" in " ".join(t.get_text() for t in figure.texts)


def test_the_terminals_warnings_are_on_the_images_they_concern() -> None:
    run = lab.experiment(
        "wild",
        ["reader", "random"],
        players=2,
        games=10,
        seed=1,
        options={"nightfall_seconds": 2},
    )
    warnings = run.base.summary.warnings()
    assert warnings
    for name, figure in report_figures(run):
        assert isinstance(figure, Figure), name
        text = " ".join(t.get_text() for t in figure.texts).replace("\n", " ")
        assert "ended in a stall" in text, name


def test_a_report_leaves_the_callers_backend_alone(hand_limit: Experiment) -> None:
    before = matplotlib.get_backend()
    matplotlib.use("svg")
    try:
        render_experiment(hand_limit)
        assert matplotlib.get_backend() == "svg"
    finally:
        matplotlib.use(before)


def test_the_grid_draws_one_heat_map_per_bot_with_the_cells_values() -> None:
    run = lab.experiment(
        "critters",
        ["greedy", "random"],
        players=2,
        games=12,
        seed=1,
        grid={"set_size": [3, 4], "hand_limit": [4, 5]},
    )
    grid = run.grid
    assert grid is not None and grid.baseline == ("3", "5")
    figure = dict(report_figures(run))["Grid set_size x hand_limit"]
    assert isinstance(figure, Figure)
    greedy = next(a for a in figure.axes if a.get_title() == "win rate: greedy")
    data = greedy.images[0].get_array()
    assert data is not None
    for i, a in enumerate(grid.values[0]):
        for j, b in enumerate(grid.values[1]):
            assert data[i, j] == pytest.approx(
                grid.cells[(a, b)].played.summary.by_bot["greedy"].rate
            )


def test_a_sweep_of_deck_files_draws_bars_not_lines() -> None:
    """Deck files have no order: bars side by side, none joined to the next, labels unbroken."""
    run = lab.experiment(
        "critters",
        ["greedy", "random"],
        players=2,
        games=8,
        seed=1,
        sweep={"deck": ["examples/decks/sneaky.toml", "examples/decks/windfall.toml"]},
    )
    sweep = run.sweeps[0]
    assert sweep.numeric() is None
    figure = sweep_figure(sweep, colours_of(run))
    for axes in figure.axes:
        joined = [c for c in axes.containers if isinstance(c, ErrorbarContainer) and c.lines[0]]
        assert not joined  # a bar's interval has no data line joining it to the next
        assert not [ln for ln in axes.lines if ln.get_linestyle() == ":"]
    bots = figure.axes[0]
    bars = {c.get_label(): c for c in bots.containers if isinstance(c, BarContainer)}
    assert set(bars) == {"greedy", "random"}
    heights = [p.get_height() for p in bars["greedy"].patches]
    assert heights == pytest.approx([p.played.summary.by_bot["greedy"].rate for p in sweep.points])
    labels = [t.get_text().replace("\n", "") for t in figure.axes[-1].get_xticklabels()]
    assert labels[1:] == ["examples/decks/sneaky.toml", "examples/decks/windfall.toml"]


def test_a_heat_map_is_scaled_to_its_values_and_prints_them() -> None:
    run = lab.experiment(
        "critters",
        ["greedy", "random"],
        players=2,
        games=10,
        seed=2,
        grid={"set_size": [3, 4], "hand_limit": [4, 5]},
    )
    figure = dict(report_figures(run))["Grid set_size x hand_limit"]
    assert isinstance(figure, Figure)
    for axes in figure.axes:
        if not axes.images:
            continue  # a colour bar
        image = axes.images[0]
        values = np.asarray(image.get_array(), dtype=float)
        low, high = data_range(list(values.ravel()))
        assert (image.norm.vmin, image.norm.vmax) == pytest.approx((low, high))
        if np.nanmax(values) > np.nanmin(values):
            assert (low, high) == (np.nanmin(values), np.nanmax(values))
        printed = sorted(float(t.get_text()) for t in axes.texts)
        assert printed == pytest.approx(sorted(values.ravel()), abs=0.051)
    words = " ".join(t.get_text() for t in figure.texts)
    assert "not from 0 to 1" in words


def test_arms_write_their_records_to_flat_folders(tmp_path: Path) -> None:
    code = (
        CliRunner()
        .invoke(
            app,
            [
                "sim",
                "critters",
                "--players",
                "2",
                "--bots",
                "greedy",
                "--games",
                "2",
                "--jobs",
                "1",
                "--sweep",
                "deck=examples/decks/sneaky.toml",
                "--out",
                str(tmp_path),
            ],
        )
        .exit_code
    )
    assert code == 0
    folders = sorted(p.name for p in tmp_path.iterdir())
    assert folders == ["base", "deck=examples_decks_sneaky.toml"]
    assert all(len(list((tmp_path / f).glob("game-*.jsonl"))) == 2 for f in folders)
