"""SAN and PGN for Hordes of Change (rule H20), as documented on the variant's page.

Hordes of Change has no other implementation, so there is no Fairy-Stockfish oracle: the property
that matters is that the notation is a bijection on the legal moves of every position (all strings
distinct, each parsing back to its move), checked at every ply of seeded random games, plus
hand-made positions that pin down each form of the notation.
"""

from __future__ import annotations

import random

import pytest

from hordes import (
    BLACK,
    WHITE,
    AmbiguousMoveError,
    Board,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Piece,
    Termination,
)
from hordes.core import movegen
from hordes.notation import Game, parse_game, parse_san, push_san, san, variation_san, write_game
from hordes.notation.pgn import pgn_variant_name
from hordes.notation.san import parse_san_int, san_int
from hordes.notation.san_mechanisms import pulls

GAMES = 50
PLY_CAP = 100

# White: +R a1, K d1, R c3, N e4, +B f4, B h2; Black: k h8. One change of shape for each kind.
SHAPES = "7k/8/8/8/4N+B2/2R5/7B/+R2K4 w - - 0 1"
# White: +R e1, K h1; Black: k e5 on the magnet's file with e2-e4 empty.
KING_PULL = "8/8/8/4k3/8/8/8/4+R2K w - - 0 1"
# White: +B a1 and +R d4 on its diagonal, K h1; Black: k a8.
MAGNET_PULL = "k7/8/8/8/3+R4/8/8/+B6K w - - 0 1"
# White: +R e1, R e5 (free to go down the file), R b2, K h1; Black: k a8.
OWN_ROOK = "k7/8/8/4R3/8/8/1R6/4+R2K w - - 0 1"
# As OWN_ROOK, with a Black Rook Magnet on e6 that stops the e5 Rook moving south (H9).
OWN_ROOK_RESTRICTED = "k7/8/4+r3/4R3/8/8/1R6/4+R2K w - - 0 1"


def _sans(board: Board) -> dict[int, str]:
    legal = movegen.generate_legal(board)
    return {m: san_int(board, m, legal) for m in legal}


# ----- every legal move of random games ------------------------------------------------------------
def test_h20_every_legal_move_round_trips_and_is_distinct_in_random_games() -> None:
    positions = moves = 0
    forms = {"transform": 0, "pull": 0, "capture": 0, "check": 0, "mate": 0}
    for seed in range(GAMES):
        rng = random.Random(seed)
        board = Board("hordes")
        for _ in range(PLY_CAP):
            legal = movegen.generate_legal(board)
            if not legal or board.outcome() is not None:
                break
            # No two magnets ever pull the same piece to the same square (the landing square is next
            # to the magnet, on the line toward the piece), so a pull needs no disambiguation.
            pairs = [(f, t) for _, f, t in pulls(board)]
            assert len(set(pairs)) == len(pairs), board.fen()
            texts = [san_int(board, m, legal) for m in legal]
            assert len(set(texts)) == len(texts), f"{board.fen()}: duplicate SAN in {sorted(texts)}"
            for m, text in zip(legal, texts, strict=True):
                assert parse_san_int(board, text, legal) == m, f"{board.fen()}: {text!r}"
                forms["transform"] += "=" in text
                forms["pull"] += ":" in text
                forms["capture"] += "x" in text
                forms["check"] += text.endswith("+")
                forms["mate"] += text.endswith("#")
            positions += 1
            moves += len(legal)
            board.push_int(rng.choice(legal))
    assert positions >= GAMES * 10
    # The random games must exercise every form, or the test proves less than it claims.
    assert all(forms[k] for k in ("transform", "pull", "capture", "check")), forms


def test_h20_public_api_round_trips_moves_of_a_random_game() -> None:
    rng = random.Random(7)
    board = Board("hordes")
    for _ in range(40):
        moves = list(board.legal_moves)
        for move in moves:
            assert parse_san(board, san(board, move)) == move
        board.push(rng.choice(moves))


# ----- the forms, one by one -------------------------------------------------------------------------
def test_h20_transformations_of_each_kind() -> None:
    board = Board("hordes", SHAPES)
    texts = set(_sans(board).values())
    assert {"Rc3=+R", "+Bf4=B", "Kd1=N", "Ne4=K", "Bh2=+B", "+Ra1=R"} <= texts
    for text, uci in [("Rc3=+R", "c3c3"), ("+Bf4=B", "f4f4"), ("Kd1=N", "d1d1"), ("Ne4=K", "e4e4")]:
        assert parse_san(board, text).uci() == uci
    after = board.copy()
    push_san(after, "Ne4=K")
    assert after.piece_at(after.geometry.parse_square("e4")) == Piece("K", WHITE)


@pytest.mark.parametrize("text", ["c3c3", "Rc3=+R", "c3=+R", "Rc3+R", "Rc3=+r", "Rc3(+R)", "Rc3/+R"])
def test_h20_transformation_spellings_read(text: str) -> None:
    assert parse_san(Board("hordes", SHAPES), text).uci() == "c3c3"


@pytest.mark.parametrize("text", ["Kd1N", "Kd1=n", "d1d1", "Kd1=N"])
def test_h20_king_to_knight_spellings_read(text: str) -> None:
    assert parse_san(Board("hordes", SHAPES), text).uci() == "d1d1"


def test_h20_wrong_new_kind_names_the_right_change() -> None:
    with pytest.raises(IllegalMoveError, match=r"Rc3=\+R"):
        parse_san(Board("hordes", SHAPES), "Rc3=B")


def test_h20_pull_of_an_enemy_king() -> None:
    board = Board("hordes", KING_PULL)
    move = board.parse_uci("e5e2")
    assert san(board, move) == "+Re1:e5-e2"
    for text in ["+Re1:e5-e2", "e1:e5-e2", "+Re1:e2", "+Re1:e5e2", "e5e2", "Ke5e2"]:
        assert parse_san(board, text) == move, text
    push_san(board, "+Re1:e5-e2")
    assert board.piece_at(board.geometry.parse_square("e2")) == Piece("K", BLACK)  # the King keeps its owner


def test_h20_pull_that_gives_check() -> None:
    # A White Rook on a2 sees e2 along the rank: the pulled King lands in check, and may escape.
    board = Board("hordes", "8/8/8/4k3/8/8/R7/4+R2K w - - 0 1")
    assert san(board, board.parse_uci("e5e2")) == "+Re1:e5-e2+"


def test_h20_pull_of_ones_own_magnet() -> None:
    board = Board("hordes", MAGNET_PULL)
    move = board.parse_uci("d4b2")
    assert san(board, move) == "+Ba1:d4-b2"
    assert parse_san(board, "+Ba1:d4-b2") == move
    assert parse_san(board, "+Rd4b2") == move  # the pulled piece with its full origin, as a move


def test_h20_pull_that_equals_an_ordinary_move_is_written_as_the_move() -> None:
    # The e5 Rook can go to e2 by itself and the e1 magnet can pull it there: one move (H19).
    board = Board("hordes", OWN_ROOK)
    sans = _sans(board)
    e5e2 = board.parse_uci("e5e2")
    assert san(board, e5e2) == "Ree2"  # told apart from the b2 Rook, which also reaches e2
    assert san(board, board.parse_uci("b2e2")) == "Rbe2"
    assert not any(":" in text and text.endswith("e2") for text in sans.values())
    for text in ["Ree2", "R5e2", "Re5e2", "e5e2", "+Re1:e5-e2", "e1:e2"]:
        assert parse_san(board, text) == e5e2, text
    with pytest.raises(AmbiguousMoveError) as info:
        parse_san(board, "Re2")
    assert sorted(info.value.candidates) == ["Rbe2", "Ree2"]


def test_h20_pull_of_a_restricted_own_rook_stays_a_pull() -> None:
    # The Black Rook Magnet on e6 closes the south for the e5 Rook (H9), but not for a pull:
    # the pull is no Rook move, so `Re2` is the b2 Rook alone and needs no disambiguation.
    board = Board("hordes", OWN_ROOK_RESTRICTED)
    assert san(board, board.parse_uci("e5e2")) == "+Re1:e5-e2"
    assert san(board, board.parse_uci("b2e2")) == "Re2"
    assert parse_san(board, "Re2").uci() == "b2e2"
    assert parse_san(board, "Re5e2").uci() == "e5e2"
    with pytest.raises(IllegalMoveError, match=r"legal moves to e3: \+Re1:e5-e2|no legal move reaches e3"):
        parse_san(board, "Re3")


def test_h20_a_capture_that_changes_owner() -> None:
    board = Board("hordes", "k7/2b5/8/8/2R5/8/8/7K w - - 0 1")
    move = board.parse_uci("c4c7")
    assert san(board, move) == "Rxc7"
    for text in ["Rxc7", "Rc7", "Rc4xc7", "c4c7", "R4c7", "Rcxc7"]:
        assert parse_san(board, text) == move, text
    push_san(board, "Rxc7")
    assert board.piece_at(board.geometry.parse_square("c7")) == Piece("R", BLACK)  # now Black's (H5)


def test_h20_mate_is_marked() -> None:
    board = Board("hordes", "k7/8/8/8/8/8/7R/1R5K w - - 0 1")
    move = board.parse_uci("h2a2")
    assert san(board, move) == "Ra2#"
    assert parse_san(board, "Ra2") == move
    board.push(move)
    outcome = board.outcome()
    assert outcome is not None and outcome.termination == Termination.CHECKMATE


def test_h20_repetition_loss_is_not_marked() -> None:
    board = Board("hordes", "k7/8/8/8/8/8/8/7K w - - 0 1")
    line = ["Kh1=N", "Ka8=N", "Nh1=K", "Na8=K"] * 2
    for text in line[:-1]:
        push_san(board, text)
    assert san(board, board.parse_uci("a8a8")) == "Na8=K"
    push_san(board, "Na8=K")
    outcome = board.outcome()
    assert outcome is not None and outcome.termination == Termination.REPETITION_LOSS


def test_h20_variation_san() -> None:
    board = Board("hordes", KING_PULL)
    line = [Move.from_uci(u) for u in ("e5e2", "e2e1", "h1h1")]
    assert variation_san(board, line) == "1. +Re1:e5-e2 Kxe1 2. Kh1=N"
    assert board.fen() == KING_PULL


@pytest.mark.parametrize(
    ("text", "error", "words"),
    [
        ("Kd3", IllegalMoveError, "legal moves to d3: Rd3"),
        ("Rd7", IllegalMoveError, "no legal move reaches d7"),
        ("Qd4", InvalidMoveError, "no piece 'Q'"),
        ("e4", IllegalMoveError, "legal moves to e4: Ne4=K"),
        ("+Re1:e5-e2", IllegalMoveError, "no magnet on e1"),
        ("+Ra1:a8-a2", IllegalMoveError, r"legal pulls of \+Ra1: \+Ra1:d1-b1"),
        ("+Bf4:d2-e3", IllegalMoveError, r"legal pulls of \+Bf4: \+Bf4:h2-g3"),
        ("hello", InvalidMoveError, r"Rc3=\+R"),
        ("+Rd4", IllegalMoveError, "no legal move reaches d4|legal moves to d4"),
    ],
)
def test_h20_bad_text_explains_itself(text: str, error: type[Exception], words: str) -> None:
    with pytest.raises(error, match=words):
        parse_san(Board("hordes", SHAPES), text)


# ----- PGN ---------------------------------------------------------------------------------------------
def _random_game(seed: int, plies: int) -> Board:
    rng = random.Random(seed)
    board = Board("hordes")
    for _ in range(plies):
        legal = movegen.generate_legal(board)
        if not legal or board.outcome() is not None:
            break
        board.push_int(rng.choice(legal))
    return board


@pytest.mark.parametrize("seed", range(8))
def test_h20_pgn_round_trip_of_random_games(seed: int) -> None:
    board = _random_game(1000 + seed, 80 + 40 * seed)
    game = Game.from_board(board, {"White": "random", "Black": "random"})
    text = write_game(game)
    assert f'[Variant "{pgn_variant_name(board.variant)}"]' in text
    assert pgn_variant_name(board.variant) == "Hordes"
    back = parse_game(text)
    assert back.mainline_moves() == board.move_stack
    assert back.headers == {**game.headers, "Variant": "Hordes"}
    assert back.end().board().fen() == board.fen()
    assert write_game(back) == text


def test_h20_pgn_reads_every_spelling() -> None:
    text = (
        '[Variant "Hordes of Change"]\n[FEN "8/8/8/4k3/8/8/8/4+R2K w - - 0 1"]\n[SetUp "1"]\n\n'
        "1. e1:e5-e2 Kxe1 2. h1h1 Ke1=N *\n"
    )
    game = parse_game(text)
    assert [m.uci() for m in game.mainline_moves()] == ["e5e2", "e2e1", "h1h1", "e1e1"]
    assert "1. +Re1:e5-e2 Kxe1 2. Kh1=N Ke1=N *" in write_game(game)
