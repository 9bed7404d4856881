"""Longer engine suites (marked slow; CI runs them): deeper legality sweeps."""

from __future__ import annotations

import pytest

from hordes.engine.limits import Limits
from hordes.engine.search import Searcher
from tests.engine.conftest import VARIANTS, random_positions


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_never_an_illegal_move_deeper(variant: str) -> None:
    searcher = Searcher(hash_mb=8)
    for board in random_positions(variant, 300, seed=99, max_plies=250, keep=0.05):
        last = list(searcher.search(board, Limits(depth=4, nodes=1500)))[-1]
        if board.outcome() is None:
            assert last.best_move in set(board.legal_moves), board.fen()
            b = board.copy()
            for move in last.pv:
                b.push(move)  # raises on an illegal PV move


# Strength against Fairy-Stockfish depends on the clock and the machine's load, so it is measured by
# benchmarks/strength.py (figures in docs/benchmarks.md), not asserted by a test.
