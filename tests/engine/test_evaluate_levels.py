"""Evaluation from the document (validated strictly, updated incrementally) and the playing levels."""

from __future__ import annotations

import random

import pytest

from hordes import Board, parse_variant
from hordes.core import movegen
from hordes.engine.eval_params import parse_params
from hordes.engine.evaluate import evaluator
from hordes.engine.levels import LEVELS, capped, level, think
from hordes.engine.limits import Limits
from hordes.engine.search import Searcher
from hordes.errors import VariantError
from tests.engine.conftest import VARIANTS

DOC = """---
title: Eval Test
slug: evaltest
parent: chess
engine:
  evaluation: {evaluation}
---
"""


def _variant(evaluation: str):  # type: ignore[no-untyped-def]
    return parse_variant(DOC.format(evaluation=evaluation), "evaltest.md")


@pytest.mark.parametrize(
    ("evaluation", "key"),
    [
        ("{centre: [1, 2, 3]}", "engine.evaluation.centre"),
        ("{centre: fast}", "engine.evaluation.centre"),
        ("{tempo: 1.5}", "engine.evaluation.tempo"),
        ("{null_move: 1}", "engine.evaluation.null_move"),
        ("{king_tropism: [1, 2]}", "engine.evaluation.king_tropism"),
        ("{pawn_unit: 0}", "engine.evaluation.pawn_unit"),
        ("{campmate: [true, 3]}", "engine.evaluation.campmate"),
    ],
)
def test_bad_evaluation_sections_name_the_key(evaluation: str, key: str) -> None:
    with pytest.raises(VariantError) as err:
        parse_params(_variant(evaluation))
    assert key in str(err.value) and "evaltest.md" in str(err.value)


def test_evaluation_terms_are_read() -> None:
    params = parse_params(_variant("{centre: 7, royal_shelter: [20, 1], null_move: false, pawn_unit: 100}"))
    assert params.centre == (7, 7) and params.royal_shelter == (20, 1)
    assert params.null_move is False and params.pawn_unit == 100


@pytest.mark.parametrize("variant", VARIANTS)
def test_builtin_documents_have_valid_sections(variant: str) -> None:
    board = Board(variant)
    ev = evaluator(board.variant)
    assert abs(ev.evaluate(board)) < 3 * ev.pawn_unit  # the start is roughly balanced


@pytest.mark.parametrize("variant", VARIANTS)
def test_incremental_evaluation_matches_a_full_count(variant: str) -> None:
    """The search updates the piece-square sum from the squares a move touches; every mechanism
    (owner-changing captures, pulls, transformations, castling, en passant) must keep it exact."""
    rng = random.Random(2)
    ev = evaluator(Board(variant).variant)
    for _ in range(6):
        board = Board(variant)
        packed = ev.packed(board)
        for _ in range(120):
            moves = movegen.generate_legal(board)
            if not moves:
                break
            m = rng.choice(moves)
            frm, to = m & 1023, m >> 10 & 1023
            bf, bt = board.mailbox[frm], board.mailbox[to]
            board.push_int(m)
            if m >> 26 & 3:
                packed = ev.packed(board)
            elif frm == to:
                packed += ev.table[board.mailbox[to]][to] - ev.table[bt][to]
            else:
                packed += (
                    ev.table[board.mailbox[frm]][frm]
                    + ev.table[board.mailbox[to]][to]
                    - ev.table[bf][frm]
                    - ev.table[bt][to]
                )
            assert packed == ev.packed(board), f"{board.fen()} after {board.peek()}"


def test_campmate_term_rewards_the_road_to_the_camp() -> None:
    near = Board("orda", "4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    far = Board("orda", "4k3/8/8/8/4K3/8/8/8 w - - 0 1")
    ev = evaluator(near.variant)
    assert ev.evaluate(far) > ev.evaluate(near)  # White's king is nearer rank 8


def test_levels_are_monotone_and_capped() -> None:
    assert [LEVELS[n].number for n in range(1, 9)] == list(range(1, 9))
    assert level(0).number == 1 and level(99).number == 8
    assert capped(level(3), Limits(depth=10)).depth == 2
    assert capped(level(8), Limits(depth=10)).depth == 10
    assert capped(level(1), Limits(infinite=True)).movetime is None


def test_weak_levels_are_reproducible_and_vary_with_the_seed() -> None:
    board = Board("chess")
    picks = set()
    for seed in range(12):
        move, _ = think(Searcher(1), board, level(1), Limits(), rng=random.Random(seed))
        again, _ = think(Searcher(1), board, level(1), Limits(), rng=random.Random(seed))
        assert move == again and move in set(board.legal_moves)
        picks.add(move)
    assert len(picks) > 2  # level 1 does not always play the same opening move


def test_level_8_finds_a_mate_level_1_is_allowed_to_miss() -> None:
    board = Board("chess", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
    move, info = think(Searcher(1), board, level(8), Limits(depth=3))
    assert move == board.parse_uci("d1d8") and info is not None and info.mate == 1


def test_campmate_threat_term_sees_a_khan_one_step_from_home() -> None:
    from hordes.engine.evaluate import Evaluator

    board = Board("orda", "8/8/8/8/K7/8/4k3/8 w - - 0 1")  # Black's Khan reaches rank 1 next move
    plain = Evaluator(board.variant)
    warned = Evaluator(board.variant, {"campmate_threat": 400})
    assert warned.evaluate(board) == plain.evaluate(board) - 400
    quiet = Board("orda", "8/8/8/8/K7/4k3/8/8 w - - 0 1")  # two steps away: no threat yet
    assert warned.evaluate(quiet) == plain.evaluate(quiet)


def test_player_spec_overrides_evaluation_terms() -> None:
    from hordes.engine.players import HordesPlayer, parse_player
    from hordes.errors import HordesError

    player = parse_player("hordes:eval.royal_danger=0/0,eval.null_move=false")
    assert isinstance(player, HordesPlayer)
    assert player.searcher.evaluation == {"royal_danger": [0, 0], "null_move": False}
    with pytest.raises(HordesError, match="king_tropism"):
        parse_player("hordes:eval.king_tropism=3")
