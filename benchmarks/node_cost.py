"""What a search node costs, part by part, beside the time per node that the speed goal allows.

    .venv/bin/python benchmarks/node_cost.py             # chess and Orda, the 10 positions of search.py
    .venv/bin/python benchmarks/node_cost.py --start     # the start positions only

The goal is 1/5 of Fairy-Stockfish's nodes/s, so a node may cost 5 / (its nodes/s) seconds. The script
1. times the steps of a node that no search can skip, on the same positions: making and taking back
   the move that reached it (`push_int` + `pop_int`), the static score (`node_static`), generating the
   captures (`captures_not_in_check`) or every legal move (`generate_legal`), and asking of a move
   whether it gives check;
2. counts how often a fixed-depth search calls each step (the core functions wrapped for one search,
   then restored), which prices those steps per node of that search;
3. times the same search unwrapped (CPU), and our search and Fairy-Stockfish for --movetime seconds
   per position, for the measured cost per node and the budget.
The difference between our cost per node and the priced steps is the search's own work: the table,
move ordering, the move loop, pruning decisions and calls.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from hordes import Board
from hordes.core import movegen
from hordes.engine.evaluate import evaluator
from hordes.engine.limits import Limits
from hordes.engine.search import Searcher
from search import POSITIONS, fairy_stockfish, ours

GOAL = 5  # Fairy-Stockfish's nodes/s over ours
# The core functions the search reaches through the movegen module, and the step each one is.
COUNTED = {
    "generate_legal": "legal moves",
    "generate_legal_captures": "captures",
    "captures_not_in_check": "captures",
}


def per_call(fn: Callable[[], object], calls: int) -> float:
    """Microseconds per call of fn, the best of three runs of `calls` calls."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        best = min(best, time.perf_counter() - start)
    return best / calls * 1e6


def position_costs(board: Board, calls: int) -> dict[str, float]:
    """Microseconds of each step in one position (per move for the per-move steps)."""
    moves = movegen.generate_legal(board)
    ev = evaluator(board.variant)
    packed = ev.packed(board)
    static = ev.node_static
    gives = movegen.gives_check_fn(board)
    push, pop = board.push_int, board.pop_int

    def push_pop() -> None:
        for m in moves:
            push(m)
            pop()

    def all_gives() -> None:
        for m in moves:
            gives(m)

    n = max(1, len(moves))
    return {
        "push+pop": per_call(push_pop, calls) / n,
        "static": per_call(lambda: static(board, packed), calls) if static is not None else 0.0,
        "captures": per_call(lambda: movegen.captures_not_in_check(board), calls),
        "legal moves": per_call(lambda: movegen.generate_legal(board), calls),
        "gives check": per_call(all_gives, calls) / n,
    }


def step_costs(variant: str, fens: list[str], calls: int) -> dict[str, float]:
    """Mean microseconds of each step over the positions."""
    rows = [position_costs(Board(variant, fen), calls) for fen in fens]
    return {name: sum(row[name] for row in rows) / len(rows) for name in rows[0]}


def _counting(counts: Counter[str], step: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(*args: Any) -> Any:
        counts[step] += 1
        return fn(*args)

    return wrapper


@contextmanager
def counted(variant: str, counts: Counter[str]) -> Iterator[None]:
    """Count the steps the search calls, for the duration of the block."""
    ev = evaluator(Board(variant).variant)  # the shared instance the search uses
    saved = {name: getattr(movegen, name) for name in [*COUNTED, "gives_check_fn"]}
    static = ev.node_static
    try:
        for name, step in COUNTED.items():
            setattr(movegen, name, _counting(counts, step, saved[name]))

        def gives_check_fn(board: Board) -> Callable[[int], bool]:
            return _counting(counts, "gives check", saved["gives_check_fn"](board))  # type: ignore[no-any-return]

        movegen.gives_check_fn = gives_check_fn  # type: ignore[assignment]
        if static is not None:
            ev.node_static = _counting(counts, "static", static)
        yield
    finally:
        for name, fn in saved.items():
            setattr(movegen, name, fn)
        ev.node_static = static


def fixed_depth_search(variant: str, fens: list[str], depth: int) -> tuple[int, float]:
    """Nodes and CPU seconds of a search of each position to `depth`."""
    nodes = 0
    cpu = 0.0
    for fen in fens:
        start = time.process_time()
        last = None
        for info in Searcher(64).search(Board(variant, fen), Limits(depth=depth)):
            last = info
        cpu += time.process_time() - start
        assert last is not None
        nodes += last.nodes
    return nodes, cpu


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--movetime", type=float, default=1.0, help="seconds per position (default 1)")
    parser.add_argument("--depth", type=int, default=6, help="depth of the counted search (default 6)")
    parser.add_argument("--variants", nargs="*", default=["chess", "orda"], choices=["chess", "orda"])
    parser.add_argument("--start", action="store_true", help="the start position only, instead of the 10")
    parser.add_argument("--calls", type=int, default=2000, help="calls per timed step and position")
    args = parser.parse_args()
    print(f"# node cost: Python {platform.python_version()}, {os.cpu_count()} cores, ", end="")
    print(f"load {os.getloadavg()[0]:.2f}, {time.strftime('%Y-%m-%d %H:%M')}")
    for variant in args.variants:
        fens = [Board(variant).fen()] if args.start else POSITIONS[variant]
        steps = step_costs(variant, fens, args.calls)
        print(f"\n{variant} ({len(fens)} positions), microseconds per call:")
        for name, cost in steps.items():
            print(f"  {name:<40} {cost:7.2f}")

        counts: Counter[str] = Counter()
        with counted(variant, counts):
            nodes, _ = fixed_depth_search(variant, fens, args.depth)
        again, cpu = fixed_depth_search(variant, fens, args.depth)
        assert again == nodes, "the counted search must be the same search"
        counts["push+pop"] = nodes  # every node but the root was reached by a move
        priced = sum(counts[name] * steps[name] for name in steps) / nodes
        print(f"  depth {args.depth}: {nodes:,} nodes; calls per node: ", end="")
        print(", ".join(f"{name} {counts[name] / nodes:.2f}" for name in steps))
        print(f"  {'the steps, per node':<40} {priced:7.2f}")
        print(f"  {'our search, CPU per node':<40} {cpu / nodes * 1e6:7.2f}")

        nodes_t = seconds = 0.0
        for fen in fens:
            n, _, elapsed = ours(variant, fen, args.movetime)
            nodes_t += n
            seconds += elapsed
        per_node = seconds / nodes_t * 1e6
        print(f"  {f'our search, {args.movetime:g} s per position':<40} {per_node:7.2f}", end="")
        print(f"   ({nodes_t / seconds:,.0f} nodes/s)")
        client = fairy_stockfish(variant, args.movetime)
        if client is None:
            print("  (no Fairy-Stockfish for this variant: no budget)")
            continue
        fsf_nodes = fsf_seconds = 0.0
        for fen in fens:
            client.new_game()
            result = client.go(Board(variant, fen), movetime=args.movetime)
            if result.infos and result.infos[-1].time_ms:
                fsf_nodes += result.infos[-1].nodes
                fsf_seconds += result.infos[-1].time_ms / 1000
        client.quit()
        budget = GOAL * fsf_seconds / fsf_nodes * 1e6
        fsf_nps = fsf_nodes / fsf_seconds
        print(f"  {'budget at 1/5 of Fairy-Stockfish':<40} {budget:7.2f}   (FSF {fsf_nps:,.0f} nodes/s)")
        print(f"  times the budget: our node {per_node / budget:.2f}, the steps {priced / budget:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
