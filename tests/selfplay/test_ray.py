"""Self-play on a local Ray cluster (2 CPUs), started once for the module: a run, a task that kills
its worker, and a worker killed from outside during a run."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hordes.engine.match import GameResult
from hordes.selfplay import Progress, SelfplayConfig, run_selfplay
from hordes.selfplay.workers import run_tasks
from tests.selfplay.conftest import alive, cmdline, descendants, game_ids, read_run_games
from tests.selfplay.test_faults import kill_once_then_square

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module", autouse=True)
def ray_session() -> Iterator[Any]:
    # connect_ray finds this session initialised and joins it, whatever address a test passes.
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield ray
    finally:
        ray.shutdown()


def test_a_small_run_on_ray(tmp_path: Path) -> None:
    config = SelfplayConfig(
        "orda", games=6, out=tmp_path, player="random", opponent="hordes:depth=1", tc=None,
        max_plies=60, seed=8, workers=2, ray="local",
    )  # fmt: skip
    result = run_selfplay(config)
    assert result.games == result.played == 6
    assert game_ids(tmp_path) == [1, 2, 3, 4, 5, 6]
    assert len(read_run_games(tmp_path, "orda")) == 6


def test_ray_retries_a_task_whose_worker_died(tmp_path: Path) -> None:
    items = [(str(tmp_path / "marker") if i == 2 else "", i) for i in range(6)]
    results = list(run_tasks(kill_once_then_square, items, workers=2, ray="local"))
    assert sorted(i for i, _ in results) == list(range(6))
    assert all(r == i * i for i, r in results)


def _busy_ray_workers() -> list[int]:
    """Ray workers of this session running a game: Ray names the process after its task."""
    return [
        pid for pid in descendants(os.getpid())
        if cmdline(pid).startswith(b"ray::play_game") and alive(pid)
    ]  # fmt: skip


def test_a_ray_worker_killed_during_a_run(tmp_path: Path) -> None:
    killed: list[int] = []

    def kill_a_busy_worker(game_id: int, game: GameResult, progress: Progress) -> None:
        if killed:
            return
        deadline = time.monotonic() + 60  # games are in flight until the last two: one is found
        while not (busy := _busy_ray_workers()):
            assert time.monotonic() < deadline, "no Ray worker was running a game"
            time.sleep(0.005)
        os.kill(busy[0], signal.SIGKILL)
        killed.append(busy[0])

    config = SelfplayConfig(
        "chess", games=10, out=tmp_path, player="hordes:depth=2", tc=None, max_plies=80, seed=6,
        workers=2, ray="local",
    )  # fmt: skip
    result = run_selfplay(config, on_game=kill_a_busy_worker)
    assert killed
    assert result.games == result.played == 10
    assert game_ids(tmp_path) == list(range(1, 11))


def test_tuning_features_on_ray_equal_the_in_process_ones() -> None:
    """`hordes tune --ray` scores its positions as Ray tasks: same numbers as in this process."""
    import numpy as np

    from hordes.tune.texel import extract_features
    from tests.tune.helpers import random_positions

    fens = random_positions("orda", games=4, seed=5, plies=80)
    assert len(fens) > 20
    local = extract_features("orda", fens, workers=1, chunk=10)
    remote = extract_features("orda", fens, workers=2, ray="local", chunk=10)
    assert np.array_equal(local.base, remote.base)
    assert np.array_equal(local.deriv, remote.deriv)
    assert np.array_equal(local.phase_counts, remote.phase_counts)
    assert np.array_equal(local.white, remote.white)
    assert np.array_equal(local.mop_up, remote.mop_up)
