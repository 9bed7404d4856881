"""Issue 17, memory: the transposition table holds its entries in flat arrays, within its Hash budget,
and finds exactly what a dict with the same two generations would."""

from __future__ import annotations

import random
import tracemalloc

from hordes.engine.limits import MATE
from hordes.engine.tt import Entry, TranspositionTable


def _entry(rng: random.Random) -> Entry:
    # Search-like values: depths to 64, scores up to a mate found deep in the tree, moves of a
    # 26x26 board (from, to, promotion and flags: 29 bits).
    return (rng.randint(0, 64), rng.randint(0, 2), rng.randint(-MATE - 200, MATE + 200), rng.getrandbits(29))


def test_p17_memory_tt_fills_its_hash_budget_not_more() -> None:
    """A 2 MB table filled to its capacity stays within 2 MB (the dict of tuples took about 190 bytes
    an entry, 2.5 MB for its 13 k entries) and keeps 64 k entries (five times more)."""
    rng = random.Random(17)
    items = [(rng.getrandbits(64), _entry(rng)) for _ in range(64 * 1024)]
    tracemalloc.start()
    try:
        table = TranspositionTable(2)
        for key, entry in items:
            table.put(key, entry)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert table.capacity == len(items)
    assert len(table) >= table.capacity // 2
    assert peak <= 2 * 2**20 + 64 * 1024, f"{peak / 2**20:.2f} MB"


def test_p17_memory_tt_finds_what_two_dict_generations_find() -> None:
    """Random stores, overwrites and out-of-range entries against the reference: two dicts, the new
    one turning old at half the capacity."""
    rng = random.Random(5)
    table = TranspositionTable(1)
    new: dict[int, Entry] = {}
    old: dict[int, Entry] = {}
    recent: list[int] = []
    for i in range(3 * table.capacity):
        key = rng.choice(recent) if recent and rng.random() < 0.3 else rng.getrandbits(64)
        entry = (300, 1, -5, 7) if rng.random() < 0.002 else _entry(rng)  # a depth no word holds
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
