"""``--report``: one self-contained HTML page with the run's plots (PNG, base64-embedded).

Plot rules: discrete data (scores, lengths) gets per-value bars or integer-aligned bins (every
whole number in exactly one bin); series use the Okabe-Ito colour-blind-safe palette with
distinct hatches or line styles, drawn opaque or as outlines, never translucent blends; legends
sit outside the axes, so they cover no data.
"""

from __future__ import annotations

import base64
import html
import io
import json
import math
from collections.abc import Sequence
from statistics import fmean
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

from bestiary.sim.experiment import Experiment, Played, SweepPoint, SweepResult
from bestiary.sim.paired import Comparison, PairedRow
from bestiary.sim.stats import mean_interval, wilson
from bestiary.sim.summary import RateRow, Summary

# Okabe & Ito (2008): distinguishable with every common colour-vision deficiency.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")
HATCHES = ("", "//", "..", "xx", "\\\\", "oo", "--", "++")
LINES = ("-", "--", "-.", ":")
MAX_BINS = 40


def _figure(width: float = 7.2, height: float = 3.8) -> tuple[Figure, Axes]:
    import matplotlib

    matplotlib.use("Agg")  # no display: the report is made in files, in any process
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height), dpi=100)
    axes = figure.add_subplot()
    return figure, axes


def _legend(axes: Axes, count: int) -> None:
    """A legend to the right of the axes, outside the data."""
    if count > 1:
        axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0, fontsize=8)


def _png(figure: Figure) -> str:
    buffer = io.BytesIO()
    figure.tight_layout()
    figure.savefig(buffer, format="png", bbox_inches="tight")
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def integer_bins(low: int, high: int, max_bins: int = MAX_BINS) -> list[float]:
    """Bin edges for whole numbers ``low..high``: half-integer edges, equal widths of whole
    numbers, at most ``max_bins`` bins, so every integer falls in exactly one bin.

    >>> integer_bins(0, 3)
    [-0.5, 0.5, 1.5, 2.5, 3.5]
    >>> integer_bins(0, 99, 40)[:3]
    [-0.5, 2.5, 5.5]
    """
    if high < low:
        raise ValueError(f"empty range {low}..{high}")
    width = max(1, math.ceil((high - low + 1) / max_bins))
    count = math.ceil((high - low + 1) / width)
    return [low - 0.5 + k * width for k in range(count + 1)]


def rate_plot(
    title: str,
    groups: Sequence[tuple[str, Sequence[RateRow]]],
    fair: float | None = None,
) -> str:
    """Win rate with 95% Wilson intervals, one bar per row, one colour and hatch per group."""
    figure, axes = _figure()
    labels = [row.label for row in groups[0][1]]
    for _, rows in groups[1:]:
        labels += [row.label for row in rows if row.label not in labels]
    width = 0.8 / len(groups)
    for g, (name, rows) in enumerate(groups):
        by_label = {row.label: row for row in rows}
        ordered = [by_label.get(label, RateRow(label)) for label in labels]
        xs = [i + (g - (len(groups) - 1) / 2) * width for i in range(len(labels))]
        low = [row.rate - row.interval[0] if row.games else 0.0 for row in ordered]
        high = [row.interval[1] - row.rate if row.games else 0.0 for row in ordered]
        axes.bar(
            xs,
            [row.rate for row in ordered],
            width=width,
            yerr=[low, high],
            capsize=3,
            label=name,
            color=PALETTE[g % len(PALETTE)],
            hatch=HATCHES[g % len(HATCHES)],
            edgecolor="white" if g == 0 else "black",
            linewidth=0.5,
        )
    if fair is not None:
        axes.axhline(
            fair, color="black", linestyle="--", linewidth=1, label=f"fair share {fair:.3f}"
        )
    axes.set_xticks(range(len(labels)), labels, rotation=20 if len(labels) > 5 else 0)
    axes.set_ylabel("win rate (95% Wilson interval)")
    axes.set_title(title)
    top = max((row.interval[1] for _, rows in groups for row in rows if row.games), default=1.0)
    axes.set_ylim(0, min(1.0, top * 1.15 + 0.02))
    _legend(axes, len(groups) + (fair is not None))
    return _png(figure)


def value_bars(title: str, xlabel: str, series: Sequence[tuple[str, Sequence[int]]]) -> str:
    """Discrete data: per-value bars when the range is small, else integer-aligned step bins."""
    figure, axes = _figure()
    values = [v for _, data in series for v in data]
    low, high = (min(values), max(values)) if values else (0, 1)
    edges = integer_bins(low, high)
    if edges[1] - edges[0] == 1 and len(series) <= 4:
        width = 0.8 / len(series)
        for s, (name, data) in enumerate(series):
            counts = [sum(1 for v in data if v == x) for x in range(low, high + 1)]
            xs = [x + (s - (len(series) - 1) / 2) * width for x in range(low, high + 1)]
            axes.bar(
                xs,
                counts,
                width=width,
                label=name,
                color=PALETTE[s % len(PALETTE)],
                hatch=HATCHES[s % len(HATCHES)],
                edgecolor="white" if s == 0 else "black",
                linewidth=0.5,
            )
        axes.set_ylabel("games")
        axes.set_xticks(range(low, high + 1, max(1, (high - low) // 20 + 1)))
    else:
        for s, (name, data) in enumerate(series):
            axes.hist(
                data,
                bins=edges,
                histtype="step",
                linewidth=1.6,
                linestyle=LINES[s % len(LINES)],
                color=PALETTE[s % len(PALETTE)],
                label=name,
            )
        width = int(edges[1] - edges[0])
        axes.set_ylabel(f"games per {width} value{'s' if width > 1 else ''}")
    axes.set_xlabel(xlabel)
    axes.set_title(title)
    _legend(axes, len(series))
    return _png(figure)


def convergence_plot(title: str, summary: Summary) -> str:
    """Each bot's running win rate against games played, with its 95% Wilson band."""
    figure, axes = _figure()
    for b, row in enumerate(summary.bots):
        seats = summary.seats_of[row.label]
        per_game = [
            fmean(row.shares[i : i + seats]) for i in range(0, len(row.shares) - seats + 1, seats)
        ]
        xs, rates, lows, highs, total = [], [], [], [], 0.0
        step = max(1, len(per_game) // 200)
        for n, share in enumerate(per_game, start=1):
            total += share
            if n % step == 0 or n == len(per_game):
                xs.append(n)
                rates.append(total / n)
                low, high = wilson(total, n)
                lows.append(low)
                highs.append(high)
        colour = PALETTE[b % len(PALETTE)]
        axes.plot(xs, rates, color=colour, linestyle=LINES[b % len(LINES)], label=row.label)
        axes.plot(xs, lows, color=colour, linewidth=0.6, linestyle=":")
        axes.plot(xs, highs, color=colour, linewidth=0.6, linestyle=":")
    axes.set_xlabel("games played")
    axes.set_ylabel("win rate so far (dotted: 95% interval)")
    axes.set_title(title)
    axes.set_ylim(0, 1)
    _legend(axes, len(summary.bots))
    return _png(figure)


def difference_plot(title: str, rows: Sequence[PairedRow]) -> str:
    """Paired differences with their 95% intervals, a line at zero."""
    figure, axes = _figure(height=max(2.0, 0.45 * len(rows) + 1.2))
    ys = list(range(len(rows)))
    means = [row.diff.mean for row in rows]
    err = [
        [0.0 if math.isnan(r.diff.low) else r.diff.mean - r.diff.low for r in rows],
        [0.0 if math.isnan(r.diff.high) else r.diff.high - r.diff.mean for r in rows],
    ]
    axes.errorbar(means, ys, xerr=err, fmt="o", color=PALETTE[0], capsize=4)
    axes.axvline(0.0, color="black", linewidth=0.8)
    axes.set_yticks(ys, [row.label for row in rows])
    axes.set_xlabel("difference in win rate (paired 95% interval)")
    axes.set_title(title)
    return _png(figure)


def sweep_plot(sweep: SweepResult) -> str:
    """Each metric against the swept setting, with 95% intervals (one panel per metric)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    points = sweep.points
    bots = sorted({b for p in points for b in p.played.summary.by_bot})
    metrics = _sweep_metrics(points)
    figure = Figure(figsize=(7.2, 2.6 * (1 + len(metrics))), dpi=100)
    xs = list(range(len(points)))
    axes = figure.add_subplot(1 + len(metrics), 1, 1)
    for b, bot in enumerate(bots):
        rows = [p.played.summary.by_bot.get(bot) for p in points]
        shown = [(x, r) for x, r in zip(xs, rows, strict=True) if r is not None]
        offset = (b - (len(bots) - 1) / 2) * 0.08
        axes.errorbar(
            [x + offset for x, _ in shown],
            [r.rate for _, r in shown],
            yerr=[
                [r.rate - r.interval[0] for _, r in shown],
                [r.interval[1] - r.rate for _, r in shown],
            ],
            fmt="o" + LINES[b % len(LINES)],
            color=PALETTE[b % len(PALETTE)],
            capsize=3,
            label=bot,
        )
    axes.set_ylabel("win rate")
    axes.set_title(f"sweep {sweep.key}")
    _legend(axes, len(bots))
    for m, (name, values) in enumerate(metrics.items(), start=2):
        panel = figure.add_subplot(1 + len(metrics), 1, m, sharex=axes)
        panel.errorbar(
            xs,
            [v for v, _, _ in values],
            yerr=[[v - lo for v, lo, _ in values], [hi - v for v, _, hi in values]],
            fmt="o-",
            color=PALETTE[(m - 1) % len(PALETTE)],
            capsize=3,
        )
        panel.set_ylabel(name)
    axes.set_xticks(xs, [p.value + ("\n(baseline)" if p.paired is None else "") for p in points])
    figure.axes[-1].set_xlabel(sweep.key)
    return _png(figure)


def _sweep_metrics(points: Sequence[SweepPoint]) -> dict[str, list[tuple[float, float, float]]]:
    """Per point: (value, low, high) of the stall, tie and 0-0 shares and the mean length."""
    summaries = [p.played.summary for p in points]
    stall = "Nightfall share" if summaries[0].real_time else "stalled share"
    counts = {
        stall: [s.endings.get("nightfall", 0) if s.real_time else s.stalls for s in summaries],
        "tie share": [s.ties for s in summaries],
        "0-0 share": [s.zero_zero for s in summaries],
    }
    metrics = {
        name: [(s.share(k), *wilson(k, s.games)) for s, k in zip(summaries, ks, strict=True)]
        for name, ks in counts.items()
    }
    lengths = []
    for summary in summaries:
        m = mean_interval([float(x) for x in (summary.ticks or summary.lengths)])
        spread = (m.mean, m.mean) if math.isnan(m.low) else (m.low, m.high)
        lengths.append((m.mean, *spread))
    metrics["mean length"] = lengths
    return metrics


def _section(heading: str, png: str) -> str:
    return (
        f"<section><h2>{html.escape(heading)}</h2>"
        f'<img alt="{html.escape(heading)}" src="data:image/png;base64,{png}"></section>'
    )


def _facts(name: str, played: Played) -> str:
    summary = played.summary
    lines = [*summary.honesty()]
    seconds = summary.to_json()["timing"]["seconds_per_game"]
    lines.append(f"time per game: {seconds * 1000:.1f} ms (wall clock)")
    lines.append(summary.seat_test().describe())
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
    head = "".join(f"<th>{html.escape(bot)}</th>" for bot in rows)
    body = "".join(
        f"<tr><td>{html.escape(key)}</td>"
        + "".join(
            f"<td>{row[key]:.2f}</td>" if key in row else "<td>-</td>" for row in rows.values()
        )
        + "</tr>"
        for key in keys
    )
    return f"<h3>Strategy mix per bot</h3><table><tr><th></th>{head}</tr>{body}</table>"


def _paired_html(comparison: Comparison) -> str:
    def table(title: str, rows: Sequence[PairedRow]) -> str:
        body = "".join(
            f"<tr><td>{html.escape(r.label)}</td><td>{r.base.mean:.3f}</td>"
            f"<td>{r.other.mean:.3f}</td><td>{html.escape(r.diff.describe())}</td>"
            f"<td>{r.changed:,}</td></tr>"
            for r in rows
        )
        return (
            f"<h3>{html.escape(title)}</h3><table><tr><th></th><th>{html.escape(comparison.base)}"
            f"</th><th>{html.escape(comparison.other)}</th><th>difference [95%]</th>"
            f"<th>games changed</th></tr>{body}</table>"
        )

    return (
        f"<section><h2>Paired: {html.escape(comparison.other)} minus "
        f"{html.escape(comparison.base)}</h2><p>{comparison.games:,} games on the same seeds; "
        f"{comparison.changed:,} had other winners.</p>"
        + table("win rate per bot", comparison.bots)
        + table("mean score per bot", comparison.scores)
        + table("win rate per seat", comparison.seats)
        + table("metrics per game", comparison.metrics)
        + "</section>"
    )


def render_experiment(experiment: Experiment, command: str = "") -> str:
    """The HTML page for a run, a paired comparison and any sweeps."""
    arms = [experiment.base] + ([experiment.other] if experiment.other else [])
    first = experiment.base.summary
    sections = [_facts(p.arm.label, p) for p in arms]
    sections.append(
        _section(
            "Win rate per bot",
            rate_plot("Win rate per bot", [(p.arm.label, p.summary.bots) for p in arms]),
        )
    )
    sections.append(
        _section(
            "Win rate per seat",
            rate_plot(
                "Win rate per seat",
                [(p.arm.label, p.summary.by_seat) for p in arms],
                fair=1.0 / first.players,
            ),
        )
    )
    if experiment.paired is not None:
        sections.append(_paired_html(experiment.paired))
        rows = [*experiment.paired.bots, *experiment.paired.seats]
        sections.append(
            _section("Paired differences", difference_plot("Paired difference in win rate", rows))
        )
    for played in arms:
        sections.append(
            _section(
                f"Convergence ({played.arm.label})",
                convergence_plot("Win rate against games played", played.summary),
            )
        )
        scores = [(row.label, row.scores) for row in played.summary.bots]
        sections.append(
            _section(
                f"Scores per bot ({played.arm.label})",
                value_bars("Score distribution", "score", scores),
            )
        )
    unit = "ticks" if first.real_time else "moves"
    lengths = [(p.arm.label, p.summary.ticks or p.summary.lengths) for p in arms]
    sections.append(_section("Game length", value_bars("Game length", f"length ({unit})", lengths)))
    for sweep in experiment.sweeps:
        sections.append(_section(f"Sweep {sweep.key}", sweep_plot(sweep)))
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
