"""The Board API: construction, errors, moves, outcomes — the python-chess-like surface."""

from __future__ import annotations

import random

import pytest

from hordes import (
    BLACK,
    COLOR_NAMES,
    COLORS,
    WHITE,
    Board,
    Color,
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    Move,
    Termination,
)
from hordes.core import movegen


def test_start_positions() -> None:
    assert Board().fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    assert Board("orda").fen() == "lhaykahl/8/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1"
    assert Board("khans").fen() == "lhatkahl/ssssssss/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1"
    assert Board("orda").side_to_move == WHITE


@pytest.mark.parametrize(
    ("fen", "field", "fragment"),
    [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "placement", "expected 8 ranks"),
        ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement", "rank 6 has 9 squares"),
        ("rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement", "'x' is not a piece"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move", "expected 'w' or 'b'"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1", "castling", "unexpected character 'x'"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1", "en passant", "z9"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "halfmove clock", "non-negative"),
        ("rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "placement", "black has no royal piece"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w kq - 0 1", "placement", "white has 2 royal pieces"),
        ("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "placement", "P on a8 stands on its promotion rank"),
        ("4k2R/8/8/8/8/8/8/4K3 w - - 0 1", "placement", "the side not to move is in check"),
    ],
)
def test_invalid_fen_names_the_field(fen: str, field: str, fragment: str) -> None:
    with pytest.raises(InvalidFenError) as info:
        Board("chess", fen)
    assert info.value.field == field
    assert fragment in str(info.value)
    assert isinstance(info.value, ValueError)


def test_fen_field_defaults_and_ep_normalisation() -> None:
    board = Board("chess", "4k3/8/8/8/8/8/8/4K3 w - -")
    assert board.fen() == "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
    # An en passant square no pawn can use is dropped, as Fairy-Stockfish and python-chess do.
    board = Board("chess", "4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1")
    assert board.ep_square == -1


def test_push_pop_and_move_stack() -> None:
    board = Board("orda")
    e4 = board.push_uci("e2e4")
    assert e4 == Move.from_uci("e2e4")
    assert board.move_stack == [e4]
    assert board.turn == BLACK
    assert board.pop() == e4
    assert board.fen() == Board("orda").fen()
    with pytest.raises(IndexError):
        board.pop()


def test_illegal_and_malformed_moves_name_move_and_position() -> None:
    board = Board("orda")
    with pytest.raises(IllegalMoveError) as info:
        board.push_uci("e2e5")
    assert "e2e5" in str(info.value) and board.fen() in str(info.value)
    with pytest.raises(InvalidMoveError, match="not a UCI move"):
        board.push_uci("hello")
    with pytest.raises(InvalidMoveError, match="off the 8x8 board"):
        board.push_uci("e2e9")
    with pytest.raises(IllegalMoveError):
        board.push(Move(0, 63))
    assert board.fen() == Board("orda").fen()  # nothing changed


def test_legal_moves_view() -> None:
    board = Board("orda")
    view = board.legal_moves
    assert view.count() == len(view) == 20
    assert Move.from_uci("g1f3") in view
    assert Move.from_uci("g1g3") not in view
    assert "g1f3" not in view  # only Move objects are members
    assert bool(view)


def test_promotion_choices_follow_the_document() -> None:
    board = Board("orda", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    promos = sorted(m.uci() for m in board.legal_moves if m.from_square == 48)
    assert promos == ["a7a8h", "a7a8q"]
    # A Scout leaps only forward (towards rank 1 for Black) and promotes to a Khatun there.
    board = Board("khans", "4k3/8/8/8/8/8/s7/7K b - - 0 1")
    assert sorted(m.uci() for m in board.legal_moves if m.from_square == 8) == ["a2c1t"]
    board = Board("khans", "4k3/8/8/8/1s6/8/8/7K b - - 0 1")
    assert sorted(m.uci() for m in board.legal_moves if m.from_square == 25) == ["b4a2", "b4c2", "b4d3"]


def test_divergent_pieces_check_only_in_capture_mode() -> None:
    # A Lancer two files from the king on an open rank gives check; a knight's leap away it does not.
    assert Board("orda", "4k3/8/8/8/8/8/8/K1l5 w - - 0 1").is_check()
    assert not Board("orda", "4k3/8/8/8/8/8/1l6/K7 w - - 0 1").is_check()
    assert Board("orda", "4k3/8/8/8/8/8/8/K6a w - - 0 1").is_check() is False
    assert Board("orda", "4k3/8/8/8/8/8/8/K5a1 w - - 0 1").is_check() is False
    assert Board("orda", "4k3/6a1/8/8/8/8/8/K7 w - - 0 1").is_check()


def test_checkmate_outcome() -> None:
    board = Board("chess")
    for uci in ("f2f3", "e7e5", "g2g4", "d8h4"):
        board.push_uci(uci)
    out = board.outcome()
    assert out is not None and out.termination == Termination.CHECKMATE and out.winner == BLACK
    assert out.result() == "0-1" and board.is_game_over() and board.result() == "0-1"


def test_stalemate_is_a_draw_in_chess_and_a_loss_in_khans() -> None:
    chess = Board("chess", "k7/2Q5/1K6/8/8/8/8/8 b - - 0 1")
    out = chess.outcome()
    assert out is not None and out.termination == Termination.STALEMATE and out.winner is None
    khans = Board("khans", "k7/2Q5/1K6/8/8/8/8/8 b - - 0 1")
    out = khans.outcome()
    assert out is not None and out.termination == Termination.STALEMATE and out.winner == WHITE


def test_campmate_wins_and_ends_the_move_list() -> None:
    board = Board("orda", "7k/3K4/8/8/8/8/8/8 w - - 0 1")
    assert board.outcome() is None
    board.push_uci("d7d8")
    out = board.outcome()
    assert out is not None and out.termination == Termination.CAMPMATE and out.winner == WHITE
    assert board.legal_moves.count() == 0


def test_campmate_square_must_be_safe() -> None:
    # d8 is covered by the Lancer on a8 (captures along the rank): the king may not go there.
    board = Board("orda", "l6k/3K4/8/8/8/8/8/8 w - - 0 1")
    assert Move.from_uci("d7d8") not in board.legal_moves
    assert Move.from_uci("d7c8") not in board.legal_moves


def test_threefold_repetition_and_n_move_rule() -> None:
    board = Board("chess")
    for uci in ["g1f3", "g8f6", "f3g1", "f6g8"] * 2:
        assert board.outcome() is None
        board.push_uci(uci)
    out = board.outcome()
    assert out is not None and out.termination == Termination.THREEFOLD_REPETITION
    assert board.repetitions() == 3
    board = Board("chess", "4k3/8/8/8/8/8/8/R3K3 w - - 99 80")
    assert board.outcome() is None
    board.push_uci("a1a2")
    out = board.outcome()
    assert out is not None and out.termination == Termination.N_MOVE_RULE


def test_insufficient_material() -> None:
    out = Board("chess", "4k3/8/8/8/8/8/8/4KB2 w - - 0 1").outcome()
    assert out is not None and out.termination == Termination.INSUFFICIENT_MATERIAL
    assert Board("chess", "4k3/8/8/8/8/8/8/4KR2 w - - 0 1").outcome() is None
    assert Board("orda", "4k3/8/8/8/8/8/8/4K3 w - - 0 1").outcome() is None  # a bare king can camp


def test_castling_rights_and_moves() -> None:
    board = Board("chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    moves = {m.uci() for m in board.legal_moves}
    assert {"e1g1", "e1c1"} <= moves
    board.push_uci("e1g1")
    assert board.fen() == "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1"
    board.push_uci("a8b8")
    assert board.castling_fen() == "k"
    # Orda: only White castles; the Horde has no rook.
    assert Board("orda").castling_fen() == "KQ"


def test_en_passant_by_the_horde() -> None:
    board = Board("orda", "4k3/8/8/8/5p2/8/4P3/4K3 w - - 0 1")
    board.push_uci("e2e4")
    assert board.fen().split()[3] == "e3"
    board.push_uci("f4e3")
    assert board.fen() == "4k3/8/8/8/8/4p3/8/4K3 w - - 0 2"


def test_zobrist_hash_depends_on_side_castling_and_ep() -> None:
    a = Board("chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    b = Board("chess", "r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1")
    c = Board("chess", "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1")
    assert len({a.zobrist_hash(), b.zobrist_hash(), c.zobrist_hash()}) == 3
    assert a.zobrist_hash() == Board("chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 5 9").zobrist_hash()


def test_zobrist_hash_is_the_unsigned_xor_of_the_keys_after_any_moves() -> None:
    # The Board keeps its hash signed (a native i64 in the compiled build); the public value is the
    # unsigned 64-bit XOR of the position's keys, the same in both builds and after push/pop, null
    # moves and a turn change.
    rng = random.Random(7)
    for name in ("chess", "orda", "hordes"):
        board = Board(name)
        for _ in range(40):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
            comp = board.compiled
            expected = 0
            for sq, code in enumerate(board.mailbox):
                if code >= 0:
                    expected ^= comp.z_piece[code][sq]
            if board.side:
                expected ^= comp.z_turn
            for sq in range(board.geometry.size):
                if board.castling >> sq & 1:
                    expected ^= comp.z_castle[sq]
            if board.ep_square >= 0:
                expected ^= comp.z_ep[board.ep_square % comp.cols]
            h = board.zobrist_hash()
            assert 0 <= h < 1 << 64 and h == expected & (1 << 64) - 1
            assert h == Board(name, board.fen()).zobrist_hash()
        board.push_null()
        board.pop_null()
        board.pop()
        assert board.zobrist_hash() == Board(name, board.fen()).zobrist_hash()


def test_colors_are_python_chess_bools() -> None:
    assert WHITE is True and BLACK is False and Color is bool
    assert COLOR_NAMES[WHITE] == "white" and COLOR_NAMES[BLACK] == "black" and COLORS == [WHITE, BLACK]


def test_a_copy_keeps_its_own_history_when_both_boards_play_on() -> None:
    # Undo records hold the bitboard lists as they were before each move; they are never changed
    # afterwards, so a copy sharing them pops back to the right position whatever the original plays.
    board = Board("chess")
    board.push_uci("e2e4")
    other = board.copy()
    board.pop()
    board.push_uci("d2d4")
    other.pop()
    fresh = Board("chess")
    assert (other.kind_bb, other.occ, other.zobrist_hash()) == (
        fresh.kind_bb,
        fresh.occ,
        fresh.zobrist_hash(),
    )
    assert sorted(m.uci() for m in other.legal_moves) == sorted(m.uci() for m in fresh.legal_moves)


def test_moves_played_counts_the_move_stack() -> None:
    board = Board("hordes")
    for _ in range(6):
        move = next(iter(board.legal_moves))
        board.push(move)
        assert board.moves_played() == len(board.move_stack)
    board.pop()
    assert board.moves_played() == len(board.move_stack) == 5
    assert board.push_uci(board.uci(next(iter(board.legal_moves)))) == board.peek()
    assert board.moves_played() == 6


@pytest.mark.parametrize("variant", ["chess", "orda", "hordes"])
def test_a_legal_list_given_once_gives_the_same_parse_and_outcome(variant: str) -> None:
    # parse_uci_int and outcome take the position's legal list where the caller has made it (the
    # web tier: one list for the parse, the SAN and the push); the answers are the ones without it.
    rng = random.Random(len(variant))
    board = Board(variant)
    for _ in range(120):
        legal = movegen.generate_legal(board)
        assert board.outcome(legal=legal) == board.outcome()
        if not legal:
            break
        text = board.uci(board.int_to_move(rng.choice(legal)))
        assert board.parse_uci_int(text, legal) == board.parse_uci_int(text)
        board.push_int(board.parse_uci_int(text, legal))
    with pytest.raises(IllegalMoveError):
        Board("chess").parse_uci_int("e2e5", movegen.generate_legal(Board("chess")))
