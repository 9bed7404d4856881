"""The statistics behind a balance report: Wilson intervals, the score interval, Elo, quantiles."""

from __future__ import annotations

import math

import pytest

from hordes.balance.stats import (
    Z95,
    elo_from_score,
    length_stats,
    quantile,
    score_interval,
    wilson_interval,
)


def test_wilson_interval_matches_a_hand_computation() -> None:
    # Wilson (1927): (p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n), z = 1.959964.
    # 2 of 8: p = 0.25, z²/n = 0.480191; centre = (0.25 + 0.240096) / 1.480191 = 0.331103,
    # half-width = 1.324129 · sqrt(0.0234375 + 0.0150048) = 0.259624 -> [0.071479, 0.590725].
    ci = wilson_interval(2, 8)
    assert ci.low == pytest.approx(0.071479, abs=1e-6)
    assert ci.high == pytest.approx(0.590725, abs=1e-6)
    # 3 of 8, the chess data's Black wins and draws.
    ci = wilson_interval(3, 8)
    assert ci.low == pytest.approx(0.136844, abs=1e-6)
    assert ci.high == pytest.approx(0.694258, abs=1e-6)


def test_wilson_interval_at_the_edges() -> None:
    # 0 of n: [0, z²/(n + z²)]; n of n mirrors it.
    none = wilson_interval(0, 10)
    assert none.low == 0.0
    assert none.high == pytest.approx(Z95**2 / (10 + Z95**2))
    assert none.high == pytest.approx(0.277533, abs=1e-6)
    every = wilson_interval(10, 10)
    assert every.high == 1.0
    assert every.low == pytest.approx(1 - none.high)
    assert wilson_interval(0, 0) == wilson_interval(5, 0)  # nothing known: [0, 1]
    assert (wilson_interval(0, 0).low, wilson_interval(0, 0).high) == (0.0, 1.0)


def test_score_interval_without_draws_is_wilson() -> None:
    for wins, losses in ((0, 7), (3, 4), (9, 1), (12, 0)):
        score = score_interval(wins, 0, losses)
        wilson = wilson_interval(wins, wins + losses)
        assert (score.low, score.high) == pytest.approx((wilson.low, wilson.high), abs=1e-12)


def test_score_interval_bounds_solve_its_defining_equation() -> None:
    # 2 wins, 3 draws, 3 losses: s = 0.4375, d = 0.375; the bounds are the p with
    # n(s - p)² = z²(p(1 - p) - d/4), found by hand at 0.234543 and 0.681008.
    ci = score_interval(2, 3, 3)
    assert ci.low == pytest.approx(0.234543, abs=1e-6)
    assert ci.high == pytest.approx(0.681008, abs=1e-6)
    for p in (ci.low, ci.high):
        assert 8 * (0.4375 - p) ** 2 == pytest.approx(Z95**2 * (p * (1 - p) - 0.375 / 4))
    # Draws narrow the interval: the same score of 0.4375 over 8 games without draws would be
    # 3.5 wins out of 8, a wider Wilson interval.
    no_draws_width = 2 * Z95 / (1 + Z95**2 / 8) * math.sqrt(0.4375 * 0.5625 / 8 + Z95**2 / 256)
    assert ci.high - ci.low < no_draws_width


def test_elo_from_score() -> None:
    assert elo_from_score(0.5) == 0.0
    assert elo_from_score(0.75) == pytest.approx(400 * math.log10(3))  # 190.85
    assert elo_from_score(0.25) == pytest.approx(-400 * math.log10(3))
    assert elo_from_score(1.0) == math.inf
    assert elo_from_score(0.0) == -math.inf


def test_quantiles_interpolate_between_lengths() -> None:
    data = [4, 4, 6, 6, 6, 7, 8, 19]
    assert quantile(data, 0.25) == 5.5  # position 1.75: 4 + 0.75·(6 - 4)
    assert quantile(data, 0.5) == 6.0
    assert quantile(data, 0.75) == 7.25  # position 5.25: 7 + 0.25·(8 - 7)
    assert quantile([9], 0.25) == 9
    stats = length_stats([19, 4, 6, 8, 6, 6, 4, 7])
    assert stats is not None
    assert (stats.count, stats.minimum, stats.maximum, stats.mean) == (8, 4, 19, 7.5)
    assert length_stats([]) is None
    with pytest.raises(ValueError):
        quantile([], 0.5)
