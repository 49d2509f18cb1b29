"""Summaries of a run: win rates with Wilson intervals per bot, per seat and per seat x bot;
how games ended, ties and scoreless games (with warnings in words), the seat test, each bot's
strategy mix, lengths and time per game."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from statistics import fmean, median
from typing import Any

from bestiary.core.game import get_game
from bestiary.sim.runner import GameResult
from bestiary.sim.stats import (
    WORTH_TELLING,
    FairShare,
    MeanInterval,
    WinShare,
    cannot_tell,
    detectable_share,
    fair_share_test,
    mean_interval,
)

# The driver's own stall (the move cap); each game names its own (``GameInfo.analytics.stalls``:
# endings where nobody played the game out, the table stopped it: quiet clock, no moves left).
CAPPED = "capped"
# A result "rests mostly" on stalls or ties past these shares (docs/sim.md, "Warnings").
MOSTLY = 0.5
SCORELESS = 0.25


@dataclass
class RateRow(WinShare):
    """Win share and scores of one bot (or seat) over the seat-games it played."""

    label: str
    games: int = 0
    wins: float = 0.0
    scores: list[int] = field(default_factory=list)
    shares: list[float] = field(default_factory=list)  # per seat-game, in game order
    tie_wins: float = 0.0  # the part of ``wins`` that came from shared wins

    def add(self, share: float, score: int, tie: bool = False) -> None:
        self.games += 1
        self.wins += share
        self.scores.append(score)
        self.shares.append(share)
        if tie:
            self.tie_wins += share

    @property
    def mean_score(self) -> float:
        return fmean(self.scores) if self.scores else 0.0

    @property
    def from_ties(self) -> float:
        """Share of this row's wins that were shared wins."""
        return self.tie_wins / self.wins if self.wins else 0.0

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval
        return {
            "games": self.games,
            "wins": round(self.wins, 6),
            "win_rate": round(self.rate, 6),
            "ci95": [round(low, 6), round(high, 6)],
            "mean_score": round(self.mean_score, 6),
            "wins_from_ties": round(self.from_ties, 6),
        }


@dataclass
class Summary:
    """Everything ``bestiary sim`` prints, built from results in game order."""

    game: str
    players: int
    games: int = 0
    by_bot: dict[str, RateRow] = field(default_factory=dict)
    by_seat: list[RateRow] = field(default_factory=list)
    seat_bot: dict[tuple[int, str], RateRow] = field(default_factory=dict)
    seats_of: dict[str, int] = field(default_factory=dict)  # seats a bot fills per game
    seat_shares: list[tuple[float, ...]] = field(default_factory=list)
    lengths: list[int] = field(default_factory=list)
    ticks: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    outcomes: dict[str, int] = field(default_factory=dict)
    endings: dict[str, int] = field(default_factory=dict)
    ties: int = 0
    zero_zero: int = 0
    strategy: dict[str, Counter[str]] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)  # every option, as the first game had

    def add(self, result: GameResult) -> None:
        self.games += 1
        if self.games == 1:
            self.options = dict(result.options)
        if not self.by_seat:
            self.by_seat = [RateRow(f"seat {s + 1}") for s in range(len(result.bots))]
        shares = tuple(result.win_share(seat) for seat in range(len(result.bots)))
        for seat, bot in enumerate(result.bots):
            rows = (
                self.by_bot.setdefault(bot, RateRow(bot)),
                self.by_seat[seat],
                self.seat_bot.setdefault((seat, bot), RateRow(f"seat {seat + 1} {bot}")),
            )
            for row in rows:
                row.add(shares[seat], result.scores[seat], result.tie)
            if seat < len(result.strategy):
                self.strategy.setdefault(bot, Counter()).update(result.strategy[seat])
        for bot, count in Counter(result.bots).items():
            self.seats_of[bot] = max(self.seats_of.get(bot, 0), count)
        self.seat_shares.append(shares)
        self.lengths.append(result.length)
        if result.ticks:
            self.ticks.append(result.ticks)
        self.seconds.append(result.seconds)
        for outcome, count in result.outcomes.items():
            self.outcomes[outcome] = self.outcomes.get(outcome, 0) + count
        self.endings[result.ended] = self.endings.get(result.ended, 0) + 1
        self.ties += result.tie
        self.zero_zero += result.zero_zero

    @property
    def bots(self) -> list[RateRow]:
        return sorted(self.by_bot.values(), key=lambda row: (-row.rate, row.label))

    def fills_table(self, bot: str) -> bool:
        """The bot sits in every seat of every game: its win rate is 1/players by construction."""
        return self.seats_of.get(bot, 0) == len(self.by_seat) and len(self.by_bot) == 1

    def outcome_mix(self) -> dict[str, float]:
        """Each tally's share of them all (wild: meetings that were mate / eat / avoid)."""
        total = sum(self.outcomes.values())
        return {k: v / total for k, v in self.outcomes.items()} if total else {}

    def share(self, count: int) -> float:
        return count / self.games if self.games else 0.0

    @property
    def stall_endings(self) -> tuple[str, ...]:
        """The game's stall endings in its own words, and the driver's cap."""
        return (*get_game(self.game).info.analytics.stalls, CAPPED)

    @property
    def stalls(self) -> int:
        return sum(self.endings.get(ending, 0) for ending in self.stall_endings)

    def headline_stall(self) -> tuple[str, int]:
        """What the lab shows first of the stalls: a real-time game's own stall (wild's
        Nightfall, its quiet clock), else every stall together."""
        if self.real_time and self.stall_endings[0] != CAPPED:
            first = self.stall_endings[0]
            return first.capitalize(), self.endings.get(first, 0)
        return "stalled", self.stalls

    @property
    def real_time(self) -> bool:
        return bool(self.ticks)

    def honesty(self) -> list[str]:
        """The lines every output shows: stall share (Nightfall always for real-time games),
        ties and scoreless games."""
        lines = []
        label, count = self.headline_stall()
        if label != "stalled":
            lines.append(
                f"{label} ended {count:,} of {self.games:,} games ({self.share(count):.1%})"
            )
        else:
            lines.append(
                f"stalled ({' or '.join(self.stall_endings)}): {count:,} of {self.games:,} games "
                f"({self.share(count):.1%})"
            )
        lines.append(
            f"shared wins (ties): {self.ties:,} ({self.share(self.ties):.1%}); "
            f"nobody scored (0-0): {self.zero_zero:,} ({self.share(self.zero_zero):.1%})"
        )
        return lines

    def warnings(self) -> list[str]:
        """Warnings in words when the win rates rest mostly on stalls, ties or scoreless games."""
        out = []
        if self.share(self.stalls) > MOSTLY:
            seen = ", ".join(k for k in self.stall_endings if self.endings.get(k))
            out.append(
                f"{self.share(self.stalls):.0%} of games ended in a stall "
                f"({seen}), not by play: the win "
                "rates mostly measure who was ahead when the table stopped."
            )
        if self.share(self.ties) > MOSTLY:
            out.append(
                f"{self.share(self.ties):.0%} of games were shared wins: a rate near "
                f"1/{self.players} here says the bots tie, not that they are even."
            )
        if self.share(self.zero_zero) > SCORELESS:
            out.append(
                f"{self.share(self.zero_zero):.0%} of games ended with nobody scoring: those "
                "wins are shared by everyone and say nothing about the bots."
            )
        return out

    def small_sample(self) -> list[str]:
        """ "Cannot tell" for the seat test when it found nothing because the run is small."""
        fair = 1.0 / max(1, len(self.by_seat))
        if self.seat_test().p_value < 0.05 or len(self.by_seat) < 2:
            return []
        smallest = detectable_share(fair, self.games)
        if smallest <= WORTH_TELLING:
            return []
        what = f"between a seat's win rate and its fair share {fair:.3f}"
        return [cannot_tell(self.games, [smallest], what, f"--known --rate {fair:.3f}")]

    def first_minus_last(self) -> MeanInterval:
        """First seat's win share minus the last seat's, per game, with a paired t interval."""
        return mean_interval([shares[0] - shares[-1] for shares in self.seat_shares])

    def seat_test(self) -> FairShare:
        return fair_share_test([row.wins for row in self.by_seat])

    def strategy_rows(self) -> dict[str, dict[str, float]]:
        """Per bot: each count per seat-game, and points per meeting of each play."""
        rows: dict[str, dict[str, float]] = {}
        for bot, counts in sorted(self.strategy.items()):
            seat_games = self.by_bot[bot].games
            row = {f"{k}_per_game": v / seat_games for k, v in counts.items() if "points" not in k}
            for key, value in counts.items():
                if key.startswith("points_"):
                    play = key.removeprefix("points_")
                    row[f"points_per_{play}"] = value / counts[f"play_{play}"]
                if key.startswith("played_") and value:
                    card = key.removeprefix("played_")
                    row[f"no_share_{card}"] = counts[f"refused_{card}"] / value
            if counts.get("calls"):
                row["false_call_share"] = counts["false_calls"] / counts["calls"]
            rows[bot] = {k: round(v, 6) for k, v in sorted(row.items())}
        return rows

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "options": self.options,
            "bots": {
                row.label: {
                    **row.to_json(),
                    "seats_per_game": self.seats_of[row.label],
                    "fills_table": self.fills_table(row.label),
                }
                for row in self.bots
            },
            "seats": {row.label: row.to_json() for row in self.by_seat},
            "seat_by_bot": {row.label: row.to_json() for _, row in sorted(self.seat_bot.items())},
            "seat_test": {
                **self.seat_test().to_json(),
                "first_minus_last": self.first_minus_last().to_json(),
            },
            "length": {
                "mean": round(fmean(self.lengths), 6) if self.lengths else 0.0,
                "median": median(self.lengths) if self.lengths else 0,
            },
            "endings": dict(sorted(self.endings.items())),
            "ending_shares": {k: round(self.share(v), 6) for k, v in sorted(self.endings.items())},
            "ties": self.ties,
            "tie_share": round(self.share(self.ties), 6),
            "zero_zero": self.zero_zero,
            "zero_zero_share": round(self.share(self.zero_zero), 6),
            "warnings": self.warnings(),
            "small_sample": self.small_sample(),
            "strategy": self.strategy_rows(),
            # Wall-clock, so not reproducible: the one key that differs between equal runs.
            "timing": {"seconds_per_game": round(fmean(self.seconds), 6) if self.seconds else 0.0},
        }
        if self.ticks:
            data["ticks"] = {"mean": round(fmean(self.ticks), 6), "median": median(self.ticks)}
            label, count = self.headline_stall()
            if label != "stalled":
                data[f"{label.lower()}_share"] = round(self.share(count), 6)
        if self.outcomes:
            words = get_game(self.game).info.analytics
            data[words.tallies] = dict(sorted(self.outcomes.items()))
            data[words.mix] = {k: round(v, 6) for k, v in sorted(self.outcome_mix().items())}
        return data


def reproducible(data: dict[str, Any]) -> dict[str, Any]:
    """A summary's JSON without its wall-clock part: equal for equal seeds, on any machine."""
    return {k: v for k, v in data.items() if k != "timing"}


def summarize(game: str, players: int, results: Iterable[GameResult]) -> Summary:
    summary = Summary(game, players)
    for result in results:
        summary.add(result)
    return summary


def length_unit(game: str) -> str:
    """What a game's length counts: a real-time game's actions, a turn-based game's moves."""
    return "actions" if get_game(game).info.real_time else "moves"
