"""The transposition table: positions already searched, keyed by Zobrist hash, in bounded memory.

A plain dict is the fastest map CPython has, but it cannot evict single entries cheaply in any useful
order. So the table keeps two generations: new entries go into `new`; when `new` holds half the
capacity it becomes `old` and the previous `old` is dropped. A lookup tries `new`, then `old`. Entries
that keep being hit are re-stored into `new` by the search, so useful ones survive the turnover.
"""

from __future__ import annotations

# Rough cost of one entry in CPython: the dict slot, the int key and a 4-tuple of small ints.
ENTRY_BYTES = 160

EXACT = 0
LOWER = 1  # the score is at least this (a beta cut-off)
UPPER = 2  # the score is at most this (no move reached alpha)

Entry = tuple[int, int, int, int]  # (depth, bound, score, move)


class TranspositionTable:
    """Maps Zobrist hash -> (depth, bound, score, best move int). `Hash` in MB sets the capacity."""

    def __init__(self, megabytes: int = 16) -> None:
        self.new: dict[int, Entry] = {}
        self.old: dict[int, Entry] = {}
        self.capacity = 0
        self.resize(megabytes)

    def resize(self, megabytes: int) -> None:
        if megabytes < 1:
            raise ValueError(f"hash size must be at least 1 MB, not {megabytes}")
        self.megabytes = megabytes
        self.capacity = max(1024, megabytes * 1024 * 1024 // ENTRY_BYTES)
        self.clear()

    def clear(self) -> None:
        self.new = {}
        self.old = {}

    def get(self, key: int) -> Entry | None:
        entry = self.new.get(key)
        return entry if entry is not None else self.old.get(key)

    def put(self, key: int, entry: Entry) -> None:
        new = self.new
        new[key] = entry
        if len(new) >= self.capacity >> 1:
            self.rotate()

    def rotate(self) -> None:
        """Start a new generation (the search calls this when `new` is full)."""
        self.old = self.new
        self.new = {}

    def __len__(self) -> int:
        return len(self.new) + len(self.old)

    def hashfull(self) -> int:
        """Occupancy in permille, as UCI's `info hashfull` reports it."""
        return min(1000, len(self) * 1000 // max(1, self.capacity))
