"""Precomputed attack tables, built once per board geometry and movement pattern.

Leapers: a list indexed by square giving the bitboard of destinations.
Riders: for each square a mask of the squares that can block, and a dict from
(occupied & mask) to the attacked squares (every subset enumerated once, carry-rippler style).
Rays in opposite directions (one line) share a table; lines are merged while the table stays small.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from hordes.core.betza import Component, Vector
from hordes.core.geometry import Geometry

Leap = list[int]
MAX_MASK_BITS = 10  # larger merged tables cost more to build than the lookups they save


@dataclass(slots=True)
class Rider:
    masks: list[int]
    attacks: list[dict[int, int]]
    directions: tuple[Vector, ...]
    max_steps: int


def _ray(geo: Geometry, sq: int, d: Vector, max_steps: int) -> list[int]:
    f, r = geo.file_of(sq), geo.rank_of(sq)
    out: list[int] = []
    step = 0
    while True:
        step += 1
        if max_steps and step > max_steps:
            break
        f, r = f + d[0], r + d[1]
        if not geo.on_board(f, r):
            break
        out.append(geo.square(f, r))
    return out


@cache
def leap_table(geo: Geometry, vectors: tuple[Vector, ...]) -> Leap:
    table = []
    for sq in range(geo.size):
        f, r = geo.file_of(sq), geo.rank_of(sq)
        bb = 0
        for dx, dy in vectors:
            if geo.on_board(f + dx, r + dy):
                bb |= 1 << geo.square(f + dx, r + dy)
        table.append(bb)
    return table


@cache
def rider_table(geo: Geometry, directions: tuple[Vector, ...], max_steps: int) -> Rider:
    masks: list[int] = []
    attacks: list[dict[int, int]] = []
    for sq in range(geo.size):
        rays = [_ray(geo, sq, d, max_steps) for d in directions]
        mask = 0
        for ray in rays:
            for s in ray[:-1]:  # the last square of a ray never blocks anything
                mask |= 1 << s
        table: dict[int, int] = {}
        sub = 0
        while True:
            att = 0
            for ray in rays:
                for s in ray:
                    att |= 1 << s
                    if sub >> s & 1:
                        break
            table[sub] = att
            sub = (sub - mask) & mask
            if sub == 0:
                break
        masks.append(mask)
        attacks.append(table)
    return Rider(masks, attacks, directions, max_steps)


def _lines(vectors: tuple[Vector, ...]) -> list[tuple[Vector, ...]]:
    """Group directions into lines: a vector and its opposite travel together."""
    lines: list[tuple[Vector, ...]] = []
    used: set[Vector] = set()
    for v in vectors:
        if v in used:
            continue
        opp = (-v[0], -v[1])
        line = (v, opp) if opp in vectors and opp not in used else (v,)
        used.update(line)
        lines.append(line)
    return lines


def rider_tables(geo: Geometry, vectors: tuple[Vector, ...], max_steps: int) -> list[Rider]:
    """Split a rider's directions into as few tables as stay under MAX_MASK_BITS blockers."""
    groups: list[tuple[Vector, ...]] = []
    for line in _lines(vectors):
        if groups:
            merged = groups[-1] + line
            if _max_mask_bits(geo, merged, max_steps) <= MAX_MASK_BITS:
                groups[-1] = merged
                continue
        groups.append(line)
    return [rider_table(geo, tuple(sorted(g)), max_steps) for g in groups]


def _max_mask_bits(geo: Geometry, directions: tuple[Vector, ...], max_steps: int) -> int:
    best = 0
    for sq in range(geo.size):
        bits = sum(max(0, len(_ray(geo, sq, d, max_steps)) - 1) for d in directions)
        best = max(best, bits)
    return best


@dataclass(slots=True)
class Pattern:
    """Everything one piece kind of one colour can reach with a set of components."""

    leap: Leap | None
    riders: list[Rider]

    def attacks(self, sq: int, occupied: int) -> int:
        bb = self.leap[sq] if self.leap is not None else 0
        for rider in self.riders:
            bb |= rider.attacks[sq][occupied & rider.masks[sq]]
        return bb

    @property
    def empty(self) -> bool:
        return self.leap is None and not self.riders


def build_pattern(geo: Geometry, components: list[Component]) -> Pattern:
    leap_vectors: list[Vector] = []
    riders: list[Rider] = []
    for comp in components:
        if comp.max_steps == 1:
            leap_vectors.extend(v for v in comp.vectors if v not in leap_vectors)
    # Riders of the same range share tables: collect their directions first.
    by_range: dict[int, list[Vector]] = {}
    for comp in components:
        if comp.max_steps != 1:
            vs = by_range.setdefault(comp.max_steps, [])
            vs.extend(v for v in comp.vectors if v not in vs)
    for steps, vs in by_range.items():
        riders.extend(rider_tables(geo, tuple(vs), steps))
    leap = leap_table(geo, tuple(sorted(leap_vectors))) if leap_vectors else None
    return Pattern(leap, riders)


@cache
def between_table(geo: Geometry, directions: frozenset[Vector]) -> dict[int, int]:
    """Squares strictly between a and b (key a * size + b) when b is on a ray from a in these directions."""
    out: dict[int, int] = {}
    for a in range(geo.size):
        for d in directions:
            bb = 0
            for s in _ray(geo, a, d, 0):
                out[a * geo.size + s] = bb
                bb |= 1 << s
    return out
