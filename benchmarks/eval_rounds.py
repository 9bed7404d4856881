"""Shared by the benchmarks that weigh two evaluations against each other (campmate_race.py,
term_cost.py): depth-limited searches of the same positions under each evaluation, in alternating
rounds within one process so that the machine's drift falls on both, timed in CPU seconds
(`time.process_time`). The evaluator is built before the clock starts, as it is once a game in play,
and one untimed search under each evaluation goes first.
"""

from __future__ import annotations

import time

from hordes import Board
from hordes.engine.limits import Limits
from hordes.engine.search import Searcher


def search_all(variant: str, fens: list[str], depth: int, evaluation: dict[str, object]) -> tuple[int, float]:
    """Nodes and CPU seconds of one depth-limited search of each position."""
    nodes = 0
    seconds = 0.0
    for fen in fens:
        run = Searcher(16, evaluation=evaluation).search(Board(variant, fen), Limits(depth=depth))
        last = None
        start = time.process_time()
        for info in run:
            last = info
        seconds += time.process_time() - start
        assert last is not None
        nodes += last.nodes
    return nodes, seconds


def compare(
    variant: str, fens: list[str], depth: int, rounds: int, evaluations: dict[str, dict[str, object]]
) -> None:
    """Print each evaluation's nodes, CPU seconds and nodes/s over the rounds, and the first's rate
    over the second's."""
    totals = {name: [0, 0.0] for name in evaluations}
    for evaluation in evaluations.values():  # untimed: the first searches of a process build tables
        search_all(variant, fens[:1], depth, evaluation)
    for _ in range(rounds):
        for name, evaluation in evaluations.items():
            nodes, seconds = search_all(variant, fens, depth, evaluation)
            totals[name][0] += nodes
            totals[name][1] += seconds
    print(f"{variant}, {len(fens)} positions, depth {depth}, {rounds} rounds")
    rate = {}
    for name, (nodes, seconds) in totals.items():
        rate[name] = nodes / seconds
        print(f"  {name:8s} {int(nodes):>10,} nodes {seconds:7.2f} CPU s {rate[name]:>10,.0f} nodes/s")
    first, second = list(rate)[:2]
    print(f"  {first} / {second} nodes/s: {rate[first] / rate[second]:.3f}")
