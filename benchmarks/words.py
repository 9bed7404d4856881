"""The generator on 64-bit words (hordes.core.words) against fastgen's generated code, in one process.

    .venv/bin/python benchmarks/words.py            # perft and a fixed-depth search, best of 3 each way
    .venv/bin/python benchmarks/words.py --rounds 5

Both generators serve the same Board in turn (its variant's `words` set, then None), alternating round
by round so that the machine's drift falls on both; times are CPU seconds (`time.process_time`), the
best of the rounds. The perft node counts and the searches' node counts and moves must be equal
between the two, or the script stops. On the pure build the words generator is interpreted and slower
than fastgen's code, which is why the pure build does not use it; the figures that matter are the
compiled build's.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import hordes
from hordes import Board
from hordes.core import words
from search import fixed_depth_totals  # benchmarks/search.py, beside this file

PERFT = [
    ("chess", "start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 4),
    ("chess", "kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3),
    ("chess", "position3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5),
    ("chess", "position4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 4),
    ("orda", "orda-start", "lhaykahl/8/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", 4),
    ("orda", "orda-middle", "l1a1ka1l/3h1h2/p1ppyp1p/1p2p1p1/3PP3/2N2N2/PPP1BPPP/R1BQK2R w KQ - 0 8", 3),
    ("khans", "khans-start", "lhatkahl/ssssssss/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", 4),
]
SEARCH_DEPTH = 5  # benchmarks/search.py's ten positions per variant, as with its --depth 5


def cpu(fn: Callable[[], object]) -> tuple[object, float]:
    start = time.process_time()
    out = fn()
    return out, time.process_time() - start


def searches(variant: str, depth: int) -> tuple[int, list[str]]:
    """benchmarks/search.py's fixed-depth searches of a variant's positions: (nodes, best moves)."""
    nodes, _, moves = fixed_depth_totals(variant, depth)
    return nodes, moves


def compare(label: str, board: Board, work: Callable[[], object], rounds: int) -> None:
    comp = board.compiled
    table = words.build_words(comp)
    if table is None:
        raise SystemExit(f"{label}: not served by the words generator")
    best = {"words": float("inf"), "fastgen": float("inf")}
    answers: dict[str, object] = {}
    saved = comp.words
    try:
        for _ in range(rounds):
            for name, tab in (("fastgen", None), ("words", table)):
                comp.words = tab
                out, seconds = cpu(work)
                if answers.setdefault(name, out) != out:
                    raise SystemExit(f"{label}: {name} gave {out}, then {answers[name]}")
                best[name] = min(best[name], seconds)
    finally:
        comp.words = saved
    if answers["words"] != answers["fastgen"]:
        raise SystemExit(f"MISMATCH {label}: words {answers['words']}, fastgen {answers['fastgen']}")
    shown = answers["words"][0] if isinstance(answers["words"], tuple) else answers["words"]
    print(
        f"| {label} | {shown} | {best['fastgen']:.3f} | {best['words']:.3f} "
        f"| {best['fastgen'] / best['words']:.2f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(f"# {hordes.build_kind()} build, best of {args.rounds} CPU seconds each way")
    print("| perft | nodes | fastgen s | words s | fastgen / words |")
    print("|---|---|---|---|---|")
    for variant, name, fen, depth in PERFT:
        board = Board(variant, fen)
        compare(f"{name} d{depth}", board, lambda b=board, d=depth: b.perft(d), args.rounds)
    print()
    print("| search, 10 positions | nodes (and the same moves) | fastgen s | words s | fastgen / words |")
    print("|---|---|---|---|---|")
    for variant in ("chess", "orda", "khans"):
        # Boards of one variant share its tables, so switching them on one Board switches all.
        board = Board(variant)
        compare(
            f"{variant} depth {SEARCH_DEPTH}", board, lambda v=variant: searches(v, SEARCH_DEPTH), args.rounds
        )


if __name__ == "__main__":
    main()
