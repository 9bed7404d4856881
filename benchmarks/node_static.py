"""The search's static score per node: compiled code on 64-bit words (engine/node_static.py) against
the source written out per document and run with `exec`, in one process.

    .venv/bin/python benchmarks/node_static.py            # best of 3 each way
    .venv/bin/python benchmarks/node_static.py --rounds 5

Each variant's evaluator (the one the search uses) gets one node function, then the other, round by
round, so that the machine's drift falls on both; the work is benchmarks/search.py's fixed-depth
searches of its ten positions, and a loop that scores every position of those searches' trees'
roots' children many times (the function alone). Times are CPU seconds (`time.process_time`), the
best of the rounds. The searches' node counts and moves must be equal both ways, or it stops.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import hordes
from hordes import Board
from hordes.engine.evaluate import Evaluator, evaluator
from search import POSITIONS, fixed_depth_totals  # benchmarks/search.py, beside this file

SEARCH_DEPTH = 5
CALLS = 200  # scorings of each position in the function-alone loop


def cpu(fn: Callable[[], object]) -> tuple[object, float]:
    start = time.process_time()
    out = fn()
    return out, time.process_time() - start


def positions(variant: str) -> list[Board]:
    """The ten positions and every position one legal move from them."""
    out = []
    for fen in POSITIONS[variant]:
        board = Board(variant, fen)
        out.append(board.copy())
        for m in list(board.legal_moves):
            board.push(m)
            out.append(board.copy())
            board.pop()
    return out


def score_all(fn: Callable[[Board, int], int], boards: list[tuple[Board, int]]) -> int:
    total = 0
    for board, packed in boards:
        for _ in range(CALLS):
            total += fn(board, packed)
    return total


def header(rounds: int, first: str, second: str) -> None:
    """The build and the table's head, for `compare`'s rows."""
    print(f"# {hordes.build_kind()} build, best of {rounds} CPU seconds each way")
    print(f"| variant | work | result (equal both ways) | {first} s | {second} s | {first} / {second} |")
    print("|---|---|---|---|---|---|")


def compare(
    variant: str,
    loop: tuple[str, Callable[[Any], object]],
    depth: int,
    ways: dict[str, Any],
    install: Callable[[Any], None],
    rounds: int,
) -> None:
    """Two works done each of two ways (`install` puts a way in place), way after way, round by
    round, so that the machine's drift falls on both: `loop` (its label and what it does with a way)
    and the fixed-depth searches of the variant's ten positions. Prints a table row per work: the
    answer both ways gave (it stops if they differ: a search's node count and moves, not the time it
    carries), each way's best CPU seconds and their ratio."""
    works = [loop, (f"search depth {depth}, 10 positions", lambda _fn: fixed_depth_totals(variant, depth))]
    first, second = ways
    for label, work in works:
        best = dict.fromkeys(ways, float("inf"))
        answers: dict[str, object] = {}
        for _ in range(rounds):
            for name, fn in ways.items():
                install(fn)
                out, seconds = cpu(lambda w=work, f=fn: w(f))
                if isinstance(out, tuple):
                    out = (out[0], out[2])  # nodes and moves (not the time it carries)
                if answers.setdefault(name, out) != out:
                    raise SystemExit(f"{variant} {label}: {name} gave {out}, then {answers[name]}")
                best[name] = min(best[name], seconds)
        if answers[first] != answers[second]:
            raise SystemExit(f"MISMATCH {variant} {label}: {answers}")
        shown = answers[second]
        if isinstance(shown, tuple):
            shown = f"{shown[0]:,} nodes"
        a, b = best[first], best[second]
        print(f"| {variant} | {label} | {shown} | {a:.3f} | {b:.3f} | {a / b:.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--variants", nargs="+", default=["chess", "orda", "khans"])
    args = parser.parse_args()
    header(args.rounds, "written source", "words")
    for variant in args.variants:
        ev = evaluator(Board(variant).variant)
        if not ev.written_out:
            raise SystemExit(f"{variant}: the search composes its static score (no node function)")
        saved = ev.node_static
        ways = {"source": ev.node_static_on(words=False), "words": ev.node_static_on(words=True)}
        boards = [(b, ev.packed(b)) for b in positions(variant)]

        def install(fn: Callable[[Board, int], int], ev: Evaluator = ev) -> None:
            ev.node_static = fn

        loop = (f"{len(boards)} positions × {CALLS}", lambda fn, bs=boards: score_all(fn, bs))
        try:
            compare(variant, loop, SEARCH_DEPTH, ways, install, args.rounds)
        finally:
            ev.node_static = saved


if __name__ == "__main__":
    main()
