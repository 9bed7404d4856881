"""Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2013), as pure functions.

A rating is (r, RD, σ) on the Glicko scale: r the strength, RD how uncertain it is, σ how erratic
the player's results are. `update` computes the rating after one rating period from the games of
that period; the site makes every rated game its own period, as lichess does, so a rating moves
after each game. Nothing here touches the database (players.py stores ratings and applies results).

The constants are lichess's: a new player starts at 1500 with RD 500 and σ 0.09, τ is 0.75, and RD
stays between 45 and 500. A rating is provisional (shown with "?") while its RD is over 110.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

SCALE = 173.7178  # Glicko-2's factor between the Glicko scale and its own
BASE = 1500.0
DEFAULT_RD = 500.0
DEFAULT_VOLATILITY = 0.09
TAU = 0.75  # how fast σ may change; Glickman suggests 0.3 .. 1.2
MIN_RD, MAX_RD = 45.0, 500.0
PROVISIONAL_RD = 110.0
EPSILON = 1e-6  # the volatility iteration's tolerance


@dataclass(frozen=True, slots=True)
class Rating:
    rating: float = BASE
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY

    @property
    def provisional(self) -> bool:
        return is_provisional(self.rd)


def is_provisional(rd: float) -> bool:
    return rd > PROVISIONAL_RD


def display(rating: float, rd: float) -> str:
    """The rating as the site shows it: rounded, with "?" while provisional ("1500?", "1732")."""
    return f"{round(rating)}{'?' if is_provisional(rd) else ''}"


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected_score(player: Rating, opponent: Rating) -> float:
    """The score Glicko-2 expects `player` to make against `opponent` (0 .. 1)."""
    return _expected((player.rating - BASE) / SCALE, (opponent.rating - BASE) / SCALE, opponent.rd / SCALE)


def _volatility(delta: float, phi: float, v: float, sigma: float, tau: float) -> float:
    """Step 5 of the paper: the new σ, by the Illinois variant of regula falsi on f(x) = 0."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (
            tau * tau
        )

    lo = a
    if delta * delta > phi * phi + v:
        hi = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        hi = a - k * tau
    f_lo, f_hi = f(lo), f(hi)
    while abs(hi - lo) > EPSILON:
        c = lo + (lo - hi) * f_lo / (f_hi - f_lo)
        f_c = f(c)
        if f_c * f_hi <= 0:
            lo, f_lo = hi, f_hi
        else:
            f_lo /= 2.0
        hi, f_hi = c, f_c
    return math.exp(lo / 2.0)


def update(
    player: Rating,
    games: Iterable[tuple[Rating, float]],
    *,
    tau: float = TAU,
    clamp: tuple[float, float] | None = (MIN_RD, MAX_RD),
) -> Rating:
    """`player`'s rating after one rating period of `games`: (opponent's rating before the period,
    player's score 1 / 0.5 / 0). A period without games only makes the rating less certain.
    `clamp` bounds the new RD (None: the paper's formulas alone, as in its example)."""
    mu, phi, sigma = (player.rating - BASE) / SCALE, player.rd / SCALE, player.volatility
    played = [((o.rating - BASE) / SCALE, o.rd / SCALE, float(s)) for o, s in games]
    for _mu, _phi, s in played:
        if not 0.0 <= s <= 1.0:
            raise ValueError(f"a score is 0, 0.5 or 1, not {s}")
    if not played:
        new_phi, new_mu, new_sigma = math.sqrt(phi * phi + sigma * sigma), mu, sigma
    else:
        v_inv = 0.0
        total = 0.0
        for mu_j, phi_j, s in played:
            e = _expected(mu, mu_j, phi_j)
            g = _g(phi_j)
            v_inv += g * g * e * (1.0 - e)
            total += g * (s - e)
        v = 1.0 / v_inv
        delta = v * total
        new_sigma = _volatility(delta, phi, v, sigma, tau)
        phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
        new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
        new_mu = mu + new_phi * new_phi * total
    rd = new_phi * SCALE
    if clamp is not None:
        rd = max(clamp[0], min(clamp[1], rd))
    return Rating(new_mu * SCALE + BASE, rd, new_sigma)


def after_game(
    white: Rating, black: Rating, white_score: float, *, tau: float = TAU
) -> tuple[Rating, Rating]:
    """Both players' ratings after one rated game between them (each game is a rating period)."""
    return (
        update(white, [(black, white_score)], tau=tau),
        update(black, [(white, 1.0 - white_score)], tau=tau),
    )
