"""Self-play throughput: games per hour at one time control with 1 worker process, 2 worker
processes, and a local Ray cluster of 2 CPUs, and the ratios between them.

    .venv/bin/python benchmarks/selfplay.py                          # chess, 1+0.01, 20 games each
    .venv/bin/python benchmarks/selfplay.py --variant orda --games 40 --tc 2+0.02

Every configuration plays the same planned games (same seed: same openings and colours) into its own
temporary directory, through `run_selfplay`, PGN writing and fsync included. The Ray cluster is
started before the clock runs (its start-up, a few seconds, is printed on its own line): what is
compared is the steady rate of games. On a 2-core machine 2 workers can at best double the rate;
the Ray figure shows the cost of its scheduling and object transfer against the plain pool.
"""

from __future__ import annotations

import argparse
import os
import platform
import tempfile
import time
from pathlib import Path

from hordes.selfplay import SelfplayConfig, run_selfplay
from hordes.selfplay.store import parse_tc
from hordes.selfplay.workers import connect_ray


def rate(args: argparse.Namespace, workers: int, ray: str | None, label: str) -> tuple[float, float]:
    """Games and plies per hour of one configuration. Games at a clock differ from run to run and a
    few long ones move a small sample's games per hour: plies per hour is the steadier figure."""
    plies: list[int] = []
    with tempfile.TemporaryDirectory(prefix="hordes-selfplay-bench-") as tmp:
        config = SelfplayConfig(
            args.variant,
            games=args.games,
            out=Path(tmp),
            player=args.player,
            tc=parse_tc(args.tc),
            max_plies=args.max_plies,
            seed=args.seed,
            workers=workers,
            ray=ray,
        )
        result = run_selfplay(config, on_game=lambda k, game, progress: plies.append(len(game.moves)))
    assert result.played == args.games
    per_hour = result.games_per_hour
    mean = sum(plies) / len(plies)
    print(
        f"{label:<24}{per_hour:8,.0f} games/hour  (mean {mean:.0f} plies, {per_hour * mean:,.0f} plies/hour)"
    )
    return per_hour, per_hour * mean


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="chess")
    parser.add_argument("--games", type=int, default=20, help="games per configuration (default 20)")
    parser.add_argument("--tc", default="1+0.01", help="time control (default 1+0.01)")
    parser.add_argument("--player", default="hordes", help="player spec, against itself (default hordes)")
    parser.add_argument("--max-plies", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--skip-ray", action="store_true", help="only the process pool")
    args = parser.parse_args()

    machine = f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}"
    print(f"{args.variant}, {args.player} vs itself, tc {args.tc}, {args.games} games each; {machine}")
    one = rate(args, 1, None, "1 worker (in process)")
    two = rate(args, 2, None, "2 worker processes")
    print(f"ratio 2 workers / 1 worker: {two[0] / one[0]:.2f} (plies/hour: {two[1] / one[1]:.2f})")
    if args.skip_ray:
        return
    started = time.perf_counter()
    connect_ray("local", num_cpus=2)
    print(f"(Ray local start-up: {time.perf_counter() - started:.1f} s, not counted)")
    on_ray = rate(args, 2, "local", "Ray local, 2 CPUs")
    print(f"ratio Ray / pool of 2 workers: {on_ray[0] / two[0]:.2f} (plies/hour: {on_ray[1] / two[1]:.2f})")


if __name__ == "__main__":
    main()
