"""The transposition table: positions already searched, keyed by Zobrist hash, in bounded memory.

A plain dict is the fastest map CPython has, but it cannot evict single entries cheaply in any useful
order. So the table keeps two generations: new entries go into `new`; when `new` holds half the
capacity it becomes `old` and the previous `old` is dropped. A lookup tries `new`, then `old`. Entries
that keep being hit are re-stored into `new` by the search, so useful ones survive the turnover.

An entry is stored packed into one int, not as a tuple of four: the tuple and its two large ints
(score and move) cost about 100 bytes more than the single int, so the same Hash holds about twice
the entries. Flat arrays of 64-bit words would hold eight times more, but were measured slower: a
lookup in one cost 585 ns in the compiled build against 215 ns for this dict of packed ints, and
creating and clearing their 16 MB cost 12-14 ms per game (docs/benchmarks.md, issue 17).
"""

from __future__ import annotations

from typing import Final

# Measured cost of one entry in CPython (tests/engine/test_tt.py): the dict slot, the int key and the
# packed int.
ENTRY_BYTES: Final = 112

EXACT: Final = 0
LOWER: Final = 1  # the score is at least this (a beta cut-off)
UPPER: Final = 2  # the score is at most this (no move reached alpha)

Entry = tuple[int, int, int, int]  # (depth, bound, score, move)

# The packed int: bound in bits 0-1, depth + DEPTH_BIAS in bits 2-11, the move in bits 12-40 (29 bits
# hold any move int of a 26x26 board), the score (of any size and sign) from bit 41 up.
DEPTH_BIAS: Final = 512
MOVE_BITS: Final = 29
MOVE_MASK: Final = (1 << MOVE_BITS) - 1
SCORE_SHIFT: Final = 12 + MOVE_BITS


def pack(entry: Entry) -> int:
    depth, bound, score, move = entry
    if not (0 <= bound < 4 and -DEPTH_BIAS <= depth < DEPTH_BIAS and 0 <= move <= MOVE_MASK):
        raise ValueError(f"transposition table entry out of range: {entry!r}")
    return (score << MOVE_BITS | move) << 12 | (depth + DEPTH_BIAS) << 2 | bound


class Generation:
    """One generation: Zobrist hash -> packed entry, read back as an Entry tuple."""

    def __init__(self) -> None:
        self.words: dict[int, int] = {}

    def get(self, key: int) -> Entry | None:
        w = self.words.get(key)
        if w is None:
            return None
        return ((w >> 2 & 1023) - DEPTH_BIAS, w & 3, w >> SCORE_SHIFT, w >> 12 & MOVE_MASK)

    def put(self, key: int, entry: Entry) -> None:
        self.words[key] = pack(entry)

    def __len__(self) -> int:
        return len(self.words)


class TranspositionTable:
    """Maps Zobrist hash -> (depth, bound, score, best move int). `Hash` in MB sets the capacity."""

    def __init__(self, megabytes: int = 16) -> None:
        self.new = Generation()
        self.old = Generation()
        self.capacity = 0
        self.megabytes = megabytes
        self.resize(megabytes)

    def resize(self, megabytes: int) -> None:
        if megabytes < 1:
            raise ValueError(f"hash size must be at least 1 MB, not {megabytes}")
        self.megabytes = megabytes
        self.capacity = max(1024, megabytes * 1024 * 1024 // ENTRY_BYTES)
        self.clear()

    def clear(self) -> None:
        self.new = Generation()
        self.old = Generation()

    def get(self, key: int) -> Entry | None:
        entry = self.new.get(key)
        return entry if entry is not None else self.old.get(key)

    def put(self, key: int, entry: Entry) -> None:
        words = self.new.words
        words[key] = pack(entry)
        if len(words) >= self.capacity >> 1:
            self.rotate()

    def rotate(self) -> None:
        """Start a new generation (the search calls this when `new` is full)."""
        self.old = self.new
        self.new = Generation()

    def __len__(self) -> int:
        return len(self.new.words) + len(self.old.words)

    def hashfull(self) -> int:
        """Occupancy in permille, as UCI's `info hashfull` reports it."""
        return min(1000, len(self) * 1000 // max(1, self.capacity))
