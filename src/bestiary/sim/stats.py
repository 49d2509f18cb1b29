"""Statistics for simulations: Wilson score intervals and sample-size planning.

Win rates from seeded games are binomial proportions; the Wilson interval keeps its coverage
near the nominal level even for rates near 0 or 1 and for small samples, where the textbook
normal interval fails.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any


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


class WinShare:
    """A win share over games (``wins`` may be fractional: a shared win counts 1/k): its rate
    and its Wilson interval. Subclasses hold ``wins`` and ``games``."""

    wins: float
    games: int

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)


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


@dataclass(frozen=True)
class MeanInterval:
    """A mean of per-game values with its two-sided t interval (NaN bounds for fewer than 2)."""

    n: int
    mean: float
    low: float
    high: float
    # Two-sided t-test of "the mean is 0" and the standard error (NaN for fewer than 2 values).
    p_value: float = math.nan
    se: float = math.nan

    def to_json(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "mean": round(self.mean, 6),
            "ci95": [_finite(self.low), _finite(self.high)],
            "p_value": _finite(self.p_value),
        }

    def plain(self, digits: int = 1) -> str:
        """``111.0 [109.2, 112.8]``: a mean (not a difference) with its interval."""
        if math.isnan(self.low):
            return f"{self.mean:.{digits}f} [n<2]"
        return f"{self.mean:.{digits}f} [{self.low:.{digits}f}, {self.high:.{digits}f}]"

    def includes_zero(self) -> bool:
        return not math.isnan(self.low) and self.low <= 0.0 <= self.high

    def detectable(self, confidence: float = 0.95, power: float = 0.8) -> float:
        """The smallest true mean this sample would show with ``power`` (normal approximation:
        (z_a + z_b) standard errors); NaN for fewer than 2 values."""
        return (z_for(confidence) + NormalDist().inv_cdf(power)) * self.se

    def describe(self, scale: float = 1.0, digits: int = 3) -> str:
        """``+0.012 [-0.003, +0.027]`` (times ``scale``, e.g. 100 for points)."""
        if math.isnan(self.low):
            return f"{self.mean * scale:+.{digits}f} [n<2]"
        return (
            f"{self.mean * scale:+.{digits}f} "
            f"[{self.low * scale:+.{digits}f}, {self.high * scale:+.{digits}f}]"
        )


def _finite(value: float) -> float | None:
    return None if math.isnan(value) else round(value, 6)


def mean_interval(values: Sequence[float], confidence: float = 0.95) -> MeanInterval:
    """The mean and Student-t interval of ``values`` (for paired differences, the differences).

    >>> m = mean_interval([1.0, 2.0, 3.0])
    >>> m.mean, round(m.low, 4), round(m.high, 4)
    (2.0, -0.4841, 4.4841)
    """
    n = len(values)
    if n == 0:
        return MeanInterval(0, 0.0, math.nan, math.nan)
    mean = math.fsum(values) / n
    if n < 2:
        return MeanInterval(n, mean, math.nan, math.nan)
    variance = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    from scipy.stats import t

    se = math.sqrt(variance / n)
    half = float(t.ppf(0.5 + confidence / 2.0, n - 1)) * se
    # Every value the same (se 0): p is 1 if they are all 0, and 0 if they are not.
    p_value = float(2.0 * t.sf(abs(mean) / se, n - 1)) if se > 0.0 else float(mean == 0.0)
    return MeanInterval(n, mean, mean - half, mean + half, p_value, se)


@dataclass(frozen=True)
class FairShare:
    """Pearson's chi-square test that every seat wins 1/seats of the games."""

    wins: tuple[float, ...]
    statistic: float
    p_value: float

    def describe(self) -> str:
        verdict = "rejected" if self.p_value < 0.05 else "not rejected"
        return (
            f"every seat wins its fair share: chi-square {self.statistic:.2f} on "
            f"{len(self.wins) - 1} df, p = {self.p_value:.3g} ({verdict} at 5%)"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "chi_square": round(self.statistic, 6),
            "df": len(self.wins) - 1,
            "p_value": self.p_value,
        }


def fair_share_test(wins: Sequence[float]) -> FairShare:
    """Chi-square goodness of fit of seat wins (shared wins split) against equal shares.

    >>> round(fair_share_test([60, 40]).statistic, 3), round(fair_share_test([60, 40]).p_value, 4)
    (4.0, 0.0455)
    """
    total = math.fsum(wins)
    if len(wins) < 2 or total <= 0:
        return FairShare(tuple(wins), 0.0, 1.0)
    expected = total / len(wins)
    statistic = math.fsum((w - expected) ** 2 / expected for w in wins)
    from scipy.stats import chi2

    return FairShare(tuple(wins), statistic, float(chi2.sf(statistic, len(wins) - 1)))


@dataclass(frozen=True)
class OnePlan:
    """How many games one rate needs to be told from a known share (say, a seat's 1/players)."""

    share: float
    margin: float
    confidence: float
    power: float
    games: int

    def describe(self) -> str:
        return (
            f"To tell a rate of {self.share + self.margin:.3f} from the known share "
            f"{self.share:.3f} at {self.confidence:.0%} confidence with {self.power:.0%} power, "
            f"play {self.games:,} games (one-sample test of a proportion)."
        )


def games_against_share(
    share: float, margin: float, confidence: float = 0.95, power: float = 0.8
) -> OnePlan:
    """Games for a two-sided one-sample z-test of ``share`` against ``share + margin``.

    n = (z_a sqrt(p0 q0) + z_b sqrt(p1 q1))^2 / d^2

    >>> games_against_share(0.5, 0.05).games
    783
    """
    p0, p1 = share, share + margin
    if not 0.0 < p0 < 1.0:
        raise ValueError(f"the known share must be between 0 and 1, not {share}")
    if margin == 0.0 or not 0.0 < p1 < 1.0:
        raise ValueError(f"the margin must be non-zero and keep the rate in (0, 1), not {margin}")
    if not 0.0 < power < 1.0:
        raise ValueError(f"power must be between 0 and 1, not {power}")
    z_a = z_for(confidence)
    z_b = NormalDist().inv_cdf(power)
    root = z_a * math.sqrt(p0 * (1.0 - p0)) + z_b * math.sqrt(p1 * (1.0 - p1))
    return OnePlan(share, abs(margin), confidence, power, math.ceil(root * root / margin**2))


def detectable_share(
    share: float, games: int, confidence: float = 0.95, power: float = 0.8
) -> float:
    """The smallest departure from a known ``share`` that ``games`` games detect with ``power``
    (the inverse of ``games_against_share``, upwards: the harder side).

    >>> round(detectable_share(0.5, 40), 3), round(detectable_share(0.5, 783), 3)
    (0.215, 0.05)
    """
    if games < 1:
        return 1.0 - share
    low, high = 0.0, 1.0 - share
    if games_against_share(share, high * 0.999999, confidence, power).games > games:
        return high
    for _ in range(60):
        middle = (low + high) / 2.0
        if middle <= 0.0:
            break
        if games_against_share(share, middle, confidence, power).games <= games:
            high = middle
        else:
            low = middle
    return high


def holm(p_values: Sequence[float], alpha: float = 0.05) -> list[bool]:
    """Holm's step-down correction: which of many tests still reject at family level ``alpha``.

    >>> holm([0.01, 0.04, 0.03, 0.5])
    [True, False, False, False]
    >>> holm([0.001, 0.01, 0.02])
    [True, True, True]
    """
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    keep = [False] * len(p_values)
    for rank, i in enumerate(order):
        if math.isnan(p_values[i]) or p_values[i] > alpha / (len(p_values) - rank):
            break
        keep[i] = True
    return keep


@dataclass(frozen=True)
class Family:
    """Many intervals shown at once: how many exclude zero, how many would by chance alone,
    and which survive Holm's correction."""

    size: int
    excluding: int
    survivors: tuple[bool, ...]
    confidence: float = 0.95

    @property
    def by_chance(self) -> float:
        return self.size * (1.0 - self.confidence)

    def describe(self) -> str:
        kept = sum(self.survivors)
        return (
            f"{self.size} intervals at {self.confidence:.0%}: about {self.by_chance:.1f} would "
            f"exclude 0 by chance alone; {self.excluding} do, {kept} of them survive Holm's "
            "correction for the whole family (marked *)"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "intervals": self.size,
            "excluding_zero": self.excluding,
            "expected_by_chance": round(self.by_chance, 6),
            "holm_survivors": sum(self.survivors),
        }


def family(intervals: Sequence[MeanInterval], confidence: float = 0.95) -> Family:
    """The multiple-comparison facts of ``intervals`` (differences, each tested against 0)."""
    excluding = sum(1 for m in intervals if not math.isnan(m.low) and not m.includes_zero())
    survivors = holm([m.p_value for m in intervals], 1.0 - confidence)
    return Family(len(intervals), excluding, tuple(survivors), confidence)


# A difference in win rate a designer would act on (``--plan``'s default margin): a null
# result says "cannot tell" when the run could not have detected a difference this large.
WORTH_TELLING = 0.05


def cannot_tell(games: int, smallest: Sequence[float], what: str, plan: str) -> str:
    """The sentence for a null result that the sample could not have turned into a finding
    (``smallest``: the detectable difference of each quantity it covers).

    >>> cannot_tell(40, [0.215], "from the fair share 0.500", "--known --rate 0.5")[:56]
    'cannot tell at n = 40: the smallest difference this run '
    """
    low, high = min(smallest), max(smallest)
    span = f"{low:.3f}" if round(low, 3) == round(high, 3) else f"{low:.3f} to {high:.3f}"
    return (
        f"cannot tell at n = {games:,}: the smallest difference this run can detect is "
        f"{span} {what} (80% power, 95% confidence); "
        f"`bestiary sim --plan {plan} --margin {WORTH_TELLING}` says how many games "
        f"a difference of {WORTH_TELLING} needs"
    )
