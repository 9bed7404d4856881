"""Perft against published chess numbers and Fairy-Stockfish counts for Orda and Khan's Chess."""

from __future__ import annotations

import pytest

from hordes import Board
from tests.perft_files import PERFT_DIR, PerftCase, read_perft_file

# Node budget per case in the default run; bigger counts run in the slow suite (still in CI) up to
# SLOW_NODES. Larger published counts stay in the files as a record (python-chess / Stockfish checked them).
FAST_NODES = 300_000
SLOW_NODES = 6_000_000


def _cases(variant: str, slow: bool) -> list[tuple[PerftCase, int, int]]:
    path = PERFT_DIR / f"{variant}.perft"
    if not path.exists():
        return []
    out = []
    for case in read_perft_file(path):
        for depth, count in sorted(case.counts.items()):
            if (count > FAST_NODES) == slow and count <= SLOW_NODES:
                out.append((case, depth, count))
    return out


def _params(slow: bool) -> list[object]:
    return [
        pytest.param(variant, case, depth, count, id=f"{variant}-{case.id}-d{depth}")
        for variant in ("chess", "orda", "khans")
        for case, depth, count in _cases(variant, slow)
    ]


def _run(variant: str, case: PerftCase, depth: int, count: int) -> None:
    board = Board(variant, case.epd)
    assert board.perft(depth) == count, f"{case.source} {case.id}: perft {depth} of {case.epd}"


@pytest.mark.parametrize(("variant", "case", "depth", "count"), _params(slow=False))
def test_perft(variant: str, case: PerftCase, depth: int, count: int) -> None:
    _run(variant, case, depth, count)


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "case", "depth", "count"), _params(slow=True))
def test_perft_deep(variant: str, case: PerftCase, depth: int, count: int) -> None:
    _run(variant, case, depth, count)


def test_perft_files_cover_every_builtin_variant() -> None:
    for variant, minimum in (("chess", 6), ("orda", 10), ("khans", 5)):
        cases = read_perft_file(PERFT_DIR / f"{variant}.perft")
        assert len(cases) >= minimum, f"{variant}.perft has {len(cases)} positions, want {minimum}"
