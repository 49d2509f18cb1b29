"""An experiment: a baseline arm, an optional ``--compare`` arm and ``--sweep`` arms, all played
on the same seeds, with their summaries and paired comparisons against the baseline."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bestiary.sim.arms import Arm, SweepKey, describe_value
from bestiary.sim.paired import Comparison, compare, unclear_line
from bestiary.sim.runner import GameResult, GameSpec
from bestiary.sim.settings import decks_of
from bestiary.sim.stats import Family, family
from bestiary.sim.summary import Summary, summarize

# Plays specs and returns their results in order (the CLI adds a progress bar and parallelism).
Player = Callable[[Sequence[GameSpec], str], list[GameResult]]


@dataclass
class Played:
    """One arm, played: its results, their summary, and per seed when seeds were pooled."""

    arm: Arm
    results: list[GameResult]
    summary: Summary
    by_seed: list[tuple[int, Summary]] = field(default_factory=list)


@dataclass
class SweepPoint:
    value: str
    played: Played
    paired: Comparison | None  # None for the baseline's own value


@dataclass
class SweepResult:
    key: str
    baseline: str  # the baseline's value of the key, as played (a default's real value)
    points: list[SweepPoint]
    default: bool = False  # the baseline left the key at the game's default

    def numeric(self) -> list[float] | None:
        """The points' values as numbers, if every one is (a plot then spaces them truly)."""
        try:
            return [float(p.value) for p in self.points]
        except ValueError:
            return None


@dataclass
class GridResult:
    """Every combination of two keys' values, each paired with the baseline."""

    keys: tuple[str, str]
    values: tuple[tuple[str, ...], tuple[str, ...]]
    baseline: tuple[str, str]
    cells: dict[tuple[str, str], SweepPoint]

    def to_json(self) -> dict[str, Any]:
        return {
            "keys": list(self.keys),
            "values": [list(v) for v in self.values],
            "baseline": list(self.baseline),
            "cells": [
                {
                    self.keys[0]: a,
                    self.keys[1]: b,
                    "summary": point.played.summary.to_json(),
                    "paired": point.paired.to_json() if point.paired else None,
                }
                for (a, b), point in self.cells.items()
            ],
        }


@dataclass
class Experiment:
    games: int
    seeds: tuple[int, ...]
    base: Played
    other: Played | None = None
    paired: Comparison | None = None
    sweeps: list[SweepResult] = field(default_factory=list)
    grid: GridResult | None = None

    def arms(self) -> list[Played]:
        """Every distinct arm once (a sweep value equal to the baseline is the baseline)."""
        arms = [self.base] + ([self.other] if self.other else [])
        for sweep in self.sweeps:
            arms += [p.played for p in sweep.points if p.played is not self.base]
        if self.grid is not None:
            arms += [p.played for p in self.grid.cells.values() if p.played is not self.base]
        return arms

    def decks(self) -> dict[str, dict[str, Any]]:
        """Each deck the run played, once: ``{hash: {"name", "content"}}``."""
        found: dict[str, dict[str, Any]] = {}
        for played in self.arms():
            found.update(decks_of(played.arm.game, played.arm.options))
        return found

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"base": self.base.summary.to_json()}
        if decks := self.decks():
            data["decks"] = decks
        if len(self.seeds) > 1:
            data["seeds"] = list(self.seeds)
            data["by_seed"] = {str(s): summ.to_json() for s, summ in self.base.by_seed}
        if self.other is not None and self.paired is not None:
            data["compare"] = self.other.summary.to_json()
            data["paired"] = self.paired.to_json()
        if self.sweeps:
            data["sweeps"] = {
                sweep.key: {
                    "baseline": sweep.baseline,
                    "points": [
                        {
                            "value": point.value,
                            "summary": point.played.summary.to_json(),
                            "paired": point.paired.to_json() if point.paired else None,
                        }
                        for point in sweep.points
                    ],
                }
                for sweep in self.sweeps
            }
        if self.grid is not None:
            data["grid"] = self.grid.to_json()
        return data


def play_arm(arm: Arm, games: int, seeds: Sequence[int], play: Player, keep: bool) -> Played:
    results = play(arm.specs(games, seeds, keep_record=keep), arm.label)
    summary = summarize(arm.game, arm.players, results)
    by_seed = []
    if len(seeds) > 1:
        for k, seed in enumerate(seeds):
            part = results[k * games : (k + 1) * games]
            by_seed.append((seed, summarize(arm.game, arm.players, part)))
    return Played(arm, results, summary, by_seed)


def run_experiment(
    base: Arm,
    games: int,
    seeds: Sequence[int],
    play: Player,
    other: Arm | None = None,
    sweeps: Sequence[SweepKey] = (),
    keep_records: bool = False,
    grid: tuple[SweepKey, SweepKey] | None = None,
) -> Experiment:
    """Play every arm on the same seeds and pair each with the baseline."""
    played = play_arm(base, games, seeds, play, keep_records)
    experiment = Experiment(games, tuple(seeds), played)
    if other is not None:
        experiment.other = play_arm(other, games, seeds, play, keep_records)
        experiment.paired = compare(
            played.results, experiment.other.results, (base.label, other.label)
        )
    for sweep in sweeps:
        start = baseline_value(played, sweep.key)
        points = []
        for value in sweep.values:
            label = describe_value(value)
            if label == start:
                points.append(SweepPoint(label, played, None))
                continue
            arm = base.changed(sweep.key, value, f"{sweep.key}={label}")
            points.append(_point(played, arm, label, games, seeds, play, keep_records))
        if all(p.paired is not None for p in points):
            points.insert(0, SweepPoint(start, played, None))
        default = sweep.key not in base.options and sweep.key not in ("players", "bots")
        experiment.sweeps.append(SweepResult(sweep.key, start, _in_order(points), default))
    if grid is not None:
        experiment.grid = _grid(played, grid, games, seeds, play, keep_records)
    return experiment


def baseline_value(played: Played, key: str) -> str:
    """The baseline's value of ``key`` as the games were played: an option left at a default
    of "none" (critters' ``hand_limit``) shows the value the rules used (5), a deck its name."""
    if key in played.summary.options:
        return describe_value(played.summary.options[key])
    return describe_value(played.arm.value_of(key))


def _point(
    base: Played,
    arm: Arm,
    label: str,
    games: int,
    seeds: Sequence[int],
    play: Player,
    keep: bool,
) -> SweepPoint:
    result = play_arm(arm, games, seeds, play, keep)
    return SweepPoint(
        label, result, compare(base.results, result.results, (base.arm.label, arm.label))
    )


def _grid(
    played: Played,
    keys: tuple[SweepKey, SweepKey],
    games: int,
    seeds: Sequence[int],
    play: Player,
    keep: bool,
) -> GridResult:
    first, second = keys
    start = (baseline_value(played, first.key), baseline_value(played, second.key))
    cells: dict[tuple[str, str], SweepPoint] = {}
    for a in first.values:
        for b in second.values:
            label = (describe_value(a), describe_value(b))
            if label == start:
                cells[label] = SweepPoint(f"{label[0]}, {label[1]}", played, None)
                continue
            name = f"{first.key}={label[0]},{second.key}={label[1]}"
            arm = played.arm.changed(first.key, a, name).changed(second.key, b, name)
            cells[label] = _point(played, arm, f"{label[0]}, {label[1]}", games, seeds, play, keep)
    values = (
        tuple(describe_value(v) for v in first.values),
        tuple(describe_value(v) for v in second.values),
    )
    return GridResult((first.key, second.key), values, start, cells)


def _in_order(points: list[SweepPoint]) -> list[SweepPoint]:
    """Numeric settings in increasing order (a plot against them reads left to right)."""
    try:
        return sorted(points, key=lambda p: float(p.value))
    except ValueError:
        return points


def sweep_family(points: Sequence[SweepPoint]) -> tuple[dict[tuple[str, str], bool], Family]:
    """Every win-rate difference a sweep (or grid) shows, as one family: which survive Holm."""
    keyed = [
        ((p.value, row.label), row.diff)
        for p in points
        if p.paired is not None
        for row in p.paired.family()[0]
    ]
    facts = family([diff for _, diff in keyed])
    return {key: kept for (key, _), kept in zip(keyed, facts.survivors, strict=True)}, facts


def sweep_small_sample(points: Sequence[SweepPoint]) -> list[str]:
    """One "cannot tell" for every point of a sweep or grid whose differences were unclear."""
    unclear = [(p, p.paired.unclear()) for p in points if p.paired is not None]
    unclear = [(p, rows) for p, rows in unclear if rows]
    if not unclear:
        return []
    first = unclear[0][0].paired
    assert first is not None
    names = "; ".join(
        f"at {p.value}: {', '.join(label for label, _ in rows)}" for p, rows in unclear
    )
    sizes = [d for _, rows in unclear for _, d in rows]
    return [unclear_line(first.games, sizes, names, first.plan_rate())]
