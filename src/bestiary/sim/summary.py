"""Summaries of a run: win rates with Wilson intervals per bot and per seat, scores, lengths."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from statistics import fmean, median
from typing import Any

from bestiary.core.game import get_game
from bestiary.sim.runner import GameResult
from bestiary.sim.stats import wilson


@dataclass
class RateRow:
    """Win share and scores of one bot (or seat) over the seat-games it played."""

    label: str
    games: int = 0
    wins: float = 0.0
    scores: list[int] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    @property
    def mean_score(self) -> float:
        return fmean(self.scores) if self.scores else 0.0

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval
        return {
            "games": self.games,
            "wins": round(self.wins, 6),
            "win_rate": round(self.rate, 6),
            "ci95": [round(low, 6), round(high, 6)],
            "mean_score": round(self.mean_score, 6),
        }


@dataclass
class Summary:
    """Everything ``bestiary sim`` prints, built from results in game order."""

    game: str
    players: int
    games: int = 0
    by_bot: dict[str, RateRow] = field(default_factory=dict)
    by_seat: list[RateRow] = field(default_factory=list)
    lengths: list[int] = field(default_factory=list)
    ticks: list[int] = field(default_factory=list)
    outcomes: dict[str, int] = field(default_factory=dict)
    endings: dict[str, int] = field(default_factory=dict)

    def add(self, result: GameResult) -> None:
        self.games += 1
        if not self.by_seat:
            self.by_seat = [RateRow(f"seat {s + 1}") for s in range(len(result.bots))]
        for seat, bot in enumerate(result.bots):
            share = result.win_share(seat)
            for row in (self.by_bot.setdefault(bot, RateRow(bot)), self.by_seat[seat]):
                row.games += 1
                row.wins += share
                row.scores.append(result.scores[seat])
        self.lengths.append(result.length)
        if result.ticks:
            self.ticks.append(result.ticks)
        for outcome, count in result.outcomes.items():
            self.outcomes[outcome] = self.outcomes.get(outcome, 0) + count
        self.endings[result.ended] = self.endings.get(result.ended, 0) + 1

    @property
    def bots(self) -> list[RateRow]:
        return sorted(self.by_bot.values(), key=lambda row: (-row.rate, row.label))

    def outcome_mix(self) -> dict[str, float]:
        """Share of meetings that were mate / eat / avoid (wild only)."""
        total = sum(self.outcomes.values())
        return {k: v / total for k, v in self.outcomes.items()} if total else {}

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "bots": {row.label: row.to_json() for row in self.bots},
            "seats": {row.label: row.to_json() for row in self.by_seat},
            "length": {
                "mean": round(fmean(self.lengths), 6) if self.lengths else 0.0,
                "median": median(self.lengths) if self.lengths else 0,
            },
            "endings": dict(sorted(self.endings.items())),
        }
        if self.ticks:
            data["ticks"] = {"mean": round(fmean(self.ticks), 6), "median": median(self.ticks)}
        if self.outcomes:
            data["meetings"] = dict(sorted(self.outcomes.items()))
            data["meeting_mix"] = {k: round(v, 6) for k, v in sorted(self.outcome_mix().items())}
        return data


def summarize(game: str, players: int, results: Iterable[GameResult]) -> Summary:
    summary = Summary(game, players)
    for result in results:
        summary.add(result)
    return summary


def length_unit(game: str) -> str:
    """What a game's length counts: a real-time game's actions, a turn-based game's moves."""
    return "actions" if get_game(game).info.real_time else "moves"
