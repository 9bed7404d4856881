"""The search's static score per node: the compiled class on 64-bit words (engine/node_static.py)
and the source written out per document (Evaluator._node_static_source) both equal `evaluate`, on
every position of random games, in every variant whose evaluation takes that path. Both run in
either build; the compiled build must choose the class for boards of at most 64 squares."""

from __future__ import annotations

import random

import pytest

from hordes import Board, build_kind
from hordes.engine.evaluate import Evaluator, evaluator
from hordes.engine.node_static import use_compiled_static
from hordes.variants import builtin_variants, example_variants, fairy_variants

ALL = {v.slug: v for v in [*builtin_variants(), *fairy_variants(), *example_variants()]}


SERVED = sorted(slug for slug, v in ALL.items() if v.geometry.size <= 64 and evaluator(v).written_out)


def test_the_node_function_is_written_for_the_usual_variants() -> None:
    assert {"chess", "orda", "khans"} <= set(SERVED)


def test_the_compiled_build_scores_nodes_on_words_and_the_pure_one_with_written_source() -> None:
    assert use_compiled_static(64) == (build_kind() == "compiled")
    assert not use_compiled_static(65)


PAWNS = {"passed_pawn": [3, 7], "isolated_pawn": [-5, -11], "doubled_pawn": [-13, -17]}
PAIRS = {"colour_pair": [23, 41]}  # with the pawn terms of the document only
MOBILITY = {"mobility": [37, 53]}


@pytest.mark.parametrize(
    "overrides",
    [None, PAWNS, {**PAWNS, **PAIRS}, PAIRS, MOBILITY, {**PAWNS, **MOBILITY}],
    ids=["document", "pawns", "pawns-pairs", "pairs", "mobility", "pawns-mobility"],
)
@pytest.mark.parametrize("name", SERVED)
def test_both_node_functions_equal_evaluate_in_random_games(
    name: str, overrides: dict[str, object] | None
) -> None:
    variant = ALL[name]
    ev = Evaluator(variant, overrides)
    assert ev.written_out
    shelter = ev.use_shelter
    on_words = ev._compiled_node_static(shelter).score
    written = ev._node_static_source(shelter)
    # and as the search calls them, the race around them
    both = (ev.node_static_on(words=True), ev.node_static_on(words=False))
    rng = random.Random(name + str(overrides))
    positions = 0
    for _ in range(4):
        board = Board(variant)
        for _ in range(100):
            packed = ev.packed(board)
            # evaluate() less the campmate race, which the search adds to the node function
            race = ev.race_score(board, packed) if ev.use_race else 0
            white = ev.tapered(packed) + ev.extras(board, packed) - race
            expected = (white if board.side == 0 else -white) + ev.tempo
            assert expected + (race if board.side == 0 else -race) == ev.evaluate(board)
            assert on_words(board, packed) == expected, board.fen()
            assert written(board, packed) == expected, board.fen()
            assert both[0](board, packed) == both[1](board, packed) == ev.evaluate(board), board.fen()
            positions += 1
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
    assert positions >= 40


def test_a_royal_on_the_top_squares_counts_its_shelter_and_danger() -> None:
    """Bit 63 (h8) is the sign bit of a word: a king there, with shelter and an attacker beside it."""
    ev = Evaluator(ALL["chess"])
    on_words = ev._compiled_node_static(True).score
    written = ev._node_static_source(True)
    for fen in (
        "6rk/6pp/5N2/8/8/8/PP6/K7 w - - 0 1",
        "7k/8/8/8/8/8/8/K6R b - - 0 1",
        "6qk/5Npp/8/8/8/8/PP6/K7 b - - 0 1",
    ):
        board = Board(ALL["chess"], fen)
        packed = ev.packed(board)
        assert on_words(board, packed) == written(board, packed) == ev.evaluate(board), fen
