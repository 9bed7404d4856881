"""The `mobility` term's count where the search composes its static score (`Evaluator.extras`, as
in Hordes of Change): compiled code on 64-bit words (engine/node_static.py's MobilityWords) against
`Mobility.count` (engine/mobility.py, which runs interpreted), in one process.

    .venv/bin/python benchmarks/mobility_count.py                    # Hordes of Change, best of 2
    .venv/bin/python benchmarks/mobility_count.py --rounds 3 --depth 3

The evaluator the search uses gets one count, then the other, round by round, so that the machine's
drift falls on both. The work is benchmarks/search.py's fixed-depth searches of its ten positions,
and a loop that counts every position one move from them many times (the count alone). Times are
CPU seconds (`time.process_time`), the best of the rounds. The counts, and the searches' node
counts and moves, must be equal both ways, or it stops.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from hordes import Board
from hordes.engine.evaluate import Evaluator, evaluator
from hordes.engine.node_static import MobilityWords
from node_static import compare, header, positions  # benchmarks/node_static.py, beside this file

CALLS = 50  # counts of each position in the count-alone loop


def count_all(fn: Callable[[Board], int], boards: list[Board]) -> int:
    total = 0
    for board in boards:
        for _ in range(CALLS):
            total += fn(board)
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--variants", nargs="+", default=["hordes"])
    args = parser.parse_args()
    header(args.rounds, "interpreted", "words")
    for variant in args.variants:
        ev = evaluator(Board(variant).variant)
        if ev.mobility is None or ev.written_out:
            raise SystemExit(f"{variant}: mobility is not weighed, or not counted in extras")
        saved = ev.mobility_count
        ways: dict[str, Callable[[Board], int]] = {
            "interpreted": ev.mobility.count,
            "words": MobilityWords(ev.mobility).count,
        }
        boards = positions(variant)

        def install(fn: Callable[[Board], int], ev: Evaluator = ev) -> None:
            ev.mobility_count = fn

        loop = (f"{len(boards)} positions × {CALLS}", lambda fn, bs=boards: count_all(fn, bs))
        try:
            compare(variant, loop, args.depth, ways, install, args.rounds)
        finally:
            ev.mobility_count = saved


if __name__ == "__main__":
    main()
