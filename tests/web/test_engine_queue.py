"""Issue 13 point 7: the engine never forgets a game. Game moves go before analysis, analysis is
bounded per client and in total, and a game's engine turn outlives floods and crashed workers."""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from hordes.web.app import create_app
from hordes.web.engine_queue import ANALYSIS, GAME, EngineBusy, EngineQueue
from tests.web.conftest import create
from tests.web.engine_jobs import hold_until


async def until(condition: Callable[[], bool]) -> None:
    """Let the loop run until `condition` holds (a bounded number of turns, no clock)."""
    for _ in range(100_000):
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError("the condition never held")


def wait_for(condition: Callable[[], bool], what: str, seconds: float = 60.0) -> None:
    """Poll a state from a test thread; the deadline is only a safety net."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


class Jobs:
    """Job functions for a thread pool: each records its start; "hold" jobs wait for `release`."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.order: list[str] = []

    def __call__(self, name: str) -> str:
        self.order.append(name)
        if name.startswith("hold"):
            assert self.release.wait(30)
        return name


def test_game_moves_go_before_analysis() -> None:
    async def scenario() -> None:
        jobs = Jobs()
        with ThreadPoolExecutor(1) as executor:
            queue = EngineQueue(1, lambda: executor)
            first = asyncio.ensure_future(queue.run(ANALYSIS, jobs, "hold", client="a"))
            await until(lambda: jobs.order == ["hold"])
            later = [
                asyncio.ensure_future(queue.run(ANALYSIS, jobs, "analysis 1", client="b")),
                asyncio.ensure_future(queue.run(ANALYSIS, jobs, "analysis 2", client="c")),
                asyncio.ensure_future(queue.run(GAME, jobs, "game")),
            ]
            await until(lambda: queue.waiting() == 3)
            jobs.release.set()
            assert await asyncio.gather(first, *later) == ["hold", "analysis 1", "analysis 2", "game"]
        assert jobs.order == ["hold", "game", "analysis 1", "analysis 2"]
        assert queue.analysis_jobs() == 0

    asyncio.run(scenario())


def test_analysis_is_bounded_per_client_and_in_total() -> None:
    async def scenario() -> None:
        jobs = Jobs()
        with ThreadPoolExecutor(1) as executor:
            queue = EngineQueue(1, lambda: executor, analysis_per_client=2, analysis_total=3)

            def ask(client: str, name: str = "hold", seconds: float = 2.0) -> asyncio.Future[Any]:
                return asyncio.ensure_future(queue.run(ANALYSIS, jobs, name, client=client, seconds=seconds))

            admitted = [ask("a"), ask("a")]
            await until(lambda: queue.analysis_jobs("a") == 2)
            with pytest.raises(EngineBusy) as mine:
                await queue.run(ANALYSIS, jobs, "refused", client="a")
            assert mine.value.status == 429 and mine.value.retry_after == 4  # two 2-s jobs, one worker
            admitted.append(ask("b"))
            await until(lambda: queue.analysis_jobs() == 3)
            with pytest.raises(EngineBusy) as everyone:
                await queue.run(ANALYSIS, jobs, "refused", client="c")
            assert everyone.value.status == 503 and everyone.value.retry_after == 6
            # a game's move is never refused, and a caller who gives up frees its place
            game = asyncio.ensure_future(queue.run(GAME, jobs, "game"))
            admitted[1].cancel()
            await until(lambda: queue.analysis_jobs("a") == 1)
            admitted.append(ask("c", "analysis c"))
            await until(lambda: queue.analysis_jobs() == 3)
            jobs.release.set()
            assert await game == "game"
            assert await asyncio.gather(admitted[0], admitted[2], admitted[3]) == [
                "hold",
                "hold",
                "analysis c",
            ]
        assert "refused" not in jobs.order and jobs.order.count("hold") == 2  # the cancelled one never ran
        assert queue.analysis_jobs() == 0

    asyncio.run(scenario())


def test_engine_game_survives_an_analysis_flood(tmp_path: Path) -> None:
    app = create_app(
        data_dir=tmp_path / "data",
        engine_workers=1,
        engine_movetime=0.3,
        analysis_per_client=3,
        analysis_total=4,
    )
    release = tmp_path / "release"
    with TestClient(app) as client:
        queue = app.state.pool.queue
        # the one worker is busy (with an analysis job of another client) until the test releases it
        held = client.portal.start_task_soon(
            functools.partial(queue.run, ANALYSIS, hold_until, str(release), client="someone else")
        )
        wait_for(lambda: list(queue.started) == [ANALYSIS], "the worker to be taken")
        answers: list[tuple[int, str | None]] = []

        def ask() -> None:
            r = client.post("/api/analysis", json={"variant": "chess", "movetime": 0.1})
            answers.append((r.status_code, r.headers.get("retry-after")))

        flood = [threading.Thread(target=ask) for _ in range(8)]
        for t in flood:
            t.start()
        wait_for(lambda: len(answers) == 5 and queue.analysis_jobs() == 4, "the flood to be refused")
        assert all(code == 429 and retry for code, retry in answers), answers
        # an engine game, the engine to move first, and no websocket anywhere: its move waits first
        g = create(client, variant="chess", opponent="engine", color="black", level=1)
        wait_for(lambda: queue.waiting(GAME) == 1, "the engine's turn to be queued")
        release.touch()
        assert held.result(60) == "released"
        wait_for(lambda: client.get(f"/api/games/{g['id']}").json()["ply"] == 1, "the engine's move")
        for t in flood:
            t.join(60)
        assert sorted(code for code, _ in answers) == [200] * 3 + [429] * 5
        assert list(queue.started) == [ANALYSIS, GAME, ANALYSIS, ANALYSIS, ANALYSIS]


def test_engine_turn_survives_a_worker_crash(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    app = create_app(data_dir=tmp_path, engine_workers=1, engine_movetime=60.0)
    with TestClient(app) as client, caplog.at_level(logging.ERROR, logger="hordes.web"):
        pool, live = app.state.pool, app.state.live
        g = create(client, variant="chess", opponent="engine", color="black", level=8)
        wait_for(
            # the pool makes its executor lazily: until then there is none to look into
            lambda: (
                list(pool.queue.started) == [GAME]
                and pool._executor is not None
                and bool(pool._executor._processes)
            ),
            "the engine's search to start",
        )
        live.engine_movetime = 0.3  # the next attempt is quick; this one would take a minute
        os.kill(next(iter(pool._executor._processes)), signal.SIGKILL)  # as the out-of-memory killer would
        wait_for(lambda: client.get(f"/api/games/{g['id']}").json()["ply"] == 1, "the engine's move")
    assert f"engine turn failed in game {g['id']} (failure 1)" in caplog.text
