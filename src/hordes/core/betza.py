"""A parser for Betza's funny notation, the subset chess variants need.

Atoms: W F D N A H C Z G (leapers), K (= WF), R (= WW), B (= FF), Q (= RB).
A doubled atom (NN) or an atom followed by a number (W4) makes a rider (unlimited or limited).
Modifiers: m (move only), c (capture only), f b l r v s h (directions), in any order before the atom,
with the usual two-letter combinations for oblique and diagonal atoms (fl, ff, fs, fh ...).

Vectors are in White's frame: +dy is forward. Black's pieces use the mirror image (see `for_black`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from hordes.errors import BetzaError, quoted

Vector = tuple[int, int]

_LEAPS: dict[str, Vector] = {
    "W": (1, 0),
    "F": (1, 1),
    "D": (2, 0),
    "N": (2, 1),
    "A": (2, 2),
    "H": (3, 0),
    "C": (3, 1),
    "Z": (3, 2),
    "G": (3, 3),
}
# Compound shorthands: atom -> (atoms it stands for, rider?)
_COMPOUNDS: dict[str, tuple[str, bool]] = {
    "K": ("WF", False),
    "R": ("W", True),
    "B": ("F", True),
    "Q": ("WF", True),
}
_DIRECTIONS = "fblrvsh"
_MODES = "mc"
_DIGITS = "0123456789"  # ASCII only: '²'.isdigit() is true but int() refuses it
MAX_RANGE: Final = 99  # the longest limited rider (W4 = four steps); boards have at most 26 ranks


def _all_vectors(dx: int, dy: int) -> list[Vector]:
    """The (up to 8) symmetric images of a leap."""
    out: list[Vector] = []
    for a, b in ((dx, dy), (dy, dx)):
        for sx in (1, -1):
            for sy in (1, -1):
                v = (a * sx, b * sy)
                if v not in out:
                    out.append(v)
    return out


@dataclass(frozen=True, slots=True)
class Component:
    """One part of a piece's movement: a set of vectors, leaping or riding, for moves and/or captures."""

    vectors: tuple[Vector, ...]
    max_steps: int  # 1 = leaper, 0 = unlimited rider, n = rider of at most n steps
    move: bool  # may go to an empty square
    capture: bool  # may capture an enemy piece

    @property
    def rider(self) -> bool:
        return self.max_steps != 1

    def for_black(self) -> Component:
        """Black's pieces are White's turned by 180 degrees (so Black's left is towards the h-file)."""
        return self.reversed()

    def reversed(self) -> Component:
        """The vectors pointing back: where an attacker must stand to hit a square."""
        return Component(
            tuple((-dx, -dy) for dx, dy in self.vectors), self.max_steps, self.move, self.capture
        )


def _matches(group: str, dx: int, dy: int) -> bool:
    """Does a direction group (one or two letters) select the vector (dx, dy)?"""

    def single(ch: str) -> bool:
        if ch == "f":
            return dy > 0
        if ch == "b":
            return dy < 0
        if ch == "l":
            return dx < 0
        if ch == "r":
            return dx > 0
        if ch == "v":
            return abs(dy) >= abs(dx)
        if ch == "s":
            return abs(dx) >= abs(dy)
        return True  # "h" alone: no restriction

    if len(group) == 1:
        if dx and dy and abs(dx) != abs(dy) and group in "fblr":
            # On an oblique atom one letter picks a pair, as Fairy-Stockfish reads it: f and b the two
            # narrow moves that way (fN: the Shogi knight), l and r the two wide ones.
            return single(group) and _strict("v" if group in "fb" else "s", dx, dy)
        return single(group)
    first, second = group[0], group[1]
    if second == "h":  # half: fh = every move with a forward component
        return single(first)
    if first == second:  # ff, bb, ll, rr: the narrow moves in that direction
        narrow = "v" if first in "fb" else "s"
        return single(first) and abs(dy) != abs(dx) and _strict(narrow, dx, dy)
    if second in "vs":  # fs, bs, lv, rv: the wide/narrow moves on that side
        return single(first) and abs(dy) != abs(dx) and _strict(second, dx, dy)
    return single(first) and single(second)


def _strict(axis: str, dx: int, dy: int) -> bool:
    return abs(dy) > abs(dx) if axis == "v" else abs(dx) > abs(dy)


def _split_groups(mods: str, oblique_or_diagonal: bool) -> list[str]:
    """Split direction letters into groups; pairs only make sense on oblique and diagonal atoms."""
    groups: list[str] = []
    i = 0
    while i < len(mods):
        ch = mods[i]
        nxt = mods[i + 1] if i + 1 < len(mods) else ""
        if oblique_or_diagonal and ch in "fblr" and nxt and nxt in "fblrvsh":
            axis_ch = "v" if ch in "fb" else "s"
            axis_nx = "v" if nxt in "fb" else ("s" if nxt in "lr" else "")
            if nxt == ch or nxt in "vsh" or axis_ch != axis_nx:
                groups.append(ch + nxt)
                i += 2
                continue
        groups.append(ch)
        i += 1
    return groups


def parse_betza(text: str) -> list[Component]:
    """Parse a Betza string into components. Raises BetzaError naming the position of the problem."""
    if not text or not text.strip():
        raise BetzaError("empty Betza string")
    components: list[Component] = []
    i = 0
    n = len(text)
    while i < n:
        start = i
        mods = ""
        while i < n and "a" <= text[i] <= "z":
            ch = text[i]
            if ch not in _DIRECTIONS and ch not in _MODES:
                raise BetzaError(f"unsupported modifier {ch!r} at position {i + 1} in {quoted(text)}")
            mods += ch
            i += 1
        if i >= n:
            where = f"at the end of {quoted(text)}"
            raise BetzaError(f"modifiers {quoted(mods)} {where} are not followed by an atom")
        atom = text[i]
        if atom not in _LEAPS and atom not in _COMPOUNDS:
            raise BetzaError(f"unknown atom {atom!r} at position {i + 1} in {quoted(text)}")
        i += 1
        rider = False
        max_steps = 1
        if atom in _COMPOUNDS:
            atoms, rider = _COMPOUNDS[atom]
            if rider:
                max_steps = 0
        else:
            atoms = atom
        if i < n and text[i] == atom and atom in _LEAPS:  # doubled atom: unlimited rider
            rider, max_steps = True, 0
            i += 1
        if i < n and text[i] in _DIGITS:
            j = i
            while j < n and text[j] in _DIGITS:
                j += 1
            digits = text[i:j].lstrip("0") or "0"
            steps = int(digits) if len(digits) <= 3 else MAX_RANGE + 1  # no int() of 5000 digits
            if steps < 1:
                raise BetzaError(f"range {steps} at position {i + 1} in {quoted(text)} must be at least 1")
            if steps > MAX_RANGE:
                where = f"at position {i + 1} in {quoted(text)}"
                raise BetzaError(f"range {quoted(digits, 10)} {where} must be at most {MAX_RANGE}")
            max_steps = steps
            i = j
        moves = "m" in mods or "c" not in mods
        captures = "c" in mods or "m" not in mods
        dirs = "".join(ch for ch in mods if ch in _DIRECTIONS)
        for a in atoms:
            dx, dy = _LEAPS[a]
            vectors = _all_vectors(dx, dy)
            if dirs:
                groups = _split_groups(dirs, dy != 0)
                vectors = [v for v in vectors if any(_matches(g, *v) for g in groups)]
            if not vectors:
                raise BetzaError(f"{quoted(text[start:i])} in {quoted(text)} selects no direction")
            components.append(Component(tuple(vectors), max_steps, moves, captures))
    return components
