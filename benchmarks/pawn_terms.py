"""What chess's pawn-structure and colour-pair terms cost a search: nodes per CPU-second with the
document's evaluation against the same without `isolated_pawn`, `doubled_pawn` and `colour_pair`,
in one process, round by round so that the machine's drift falls on both.

    .venv/bin/python benchmarks/pawn_terms.py              # depth 7, 2 rounds
    .venv/bin/python benchmarks/pawn_terms.py --depth 8 --rounds 3
    .venv/bin/python benchmarks/pawn_terms.py --with mobility=48/48   # any term against the document

The positions are benchmarks/search.py's ten chess positions. Times are CPU seconds
(`time.process_time`), summed over the rounds, with the evaluator built before the clock starts
(benchmarks/eval_rounds.py). The two evaluations search different trees, so the
figure to read is nodes per second, not the node counts.
"""

from __future__ import annotations

import argparse

from eval_rounds import compare  # benchmarks/eval_rounds.py, beside this file
from search import POSITIONS  # benchmarks/search.py

WITHOUT = {"isolated_pawn": 0, "doubled_pawn": 0, "colour_pair": 0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--depth", type=int, default=7)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--with", dest="extra", default="", help="terms to add, e.g. colour_pair=35/55")
    args = parser.parse_args()
    document: dict[str, object] = {}
    for item in filter(None, args.extra.split(",")):
        key, _, value = item.partition("=")
        document[key] = [int(v) for v in value.split("/")]
    compare("chess", POSITIONS["chess"], args.depth, args.rounds, {"document": document, "without": WITHOUT})


if __name__ == "__main__":
    main()
