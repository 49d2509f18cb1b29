"""Paired comparisons: two arms played on the same game seeds, compared game by game.

Game ``i`` of every arm is seeded from ``(seed, i)`` alone, so with the same players the arms
get the same deal, the same seating and the same bot RNGs, and only the changed setting differs.
For each bot, seat and metric the per-game difference (arm minus baseline) is averaged and given
a Student-t interval: the luck of the deal cancels out of each difference, so the interval is
much narrower than two separate intervals would suggest. When the arms cannot share deals (a
different player count, deck or Pack) the same numbers are still valid, only not narrower: the
pairs are then independent draws (``same_deals`` is false: the runner fingerprints each deal).
On the same deals, a comparison in which no bot played any move differently measures scoring
only, and says so (``SCORING_ONLY``).

A bot's per-game value is its mean win share over the seats it fills in that game, so its mean
over games equals its win rate in the summary.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from statistics import fmean
from typing import Any

from bestiary.sim.runner import GameResult
from bestiary.sim.stats import (
    WORTH_TELLING,
    Family,
    MeanInterval,
    cannot_tell,
    family,
    mean_interval,
)


def bot_share(result: GameResult, bot: str) -> float | None:
    """The bot's mean win share over its seats in this game (None if it did not play)."""
    seats = [seat for seat, name in enumerate(result.bots) if name == bot]
    return sum(result.win_share(s) for s in seats) / len(seats) if seats else None


def bot_score(result: GameResult, bot: str) -> float | None:
    seats = [seat for seat, name in enumerate(result.bots) if name == bot]
    return sum(result.scores[s] for s in seats) / len(seats) if seats else None


def game_metrics(result: GameResult) -> dict[str, float]:
    """Per-game numbers a setting can move: length, endings, ties, 0-0, the game's tallies."""
    metrics = {
        "length": float(result.length),
        "tie": float(result.tie),
        "zero_zero": float(result.zero_zero),
        f"ending_{result.ended}": 1.0,
    }
    if result.ticks:
        metrics["ticks"] = float(result.ticks)
    for outcome, count in result.outcomes.items():
        metrics[f"{result.tallies}_{outcome}"] = float(count)
    return metrics


@dataclass(frozen=True)
class PairedRow:
    """One quantity in both arms: each arm's mean, the paired difference and changed games."""

    label: str
    base: MeanInterval
    other: MeanInterval
    diff: MeanInterval
    changed: int
    fixed: bool = False  # a bot in every seat of both arms: 1/players by construction

    def to_json(self) -> dict[str, Any]:
        return {
            "base": self.base.to_json(),
            "other": self.other.to_json(),
            "difference": self.diff.to_json(),
            "games_changed": self.changed,
        }


def paired_row(label: str, pairs: Sequence[tuple[float, float]]) -> PairedRow:
    """Means of both arms and of their per-game difference (other minus base).

    >>> row = paired_row("x", [(0.0, 1.0), (1.0, 1.0), (0.5, 0.0)])
    >>> round(row.diff.mean, 4), row.changed
    (0.1667, 2)
    """
    base = [b for b, _ in pairs]
    other = [o for _, o in pairs]
    return PairedRow(
        label,
        mean_interval(base),
        mean_interval(other),
        mean_interval([o - b for b, o in pairs]),
        sum(1 for b, o in pairs if b != o),
    )


@dataclass(frozen=True)
class ChangedGame:
    """A game whose winners differ between the arms: replay both to see why."""

    index: int
    seed: int
    base: tuple[str, ...]  # the winning seats' bots, "seat N bot"
    other: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "seed": self.seed,
            "base_winners": list(self.base),
            "other_winners": list(self.other),
        }


def moves_differ(a: GameResult, b: GameResult) -> bool:
    """Whether some move differs between two games: a game that only ended sooner (the same
    moves, cut short by an ending rule) played no move differently."""
    common = min(len(a.moves), len(b.moves))
    return a.moves[:common] != b.moves[:common]


SCORING_ONLY = "the bots played the same moves; this measures scoring only"


def _winners(result: GameResult) -> tuple[str, ...]:
    return tuple(f"seat {s + 1} {result.bots[s]}" for s in result.winners)


@dataclass(frozen=True)
class Comparison:
    """Every paired row of two arms, and how many games changed winners at all."""

    base: str
    other: str
    games: int
    same_deals: bool
    same_seats: bool
    changed: int
    moved: int  # games in which some move differs (not only where one arm ended sooner)
    bots: tuple[PairedRow, ...]
    scores: tuple[PairedRow, ...]
    seats: tuple[PairedRow, ...]
    metrics: tuple[PairedRow, ...]
    changed_games: tuple[ChangedGame, ...] = ()

    def family(self) -> tuple[tuple[PairedRow, ...], Family]:
        """The win-rate rows shown together (per bot and per seat) and their multiple-comparison
        facts: how many exclude 0, how many would by chance, which survive Holm."""
        rows = tuple(row for row in (*self.bots, *self.seats) if not row.fixed)
        return rows, family([row.diff for row in rows])

    def unclear(self) -> list[tuple[str, float]]:
        """(label, smallest detectable difference) of the win-rate rows whose intervals include
        0 only because the run is too small to show a difference worth acting on."""
        return [
            (row.label, row.diff.detectable())
            for row in self.family()[0]
            if row.diff.includes_zero() and row.diff.detectable() > WORTH_TELLING
        ]

    def scoring_only(self) -> bool:
        """On the same deals, no bot played a move differently in any game: the comparison
        measures how the games are scored, not how they are played."""
        return self.same_deals and self.games > 0 and self.moved == 0

    def plan_rate(self) -> float:
        """A seat's mean rate is its fair share 1/players: the rate to plan more games around."""
        return fmean(row.base.mean for row in self.seats) if self.seats else 0.5

    def small_sample(self) -> list[str]:
        """ "Cannot tell" for the win-rate differences that the run could not have resolved."""
        unclear = self.unclear()
        if not unclear:
            return []
        names = ", ".join(label for label, _ in unclear)
        return [unclear_line(self.games, [d for _, d in unclear], names, self.plan_rate())]

    def to_json(self) -> dict[str, Any]:
        return {
            "base": self.base,
            "other": self.other,
            "games": self.games,
            "same_deals": self.same_deals,
            "same_seats": self.same_seats,
            "games_with_other_winners": self.changed,
            "games_with_other_moves": self.moved,
            "scoring_only": self.scoring_only(),
            "win_rate": {row.label: row.to_json() for row in self.bots},
            "score": {row.label: row.to_json() for row in self.scores},
            "seat_win_rate": {row.label: row.to_json() for row in self.seats},
            "metrics": {row.label: row.to_json() for row in self.metrics},
            "win_rate_family": self.family()[1].to_json(),
            "changed_games": [game.to_json() for game in self.changed_games],
            "small_sample": self.small_sample(),
        }


def unclear_line(games: int, smallest: Sequence[float], names: str, rate: float) -> str:
    what = f"in win rate ({names}: intervals that include 0)"
    line = cannot_tell(games, smallest, what, f"--rate {rate:.2f}")
    return line + " for unpaired games; paired ones need fewer"


def _per_bot(
    pairs: Sequence[tuple[GameResult, GameResult]],
    value: Callable[[GameResult, str], float | None],
) -> tuple[PairedRow, ...]:
    bots = sorted({bot for a, b in pairs for bot in set(a.bots) & set(b.bots)})
    rows = []
    for bot in bots:
        values = [(value(a, bot), value(b, bot)) for a, b in pairs]
        row = paired_row(bot, [(x, y) for x, y in values if x is not None and y is not None])
        everywhere = all(set(a.bots) == {bot} == set(b.bots) for a, b in pairs)
        rows.append(dataclasses.replace(row, fixed=everywhere and value is bot_share))
    return tuple(rows)


def compare(
    base: Sequence[GameResult],
    other: Sequence[GameResult],
    names: tuple[str, str] = ("base", "other"),
) -> Comparison:
    """Pair game ``i`` of ``base`` with game ``i`` of ``other`` (both from the same run seed)."""
    if len(base) != len(other):
        raise ValueError(f"arms of {len(base)} and {len(other)} games cannot be paired")
    if any(a.seed != b.seed for a, b in zip(base, other, strict=True)):
        raise ValueError("the arms were not played on the same game seeds")
    pairs = list(zip(base, other, strict=True))
    seats = min((min(len(a.bots), len(b.bots)) for a, b in pairs), default=0)
    keys = sorted({k for a, b in pairs for k in (*game_metrics(a), *game_metrics(b))})
    metric_rows = []
    for key in keys:
        values = [(game_metrics(a).get(key, 0.0), game_metrics(b).get(key, 0.0)) for a, b in pairs]
        metric_rows.append(paired_row(key, values))
    return Comparison(
        base=names[0],
        other=names[1],
        games=len(pairs),
        same_deals=all(len(a.bots) == len(b.bots) and a.deal == b.deal for a, b in pairs),
        same_seats=all(a.bots == b.bots for a, b in pairs),
        changed=sum(1 for a, b in pairs if a.winners != b.winners),
        moved=sum(1 for a, b in pairs if moves_differ(a, b)),
        bots=_per_bot(pairs, bot_share),
        scores=_per_bot(pairs, bot_score),
        seats=tuple(
            paired_row(f"seat {s + 1}", [(a.win_share(s), b.win_share(s)) for a, b in pairs])
            for s in range(seats)
        ),
        metrics=tuple(metric_rows),
        changed_games=tuple(
            ChangedGame(a.index, a.seed, _winners(a), _winners(b))
            for a, b in pairs
            if a.winners != b.winners
        ),
    )
