"""The `mobility` evaluation term (engine/mobility.py): which kinds count, their scales read from
their moves on an empty board, and the count on hand-counted positions, with blockers, captures,
squares that enemy pawns attack, and pieces that move one way and capture another."""

from __future__ import annotations

import pytest

from hordes import Board
from hordes.engine.evaluate import Evaluator
from hordes.engine.mobility import ONE
from hordes.engine.node_static import MobilityWords, use_compiled_static
from hordes.variants import load_variant
from tests.engine.conftest import random_positions

ON = {"mobility": [48, 64]}

# Scales are ONE * 64 / the squares a piece reaches from all 64 squares of an empty board, rounded:
# Knight 336, Bishop 560, Rook 896, Queen 1456, Orda's Lancer (a Knight's move, a Rook's capture) 1232.
KNIGHT, BISHOP, ROOK, QUEEN, LANCER = 49, 29, 18, 11, 13


def _mobility(variant: str) -> Evaluator:
    ev = Evaluator(load_variant(variant), ON)
    assert ev.mobility is not None
    return ev


def test_the_kinds_that_count_and_their_scales_are_read_from_their_moves() -> None:
    chess = load_variant("chess")
    ev = _mobility("chess")
    assert ev.mobility is not None
    assert [chess.pieces[k].letter for k in ev.mobility.kinds] == ["N", "B", "R", "Q"]  # no Pawn, no King
    assert [ev.mobility.scale[2 * k] for k in ev.mobility.kinds] == [KNIGHT, BISHOP, ROOK, QUEEN]
    assert [chess.pieces[k].letter for k in ev.mobility.guards] == ["P"]
    orda = load_variant("orda")
    lancer = next(k for k, p in enumerate(orda.pieces) if p.letter == "L")
    assert _mobility("orda").mobility is not None
    assert Evaluator(orda, ON).mobility.scale[2 * lancer + 1] == LANCER  # type: ignore[union-attr]


def test_mobility_is_not_counted_unless_weighed() -> None:
    assert Evaluator(load_variant("orda")).mobility is None  # Orda's document sets [0, 0]
    assert Evaluator(load_variant("chess"), {"mobility": [0, 0]}).mobility is None
    assert Evaluator(load_variant("chess")).mobility is not None  # chess's document weighs it


@pytest.mark.parametrize(
    ("fen", "expected"),
    [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0),  # the same on both sides
        ("4k3/8/8/8/3N4/8/8/4K3 w - - 0 1", 8 * KNIGHT - ONE),  # all eight squares free
        ("4k3/3p4/8/8/3N4/8/8/4K3 w - - 0 1", 6 * KNIGHT - ONE),  # d7 attacks c6 and e6
        ("4k3/8/8/8/3n4/8/8/4K3 b - - 0 1", -(8 * KNIGHT - ONE)),  # Black's counts against
        ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", 10 * ROOK - ONE),  # a2-a8 and b1-d1: its King stops it
        ("4k3/8/8/8/8/8/1P6/B3K3 w - - 0 1", 0 * BISHOP - ONE),  # its own pawn on b2 shuts it in
        ("4k3/8/8/8/8/8/1p6/B3K3 w - - 0 1", 1 * BISHOP - ONE),  # an enemy one can be taken
        ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", 17 * QUEEN - ONE),  # d2-d8, a4-c2, e2-h5, a1-c1
    ],
)
def test_mobility_in_chess(fen: str, expected: int) -> None:
    chess = load_variant("chess")
    ev = _mobility("chess")
    assert ev.mobility is not None
    assert ev.mobility.count(Board(chess, fen)) == expected


def test_a_piece_that_moves_one_way_and_captures_another_counts_both() -> None:
    """Orda's Lancer on d5: eight Knight's moves to empty squares and one Rook's capture, of the Rook
    on d1 (the Rook's own ray to a5 and the others are empty, and so not counted as captures). The
    Rook on d1: d2-d5, the Lancer included, and a1-c1."""
    orda = load_variant("orda")
    ev = _mobility("orda")
    assert ev.mobility is not None
    board = Board(orda, "4k3/8/8/3l4/8/8/8/3RK3 w - - 0 1")
    assert ev.mobility.count(board) == (7 * ROOK - ONE) - (9 * LANCER - ONE)


def test_mobility_adds_to_the_evaluation_by_its_weights() -> None:
    chess = load_variant("chess")
    board = Board(chess, "4k3/8/8/8/3N4/8/8/4K3 w - - 0 1")  # an endgame: the endgame weight
    off = Evaluator(chess, {"mobility": [0, 0]}).evaluate(board)
    assert Evaluator(chess, ON).evaluate(board) - off == (8 * KNIGHT - ONE) * 64 // ONE


@pytest.mark.parametrize(
    "fen",
    [
        "7Q/8/8/8/8/8/8/1k2K3 w - - 0 1",  # h8 is bit 63, the sign bit of a word
        "7q/6P1/8/8/8/8/8/k3K3 b - - 0 1",
        "4k2r/8/8/3l4/8/8/8/3RK3 w - - 0 1",
    ],
)
def test_the_compiled_and_written_out_node_functions_count_the_same(fen: str) -> None:
    variant = load_variant("orda" if "l" in fen.split()[0] else "chess")
    ev = Evaluator(variant, ON)
    board = Board(variant, fen)
    packed = ev.packed(board)
    expected = ev.evaluate(board) - (ev.race_score(board, packed) if ev.use_race else 0) * (
        1 if board.side == 0 else -1
    )
    assert ev._compiled_node_static(ev.use_shelter).score(board, packed) == expected
    assert ev._node_static_source(ev.use_shelter)(board, packed) == expected


@pytest.mark.parametrize("variant_name", ["hordes", "orda", "chess"])
def test_the_count_on_words_equals_the_reference_count_in_random_positions(variant_name: str) -> None:
    """`Evaluator.extras` counts with MobilityWords in the compiled build (Hordes of Change weighs
    mobility beside terms that are not written out); it must count as Mobility.count does, captures,
    pulls and changes of owner included."""
    variant = load_variant(variant_name)
    ev = Evaluator(variant, ON)
    assert ev.mobility is not None
    words = MobilityWords(ev.mobility)
    for board in random_positions(variant_name, 60, seed=18):
        assert words.count(board) == ev.mobility.count(board), board.fen()


def test_hordes_of_change_counts_mobility_in_its_extras() -> None:
    """Hordes of Change's document weighs mobility, and its plan terms keep it off the written-out
    node function: the term reaches the score through `extras`, by its weights."""
    hordes = load_variant("hordes")
    board = Board(hordes)
    board.push(next(iter(board.legal_moves)))
    ev = Evaluator(hordes)
    assert ev.mobility is not None and ev.mobility_count is not None and not ev.written_out
    if use_compiled_static(64):  # the compiled build counts on words, not in interpreted code
        assert isinstance(getattr(ev.mobility_count, "__self__", None), MobilityWords)
    n = ev.mobility.count(board)
    assert n != 0
    weight = ev.mobility_weight
    assert weight[0] == weight[1]  # one weight: the phase blend leaves it whole
    off = Evaluator(hordes, {"mobility": [0, 0]})
    packed = ev.packed(board)
    assert ev.extras(board, packed) - off.extras(board, packed) == n * weight[0] // ONE
