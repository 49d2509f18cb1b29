"""The report's figures (matplotlib ``Figure`` objects, never pyplot: nothing here touches the
backend, so a notebook that renders a report still shows its own plots).

Rules every figure keeps (docs/sim.md, "Data out"):

- one colour per bot in every figure of a report (``Colours``); arms, seats and game-level
  shares are black and greys, told apart by hatches, markers and line styles, so no colour
  means two things;
- a bot that fills every seat is left out of win-rate plots (its rate is 1/players by
  construction) and the figure says so;
- value axes start at 0 (rates, shares, lengths): nothing is zoomed;
- a swept setting is placed at its value (the baseline at the value the rules used, marked),
  not at its position in a list; a setting without an order (deck files, line-ups) is drawn
  as bars side by side, never joined by lines;
- a heat map's colours run from its lowest value to its highest, and every cell prints its
  value (the colours show where, the numbers how much);
- a figure carries, under it, every warning the terminal prints about the games it shows.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Callable, Sequence
from statistics import fmean
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.artist import Artist
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

from bestiary.sim.experiment import GridResult, SweepPoint, SweepResult, sweep_small_sample
from bestiary.sim.paired import Comparison
from bestiary.sim.stats import mean_interval, wilson
from bestiary.sim.summary import RateRow, Summary, length_unit

# Okabe & Ito (2008), distinguishable with every common colour-vision deficiency; black is
# kept for what is not a bot.
BOT_COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442")
GREYS = ("#222222", "#888888", "#BBBBBB", "#555555")
HATCHES = ("", "//", "..", "xx", "\\\\", "oo", "--", "++")
LINES = ("-", "--", "-.", ":")
MARKERS = ("o", "s", "^", "D", "v", "P")
MAX_BINS = 40
WARN = "#a00000"  # warnings: the result rests on something other than play
NOTE = "#7a4b00"  # notes: a sample too small to tell


class Colours:
    """One colour per bot, fixed for a whole report (bots in the order first named)."""

    def __init__(self, bots: Sequence[str]) -> None:
        self._of = {
            bot: BOT_COLOURS[i % len(BOT_COLOURS)] for i, bot in enumerate(dict.fromkeys(bots))
        }

    def __call__(self, bot: str) -> str:
        if bot not in self._of:
            self._of[bot] = BOT_COLOURS[len(self._of) % len(BOT_COLOURS)]
        return self._of[bot]


def new_figure(width: float = 7.2, height: float = 3.8) -> tuple[Figure, Axes]:
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height), dpi=100)
    return figure, figure.add_subplot()


def legend(axes: Axes) -> None:
    """A legend to the right of the axes, outside the data (if there is anything to name)."""
    handles, _ = axes.get_legend_handles_labels()
    if handles:
        axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0, fontsize=8)


CAPTION_POINTS = 7.5


def caption(figure: Figure, lines: Sequence[str], colour: str = WARN) -> None:
    """Lines of text under the figure (warnings in red, notes in black), wrapped to its width
    and placed under any caption already there (``savefig(bbox_inches="tight")`` keeps them)."""
    if not lines:
        return
    before = sum(t.get_text().count("\n") + 1 for t in figure.texts if t.get_gid() == "caption")
    line_height = CAPTION_POINTS * 1.35 / 72 / figure.get_figheight()
    text = "\n".join(textwrap.fill(line, 120) for line in lines)
    figure.text(
        0.0,
        -0.01 - before * line_height,
        text,
        color=colour,
        fontsize=CAPTION_POINTS,
        va="top",
        ha="left",
        gid="caption",
    )


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


def fixed_note(summary: Summary) -> str | None:
    """Why a bot is missing from a win-rate plot, if one is."""
    fixed = [row.label for row in summary.bots if summary.fills_table(row.label)]
    if not fixed:
        return None
    return (
        f"{', '.join(fixed)} fills every seat: its win rate is 1/{summary.players} by "
        "construction, so it is not plotted"
    )


def rate_figure(
    title: str,
    groups: Sequence[tuple[str, Sequence[RateRow]]],
    colour: Callable[[str], str] | None = None,
    fair: float | None = None,
) -> Figure:
    """Win rate with 95% Wilson intervals, one bar per row. Bots (``colour`` given) keep their
    colour and each arm its hatch; otherwise (seats) each arm is a grey."""
    figure, axes = new_figure()
    labels = [row.label for row in groups[0][1]]
    for _, rows in groups[1:]:
        labels += [row.label for row in rows if row.label not in labels]
    width = 0.8 / len(groups)
    for g, (_, rows) in enumerate(groups):
        by_label = {row.label: row for row in rows}
        ordered = [by_label.get(label, RateRow(label)) for label in labels]
        xs = [i + (g - (len(groups) - 1) / 2) * width for i in range(len(labels))]
        fills = [colour(r.label) if colour else GREYS[g % len(GREYS)] for r in ordered]
        bars = axes.bar(
            xs,
            [row.rate for row in ordered],
            width=width,
            yerr=[
                [row.rate - row.interval[0] if row.games else 0.0 for row in ordered],
                [row.interval[1] - row.rate if row.games else 0.0 for row in ordered],
            ],
            capsize=3,
            color=fills,
            hatch=HATCHES[g % len(HATCHES)],
            edgecolor="black",
            linewidth=0.5,
        )
        for patch, row in zip(bars.patches, ordered, strict=True):
            patch.set_gid(row.label)
    if len(groups) > 1:
        from matplotlib.patches import Patch

        handles: list[Artist] = [
            Patch(
                facecolor="white" if colour else GREYS[g % len(GREYS)],
                hatch=HATCHES[g % len(HATCHES)],
                edgecolor="black",
                label=name,
            )
            for g, (name, _) in enumerate(groups)
        ]
        if fair is not None:
            from matplotlib.lines import Line2D

            handles.append(Line2D([], [], color="black", linestyle="--", label=f"fair {fair:.3f}"))
        axes.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8)
    if fair is not None:
        axes.axhline(fair, color="black", linestyle="--", linewidth=1, label=f"fair {fair:.3f}")
        if len(groups) == 1:
            legend(axes)
    axes.set_xticks(range(len(labels)), labels, rotation=20 if len(labels) > 5 else 0)
    axes.set_ylabel("win rate (95% Wilson interval)")
    axes.set_title(title)
    top = max((row.interval[1] for _, rows in groups for row in rows if row.games), default=1.0)
    axes.set_ylim(0, min(1.0, top * 1.15 + 0.02))
    return figure


def value_figure(
    title: str,
    xlabel: str,
    series: Sequence[tuple[str, Sequence[int]]],
    colour: Callable[[str], str] | None = None,
    counted: str = "games",
) -> Figure:
    """Discrete data: per-value bars when the range is small, else integer-aligned step bins.
    Series are bots (``colour``, always named in a legend) or arms (greys); ``counted`` names
    what the bars count."""
    from matplotlib.ticker import MaxNLocator

    figure, axes = new_figure()
    values = [v for _, data in series for v in data]
    low, high = (min(values), max(values)) if values else (0, 1)
    edges = integer_bins(low, high)

    def tint(s: int, name: str) -> str:
        return colour(name) if colour else GREYS[s % len(GREYS)]

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
                color=tint(s, name),
                hatch=HATCHES[s % len(HATCHES)],
                edgecolor="black",
                linewidth=0.5,
            )
        axes.set_ylabel(counted)
        axes.set_xticks(range(low, high + 1, max(1, (high - low) // 20 + 1)))
    else:
        for s, (name, data) in enumerate(series):
            axes.hist(
                data,
                bins=edges,
                histtype="step",
                linewidth=1.6,
                linestyle=LINES[s % len(LINES)],
                color=tint(s, name),
                label=name,
            )
        width = int(edges[1] - edges[0])
        axes.set_ylabel(f"{counted} per {width} value{'s' if width > 1 else ''}")
    axes.set_ylim(bottom=0)
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_xlabel(xlabel)
    axes.set_title(title)
    if len(series) > 1 or colour is not None:
        legend(axes)
    return figure


def convergence_figure(title: str, summary: Summary, colour: Callable[[str], str]) -> Figure | None:
    """Each bot's running win rate against games played, with its 95% Wilson band (None when
    every bot fills every seat: its line would be flat by construction)."""
    rows = [row for row in summary.bots if not summary.fills_table(row.label)]
    if not rows:
        return None
    figure, axes = new_figure()
    for b, row in enumerate(rows):
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
        tint = colour(row.label)
        axes.plot(xs, rates, color=tint, linestyle=LINES[b % len(LINES)], label=row.label)
        axes.plot(xs, lows, color=tint, linewidth=0.6, linestyle=":")
        axes.plot(xs, highs, color=tint, linewidth=0.6, linestyle=":")
    axes.set_xlabel("games played")
    axes.set_ylabel("win rate so far (dotted: 95% interval)")
    axes.set_title(title)
    axes.set_ylim(0, 1)
    legend(axes)
    return figure


def difference_figure(comparison: Comparison, colour: Callable[[str], str]) -> Figure:
    """Paired differences (compare minus base) with 95% intervals and a line at zero; a filled
    marker survives Holm's correction over every interval shown, a hollow one does not."""
    rows, facts = comparison.family()
    figure, axes = new_figure(height=max(2.2, 0.45 * len(rows) + 1.4))
    for y, (row, kept) in enumerate(zip(rows, facts.survivors, strict=True)):
        tint = colour(row.label) if row.label in {r.label for r in comparison.bots} else GREYS[0]
        low = 0.0 if math.isnan(row.diff.low) else row.diff.mean - row.diff.low
        high = 0.0 if math.isnan(row.diff.high) else row.diff.high - row.diff.mean
        axes.errorbar(
            [row.diff.mean],
            [y],
            xerr=[[low], [high]],
            fmt="o",
            color=tint,
            markerfacecolor=tint if kept else "white",
            capsize=4,
            gid=row.label,
        )
    axes.axvline(0.0, color="black", linewidth=0.8)
    axes.set_yticks(range(len(rows)), [row.label for row in rows])
    axes.set_ylim(len(rows) - 0.3, -0.7)  # the first row on top
    axes.set_xlabel(
        f"{comparison.other} minus {comparison.base}: win rate, per game (paired 95% interval)"
    )
    axes.set_title(f"Paired difference in win rate: {comparison.other} minus {comparison.base}")
    caption(
        figure,
        [
            f"filled: survives Holm's correction over all {facts.size} intervals; hollow: does "
            f"not. About {facts.by_chance:.1f} of {facts.size} would exclude 0 by chance alone."
        ],
        colour="black",
    )
    caption(figure, comparison.small_sample(), colour=NOTE)
    return figure


def sweep_positions(sweep: SweepResult) -> tuple[list[float], list[str]]:
    """Where each point sits on the x axis (its value, if every value is a number) and its tick
    label (the baseline marked)."""
    numbers = sweep.numeric()
    xs = numbers if numbers is not None else [float(i) for i in range(len(sweep.points))]
    mark = "\n(baseline, default)" if sweep.default else "\n(baseline)"
    # a deck file's path breaks at its folders, so neighbouring labels do not run together
    names = [p.value if len(p.value) < 16 else p.value.replace("/", "/\n") for p in sweep.points]
    labels = [
        n + (mark if p.paired is None else "") for n, p in zip(names, sweep.points, strict=True)
    ]
    return xs, labels


def _share_metrics(summaries: Sequence[Summary]) -> dict[str, list[tuple[float, float, float]]]:
    """Per point: (share, low, high) of stalls, ties and 0-0 games."""
    stall = summaries[0].headline_stall()[0]
    counts = {
        stall: [s.headline_stall()[1] for s in summaries],
        "ties": [s.ties for s in summaries],
        "0-0": [s.zero_zero for s in summaries],
    }
    return {
        name: [(s.share(k), *wilson(k, s.games)) for s, k in zip(summaries, ks, strict=True)]
        for name, ks in counts.items()
    }


def _lengths(summaries: Sequence[Summary]) -> list[tuple[float, float, float]]:
    """Mean game length in the game's own unit (actions or moves), with its t interval."""
    out = []
    for summary in summaries:
        m = mean_interval([float(x) for x in summary.lengths])
        out.append((m.mean, *((m.mean, m.mean) if math.isnan(m.low) else (m.low, m.high))))
    return out


def _errorbars(
    axes: Axes,
    xs: Sequence[float],
    values: Sequence[tuple[float, float, float] | None],
    offset: float,
    **style: object,
) -> None:
    shown = [(x + offset, v) for x, v in zip(xs, values, strict=True) if v is not None]
    axes.errorbar(
        [x for x, _ in shown],
        [v for _, (v, _, _) in shown],
        yerr=[[v - lo for _, (v, lo, _) in shown], [hi - v for _, (v, _, hi) in shown]],
        capsize=3,
        **style,  # type: ignore[arg-type]
    )


def _bars(
    axes: Axes,
    xs: Sequence[float],
    values: Sequence[tuple[float, float, float] | None],
    slot: tuple[int, int],
    colour: str,
    label: str,
    hatch: str = "",
) -> None:
    """One series of a categorical sweep as bars with their intervals: slot (i, n) is the i-th
    of n bars side by side at each value."""
    i, n = slot
    width = 0.8 / n
    shown = [
        (x + (i - (n - 1) / 2) * width, v) for x, v in zip(xs, values, strict=True) if v is not None
    ]
    axes.bar(
        [x for x, _ in shown],
        [v for _, (v, _, _) in shown],
        width,
        yerr=[[v - lo for _, (v, lo, _) in shown], [hi - v for _, (v, _, hi) in shown]],
        capsize=3,
        color=colour,
        edgecolor="black",
        linewidth=0.5,
        hatch=hatch,
        label=label,
        gid=label,
    )


def sweep_figure(sweep: SweepResult, colour: Callable[[str], str]) -> Figure:
    """Win rate per bot and per seat, stall/tie/0-0 shares and mean length against the swept
    setting, each with its 95% interval: points joined by lines along a numeric setting, bars
    side by side for settings that have no order (deck files, line-ups)."""
    from matplotlib.figure import Figure

    points = sweep.points
    ordered = sweep.numeric() is not None
    summaries = [p.played.summary for p in points]
    bots = sorted({b for s in summaries for b in s.by_bot if not s.fills_table(b)}, key=lambda b: b)
    panels = (["bots"] if bots else []) + ["seats", "shares", "length"]
    figure = Figure(figsize=(7.2, 2.4 * len(panels) + 0.6), dpi=100)
    xs, labels = sweep_positions(sweep)
    span = (max(xs) - min(xs)) or 1.0
    step = span * 0.012
    baseline_x = next(x for x, p in zip(xs, points, strict=True) if p.paired is None)
    axes_list: list[Axes] = []
    for n, panel in enumerate(panels, start=1):
        axes = figure.add_subplot(len(panels), 1, n, sharex=axes_list[0] if axes_list else None)
        axes_list.append(axes)
        if panel == "bots":
            for b, bot in enumerate(bots):
                rows = [s.by_bot.get(bot) for s in summaries]
                values = [None if r is None else (r.rate, *r.interval) for r in rows]
                if not ordered:
                    _bars(axes, xs, values, (b, len(bots)), colour(bot), bot)
                    continue
                _errorbars(
                    axes,
                    xs,
                    values,
                    (b - (len(bots) - 1) / 2) * step,
                    fmt=MARKERS[b % len(MARKERS)] + LINES[b % len(LINES)],
                    color=colour(bot),
                    label=bot,
                    gid=bot,
                )
            axes.set_ylabel("win rate per bot")
        elif panel == "seats":
            seats = max(len(s.by_seat) for s in summaries)
            for seat in range(seats):
                values = [
                    (s.by_seat[seat].rate, *s.by_seat[seat].interval)
                    if seat < len(s.by_seat)
                    else None
                    for s in summaries
                ]
                if not ordered:
                    hatch = HATCHES[seat % len(HATCHES)]
                    _bars(
                        axes, xs, values, (seat, seats), GREYS[seat % 4], f"seat {seat + 1}", hatch
                    )
                    continue
                _errorbars(
                    axes,
                    xs,
                    values,
                    (seat - (seats - 1) / 2) * step,
                    fmt=MARKERS[seat % len(MARKERS)] + LINES[seat % len(LINES)],
                    color=GREYS[seat % len(GREYS)],
                    label=f"seat {seat + 1}",
                )
            players = {s.players for s in summaries}
            if len(players) == 1:
                fair = 1.0 / players.pop()
                axes.axhline(fair, color="black", linestyle="--", linewidth=0.8, label="fair share")
            axes.set_ylabel("win rate per seat")
        elif panel == "shares":
            for m, (name, shares) in enumerate(_share_metrics(summaries).items()):
                if not ordered:
                    _bars(axes, xs, list(shares), (m, 3), GREYS[m], name, HATCHES[m])
                    continue
                _errorbars(
                    axes,
                    xs,
                    list(shares),
                    (m - 1) * step,
                    fmt=MARKERS[m] + LINES[m],
                    color=GREYS[m],
                    label=name,
                )
            from matplotlib.ticker import PercentFormatter

            axes.yaxis.set_major_formatter(PercentFormatter(1.0))
            axes.set_ylabel("share of games")
        elif not ordered:
            _bars(axes, xs, list(_lengths(summaries)), (0, 1), GREYS[2], "mean length")
            axes.set_ylabel(f"mean length\n({length_unit(summaries[0].game)})")
        else:
            _errorbars(axes, xs, list(_lengths(summaries)), 0.0, fmt="o-", color=GREYS[0])
            axes.set_ylabel(f"mean length\n({length_unit(summaries[0].game)})")
        if ordered:
            axes.axvline(baseline_x, color="black", linestyle=":", linewidth=0.8)
        axes.set_ylim(bottom=0)
        legend(axes)
    marked = "dotted line" if ordered else "marked under its bars"
    axes_list[0].set_title(
        f"sweep {sweep.key}: every point on the same seeds ({marked}: the baseline)"
    )
    axes_list[-1].set_xticks(xs, labels)
    axes_list[-1].set_xlabel(sweep.key)
    for axes in axes_list[:-1]:
        axes.tick_params(labelbottom=False)
    caption(figure, point_warnings(sweep.key, points))
    caption(figure, sweep_small_sample(points), colour=NOTE)
    fixed = sorted({b for s in summaries for b in s.by_bot if s.fills_table(b)})
    if fixed:
        caption(
            figure,
            [
                f"{', '.join(fixed)} fills every seat: its win rate is 1/players by construction, "
                "so it is not plotted (the seats are)"
            ],
            colour="black",
        )
    return figure


def point_warnings(key: str, points: Sequence[SweepPoint]) -> list[str]:
    """Each point's warnings, named by its setting."""
    return [f"warning at {key}={p.value}: {w}" for p in points for w in p.played.summary.warnings()]


def grid_figure(grid: GridResult, colour: Callable[[str], str]) -> Figure:
    """Heat maps over the two keys: each bot's win rate (white to the bot's own colour), seat
    1's win rate and the mean length (white to black), every cell printed with its value; the
    baseline cell outlined. Each map's colours run from its lowest value to its highest (a
    small effect is not lost in a 0 to 1 scale); the printed values are the numbers."""
    from matplotlib.colors import LinearSegmentedColormap
    from matplotlib.figure import Figure
    from matplotlib.patches import Rectangle

    rows_v, cols_v = grid.values
    summaries = {cell: p.played.summary for cell, p in grid.cells.items()}
    bots = sorted({b for s in summaries.values() for b in s.by_bot if not s.fills_table(b)})
    maps: list[tuple[str, Callable[[Summary], float | None], str]] = [
        (f"win rate: {bot}", _bot_rate(bot), colour(bot)) for bot in bots
    ]
    maps.append(("win rate: seat 1", lambda s: s.by_seat[0].rate, GREYS[0]))
    unit = length_unit(next(iter(summaries.values())).game)
    maps.append((f"mean length ({unit})", lambda s: fmean(s.lengths), GREYS[0]))
    columns = min(2, len(maps))
    lines = math.ceil(len(maps) / columns)
    figure = Figure(figsize=(3.8 * columns + 0.4, 3.2 * lines + 0.4), dpi=100)
    for n, (name, value, tint) in enumerate(maps, start=1):
        axes = figure.add_subplot(lines, columns, n)
        data = [[value(summaries[(a, b)]) for b in cols_v] for a in rows_v]
        numbers = [[math.nan if v is None else v for v in line] for line in data]
        low, high = data_range([v for line in numbers for v in line])
        rate = name.startswith("win rate")
        scale = LinearSegmentedColormap.from_list(name, ["#ffffff", tint])
        image = axes.imshow(numbers, cmap=scale, vmin=low, vmax=high, aspect="auto")
        figure.colorbar(image, ax=axes, fraction=0.046, pad=0.04)
        for i, line in enumerate(numbers):
            for j, v in enumerate(line):
                text = "-" if math.isnan(v) else (f"{v:.3f}" if rate else f"{v:.1f}")
                dark = not math.isnan(v) and v > low + 0.6 * (high - low)
                axes.text(
                    j,
                    i,
                    text,
                    ha="center",
                    va="center",
                    fontsize=8,
                    color="white" if dark else "black",
                )
        a, b = grid.baseline
        if a in rows_v and b in cols_v:
            axes.add_patch(
                Rectangle(
                    (cols_v.index(b) - 0.5, rows_v.index(a) - 0.5),
                    1,
                    1,
                    fill=False,
                    edgecolor=WARN,
                    linewidth=2.0,
                )
            )
        axes.set_xticks(range(len(cols_v)), cols_v)
        axes.set_yticks(range(len(rows_v)), rows_v)
        axes.set_xlabel(grid.keys[1])
        axes.set_ylabel(grid.keys[0])
        axes.set_title(name, fontsize=9)
    figure.suptitle(
        f"grid {grid.keys[0]} x {grid.keys[1]} (outlined: the baseline "
        f"{grid.keys[0]}={grid.baseline[0]}, {grid.keys[1]}={grid.baseline[1]})",
        fontsize=9,
    )
    caption(figure, [GRID_SCALE], colour="black")
    caption(figure, [w for p in grid.cells.values() for w in _cell_warnings(grid, p)])
    return figure


GRID_SCALE = (
    "each map's colours run from its lowest value to its highest, not from 0 to 1: "
    "read the printed values"
)


def data_range(values: Sequence[float]) -> tuple[float, float]:
    """The lowest and highest of ``values`` (NaN left out), widened when they are equal so a
    colour scale still has a span.

    >>> data_range([0.42, float("nan"), 0.47])
    (0.42, 0.47)
    >>> data_range([0.5, 0.5])
    (0.49, 0.51)
    """
    shown = [v for v in values if not math.isnan(v)]
    if not shown:
        return 0.0, 1.0
    low, high = min(shown), max(shown)
    if low == high:
        pad = abs(low) * 0.02 or 0.01
        return low - pad, high + pad
    return low, high


def _bot_rate(bot: str) -> Callable[[Summary], float | None]:
    def rate(summary: Summary) -> float | None:
        row = summary.by_bot.get(bot)
        return None if row is None else row.rate

    return rate


def _cell_warnings(grid: GridResult, point: SweepPoint) -> list[str]:
    return [f"warning at {point.value}: {w}" for w in point.played.summary.warnings()]
