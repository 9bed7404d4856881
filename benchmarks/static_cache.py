"""The search's cache of static scores (Searcher.statics) against the same search without it.

    .venv/bin/python benchmarks/static_cache.py                    # orda, khans, hordes; depth 5, 5, 3
    .venv/bin/python benchmarks/static_cache.py --variants hordes --depth 4 --rounds 5
    .venv/bin/python benchmarks/static_cache.py --only on          # one side, for an instruction
                                                                   # count under valgrind

Both sides search benchmarks/search.py's 10 positions per variant to a fixed depth in this process,
with a new Searcher per position; "off" sets the cache's capacity to 0. The node counts must be equal
(the cache returns the scores the evaluation gives, so the tree is the same): a mismatch stops the
script. Times are CPU seconds (`time.process_time`), the best of `--rounds` runs taken in turn, so
a shared machine's noise falls mostly on the slower runs.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import hordes
from hordes import Board
from hordes.engine.limits import Limits
from hordes.engine.search import Searcher
from search import POSITIONS  # the same ten positions per variant

DEPTHS = {"chess": 5, "orda": 5, "khans": 5, "hordes": 3}


def run(variant: str, depth: int, cache: bool) -> tuple[int, float]:
    """(nodes, CPU seconds) of the fixed-depth searches of one variant's positions."""
    nodes = 0
    start = time.process_time()
    for fen in POSITIONS[variant]:
        searcher = Searcher()
        if not cache:
            searcher.statics_capacity = 0
        infos = list(searcher.search(Board(variant, fen), Limits(depth=depth)))
        nodes += infos[-1].nodes
    return nodes, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--variants", nargs="*", default=["orda", "khans", "hordes"], choices=sorted(POSITIONS)
    )
    parser.add_argument(
        "--depth", type=int, help="one depth for every variant (default: 5, Hordes of Change 3)"
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", choices=["on", "off"], help="run one side once, print its nodes")
    args = parser.parse_args()
    print(f"# build {hordes.build_kind()}, fixed depth, {len(POSITIONS['chess'])} positions per variant")
    for variant in args.variants:
        depth = args.depth or DEPTHS[variant]
        if args.only:
            nodes, cpu = run(variant, depth, args.only == "on")
            print(f"{variant} depth {depth} cache {args.only}: {nodes} nodes, {cpu:.2f} CPU s")
            continue
        best = {True: float("inf"), False: float("inf")}
        expected: int | None = None  # every run, either side, must search the same number of nodes
        for _ in range(args.rounds):
            for cache in (False, True):
                nodes, cpu = run(variant, depth, cache)
                if expected is None:
                    expected = nodes
                elif nodes != expected:
                    sys.exit(f"{variant}: {nodes} nodes against {expected}: not the same tree")
                best[cache] = min(best[cache], cpu)
        print(
            f"| {variant} | {depth} | {expected} | {best[False]:.2f} | {best[True]:.2f} "
            f"| {best[False] / best[True]:.2f} |"
        )


if __name__ == "__main__":
    main()
