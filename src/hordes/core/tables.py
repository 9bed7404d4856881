"""Precomputed attack tables, built once per board geometry and movement pattern.

Leapers: a list indexed by square giving the bitboard of destinations.
Riders, two ways:
- subset tables (`Rider`): for each square a mask of the squares that can block, and a dict from
  (occupied & mask) to the attacked squares (every subset enumerated once, carry-rippler style). Rays
  in opposite directions (one line) share a table; lines are merged while the table stays small.
  The fastest lookup, but a line with n blocking squares needs 2**n entries per square.
- ray scans (`Slider`): for each ray and square the squares of the ray; the first blocker is the
  lowest (or highest) occupied bit of the ray, so the attacks are found with a few integer operations
  per ray and the memory is linear in the board. Used for lines too long for a table (every board
  above 12×12 has some) and once a variant's tables would pass TABLE_BUDGET.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Final

from hordes.core.betza import Component, Vector
from hordes.core.geometry import Geometry

Leap = list[int]
MAX_MASK_BITS: Final = 10  # larger merged tables cost more to build than the lookups they save
# Estimated bytes of subset tables one variant may hold; past it, lines are scanned ray by ray. An
# every-rider document fits on 10×10, so the usual boards keep their tables (docs/benchmarks.md).
TABLE_BUDGET: Final = 32 * 2**20


@dataclass(slots=True)
class Rider:
    masks: list[int]
    attacks: list[dict[int, int]]
    directions: tuple[Vector, ...]
    max_steps: int
    empty: list[int]  # [square] attacks on an empty board

    def expr(self, name: str, env: dict[str, object]) -> str:
        """Source text for the attacks from `sq` given `occupied`; the tables go into env."""
        env[f"{name}A"] = self.attacks
        env[f"{name}M"] = self.masks
        return f"{name}A[sq][occupied & {name}M[sq]]"


SlideFn = Callable[[int, int], int]  # (square, occupied) -> attacked squares


@dataclass(slots=True)
class Slider:
    """Riding moves found by scanning each ray (see the module docstring)."""

    up: list[list[int]]  # [ray][square] the squares of a ray running towards higher square numbers
    down: list[list[int]]  # [ray][square] the same towards lower square numbers
    directions: tuple[Vector, ...]
    max_steps: int
    empty: list[int]  # [square] attacks on an empty board
    attacks: SlideFn = field(init=False)

    def __post_init__(self) -> None:
        # Straight-line source over the rays, the ray lists as default arguments (local lookups).
        env: dict[str, object] = {}
        body = ["    att = 0"]
        for j, ray in enumerate(self.up):
            env[f"U{j}"] = ray
            # The nearest blocker is the lowest occupied bit: keep the ray up to it (all of it when
            # nothing blocks: 0 * 2 - 1 is -1).
            body += [f"    r = U{j}[sq]", "    b = occupied & r", "    att |= r & ((b & -b) * 2 - 1)"]
        for j, ray in enumerate(self.down):
            env[f"D{j}"] = ray
            # The nearest blocker is the highest occupied bit: keep the squares of the ray from it
            # on (all of them when nothing blocks: | 1 makes that bit 0).
            body += [f"    r = D{j}[sq]", "    s = (occupied & r | 1).bit_length() - 1"]
            body.append("    att |= r >> s << s")
        body.append("    return att")
        names = "".join(f", {k}={k}" for k in env)
        scope: dict[str, object] = dict(env)
        exec("\n".join([f"def slide(sq, occupied{names}):", *body]), scope)
        self.attacks = scope["slide"]  # type: ignore[assignment]

    def expr(self, name: str, env: dict[str, object]) -> str:
        env[f"{name}S"] = self.attacks
        return f"{name}S(sq, occupied)"


AnyRider = Rider | Slider


@cache
def _board_lines(geo: Geometry, d: Vector) -> list[list[int]]:
    """Every line of the board in direction d: its squares in walking order."""
    lines = []
    for sq in range(geo.size):
        f, r = geo.file_of(sq), geo.rank_of(sq)
        if geo.on_board(f - d[0], r - d[1]):
            continue  # not where a line starts
        line = []
        while geo.on_board(f, r):
            line.append(geo.square(f, r))
            f, r = f + d[0], r + d[1]
        lines.append(line)
    return lines


@cache
def _rays(geo: Geometry, d: Vector, max_steps: int) -> list[list[int]]:
    """[square] the squares from it in direction d, nearest first, at most max_steps (0: no limit).
    Shared lists: callers do not change them."""
    out: list[list[int]] = [[] for _ in range(geo.size)]
    for line in _board_lines(geo, d):
        for i, sq in enumerate(line):
            out[sq] = line[i + 1 : i + 1 + max_steps] if max_steps else line[i + 1 :]
    return out


def _ray(geo: Geometry, sq: int, d: Vector, max_steps: int) -> list[int]:
    return _rays(geo, d, max_steps)[sq]


@cache
def _ray_masks(geo: Geometry, d: Vector, max_steps: int) -> list[int]:
    """[square] the bitboard of its ray, from the ORs of the prefixes of each line."""
    out = [0] * geo.size
    for line in _board_lines(geo, d):
        prefix = [0]
        for sq in line:
            prefix.append(prefix[-1] | 1 << sq)
        n = len(line)
        for i, sq in enumerate(line):
            out[sq] = prefix[min(n, i + 1 + max_steps) if max_steps else n] ^ prefix[i + 1]
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


def _subsets(mask: int) -> list[int]:
    """Every subset of a bitboard, 0 first (carry-rippler)."""
    out = [0]
    sub = (0 - mask) & mask
    while sub:
        out.append(sub)
        sub = (sub - mask) & mask
    return out


def _ray_table(ray: list[int]) -> dict[int, int]:
    """For one ray: each set of blockers on it (all squares but the last can block) -> the squares
    attacked, which are those up to the nearest blocker."""
    bits = [1 << s for s in ray]
    attacked = bits[0]
    behind = sum(bits[1:-1])  # blocking squares beyond the current one
    out = {0: sum(bits)}
    for i in range(len(ray) - 1):
        out.update(dict.fromkeys([bits[i] | sub for sub in _subsets(behind)], attacked))
        attacked |= bits[i + 1]
        behind &= ~bits[i + 1]
    return out


@cache
def rider_table(geo: Geometry, directions: tuple[Vector, ...], max_steps: int) -> Rider:
    masks: list[int] = []
    attacks: list[dict[int, int]] = []
    for sq in range(geo.size):
        # The rays block independently: the table is the product of the rays' own tables.
        table = {0: 0}
        mask = 0
        for d in directions:
            ray = _ray(geo, sq, d, max_steps)
            if ray:
                mask |= sum(1 << s for s in ray[:-1])  # the last square of a ray never blocks anything
                one = _ray_table(ray).items()
                table = {b | c: a | x for b, a in table.items() for c, x in one}
        masks.append(mask)
        attacks.append(table)
    return Rider(masks, attacks, directions, max_steps, [t[0] for t in attacks])


@cache
def slider_table(geo: Geometry, directions: tuple[Vector, ...], max_steps: int) -> Slider:
    up: list[list[int]] = []
    down: list[list[int]] = []
    for d in directions:
        rays = _ray_masks(geo, d, max_steps)
        # Along a ray the square number changes by the same amount each step, so its sign says
        # which way the ray runs (a step off a one-column board has no squares either way).
        (up if d[0] + d[1] * geo.cols > 0 else down).append(rays)
    empty = [0] * geo.size
    for rays in up + down:
        for sq, bb in enumerate(rays):
            empty[sq] |= bb
    return Slider(up, down, directions, max_steps, empty)


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


class TableBudget:
    """The subset tables one variant uses, charged once each against TABLE_BUDGET."""

    def __init__(self, limit: int = TABLE_BUDGET) -> None:
        self.left = limit
        self.charged: set[tuple[Geometry, tuple[Vector, ...], int]] = set()

    def take(self, geo: Geometry, directions: tuple[Vector, ...], max_steps: int) -> bool:
        """May this table be used? A table already charged is free; a new one must fit."""
        key = (geo, directions, max_steps)
        if key in self.charged:
            return True
        cost = _table_bytes(geo, directions, max_steps)
        if cost > self.left:
            return False
        self.left -= cost
        self.charged.add(key)
        return True


def _table_bytes(geo: Geometry, directions: tuple[Vector, ...], max_steps: int) -> int:
    """Estimated size of a subset table: per entry two ints of the board's width and a dict slot."""
    entries = sum(1 << bits for bits in _mask_bits(geo, directions, max_steps))
    int_bytes = 28 + 4 * (geo.size // 30)
    return entries * (2 * int_bytes + 40)


@cache
def _blockers(geo: Geometry, d: Vector, max_steps: int) -> list[int]:
    """[square] how many squares can block its ray (all but the last)."""
    return [max(0, len(ray) - 1) for ray in _rays(geo, d, max_steps)]


@cache
def _mask_bits(geo: Geometry, directions: tuple[Vector, ...], max_steps: int) -> list[int]:
    """[square] the number of squares that can block these rays."""
    bits = [0] * geo.size
    for d in directions:
        bits = list(map(operator.add, bits, _blockers(geo, d, max_steps)))
    return bits


def rider_tables(
    geo: Geometry, vectors: tuple[Vector, ...], max_steps: int, budget: TableBudget | None = None
) -> tuple[list[Rider], Slider | None]:
    """Split a rider's directions into as few tables as stay under MAX_MASK_BITS blockers; lines
    longer than that, and those past the budget, go to one Slider."""
    groups: list[tuple[Vector, ...]] = []
    scanned: list[Vector] = []
    for line in _lines(vectors):
        if max(_mask_bits(geo, line, max_steps)) > MAX_MASK_BITS:
            scanned.extend(line)
            continue
        if groups:
            merged = groups[-1] + line
            if max(_mask_bits(geo, merged, max_steps)) <= MAX_MASK_BITS:
                groups[-1] = merged
                continue
        groups.append(line)
    budget = budget or TableBudget()
    riders: list[Rider] = []
    for group in groups:
        directions = tuple(sorted(group))
        if budget.take(geo, directions, max_steps):
            riders.append(rider_table(geo, directions, max_steps))
        else:
            scanned.extend(group)
    slider = slider_table(geo, tuple(sorted(scanned)), max_steps) if scanned else None
    return riders, slider


@dataclass(slots=True)
class Pattern:
    """Everything one piece kind of one colour can reach with a set of components."""

    leap: Leap | None
    riders: list[Rider]
    sliders: list[Slider]
    # (square, occupied) -> the squares attacked: straight-line source with the tables as default
    # arguments, cheaper than a loop over the riders (movegen and the evaluator call it per piece).
    attacks: SlideFn = field(init=False)

    def __post_init__(self) -> None:
        env: dict[str, object] = {}
        source = f"    return {self.expr('P', env)}"
        names = "".join(f", {k}={k}" for k in env)
        scope: dict[str, object] = dict(env)
        exec(f"def attacks(sq, occupied{names}):\n{source}", scope)
        self.attacks = scope["attacks"]  # type: ignore[assignment]

    def empty_board(self, size: int) -> list[int]:
        """[square] attacks(square, 0) for each of `size` squares, without the lookups."""
        out = list(self.leap) if self.leap is not None else [0] * size
        for rider in self.all_riders:
            out = [a | b for a, b in zip(out, rider.empty, strict=True)]
        return out

    @property
    def all_riders(self) -> list[AnyRider]:
        return [*self.riders, *self.sliders]

    @property
    def rides(self) -> bool:
        return bool(self.riders or self.sliders)

    @property
    def empty(self) -> bool:
        return self.leap is None and not self.riders and not self.sliders

    def expr(self, name: str, env: dict[str, object]) -> str:
        """Source text for `attacks(sq, occupied)` without the call; the tables go into env."""
        terms = []
        if self.leap is not None:
            env[f"{name}L"] = self.leap
            terms.append(f"{name}L[sq]")
        terms += [r.expr(f"{name}R{j}", env) for j, r in enumerate(self.all_riders)]
        return "(" + " | ".join(terms) + ")" if terms else "0"


def build_pattern(geo: Geometry, components: list[Component], budget: TableBudget | None = None) -> Pattern:
    leap_vectors: list[Vector] = []
    riders: list[Rider] = []
    sliders: list[Slider] = []
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
        tables, slider = rider_tables(geo, tuple(vs), steps, budget)
        riders.extend(tables)
        if slider is not None:
            sliders.append(slider)
    leap = leap_table(geo, tuple(sorted(leap_vectors))) if leap_vectors else None
    return Pattern(leap, riders, sliders)


@cache
def between_table(geo: Geometry, directions: frozenset[Vector]) -> dict[int, int]:
    """Squares strictly between a and b (key a * size + b) when b is on a ray from a in these directions.
    Where two directions reach b (as W and D do two squares apart), the squares of both paths."""
    out: dict[int, int] = {}
    size = geo.size
    for d in directions:
        for line in _board_lines(geo, d):
            prefix = [0]
            for sq in line:
                prefix.append(prefix[-1] | 1 << sq)
            for i, a in enumerate(line):
                for j in range(i + 1, len(line)):
                    key = a * size + line[j]
                    out[key] = out.get(key, 0) | prefix[j] ^ prefix[i + 1]
    return out
