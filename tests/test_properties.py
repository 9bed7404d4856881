"""Property tests (hypothesis) over positions reached by random play in every variant."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from hordes import Board, Move
from hordes.core.movegen import in_check

VARIANTS = ["chess", "orda", "khans"]


def random_board(variant: str, seed: int, plies: int) -> Board:
    rng = random.Random(seed)
    board = Board(variant)
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves or board.outcome() is not None:
            break
        board.push(rng.choice(moves))
    return board


boards = st.builds(
    random_board,
    st.sampled_from(VARIANTS),
    st.integers(min_value=0, max_value=10**6),
    st.integers(min_value=0, max_value=120),
)


@settings(max_examples=60, deadline=None)
@given(boards)
def test_fen_round_trip(board: Board) -> None:
    again = Board(board.variant, board.fen())
    assert again.fen() == board.fen()
    assert again.zobrist_hash() == board.zobrist_hash()  # the incremental hash equals a fresh one
    assert sorted(m.uci() for m in again.legal_moves) == sorted(m.uci() for m in board.legal_moves)


@settings(max_examples=60, deadline=None)
@given(boards, st.integers(min_value=0, max_value=10**6))
def test_pop_restores_position_and_hash(board: Board, seed: int) -> None:
    moves = list(board.legal_moves)
    if not moves:
        return
    move = random.Random(seed).choice(moves)
    fen, h, stack = board.fen(), board.zobrist_hash(), board.move_stack
    board.push(move)
    assert board.fen() != fen
    assert board.pop() == move
    assert board.fen() == fen
    assert board.zobrist_hash() == h
    assert board.move_stack == stack


@settings(max_examples=40, deadline=None)
@given(boards)
def test_a_move_is_listed_exactly_when_it_is_legal(board: Board) -> None:
    listed = set(board.legal_moves)
    size = board.geometry.size
    letters = [None] + [p.letter for p in board.variant.pieces if not p.royal]
    # Every from/to pair, with every promotion letter: legal exactly when listed.
    for frm in range(size):
        if board.piece_at(frm) is None:
            continue
        for to in range(size):
            for promo in letters:
                move = Move(frm, to, promo)
                assert (move in board.legal_moves) == (move in listed), move.uci()


@settings(max_examples=30, deadline=None)
@given(boards)
def test_legal_moves_leave_no_royal_in_check(board: Board) -> None:
    mover = board.side
    for move in board.legal_moves:
        board.push(move)
        assert not in_check(board, mover), f"{move} leaves the mover in check in {board.fen()}"
        board.pop()


@settings(max_examples=30, deadline=None)
@given(boards)
def test_copy_is_independent(board: Board) -> None:
    copy = board.copy()
    moves = list(copy.legal_moves)
    if moves:
        copy.push(moves[0])
        assert copy.fen() != board.fen()
    assert Board(board.variant, board.fen()).fen() == board.fen()
