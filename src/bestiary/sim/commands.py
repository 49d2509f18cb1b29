"""``bestiary sim`` and ``bestiary tournament``: the work behind the two commands.

cli.py holds the Typer signatures; these functions do the running and printing, and raise
ValueError with one readable sentence for anything a user can get wrong.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from bestiary.core.agent import bot_entries
from bestiary.core.game import get_game
from bestiary.core.options import parse_options
from bestiary.sim.parallel import run_games
from bestiary.sim.runner import BotFault, GameResult, GameSpec
from bestiary.sim.seating import sim_specs
from bestiary.sim.stats import games_needed
from bestiary.sim.summary import RateRow, Summary, length_unit, summarize
from bestiary.sim.tournament import Tournament, rate, tournament_specs


def parse_bots(game: str, text: str) -> list[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    if not names:
        raise ValueError("--bots needs at least one bot name")
    known = {entry.name for entry in bot_entries(game)}
    for name in names:
        if name not in known:
            raise ValueError(
                f"no bot called {name!r} for {game} (known: {', '.join(sorted(known))})"
            )
    return names


def check_table(game: str, players: int, options: Mapping[str, Any]) -> None:
    """Refuse a player count or options the game cannot start with, before any work begins."""
    rules = get_game(game)
    rules.info.check_player_count(players)
    rules.new_game([f"p{i + 1}" for i in range(players)], dict(options), seed=0)


def _play(
    specs: Sequence[GameSpec],
    jobs: int | None,
    backend: str,
    address: str | None,
    label: str,
    quiet: bool,
) -> Iterator[GameResult]:
    console = Console(stderr=True)
    progress = Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=quiet or not console.is_terminal,
    )
    with progress:
        task = progress.add_task(label, total=len(specs))
        try:
            yield from run_games(specs, jobs, backend, address, lambda n: progress.advance(task, n))
        except BotFault as err:
            raise ValueError(f"a bot broke the rules: {err}") from None


def _rows_table(title: str, rows: Sequence[RateRow], first: str) -> Table:
    table = Table(title=title)
    for column in (first, "games", "win rate", "95% interval", "mean score"):
        table.add_column(column, justify="left" if column == first else "right")
    for row in rows:
        low, high = row.interval
        table.add_row(
            row.label,
            f"{row.games:,}",
            f"{row.rate:.3f}",
            f"[{low:.3f}, {high:.3f}]",
            f"{row.mean_score:.2f}",
        )
    return table


def print_summary(console: Console, name: str, summary: Summary) -> None:
    console.print(_rows_table(f"{name}: win rate per bot", summary.bots, "bot"))
    console.print(_rows_table(f"{name}: win rate per seat", summary.by_seat, "seat"))
    data = summary.to_json()
    unit = length_unit(summary.game)
    line = (
        f"game length: mean {data['length']['mean']:.1f} {unit}, median {data['length']['median']}"
    )
    if "ticks" in data:
        line += f"; {data['ticks']['mean']:.1f} ticks"
    console.print(line)
    console.print("endings: " + ", ".join(f"{k} {v:,}" for k, v in data["endings"].items()))
    if summary.outcomes:
        mix = summary.outcome_mix()
        console.print(
            "meetings: "
            + ", ".join(f"{k} {summary.outcomes[k]:,} ({mix[k]:.1%})" for k in sorted(mix))
        )


def write_records(out: Path, results: Sequence[GameResult]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for result in results:
        assert result.record is not None
        path = out / f"game-{result.index:06d}.jsonl"
        path.write_text("\n".join(result.record) + "\n", encoding="utf-8")


def run_sim(
    game: str,
    players: int,
    bots: str,
    games: int,
    seed: int,
    jobs: int | None,
    backend: str,
    address: str | None,
    option: Sequence[str],
    compare: Sequence[str],
    as_json: bool,
    out: Path | None,
    report: Path | None,
    command: str,
) -> None:
    names = parse_bots(game, bots)
    options = parse_options(option)
    runs: list[tuple[str, dict[str, Any]]] = [("base", options)]
    if compare:
        runs.append(("compare", {**options, **parse_options(compare)}))
    for _, opts in runs:
        check_table(game, players, opts)
    summaries: list[tuple[str, Summary]] = []
    for label, opts in runs:
        specs = sim_specs(
            game,
            names,
            players,
            games,
            seed,
            opts,
            keep_record=out is not None,
        )
        results = list(_play(specs, jobs, backend, address, f"{game} {label}", as_json))
        if out is not None:
            write_records(out / label if compare else out, results)
        name = label if not compare else f"{label} ({_describe(opts)})"
        summaries.append((name, summarize(game, players, results)))
    if report is not None:
        from bestiary.sim.report import render_report

        report.write_text(render_report(summaries, command), encoding="utf-8")
    if as_json:
        data: dict[str, Any] = {name: s.to_json() for name, s in summaries}
        print(json.dumps(data if compare else data["base"], indent=1))
        return
    console = Console()
    for name, summary in summaries:
        print_summary(console, name, summary)
    if report is not None:
        console.print(f"report written to {report}")


def _describe(options: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={json.dumps(v)}" for k, v in options.items()) or "defaults"


def plan(rate_: float, margin: float, confidence: float, power: float) -> str:
    return games_needed(rate_, margin, confidence, power).describe()


def run_tournament(
    game: str,
    pool: str,
    players: int,
    games: int,
    seed: int,
    pairing: str,
    jobs: int | None,
    backend: str,
    address: str | None,
    option: Sequence[str],
    as_json: bool,
) -> Tournament:
    names = parse_bots(game, pool)
    options = parse_options(option)
    check_table(game, players, options)
    specs = tournament_specs(game, names, players, games, seed, pairing, options)
    tournament = rate(game, players, _play(specs, jobs, backend, address, game, as_json))
    if as_json:
        print(json.dumps(tournament.to_json(), indent=1))
    else:
        print_tournament(Console(), tournament)
    return tournament


def print_tournament(console: Console, tournament: Tournament) -> None:
    table = Table(title=f"{tournament.game}, {tournament.players} players: leaderboard (OpenSkill)")
    for column in ("#", "bot", "rating mu ± 2σ", "ordinal", "games", "win rate [95%]"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for place, s in enumerate(tournament.leaderboard(), start=1):
        low, high = s.record.interval
        table.add_row(
            str(place),
            s.bot,
            f"{s.mu:.2f} ± {2 * s.sigma:.2f}",
            f"{s.ordinal:.2f}",
            f"{s.record.games:,}",
            f"{s.record.rate:.3f} [{low:.3f}, {high:.3f}]",
        )
    console.print(table)
    pairs = Table(title="head to head: win share of the first bot at tables with the second")
    for column in ("pair", "games", "win rate [95%]"):
        pairs.add_column(column, justify="left" if column == "pair" else "right")
    for row in sorted(tournament.head_to_head.values(), key=lambda r: r.label):
        low, high = row.interval
        pairs.add_row(row.label, f"{row.games:,}", f"{row.rate:.3f} [{low:.3f}, {high:.3f}]")
    console.print(pairs)
