"""The statistics of a balance report: confidence intervals, Elo equivalents and length quantiles.

Every interval is a 95 % interval. Rates (White wins, Black wins, draws) use the Wilson score interval,
which unlike the textbook p ± z·sqrt(p(1-p)/n) stays inside [0, 1] and behaves for small samples and
for rates of 0 or 1. White's score gets the same construction with the variance of a game that can be
drawn (see `score_interval`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from hordes.engine.match import elo_from_score as match_elo

# The 97.5th percentile of the standard normal distribution: a two-sided 95 % interval.
Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class Interval:
    low: float
    high: float


@dataclass(frozen=True, slots=True)
class Rate:
    """`count` out of `total`, its proportion and the proportion's Wilson interval."""

    count: int
    total: int
    ci: Interval

    @property
    def value(self) -> float:
        return self.count / self.total if self.total else 0.0


def wilson_interval(count: int, total: int, z: float = Z95) -> Interval:
    """The Wilson score interval of a binomial proportion count/total.

    With p = count/total: (p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n).
    No games: the whole of [0, 1], since nothing is known.
    """
    if total <= 0:
        return Interval(0.0, 1.0)
    p = count / total
    z2 = z * z
    denominator = 1 + z2 / total
    centre = (p + z2 / (2 * total)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / total + z2 / (4 * total * total))
    # At p = 0 or 1 a bound is exactly 0 or 1; say so rather than trust the rounding.
    low = 0.0 if count <= 0 else max(0.0, centre - half)
    high = 1.0 if count >= total else min(1.0, centre + half)
    return Interval(low, high)


def rate(count: int, total: int) -> Rate:
    return Rate(count, total, wilson_interval(count, total))


def score_interval(wins: int, draws: int, losses: int, z: float = Z95) -> Interval:
    """A Wilson-type interval for the expected score of a game that can be won, drawn or lost.

    A game scores 1, 1/2 or 0. With expected score p and draw rate d its variance is
    p(1-p) - d/4, less than a coin's p(1-p) because a draw is half-way. Wilson's construction keeps
    the p that satisfy (s - p)² ≤ z²·(p(1-p) - d/4)/n for the observed score s (d held at its
    observed value); solving that quadratic in p gives the bounds. Without draws this is exactly the
    Wilson score interval of wins out of n.
    """
    n = wins + draws + losses
    if n == 0:
        return Interval(0.0, 1.0)
    s = (wins + draws / 2) / n
    d = draws / n
    z2 = z * z
    # (n + z²)p² - (2ns + z²)p + (ns² + z²d/4) ≤ 0
    a = n + z2
    b = 2 * n * s + z2
    c = n * s * s + z2 * d / 4
    root = math.sqrt(max(0.0, b * b - 4 * a * c))  # never negative but for rounding: s(1-s) ≥ d/4
    low = 0.0 if s <= 0 else max(0.0, (b - root) / (2 * a))
    high = 1.0 if s >= 1 else min(1.0, (b + root) / (2 * a))
    return Interval(low, high)


def elo_from_score(score: float) -> float:
    """The rating difference that gives this expected score in the Elo model (±inf at 1 and 0)."""
    if score >= 1.0:
        return math.inf
    if score <= 0.0:
        return -math.inf
    return match_elo(score)  # the match's conversion, which clamps at the edges instead


@dataclass(frozen=True, slots=True)
class LengthStats:
    """The distribution of game lengths in plies. Quartiles interpolate linearly between lengths."""

    count: int
    minimum: int
    q1: float
    median: float
    q3: float
    mean: float
    maximum: int


def quantile(ordered: Sequence[int], q: float) -> float:
    """The q-quantile of sorted data, interpolating at position q·(n-1) (numpy's default method)."""
    if not ordered:
        raise ValueError("quantile of no data")
    position = q * (len(ordered) - 1)
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (ordered[above] - ordered[below]) * (position - below)


def length_stats(lengths: Sequence[int]) -> LengthStats | None:
    """Summary of the lengths, or None when there are none."""
    if not lengths:
        return None
    ordered = sorted(lengths)
    return LengthStats(
        count=len(ordered),
        minimum=ordered[0],
        q1=quantile(ordered, 0.25),
        median=quantile(ordered, 0.5),
        q3=quantile(ordered, 0.75),
        mean=sum(ordered) / len(ordered),
        maximum=ordered[-1],
    )
