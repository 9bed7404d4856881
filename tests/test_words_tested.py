"""The make-and-test generator on 64-bit words (hordes.core.words_tested) gives the moves of movegen's
own make-and-test path, in the same order, with and without `noisy` and `any_move`: in Hordes of
Change, and in a document that switches the mechanisms on in other shapes (two royal kinds, a piece
that moves and captures differently, pulls along knight lines, restrictions at a distance).

Both run in either build: the word tables are built here even where movegen would not use them (the
pure build), and movegen's path is what it runs once a variant's `tested` is None.
"""

from __future__ import annotations

import random

import pytest

from hordes import Board, build_kind, parse_variant
from hordes.core import movegen, words_tested
from hordes.core.rules import Variant
from hordes.variants import builtin_variants, example_variants, fairy_variants

MECHANISMS = """---
title: Mechanism Test
slug: mechtest
engine:
  topology: {type: grid, rows: 8, cols: 8}
  players: [white, black]
  setup: "k1q1a3/nbn1+n3/8/2+z5/5+Z2/8/NBN1+N3/K1Q1A3 w - - 0 1"
  pieces:
    K: {name: King, betza: K, royal: true}
    Q: {name: Queen, betza: Q, royal: true}
    N: {name: Knight, betza: N, restrictable: true, changes_owner_on_capture: true, transforms_to: +N}
    B: {name: Bishop, betza: B, restrictable: true, changes_owner_on_capture: true}
    A: {name: Mover, betza: mRcB, restrictable: true, transforms_to: +Z}
    +N: {name: Knight Magnet, immobile: true, pull: NN, restricts: D, transforms_to: N}
    +Z: {name: Star Magnet, immobile: true, pull: B, restricts: WF, transforms_to: A}
  rules:
    stalemate: loss
---
"""

# Hordes of Change middle games (benchmarks/perft.py): magnets of both sides, pieces that changed
# owner, Knight royals.
MIDDLE_GAMES = [
    "bbrkkrbb/1+bb+rrbbr/1+r1r2rb/3b4/rB1+b2r1/2BR2RB/1BBRB+B+BR/B+BRNKR+BB w - - 3 13",
    "b+brkkrbb/1+bbr+r+b2/rr+bb1+b1b/R2R4/1R1BB1+b1/2NBR1+RR/1BB+RRB1R/+BBR1KRBB w - - 0 21",
]


def _mechanisms() -> Variant:
    return parse_variant(MECHANISMS)


def _agree(board: Board, table: words_tested.Tested) -> int:
    """Compare the two generators in every mode on this position; the number of legal moves."""
    comp = board.compiled
    saved = comp.tested
    for noisy in (False, True):
        for any_move in (False, True):
            comp.tested = None
            try:
                expected = movegen._generate_by_testing(board, noisy, any_move)
            finally:
                comp.tested = saved
            got = words_tested.legal_moves(
                table, board.kind_bb, board.occ, board.side, board.mailbox, noisy, any_move
            )
            assert got == expected, (
                board.fen(),
                noisy,
                any_move,
                [board.int_to_move(m).uci() for m in got if m not in expected],
                [board.int_to_move(m).uci() for m in expected if m not in got],
            )
    return len(movegen.generate_legal(board))


def test_hordes_of_change_is_the_catalogue_variant_it_serves() -> None:
    served = sorted(
        v.slug
        for v in [*builtin_variants(), *fairy_variants(), *example_variants()]
        if words_tested.build_tested(Board(v).compiled) is not None
    )
    assert served == ["hordes"]
    assert words_tested.build_tested(Board(_mechanisms()).compiled) is not None


def test_the_compiled_build_uses_it_and_the_pure_one_does_not() -> None:
    assert (Board("hordes").compiled.tested is not None) == (build_kind() == "compiled")


@pytest.mark.parametrize("variant", ["hordes", "mechanisms"])
def test_both_generators_agree_in_random_games(variant: str) -> None:
    v = _mechanisms() if variant == "mechanisms" else "hordes"
    table = words_tested.build_tested(Board(v).compiled)
    assert table is not None
    compared = 0
    for seed in range(4):
        rng = random.Random(seed)
        board = Board(v)
        for _ in range(120):
            if not _agree(board, table):
                break
            compared += 1
            moves = movegen.generate_legal(board)
            # Prefer the mechanisms now and then, so magnets appear and pull.
            odd = [
                m for m in moves if m & 1023 == m >> 10 & 1023 or board.mailbox[m & 1023] & 1 != board.side
            ]
            board.push_int(rng.choice(odd if odd and rng.random() < 0.3 else moves))
    assert compared > 200


def test_both_generators_agree_one_ply_from_middle_games() -> None:
    table = words_tested.build_tested(Board("hordes").compiled)
    assert table is not None
    for fen in MIDDLE_GAMES:
        board = Board("hordes", fen)
        assert _agree(board, table) > 0
        for m in movegen.generate_legal(board):
            board.push_int(m)
            _agree(board, table)
            board.pop_int()
