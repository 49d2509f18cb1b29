"""Paired comparisons against a small case worked by hand, and the refusals around them."""

from __future__ import annotations

import math

import pytest

from bestiary.sim.paired import bot_share, compare
from bestiary.sim.runner import GameResult


def _game(index: int, bots: tuple[str, ...], winners: tuple[int, ...], **kw: object) -> GameResult:
    return GameResult(
        index=index,
        seed=100 + index,
        bots=bots,
        winners=winners,
        scores=tuple(kw.get("scores", (1,) * len(bots))),  # type: ignore[arg-type]
        length=10,
        ticks=0,
        outcomes={},
        ended="won",
        tie=len(winners) > 1,
    )


# Four games, two seats; the bots swap seats each game (as the sim seats them).
AB, BA = ("a", "b"), ("b", "a")
BASE = [_game(0, AB, (0,)), _game(1, BA, (0,)), _game(2, AB, (0, 1)), _game(3, BA, (1,))]
OTHER = [_game(0, AB, (1,)), _game(1, BA, (0,)), _game(2, AB, (0,)), _game(3, BA, (0,))]


def test_paired_difference_of_a_bot_matches_the_hand_computation() -> None:
    # a's share per game: base 1, 0, 0.5, 1 ; other 0, 0, 1, 0 -> differences -1, 0, +0.5, -1
    result = compare(BASE, OTHER)
    row = next(r for r in result.bots if r.label == "a")
    assert row.base.mean == pytest.approx(0.625)
    assert row.other.mean == pytest.approx(0.25)
    assert row.diff.mean == pytest.approx(-0.375)
    # sd of (-1, 0, 0.5, -1): mean -0.375, squares 0.390625+0.140625+0.765625+0.390625 = 1.6875
    sd = math.sqrt(1.6875 / 3)
    half = 3.182446305284263 * sd / 2  # t(0.975, 3) * sd / sqrt(4)
    assert row.diff.low == pytest.approx(-0.375 - half)
    assert row.diff.high == pytest.approx(-0.375 + half)
    assert row.changed == 3
    assert result.changed == 3  # game 1 kept its winner
    assert result.same_deals and result.same_seats


def test_seat_rows_pair_the_same_seat() -> None:
    seat1 = compare(BASE, OTHER).seats[0]
    # seat 1 share: base 1, 1, 0.5, 0 ; other 0, 1, 1, 1
    assert seat1.base.mean == pytest.approx(0.625)
    assert seat1.other.mean == pytest.approx(0.75)
    assert seat1.diff.mean == pytest.approx(0.125)


def test_a_bot_in_two_seats_counts_its_mean_share() -> None:
    game = _game(0, ("a", "b", "a"), (2,))
    assert bot_share(game, "a") == pytest.approx(0.5)
    assert bot_share(game, "b") == 0.0
    assert bot_share(game, "c") is None


def test_metrics_pair_ties() -> None:
    tie = next(r for r in compare(BASE, OTHER).metrics if r.label == "tie")
    assert tie.base.mean == pytest.approx(0.25) and tie.other.mean == 0.0
    assert tie.changed == 1


def test_arms_on_other_seeds_are_refused() -> None:
    shifted = [_game(i + 1, g.bots, g.winners) for i, g in enumerate(OTHER)]
    with pytest.raises(ValueError, match="same game seeds"):
        compare(BASE, shifted)
    with pytest.raises(ValueError, match="cannot be paired"):
        compare(BASE, OTHER[:2])
