"""Perft speed: hordes against python-chess in one process, same algorithm (bulk-count the last ply).

.venv/bin/python benchmarks/perft.py            # the full run recorded in docs/benchmarks.md
.venv/bin/python benchmarks/perft.py --quick    # smaller depths
"""

from __future__ import annotations

import argparse
import sys
import time

import chess

from hordes import Board

CHESS = [
    ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 4),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3),
    ("position3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5),
    ("position4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 4),
    ("position5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 3),
    ("position6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 3),
]
ORDA = [
    ("orda-start", "lhaykahl/8/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", 4),
    ("orda-middle", "l1a1ka1l/3h1h2/p1ppyp1p/1p2p1p1/3PP3/2N2N2/PPP1BPPP/R1BQK2R w KQ - 0 8", 3),
    ("orda-open", "2a1k2l/3h4/p2p1p2/1p2p1p1/3PP1y1/2N5/PPP2PPP/R3K2R w KQ - 0 14", 3),
]
OTHERS = [
    ("khans-start", "khans", "lhatkahl/ssssssss/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", 4),
    ("hordes-start", "hordes", "bbrkkrbb/rbbrrbbr/brbrrbrb/8/8/BRBRRBRB/RBBRRBBR/BBRKKRBB w - - 0 1", 3),
    # Two middle games reached by seeded random play (seeds 7 and 11, 24 and 40 plies): magnets of both
    # sides, pieces that changed owner, Knight royals.
    (
        "hordes-mid1",
        "hordes",
        "bbrkkrbb/1+bb+rrbbr/1+r1r2rb/3b4/rB1+b2r1/2BR2RB/1BBRB+B+BR/B+BRNKR+BB w - - 3 13",
        3,
    ),
    (
        "hordes-mid2",
        "hordes",
        "b+brkkrbb/1+bbr+r+b2/rr+bb1+b1b/R2R4/1R1BB1+b1/2NBR1+RR/1BB+RRB1R/+BBR1KRBB w - - 0 21",
        3,
    ),
]


def pychess_perft(board: chess.Board, depth: int) -> int:
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += pychess_perft(board, depth - 1)
        board.pop()
    return total


def timed(fn: object, *args: object) -> tuple[int, float]:
    start = time.perf_counter()
    n = fn(*args)  # type: ignore[operator]
    return int(n), time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="one ply less everywhere")
    args = parser.parse_args()
    cut = 1 if args.quick else 0
    print(f"{'position':<14}{'depth':>6}{'nodes':>12}{'hordes n/s':>14}{'python-chess n/s':>18}{'ratio':>8}")
    tot_h = tot_c = 0.0
    nodes_total = 0
    for name, fen, depth in CHESS:
        d = depth - cut
        n1, t1 = timed(Board("chess", fen).perft, d)
        n2, t2 = timed(pychess_perft, chess.Board(fen), d)
        if n1 != n2:
            print(f"MISMATCH {name}: hordes {n1} python-chess {n2}")
            return 1
        tot_h += t1
        tot_c += t2
        nodes_total += n1
        print(f"{name:<14}{d:>6}{n1:>12,}{n1 / t1:>14,.0f}{n2 / t2:>18,.0f}{t2 / t1:>8.2f}")
    chess_rate = nodes_total / tot_h
    print(f"{'chess total':<14}{'':>6}{nodes_total:>12,}{chess_rate:>14,.0f}{nodes_total / tot_c:>18,.0f}"
          f"{tot_c / tot_h:>8.2f}")  # fmt: skip
    print()
    print(f"{'position':<14}{'depth':>6}{'nodes':>12}{'hordes n/s':>14}{'vs own chess':>18}")
    rows = [(n, "orda", f, d) for n, f, d in ORDA] + OTHERS
    for name, variant, fen, depth in rows:
        d = depth - cut
        n1, t1 = timed(Board(variant, fen).perft, d)
        print(f"{name:<14}{d:>6}{n1:>12,}{n1 / t1:>14,.0f}{(n1 / t1) / chess_rate:>18.2f}")
    print(f"\npython {sys.version.split()[0]}, python-chess {chess.__version__}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
