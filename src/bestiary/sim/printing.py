"""What ``bestiary sim`` prints: each arm's figures, the paired differences and sweep tables."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from statistics import fmean, median

from rich.console import Console
from rich.table import Table

from bestiary.core.game import games, get_game
from bestiary.sim.experiment import (
    Experiment,
    GridResult,
    Played,
    SweepPoint,
    SweepResult,
    sweep_family,
    sweep_small_sample,
)
from bestiary.sim.paired import SCORING_ONLY, Comparison, PairedRow
from bestiary.sim.stats import mean_interval, wilson
from bestiary.sim.summary import RateRow, Summary, length_unit

# Metrics shown in paired tables (others are in the JSON), with how to print them: these, and
# whatever each game's analytics names in its own words.
SHOWN_METRICS = {
    "tie": "tie share",
    "zero_zero": "0-0 share",
    "length": "mean length",
}


def shown_metrics() -> dict[str, str]:
    shown = dict(SHOWN_METRICS)
    for game in games():
        shown.update(game.info.analytics.labels)
    return shown


def _interval(row: RateRow) -> str:
    low, high = row.interval
    return f"{row.rate:.3f} [{low:.3f}, {high:.3f}]"


def new_table(title: str, columns: Sequence[str]) -> Table:
    """A table whose cells wrap at spaces (and fold only a single over-long word) instead of
    ending in "…": on an 80-column terminal no figure is cut."""
    table = Table(title=title)
    for n, column in enumerate(columns):
        table.add_column(column, justify="left" if n == 0 else "right", overflow="fold")
    return table


def bots_table(title: str, summary: Summary) -> Table:
    table = new_table(
        title, ("bot", "seats", "games", "win rate [95%]", "mean score", "wins from ties")
    )
    for row in summary.bots:
        rate = _interval(row)
        if summary.fills_table(row.label):
            rate = f"1/{summary.players} by construction (fills every seat)"
        table.add_row(
            row.label,
            str(summary.seats_of[row.label]),
            f"{row.games:,}",
            rate,
            f"{row.mean_score:.2f}",
            f"{row.from_ties:.0%}",
        )
    return table


def seats_table(title: str, summary: Summary) -> Table:
    bots = [row.label for row in summary.bots] if len(summary.by_bot) > 1 else []
    table = new_table(title, ("seat", "games", "win rate [95%]", "mean score", *bots))
    for seat, row in enumerate(summary.by_seat):
        cells = []
        for bot in bots:
            cell = summary.seat_bot.get((seat, bot))
            cells.append(_interval(cell) if cell else "-")
        table.add_row(row.label, f"{row.games:,}", _interval(row), f"{row.mean_score:.2f}", *cells)
    return table


def strategy_table(title: str, summary: Summary) -> Table | None:
    """One row per measure, one column per bot (there are more measures than bots)."""
    rows = summary.strategy_rows()
    keys = sorted({k for row in rows.values() for k in row})
    if not keys:
        return None
    table = new_table(title, ("per seat-game, or as named", *rows))
    for key in keys:
        label = key.replace("_per_game", "").replace("_", " ")
        table.add_row(label, *(f"{row[key]:.2f}" if key in row else "-" for row in rows.values()))
    return table


def print_summary(console: Console, name: str, played: Played) -> None:
    summary = played.summary
    console.print(bots_table(f"{name}: win rate per bot", summary))
    console.print(seats_table(f"{name}: win rate per seat (and per seat x bot)", summary))
    console.print(summary.seat_test().describe())
    for line in summary.small_sample():
        console.print(f"[bold yellow]{line}[/]")
    console.print(
        "first seat minus last seat, win rate: "
        + summary.first_minus_last().describe()
        + " (paired within games)"
    )
    for seed, part in played.by_seed:
        console.print(f"  seed {seed}: first minus last {part.first_minus_last().describe()}")
    table = strategy_table(f"{name}: strategy mix per bot (see docs/sim.md)", summary)
    if table is not None:
        console.print(table)
    data = summary.to_json()
    length = (
        f"game length: mean {mean_interval([float(x) for x in summary.lengths]).plain()} "
        f"{length_unit(summary.game)}, median {median(summary.lengths)}"
    )
    if summary.ticks:
        length += f" (table time: mean {fmean(summary.ticks):.1f} ticks)"
    console.print(f"{length}; {data['timing']['seconds_per_game'] * 1000:.1f} ms per game")
    console.print("endings: " + ", ".join(f"{k} {v:,}" for k, v in data["endings"].items()))
    for line in summary.honesty():
        console.print(line)
    if summary.outcomes:
        mix = summary.outcome_mix()
        console.print(
            f"{get_game(summary.game).info.analytics.tallies}: "
            + ", ".join(f"{k} {summary.outcomes[k]:,} ({mix[k]:.1%})" for k in sorted(mix))
        )
    for warning in summary.warnings():
        console.print(f"[bold red]warning:[/] {warning}")


def holm_mark(comparison: Comparison, row: PairedRow) -> str:
    """``*`` if the row's difference survives Holm's correction over the win-rate family,
    ``fixed`` for a bot whose rate is 1/players by construction, else blank."""
    if row.fixed:
        return "fixed"
    rows, facts = comparison.family()
    kept = {r.label for r, k in zip(rows, facts.survivors, strict=True) if k}
    return "*" if row.label in kept and row in rows else ""


def paired_table(
    title: str, comparison: Comparison, rows: Sequence[PairedRow], holm: bool = False
) -> Table:
    columns = ["", comparison.base, comparison.other, "difference [95%]", "games changed"]
    table = new_table(title, [*columns, *(["Holm"] if holm else [])])
    shown = shown_metrics()
    for row in rows:
        table.add_row(
            shown.get(row.label, row.label),
            f"{row.base.mean:.3f}",
            f"{row.other.mean:.3f}",
            row.diff.describe(),
            f"{row.changed:,}",
            *([holm_mark(comparison, row)] if holm else []),
        )
    return table


# How many changed games the terminal lists (the JSON has them all).
CHANGED_SHOWN = 10


def changed_lines(comparison: Comparison, records: Path | None) -> list[str]:
    """The games whose winners changed: seeds, winners, and how to open them in a replay."""
    games = comparison.changed_games
    if not games:
        return []
    lines = [f"games whose winners changed ({len(games):,}; the JSON lists every one):"]
    for game in games[:CHANGED_SHOWN]:
        lines.append(
            f"  game {game.index} (seed {game.seed}): {', '.join(game.base) or 'nobody'} -> "
            f"{', '.join(game.other) or 'nobody'}"
        )
    first = games[0].index
    if records is None:
        lines.append(
            "  to replay them: add --changed DIR (writes both arms' records of these games), "
            f"then bestiary replay DIR/base/game-{first:06d}.jsonl"
        )
    else:
        lines.append(
            f"  records: bestiary replay {records / 'base' / f'game-{first:06d}.jsonl'} "
            f"(and {records / 'compare' / f'game-{first:06d}.jsonl'})"
        )
    return lines


def print_paired(console: Console, comparison: Comparison, records: Path | None = None) -> None:
    how = "same deals and seats" if comparison.same_seats else "same game seeds"
    if not comparison.same_deals:
        how = "same seeds, different tables: pairs are independent"
    console.print(
        f"paired: {comparison.other} minus {comparison.base}, {comparison.games:,} games ({how}); "
        f"{comparison.changed:,} games had other winners, {comparison.moved:,} other moves"
    )
    if comparison.scoring_only():
        console.print(f"[bold yellow]{SCORING_ONLY}[/]")
    console.print(paired_table("win rate per bot", comparison, comparison.bots, holm=True))
    console.print(paired_table("mean score per bot", comparison, comparison.scores))
    console.print(paired_table("win rate per seat", comparison, comparison.seats, holm=True))
    console.print(comparison.family()[1].describe())
    for line in comparison.small_sample():
        console.print(f"[bold yellow]{line}[/]")
    shown = shown_metrics()
    metrics = [row for row in comparison.metrics if row.label in shown]
    console.print(paired_table("how games went", comparison, metrics))
    for line in changed_lines(comparison, records):
        console.print(line, highlight=False)


def sweep_cells(points: Sequence[SweepPoint]) -> list[tuple[str, list[str]]]:
    """One row per quantity (each bot, each seat, stall, ties, 0-0, length), one cell per
    point: the value with its 95% interval, and at points other than the baseline the paired
    difference from it (``*``: survives Holm's correction over the whole sweep)."""
    summaries = [p.played.summary for p in points]
    kept, _ = sweep_family(points)
    first = summaries[0]
    bots = sorted({b for s in summaries for b in s.by_bot if not s.fills_table(b)})
    seats = max(len(s.by_seat) for s in summaries)

    def rate_cell(point: SweepPoint, row: RateRow | None, label: str) -> str:
        if row is None:
            return "-"
        low, high = row.interval
        text = f"{row.rate:.3f} [{low:.3f}, {high:.3f}]"
        diff = _find(point.paired.bots + point.paired.seats, label) if point.paired else None
        if diff is not None:
            mark = " *" if kept.get((point.value, label)) else ""
            text += f"\ndiff {diff.diff.describe()}{mark}"
        return text

    def share_cell(point: SweepPoint, count: int, metric: str) -> str:
        summary = point.played.summary
        low, high = wilson(count, summary.games)
        text = f"{summary.share(count):.1%} [{low:.1%}, {high:.1%}]"
        diff = _find(point.paired.metrics, metric) if point.paired else None
        if diff is not None:
            text += f"\ndiff {diff.diff.describe(100, 1)} pts"
        return text

    def length_cell(point: SweepPoint) -> str:
        summary = point.played.summary
        text = mean_interval([float(x) for x in summary.lengths]).plain()
        diff = _find(point.paired.metrics, "length") if point.paired else None
        if diff is not None:
            text += f"\ndiff {diff.diff.describe(digits=1)}"
        return text

    rows: list[tuple[str, list[str]]] = []
    for bot in bots:
        rows.append((bot, [rate_cell(p, p.played.summary.by_bot.get(bot), bot) for p in points]))
    for seat in range(seats):
        label = f"seat {seat + 1}"
        rows.append(
            (
                label,
                [
                    rate_cell(p, s.by_seat[seat] if seat < len(s.by_seat) else None, label)
                    for p, s in zip(points, summaries, strict=True)
                ],
            )
        )
    stall = first.headline_stall()[0]
    metric = f"ending_{first.stall_endings[0]}"  # the game's own first stall (paired metric)
    rows.append(
        (
            stall,
            [
                share_cell(p, s.headline_stall()[1], metric)
                for p, s in zip(points, summaries, strict=True)
            ],
        )
    )
    rows.append(("ties", [share_cell(p, p.played.summary.ties, "tie") for p in points]))
    rows.append(("0-0", [share_cell(p, p.played.summary.zero_zero, "zero_zero") for p in points]))
    rows.append((f"length ({length_unit(first.game)})", [length_cell(p) for p in points]))
    return rows


def _find(rows: Sequence[PairedRow], label: str) -> PairedRow | None:
    return next((row for row in rows if row.label == label), None)


def fixed_bots(points: Sequence[SweepPoint]) -> list[str]:
    """Bots that fill every seat at some point (their rate is 1/players there: not shown)."""
    return sorted(
        {b for p in points for b in p.played.summary.by_bot if p.played.summary.fills_table(b)}
    )


def print_sweep(console: Console, sweep: SweepResult) -> None:
    default = ", the game's default" if sweep.default else ""
    labels = [p.value + (" (baseline)" if p.paired is None else "") for p in sweep.points]
    table = new_table(
        f"sweep {sweep.key} (baseline {sweep.baseline}{default}): value [95%], and the "
        "paired difference from the baseline [95%]",
        ("", *labels),
    )
    for label, cells in sweep_cells(sweep.points):
        table.add_row(label, *cells)
    console.print(table)
    _print_family_notes(console, sweep.points)
    for line in [
        f"warning at {sweep.key}={p.value}: {w}"
        for p in sweep.points
        for w in p.played.summary.warnings()
    ]:
        console.print(f"[bold red]{line}[/]")


def _print_family_notes(console: Console, points: Sequence[SweepPoint]) -> None:
    fixed = fixed_bots(points)
    if fixed:
        console.print(
            f"{', '.join(fixed)} fills every seat: its win rate is 1/players by construction "
            "(not shown; the seats are)"
        )
    facts = sweep_family(points)[1]
    if facts.size:
        console.print(facts.describe())
    for line in sweep_small_sample(points):
        console.print(f"[bold yellow]{line}[/]")


def print_grid(console: Console, grid: GridResult) -> None:
    """The grid as one table per quantity: rows the first key's values, columns the second's."""
    rows_v, cols_v = grid.values
    cells = {cell: point for cell, point in grid.cells.items()}
    ordered = [cells[(a, b)] for a in rows_v for b in cols_v]
    quantities = sweep_cells(ordered)
    console.print(
        f"grid {grid.keys[0]} x {grid.keys[1]} (baseline {grid.keys[0]}={grid.baseline[0]}, "
        f"{grid.keys[1]}={grid.baseline[1]}): value [95%] and the paired difference from the "
        "baseline"
    )
    for label, values in quantities:
        table = new_table(f"{label}", (f"{grid.keys[0]} / {grid.keys[1]}", *cols_v))
        for i, a in enumerate(rows_v):
            table.add_row(a, *values[i * len(cols_v) : (i + 1) * len(cols_v)])
        console.print(table)
    _print_family_notes(console, ordered)


def print_options(console: Console, experiment: Experiment) -> None:
    """Every option of the baseline (and each deck it played), so a figure names its rules."""
    options = experiment.base.summary.options
    console.print("options: " + ", ".join(f"{k}={v}" for k, v in options.items()), highlight=False)


def print_experiment(console: Console, experiment: Experiment, records: Path | None = None) -> None:
    print_options(console, experiment)
    print_summary(console, experiment.base.arm.label, experiment.base)
    if experiment.other is not None and experiment.paired is not None:
        print_summary(console, experiment.other.arm.label, experiment.other)
        print_paired(console, experiment.paired, records)
    for sweep in experiment.sweeps:
        print_sweep(console, sweep)
    if experiment.grid is not None:
        print_grid(console, experiment.grid)
