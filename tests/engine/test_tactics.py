"""Tactics at fixed depth: mates, campmates and material wins, verified with Fairy-Stockfish.

The positions and their complete solution sets live in tests/engine/data/tactics_<variant>.txt; each
file's header names the command that re-verifies it (tests/engine/make_tactics.py). Hordes of Change
positions are built by hand (tactics_hordes.txt) and checked with the project's reference generator.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hordes import Board
from hordes.engine.limits import Limits
from hordes.engine.search import Searcher

DATA = Path(__file__).parent / "data"
WIN_DEPTH = 5


def _entries() -> list[tuple[str, str, str, int, list[str]]]:
    out = []
    for path in sorted(DATA.glob("tactics_*.txt")):
        variant = path.stem.removeprefix("tactics_")
        if variant in ("campmate", "hoc_plan"):  # solved at a level: test_campmate.py, test_hoc_plan.py
            continue
        for raw in path.read_text().splitlines():
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            fen, kind_n, solutions = (part.strip() for part in line.split("|"))
            kind, n = kind_n.split()
            out.append((variant, fen, kind, int(n), solutions.split()))
    return out


ENTRIES = _entries()


def test_at_least_thirty_positions_per_variant() -> None:
    counts: dict[str, int] = {}
    kinds: dict[str, set[str]] = {}
    for variant, _, kind, n, _ in ENTRIES:
        counts[variant] = counts.get(variant, 0) + 1
        kinds.setdefault(variant, set()).add(f"{kind}{n}")
    for variant in ("chess", "orda", "khans", "hordes"):
        assert counts.get(variant, 0) >= 30, counts
    assert "safe1" in kinds["hordes"]  # avoiding an owner-changing capture that loses
    for variant in ("orda", "khans"):
        assert {"camp1", "camp2"} & kinds[variant], kinds  # the Horde's own way to win


@pytest.mark.parametrize(
    ("variant", "fen", "kind", "n", "solutions"),
    ENTRIES,
    ids=[f"{e[0]}-{e[2]}{e[3]}-{i}" for i, e in enumerate(ENTRIES)],
)
def test_tactic(variant: str, fen: str, kind: str, n: int, solutions: list[str]) -> None:
    board = Board(variant, fen)
    # mate/camp in n: 2n plies; safe: the losing capture's refutation is the reply; win: a few plies more
    depth = {"mate": 2 * n, "camp": 2 * n, "safe": 3}.get(kind, WIN_DEPTH)
    info = list(Searcher(8).search(board, Limits(depth=depth)))[-1]
    assert info.best_move is not None
    played = board.uci(info.best_move)
    assert played in solutions, f"{variant} {fen}: played {played}, wanted one of {solutions} ({info})"
    if kind in ("mate", "camp"):
        assert info.mate == n, f"{variant} {fen}: reported {info.mate}, expected a win in {n}"
