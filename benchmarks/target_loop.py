"""A/B of the generated piece generator's target loop, in one process: the loop inline (the pure
build's default) against the call to the compiled fastgen.emit_targets (the compiled build's), both
installed in turn on the same boards. Best of N alternating runs, CPU seconds, equal node counts.

.venv/bin/python benchmarks/target_loop.py             # on the build this process loads
HORDES_PURE=1 .venv/bin/python benchmarks/target_loop.py --runs 2
"""

from __future__ import annotations

import argparse
import time

import hordes
from hordes import Board
from hordes.core.compiled import Compiled
from hordes.core.fastgen import build_piece_moves

POSITIONS = [
    ("start", "chess", None, 5),
    ("kiwipete", "chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 4),
    ("position3", "chess", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5),
    ("position4", "chess", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 4),
    ("orda-start", "orda", None, 4),
    ("orda-middle", "orda", "l1a1ka1l/3h1h2/p1ppyp1p/1p2p1p1/3PP3/2N2N2/PPP1BPPP/R1BQK2R w KQ - 0 8", 4),
]


def install(comp: Compiled, call: bool) -> None:
    comp.piece_moves = (
        [build_piece_moves(comp, us, False, call_targets=call) for us in (0, 1)],
        [build_piece_moves(comp, us, True, call_targets=call) for us in (0, 1)],
    )
    comp.unpinned_captures = tuple(build_piece_moves(comp, us, True, True, call) for us in (0, 1))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"# {hordes.build_kind()} build, best of {args.runs} alternating runs, CPU seconds")
    print(f"{'position':<13}{'depth':>6}{'nodes':>11}{'inline':>9}{'call':>9}{'gain':>7}")
    for name, variant, fen, depth in POSITIONS:
        board = Board(variant, fen=fen)
        best = {False: float("inf"), True: float("inf")}
        nodes = {}
        for _ in range(args.runs):
            for call in (False, True):
                install(board.compiled, call)
                start = time.process_time()
                nodes[call] = board.perft(depth)
                best[call] = min(best[call], time.process_time() - start)
        assert nodes[False] == nodes[True], f"{name}: {nodes}"
        gain = best[False] / best[True]
        print(f"{name:<13}{depth:>6}{nodes[True]:>11,}{best[False]:>9.2f}{best[True]:>9.2f}{gain:>7.2f}")


if __name__ == "__main__":
    main()
