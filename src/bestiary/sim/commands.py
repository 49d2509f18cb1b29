"""``bestiary sim`` and ``bestiary tournament``: the work behind the two commands.

cli.py holds the Typer signatures; these functions do the running and printing, and raise
ValueError with one readable sentence for anything a user can get wrong.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from bestiary.core.bot_params import split_outside
from bestiary.core.game import get_game
from bestiary.sim.arms import Arm, SweepKey, describe_options, parse_sweeps, unique_pairs
from bestiary.sim.bots import check_bot
from bestiary.sim.experiment import Experiment, run_experiment
from bestiary.sim.parallel import run_games
from bestiary.sim.printing import new_table, print_experiment
from bestiary.sim.runner import SIM_PACES, BotFault, GameResult, GameSpec, play_game
from bestiary.sim.seating import seat_bots
from bestiary.sim.stats import games_against_share, games_needed
from bestiary.sim.table import FORMATS, game_rows, write_table
from bestiary.sim.tournament import Tournament, rate, tournament_specs
from bestiary.sim.turns import all_turn_rows


def parse_bots(game: str, text: str, extra: Sequence[str] = ()) -> list[str]:
    """Bot names from ``--bots`` (comma-separated) and ``--bot`` (repeatable), each checked."""
    names = split_outside(text) + list(extra)
    if not names:
        raise ValueError("--bots needs at least one bot name")
    for name in names:
        check_bot(game, name)
    return names


def check_table(game: str, players: int, options: Mapping[str, Any]) -> None:
    """Refuse a player count or options the game cannot start with, before any work begins."""
    rules = get_game(game)
    rules.info.check_player_count(players)
    rules.new_game([f"p{i + 1}" for i in range(players)], dict(options), seed=0)


def check_arm(arm: Arm) -> None:
    check_table(arm.game, arm.players, arm.options)
    for name in arm.bots:
        check_bot(arm.game, name)
    seat_bots(arm.bots, arm.players, 0)


def parse_seeds(seed: int, seeds: str | None) -> list[int]:
    """``--seeds 1,2,3`` pools runs with those seeds; else the one ``--seed``."""
    if seeds is None:
        return [seed]
    try:
        values = [int(part) for part in seeds.split(",") if part.strip()]
    except ValueError:
        raise ValueError(
            f"--seeds should be whole numbers separated by commas, not {seeds!r}"
        ) from None
    if not values or len(set(values)) != len(values):
        raise ValueError("--seeds needs at least one seed, each once")
    return values


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


def write_records(out: Path, results: Sequence[GameResult]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for result in results:
        assert result.record is not None
        path = out / f"game-{result.index:06d}.jsonl"
        path.write_text("\n".join(result.record) + "\n", encoding="utf-8")


@dataclass(frozen=True)
class SimRequest:
    """Everything ``bestiary sim`` was asked (the CLI's options, parsed by run_sim)."""

    game: str
    players: int
    bots: str
    games: int
    seed: int
    jobs: int | None = 1
    backend: str = "local"
    address: str | None = None
    option: Sequence[str] = ()
    compare: Sequence[str] = ()
    sweep: Sequence[str] = ()
    extra_bots: Sequence[str] = ()
    seeds: str | None = None
    as_json: bool = False
    out: Path | None = None
    report: Path | None = None
    table: Path | None = None
    command: str = ""
    grid: Sequence[str] = ()
    turns: Path | None = None
    changed: Path | None = None
    figures: Path | None = None
    pace: str = "lab"


def parse_grid(texts: Sequence[str]) -> tuple[SweepKey, SweepKey] | None:
    """``--grid KEY=V1,V2`` twice: every combination of the two keys' values."""
    if not texts:
        return None
    keys = parse_sweeps(texts)
    if len(keys) != 2:
        raise ValueError(
            f"--grid needs exactly two keys (--grid A=1,2 --grid B=3,4), not {len(keys)}"
        )
    return keys[0], keys[1]


def plan_experiment(
    request: SimRequest,
) -> tuple[Arm, Arm | None, list[SweepKey], list[int], tuple[SweepKey, SweepKey] | None]:
    """Parse and check every arm before any game is played (bad input costs nothing)."""
    if request.games < 1:
        raise ValueError("--games must be at least 1")
    names = parse_bots(request.game, request.bots, request.extra_bots)
    options = unique_pairs(request.option, "--option")
    if request.pace not in SIM_PACES:
        raise ValueError(f"--pace must be one of {', '.join(SIM_PACES)}, not {request.pace!r}")
    base = Arm("base", request.game, request.players, tuple(names), options, request.pace)
    check_arm(base)
    other = None
    if request.compare:
        changes = unique_pairs(request.compare, "--compare")
        other = dataclasses.replace(
            base, label=f"compare ({describe_options(changes)})", options={**options, **changes}
        )
        check_arm(other)
    sweeps = parse_sweeps(request.sweep)
    for sweep in sweeps:
        for value in sweep.values:
            check_arm(base.changed(sweep.key, value, sweep.key))
    grid = parse_grid(request.grid)
    if grid is not None:
        for a in grid[0].values:
            for b in grid[1].values:
                check_arm(base.changed(grid[0].key, a, "grid").changed(grid[1].key, b, "grid"))
    for path, flag in ((request.table, "--table"), (request.turns, "--turns")):
        if path is not None and path.suffix not in FORMATS:
            raise ValueError(f"{flag} writes .csv or .parquet files, not {path.name!r}")
    if request.changed is not None and other is None:
        raise ValueError("--changed needs --compare: it writes the games whose winners changed")
    return base, other, sweeps, parse_seeds(request.seed, request.seeds), grid


def write_changed(folder: Path, experiment: Experiment) -> None:
    """Both arms' records of the games whose winners changed (played again from their specs:
    seeded, so they are the same games), as ``folder/base/`` and ``folder/compare/``."""
    if experiment.paired is None or experiment.other is None:
        return
    wanted = {game.index for game in experiment.paired.changed_games}
    for name, played in (("base", experiment.base), ("compare", experiment.other)):
        specs = played.arm.specs(experiment.games, experiment.seeds, keep_record=True)
        write_records(folder / name, [play_game(specs[i]) for i in sorted(wanted)])


def run_sim(request: SimRequest) -> Experiment:
    base, other, sweeps, seeds, grid = plan_experiment(request)

    def play(specs: Sequence[GameSpec], label: str) -> list[GameResult]:
        return list(
            _play(
                specs,
                request.jobs,
                request.backend,
                request.address,
                f"{request.game} {label}",
                request.as_json,
            )
        )

    experiment = run_experiment(
        base, request.games, seeds, play, other, sweeps, request.out is not None, grid
    )
    arms = experiment.arms()
    if request.out is not None:
        names = arm_folders([p.arm.label for p in arms])
        for played, name in zip(arms, names, strict=True):
            write_records(request.out if len(arms) == 1 else request.out / name, played.results)
    if request.table is not None:
        write_table(request.table, game_rows((p.arm.label, p.results) for p in arms))
    if request.turns is not None:
        specs = ((p.arm.label, p.arm.specs(request.games, seeds)) for p in arms)
        write_table(request.turns, all_turn_rows(specs))
    if request.changed is not None:
        write_changed(request.changed, experiment)
    if request.report is not None:
        from bestiary.sim.report import render_experiment

        request.report.write_text(render_experiment(experiment, request.command), "utf-8")
    if request.figures is not None:
        from bestiary.sim.report import write_figures

        write_figures(request.figures, experiment)
    if request.as_json:
        data = experiment.to_json()
        simple = len(arms) == 1 and len(seeds) == 1
        if simple:
            data = {**data["base"], **({"decks": data["decks"]} if "decks" in data else {})}
        print(json.dumps(data, indent=1))
        return experiment
    console = Console()
    records = request.changed
    if records is None and request.out is not None and len(arms) > 1:
        records = request.out
    print_experiment(console, experiment, records)
    for path, what in (
        (request.table, "table"),
        (request.turns, "per-move table"),
        (request.report, "report"),
        (request.figures, "figures"),
        (request.changed, "records of the games whose winners changed"),
    ):
        if path is not None:
            console.print(f"{what} written to {path}")
    return experiment


def arm_folders(labels: Sequence[str]) -> list[str]:
    """One folder name per arm, each a single level (a deck file's path becomes part of the
    name, never a folder of its own) and each once.

    >>> arm_folders(["base", "compare (mating_bonus=true)", "deck=decks/no_uc.toml"])
    ['base', 'compare', 'deck=decks_no_uc.toml']
    >>> arm_folders(["bots=reader(decay=0.5)+hunter", "bots=reader(decay=0.5)+hunter"])
    ['bots=reader_decay=0.5_+hunter', 'bots=reader_decay=0.5_+hunter-2']
    """
    names: list[str] = []
    for label in labels:
        name = re.sub(r"[^A-Za-z0-9_.=,+-]", "_", label.split(" ")[0]).strip(".") or "arm"
        names.append(name if name not in names else f"{name}-{len(names) + 1}")
    return names


def plan(rate_: float, margin: float, confidence: float, power: float, known: bool = False) -> str:
    if known:
        return games_against_share(rate_, margin, confidence, power).describe()
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
    options = unique_pairs(option, "--option")
    check_table(game, players, options)
    specs = tournament_specs(game, names, players, games, seed, pairing, options)
    tournament = rate(game, players, _play(specs, jobs, backend, address, game, as_json))
    if as_json:
        print(json.dumps(tournament.to_json(), indent=1))
    else:
        print_tournament(Console(), tournament)
    return tournament


def print_tournament(console: Console, tournament: Tournament) -> None:
    table = new_table(
        f"{tournament.game}, {tournament.players} players: leaderboard (OpenSkill)",
        ("#", "bot", "rating mu ± 2σ", "ordinal", "games", "win rate [95%]"),
    )
    tied = {b.bot for _, b in tournament.unseparated()}
    for place, s in enumerate(tournament.leaderboard(), start=1):
        low, high = s.record.interval
        table.add_row(
            f"{place}=" if s.bot in tied else str(place),
            s.bot,
            f"{s.mu:.2f} ± {2 * s.sigma:.2f}",
            f"{s.ordinal:.2f}",
            f"{s.record.games:,}",
            f"{s.record.rate:.3f} [{low:.3f}, {high:.3f}]",
        )
    console.print(table)
    for line in tournament.separation_lines():
        console.print(f"[bold yellow]{line}[/]" if "not separated" in line else line)
    pairs = new_table(
        "head to head: win share of the first bot at tables with the second",
        ("pair", "games", "win rate [95%]"),
    )
    for row in sorted(tournament.head_to_head.values(), key=lambda r: r.label):
        low, high = row.interval
        pairs.add_row(row.label, f"{row.games:,}", f"{row.rate:.3f} [{low:.3f}, {high:.3f}]")
    console.print(pairs)
    games = max(1, tournament.games)
    console.print(
        "endings: "
        + ", ".join(f"{k} {v:,} ({v / games:.1%})" for k, v in sorted(tournament.endings.items()))
        + f"; shared wins {tournament.ties / games:.1%}, 0-0 {tournament.zero_zero / games:.1%}"
    )
