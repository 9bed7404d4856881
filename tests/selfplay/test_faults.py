"""Faults: a killed pool worker, a self-killing task, and a driver killed or interrupted mid-run.
The runs must end with exactly the games asked for, none twice, the ones already written untouched."""

from __future__ import annotations

import concurrent.futures as cf
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hordes.engine.match import GameResult
from hordes.errors import HordesError
from hordes.selfplay import Progress, SelfplayConfig, run_selfplay, store
from hordes.selfplay import workers as workers_module
from hordes.selfplay.workers import run_tasks
from tests.selfplay.conftest import FAST, alive, cmdline, descendants, game_ids, read_run_games


def kill_once_then_square(item: tuple[str, int]) -> int:
    """A task that kills its own worker the first time it runs (a marker file remembers)."""
    marker, value = item
    if marker and not os.path.exists(marker):
        Path(marker).touch()
        os.kill(os.getpid(), signal.SIGKILL)
    return value * value


def always_kill(item: int) -> int:
    os.kill(os.getpid(), signal.SIGKILL)
    return item


def fail_on_three(item: int) -> int:
    if item == 3:
        raise ValueError("three")
    return item


def test_pool_reruns_only_the_tasks_a_dead_worker_lost(tmp_path: Path) -> None:
    items = [(str(tmp_path / "marker") if i == 5 else "", i) for i in range(12)]
    results = list(run_tasks(kill_once_then_square, items, workers=2))
    assert sorted(i for i, _ in results) == list(range(12))  # each exactly once
    assert all(r == i * i for i, r in results)


def test_a_task_that_always_kills_its_worker_gives_up() -> None:
    with pytest.raises(HordesError, match="lost its worker process 3 times"):
        list(run_tasks(always_kill, [1], workers=2))


def test_a_task_error_reaches_the_caller() -> None:
    with pytest.raises(ValueError, match="three"):
        list(run_tasks(fail_on_three, list(range(6)), workers=2))


def test_a_worker_killed_during_a_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pools: list[int] = []
    real_pool = cf.ProcessPoolExecutor

    class CountedPool(real_pool):
        def __init__(self, *args: object, **kwargs: object) -> None:
            pools.append(1)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(workers_module.cf, "ProcessPoolExecutor", CountedPool)
    killed: list[int] = []
    me = cmdline(os.getpid())

    def kill_a_worker(game_id: int, game: GameResult, progress: Progress) -> None:
        if killed:
            return
        # Pool workers are forked from this process: same command line. More tasks wait to be
        # submitted (the window is 2 per worker), so the pool must be rebuilt to finish the run.
        workers = [pid for pid in descendants(os.getpid()) if cmdline(pid) == me and alive(pid)]
        assert workers, [(pid, cmdline(pid)[:60], alive(pid)) for pid in descendants(os.getpid())]
        os.kill(workers[0], signal.SIGKILL)
        killed.append(workers[0])

    config = SelfplayConfig(
        "chess", games=10, out=tmp_path, player="random", opponent="hordes:depth=1", tc=None,
        max_plies=60, seed=2, workers=2,
    )  # fmt: skip
    result = run_selfplay(config, on_game=kill_a_worker)
    assert killed and len(pools) >= 2
    assert result.games == 10 and result.played == 10
    assert game_ids(tmp_path) == list(range(1, 11))


def _complete_records(pgn: Path) -> tuple[int, bytes]:
    """How many whole records games.pgn holds, and their bytes."""
    if not pgn.exists():
        return 0, b""
    scanned = store.scan_games(pgn)
    return len(scanned.records), pgn.read_bytes()[: scanned.valid_end]


GATED_SELFPLAY = Path(__file__).parent / "data" / "gated_selfplay.py"


def _default_sigint() -> None:
    """In the driver, before it starts: Ctrl-C as a terminal gives it. A child inherits an ignored
    SIGINT, and Python then installs no KeyboardInterrupt handler; the test process may have it
    ignored (a library's worker set-up in it), and the driver then slept through the test's SIGINT."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT], ids=["SIGKILL", "SIGINT"])
def test_a_killed_driver_resumes_without_losing_or_repeating_a_game(tmp_path: Path, sig: int) -> None:
    """The driver is signalled once 3 games are stored. It runs behind a gate (data/gated_selfplay.py)
    that starts no game once 3 are stored, so games are certainly left when the signal arrives (a
    run that raced the signal once finished all its games first, on a loaded machine)."""
    out = tmp_path / "run"
    games, gate = 16, 3
    args = [
        "selfplay", "chess", "--games", str(games), *FAST,
        "--seed", "4", "--workers", "2", "--out", str(out), "--quiet",
    ]  # fmt: skip
    log = tmp_path / "driver.log"  # a file, not a pipe: orphaned workers would hold a pipe open
    pool: list[int] = []
    with log.open("wb") as log_file:
        gated = [sys.executable, str(GATED_SELFPLAY), str(gate), *args]
        driver = subprocess.Popen(
            gated, stdout=log_file, stderr=subprocess.STDOUT, preexec_fn=_default_sigint
        )
    try:
        deadline = time.monotonic() + 120  # a safety net: the state, not the time, is waited for
        while _complete_records(out / "games.pgn")[0] < gate:
            assert driver.poll() is None, log.read_text()
            assert time.monotonic() < deadline, "no game finished"
            time.sleep(0.02)
        pool = descendants(driver.pid)
        assert driver.poll() is None, log.read_text()  # the gate keeps it running
        os.kill(driver.pid, sig)
        driver.wait(timeout=60)
        # The workers die with their driver, whatever killed it.
        deadline = time.monotonic() + 20
        while any(alive(pid) for pid in pool) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not [pid for pid in pool if alive(pid)], "orphaned worker processes"
    finally:
        for pid in [driver.pid, *pool]:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        driver.wait()
    assert driver.returncode == (-signal.SIGKILL if sig == signal.SIGKILL else 130), log.read_text()

    kept, kept_bytes = _complete_records(out / "games.pgn")
    assert gate <= kept < games
    command = [sys.executable, "-m", "hordes", *args]  # the resumed run has no gate
    resumed = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    assert f"{games}/{games} games, {kept} kept from before" in resumed.stdout
    assert (out / "games.pgn").read_bytes().startswith(kept_bytes)
    assert game_ids(out) == list(range(1, games + 1))
    assert len(read_run_games(out, "chess")) == games
