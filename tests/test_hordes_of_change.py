"""Hordes of Change in the fast core: one test per rule case (named test_hN_...), FEN and UCI
conventions, the Andernach document, and a differential test against the independent reference
generator in tests/reference/hoc_reference.py.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from hordes import (
    COLOR_NAMES,
    COLORS,
    WHITE,
    Board,
    Color,
    InvalidFenError,
    Move,
    Piece,
    Termination,
    load_variant,
    parse_variant,
)
from tests.perft_files import PERFT_DIR, read_perft_file
from tests.reference.hoc_cases import CASES, Case
from tests.reference.hoc_reference import RefPosition

_REASONS = {Termination.REPETITION_LOSS: "repetition", Termination.CHECKMATE: "no_legal_moves",
            Termination.STALEMATE: "no_legal_moves"}  # fmt: skip


def ours_outcome(board: Board) -> tuple[str, str] | None:
    out = board.outcome()
    if out is None:
        return None
    assert out.winner is not None, "Hordes of Change has no draws (H16)"
    return COLOR_NAMES[out.winner], _REASONS[out.termination]


def legal_set(board: Board) -> set[str]:
    return {m.uci() for m in board.legal_moves}


def check_case(case: Case) -> None:
    if not case.fen_valid:
        with pytest.raises(InvalidFenError):
            Board("hordes", case.fen)
        return
    board = Board("hordes", case.fen)
    assert board.fen() == case.fen
    for uci in case.moves:
        board.push_uci(uci)
    moves = legal_set(board)
    assert case.legal <= moves, f"missing legal moves: {sorted(case.legal - moves)}"
    assert not case.illegal & moves, f"illegal moves generated: {sorted(case.illegal & moves)}"
    if case.exact:
        assert moves == case.legal, f"extra moves: {sorted(moves - case.legal)}"
    if case.check is not None:
        assert board.is_check() == case.check
    if case.outcome == "ongoing":
        assert board.outcome() is None
    elif case.outcome is not None:
        assert ours_outcome(board) == case.outcome
    before = board.fen()
    for uci, expected in case.after:
        board.push_uci(uci)
        assert board.fen() == expected, uci
        board.pop()
        assert board.fen() == before


def _make(case: Case) -> Callable[[], None]:
    def test() -> None:
        check_case(case)

    test.__doc__ = case.note or None
    return test


# One named test per case, e.g. test_h9_example_rook_beside_enemy_rook_magnet_cannot_move_away.
for _case in CASES:
    globals()[f"test_{_case.rule.lower()}_{_case.name}"] = _make(_case)


def test_h1_h2_h3_start_position() -> None:
    board = Board("hordes")
    assert board.turn is WHITE
    counts: dict[tuple[str, Color], int] = {}
    for sq in range(64):
        piece = board.piece_at(sq)
        if piece is not None:
            key = (piece.piece_type, piece.color)
            counts[key] = counts.get(key, 0) + 1
            assert (sq < 24) == (piece.color is WHITE) and (sq < 24 or sq >= 40)
    for color in COLORS:
        assert (counts[("K", color)], counts[("R", color)], counts[("B", color)]) == (2, 10, 12)
    assert board.legal_moves.count() == 52


def test_h6_h18_h19_transformation_round_trip() -> None:
    board = Board("hordes")
    move = board.push_uci("c1c1")  # a Rook becomes a Rook Magnet
    assert move.from_square == move.to_square
    assert board.fen() == "bbrkkrbb/rbbrrbbr/brbrrbrb/8/8/BRBRRBRB/RBBRRBBR/BB+RKKRBB b - - 1 1"
    board.push_uci("d8d8")  # a King becomes a Knight
    assert board.fen().startswith("bbrnkrbb/")
    again = Board("hordes", board.fen())
    assert again.fen() == board.fen() and again.zobrist_hash() == board.zobrist_hash()


def test_h19_pull_and_ordinary_move_are_one_move() -> None:
    # A White Rook Magnet on a1 and a White Rook on a5: a1 pulls a5 to a2, which the Rook could also do.
    board = Board("hordes", "7k/8/8/R7/8/8/8/+R5K1 w - - 0 1")
    moves = [m.uci() for m in board.legal_moves]
    assert moves.count("a5a2") == 1


def test_h15_repetition_loss_names_the_side_that_repeated() -> None:
    board = Board("hordes", "k7/8/8/8/8/8/8/6K1 w - - 0 1")
    for uci in ["g1g1", "a8a8", "g1g1", "a8a8"] * 2:
        assert board.outcome() is None
        board.push_uci(uci)
    out = board.outcome()
    assert out is not None and out.termination == Termination.REPETITION_LOSS
    assert out.winner is WHITE  # Black's move made the third occurrence


def test_hordes_perft_file_agrees_with_the_reference() -> None:
    cases = read_perft_file(PERFT_DIR / "hordes.perft")
    assert cases
    for case in cases:
        for depth, count in case.counts.items():
            if count <= 200_000:
                assert Board("hordes", case.epd).perft(depth) == count, case.id


def test_variant_aliases() -> None:
    for name in ("hordes", "Hordes of Change", "hordesofchange", "HORDES-OF-CHANGE"):
        assert load_variant(name).slug == "hordes"


def test_bad_uci_in_hordes_is_rejected() -> None:
    board = Board("hordes")
    with pytest.raises(ValueError, match="illegal move 'a1a2'"):
        board.push_uci("a1a2")  # onto its own piece
    with pytest.raises(ValueError, match="illegal move 'd6d6'"):
        board.push_uci("d6d6")  # Black's piece, White to move
    assert Move.from_uci("c3c3").from_square == 18
    assert board.fen() == Board("hordes").fen()


# -------------------------------------------------------------------- differential vs the reference
CI_GAMES = 200
MAX_PLIES = 120


def compare_game(seed: int, start: str | None = None) -> tuple[int, str]:
    rng = random.Random(seed)
    board = Board("hordes", start) if start else Board("hordes")
    ref = RefPosition.from_fen(board.fen())
    moves: list[str] = []
    for _ in range(MAX_PLIES):
        where = f"\nseed {seed}\nFEN {board.fen()}\nmoves {' '.join(moves)}"
        ours, theirs = legal_set(board), ref.legal_moves()
        assert ours == theirs, (
            f"legal moves differ{where}\nonly ours: {sorted(ours - theirs)}\nonly reference: {sorted(theirs - ours)}"
        )
        assert board.is_check() == ref.is_check(), f"check differs{where}"
        assert ours_outcome(board) == ref.outcome(), f"outcome differs{where}"
        if ref.outcome() is not None:
            return len(moves), ref.outcome()[1]  # type: ignore[index]
        move = rng.choice(sorted(ours))
        board.push_uci(move)
        ref.push(move)
        moves.append(move)
        assert board.fen() == ref.fen(), f"FEN differs after {move}{where}"
    return len(moves), "ply cap"


# Sparse positions end more often (mates, repetitions), so half the games start from one of these.
SPARSE = [
    "4k3/8/2b5/8/3+R4/8/5R2/2K3N1 w - - 0 1",
    "k1n5/1r6/8/3+b4/8/2B5/6R1/4K2N w - - 0 1",
    "4kk2/8/1+r6/8/4B3/8/1+B3r2/3KN3 b - - 0 1",
    "n6k/8/8/3R4/2+B5/8/8/K6N w - - 0 1",
]


@pytest.mark.slow
def test_random_games_agree_with_the_reference(games: int) -> None:
    n = games or CI_GAMES
    plies = 0
    ends: dict[str, int] = {}
    for seed in range(n):
        start = SPARSE[seed % len(SPARSE)] if seed % 2 else None
        p, end = compare_game(seed, start)
        plies += p
        ends[end] = ends.get(end, 0) + 1
    print(f"hordes: {n} games, {plies} plies compared, endings {ends}")
    assert plies > n * 10


def test_a_few_random_games_agree_with_the_reference() -> None:
    for seed in range(3):
        compare_game(1000 + seed)


def test_andernach_document_plays_by_its_mechanisms() -> None:
    v = load_variant("andernach")
    # A white rook takes on d8 and becomes Black's: the black king may then not be in check from it.
    board = Board(v, "3rk3/8/8/8/8/8/8/3RK3 w - - 0 1")
    board.push_uci("d1d8")
    assert board.fen() == "3rk3/8/8/8/8/8/8/4K3 b - - 0 1"
    # Kings do not change sides.
    board = Board(v, "8/8/8/8/8/8/3p4/4K2k w - - 0 1")
    board.push_uci("e1d2")
    assert board.piece_at(11) == Piece("K", WHITE)


def test_a_new_game_from_mechanisms_in_a_document_alone() -> None:
    text = """---
title: Magnet Chess
slug: magnetchess
parent: chess
engine:
  setup: "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"
  pieces:
    R: {name: Rook, betza: R, transforms_to: +R, restrictable: true}
    +R: {name: Rook Magnet, immobile: true, pull: R, restricts: W, transforms_to: R}
---
"""
    board = Board(parse_variant(text))
    moves = legal_set(board)
    assert "a1a1" in moves  # the rook may turn into a magnet
    board.push_uci("a1a1")
    board.push_uci("e8d8")
    assert "d8d8" not in legal_set(board)  # not White's piece
    assert "a1a1" in legal_set(board)


@pytest.mark.slow
def test_h14_random_games_run_to_their_end() -> None:
    """Seeded random games end by rule (no legal move or repetition), without errors."""
    ends: dict[str, int] = {}
    for seed in range(10):
        rng = random.Random(seed)
        board = Board("hordes")
        for _ in range(3000):
            out = board.outcome()
            if out is not None:
                assert out.winner is not None
                ends[out.termination.value] = ends.get(out.termination.value, 0) + 1
                break
            board.push(rng.choice(list(board.legal_moves)))
        else:
            pytest.fail(f"seed {seed}: no end within 3000 plies")
    assert sum(ends.values()) == 10
