"""``--report``: one self-contained HTML page with the run's plots (PNG, base64-embedded)."""

from __future__ import annotations

import base64
import html
import io
import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

from bestiary.sim.summary import RateRow, Summary, length_unit


def _figure(width: float = 6.4, height: float = 3.6) -> tuple[Figure, Axes]:
    import matplotlib

    matplotlib.use("Agg")  # no display: the report is made in files, in any process
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height), dpi=100)
    axes = figure.add_subplot()
    return figure, axes


def _png(figure: Figure) -> str:
    buffer = io.BytesIO()
    figure.tight_layout()
    figure.savefig(buffer, format="png")
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def _rates(axes: Axes, rows: Sequence[RateRow], offset: float, width: float, label: str) -> None:
    xs = [i + offset for i in range(len(rows))]
    rates = [row.rate for row in rows]
    low = [row.rate - row.interval[0] for row in rows]
    high = [row.interval[1] - row.rate for row in rows]
    axes.bar(xs, rates, width=width, yerr=[low, high], capsize=4, label=label)


def rate_plot(title: str, groups: Sequence[tuple[str, Sequence[RateRow]]]) -> str:
    """Win rate with 95% Wilson intervals, one bar per row, one colour per group."""
    figure, axes = _figure()
    labels = [row.label for row in groups[0][1]]
    width = 0.8 / len(groups)
    for g, (name, rows) in enumerate(groups):
        by_label = {row.label: row for row in rows}
        ordered = [by_label.get(label, RateRow(label)) for label in labels]
        _rates(axes, ordered, (g - (len(groups) - 1) / 2) * width, width, name)
    axes.set_xticks(range(len(labels)), labels)
    axes.set_ylabel("win rate (95% Wilson interval)")
    axes.set_title(title)
    axes.set_ylim(0, 1)
    if len(groups) > 1:
        axes.legend()
    return _png(figure)


def histogram(title: str, xlabel: str, series: Sequence[tuple[str, Sequence[float]]]) -> str:
    """Overlaid histograms (scores per bot, game lengths per option set)."""
    figure, axes = _figure()
    values = [v for _, data in series for v in data]
    low, high = (min(values), max(values)) if values else (0.0, 1.0)
    span = int(high - low) + 1
    bins = max(1, min(40, span))
    # Centre each bar on its whole number when there are few values (scores), else bin them.
    edges = (low - 0.5, high + 0.5) if span <= 40 else (low, high + 1)
    for name, data in series:
        axes.hist(data, bins=bins, range=edges, alpha=0.55, label=name)
    axes.set_xlabel(xlabel)
    axes.set_ylabel("games")
    axes.set_title(title)
    if len(series) > 1:
        axes.legend()
    return _png(figure)


def _section(heading: str, png: str) -> str:
    return (
        f"<section><h2>{html.escape(heading)}</h2>"
        f'<img alt="{html.escape(heading)}" src="data:image/png;base64,{png}"></section>'
    )


def render_report(runs: Sequence[tuple[str, Summary]], command: str = "") -> str:
    """The HTML page for one run, or for the same bots under several option sets."""
    if not runs:
        raise ValueError("a report needs at least one run")
    first = runs[0][1]
    sections = [
        _section("Win rate per bot", rate_plot("Win rate per bot", [(n, s.bots) for n, s in runs])),
        _section(
            "Win rate per seat", rate_plot("Win rate per seat", [(n, s.by_seat) for n, s in runs])
        ),
    ]
    for name, summary in runs:
        scores = [(row.label, [float(x) for x in row.scores]) for row in summary.bots]
        sections.append(
            _section(f"Scores per bot ({name})", histogram("Score distribution", "score", scores))
        )
    lengths = [(name, [float(x) for x in s.lengths]) for name, s in runs]
    unit = length_unit(first.game)
    sections.append(
        _section("Game length", histogram("Game length", f"game length ({unit})", lengths))
    )
    if len(runs) > 1:
        sections.insert(0, _comparison_table(runs))
    data = html.escape(json.dumps({name: s.to_json() for name, s in runs}, indent=1))
    title = f"bestiary sim: {first.game}, {first.players} players, {first.games:,} games"
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>{html.escape(title)}</title><style>"
        "body{font-family:system-ui,sans-serif;max-width:960px;margin:2em auto;color:#222}"
        "img{max-width:100%}table{border-collapse:collapse}td,th{padding:.2em .8em;"
        "border-bottom:1px solid #ddd;text-align:right}"
        "th:first-child,td:first-child{text-align:left}"
        "</style></head><body>"
        f"<h1>{html.escape(title)}</h1>"
        + (f"<p><code>{html.escape(command)}</code></p>" if command else "")
        + "".join(sections)
        + f"<details><summary>Numbers (JSON)</summary><pre>{data}</pre></details>"
        "</body></html>"
    )


def _comparison_table(runs: Sequence[tuple[str, Summary]]) -> str:
    head = "".join(f"<th>{html.escape(name)}</th>" for name, _ in runs)
    labels = [row.label for row in runs[0][1].bots]
    rows = []
    for label in labels:
        cells = []
        for _, summary in runs:
            row = summary.by_bot.get(label)
            if row is None:
                cells.append("<td>-</td>")
                continue
            low, high = row.interval
            cells.append(f"<td>{row.rate:.3f} [{low:.3f}, {high:.3f}]</td>")
        rows.append(f"<tr><td>{html.escape(label)}</td>{''.join(cells)}</tr>")
    return (
        "<section><h2>Side by side: win rate [95% interval]</h2>"
        f"<table><tr><th>bot</th>{head}</tr>{''.join(rows)}</table></section>"
    )
