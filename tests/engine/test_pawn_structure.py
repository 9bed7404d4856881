"""The pawn-structure evaluation terms (engine/pawns.py). `passed_pawn`: which pawns are passed, and
what each is worth, in chess and in Orda, whose Horde's pawns are pawns of the document like any
other. `isolated_pawn` and `doubled_pawn`: which pawns count."""

from __future__ import annotations

import pytest

from hordes import Board
from hordes.engine.evaluate import Evaluator
from hordes.variants import load_variant

ON = {"passed_pawn": [2, 6]}


def _passed(variant: str, fen: str) -> int:
    ev = Evaluator(load_variant(variant), ON)
    assert ev.pawns is not None
    return ev.pawns.score(Board(variant, fen))


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


def _structure(variant: str, fen: str) -> tuple[int, int]:
    ev = Evaluator(load_variant(variant), {"isolated_pawn": [-5, -15]})
    assert ev.pawns is not None
    _, isolated, doubled = ev.pawns.counts(Board(variant, fen))
    return isolated, doubled


@pytest.mark.parametrize(
    ("fen", "expected"),
    [
        ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", (1, 0)),  # alone on the board: isolated
        ("4k3/8/8/8/8/8/3PP3/4K3 w - - 0 1", (0, 0)),  # neighbours guard each other's files
        ("4k3/8/8/8/8/3P4/4P3/4K3 w - - 0 1", (0, 0)),  # a neighbour on any rank will do
        ("4k3/8/8/8/4P3/8/4P3/4K3 w - - 0 1", (2, 1)),  # doubled: both isolated, the rear one doubled
        ("4k3/8/8/8/4P3/4P3/4P3/4K3 w - - 0 1", (3, 2)),  # tripled: two stand behind one of their own
        ("4k3/8/8/8/4P3/8/2P1P3/4K3 w - - 0 1", (3, 1)),  # c and e are two files apart: no neighbours
        ("4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1", (0, 0)),  # an enemy pawn ahead does not double: equal
        ("4k3/4p3/4p3/8/8/8/3PP3/4K3 w - - 0 1", (-2, -1)),  # Black's, counted for Black
        ("4k3/8/8/8/8/8/P6P/4K3 w - - 0 1", (2, 0)),  # edge files have one neighbour
        ("4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1", (1, 0)),  # a piece is no pawn
    ],
)
def test_isolated_and_doubled_pawns_in_chess(fen: str, expected: tuple[int, int]) -> None:
    assert _structure("chess", fen) == expected


def test_isolated_and_doubled_pawns_count_the_horde_in_orda() -> None:
    # Orda's start: two full ranks of pawns, none isolated or doubled
    assert _structure("orda", "lhaykahl/8/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1") == (0, 0)
    # Horde pawns doubled on the a-file with none on b: two isolated, one doubled, for Black
    assert _structure("orda", "4ka2/8/8/p7/8/p7/8/4K3 w - - 0 1") == (-2, -1)


def test_pawn_structure_adds_to_the_evaluation_by_its_weights() -> None:
    fen = "4k3/8/8/8/4P3/8/4P3/4K3 w - - 0 1"  # an endgame: one doubled pair, both isolated
    chess = load_variant("chess")
    board = Board(chess, fen)
    off = {"passed_pawn": 0, "isolated_pawn": 0, "doubled_pawn": 0}
    base = Evaluator(chess, off).evaluate(board)
    isolated = Evaluator(chess, {**off, "isolated_pawn": [-5, -15]}).evaluate(board)
    doubled = Evaluator(chess, {**off, "doubled_pawn": [-11, -56]}).evaluate(board)
    assert isolated - base == 2 * -15
    assert doubled - base == 1 * -56


def test_isolated_and_doubled_pawns_are_counted_only_where_weighed() -> None:
    # chess's document weighs passed pawns only: the two other counts are skipped, as every node
    # would pay for them
    board = Board("chess", "4k3/8/8/8/4P3/8/4P3/4K3 w - - 0 1")
    ev = Evaluator(load_variant("chess"))
    assert ev.pawns is not None and not ev.pawns.structure
    assert ev.pawns.counts(board)[1:] == (0, 0)
    assert _structure("chess", board.fen()) == (2, 1)
