"""Issue 18, points 2 and 3: the Hordes of Change plan (pull a piece in, stop it going back, take it
with a King or Knight; fork the two royal pieces), as evaluation terms, search and a position suite.

The suite (tests/engine/data/tactics_hoc_plan.txt) is proved by the reference generator's exhaustive
search (tests/engine/hoc_plan.py) and solved at level 6 with its node and depth caps and no clock, so
the result does not depend on the machine. The terms are checked on hand-built positions, each with
only the term under test switched on.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from hordes import Board
from hordes.engine.evaluate import Evaluator, evaluator
from hordes.engine.levels import level, think
from hordes.engine.limits import Limits
from hordes.engine.plan import see
from hordes.engine.search import Searcher
from tests.engine import hoc_plan
from tests.engine.conftest import extras_with_only

ENTRIES = hoc_plan.read()
# Level 6 solved 43 of the 48 before the plan terms and search (main at 21017dc), 42 after (41 and 42
# without its noise); the misses win the same material a move later (the file wants the fastest).
SOLVED_AT_LEVEL_6 = 42


def test_p3_plan_suite_is_proved_by_the_reference_generator() -> None:
    kinds = [kind for _, kind, _, _ in ENTRIES]
    assert len(ENTRIES) >= 40 and kinds.count("pull") >= 10 and kinds.count("fork") >= 10, kinds
    assert hoc_plan.verify() == 0


def test_p3_plan_suite_rejects_a_wrong_solution(tmp_path: Any) -> None:
    fen, kind, n, solutions = ENTRIES[0]
    wrong = tmp_path / "wrong.txt"
    legal = sorted(Board("hordes", fen).uci(m) for m in Board("hordes", fen).legal_moves)
    other = next(m for m in legal if m not in solutions)
    wrong.write_text(f"{fen} | {kind} {n} | {' '.join([*solutions, other])}\n")
    assert hoc_plan.verify(wrong) == 1


def test_p3_plan_suite_at_level_6() -> None:
    no_clock = replace(level(6), movetime=None)  # level 6's depth and node caps, not its time
    solved = []
    for fen, _, _, solutions in ENTRIES:
        board = Board("hordes", fen)
        move, _ = think(Searcher(8), board, no_clock, Limits(), rng=random.Random(0))
        solved.append(move is not None and board.uci(move) in solutions)
    assert sum(solved) >= SOLVED_AT_LEVEL_6, [e[0] for e, ok in zip(ENTRIES, solved, strict=True) if not ok]


def test_p2_trapped_scores_an_enemy_piece_that_cannot_leave_our_half() -> None:
    # Black's Bishop on a1: its one diagonal is blocked by White's Rook on b2 (taking it would hand
    # the Bishop to White), so it cannot leave White's half; on a3 it can run to the other half.
    assert extras_with_only("7k/8/8/8/8/8/1R6/b3K3 w - - 0 1", trapped=10) == 10
    assert extras_with_only("7k/8/8/8/8/b7/1R6/4K3 w - - 0 1", trapped=10) == 0
    # a restriction closes the way out: the Rook on d2 above White's Rook Magnet on d1 cannot go up
    # the file, and along rank 2 it stays in White's half; without the magnet it leaves at once
    assert extras_with_only("7k/8/8/8/8/8/K2r4/3+R4 w - - 0 1", trapped=10) == 10
    assert extras_with_only("7k/8/8/8/8/8/K2r4/8 w - - 0 1", trapped=10) == 0
    # the same for Black, mirrored
    assert extras_with_only("3+r4/k2R4/8/8/8/8/8/7K b - - 0 1", trapped=10) == -10


def test_p2_royal_reach_and_pull_reach_score_the_pull_trap_capture() -> None:
    # White's King on c2 can take Black's Bishop on d3 (undefended): royal reach.
    assert extras_with_only("7k/8/8/8/8/3b4/2K5/8 w - - 0 1", royal_reach=10) == 10
    # defended by Black's Rook on d8: no royal capture there
    assert extras_with_only("3r3k/8/8/8/8/3b4/2K5/8 w - - 0 1", royal_reach=10) == 0
    # White's Rook Magnet on d1 can pull the Bishop on d6 to d2, next to White's King on c2
    assert extras_with_only("7k/8/3b4/8/8/8/2K5/3+R4 w - - 0 1", pull_reach=10) == 10
    assert (
        extras_with_only("7k/8/3b4/8/8/8/K7/3+R4 w - - 0 1", pull_reach=10) == 0
    )  # d2 is out of the King's reach


def test_p2_royal_fork_warns_of_a_knight_one_jump_from_both_royals() -> None:
    # White's King e1 and Knight g1; Black's Knight on d4 can jump to f3 and attack both: a fork.
    assert extras_with_only("7k/8/8/8/3n4/8/8/4K1N1 w - - 0 1", royal_fork=10) == -10
    assert extras_with_only("7k/8/8/n7/8/8/8/4K1N1 w - - 0 1", royal_fork=10) == 0  # a5 is too far
    # a Black King on e4 that changes into a Knight attacks White's Kings on c3 and g3 at once
    assert extras_with_only("7k/8/8/8/4k3/2K3K1/8/8 w - - 0 1", royal_fork=10) == -10


def test_p2_quiescence_pulls_are_those_into_undefended_royal_reach() -> None:
    # White's Rook Magnet d1 can pull Black's Bishop d6 to d2, next to White's King on c2: the pull
    # quiescence plays (the pulled piece's from and to squares, H19)
    board = Board("hordes", "7k/8/3b4/8/8/8/2K5/3+R4 w - - 0 1")
    plan = evaluator(board.variant).plan
    assert plan is not None
    assert [board.uci(board.int_to_move(m)) for m in plan.pulls_into_reach(board)] == ["d6d2"]
    # d2 guarded by Black's Rook on h2: the King could not take there
    guarded = Board("hordes", "7k/8/3b4/8/8/8/2K4r/3+R4 w - - 0 1")
    assert plan.pulls_into_reach(guarded) == []
    # a pull that lands out of the King's reach is no such move
    assert plan.pulls_into_reach(Board("hordes", "7k/8/3b4/8/8/8/K7/3+R4 w - - 0 1")) == []


def test_p2_restricted_mobility_counts_the_directions_magnets_close() -> None:
    # White's Rook on e5 above Black's Rook Magnet on e4 loses one direction (north); a Bishop loses two
    assert extras_with_only("k7/8/8/4R3/4+r3/8/8/7K w - - 0 1", restricted_mobility=10) == -10
    assert extras_with_only("k7/8/8/4B3/4+r3/8/8/7K w - - 0 1", restricted_mobility=10) == -20


def test_p2_plan_terms_are_off_where_the_document_does_not_weigh_them() -> None:
    for variant in ("chess", "orda", "khans", "andernach"):
        assert evaluator(Board(variant).variant).plan is None, variant
    assert evaluator(Board("hordes").variant).plan is not None


def test_p2_see_knows_the_change_of_owner() -> None:
    d1, e2, h2 = 3, 12, 15
    board = Board("hordes", "k7/8/8/8/8/8/4b2R/3K4 w - - 0 1")
    ev = evaluator(board.variant)
    value, owner = ev.value, board.compiled.owner_change
    rook, bishop = value[board.mailbox[h2]], value[board.mailbox[e2]]
    # Rh2xe2 hands the Rook to Black on e2, next to White's King: it may be taken back, at half value
    assert see(board, h2, e2, value, owner) == bishop - 2 * rook + rook // 2
    # the King's own capture keeps its owner: the whole Bishop
    assert see(board, d1, e2, value, owner) == bishop
    # with a Black Rook on e8 guarding e2 no royal piece may take back
    guarded = Board("hordes", "k3r3/8/8/8/8/8/4b2R/3K4 w - - 0 1")
    assert see(guarded, h2, e2, value, owner) == bishop - 2 * rook


# White is far ahead; its Rook went a1-b1 last move. Without the penalty the search plays it back.
SHUFFLE_FEN = "1b1nrrbk/1BbrbBbB/1BBBBBBB/3BB1b1/1rr2b2/RBR5/RNBr2R1/KbRr3R w - - 34 198"


def test_p2_no_shuffle_chooses_progress_when_ahead() -> None:
    board = Board("hordes", SHUFFLE_FEN)
    board.push_uci("a1b1")
    board.push_uci("f4g3")
    undo = board.parse_uci("b1a1")
    # The siege and mobility (other ways to make progress) are off in both, so the penalty is tested
    # alone.
    quiet = {"siege": 0, "mobility": 0}
    old = list(Searcher(4, evaluation={"shuffle": 0, **quiet}).search(board, Limits(depth=3)))[-1]
    new = list(Searcher(4, evaluation=quiet).search(board, Limits(depth=3)))[-1]
    assert old.best_move == undo
    assert new.best_move != undo and new.score > 1000


def test_p2_a_move_that_repeats_a_position_is_penalised() -> None:
    # Both Kings walk a triangle; Black's g7-h8 then makes the starting position again (not by undoing
    # Black's last move, g8-g7): it costs the shuffle penalty, another King step does not.
    board = Board("hordes", "7k/8/8/8/8/8/8/K7 w - - 0 1")
    for uci in ("a1b1", "h8g8", "b1b2", "g8g7", "b2a1"):
        board.push_uci(uci)
    shuffle = evaluator(board.variant).params.shuffle
    assert shuffle > 0
    for uci, cost in (("g7h8", shuffle), ("g7f7", 0)):
        only = Limits(depth=1, searchmoves=[board.parse_uci(uci)])
        old = list(Searcher(1, evaluation={"shuffle": 0}).search(board, only))[-1]
        new = list(Searcher(1).search(board, only))[-1]
        assert old.score - new.score == cost, uci


@pytest.mark.parametrize("bad", [{"shuffle": -1}, {"trapped": "x"}, {"plan_quiescence": 1}])
def test_p2_bad_plan_weights_name_the_key(bad: dict[str, Any]) -> None:
    from hordes.errors import VariantError

    with pytest.raises(VariantError) as err:
        Evaluator(Board("hordes").variant, bad)
    assert f"engine.evaluation.{next(iter(bad))}" in str(err.value)
