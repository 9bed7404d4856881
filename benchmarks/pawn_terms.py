"""What chess's pawn-structure and colour-pair terms cost a search: nodes per CPU-second with the
document's evaluation against the same without `isolated_pawn`, `doubled_pawn` and `colour_pair`,
in one process, round by round so that the machine's drift falls on both.

    .venv/bin/python benchmarks/pawn_terms.py              # depth 7, 2 rounds
    .venv/bin/python benchmarks/pawn_terms.py --depth 8 --rounds 3

The positions are benchmarks/search.py's ten chess positions. Times are CPU seconds
(`time.process_time`), summed over the rounds. The two evaluations search different trees, so the
figure to read is nodes per second, not the node counts.
"""

from __future__ import annotations

import argparse
import time

from hordes import Board
from hordes.engine.limits import Limits
from hordes.engine.search import Searcher
from search import POSITIONS  # benchmarks/search.py, beside this file

WITHOUT = {"isolated_pawn": 0, "doubled_pawn": 0, "colour_pair": 0}


def search_all(fens: list[str], depth: int, evaluation: dict[str, object]) -> tuple[int, float]:
    nodes = 0
    seconds = 0.0
    for fen in fens:
        # `search` builds the evaluator before the first node (once a game in play): left out of the time
        run = Searcher(16, evaluation=evaluation).search(Board("chess", fen), Limits(depth=depth))
        last = None
        start = time.process_time()
        for info in run:
            last = info
        seconds += time.process_time() - start
        assert last is not None
        nodes += last.nodes
    return nodes, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--depth", type=int, default=7)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--with", dest="extra", default="", help="terms to add, e.g. colour_pair=35/55")
    args = parser.parse_args()
    fens = POSITIONS["chess"]
    document: dict[str, object] = {}
    for item in filter(None, args.extra.split(",")):
        key, _, value = item.partition("=")
        document[key] = [int(v) for v in value.split("/")]
    totals = {"document": [0, 0.0], "without": [0, 0.0]}
    for _ in range(args.rounds):
        for name, evaluation in (("document", document), ("without", WITHOUT)):
            nodes, seconds = search_all(fens, args.depth, evaluation)
            totals[name][0] += nodes
            totals[name][1] += seconds
    print(f"chess, {len(fens)} positions, depth {args.depth}, {args.rounds} rounds")
    rate = {}
    for name, (nodes, seconds) in totals.items():
        rate[name] = nodes / seconds
        print(f"  {name:8s} {int(nodes):>10,} nodes {seconds:7.2f} CPU s {rate[name]:>10,.0f} nodes/s")
    print(f"  document / without nodes/s: {rate['document'] / rate['without']:.3f}")


if __name__ == "__main__":
    main()
