"""What ``bestiary sim`` prints: each arm's figures, the paired differences and sweep tables."""

from __future__ import annotations

from collections.abc import Sequence
from statistics import fmean, median

from rich.console import Console
from rich.table import Table

from bestiary.sim.experiment import Experiment, Played, SweepResult
from bestiary.sim.paired import Comparison, PairedRow
from bestiary.sim.summary import RateRow, Summary, length_unit

# Metrics shown in paired and sweep tables (others are in the JSON), with how to print them.
SHOWN_METRICS = {
    "ending_nightfall": "Nightfall share",
    "ending_exhausted": "exhausted share",
    "tie": "tie share",
    "zero_zero": "0-0 share",
    "length": "mean length",
    "meetings_mate": "mates per game",
    "meetings_eat": "eats per game",
    "meetings_avoid": "avoids per game",
}


def _interval(row: RateRow) -> str:
    low, high = row.interval
    return f"{row.rate:.3f} [{low:.3f}, {high:.3f}]"


def bots_table(title: str, summary: Summary) -> Table:
    table = Table(title=title)
    for column in ("bot", "seats", "games", "win rate [95%]", "mean score", "wins from ties"):
        table.add_column(column, justify="left" if column == "bot" else "right")
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
    table = Table(title=title)
    bots = [row.label for row in summary.bots] if len(summary.by_bot) > 1 else []
    for column in ("seat", "games", "win rate [95%]", "mean score", *bots):
        table.add_column(column, justify="left" if column == "seat" else "right")
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
    table = Table(title=title)
    table.add_column("per seat-game, or as named")
    for bot in rows:
        table.add_column(bot, justify="right")
    for key in keys:
        label = key.replace("_per_game", "").replace("_", " ")
        table.add_row(label, *(f"{row[key]:.2f}" if key in row else "-" for row in rows.values()))
    return table


def print_summary(console: Console, name: str, played: Played) -> None:
    summary = played.summary
    console.print(bots_table(f"{name}: win rate per bot", summary))
    console.print(seats_table(f"{name}: win rate per seat (and per seat x bot)", summary))
    console.print(summary.seat_test().describe())
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
        f"game length: mean {fmean(summary.lengths):.1f} {length_unit(summary.game)}, "
        f"median {median(summary.lengths)}"
    )
    if summary.ticks:
        length += f"; {fmean(summary.ticks):.1f} ticks, median {median(summary.ticks)}"
    console.print(f"{length}; {data['timing']['seconds_per_game'] * 1000:.1f} ms per game")
    console.print("endings: " + ", ".join(f"{k} {v:,}" for k, v in data["endings"].items()))
    for line in summary.honesty():
        console.print(line)
    if summary.outcomes:
        mix = summary.outcome_mix()
        console.print(
            "meetings: "
            + ", ".join(f"{k} {summary.outcomes[k]:,} ({mix[k]:.1%})" for k in sorted(mix))
        )
    for warning in summary.warnings():
        console.print(f"[bold red]warning:[/] {warning}")


def _paired_rows(table: Table, rows: Sequence[PairedRow], scale: float = 1.0) -> None:
    for row in rows:
        table.add_row(
            row.label,
            f"{row.base.mean * scale:.3f}",
            f"{row.other.mean * scale:.3f}",
            row.diff.describe(scale),
            f"{row.changed:,}",
        )


def paired_table(title: str, comparison: Comparison, rows: Sequence[PairedRow]) -> Table:
    table = Table(title=title)
    for column in ("", comparison.base, comparison.other, "difference [95%]", "games changed"):
        table.add_column(column, justify="left" if not column else "right")
    _paired_rows(table, rows)
    return table


def print_paired(console: Console, comparison: Comparison) -> None:
    how = "same deals and seats" if comparison.same_seats else "same game seeds"
    if not comparison.same_deals:
        how = "same seeds, different tables: pairs are independent"
    console.print(
        f"paired: {comparison.other} minus {comparison.base}, {comparison.games:,} games ({how}); "
        f"{comparison.changed:,} games had other winners"
    )
    console.print(paired_table("win rate per bot", comparison, comparison.bots))
    console.print(paired_table("mean score per bot", comparison, comparison.scores))
    console.print(paired_table("win rate per seat", comparison, comparison.seats))
    metrics = [row for row in comparison.metrics if row.label in SHOWN_METRICS]
    console.print(paired_table("how games went", comparison, metrics))


def print_sweep(console: Console, sweep: SweepResult) -> None:
    first = sweep.points[0].played.summary
    bots = sorted({b for p in sweep.points for b in p.played.summary.by_bot})
    table = Table(
        title=f"sweep {sweep.key} (baseline {sweep.baseline}): value, and paired "
        "difference from the baseline [95%]"
    )
    table.add_column(sweep.key)
    for column in (*bots, "Nightfall" if first.real_time else "stalled", "ties", "0-0", "length"):
        table.add_column(column, justify="right")
    for point in sweep.points:
        summary = point.played.summary
        cells = []
        for bot in bots:
            row = summary.by_bot.get(bot)
            cell = "-" if row is None else f"{row.rate:.3f}"
            diff = _find(point.paired.bots, bot) if point.paired else None
            cells.append(cell + (f"\n{diff.diff.describe()}" if diff else ""))
        stall = summary.endings.get("nightfall", 0) if summary.real_time else summary.stalls
        cells += [
            f"{summary.share(stall):.1%}",
            f"{summary.share(summary.ties):.1%}",
            f"{summary.share(summary.zero_zero):.1%}",
            f"{fmean(summary.lengths):.1f}",
        ]
        table.add_row(point.value + (" (baseline)" if point.paired is None else ""), *cells)
    console.print(table)


def _find(rows: Sequence[PairedRow], label: str) -> PairedRow | None:
    return next((row for row in rows if row.label == label), None)


def print_experiment(console: Console, experiment: Experiment) -> None:
    print_summary(console, experiment.base.arm.label, experiment.base)
    if experiment.other is not None and experiment.paired is not None:
        print_summary(console, experiment.other.arm.label, experiment.other)
        print_paired(console, experiment.paired)
    for sweep in experiment.sweeps:
        print_sweep(console, sweep)
