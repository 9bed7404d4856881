"""Evaluation terms that let Hordes of Change games end: royal mobility, restriction, royal pull and
mop-up. Each is generic (switched on by a document's weights, off by default); a hand-built pair of
positions shows which one each term prefers, and chess/Orda/Khan's Chess scores are unchanged."""

from __future__ import annotations

import pytest

from hordes import Board, parse_variant
from hordes.core.rules import Variant
from hordes.engine.eval_params import parse_params
from hordes.engine.evaluate import Evaluator, evaluator, unpack
from hordes.engine.mobility import ONE
from hordes.errors import VariantError
from tests.engine.conftest import extras_with_only, random_positions

NEW_TERMS = ("royal_mobility", "restriction", "royal_pull", "mop_up", "siege")

DOC = """---
title: Eval Test
slug: evaltest
parent: {parent}
engine:
  evaluation: {evaluation}
---
"""


def _variant(evaluation: str, parent: str = "hordes") -> Variant:
    return parse_variant(DOC.format(parent=parent, evaluation=evaluation), "evaltest.md")


@pytest.mark.parametrize(
    ("evaluation", "key"),
    [
        ("{royal_mobility: fast}", "engine.evaluation.royal_mobility"),
        ("{royal_mobility: [1, 2, 3]}", "engine.evaluation.royal_mobility"),
        ("{restriction: [true, 2]}", "engine.evaluation.restriction"),
        ("{restriction: 1.5}", "engine.evaluation.restriction"),
        ("{royal_pull: [1, x]}", "engine.evaluation.royal_pull"),
        ("{mop_up: true}", "engine.evaluation.mop_up"),
        ("{mop_up: [1, 1000001]}", "engine.evaluation.mop_up"),
        ("{siege: [1, x]}", "engine.evaluation.siege"),
        ("{mop_up_margin: -1}", "engine.evaluation.mop_up_margin"),
        ("{mop_up_margin: [1, 2]}", "engine.evaluation.mop_up_margin"),
        ("{mop_up_margin: 2.5}", "engine.evaluation.mop_up_margin"),
        ("{royal_mobilty: 3}", "engine.evaluation.royal_mobilty"),
    ],
)
def test_bad_values_of_the_new_terms_name_the_key(evaluation: str, key: str) -> None:
    with pytest.raises(VariantError) as err:
        parse_params(_variant(evaluation))
    assert key in str(err.value) and "evaltest.md" in str(err.value)


def test_new_terms_are_read_and_default_to_off() -> None:
    params = parse_params(
        _variant("{royal_mobility: [3, 4], restriction: 5, royal_pull: [6, 7], mop_up: 8, mop_up_margin: 9}")
    )
    assert params.royal_mobility == (3, 4) and params.restriction == (5, 5)
    assert params.royal_pull == (6, 7) and params.mop_up == (8, 8) and params.mop_up_margin == 9
    chess = parse_params(Board("chess").variant)
    assert all(getattr(chess, k) == (0, 0) for k in NEW_TERMS)


def test_hordes_document_switches_terms_on() -> None:
    params = evaluator(Board("hordes").variant).params
    assert any(getattr(params, k) != (0, 0) for k in NEW_TERMS)


def test_royal_mobility_prefers_a_boxed_enemy_royal() -> None:
    # Black's King on a8 has no free square (its own Rooks on a7, b7, b8) against eight on e6.
    boxed = extras_with_only("kr6/rr6/8/8/8/8/8/4K3 w - - 0 1", royal_mobility=10)
    free = extras_with_only("rr6/r7/8/4k3/8/8/8/4K3 w - - 0 1", royal_mobility=10)
    assert boxed == 10 * (5 - 0) and free == 10 * (5 - 8)
    # a Knight (the royal's other form) counts its leaps: in the corner, b6 taken by its own Bishop
    assert extras_with_only("n7/8/1b6/8/8/8/8/4K3 w - - 0 1", royal_mobility=1) == 5 - 1
    # and the term is symmetric
    assert extras_with_only("4k3/8/8/8/8/8/RR6/KR6 b - - 0 1", royal_mobility=10) == -boxed


def test_restriction_prefers_enemy_pieces_held_by_our_magnets() -> None:
    held = extras_with_only("8/8/8/3+R4/3b4/8/8/k3K3 w - - 0 1", restriction=10)  # Bishop south of the magnet
    loose = extras_with_only(
        "8/8/8/3+R4/4b3/8/8/k3K3 w - - 0 1", restriction=10
    )  # diagonal: a Rook Magnet ignores it
    assert held == 10 and loose == 0
    # Kings and Knights are never restricted; a Bishop Magnet holds diagonally
    assert extras_with_only("8/8/8/3+R4/3k4/8/8/7K w - - 0 1", restriction=10) == 0
    assert extras_with_only("8/8/8/3+b4/4R3/8/8/k6K w - - 0 1", restriction=10) == -10


def test_royal_pull_prefers_an_enemy_royal_in_the_magnets_sight() -> None:
    open_file = extras_with_only("8/8/8/3+R4/8/8/8/3k3K w - - 0 1", royal_pull=10)
    blocked = extras_with_only("8/8/8/3+R4/8/8/3b4/3k3K w - - 0 1", royal_pull=10)
    adjacent = extras_with_only(
        "8/8/8/3+R4/3k4/8/8/7K w - - 0 1", royal_pull=10
    )  # a pull would change nothing
    assert (open_file, blocked, adjacent) == (10, 0, 0)


def test_mop_up_drives_the_losing_royal_to_the_edge_when_ahead() -> None:
    # White is a Rook up: Black's King in the corner (6 steps from the centre), White's King far.
    corner = extras_with_only("k7/8/8/8/8/8/1R6/4K3 w - - 0 1", mop_up=10)
    centre = extras_with_only("8/8/8/3k4/8/8/1R6/4K3 w - - 0 1", mop_up=10)
    near = extras_with_only("k7/8/2K5/8/8/8/1R6/8 w - - 0 1", mop_up=10)
    assert corner > centre and near > corner
    # below the margin the term is silent, and it works for Black too
    assert extras_with_only("k7/8/8/8/8/8/1R6/4K3 w - - 0 1", mop_up=10, mop_up_margin=5000) == 0
    assert extras_with_only("K7/8/8/8/8/8/1r6/4k3 w - - 0 1", mop_up=10) == -corner


def test_siege_counts_the_leaders_pieces_near_the_enemy_royals() -> None:
    # White is two Rooks up; Black's King stands on a8, whose zone is a6-c8.
    assert extras_with_only("k7/1R6/2R5/8/8/8/8/4K3 w - - 0 1", siege=10) == 20  # b7 and c6
    assert extras_with_only("k7/1R6/8/3R4/8/8/8/4K3 w - - 0 1", siege=10) == 10  # d5 is three files away
    assert extras_with_only("k7/8/8/8/8/8/1RR5/4K3 w - - 0 1", siege=10) == 0
    # each enemy royal counts its own zone, the King's other shape (a Knight) as well
    assert extras_with_only("k6n/1R6/2R3R1/8/8/8/8/4K3 w - - 0 1", siege=10) == 30
    # only the side ahead lays siege: Black's Bishop beside White's King does not count
    assert extras_with_only("k7/1R6/2R5/8/8/8/3b4/4K3 w - - 0 1", siege=10) == 20
    # below the margin the term is silent, and it works for Black too
    assert extras_with_only("k7/1R6/2R5/8/8/8/8/4K3 w - - 0 1", siege=10, mop_up_margin=5000) == 0
    assert extras_with_only("K7/1r6/2r5/8/8/8/8/4k3 w - - 0 1", siege=10) == -20


def test_static_evaluation_does_not_reward_an_owner_changing_capture() -> None:
    # A White Rook takes a Black Bishop and becomes Black's: White's score must drop, with every term on.
    board = Board("hordes", "4k3/8/8/8/4b3/8/8/4R2K w - - 0 1")
    ev = evaluator(board.variant)
    before = ev.evaluate(board)
    board.push_uci("e1e4")
    after = -ev.evaluate(board)  # from White's point of view again
    assert after < before - ev.pawn_unit
    _, mg, eg = unpack(ev.packed(board))
    assert mg < 0 and eg < 0  # Black gave a Bishop and got the Rook: Black is ahead


def _reference(ev: Evaluator, board: Board) -> int:
    """The evaluation as it was before the new terms: piece squares, royal shelter and danger (and
    issue 18's campmate race where the rules have a camp, and pawn structure, the colour pair and
    mobility where weighed)."""
    packed = ev.packed(board)
    score = ev.tapered(packed) + (ev.threat(board) if ev.camp_threat else 0)
    score += ev.race_score(board, packed) if ev.use_race else 0
    counts = ev.pawns.counts(board) if ev.pawns is not None else (0, 0, 0)
    pawn_mg = sum(n * w[0] for n, w in zip(counts, ev.pawn_weights, strict=True))
    pawn_eg = sum(n * w[1] for n, w in zip(counts, ev.pawn_weights, strict=True))
    if ev.pairs is not None:
        pawn_mg += ev.pairs.count(board) * ev.colour_pair[0]
        pawn_eg += ev.pairs.count(board) * ev.colour_pair[1]
    if ev.mobility is not None:
        pawn_mg += ev.mobility.count(board) * ev.mobility_weight[0] // ONE
        pawn_eg += ev.mobility.count(board) * ev.mobility_weight[1] // ONE
    if ev.use_shelter or pawn_mg or pawn_eg:
        kinds, occ = board.kind_bb, board.occ
        royals = sum(kinds[k] for k in ev.royal_kinds)
        attackers = sum(kinds[k] for k in ev.attacker_kinds)
        shelter = danger = 0
        for color, sign in ((0, 1), (1, -1)):
            for sq in range(board.compiled.size):
                if (royals & occ[color]) >> sq & 1:
                    shelter += sign * (ev.ring[sq] & occ[color]).bit_count()
                    danger += sign * (ev.zone[sq] & attackers & occ[color ^ 1]).bit_count()
        ph = unpack(packed)[0]
        mg = shelter * ev.shelter[0] + danger * ev.danger[0] + pawn_mg
        eg = shelter * ev.shelter[1] + danger * ev.danger[1] + pawn_eg
        hi, lo = ev.phase_hi, ev.phase_lo
        score += mg if ph >= hi else eg if ph <= lo else (mg * (ph - lo) + eg * (hi - ph)) // (hi - lo)
    return (score if board.side == 0 else -score) + ev.tempo


@pytest.mark.parametrize("variant", ["chess", "orda", "khans"])
def test_other_variants_score_exactly_as_before(variant: str) -> None:
    ev = evaluator(Board(variant).variant)
    assert not (ev.use_royal_mob or ev.use_restriction or ev.use_pull or ev.use_mop_up)
    zeroed = Evaluator(Board(variant).variant, {k: 0 for k in NEW_TERMS})
    for board in random_positions(variant, 150, seed=5):
        score = ev.evaluate(board)
        assert score == zeroed.evaluate(board) == _reference(ev, board), board.fen()
