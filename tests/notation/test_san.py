"""SAN writing and forgiving reading, on hand-made positions whose SAN Fairy-Stockfish confirmed.

The expected strings were produced by pyffish.get_san (0.0.90) and are checked against it again here,
so the table documents how Fairy-Stockfish writes campmates, divergent pieces and disambiguation.
"""

from __future__ import annotations

import pytest

from hordes import AmbiguousMoveError, Board, IllegalMoveError, InvalidMoveError, Move
from hordes.notation import parse_san, push_san, san, variation_san
from tests.fsf import oracle

# (variant, FEN, UCI move, SAN as Fairy-Stockfish writes it)
FSF_CASES = [
    ("orda", "8/4K3/8/8/8/8/k7/8 w - - 0 1", "e7d8", "Kd8"),
    ("orda", "8/R3K2k/8/8/8/8/8/8 w - - 0 1", "e7d8", "Kd8#"),
    ("khans", "8/8/8/8/8/8/r2k2K1/8 b - - 0 1", "d2d1", "Kd1#"),
    ("khans", "4k3/8/8/8/8/2s1s3/8/4K3 b - - 0 1", "c3d1t", "Scd1=T+"),
    ("khans", "4k3/8/8/8/3s4/3P4/8/3QK3 b - - 0 1", "d4d3", "Sxd3"),
    ("orda", "3k4/8/2l1l3/8/8/8/8/7K b - - 0 1", "c6d4", "Lcd4"),
    ("orda", "k2l4/8/8/8/3P4/7K/8/3l4 b - - 0 1", "d8d4", "L8xd4"),
    ("orda", "k2l4/8/2l5/8/3P4/7K/8/8 b - - 0 1", "d8d4", "Lxd4"),
    ("orda", "7k/8/8/8/8/8/8/a1a4K b - - 0 1", "a1b3", "Aab3"),
    ("orda", "7k/6a1/8/8/3P4/8/8/a6K b - - 0 1", "g7d4", "Agxd4"),
    ("chess", "2k5/8/8/8/Q6Q/8/8/4K2Q w - - 0 1", "h1e4", "Q1e4"),
    ("chess", "2k5/8/8/8/Q6Q/8/8/4K2Q w - - 0 1", "h4e4", "Qh4e4"),
    ("chess", "2k5/8/8/8/Q6Q/8/8/4K2Q w - - 0 1", "a4e4", "Qae4"),
    ("orda", "7k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8h", "e8=H"),
    ("orda", "6k1/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8q", "e8=Q+"),
    ("orda", "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1", "e2e4", "e4"),
    ("orda", "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1", "d4e3", "dxe3"),
    ("orda", "lhaykahl/8/pppppppp/8/8/8/PPPPPPPP/R3K2R w KQ - 0 1", "e1g1", "O-O"),
    ("orda", "lhaykahl/8/pppppppp/8/8/8/PPPPPPPP/R3K2R w KQ - 0 1", "e1c1", "O-O-O"),
    ("orda", "8/8/8/8/8/8/2k5/7K b - - 0 1", "c2c1", "Kc1"),
    ("chess", "6k1/5ppp/8/8/8/8/8/R3K3 w Q - 0 1", "a1a8", "Ra8#"),
    ("chess", "6k1/5ppp/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1", "O-O-O"),
    ("khans", "4k3/8/8/8/8/8/3s4/3QK3 b - - 0 1", "d2d1t", "Sxd1=T+"),
    ("khans", "7k/8/8/8/8/8/8/4K3 w - - 0 1", "e1f2", "Kf2"),
]
NOTES = {
    "Kd8": "campmate without check: no mark",
    "Kd8#": "campmate that uncovers a check: '#', the game is over",
    "Scd1=T+": "two Scouts promote on d1: disambiguated like any piece",
    "Sxd3": "a Scout is not a pawn: its letter, and no forced file",
    "Lcd4": "two Lancers leap to d4",
    "L8xd4": "two Lancers capture on d4 along the d-file",
    "Lxd4": "the other Lancer could only leap to d4 if it were empty: no disambiguation",
}


@pytest.mark.parametrize(("variant", "fen", "uci", "expected"), FSF_CASES)
def test_san_matches_fairy_stockfish(variant: str, fen: str, uci: str, expected: str) -> None:
    board = Board(variant, fen)
    move = board.parse_uci(uci)
    assert san(board, move) == expected, NOTES.get(expected, "")
    assert oracle().get_san(variant, fen, uci) == expected  # type: ignore[attr-defined]
    assert parse_san(board, expected) == move
    assert board.fen() == fen  # writing SAN leaves the board as it was


@pytest.mark.parametrize(
    ("text", "uci"),
    [
        ("Nf3", "g1f3"),
        ("Ng1f3", "g1f3"),
        ("g1f3", "g1f3"),
        ("N-f3", "g1f3"),
        ("Ng1-f3", "g1f3"),
        ("Nf3+", "g1f3"),
        ("Nf3#", "g1f3"),
        ("Nf3!?", "g1f3"),
        ("Nf3 ??", "g1f3"),
        ("Nxf3", "g1f3"),
        ("e4", "e2e4"),
        ("Pe4", "e2e4"),
        ("e2e4", "e2e4"),
        ("e2-e4", "e2e4"),
        ("N1f3", "g1f3"),
    ],
)
def test_forgiving_parse_from_start(text: str, uci: str) -> None:
    assert parse_san(Board("chess"), text).uci() == uci


@pytest.mark.parametrize("text", ["O-O", "0-0", "O-O+", "OO", "Kg1", "e1g1", "o-o"])
def test_castling_spellings(text: str) -> None:
    board = Board("chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert parse_san(board, text).uci() == "e1g1"


@pytest.mark.parametrize("text", ["O-O-O", "0-0-0", "Kc1", "e1c1"])
def test_long_castling_spellings(text: str) -> None:
    board = Board("chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert parse_san(board, text).uci() == "e1c1"


@pytest.mark.parametrize("text", ["e8=Q", "e8Q", "e8q", "e8(Q)", "e8=Q+", "e7e8q", "e8/Q"])
def test_promotion_spellings(text: str) -> None:
    board = Board("orda", "6k1/4P3/8/8/8/8/8/4K3 w - - 0 1")
    assert parse_san(board, text).uci() == "e7e8q"


def test_promotion_needs_a_piece_when_there_is_a_choice() -> None:
    board = Board("orda", "6k1/4P3/8/8/8/8/8/4K3 w - - 0 1")
    with pytest.raises(AmbiguousMoveError) as err:
        parse_san(board, "e8")
    assert "e8=Q+" in str(err.value) and "e8=H" in str(err.value)


def test_promotion_with_a_single_choice_may_omit_it() -> None:
    board = Board("khans", "4k3/8/8/8/8/8/3s4/3QK3 b - - 0 1")
    assert parse_san(board, "Sxd1").uci() == "d2d1t"


def test_en_passant_marks() -> None:
    board = Board("orda", "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1")
    for text in ("dxe3", "dxe3 e.p.", "dxe3e.p.", "dxe3ep", "de3", "d4e3"):
        assert parse_san(board, text).uci() == "d4e3", text


def test_ambiguous_names_the_candidates() -> None:
    board = Board("chess", "2k5/8/8/8/Q6Q/8/8/4K2Q w - - 0 1")
    with pytest.raises(AmbiguousMoveError) as err:
        parse_san(board, "Qe4")
    message = str(err.value)
    assert "Qae4" in message and "Qh4e4" in message and "Q1e4" in message
    with pytest.raises(AmbiguousMoveError):
        parse_san(board, "Qhe4")  # h4 and h1
    assert parse_san(board, "Qh1e4").uci() == "h1e4"
    assert parse_san(board, "Q1e4").uci() == "h1e4"


def test_ambiguity_is_an_illegal_move_error_too() -> None:
    board = Board("orda", "3k4/8/2l1l3/8/8/8/8/7K b - - 0 1")
    with pytest.raises(IllegalMoveError):
        parse_san(board, "Ld4")


def test_illegal_names_the_moves_to_that_square() -> None:
    board = Board("orda", "k2l4/8/2l5/8/3P4/7K/8/8 b - - 0 1")
    with pytest.raises(IllegalMoveError) as err:
        parse_san(board, "Lcxd4")  # a Lancer cannot leap onto an enemy
    assert "Lxd4" in str(err.value)
    with pytest.raises(IllegalMoveError, match="no legal move reaches"):
        parse_san(Board("chess"), "Nf6")


@pytest.mark.parametrize("text", ["", "Zf3", "xyz", "Nf9", "O-O-O-O", "e9", "Nz3", "e8=Z"])
def test_malformed(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        parse_san(Board("chess"), text)


def test_piece_letter_of_another_variant_is_malformed() -> None:
    with pytest.raises(InvalidMoveError, match="no piece 'L'"):
        parse_san(Board("chess"), "Lc6")


def test_lowercase_piece_letters_are_not_guessed() -> None:
    board = Board("chess", "4k3/8/8/B7/8/2p5/1P6/4K3 w - - 0 1")
    assert parse_san(board, "bxc3").uci() == "b2c3"  # b is a file: the pawn takes
    assert parse_san(board, "Bxc3").uci() == "a5c3"


def test_push_san_and_variation_san() -> None:
    board = Board("orda")
    moves = [push_san(board, t) for t in ("e4", "Hf7", "Nf3", "Hd7")]
    assert board.fen().startswith("l1ayka1l/3h1h2/")
    line = moves.copy()
    for _ in moves:
        board.pop()
    assert variation_san(board, line) == "1. e4 Hf7 2. Nf3 Hd7"
    board.push(moves[0])
    assert variation_san(board, line[1:]) == "1...Hf7 2. Nf3 Hd7"
    assert len(board.move_stack) == 1


def test_variation_san_rejects_an_illegal_line_and_restores() -> None:
    board = Board("chess")
    with pytest.raises(IllegalMoveError):
        variation_san(board, [board.parse_uci("e2e4"), board.parse_uci("e2e4")])
    assert board.fen() == Board("chess").fen()


def test_san_of_an_illegal_move() -> None:
    board = Board("chess")
    with pytest.raises(IllegalMoveError):
        san(board, Move(12, 36))  # e2-e5


def test_checkmate_mark_in_chess() -> None:
    board = Board("chess")
    for t in ("f3", "e5", "g4"):
        push_san(board, t)
    assert san(board, parse_san(board, "Qh4")) == "Qh4#"
    assert variation_san(board, [parse_san(board, "Qh4#")]) == "2...Qh4#"


@pytest.mark.parametrize("variant", ["chess", "orda", "khans"])
def test_fast_path_agrees_with_the_full_move_list(variant: str) -> None:
    """push_san_int resolves SAN without generating every move; it must pick exactly the move
    parse_san_int picks, for every legal move and several spellings, and leave errors to it."""
    import random

    from hordes.core import movegen
    from hordes.notation.san import _push_fast, parse_san_int, push_san_int, san_int

    for seed in range(6):
        rng = random.Random(seed)
        board = Board(variant)
        for _ in range(150):
            legal = movegen.generate_legal(board)
            if not legal or board.outcome() is not None:
                break
            fen = board.fen()
            for m in legal:
                text = san_int(board, m, legal)
                uci = board.int_to_move(m).uci()
                for spelling in (text, uci, text.rstrip("+#") + "!?"):
                    fast = _push_fast(board, spelling)
                    if fast >= 0:
                        assert fast == m, (fen, spelling)
                        board.pop_int()
                    assert board.fen() == fen
                    assert parse_san_int(board, spelling, legal) == m
            for wrong in ("Qa1", "Kh8", "e5", "Nd7", "a8=Q", "Lxd4", "Sd1"):
                try:
                    expected = parse_san_int(board, wrong, legal)
                except ValueError:
                    expected = -1
                fast = _push_fast(board, wrong)
                if fast >= 0:
                    board.pop_int()
                assert fast in (-1, expected), (fen, wrong)
                assert board.fen() == fen
            m = rng.choice(legal)
            assert push_san_int(board, san_int(board, m, legal)) == m
