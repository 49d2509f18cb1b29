"""``--report``: one self-contained HTML page with the run's plots (PNG, base64-embedded).

The figures are drawn by ``bestiary.sim.plots`` (its docstring has the rules they keep); this
module lays them out with the tables, the options every game was played with and each deck's
content, once.
"""

from __future__ import annotations

import base64
import html
import io
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.figure import Figure

from bestiary.sim.experiment import Experiment, Played, SweepPoint
from bestiary.sim.paired import SCORING_ONLY, Comparison, PairedRow
from bestiary.sim.plots import (
    NOTE,
    Colours,
    caption,
    convergence_figure,
    difference_figure,
    fixed_note,
    grid_figure,
    rate_figure,
    sweep_figure,
    value_figure,
)
from bestiary.sim.printing import changed_lines, holm_mark, sweep_cells
from bestiary.sim.summary import Summary, length_unit


def save(figure: Figure, target: Path | io.BytesIO) -> None:
    """A figure as PNG, its captions kept (they sit below the axes)."""
    figure.tight_layout()
    figure.savefig(target, format="png", bbox_inches="tight")


def png(figure: Figure) -> str:
    buffer = io.BytesIO()
    save(figure, buffer)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def colours_of(experiment: Experiment) -> Colours:
    """Bots in the order the baseline names them, then any other arm's."""
    return Colours([bot for played in experiment.arms() for bot in played.arm.bots])


def _warnings(arms: Sequence[Played]) -> list[str]:
    many = len(arms) > 1
    return [
        f"warning ({p.arm.label}): {w}" if many else f"warning: {w}"
        for p in arms
        for w in p.summary.warnings()
    ]


def report_figures(experiment: Experiment) -> list[tuple[str, Figure | str]]:
    """Every section's figure in page order (or, where nothing can be drawn, a sentence why)."""
    colour = colours_of(experiment)
    arms = [experiment.base] + ([experiment.other] if experiment.other else [])
    first = experiment.base.summary
    warned = _warnings(arms)
    out: list[tuple[str, Figure | str]] = []
    groups = [
        (p.arm.label, [r for r in p.summary.bots if not p.summary.fills_table(r.label)])
        for p in arms
    ]
    notes = [n for p in arms if (n := fixed_note(p.summary))]
    if any(rows for _, rows in groups):
        figure = rate_figure("Win rate per bot", groups, colour)
        caption(figure, warned)
        caption(figure, notes, colour="black")
        out.append(("Win rate per bot", figure))
    else:
        out.append(("Win rate per bot", "; ".join(dict.fromkeys(notes))))
    seats = rate_figure(
        "Win rate per seat",
        [(p.arm.label, p.summary.by_seat) for p in arms],
        fair=1.0 / first.players,
    )
    small = [
        f"{p.arm.label}: {line}" if len(arms) > 1 else line
        for p in arms
        for line in p.summary.small_sample()
    ]
    caption(seats, warned)
    caption(seats, small, colour=NOTE)
    out.append(("Win rate per seat", seats))
    if experiment.paired is not None:
        figure = difference_figure(experiment.paired, colour)
        caption(figure, warned)
        out.append(("Paired differences", figure))
    for played in arms:
        label = played.arm.label
        convergence = convergence_figure("Win rate against games played", played.summary, colour)
        if convergence is None:
            out.append((f"Convergence ({label})", fixed_note(played.summary) or ""))
        else:
            caption(convergence, _warnings([played]))
            out.append((f"Convergence ({label})", convergence))
        scores = [(row.label, row.scores) for row in played.summary.bots]
        figure = value_figure("Score distribution per bot", "score", scores, colour, "seat-games")
        caption(figure, _warnings([played]))
        out.append((f"Scores per bot ({label})", figure))
    unit = length_unit(first.game)
    lengths = [(p.arm.label, p.summary.lengths) for p in arms]
    figure = value_figure("Game length", f"length ({unit})", lengths)
    caption(figure, warned)
    out.append(("Game length", figure))
    for sweep in experiment.sweeps:
        out.append((f"Sweep {sweep.key}", sweep_figure(sweep, colour)))
    if experiment.grid is not None:
        keys = experiment.grid.keys
        out.append((f"Grid {keys[0]} x {keys[1]}", grid_figure(experiment.grid, colour)))
    return out


def figure_name(heading: str) -> str:
    """A file name for a section's figure: ``Sweep hand_limit`` -> ``sweep-hand_limit.png``.

    >>> figure_name("Convergence (compare (mating_bonus=true))")
    'convergence-compare-mating_bonus-true.png'
    """
    return re.sub(r"[^a-z0-9_]+", "-", heading.lower()).strip("-") + ".png"


def write_figures(folder: Path, experiment: Experiment) -> None:
    """Every figure of the report as its own PNG in ``folder`` (for a page of docs)."""
    folder.mkdir(parents=True, exist_ok=True)
    for heading, content in report_figures(experiment):
        if not isinstance(content, str):
            save(content, folder / figure_name(heading))


def _section(heading: str, content: Figure | str) -> str:
    if isinstance(content, str):
        return f"<section><h2>{html.escape(heading)}</h2><p>{html.escape(content)}</p></section>"
    return (
        f"<section><h2>{html.escape(heading)}</h2>"
        f'<img alt="{html.escape(heading)}" src="data:image/png;base64,{png(content)}"></section>'
    )


def _facts(name: str, played: Played) -> str:
    summary = played.summary
    lines = [*summary.honesty()]
    seconds = summary.to_json()["timing"]["seconds_per_game"]
    lines.append(f"time per game: {seconds * 1000:.1f} ms (wall clock)")
    lines.append(summary.seat_test().describe())
    lines += summary.small_sample()
    lines.append("first seat minus last seat: " + summary.first_minus_last().describe())
    for seed, part in played.by_seed:
        lines.append(f"seed {seed}: first minus last {part.first_minus_last().describe()}")
    items = "".join(f"<li>{html.escape(line)}</li>" for line in lines)
    warnings = "".join(
        f"<p class='warn'><strong>Warning:</strong> {html.escape(w)}</p>"
        for w in summary.warnings()
    )
    endings = ", ".join(f"{k} {v:,}" for k, v in sorted(summary.endings.items()))
    return (
        f"<section><h2>{html.escape(name)}: how the games went</h2>{warnings}<ul>{items}"
        f"<li>endings: {html.escape(endings)}</li></ul>{_strategy_html(summary)}</section>"
    )


def _strategy_html(summary: Summary) -> str:
    rows = summary.strategy_rows()
    keys = sorted({k for row in rows.values() for k in row})
    if not keys:
        return ""
    body = [
        [key, *(f"{row[key]:.2f}" if key in row else "-" for row in rows.values())] for key in keys
    ]
    return "<h3>Strategy mix per bot</h3>" + _table(["", *rows], body)


def _table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    cells = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    body = "".join(
        "<tr>"
        + "".join(f"<td>{html.escape(c).replace(chr(10), '<br>')}</td>" for c in row)
        + "</tr>"
        for row in rows
    )
    return f"<table><tr>{cells}</tr>{body}</table>"


def _paired_html(comparison: Comparison) -> str:
    def table(title: str, rows: Sequence[PairedRow], holm: bool = False) -> str:
        body = [
            [
                r.label,
                f"{r.base.mean:.3f}",
                f"{r.other.mean:.3f}",
                r.diff.describe(),
                f"{r.changed:,}",
                *([holm_mark(comparison, r)] if holm else []),
            ]
            for r in rows
        ]
        head = ["", comparison.base, comparison.other, "difference [95%]", "games changed"]
        return f"<h3>{html.escape(title)}</h3>" + _table(head + (["Holm"] if holm else []), body)

    notes = [comparison.family()[1].describe(), *comparison.small_sample()]
    if comparison.scoring_only():
        notes.insert(0, SCORING_ONLY)
    changed = changed_lines(comparison, None)
    return (
        f"<section><h2>Paired: {html.escape(comparison.other)} minus "
        f"{html.escape(comparison.base)}</h2><p>{comparison.games:,} games on the same seeds; "
        f"{comparison.changed:,} had other winners.</p>"
        + table("win rate per bot", comparison.bots, holm=True)
        + table("mean score per bot", comparison.scores)
        + table("win rate per seat", comparison.seats, holm=True)
        + "".join(f"<p>{html.escape(n)}</p>" for n in notes)
        + table("metrics per game", comparison.metrics)
        + ("<pre>" + html.escape("\n".join(changed)) + "</pre>" if changed else "")
        + "</section>"
    )


def _points_html(title: str, labels: Sequence[str], points: Sequence[SweepPoint]) -> str:
    rows = [[label, *cells] for label, cells in sweep_cells(points)]
    return f"<h3>{html.escape(title)}</h3>" + _table(["", *labels], rows)


def _options_html(experiment: Experiment) -> str:
    """Every option of every arm, and each deck's content once (the games' rules)."""
    rows = []
    for played in experiment.arms():
        options = played.summary.options
        rows.append([played.arm.label, ", ".join(f"{k}={v}" for k, v in options.items())])
    decks = "".join(
        f"<li>deck {html.escape(entry['name'])} (hash {html.escape(digest)}): "
        f"<code>{html.escape(json.dumps(entry['content'], sort_keys=True))}</code></li>"
        for digest, entry in experiment.decks().items()
    )
    return (
        "<section><h2>Options every game was played with</h2>"
        + _table(["arm", "options"], rows)
        + (f"<ul>{decks}</ul>" if decks else "")
        + "</section>"
    )


def render_experiment(experiment: Experiment, command: str = "") -> str:
    """The HTML page for a run, a paired comparison, any sweeps and a grid."""
    arms = [experiment.base] + ([experiment.other] if experiment.other else [])
    first = experiment.base.summary
    figures = dict(report_figures(experiment))
    sections = [_options_html(experiment), *(_facts(p.arm.label, p) for p in arms)]
    for heading in ("Win rate per bot", "Win rate per seat"):
        sections.append(_section(heading, figures.pop(heading)))
    if experiment.paired is not None:
        sections.append(_paired_html(experiment.paired))
        sections.append(_section("Paired differences", figures.pop("Paired differences")))
    for sweep in experiment.sweeps:
        heading = f"Sweep {sweep.key}"
        labels = [p.value + (" (baseline)" if p.paired is None else "") for p in sweep.points]
        table = _points_html(
            f"sweep {sweep.key}: value [95%], and the paired difference from the baseline",
            labels,
            sweep.points,
        )
        sections.append(
            _section(heading, figures.pop(heading)).replace("</section>", table + "</section>")
        )
    if experiment.grid is not None:
        grid = experiment.grid
        heading = f"Grid {grid.keys[0]} x {grid.keys[1]}"
        cells = list(grid.cells.values())
        table = _points_html(
            f"grid cells ({grid.keys[0]}, {grid.keys[1]})", [p.value for p in cells], cells
        )
        sections.append(
            _section(heading, figures.pop(heading)).replace("</section>", table + "</section>")
        )
    sections += [_section(heading, content) for heading, content in figures.items()]
    data = html.escape(json.dumps(experiment.to_json(), indent=1))
    title = f"bestiary sim: {first.game}, {first.players} players, {first.games:,} games"
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>{html.escape(title)}</title><style>"
        "body{font-family:system-ui,sans-serif;max-width:1000px;margin:2em auto;color:#222}"
        "img{max-width:100%}table{border-collapse:collapse}td,th{padding:.2em .8em;"
        "border-bottom:1px solid #ddd;text-align:right}"
        "th:first-child,td:first-child{text-align:left}.warn{color:#a00}"
        "</style></head><body>"
        f"<h1>{html.escape(title)}</h1>"
        + (f"<p><code>{html.escape(command)}</code></p>" if command else "")
        + "".join(sections)
        + f"<details><summary>Numbers (JSON)</summary><pre>{data}</pre></details>"
        "</body></html>"
    )
