"""Longer engine suites (marked slow; CI runs them): deeper legality sweeps and a match against
Debian's Fairy-Stockfish."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hordes.engine.client import FAIRY_STOCKFISH
from hordes.engine.limits import Limits
from hordes.engine.match import MatchConfig, TimeControl, run_match, summary
from hordes.engine.search import Searcher
from tests.engine.conftest import VARIANTS, random_positions

DEBIAN_INI = Path(__file__).resolve().parents[3] / "shared" / "oracle" / "orda-debian.ini"


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


@pytest.mark.slow
@pytest.mark.skipif(
    not (os.access(FAIRY_STOCKFISH, os.X_OK) and DEBIAN_INI.is_file()),
    reason="Debian fairy-stockfish or ../shared/oracle/orda-debian.ini missing (`make` installs the engine)",
)
def test_orda_match_against_fairy_stockfish_skill_0() -> None:
    opponent = f"{FAIRY_STOCKFISH}:VariantPath={DEBIAN_INI},Skill Level=0,name=fsf0"
    config = MatchConfig("hordes", opponent, "orda", 4, tc=TimeControl(4, 0.05), seed=3)
    result = run_match(config)
    assert result.tally.score > 0.5, summary(config, result)
    assert not any(g.termination in ("illegal move", "engine failure") for g in result.games), summary(
        config, result
    )
