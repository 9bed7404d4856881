"""Play seeded random games of a variant to their end and report how long they ran and how they ended.

    .venv/bin/python tools/random_games.py hordes --games 200 --max-plies 2000

Every game is played through the public Board API (legal_moves, push, outcome), so a crash or an
inconsistency anywhere in the rules shows up here. Games that reach --max-plies are reported as such.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from hordes import COLOR_NAMES, Board


def play(variant: str, seed: int, max_plies: int) -> tuple[int, str]:
    rng = random.Random(seed)
    board = Board(variant)
    for ply in range(max_plies):
        out = board.outcome()
        if out is not None:
            winner = COLOR_NAMES[out.winner] if out.winner is not None else "draw"
            return ply, f"{out.termination.value} ({winner})"
        board.push(rng.choice(list(board.legal_moves)))
    return max_plies, "ply cap"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("variant")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--max-plies", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    start = time.perf_counter()
    lengths: list[int] = []
    reasons: Counter[str] = Counter()
    for i in range(args.games):
        plies, reason = play(args.variant, args.seed + i, args.max_plies)
        lengths.append(plies)
        reasons[reason] += 1
    elapsed = time.perf_counter() - start
    print(f"{args.variant}: {args.games} random games in {elapsed:.1f} s, {sum(lengths)} plies")
    median, mean = statistics.median(lengths), statistics.mean(lengths)
    print(f"plies: min {min(lengths)}, median {median:.0f}, mean {mean:.0f}, max {max(lengths)}")
    for reason, count in reasons.most_common():
        print(f"  {count:>5}  {reason}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
