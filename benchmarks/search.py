"""Search speed: nodes/s and depth reached in a fixed CPU time from 10 positions per variant, beside
Debian's Fairy-Stockfish on the same positions (where it plays the variant) in the same run.

    .venv/bin/python benchmarks/search.py                      # 1 s per position, every variant
    .venv/bin/python benchmarks/search.py --movetime 0.3 --variants orda
    .venv/bin/python benchmarks/search.py --depth 5              # fixed depth: nodes, seconds, CPU s, moves
    .venv/bin/python benchmarks/search.py --builds 5             # the same, compiled and pure build side
                                                                 # by side, and Fairy-Stockfish's nps
    .venv/bin/python benchmarks/search.py --start --movetime 3   # the start position only


The goals (issue 17) are >= 1/3 of Fairy-Stockfish's nodes/s in chess and >= 1/2 in Orda
(benchmarks/node_cost.py shows what a node's time is spent on). Our search stops after its CPU
time (`time.process_time`), Fairy-Stockfish after `go movetime` on its own clock; both run one
thread with a 16 MB hash. Fairy-Stockfish is taught each variant by our export of its document in
the keys 11.1 reads (hordes.fsf; the printout names the ini by its sha256). The Debian release (11.1)
cannot express Khan's Chess, and Fairy-Stockfish has no Hordes of Change, so those two are measured
for hordes alone.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time

import hordes
from hordes import Board
from hordes.engine.client import FAIRY_STOCKFISH, UciClient
from hordes.engine.client import fairy_stockfish as start_fairy_stockfish
from hordes.engine.limits import Limits
from hordes.engine.search import Searcher
from hordes.fsf.export import ExportError
from hordes.variants import load_variant

GOALS = {"chess": 1 / 3, "orda": 1 / 2}  # of Fairy-Stockfish's nodes/s (issue 17)

# Ten positions per variant from a fixed self-play game (every ninth ply): opening to endgame.
POSITIONS: dict[str, list[str]] = {
    "chess": [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r1bqkb1r/pppppppp/2n5/3Nn3/8/5NPP/PPPPPP2/R1BQKB1R b KQkq - 2 5",
        "r1bqkb1r/pppp1ppp/8/3p4/8/5PPP/PPQP1P2/R1B1KB1R w KQkq - 0 10",
        "r1b1k2r/pppp1ppp/8/3p4/8/4PPPP/PP1K1P2/R4B1R b kq - 0 14",
        "r1bk3r/pp1p1pp1/8/4R2p/3p4/5PPP/PP1K1P2/5B1R w - - 0 19",
        "r1bk3r/3p4/1p6/p4ppp/P2R1P2/6PP/1P1K1PB1/7R b - - 0 23",
        "r6r/2kp4/1pb5/p4pPp/P1R5/6PP/1P1K1P2/5BR1 w - - 5 28",
        "r5r1/2kp4/1pb5/p4RP1/6R1/7P/1P1K1PB1/8 b - - 2 32",
        "6r1/2kp2P1/8/pp6/8/7P/1P1K1PR1/8 w - - 1 37",
        "6r1/2k3P1/8/3p3P/1p4R1/P7/3K1P2/8 b - - 0 41",
    ],
    "orda": [
        "lhaykahl/8/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
        "l1a1ka1l/h3yh2/1ppppppp/p7/8/N1P5/PP1PPPPP/1RBQKBNR b K - 1 5",
        "2a1ka2/1hl1yh2/1ppp1pp1/p3p2l/8/N1P2N1P/PP1PPP2/1RBQKB1R w K - 0 10",
        "4ka2/ahl1yh2/1ppp1pp1/p7/3PNl2/N1P1BP1P/PP2P3/1R1QKB1R b K - 0 14",
        "4ka2/1h2yh2/1papl1p1/p2l1pN1/8/N1PQBP1P/PP2P3/1R2KB1R w K - 4 19",
        "5a2/1h2yk2/1pap2p1/p2l4/8/2P1pP1P/PP2P3/1RQ1KB1R b K - 1 23",
        "8/1h1ay3/1p1pk3/p3l1p1/8/2PQ3P/PP2P3/1R2KB1R w K - 0 28",
        "8/3ay3/1p1k4/p2pl1pQ/4h2P/2P5/PP2P3/1R2KB1R b K - 2 32",
        "8/3a1l2/1p1ky1Q1/p2p2P1/8/2P5/PP2P3/1RK2B1h w - - 1 37",
        "8/3a4/1p1ky1Q1/3p2P1/pK6/1PP5/P3P3/5l2 b - - 0 41",
    ],
    "khans": [
        "lhatkahl/ssssssss/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
        "lh1tkahl/ssssssss/4a3/8/3N4/6N1/PPPPPPPP/R1BQKB1R b KQ - 9 5",
        "lh1tkahl/ssssssss/5a2/8/4P3/3N2N1/PPPP1PPP/R1BQKB1R w KQ - 1 10",
        "l2tka1l/ssssssss/8/8/3hh3/2PN4/PP1P1PPP/R1BQKB1R b KQ - 0 14",
        "l2tka1l/sssss1ss/3h1h2/6s1/6PP/2PN1P2/PP1PQ3/R1B1KB1R w KQ - 0 19",
        "l2tka1l/sssss1ss/3h4/5P2/5N2/2P2P2/PP1PQ3/R1B1KB2 b Q - 0 23",
        "l2tka2/sssss1ss/8/8/3P1h2/2PQ1P1B/PP6/R3K3 w Q - 0 28",
        "l3ka2/ss1Bsts1/8/3s3Q/3P4/2P1h3/PP6/R3K3 b - - 0 32",
        "l2k1a2/ss2s1s1/7t/3s1B2/3P4/2PQ4/PP4h1/R3K3 w - - 9 37",
        "l2k1a2/ss2s1s1/8/3s4/3PQ1h1/2P5/PP1K4/R7 b - - 1 41",
    ],
    "hordes": [
        "bbrkkrbb/rbbrrbbr/brbrrbrb/8/8/BRBRRBRB/RBBRRBBR/BBRKKRBB w - - 0 1",
        "bbrkkrbb/1bbrrbbr/1rbrr1rb/4bB2/1B1R4/rRBbRBR1/RBBRRBBR/BBRKNRBB b - - 9 5",
        "b1rkkrbb/b1brrbbr/1rbrr1r1/3RbB2/1BbBbb2/rR2RBR1/RBBRRBBR/BBRKNRBB w - - 18 10",
        "1Rrkkrbb/1bbrrbbr/r1br1rr1/2bRbB2/2bBbb2/r1B1RBR1/RBBRRBBR/BBRNNRBB b - - 27 14",
        "1Rrnkrbb/1bbrrbbr/r1br1rr1/2bRbB1R/b2Bbb2/r1BBRB1R/RB1RRBB1/BBRNNRBB w - - 36 19",
        "rRrnkrbb/1bbrrbbr/2brr1r1/1bbRbB1R/r1BBbb2/2BBRBR1/RB1RRBBB/B1RNNR1B b - - 45 23",
        "rRrnkrbb/1bbrrbbr/2brrbr1/2bBRB1R/b2Bbb2/r1BBRBR1/RB1RRBBB/BR1KNR1B w - - 54 28",
        "1Rrkkrbb/1bbrrbbr/2brrbrR/r1bBRBR1/2bBbb2/r1B1RB2/RBBRRBBB/B1RKKR1B b - - 63 32",
        "1Rrkkrbb/rbbrrbb1/2brrbr1/2bBRBRr/3Bbb2/rbBBRBB1/RBRRRBBR/B2KKR1B w - - 72 37",
        "R1rnkrbb/1bbrrbb1/2brrbr1/r1bBRBRr/3Bbb2/rbBBRBBR/RBRRRBB1/2BKKR1B b - - 81 41",
    ],
}


def ours(variant: str, fen: str, movetime: float) -> tuple[int, int, float]:
    """(nodes, depth, CPU seconds) of a search of `movetime` CPU seconds: the nodes of the last
    report and the CPU time when it came, as Fairy-Stockfish's figures are its last report's nodes
    and time. (A search cut short inside an iteration reports nothing more unless that iteration
    finished a line, so the stop's CPU time would count work whose nodes no report holds.)"""
    # The search stops when this process has used `movetime` seconds of CPU (a shared machine's
    # clock would cut it short); the depth is the deepest iteration that completed.
    searcher = Searcher(64)
    start = time.process_time()
    limits = Limits(infinite=True, stop=lambda: time.process_time() - start >= movetime)
    last = None
    depth = 0
    reported = 0.0
    for info in searcher.search(Board(variant, fen), limits):
        last = info
        reported = time.process_time() - start
        if info.complete:
            depth = max(depth, info.depth)
    assert last is not None
    return last.nodes, depth, max(reported, 1e-9)


def fixed_depth(variants: list[str], depth: int) -> None:
    """Nodes and time to a fixed depth: independent of the clock, so two versions compare exactly
    (the same nodes and moves mean the same search; the seconds show the speed)."""
    print(f"# fixed depth {depth}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")
    for variant in variants:
        total_nodes = 0
        total_time = 0.0
        total_cpu = 0.0
        moves = []
        for fen in POSITIONS[variant]:
            board = Board(variant, fen)
            last = None
            cpu = time.process_time()
            for info in Searcher(64).search(board, Limits(depth=depth)):
                last = info
            total_cpu += time.process_time() - cpu
            assert last is not None
            total_nodes += last.nodes
            total_time += last.time
            moves.append(board.uci(last.best_move) if last.best_move else "-")
        nps = total_nodes / total_time
        head = f"{variant:<8} nodes {total_nodes:>9} seconds {total_time:>7.2f} nps {nps:>7.0f}"
        head += f" cpu {total_cpu:>7.2f}"  # CPU seconds: steadier than the clock on a shared machine
        print(f"{head}  {' '.join(moves)}")


def fixed_depth_totals(variant: str, depth: int) -> tuple[int, float, list[str]]:
    """(nodes, CPU seconds, best moves) of the fixed-depth searches of a variant's positions."""
    nodes, cpu, moves = 0, 0.0, []
    for fen in POSITIONS[variant]:
        board = Board(variant, fen)
        last = None
        start = time.process_time()
        for info in Searcher(64).search(board, Limits(depth=depth)):
            last = info
        cpu += time.process_time() - start
        assert last is not None
        nodes += last.nodes
        moves.append(board.uci(last.best_move) if last.best_move else "-")
    return nodes, cpu, moves


def builds(variants: list[str], depth: int, fsf_movetime: float) -> int:
    """Both builds on the same fixed-depth trees (the pure one in a child process with HORDES_PURE=1;
    their nodes and moves must be equal), by CPU time, beside Fairy-Stockfish's nodes/s."""
    kind = hordes.build_kind()
    env = {**os.environ, "HORDES_PURE": "1"}
    cmd = [sys.executable, __file__, "--child-depth", str(depth), "--variants", *variants]
    pure = json.loads(subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout)
    print(f"# fixed depth {depth} from the 10 positions, by CPU time; this process: the {kind} build,")
    print(f"# pure build in a child process; Fairy-Stockfish: go movetime {fsf_movetime:g} per position")
    print(f"# {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}, Python {platform.python_version()}")
    print(f"{'variant':<8}{'nodes':>9}{kind + ' s':>12}{'pure s':>9}{'speed-up':>10}"
          f"{kind + ' nps':>14}{'pure nps':>10}{'FSF nps':>10}{'vs FSF':>9}")  # fmt: skip
    for variant in variants:
        nodes, cpu, moves = fixed_depth_totals(variant, depth)
        p_nodes, p_cpu, p_moves = pure[variant]
        if (nodes, moves) != (p_nodes, p_moves):
            print(f"MISMATCH {variant}: {kind} {nodes} nodes {moves}, pure {p_nodes} nodes {p_moves}")
            return 1
        row = f"{variant:<8}{nodes:>9}{cpu:>12.2f}{p_cpu:>9.2f}{p_cpu / cpu:>10.2f}"
        row += f"{nodes / cpu:>14.0f}{p_nodes / p_cpu:>10.0f}"
        client = fairy_stockfish(variant, fsf_movetime) if fsf_movetime else None
        if client is not None:
            f_nodes = f_ms = 0
            for fen in POSITIONS[variant]:
                client.new_game()
                result = client.go(Board(variant, fen), movetime=fsf_movetime)
                if result.infos and result.infos[-1].time_ms:
                    f_nodes += result.infos[-1].nodes
                    f_ms += result.infos[-1].time_ms
            client.quit()
            if f_ms:
                fsf_nps = f_nodes * 1000 / f_ms
                row += f"{fsf_nps:>10.0f}{'1/' + format(fsf_nps * cpu / nodes, '.1f'):>9}"
        print(row, flush=True)
    return 0


def fairy_stockfish(variant: str, movetime: float) -> UciClient | None:
    """Debian's engine playing our export of the variant, or None where there is none or it cannot."""
    if not os.access(FAIRY_STOCKFISH, os.X_OK):
        return None
    try:
        client = start_fairy_stockfish(load_variant(variant), Threads=1, Hash=16)
    except ExportError as exc:
        print(f"# {variant}: no Fairy-Stockfish figures: {exc}")
        return None
    print(f"# {variant}: Fairy-Stockfish ini {client.ini_id}")
    return client


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--movetime", type=float, default=1.0, help="seconds per position (default 1)")
    parser.add_argument("--variants", nargs="*", default=list(POSITIONS), choices=list(POSITIONS))
    parser.add_argument("--depth", type=int, help="search each position to this depth instead (no FSF)")
    parser.add_argument("--start", action="store_true", help="the start position only, instead of the 10")
    parser.add_argument("--builds", type=int, metavar="DEPTH", help="both builds to this depth, and FSF")
    parser.add_argument("--fsf-movetime", type=float, default=0.5, help="with --builds (0: no FSF)")
    parser.add_argument("--child-depth", type=int, help=argparse.SUPPRESS)  # the pure build's run
    args = parser.parse_args()
    if args.child_depth:
        print(json.dumps({v: fixed_depth_totals(v, args.child_depth) for v in args.variants}))
        return 0
    if args.builds:
        return builds(args.variants, args.builds, args.fsf_movetime)
    positions = {v: [Board(v).fen()] for v in POSITIONS} if args.start else POSITIONS
    if args.depth:
        fixed_depth(args.variants, args.depth)
        return 0
    python = f"Python {platform.python_version()}, {platform.machine()}"
    print(f"# search benchmark: {args.movetime:g} s per position, {python}")
    print(f"# {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")
    ours_head = f"{'variant':<8} {'pos':>3} {'nodes':>9} {'nps':>8} {'depth':>5}"
    print(f"{ours_head} | {'FSF nodes':>10} {'FSF nps':>9} {'depth':>5}")
    verdict = 0
    for variant in args.variants:
        client = fairy_stockfish(variant, args.movetime)
        total_nodes = total_time = 0.0
        fsf_nodes = fsf_time = 0.0
        depths: list[int] = []
        fsf_depths: list[int] = []
        for i, fen in enumerate(positions[variant]):
            nodes, depth, elapsed = ours(variant, fen, args.movetime)
            total_nodes += nodes
            total_time += elapsed
            depths.append(depth)
            row = f"{variant:<8} {i:>3} {nodes:>9} {nodes / elapsed:>8.0f} {depth:>5} |"
            if client is not None:
                client.new_game()
                result = client.go(Board(variant, fen), movetime=args.movetime)
                last = result.infos[-1] if result.infos else None
                deepest = max((x.depth for x in result.infos), default=0)
                if last is not None and last.time_ms:
                    fsf_nodes += last.nodes
                    fsf_time += last.time_ms / 1000
                    fsf_depths.append(deepest)
                    row += f" {last.nodes:>10} {last.nodes * 1000 / last.time_ms:>9.0f} {deepest:>5}"
            print(row, flush=True)
        nps = total_nodes / total_time
        line = f"{variant:<8} all {int(total_nodes):>9} {nps:>8.0f} {sum(depths) / len(depths):>5.1f} |"
        if client is not None and fsf_time:
            fsf_nps = fsf_nodes / fsf_time
            ratio = nps / fsf_nps
            line += f" {int(fsf_nodes):>10} {fsf_nps:>9.0f} {sum(fsf_depths) / len(fsf_depths):>5.1f}"
            goal = GOALS.get(variant, 1 / 5)
            verdict_text = "meets" if ratio >= goal else "below"
            line += f"   ratio 1/{1 / ratio:.1f} ({verdict_text} the 1/{1 / goal:.0f} goal)"
            verdict |= ratio < goal
            client.quit()
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
