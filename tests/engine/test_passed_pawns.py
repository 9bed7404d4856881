"""The `passed_pawn` evaluation term (engine/pawns.py): which pawns are passed, and what each is
worth, in chess and in Orda, whose Horde's pawns are pawns of the document like any other."""

from __future__ import annotations

import pytest

from hordes import Board
from hordes.engine.evaluate import Evaluator
from hordes.variants import load_variant

ON = {"passed_pawn": [2, 6]}


def _passed(variant: str, fen: str) -> int:
    ev = Evaluator(load_variant(variant), ON)
    assert ev.passed is not None
    return ev.passed.score(Board(variant, fen))


@pytest.mark.parametrize(
    ("fen", "expected"),
    [
        ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", 0),  # on its first square: come no rank beyond its first step
        ("4k3/8/8/4P3/8/8/8/4K3 w - - 0 1", 9),  # fifth rank: (4 ranks come less one) squared
        ("4k3/4P3/8/8/8/8/8/4K3 w - - 0 1", 25),  # seventh rank
        ("4k3/3p4/8/8/8/8/4P3/4K3 w - - 0 1", 0),  # each stands in the other's span ahead
        ("4k3/8/8/8/8/3p4/4P3/4K3 w - - 0 1", 0),
        ("4k3/8/8/8/4P3/8/3p4/4K3 w - - 0 1", 4 - 25),  # the pawns have passed each other: both free
        ("4k3/2p5/8/8/8/8/4P3/4K3 w - - 0 1", 0),  # two files apart: both passed, neither has come
        ("4k3/8/3p4/8/8/8/8/4K3 w - - 0 1", -1),  # Black's, counted from its own side
        ("4k3/8/8/8/8/8/3p4/4K3 w - - 0 1", -25),
        ("4k3/8/3n4/4P3/8/8/8/4K3 w - - 0 1", 9),  # a piece ahead does not stop a passed pawn
    ],
)
def test_passed_pawn_worth_in_chess(fen: str, expected: int) -> None:
    assert _passed("chess", fen) == expected


def test_passed_pawn_counts_the_horde_in_orda() -> None:
    # Orda's start: every pawn faces an enemy pawn on its file
    assert _passed("orda", "lhaykahl/8/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1") == 0
    # a Horde pawn on the third rank with no White pawn left ahead of it: (5 ranks come less one)²
    assert _passed("orda", "4ka2/8/8/8/8/p7/8/4K3 w - - 0 1") == -16


def test_passed_pawn_adds_to_the_evaluation_by_its_weights() -> None:
    fen = "4k3/4P3/8/8/8/8/8/4K3 w - - 0 1"
    chess = load_variant("chess")
    off = Evaluator(chess, {"passed_pawn": 0}).evaluate(Board(chess, fen))
    on = Evaluator(chess, ON).evaluate(Board(chess, fen))
    assert on - off == 25 * 6  # an endgame: the endgame weight, 6 a unit
    # chess's document weighs it at [8, 10] (its SPRT, docs/benchmarks.md); Orda's leaves it off
    assert Evaluator(chess).evaluate(Board(chess, fen)) - off == 25 * 10
    assert Evaluator(load_variant("orda")).params.passed_pawn == (0, 0)
