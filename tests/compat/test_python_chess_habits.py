"""Issue 16 point 1: what a python-chess user types gives python-chess's answers on hordes' chess.

One script of habits runs against python-chess and against hordes in lockstep, over seeded random
games and a few set positions, and every answer is compared. python-chess is the oracle here; only
the names and meanings that both libraries share are exercised.
"""

from __future__ import annotations

import random
from typing import Any

import chess
import pytest

import hordes
from hordes import BLACK, WHITE, Board, Move, Piece

FENS = [
    chess.STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",  # Kiwipete
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",  # fool's mate, White mated
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",  # stalemate
    "8/8/4k3/8/8/3NK3/8/8 w - - 0 1",  # insufficient material
    "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 40",  # promotions both ways
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",  # en passant
]


def habits(board: Any, lib: Any) -> dict[str, Any]:
    """The answers to the habits: `board` is a python-chess or a hordes board, `lib` its module."""
    out: dict[str, Any] = {
        "if turn": "white" if board.turn else "black",
        "turn is WHITE": board.turn == lib.WHITE,
        "turn": board.turn,
        "str": str(board),
        "unicode": board.unicode(),
        "fullmove_number": board.fullmove_number,
        "halfmove_clock": board.halfmove_clock,
        "ply": board.ply(),
        "is_check": board.is_check(),
        "is_checkmate": board.is_checkmate(),
        "is_stalemate": board.is_stalemate(),
        "is_insufficient_material": board.is_insufficient_material(),
        "is_variant_end": board.is_variant_end(),
        "is_repetition": board.is_repetition(),
        "is_repetition(2)": board.is_repetition(2),
        "is_valid": board.is_valid(),
        "is_game_over": board.is_game_over(),
        "result": board.result(),
        "fen": board.fen(),
        "root": board.root().fen(),
    }
    pieces = {}
    for sq in range(64):
        piece = board.piece_at(sq)
        if piece is not None:
            assert piece.color is (piece.symbol().isupper())
            pieces[sq] = (piece.symbol(), piece.color, str(piece))
    out["pieces"] = pieces
    moves = sorted(board.legal_moves, key=lambda m: m.uci())
    out["legal"] = [m.uci() for m in moves]
    out["san"] = [board.san(m) for m in moves]
    out["lan"] = [board.lan(m) for m in moves]
    out["parse_san"] = [board.parse_san(board.san(m)).uci() for m in moves]
    out["variation_san"] = board.variation_san(moves[:1] + _replies(board, moves[:1]))
    outcome = board.outcome()
    out["outcome"] = None if outcome is None else (outcome.winner, outcome.result())
    return out


def _replies(board: Any, first: list[Any]) -> list[Any]:
    """One legal reply to the first move, if there is one (a two-move line for variation_san)."""
    if not first:
        return []
    board.push(first[0])
    try:
        reply = min(board.legal_moves, key=lambda m: m.uci(), default=None)
    finally:
        board.pop()
    return [] if reply is None else [reply]


def _compare(ours: Board, theirs: chess.Board) -> None:
    a, b = habits(ours, hordes), habits(theirs, chess)
    for key in b:
        assert a[key] == b[key], (key, theirs.fen(), a[key], b[key])


@pytest.mark.parametrize("fen", FENS)
def test_p1_habits_agree_on_set_positions(fen: str) -> None:
    _compare(Board("chess", fen), chess.Board(fen))


@pytest.mark.parametrize("seed", range(6))
def test_p1_habits_agree_through_random_games(seed: int) -> None:
    rng = random.Random(seed)
    ours, theirs = Board("chess"), chess.Board()
    for _ in range(60):
        _compare(ours, theirs)
        if theirs.is_game_over():
            break
        move = rng.choice(sorted(theirs.legal_moves, key=lambda m: m.uci()))
        san = theirs.san(move)
        theirs.push(move)
        assert ours.push_san(san).uci() == move.uci()
    _compare(ours, theirs)
    # Taking the whole game back gives the root position, in both.
    while theirs.move_stack:
        assert ours.pop().uci() == theirs.pop().uci()
    _compare(ours, theirs)


def test_p1_repetition_habits() -> None:
    ours, theirs = Board("chess"), chess.Board()
    for san in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"]:
        ours.push_san(san)
        theirs.push_san(san)
        assert ours.is_repetition(2) == theirs.is_repetition(2)
        assert ours.is_repetition() == theirs.is_repetition()
    assert ours.is_repetition(3) and theirs.is_repetition(3)


def test_p1_turn_is_a_bool_and_white_is_true() -> None:
    board = Board("orda")
    assert board.turn is True and WHITE is True and BLACK is False and chess.WHITE is WHITE
    if not board.turn:
        pytest.fail("`if board.turn:` must be true with White to move")
    board.push_san("e4")
    assert board.turn is BLACK
    board.turn = WHITE  # python-chess lets a user hand the move over; the hash follows
    assert board.fen().split()[1] == "w"
    assert board.zobrist_hash() == Board("orda", board.fen()).zobrist_hash()


def test_p1_piece_at_is_a_piece() -> None:
    board = Board("orda")
    khan = board.piece_at(board.geometry.parse_square("e8"))
    assert khan == Piece("K", BLACK) and khan is not None
    assert (khan.symbol(), khan.color, khan.piece_type) == ("k", BLACK, "K")
    assert khan.kind is not None and khan.kind.royal
    assert board.piece_at(board.geometry.parse_square("e4")) is None
    assert board.piece_type_at(board.geometry.parse_square("g8")) == "H"
    assert board.color_at(board.geometry.parse_square("a1")) is WHITE


def test_p1_null_move() -> None:
    null = Move.null()
    assert null.uci() == "0000" and not null and Move.from_uci("0000") == null
    assert chess.Move.null().uci() == null.uci() and bool(chess.Move.null()) == bool(null)
    board = Board("chess")
    assert null not in board.legal_moves
    assert bool(board.parse_uci("e2e4"))


def test_p1_status_names_what_is_wrong() -> None:
    board = Board("chess")
    assert board.status() == hordes.Status.VALID and board.is_valid()
    board.push_san("e4")
    board.turn = WHITE  # White to move again while Black's king... is safe: still valid
    assert board.is_valid()
    mated = Board("chess", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
    mated.turn = BLACK  # now the side not to move (White) is in check
    assert mated.status() & hordes.Status.OPPOSITE_CHECK and not mated.is_valid()
    assert not chess.Board(mated.fen()).is_valid()


def test_p1_variant_end_is_campmate_in_orda() -> None:
    board = Board("orda", "7k/4K3/8/8/8/8/8/8 w - - 0 1")
    board.push_uci("e7e8")
    assert board.is_variant_end() and board.is_variant_loss() and not board.is_variant_win()
    assert not board.is_checkmate() and not board.is_variant_draw()
    outcome = board.outcome()
    assert outcome is not None and outcome.winner is WHITE


def test_p1_layering_the_core_board_has_no_notation() -> None:
    """The core's Board knows rules only; hordes.Board, in the notation layer, adds SAN. A copy or a
    root of a hordes.Board keeps the notation methods."""
    from hordes.core.position import Board as RulesBoard

    assert not hasattr(RulesBoard, "san") and issubclass(Board, RulesBoard)
    board = Board("chess")
    board.push_san("e4")
    for made in (board.copy(), board.root(), board.copy(stack=False)):
        assert isinstance(made, Board) and made.san(made.parse_san("Nf3" if made.turn else "Nc6"))
