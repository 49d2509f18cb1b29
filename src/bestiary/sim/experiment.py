"""An experiment: a baseline arm, an optional ``--compare`` arm and ``--sweep`` arms, all played
on the same seeds, with their summaries and paired comparisons against the baseline."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bestiary.sim.arms import Arm, SweepKey, describe_value
from bestiary.sim.paired import Comparison, compare
from bestiary.sim.runner import GameResult, GameSpec
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
    baseline: str  # the baseline's value of the key
    points: list[SweepPoint]


@dataclass
class Experiment:
    games: int
    seeds: tuple[int, ...]
    base: Played
    other: Played | None = None
    paired: Comparison | None = None
    sweeps: list[SweepResult] = field(default_factory=list)

    def arms(self) -> list[Played]:
        """Every distinct arm once (a sweep value equal to the baseline is the baseline)."""
        arms = [self.base] + ([self.other] if self.other else [])
        for sweep in self.sweeps:
            arms += [p.played for p in sweep.points if p.played is not self.base]
        return arms

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"base": self.base.summary.to_json()}
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
        start = describe_value(base.value_of(sweep.key))
        points = []
        for value in sweep.values:
            label = describe_value(value)
            if label == start:
                points.append(SweepPoint(label, played, None))
                continue
            arm = base.changed(sweep.key, value, f"{sweep.key}={label}")
            result = play_arm(arm, games, seeds, play, keep_records)
            paired = compare(played.results, result.results, (base.label, arm.label))
            points.append(SweepPoint(label, result, paired))
        if all(p.paired is not None for p in points):
            points.insert(0, SweepPoint(start, played, None))
        experiment.sweeps.append(SweepResult(sweep.key, start, _in_order(points)))
    return experiment


def _in_order(points: list[SweepPoint]) -> list[SweepPoint]:
    """Numeric settings in increasing order (a plot against them reads left to right)."""
    try:
        return sorted(points, key=lambda p: float(p.value))
    except ValueError:
        return points
