"""The time manager (Limits.budget), MultiPV in the search, and the score -> WDL mapping (issue 16 p8)."""

from __future__ import annotations

import time

import pytest

from hordes import BLACK, WHITE, Board
from hordes.engine.evaluate import Evaluator
from hordes.engine.levels import capped, level
from hordes.engine.limits import MOVES_TO_GO_GUESS, NEXT_ITERATION_GUESS, Limits, wdl_of
from hordes.engine.search import Searcher, search
from hordes.engine.tree import Tree
from hordes.errors import VariantError
from tests.engine.conftest import step_clock


def test_p8_movetime_budget_is_the_whole_movetime() -> None:
    """`go movetime 3000` once answered after 2.07 s: the search stopped starting depths at 60 % of
    the time. A movetime's soft and hard limits are now both the movetime less the overhead."""
    for turn in (WHITE, BLACK):
        assert Limits(movetime=3.0, overhead=0.03).budget(turn) == pytest.approx((2.97, 2.97))
    assert Limits(movetime=0.5, overhead=0.0).budget(WHITE) == pytest.approx((0.5, 0.5))
    assert Limits(movetime=3.0, infinite=True).budget(WHITE) == (None, None)


def test_p8_the_next_iteration_guess_applies_to_clocks_and_ceilings_only() -> None:
    # A clock: a MOVES_TO_GO_GUESS-th of the time left, and no new depth after NEXT_ITERATION_GUESS
    # of it; the hard limit is four times the share.
    soft, hard = Limits(wtime=60.0, btime=30.0, overhead=0.0).budget(WHITE)
    share = 60.0 / MOVES_TO_GO_GUESS
    assert soft == pytest.approx(share * NEXT_ITERATION_GUESS) and hard == pytest.approx(4 * share)
    assert Limits(wtime=60.0, btime=30.0, overhead=0.0).budget(BLACK)[0] == pytest.approx(
        30.0 / MOVES_TO_GO_GUESS * NEXT_ITERATION_GUESS
    )
    # A ceiling (a playing level's cap) may end early the same way.
    assert Limits(max_time=1.0, overhead=0.0).budget(WHITE) == pytest.approx((NEXT_ITERATION_GUESS, 1.0))
    # A movetime beside a clock: the tighter wins, and the movetime part is never guessed short.
    soft, hard = Limits(movetime=0.5, wtime=60.0, btime=60.0, overhead=0.0).budget(WHITE)
    assert (soft, hard) == pytest.approx((0.5, 0.5))
    # A level's seconds are a ceiling, not a movetime: the caller's movetime is kept as it was.
    limits = capped(level(5), Limits(movetime=3.0))
    assert limits.movetime == 3.0 and limits.max_time == level(5).movetime


def test_p8_a_movetime_search_uses_its_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every clock reading takes 1 ms: the search, given 0.25 s, goes on to the deadline instead of
    stopping after the first depth that ends past 60 % of it."""
    clock = step_clock(monkeypatch, 0.001, "hordes.engine.search")
    start = clock.now
    infos = list(search(Board("chess"), Limits(movetime=0.25, overhead=0.0)))
    assert 0.25 <= clock.now - start <= 0.25 + 0.005
    assert infos[-1].best_move is not None


def test_p8_multipv_lines_are_distinct_ranked_and_single_pv_is_unchanged() -> None:
    board = Board("chess")
    single = list(search(board, Limits(depth=4)))
    multi = list(search(board, Limits(depth=4, multipv=3)))
    assert all(not info.alternatives and info.multipv == 1 for info in single)
    for info in multi:
        lines = info.lines
        assert [line.multipv for line in lines] == [1, 2, 3]
        assert len({line.pv[0] for line in lines}) == 3
        assert [line.score for line in lines] == sorted((line.score for line in lines), reverse=True)
    # More lines than legal moves: one line per move.
    few = Board("chess", "7k/8/8/8/8/8/6q1/7K w - - 0 1")  # Kxg2 only
    assert len(list(search(few, Limits(depth=2, multipv=3)))[-1].lines) == 1


def test_p8_wdl_mapping() -> None:
    assert wdl_of(0) == (159, 682, 159)
    assert wdl_of(100) == (500, 466, 34)
    assert wdl_of(-300) == (1, 33, 966)
    assert wdl_of(100_000, mate=3) == (1000, 0, 0) and wdl_of(-100_000, mate=-2) == (0, 0, 1000)
    previous = -1
    for cp in range(-1000, 1001, 50):
        win, draw, loss = wdl_of(cp)
        assert win + draw + loss == 1000 and min(win, draw, loss) >= 0
        assert win >= previous
        previous = win


def test_moves_to_go_shares_the_clock_over_the_documents_guess() -> None:
    """`engine.evaluation.moves_to_go`: on a clock with no moves-to-go count, a move's share is the
    time left over that many moves (plus most of the increment); a GUI's `movestogo` still wins. The
    search reads the number from the document: Hordes of Change, whose games run about 100 moves a
    side, expects 60; chess keeps the default."""
    clock = Limits(wtime=60.0, btime=60.0, winc=1.0, binc=1.0, overhead=0.0)
    soft, hard = clock.budget(WHITE, 60)
    assert soft == pytest.approx((60.0 / 60 + 0.8) * NEXT_ITERATION_GUESS)
    assert hard == pytest.approx((60.0 / 60 + 0.8) * 4)
    assert clock.budget(WHITE)[0] == pytest.approx((60.0 / MOVES_TO_GO_GUESS + 0.8) * NEXT_ITERATION_GUESS)
    told = Limits(wtime=60.0, btime=60.0, movestogo=10, overhead=0.0)
    assert told.budget(WHITE, 60)[0] == pytest.approx(6.0 * NEXT_ITERATION_GUESS)
    no_increment = Limits(wtime=60.0, btime=60.0, overhead=0.0)
    for variant, expected in (("hordes", 60), ("chess", MOVES_TO_GO_GUESS)):
        board = Board(variant)
        ev = Evaluator(board.variant)
        assert ev.params.moves_to_go == expected
        tree = Tree(Searcher(1), board, ev, no_increment, 0, None, time.perf_counter)
        assert tree.soft == pytest.approx(60.0 / expected * NEXT_ITERATION_GUESS)
    overridden = Evaluator(Board("hordes").variant, {"moves_to_go": 20})
    tree = Tree(Searcher(1), Board("hordes"), overridden, no_increment, 0, None, time.perf_counter)
    assert tree.soft == pytest.approx(3.0 * NEXT_ITERATION_GUESS)


@pytest.mark.parametrize("bad", [0, -5, "x", True])
def test_moves_to_go_must_be_a_whole_number_of_1_or_more(bad: object) -> None:
    with pytest.raises(VariantError) as err:
        Evaluator(Board("hordes").variant, {"moves_to_go": bad})
    assert "engine.evaluation.moves_to_go" in str(err.value)
