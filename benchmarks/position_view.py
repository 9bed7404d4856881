"""CPU of `positions.position_view` (the legal moves, marks and outcome that every move event carries),
today's against an earlier commit's, in one process.

    .venv/bin/python benchmarks/position_view.py                 # against 8072eb3
    .venv/bin/python benchmarks/position_view.py --against REV   # any commit with web/positions.py

The peer is the module as it was at REV, read with `git show` and loaded beside today's, so both run
on the same boards in the same process; their views must be equal. Times are CPU (`time.process_time`),
the best of the rounds, each form alternating with the other.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
import types
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
from hordes import Board
from hordes.web import positions

ROOT = Path(__file__).resolve().parents[1]

BOARDS = [
    ("chess, Kiwipete", "chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    ("orda, start", "orda", None),
    ("hordes, start", "hordes", None),
]


def earlier(rev: str) -> types.ModuleType:
    source = subprocess.run(
        ["git", "show", f"{rev}:src/hordes/web/positions.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    module = types.ModuleType("positions_then")
    exec(
        compile(source, f"{rev}:positions.py", "exec"), module.__dict__
    )  # a benchmark's peer, not product code
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default="8072eb3")
    parser.add_argument("--calls", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    then = earlier(args.against)
    print(f"position_view, CPU µs per call, best of {args.rounds} rounds of {args.calls} calls")
    print(f"| board | {args.against} | now | ratio |")
    print("|---|---|---|---|")
    for label, variant, fen in BOARDS:
        board = Board(variant, fen) if fen else Board(variant)
        if then.position_view(board) != positions.position_view(board):
            raise SystemExit(f"{label}: the two views differ")
        best = {"then": float("inf"), "now": float("inf")}
        for _ in range(args.rounds):
            for key, view in (("then", then.position_view), ("now", positions.position_view)):
                began = time.process_time()
                for _ in range(args.calls):
                    view(board)
                best[key] = min(best[key], (time.process_time() - began) / args.calls)
        then_us, now_us = best["then"] * 1e6, best["now"] * 1e6
        print(f"| {label} | {then_us:.1f} | {now_us:.1f} | {then_us / now_us:.2f} |")


if __name__ == "__main__":
    main()
