"""The transposition table: positions already searched, keyed by Zobrist hash, in bounded memory.

The table keeps two generations: new entries go into `new`; when `new` is full it becomes `old` and
the previous `old` is dropped. A lookup tries `new`, then `old`. Entries that keep being hit are
re-stored into `new` by the search, so useful ones survive the turnover.

A generation is an open-addressing hash table in two flat arrays of 64-bit words (the key, and the
entry packed into one word), not a dict of tuples: a dict entry with its int key and its tuple of
four ints cost about 190 bytes in CPython, a slot here 16. A generation is never thinned, only
dropped whole, so linear probing needs no deletion marks and behaves exactly as a dict with the same
bound would: the same entries are found, the search visits the same tree.
"""

from __future__ import annotations

from array import array
from typing import Final

EXACT: Final = 0
LOWER: Final = 1  # the score is at least this (a beta cut-off)
UPPER: Final = 2  # the score is at most this (no move reached alpha)

Entry = tuple[int, int, int, int]  # (depth, bound, score, move)

SLOT_BYTES: Final = 16  # a key word and an entry word
# The packed entry: bound in bits 0-1, depth + DEPTH_BIAS in 2-9, score + SCORE_BIAS in 10-33, the
# move from bit 34 (29 bits hold any move int of a 26x26 board). Stored plus one: 0 is an empty slot.
DEPTH_BIAS: Final = 128
SCORE_BIAS: Final = 1 << 23
MOVE_LIMIT: Final = 1 << 29


def _pack(entry: Entry) -> int:
    """The entry as one word plus one (so never 0), or -1 when a field is out of the packed range."""
    depth, bound, score, move = entry
    if not (0 <= bound < 4 and -DEPTH_BIAS <= depth < DEPTH_BIAS and -SCORE_BIAS <= score < SCORE_BIAS):
        return -1
    if not 0 <= move < MOVE_LIMIT:
        return -1
    return (move << 34 | (score + SCORE_BIAS) << 10 | (depth + DEPTH_BIAS) << 2 | bound) + 1


class Generation:
    """One generation: at most `limit` entries in `slots` (a power of two, at least twice limit)."""

    def __init__(self, slots: int) -> None:
        self.mask = slots - 1
        self.keys = array("Q", [0]) * slots
        self.words = array("q", [0]) * slots
        self.count = 0
        # Entries whose fields do not fit a word (none in practice), marked -1 in their slot.
        self.spill: dict[int, Entry] = {}

    def get(self, key: int) -> Entry | None:
        keys = self.keys
        words = self.words
        mask = self.mask
        i = key & mask
        while True:
            w = words[i]
            if w == 0:
                return None
            if keys[i] == key:
                if w < 0:
                    return self.spill[key]
                w -= 1
                return ((w >> 2 & 255) - DEPTH_BIAS, w & 3, (w >> 10 & 0xFFFFFF) - SCORE_BIAS, w >> 34)
            i = (i + 1) & mask

    def put(self, key: int, entry: Entry) -> None:
        """Store (or replace) the entry of key; the caller keeps count below the limit."""
        packed = _pack(entry)
        keys = self.keys
        words = self.words
        mask = self.mask
        i = key & mask
        while True:
            w = words[i]
            if w == 0:
                keys[i] = key
                self.count += 1
                break
            if keys[i] == key:
                break
            i = (i + 1) & mask
        if packed < 0:
            self.spill[key] = entry
        words[i] = packed

    def __len__(self) -> int:
        return self.count


class TranspositionTable:
    """Maps Zobrist hash -> (depth, bound, score, best move int). `Hash` in MB bounds its memory."""

    def __init__(self, megabytes: int = 16) -> None:
        self.slots = 1024
        self.capacity = 1024
        self.megabytes = megabytes
        self.new = Generation(self.slots)
        self.old = Generation(self.slots)
        self.resize(megabytes)

    def resize(self, megabytes: int) -> None:
        if megabytes < 1:
            raise ValueError(f"hash size must be at least 1 MB, not {megabytes}")
        self.megabytes = megabytes
        # Two generations of `slots` slots each fit the budget; each holds at most half its slots.
        slots = 1024
        while 2 * (2 * slots) * SLOT_BYTES <= megabytes * 1024 * 1024:
            slots *= 2
        self.slots = slots
        self.capacity = slots  # both generations together
        self.clear()

    def clear(self) -> None:
        # The old arrays go before the new ones are made, so the peak memory stays two generations.
        self.new = self.old = Generation(1)
        self.new = Generation(self.slots)
        self.old = Generation(self.slots)

    def get(self, key: int) -> Entry | None:
        entry = self.new.get(key)
        return entry if entry is not None else self.old.get(key)

    def put(self, key: int, entry: Entry) -> None:
        new = self.new
        new.put(key, entry)
        if new.count >= self.capacity >> 1:
            self.rotate()

    def rotate(self) -> None:
        """Start a new generation (the search calls this when `new` is full)."""
        self.old = self.new
        self.new = Generation(1)  # the dropped generation is freed before the next is made
        self.new = Generation(self.slots)

    def __len__(self) -> int:
        return self.new.count + self.old.count

    def hashfull(self) -> int:
        """Occupancy in permille, as UCI's `info hashfull` reports it."""
        return min(1000, len(self) * 1000 // max(1, self.capacity))
