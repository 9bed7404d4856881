"""What Orda's campmate race costs a search: nodes per CPU-second with the document's weights
(`campmate_race: [20, 160]`, reach 5, `campmate_delay: true`) against the earlier ones ([20, 120],
reach 4, no delay), in one process, round by round so that the machine's drift falls on both.

    .venv/bin/python benchmarks/campmate_race.py              # depth 5, 2 rounds
    .venv/bin/python benchmarks/campmate_race.py --depth 6 --rounds 3

The positions are benchmarks/search.py's ten Orda positions and the races and stops of
tests/engine/data/tactics_campmate.txt, where a king stands near its camp. Times are CPU seconds
(`time.process_time`), summed over the rounds, with the evaluator built before the clock starts
(benchmarks/eval_rounds.py; until 2026-12-06 the build was inside the time).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from eval_rounds import compare  # benchmarks/eval_rounds.py, beside this file
from search import POSITIONS  # benchmarks/search.py

TACTICS = Path(__file__).resolve().parent.parent / "tests" / "engine" / "data" / "tactics_campmate.txt"
EARLIER = {"campmate_race": [20, 120], "campmate_reach": 4, "campmate_delay": False}


def positions() -> list[str]:
    fens = list(POSITIONS["orda"])
    for line in TACTICS.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            fens.append(line.split("|")[0].strip())
    return fens


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--depth", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    fens = positions()
    compare("orda", fens, args.depth, args.rounds, {"document": {}, "earlier": EARLIER})


if __name__ == "__main__":
    main()
