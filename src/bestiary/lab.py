"""The balance lab from Python: play seeded bot games and get pandas DataFrames back.

Needs the ``lab`` extra (``pip install 'bestiary[lab]'``: pandas and pyarrow). Everything here is
what ``bestiary sim`` does (docs/sim.md), with the same seeds, so a notebook and the command line
give the same numbers::

    from bestiary import lab

    games = lab.play("wild", ["reader", "hunter"], players=4, games=200, seed=1)
    games.groupby("ending").size()

    run = lab.experiment("wild", ["reader", "honest", "hunter", "trickster"], games=500,
                         compare={"mating_bonus": True})
    lab.paired(run)           # per bot, seat and metric: both arms, difference, 95% interval
    lab.table(run)            # every game of every arm, one row each
    lab.changed(run)          # the games whose winner changed: their seeds, for a replay
    lab.turns(run)            # one row per move: scores, sets, hand sizes
    lab.figures(run)          # the report's figures (a notebook shows them)
    run.base.summary.to_json()

    grid = lab.experiment("critters", ["greedy"], players=2, games=500,
                          grid={"set_size": [3, 4], "hand_limit": [4, 5, 6]})

A custom bot is a ``module:Factory`` name in ``bots`` (``factory(player, rng) -> Agent``), as on
the command line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bestiary.sim.arms import Arm, SweepKey, describe_value
from bestiary.sim.commands import check_arm
from bestiary.sim.experiment import Experiment, run_experiment
from bestiary.sim.frames import frame
from bestiary.sim.paired import Comparison
from bestiary.sim.parallel import run_games
from bestiary.sim.runner import GameResult, GameSpec
from bestiary.sim.table import game_rows
from bestiary.sim.turns import all_turn_rows

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

__all__ = ["Experiment", "changed", "experiment", "figures", "paired", "play", "table", "turns"]


def _player(jobs: int) -> Any:
    def play(specs: Sequence[GameSpec], label: str) -> list[GameResult]:
        return list(run_games(specs, jobs=jobs))

    return play


def experiment(
    game: str,
    bots: Sequence[str],
    players: int = 4,
    games: int = 1000,
    seed: int | Sequence[int] = 1,
    options: Mapping[str, Any] | None = None,
    compare: Mapping[str, Any] | None = None,
    sweep: Mapping[str, Sequence[Any]] | None = None,
    jobs: int = 1,
    grid: Mapping[str, Sequence[Any]] | None = None,
) -> Experiment:
    """Play a baseline, optionally a ``compare`` arm (options changed), one arm per ``sweep``
    value (key -> values; keys as for ``--sweep``: ``players``, ``bots`` with tuples of names,
    or a game option) and one per combination of a two-key ``grid``, all on the same seeds.
    A list of seeds pools runs."""
    base = Arm("base", game, players, tuple(bots), dict(options or {}))
    check_arm(base)
    other = None
    if compare:
        changes = ", ".join(f"{k}={describe_value(v)}" for k, v in compare.items())
        other = Arm(f"compare ({changes})", game, players, tuple(bots), {**base.options, **compare})
        check_arm(other)
    sweeps = [SweepKey(k, tuple(v)) for k, v in (sweep or {}).items()]
    for key in sweeps:
        for value in key.values:
            check_arm(base.changed(key.key, value, key.key))
    pair = None
    if grid:
        if len(grid) != 2:
            raise ValueError(f"a grid needs exactly two keys, not {len(grid)}")
        first, second = (SweepKey(k, tuple(v)) for k, v in grid.items())
        for a in first.values:
            for b in second.values:
                check_arm(base.changed(first.key, a, "grid").changed(second.key, b, "grid"))
        pair = (first, second)
    seeds = [seed] if isinstance(seed, int) else list(seed)
    return run_experiment(base, games, seeds, _player(jobs), other, sweeps, grid=pair)


def play(
    game: str,
    bots: Sequence[str],
    players: int = 4,
    games: int = 1000,
    seed: int = 1,
    options: Mapping[str, Any] | None = None,
    jobs: int = 1,
) -> pd.DataFrame:
    """One row per game (columns: docs/sim.md, "Data out")."""
    return table(experiment(game, bots, players, games, seed, options, jobs=jobs))


def table(run: Experiment) -> pd.DataFrame:
    """Every game of every arm of ``run``, one row each; the ``arm`` column tells them apart."""
    return frame(game_rows((p.arm.label, p.results) for p in run.arms()))


def figures(run: Experiment) -> dict[str, Figure]:
    """The report's figures by section heading (``Win rate per bot``, ``Sweep hand_limit``,
    ...): matplotlib Figures, which a notebook shows inline. A section with nothing to draw
    (a bot in every seat) is left out; ``bestiary.sim.report.report_figures`` says why."""
    from bestiary.sim.report import report_figures

    return {name: f for name, f in report_figures(run) if not isinstance(f, str)}


def turns(run: Experiment) -> pd.DataFrame:
    """One row per move of every game of every arm (columns: ``bestiary.sim.turns``)."""
    specs = ((p.arm.label, p.arm.specs(run.games, run.seeds)) for p in run.arms())
    return frame(all_turn_rows(specs))


def changed(run: Experiment | Comparison) -> pd.DataFrame:
    """The games whose winners changed between the arms: index, seed, and each arm's winners
    (``seat N bot``, ``;``-separated). ``bestiary sim ... --changed DIR`` writes their records."""
    comparison = run.paired if isinstance(run, Experiment) else run
    if comparison is None:
        raise ValueError("this experiment has no compare arm")
    import pandas as pd

    return pd.DataFrame(
        [
            {
                "index": game.index,
                "seed": game.seed,
                "base_winners": ";".join(game.base),
                "other_winners": ";".join(game.other),
            }
            for game in comparison.changed_games
        ],
        columns=["index", "seed", "base_winners", "other_winners"],
    )


def paired(run: Experiment | Comparison) -> pd.DataFrame:
    """The paired comparison as rows: what (bot, seat, score, metric), label, each arm's mean,
    the difference, its 95% interval and how many games changed."""
    comparison = run.paired if isinstance(run, Experiment) else run
    if comparison is None:
        raise ValueError("this experiment has no compare arm")
    rows = []
    for what, group in (
        ("win_rate", comparison.bots),
        ("score", comparison.scores),
        ("seat_win_rate", comparison.seats),
        ("metric", comparison.metrics),
    ):
        for row in group:
            rows.append(
                {
                    "what": what,
                    "label": row.label,
                    "base": row.base.mean,
                    "other": row.other.mean,
                    "difference": row.diff.mean,
                    "low": row.diff.low,
                    "high": row.diff.high,
                    "games": row.diff.n,
                    "games_changed": row.changed,
                }
            )
    import pandas as pd

    return pd.DataFrame(rows)
