"""Statistics for simulations: Wilson score intervals and sample-size planning.

Win rates from seeded games are binomial proportions; the Wilson interval keeps its coverage
near the nominal level even for rates near 0 or 1 and for small samples, where the textbook
normal interval fails.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist


def z_for(confidence: float) -> float:
    """The two-sided normal quantile for ``confidence`` (0.95 -> 1.95996...).

    >>> round(z_for(0.95), 4)
    1.96
    """
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be between 0 and 1, not {confidence}")
    return NormalDist().inv_cdf(0.5 + confidence / 2.0)


def wilson(successes: float, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval for ``successes`` out of ``trials``.

    ``successes`` may be fractional (a win shared by k players counts 1/k).

    >>> lo, hi = wilson(50, 100)
    >>> round(lo, 4), round(hi, 4)
    (0.4038, 0.5962)
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if trials < 0 or successes < 0 or successes > trials:
        raise ValueError(f"need 0 <= successes <= trials, got {successes} of {trials}")
    if trials == 0:
        return (0.0, 1.0)
    z = z_for(confidence)
    n = float(trials)
    p = successes / n
    denominator = 1.0 + z * z / n
    centre = (p + z * z / (2.0 * n)) / denominator
    half = z * math.sqrt(p * (1.0 - p) / n + z * z / (4.0 * n * n)) / denominator
    # At p = 0 or 1 the exact bound is 0 or 1; rounding must not leave the observed rate outside.
    low = 0.0 if successes == 0 else max(0.0, min(p, centre - half))
    high = 1.0 if successes == trials else min(1.0, max(p, centre + half))
    return (low, high)


@dataclass(frozen=True)
class Plan:
    """How many games each of two bots needs for a difference in win rate to show."""

    rate: float
    margin: float
    confidence: float
    power: float
    games: int

    def describe(self) -> str:
        return (
            f"To tell a win rate of {self.rate:.3f} from {self.rate + self.margin:.3f} "
            f"(margin {self.margin:.3f}) at {self.confidence:.0%} confidence with "
            f"{self.power:.0%} power, play {self.games:,} games per bot "
            f"(each game gives one sample per bot)."
        )


def games_needed(rate: float, margin: float, confidence: float = 0.95, power: float = 0.8) -> Plan:
    """Games per bot for a two-sided two-proportion z-test to detect ``rate`` vs ``rate+margin``.

    The classic formula (Fleiss): n = (z_a sqrt(2 p q) + z_b sqrt(p1 q1 + p2 q2))^2 / d^2
    with p the mean of the two rates.

    >>> games_needed(0.25, 0.05).games
    1251
    """
    if not 0.0 < rate < 1.0:
        raise ValueError(f"the base win rate must be between 0 and 1, not {rate}")
    if margin == 0.0 or not 0.0 < rate + margin < 1.0:
        raise ValueError(f"the margin must be non-zero and keep the rate in (0, 1), not {margin}")
    if not 0.0 < power < 1.0:
        raise ValueError(f"power must be between 0 and 1, not {power}")
    p1, p2 = rate, rate + margin
    mean = (p1 + p2) / 2.0
    z_a = z_for(confidence)
    z_b = NormalDist().inv_cdf(power)
    root = z_a * math.sqrt(2.0 * mean * (1.0 - mean)) + z_b * math.sqrt(
        p1 * (1.0 - p1) + p2 * (1.0 - p2)
    )
    games = math.ceil(root * root / (margin * margin))
    return Plan(rate, abs(margin), confidence, power, games)
