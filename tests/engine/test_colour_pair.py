"""The `colour_pair` evaluation term (engine/pairs.py): which kinds are colour-bound, read from
their moves, and when a side holds one of them on each square colour."""

from __future__ import annotations

import pytest

from hordes import Board
from hordes.engine.evaluate import Evaluator
from hordes.variants import load_variant

ON = {"colour_pair": [30, 50]}


def _letters(variant: str) -> list[str]:
    v = load_variant(variant)
    ev = Evaluator(v, ON)
    assert ev.pairs is not None
    return [v.pieces[k].letter for k in ev.pairs.kinds]


def test_colour_bound_kinds_are_read_from_their_moves() -> None:
    assert _letters("chess") == ["B"]  # not the Queen, Rook, Knight, Pawn or King
    # chaturanga's Ferz (letter Q) and Alfil (B) are both colour-bound
    assert sorted(_letters("chaturanga")) == ["B", "Q"]


def test_a_variant_without_colour_bound_pieces_has_no_term() -> None:
    ev = Evaluator(load_variant("chess"), {"colour_pair": 0})
    assert ev.pairs is None


@pytest.mark.parametrize(
    ("fen", "expected"),
    [
        ("2b1kb2/8/8/8/8/8/8/2B1KB2 w - - 0 1", 0),  # both sides hold the pair
        ("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", 1),  # White's c1 is dark, f1 light
        ("2b1kb2/8/8/8/8/8/8/4K3 w - - 0 1", -1),
        ("4k3/8/8/8/8/8/8/2B1K1B1 w - - 0 1", 0),  # c1 and g1 are both dark: no pair
        ("4k3/8/8/8/8/8/8/1NB1KN2 w - - 0 1", 0),  # a Knight beside it does not make one
        ("4k3/8/8/8/8/8/1B6/2B1KB2 w - - 0 1", 1),  # three Bishops: still one pair
    ],
)
def test_colour_pair_in_chess(fen: str, expected: int) -> None:
    chess = load_variant("chess")
    ev = Evaluator(chess, ON)
    assert ev.pairs is not None
    assert ev.pairs.count(Board(chess, fen)) == expected


def test_colour_pair_adds_to_the_evaluation_by_its_weights() -> None:
    chess = load_variant("chess")
    board = Board(chess, "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1")  # an endgame
    off = Evaluator(chess, {"colour_pair": 0}).evaluate(board)
    assert Evaluator(chess, ON).evaluate(board) - off == 50
