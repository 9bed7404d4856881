"""What evaluation terms cost a search (chess unless `--variant` names another): nodes per
CPU-second with the document's evaluation plus the terms named by `--with`, against the document's
evaluation without the terms named by `--without` (set to 0), in one process, round by round so
that the machine's drift falls on both.

    .venv/bin/python benchmarks/term_cost.py --without mobility     # what chess's mobility costs
    .venv/bin/python benchmarks/term_cost.py --with colour_pair=35/55 --depth 8 --rounds 3
    .venv/bin/python benchmarks/term_cost.py --variant hordes --depth 4 --without mobility

`--without` defaults to `isolated_pawn,doubled_pawn,colour_pair`, which chess leaves off, so
`--with` alone weighs a term against the document as it is. The positions are
benchmarks/search.py's ten positions of the variant. Times are CPU seconds
(`time.process_time`), summed over the rounds, with the evaluator built before the clock starts
(benchmarks/eval_rounds.py). The two evaluations search different trees, so the figure to read is
nodes per second, not the node counts.
"""

from __future__ import annotations

import argparse

from eval_rounds import compare  # benchmarks/eval_rounds.py, beside this file
from search import POSITIONS  # benchmarks/search.py

WITHOUT = "isolated_pawn,doubled_pawn,colour_pair"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="chess", choices=sorted(POSITIONS))
    parser.add_argument("--depth", type=int, default=7)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--with", dest="extra", default="", help="terms to add, e.g. colour_pair=35/55")
    parser.add_argument("--without", default=WITHOUT, help="terms to set to 0, e.g. mobility")
    args = parser.parse_args()
    document: dict[str, object] = {}
    for item in filter(None, args.extra.split(",")):
        key, _, value = item.partition("=")
        document[key] = [int(v) for v in value.split("/")]
    without: dict[str, object] = {key: 0 for key in filter(None, args.without.split(","))}
    compare(
        args.variant,
        POSITIONS[args.variant],
        args.depth,
        args.rounds,
        {"document": document, "without": without},
    )


if __name__ == "__main__":
    main()
