"""Wilson intervals and sample-size planning against known values."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bestiary.sim.stats import games_needed, wilson, z_for


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [
        (81, 263, 0.2553, 0.3662),  # Wilson (1927) worked example, as in Newcombe (1998)
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (50, 100, 0.4038, 0.5962),
        (1, 20, 0.0089, 0.2361),
    ],
)
def test_wilson_matches_published_values(
    successes: int, trials: int, low: float, high: float
) -> None:
    lo, hi = wilson(successes, trials)
    assert lo == pytest.approx(low, abs=1e-4)
    assert hi == pytest.approx(high, abs=1e-4)


def test_wilson_99_percent_is_wider() -> None:
    lo95, hi95 = wilson(30, 100)
    lo99, hi99 = wilson(30, 100, confidence=0.99)
    assert lo99 < lo95 and hi99 > hi95


def test_no_trials_means_no_knowledge() -> None:
    assert wilson(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize(("successes", "trials"), [(-1, 10), (11, 10), (1, -1)])
def test_impossible_counts_are_refused(successes: int, trials: int) -> None:
    with pytest.raises(ValueError, match="successes"):
        wilson(successes, trials)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 10_000), st.floats(0, 1))
def test_interval_holds_the_observed_rate(trials: int, fraction: float) -> None:
    successes = round(trials * fraction, 3)
    lo, hi = wilson(successes, trials)
    assert 0.0 <= lo <= successes / trials <= hi <= 1.0


def test_z_quantiles() -> None:
    assert z_for(0.95) == pytest.approx(1.959964, abs=1e-6)
    assert z_for(0.99) == pytest.approx(2.575829, abs=1e-6)
    with pytest.raises(ValueError):
        z_for(1.0)


def test_games_needed_known_value() -> None:
    # Fleiss' formula for 0.25 vs 0.30 at alpha 0.05 (two-sided) and 80% power.
    plan = games_needed(0.25, 0.05)
    assert plan.games == 1251
    assert "1,251 games per bot" in plan.describe()


def test_smaller_margins_need_more_games() -> None:
    assert games_needed(0.5, 0.02).games > games_needed(0.5, 0.05).games > 0
    assert games_needed(0.5, 0.05, power=0.9).games > games_needed(0.5, 0.05).games


@pytest.mark.parametrize(("rate", "margin"), [(0.0, 0.1), (0.5, 0.0), (0.9, 0.2)])
def test_bad_plans_are_refused(rate: float, margin: float) -> None:
    with pytest.raises(ValueError):
        games_needed(rate, margin)
