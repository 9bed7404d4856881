"""What the campmate cut saves a search: under a campmate threat, a move that leaves the camp open is
scored lost without a search (engine/tree.py, `Tree.camp_left_open`). The same positions are searched
to the same depth with the cut and without it, in alternating rounds within one process so that the
machine's drift falls on both, timed in CPU seconds (`time.process_time`).

    .venv/bin/python benchmarks/campmate_cut.py              # depth 5, 2 rounds
    .venv/bin/python benchmarks/campmate_cut.py --depth 6 --rounds 3

The positions are benchmarks/campmate_race.py's: the ten Orda positions of benchmarks/search.py and
the races and stops of tests/engine/data/tactics_campmate.txt. The cut is exact, so the run stops
unless both searches of each position agree on the score and the move.
"""

from __future__ import annotations

import argparse
import time

from campmate_race import positions  # benchmarks/campmate_race.py, beside this file
from hordes import Board
from hordes.engine import tree
from hordes.engine.limits import Limits
from hordes.engine.search import Searcher


def search_all(fens: list[str], depth: int, cut: bool) -> tuple[int, float, list[tuple[int, str]]]:
    """Nodes, CPU seconds, and each position's (score, move), with the cut on or off."""
    tree.CAMP_CUT = cut
    nodes = 0
    seconds = 0.0
    results = []
    for fen in fens:
        board = Board("orda", fen)
        run = Searcher(16).search(board, Limits(depth=depth))
        last = None
        start = time.process_time()
        for info in run:
            last = info
        seconds += time.process_time() - start
        assert last is not None and last.best_move is not None
        nodes += last.nodes
        results.append((last.score, board.uci(last.best_move)))
    tree.CAMP_CUT = True
    return nodes, seconds, results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--depth", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    fens = positions()
    totals = {True: [0, 0.0], False: [0, 0.0]}
    search_all(fens[:1], args.depth, True)  # untimed: the first searches of a process build tables
    search_all(fens[:1], args.depth, False)
    for _ in range(args.rounds):
        answers = {}
        for cut in (True, False):
            nodes, seconds, answers[cut] = search_all(fens, args.depth, cut)
            totals[cut][0] += nodes
            totals[cut][1] += seconds
        for fen, with_cut, without in zip(fens, answers[True], answers[False], strict=True):
            if with_cut != without:
                raise SystemExit(f"{fen}: {with_cut} with the cut, {without} without: the cut is not exact")
    print(f"orda, {len(fens)} positions, depth {args.depth}, {args.rounds} rounds; scores and moves equal")
    for cut, (nodes, seconds) in totals.items():
        name = "cut" if cut else "no cut"
        print(f"  {name:7s} {int(nodes):>10,} nodes {seconds:7.2f} CPU s {nodes / seconds:>10,.0f} nodes/s")
    (n_cut, s_cut), (n_off, s_off) = totals[True], totals[False]
    print(f"  without / with the cut: nodes {n_off / n_cut:.2f}, CPU time {s_off / s_cut:.2f}")


if __name__ == "__main__":
    main()
