"""Board geometry: squares as ints (rank * cols + file) and bitboards as Python ints."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache

from hordes.errors import HordesError, quoted

FILE_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def iter_bits(bb: int) -> Iterator[int]:
    """Yield the square index of every set bit, lowest first."""
    while bb:
        low = bb & -bb
        yield low.bit_length() - 1
        bb ^= low


def popcount(bb: int) -> int:
    return bb.bit_count()


class Geometry:
    """A rectangular grid of rows x cols squares. a1 is square 0, files run left to right."""

    __slots__ = ("cols", "file_masks", "full", "rank_masks", "rows", "size")

    def __init__(self, rows: int, cols: int) -> None:
        if not (1 <= rows <= 26 and 1 <= cols <= 26):
            raise HordesError(f"board size {rows}x{cols} is out of range (1..26 each way)")
        self.rows = rows
        self.cols = cols
        self.size = rows * cols
        self.full = (1 << self.size) - 1
        self.rank_masks = [sum(1 << (r * cols + f) for f in range(cols)) for r in range(rows)]
        self.file_masks = [sum(1 << (r * cols + f) for r in range(rows)) for f in range(cols)]

    def __repr__(self) -> str:
        return f"Geometry(rows={self.rows}, cols={self.cols})"

    def __reduce__(self) -> tuple[Callable[[int, int], Geometry], tuple[int, int]]:
        # Pickled as its size, unpickled as the shared object of that size. Also what lets the
        # compiled build pickle it (and the Moves and Variants that hold one) at all.
        return geometry, (self.rows, self.cols)

    def square(self, file: int, rank: int) -> int:
        return rank * self.cols + file

    def file_of(self, sq: int) -> int:
        return sq % self.cols

    def rank_of(self, sq: int) -> int:
        return sq // self.cols

    def on_board(self, file: int, rank: int) -> bool:
        return 0 <= file < self.cols and 0 <= rank < self.rows

    def square_name(self, sq: int) -> str:
        return FILE_LETTERS[sq % self.cols] + str(sq // self.cols + 1)

    def parse_square(self, text: str) -> int:
        """Parse a square name such as 'e4' or 'a10'; raise HordesError if it is not on this board."""
        digits = text[1:]
        # ASCII digits only ('²'.isdigit() is true but int() refuses it), and no int() of a long run.
        if len(text) < 2 or text[0] not in FILE_LETTERS or not (digits.isascii() and digits.isdigit()):
            raise HordesError(f"not a square name: {quoted(text)}")
        file = FILE_LETTERS.index(text[0])
        rank = int(digits) - 1 if len(digits) <= 3 else self.rows
        if not self.on_board(file, rank):
            raise HordesError(f"square {quoted(text)} is off the {self.cols}x{self.rows} board")
        return rank * self.cols + file

    def parse_rank_list(self, ranks: list[int]) -> int:
        """Bitboard of whole ranks given as 1-based numbers."""
        bb = 0
        for r in ranks:
            bb |= self.rank_masks[r - 1]
        return bb


@cache
def geometry(rows: int, cols: int) -> Geometry:
    """Shared Geometry objects, so attack tables built for one are reused by every variant of that size."""
    return Geometry(rows, cols)
