"""Perft speed by CPU time: the compiled and the pure build of hordes side by side, python-chess and
pyffish in the same run. Same algorithm everywhere (recursive push/pop, bulk-count the last ply).

.venv/bin/python benchmarks/perft.py            # the full run recorded in docs/benchmarks.md
.venv/bin/python benchmarks/perft.py --quick    # smaller depths

The pure build runs in a child process with HORDES_PURE=1 (hordes.buildinfo), on the same positions;
its node counts must equal the compiled build's.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable

import chess

import hordes
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


def timed(fn: Callable[..., int], *args: object) -> tuple[int, float]:
    """(result, CPU seconds of this process)."""
    start = time.process_time()
    n = fn(*args)
    return int(n), time.process_time() - start


def rows(cut: int) -> list[tuple[str, str, str, int]]:
    """(name, variant, fen, depth) of every measured position."""
    out = [(n, "chess", f, d - cut) for n, f, d in CHESS]
    out += [(n, "orda", f, d - cut) for n, f, d in ORDA]
    return out + [(n, v, f, d - cut) for n, v, f, d in OTHERS]


def hordes_rows(cut: int) -> dict[str, tuple[int, float]]:
    """{name: (nodes, CPU seconds)} in the build loaded in this process."""
    return {name: timed(Board(v, fen).perft, d) for name, v, fen, d in rows(cut)}


def pure_rows(cut: int) -> dict[str, tuple[int, float]] | None:
    """The same in a child process on the pure build; None if this process runs it already."""
    if hordes.build_kind() == "pure":
        return None
    env = {**os.environ, "HORDES_PURE": "1"}
    cmd = [sys.executable, __file__, "--child", *(["--quick"] if cut else [])]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
    return {k: (int(v[0]), float(v[1])) for k, v in json.loads(out).items()}


def pyffish_perft(sf: object, variant: str, fen: str, moves: list[str], depth: int) -> int:
    legal: list[str] = sf.legal_moves(variant, fen, moves)  # type: ignore[attr-defined]
    if depth == 1:
        return len(legal)
    return sum(pyffish_perft(sf, variant, fen, [*moves, m], depth - 1) for m in legal)


def rate(nodes: int, seconds: float) -> float:
    return nodes / seconds if seconds > 0 else float("inf")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="one ply less everywhere")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)  # the pure build's run
    args = parser.parse_args()
    cut = 1 if args.quick else 0
    if args.child:
        print(json.dumps(hordes_rows(cut)))
        return 0
    kind = hordes.build_kind()
    pure = pure_rows(cut)
    ours = hordes_rows(cut)
    if pure is not None:
        for name, (n, _) in ours.items():
            if pure[name][0] != n:
                print(f"MISMATCH {name}: {kind} build {n} nodes, pure build {pure[name][0]}")
                return 1
    print(f"# perft by CPU time; this process: the {kind} build; pure build in a child process")
    print(f"{'position':<14}{'depth':>6}{'nodes':>11}{kind + ' n/s':>15}{'pure n/s':>11}"
          f"{'python-chess':>14}{'vs p-chess':>11}{'vs pure':>9}")  # fmt: skip
    totals = [0, 0.0, 0.0, 0.0]  # nodes, our seconds, pure seconds, python-chess seconds
    for name, variant, fen, d in rows(cut):
        if variant != "chess":
            continue
        n, t = ours[name]
        tp = pure[name][1] if pure else float("nan")
        n2, t2 = timed(pychess_perft, chess.Board(fen), d)
        if n != n2:
            print(f"MISMATCH {name}: hordes {n} python-chess {n2}")
            return 1
        totals = [totals[0] + n, totals[1] + t, totals[2] + tp, totals[3] + t2]
        print(f"{name:<14}{d:>6}{n:>11,}{rate(n, t):>15,.0f}{rate(n, tp):>11,.0f}"
              f"{rate(n, t2):>14,.0f}{t2 / t:>11.2f}{tp / t:>9.2f}")  # fmt: skip
    n, t, tp, t2 = totals
    chess_rate, pure_chess_rate = rate(int(n), t), rate(int(n), tp)
    print(f"{'chess total':<14}{'':>6}{int(n):>11,}{chess_rate:>15,.0f}{pure_chess_rate:>11,.0f}"
          f"{rate(int(n), t2):>14,.0f}{t2 / t:>11.2f}{tp / t:>9.2f}")  # fmt: skip
    print()
    print(f"{'position':<14}{'depth':>6}{'nodes':>11}{kind + ' n/s':>15}{'pure n/s':>11}"
          f"{'vs own chess':>14}{'(pure)':>11}{'vs pure':>9}")  # fmt: skip
    for name, variant, _, d in rows(cut):
        if variant == "chess":
            continue
        n, t = ours[name]
        tp = pure[name][1] if pure else float("nan")
        own, own_pure = rate(n, t) / chess_rate, rate(n, tp) / pure_chess_rate
        print(f"{name:<14}{d:>6}{n:>11,}{rate(n, t):>15,.0f}{rate(n, tp):>11,.0f}"
              f"{own:>14.2f}{own_pure:>11.2f}{tp / t:>9.2f}")  # fmt: skip
    try:
        import pyffish
    except ImportError:
        print("\n# pyffish is not installed: no figures for it")
    else:
        from hordes.fsf.export import CURRENT, export_variants
        from hordes.variants import load_variant

        # Taught Orda by our export of its document first: pyffish dies on a variant it does not know.
        pyffish.load_variant_config(export_variants([load_variant("orda")], CURRENT))
        print(f"\n{'pyffish':<14}{'depth':>6}{'nodes':>11}{'pyffish n/s':>15}{kind + ' n/s':>15}")
        for variant in ("chess", "orda"):
            board = Board(variant)
            n1, t1 = timed(pyffish_perft, pyffish, variant, board.fen(), [], 3 - cut)
            n, t = timed(board.perft, 3 - cut)
            assert n == n1, f"{variant}: pyffish {n1}, hordes {n}"
            print(f"{variant + '-start':<14}{3 - cut:>6}{n:>11,}{rate(n, t1):>15,.0f}{rate(n, t):>15,.0f}")
    load = os.getloadavg()[0]
    print(f"\npython {sys.version.split()[0]}, python-chess {chess.__version__}, load {load:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
