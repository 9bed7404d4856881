"""What Orda's campmate race costs a search: nodes per CPU-second with the document's weights
(`campmate_race: [20, 160]`, reach 5, `campmate_delay: true`) against the earlier ones ([20, 120],
reach 4, no delay), in one process, round by round so that the machine's drift falls on both.

    .venv/bin/python benchmarks/campmate_race.py              # depth 5, 2 rounds
    .venv/bin/python benchmarks/campmate_race.py --depth 6 --rounds 3

The positions are benchmarks/search.py's ten Orda positions and the races and stops of
tests/engine/data/tactics_campmate.txt, where a king stands near its camp. Times are CPU seconds
(`time.process_time`), summed over the rounds.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from hordes import Board
from hordes.engine.limits import Limits
from hordes.engine.search import Searcher
from search import POSITIONS  # benchmarks/search.py, beside this file

TACTICS = Path(__file__).resolve().parent.parent / "tests" / "engine" / "data" / "tactics_campmate.txt"
EARLIER = {"campmate_race": [20, 120], "campmate_reach": 4, "campmate_delay": False}


def positions() -> list[str]:
    fens = list(POSITIONS["orda"])
    for line in TACTICS.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            fens.append(line.split("|")[0].strip())
    return fens


def search_all(fens: list[str], depth: int, evaluation: dict[str, object]) -> tuple[int, float]:
    nodes = 0
    start = time.process_time()
    for fen in fens:
        last = None
        for info in Searcher(16, evaluation=evaluation).search(Board("orda", fen), Limits(depth=depth)):
            last = info
        assert last is not None
        nodes += last.nodes
    return nodes, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--depth", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    fens = positions()
    totals = {"document": [0, 0.0], "earlier": [0, 0.0]}
    for _ in range(args.rounds):
        for name, evaluation in (("document", {}), ("earlier", EARLIER)):
            nodes, seconds = search_all(fens, args.depth, evaluation)
            totals[name][0] += nodes
            totals[name][1] += seconds
    print(f"Orda, {len(fens)} positions, depth {args.depth}, {args.rounds} rounds")
    rate = {}
    for name, (nodes, seconds) in totals.items():
        rate[name] = nodes / seconds
        print(f"  {name:8s} {int(nodes):>10,} nodes {seconds:7.2f} CPU s {rate[name]:>10,.0f} nodes/s")
    print(f"  document / earlier nodes/s: {rate['document'] / rate['earlier']:.3f}")


if __name__ == "__main__":
    main()
