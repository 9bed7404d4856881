"""Perft by pyffish, by recursion over `legal_moves`, against a hordes Board (issue 16 point 6).

pyffish answers about 300 `legal_moves` calls a second, so a full depth-3 count costs a call per
depth-2 node. `compare_perft` counts depth 3 in full only where perft(2) is small and otherwise below
a few of the first moves, which keeps each variant under a second.
"""

from __future__ import annotations

from typing import Any

from hordes import Board

FULL_DEPTH3_LIMIT = 350  # perft(2) up to which depth 3 is counted in full
SAMPLED_FIRST_MOVES = 3


def fsf_perft(sf: Any, variant: str, fen: str, moves: list[str], depth: int) -> int:
    legal = sf.legal_moves(variant, fen, moves)
    if depth == 1:
        return len(legal)
    return sum(fsf_perft(sf, variant, fen, [*moves, m], depth - 1) for m in legal)


def compare_perft(sf: Any, fsf_name: str, board: Board) -> list[tuple[str, int, int]]:
    """(what, ours, pyffish's) for depth 1 (as sets), 2, and 3 (in full or below sampled first
    moves); the board is at the variant's starting position, which pyffish is asked about."""
    fen = board.fen()
    ours1 = sorted(m.uci() for m in board.legal_moves)
    theirs1 = sorted(sf.legal_moves(fsf_name, fen, []))
    assert ours1 == theirs1, f"{fsf_name}: first moves differ: {set(ours1) ^ set(theirs1)}"
    rows = [("perft 2", board.perft(2), fsf_perft(sf, fsf_name, fen, [], 2))]
    if rows[0][1] <= FULL_DEPTH3_LIMIT:
        rows.append(("perft 3", board.perft(3), fsf_perft(sf, fsf_name, fen, [], 3)))
    else:
        step = max(1, len(ours1) // SAMPLED_FIRST_MOVES)
        for first in ours1[::step][:SAMPLED_FIRST_MOVES]:
            board.push_uci(first)
            ours = board.perft(2)
            board.pop()
            rows.append((f"perft 3 below {first}", ours, fsf_perft(sf, fsf_name, fen, [first], 2)))
    return rows
