"""Tournaments: a bot pool plays round-robin or random pairings, rated with OpenSkill.

Games are played by the same seeded, parallel driver as ``bestiary sim``; the ratings are then
updated game by game in game order (Plackett-Luce, which rates multiplayer finishes), so a
tournament's leaderboard is the same whatever the number of jobs.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bestiary.sim.parallel import game_seed
from bestiary.sim.runner import GameResult, GameSpec
from bestiary.sim.stats import MeanInterval, mean_interval
from bestiary.sim.summary import RateRow

PAIRINGS = ("round-robin", "random")

# The one rule for "not separated" (the paired comparison's too: docs/sim.md): two bots are
# separated when the 95% interval of the difference between them excludes 0. Here the
# difference is, game by game at the tables where both sat, the first one's win share minus
# the second's; sharing a table takes the deal and the other seats out of the difference.
SEPARATION_RULE = (
    "neighbours are separated when the 95% interval of the difference of their win shares, "
    "game by game at the tables where both sat, excludes 0"
)


def tournament_specs(
    game: str,
    pool: Sequence[str],
    players: int,
    games: int,
    seed: int,
    pairing: str = "round-robin",
    options: Mapping[str, Any] | None = None,
) -> list[GameSpec]:
    """The games of a tournament.

    round-robin: every table of ``players`` different bots from the pool, each played ``games``
    times with the seats rotated; random: ``games`` tables drawn at random from the pool.
    """
    if pairing not in PAIRINGS:
        raise ValueError(f"unknown pairing {pairing!r}; choose round-robin or random")
    if len(set(pool)) != len(pool):
        raise ValueError("each bot may appear in the pool only once")
    if len(pool) < players:
        raise ValueError(f"a pool of {len(pool)} bots cannot fill a table of {players}")
    if games < 1:
        raise ValueError("--games must be at least 1")
    tables: list[tuple[str, ...]] = []
    if pairing == "round-robin":
        for table in itertools.combinations(pool, players):
            for i in range(games):
                shift = i % players
                tables.append(table[shift:] + table[:shift])
    else:
        for i in range(games):
            tables.append(tuple(random.Random(game_seed(seed, -1 - i)).sample(list(pool), players)))
    return [
        GameSpec(
            index=i, game=game, bots=table, seed=game_seed(seed, i), options=dict(options or {})
        )
        for i, table in enumerate(tables)
    ]


@dataclass
class Standing:
    """One bot's rating (mu, sigma) and record in the tournament."""

    bot: str
    mu: float
    sigma: float
    record: RateRow

    @property
    def ordinal(self) -> float:
        """A conservative skill estimate: mu - 3 sigma (the leaderboard's sort key)."""
        return self.mu - 3.0 * self.sigma

    def to_json(self) -> dict[str, Any]:
        return {
            "bot": self.bot,
            "mu": round(self.mu, 4),
            "sigma": round(self.sigma, 4),
            "ordinal": round(self.ordinal, 4),
            **self.record.to_json(),
        }


@dataclass
class Tournament:
    """Ratings and head-to-head records, updated one game at a time."""

    game: str
    players: int
    games: int = 0
    ratings: dict[str, Any] = field(default_factory=dict)
    records: dict[str, RateRow] = field(default_factory=dict)
    # (bot, opponent) -> row of bot's win share at tables where both sat
    head_to_head: dict[tuple[str, str], RateRow] = field(default_factory=dict)
    # How the games went (what the leaderboard rests on), as in ``bestiary sim``.
    endings: dict[str, int] = field(default_factory=dict)
    ties: int = 0
    zero_zero: int = 0
    # (a, b) with a < b -> a's win share minus b's, per game where both sat
    differences: dict[tuple[str, str], list[float]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        from openskill.models import PlackettLuce

        self.model = PlackettLuce()

    def add(self, result: GameResult) -> None:
        self.games += 1
        self.endings[result.ended] = self.endings.get(result.ended, 0) + 1
        self.ties += result.tie
        self.zero_zero += result.zero_zero
        teams = []
        for bot in result.bots:
            if bot not in self.ratings:
                self.ratings[bot] = self.model.rating(name=bot)
            teams.append([self.ratings[bot]])
        # Winners share first place; everyone else shares second.
        ranks = [1.0 if seat in result.winners else 2.0 for seat in range(len(result.bots))]
        rated = self.model.rate(teams, ranks=ranks)
        for bot, team in zip(result.bots, rated, strict=True):
            self.ratings[bot] = team[0]
        for seat, bot in enumerate(result.bots):
            share = result.win_share(seat)
            score = result.scores[seat]
            self.records.setdefault(bot, RateRow(bot)).add(share, score, result.tie)
            for other in set(result.bots) - {bot}:
                pair = self.head_to_head.setdefault((bot, other), RateRow(f"{bot} vs {other}"))
                pair.add(share, score, result.tie)
        seat_of = {bot: seat for seat, bot in enumerate(result.bots)}
        for a, b in itertools.combinations(sorted(seat_of), 2):
            diff = result.win_share(seat_of[a]) - result.win_share(seat_of[b])
            self.differences.setdefault((a, b), []).append(diff)

    def difference(self, a: str, b: str) -> MeanInterval:
        """``a``'s win share minus ``b``'s at the tables where both sat, with its interval."""
        if a < b:
            return mean_interval(self.differences.get((a, b), []))
        flipped = mean_interval(self.differences.get((b, a), []))
        return MeanInterval(
            flipped.n, -flipped.mean, -flipped.high, -flipped.low, flipped.p_value, flipped.se
        )

    def leaderboard(self) -> list[Standing]:
        standings = [
            Standing(bot, rating.mu, rating.sigma, self.records[bot])
            for bot, rating in self.ratings.items()
        ]
        return sorted(standings, key=lambda s: (-s.ordinal, s.bot))

    def separated(self, a: str, b: str) -> bool:
        """``SEPARATION_RULE``: fewer than two shared games never separate."""
        diff = self.difference(a, b)
        return not math.isnan(diff.low) and not diff.includes_zero()

    def unseparated(self) -> list[tuple[Standing, Standing]]:
        """Neighbours on the leaderboard that ``SEPARATION_RULE`` does not separate: their
        order may be chance."""
        board = self.leaderboard()
        return [(a, b) for a, b in itertools.pairwise(board) if not self.separated(a.bot, b.bot)]

    def separation_lines(self) -> list[str]:
        """The rule, then each pair of neighbours: their difference and whether it separates."""
        places = {s.bot: n for n, s in enumerate(self.leaderboard(), start=1)}
        lines = [f"separation: {SEPARATION_RULE}"]
        for a, b in itertools.pairwise(self.leaderboard()):
            diff = self.difference(a.bot, b.bot)
            said = (
                f"#{places[a.bot]} {a.bot} minus #{places[b.bot]} {b.bot}: {diff.describe()} "
                f"over {diff.n:,} shared games"
            )
            if self.separated(a.bot, b.bot):
                lines.append(f"{said}: separated")
            else:
                lines.append(
                    f"{said}, which includes 0: {a.bot} and {b.bot} are not separated, so their "
                    "order may be chance; more games would tell"
                )
        return lines

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "leaderboard": [s.to_json() for s in self.leaderboard()],
            "not_separated": [[a.bot, b.bot] for a, b in self.unseparated()],
            "separation_rule": SEPARATION_RULE,
            "neighbours": [
                {"pair": [a.bot, b.bot], **self.difference(a.bot, b.bot).to_json()}
                for a, b in itertools.pairwise(self.leaderboard())
            ],
            "endings": dict(sorted(self.endings.items())),
            "tie_share": round(self.ties / self.games, 6) if self.games else 0.0,
            "zero_zero_share": round(self.zero_zero / self.games, 6) if self.games else 0.0,
            "head_to_head": {
                f"{a} vs {b}": row.to_json() for (a, b), row in sorted(self.head_to_head.items())
            },
        }


def rate(game: str, players: int, results: Iterable[GameResult]) -> Tournament:
    tournament = Tournament(game, players)
    for result in results:
        tournament.add(result)
    return tournament
