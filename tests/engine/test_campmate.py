"""Issue 18, point 1: campmate as a race (Orda), in the evaluation and the search.

The positions of tests/engine/data/tactics_campmate.txt (races to win and campmates to stop, each
verified by Debian's Fairy-Stockfish at depth 16: tests/engine/make_campmate_tactics.py) are solved at
level 6 with its node and depth caps and no clock, so the result does not depend on the machine.
"""

from __future__ import annotations

import random
import re
import time
from dataclasses import replace
from pathlib import Path

import pytest

from hordes import Board
from hordes.engine import tree
from hordes.engine.evaluate import Evaluator, evaluator
from hordes.engine.levels import MAX_LEVEL, MIN_LEVEL, level, think
from hordes.engine.limits import MATE_BOUND, Limits
from hordes.engine.search import Searcher
from hordes.engine.tree import Tree
from hordes.errors import VariantError

DATA = Path(__file__).parent / "data"


def _entries() -> list[tuple[str, str, int, list[str]]]:
    out = []
    for raw in (DATA / "tactics_campmate.txt").read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        fen, kind_n, solutions = (part.strip() for part in line.split("|"))
        kind, n = kind_n.split()
        out.append((fen, kind, int(n), solutions.split()))
    return out


ENTRIES = _entries()
# Orda's document traces roads with campmate_delay since 2026-12-06 (42 % of its losses to Fairy-Stockfish
# were campmates without it, 15 % with it: docs/benchmarks.md). A guarded camp square then counts as one
# step of waiting, so covering the corner with the Bishop scores less than before, and level 6 plays
# Rb7 (36 centipawns behind the three stops at depth 5, inside its noise). Known, and strict: the day
# level 6 solves it again, this mark fails and comes off.
KNOWN_MISSES = {
    "8/7R/6a1/8/5B1K/k7/8/8 w - - 0 1": "campmate_delay: level 6 plays Rb7, which loses in 6",
}


def _param(i: int, entry: tuple[str, str, int, list[str]]) -> object:
    fen, kind, n, _ = entry
    marks = [pytest.mark.xfail(strict=True, reason=KNOWN_MISSES[fen])] if fen in KNOWN_MISSES else []
    return pytest.param(*entry, marks=marks, id=f"{kind}{n}-{i}")


def test_p1_campmate_file_holds_races_and_stops() -> None:
    kinds = [kind for _, kind, _, _ in ENTRIES]
    assert set(KNOWN_MISSES) <= {fen for fen, _, _, _ in ENTRIES}
    assert len(ENTRIES) >= 20
    assert kinds.count("race") >= 5 and kinds.count("stop") >= 5, kinds
    for fen, _, _, solutions in ENTRIES:
        board = Board("orda", fen)
        legal = {board.uci(m) for m in board.legal_moves}
        assert set(solutions) <= legal and len(legal) - len(solutions) >= 3, fen


@pytest.mark.parametrize(("fen", "kind", "n", "solutions"), [_param(i, e) for i, e in enumerate(ENTRIES)])
def test_p1_campmate_tactics_at_level_6(fen: str, kind: str, n: int, solutions: list[str]) -> None:
    board = Board("orda", fen)
    no_clock = replace(level(6), movetime=None)  # level 6's depth and node caps, not its time
    move, info = think(Searcher(8), board, no_clock, Limits(), rng=random.Random(0))
    assert move is not None
    assert board.uci(move) in solutions, (
        f"{kind} {n} {fen}: played {board.uci(move)}, wanted {solutions} ({info})"
    )


# A quiet step onto rank 8 wins at once; a capture (Kxa6) and many others are ordered before it.
CAMP_IN_ONE = "8/1K6/p1pp1ppp/1pa1h2k/2QN3l/1B6/PPPPPPPP/RNB2BNR w - - 0 1"


def test_p1_immediate_campmate_at_every_level() -> None:
    board = Board("orda", CAMP_IN_ONE)
    for number in range(MIN_LEVEL, MAX_LEVEL + 1):
        lv = replace(level(number), movetime=None)
        move, info = think(Searcher(1), board, lv, Limits(depth=lv.depth or 3), rng=random.Random(number))
        assert move is not None and board.uci(move) in {"b7a8", "b7b8", "b7c8"}, (number, move)
        assert info is not None and info.score > MATE_BOUND  # a win, scored as a mate


def test_p1_campmate_is_the_first_move_searched() -> None:
    """With the smallest budget (one node: the first root move, then the stop) the move played is
    the campmate, not the best-ordered capture."""
    board = Board("orda", CAMP_IN_ONE)
    info = list(Searcher(1).search(board, Limits(nodes=1)))[-1]
    assert info.best_move is not None and board.uci(info.best_move) in {"b7a8", "b7b8", "b7c8"}


def test_p1_race_counts_free_roads_and_who_arrives_first() -> None:
    # roads of up to three steps, guarded squares closing them
    ev = Evaluator(Board("orda").variant, {"campmate_reach": 3, "campmate_delay": False})
    # Black's Khan on e3: its road is e2/d2/f2 then rank 1, two steps; White's King is far away.
    free = Board("orda", "8/8/8/8/K7/4k3/8/8 w - - 0 1")
    assert (ev.road(free, 0), ev.road(free, 1)) == (0, 2)
    # A Rook on a1 guards rank 1 and a Knight on e4 guards d2 and f2: only e2-then-rank 1 remains,
    # and rank 1 is watched: no free road.
    guarded = Board("orda", "8/8/8/8/K3N3/4k3/8/R7 w - - 0 1")
    assert ev.road(guarded, 1) == 0
    # An undefended enemy piece on the road can be taken: the Khan takes the Rook on d1.
    capture = Board("orda", "8/8/8/8/K7/4k3/8/3R4 w - - 0 1")
    assert ev.road(capture, 1) == 2
    # Black's road is two steps, White's three: Black arrives first whoever moves, and only Black's
    # race counts.
    ahead = "8/8/8/2K5/8/4k3/8/8 {} - - 0 1"
    assert ev.race(Board("orda", ahead.format("w"))) == ev.race(Board("orda", ahead.format("b"))) == -2
    # Both three steps from their camps: the side to move arrives first.
    tie = "8/8/8/2K5/4k3/8/8/8 {} - - 0 1"
    assert ev.race(Board("orda", tie.format("w"))) == 1
    assert ev.race(Board("orda", tie.format("b"))) == -1
    # Four steps are beyond this reach, and within the document's own.
    far = Board("orda", "4k3/8/8/8/2K5/8/8/8 w - - 0 1")
    assert ev.road(far, 0) == 0 and evaluator(far.variant).road(far, 0) == 4


def test_p1_race_weights_come_from_the_document() -> None:
    board = Board("orda", "8/8/8/8/K7/4k3/8/8 w - - 0 1")
    plain = Evaluator(board.variant)
    off = Evaluator(board.variant, {"campmate_race": 0})
    assert plain.evaluate(board) < off.evaluate(board)  # Black's free road counts against White
    assert Evaluator(board.variant, {"campmate_reach": 0}).evaluate(board) == off.evaluate(board)


def test_p1_race_curve_gives_each_road_length_its_worth() -> None:
    # Black's Khan two steps from its camp, White's King three: only Black's road counts.
    board = Board("orda", "8/8/8/2K5/8/4k3/8/8 w - - 0 1")

    def race(**terms: object) -> int:
        return Evaluator(board.variant, {"campmate_reach": 3, "campmate_delay": False, **terms}).race(board)

    assert race() == -2  # the straight line: reach + 1 - steps
    assert race(campmate_race_curve=[3, 2, 1]) == -2  # the same line, written out
    assert race(campmate_race_curve=[9, 7, 1]) == -7  # the second step's number
    # the same with both roads: White's three steps and Black's two, one number each
    tie = Board("orda", "8/8/8/2K5/4k3/8/8/8 w - - 0 1")
    ev = Evaluator(
        tie.variant, {"campmate_reach": 3, "campmate_delay": False, "campmate_race_curve": [9, 7, 4]}
    )
    assert ev.race(tie) == 4  # both three steps: White, to move, arrives first
    # the curve scales the score as the weight does: the endgame score moves by 160 per unit
    weights = {"campmate_reach": 3, "campmate_delay": False, "campmate_race": [0, 160]}
    line = Evaluator(board.variant, weights)
    steep = Evaluator(board.variant, {**weights, "campmate_race_curve": [9, 7, 1]})
    assert line.evaluate(board) - steep.evaluate(board) == 5 * 160


@pytest.mark.parametrize(
    ("curve", "message"),
    [
        ([5, 4], "needs one number per step of campmate_reach (5), not 2"),
        ([5, 4, -3, 2, 1], "must be a list of whole numbers, none negative"),
        ("steep", "must be a list of whole numbers, none negative, not 'steep'"),
        ([5, 4, 3, True, 1], "must be a list of whole numbers"),
    ],
)
def test_p1_race_curve_errors_name_the_key(curve: object, message: str) -> None:
    with pytest.raises(VariantError, match=re.escape(message)) as err:
        Evaluator(Board("orda").variant, {"campmate_race_curve": curve})
    assert "engine.evaluation.campmate_race_curve" in str(err.value)


def test_p1_variants_without_campmate_pay_nothing() -> None:
    chess = evaluator(Board("chess").variant)
    assert not chess.use_race and chess.node_static is not None  # the written-out score is kept
    orda = evaluator(Board("orda").variant)
    assert orda.use_race and orda.node_static is not None


def test_p1_campmate_delay_makes_a_guarded_square_cost_a_step() -> None:
    def delayed(reach: int) -> Evaluator:
        return Evaluator(Board("orda").variant, {"campmate_reach": reach, "campmate_delay": True})

    # A free road is as long as without the switch.
    free = Board("orda", "8/8/8/8/K7/4k3/8/8 w - - 0 1")
    assert delayed(4).road(free, 1) == 2
    # Our own Horse Archers on d2, e2 and f2 cost a step each, and so do squares White attacks.
    # White's King on e1 watches d2, e2, f2, d1 and f1: the Khan goes round by d3 and c2 to b1 or c1
    # in three steps.
    own = Board("orda", "8/8/8/8/K7/4k3/3aaa2/8 w - - 0 1")
    assert delayed(4).road(own, 1) == 3
    kings = Board("orda", "8/8/8/8/8/4k3/8/4K3 w - - 0 1")
    assert delayed(4).road(kings, 1) == 3
    # The guarded board above: without the switch the watched squares close the road. With it, the
    # Khan goes e2 (free) and waits a step for a watched square of rank 1: three steps, beyond a
    # reach of two.
    guarded = Board("orda", "8/8/8/8/K3N3/4k3/8/R7 w - - 0 1")
    assert delayed(3).road(guarded, 1) == 3
    assert delayed(2).road(guarded, 1) == 0
    # A guarded square short of the camp costs one: the Knight on c4 watches d2 and the Rook on h2
    # watches the second rank; the Khan on d3 waits a step on c2, d2 or e2 and reaches rank 1 in 2 + 1.
    second = Board("orda", "8/8/8/8/K1N5/3k4/7R/8 w - - 0 1")
    assert delayed(4).road(second, 1) == 3


# White's Queen move lets Black's Khan on c2 step onto its own camp (b1, d1) before White's King, one
# step from rank 8, gets there: a cut that forgot the mover's own campmate would score Kc7 a win.
OWN_CAMP_FIRST = "8/8/3K4/2Q5/2y5/6y1/2kB4/8 w - - 0 1"


def _tree(board: Board) -> Tree:
    limits = Limits(depth=1)
    return Tree(Searcher(1), board, evaluator(board.variant), limits, 0, None, time.perf_counter)


def test_p1_campmate_cut_changes_no_score_and_no_move(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under a campmate threat, a move that leaves the camp open is scored lost without a search
    (engine/tree.py, `Tree.camp_left_open`): the same scores and moves to depth 4 with fewer nodes."""
    fens = [fen for fen, _, _, _ in ENTRIES] + [OWN_CAMP_FIRST]

    def run(cut: bool) -> tuple[list[tuple[int, str]], int]:
        monkeypatch.setattr(tree, "CAMP_CUT", cut)
        answers = []
        nodes = 0
        for fen in fens:
            board = Board("orda", fen)
            info = list(Searcher(1).search(board, Limits(depth=4)))[-1]
            assert info.best_move is not None
            answers.append((info.score, board.uci(info.best_move)))
            nodes += info.nodes
        return answers, nodes

    with_cut, nodes_cut = run(True)
    without, nodes_off = run(False)
    assert with_cut == without
    assert with_cut[-1][1] != "d6c7" and with_cut[-1][0] > MATE_BOUND
    assert 4 * nodes_cut < 3 * nodes_off, (nodes_cut, nodes_off)  # 2.7 times fewer on 2026-12-07


def test_p1_campmate_cut_spares_a_move_that_wins_first_or_repeats() -> None:
    # The mover's own campmate comes first.
    board = Board("orda", OWN_CAMP_FIRST)
    board.push_uci("d6c7")  # Black to move, White's King one step from c8, b8 and d8
    t = _tree(board)
    board.push_uci("c2b1")
    assert not t.camp_left_open()  # Black has won
    board.pop()
    board.push_uci("g3f2")
    assert t.camp_left_open()  # a waiting move: White steps into its camp
    # A repeated position is a draw inside the search, not a loss: White's Knight goes back to f5,
    # where the position stood with Black to move before.
    board = Board("orda", "6a1/8/8/5N1K/8/8/1k6/8 b - - 10 40")
    for uci in ("g8h6", "f5h4", "h6g8"):
        board.push_uci(uci)
    t = _tree(board)
    board.push_uci("h4f5")
    assert not t.camp_left_open()
    board.pop()
    board.push_uci("h4g6")
    assert t.camp_left_open()
