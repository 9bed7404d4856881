"""Issue 17, memory: the transposition table packs each entry into one int, stays within its Hash
budget, and finds exactly what the dicts of tuples found."""

from __future__ import annotations

import random
import tracemalloc

import pytest

from hordes.engine.limits import MATE
from hordes.engine.tt import Entry, TranspositionTable, pack


def _entry(rng: random.Random) -> Entry:
    # Search-like values: depths to 64, scores up to a mate found deep in the tree, moves of a
    # 26x26 board (from, to, promotion and flags: 29 bits).
    return (rng.randint(0, 64), rng.randint(0, 2), rng.randint(-MATE - 200, MATE + 200), rng.getrandbits(29))


def test_p17_memory_tt_fills_its_hash_budget_not_more() -> None:
    """A 2 MB table filled to its capacity stays within 2 MB and holds 18 k entries (the dict of
    tuples took about 190 bytes an entry: 2.5 MB for its 13 k)."""
    rng = random.Random(17)
    entries = [_entry(rng) for _ in range(2 * 2**20 // 112)]
    tracemalloc.start()
    try:
        table = TranspositionTable(2)
        for entry in entries:
            table.put(rng.getrandbits(64), entry)  # the key made here, so that its memory counts
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert table.capacity == len(entries)
    assert len(table) >= table.capacity // 2
    assert peak <= 2 * 2**20, f"{peak / 2**20:.2f} MB"


def test_p17_memory_tt_refuses_what_it_cannot_pack() -> None:
    with pytest.raises(ValueError, match="out of range"):
        pack((600, 0, 0, 0))
    with pytest.raises(ValueError, match="out of range"):
        pack((1, 0, 0, 1 << 29))


def test_p17_memory_tt_finds_what_two_dict_generations_find() -> None:
    """Random stores and overwrites against the reference: two dicts of tuples, the new one turning
    old at half the capacity."""
    rng = random.Random(5)
    table = TranspositionTable(1)
    new: dict[int, Entry] = {}
    old: dict[int, Entry] = {}
    recent: list[int] = []
    for i in range(3 * table.capacity):
        key = rng.choice(recent) if recent and rng.random() < 0.3 else rng.getrandbits(64)
        entry = (-300, 1, -5, 7) if rng.random() < 0.002 else _entry(rng)
        table.put(key, entry)
        new[key] = entry
        recent = [*recent[-40:], key]
        if len(new) >= table.capacity >> 1:
            old, new = new, {}
        if i % 997 == 0:
            for probe in [*recent, *list(old)[:20], rng.getrandbits(64)]:
                assert table.new.get(probe) == new.get(probe)
                assert table.old.get(probe) == old.get(probe)
                assert table.get(probe) == (new.get(probe) or old.get(probe))
    assert len(table) == len(new) + len(old)
