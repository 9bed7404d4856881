"""The queue in front of the engine's worker processes: game moves first, analysis bounded.

Jobs of two classes wait here, not in the executor: at most one job per worker is handed to the
executor at a time, so the next free worker always takes the most urgent job.

- "game": the engine's move in a game. Always before any analysis, never refused: a game's engine
  turn waits here however many analysis requests there are.
- "analysis": the analysis board and evaluation graphs. Bounded per client (waiting or running, the
  client being `request.client.host`) and in total; past a bound `EngineBusy` is raised, which the
  app answers with 429 (this client has enough) or 503 (the engine has enough), each with a
  Retry-After estimated from the engine time already queued.

Runs on the event loop: `run` is awaited from handlers, and the executor's completions come back
to the loop. It imports nothing heavy, since the worker processes import engine_pool, which
imports this.
"""

from __future__ import annotations

import asyncio
import functools
import heapq
import itertools
import math
from collections import Counter, defaultdict, deque
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

GAME, ANALYSIS = "game", "analysis"
PRIORITY = {GAME: 0, ANALYSIS: 1}
ANALYSIS_PER_CLIENT = 4  # analysis jobs one client may have waiting or running
ANALYSIS_TOTAL = 64  # analysis jobs of all clients together


class EngineBusy(RuntimeError):
    """An analysis job is refused: 429 (the client's bound) or 503 (the total), with Retry-After."""

    def __init__(
        self, message: str, *, status: int = 503, retry_after: float = 1.0, code: str = "engine_busy"
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.retry_after = retry_after
        self.code = code


@dataclass(order=True)
class _Job:
    priority: int
    seq: int
    kind: str = field(compare=False)
    client: str | None = field(compare=False)
    seconds: float = field(compare=False)  # the engine time it is expected to take
    fn: Callable[..., Any] = field(compare=False)
    args: tuple[Any, ...] = field(compare=False)
    future: asyncio.Future[Any] = field(compare=False)
    started: bool = field(default=False, compare=False)
    dropped: bool = field(default=False, compare=False)  # its caller gave up before it started


class EngineQueue:
    """A priority queue of engine jobs feeding `workers` workers of the executor `executor()` gives."""

    def __init__(
        self,
        workers: int,
        executor: Callable[[], Executor],
        analysis_per_client: int = ANALYSIS_PER_CLIENT,
        analysis_total: int = ANALYSIS_TOTAL,
    ) -> None:
        self.workers = workers
        self.executor = executor
        self.analysis_per_client = analysis_per_client
        self.analysis_total = analysis_total
        self._heap: list[_Job] = []
        self._seq = itertools.count()
        self._running = 0
        self._analysis: Counter[str | None] = Counter()  # client -> analysis jobs waiting or running
        self._seconds: defaultdict[str | None, float] = defaultdict(float)  # client -> their engine seconds
        self.started: deque[str] = deque(maxlen=256)  # the kinds of the latest jobs started, oldest first

    def waiting(self, kind: str | None = None) -> int:
        return sum(1 for j in self._heap if not j.dropped and (kind is None or j.kind == kind))

    def analysis_jobs(self, client: str | None = None) -> int:
        """Analysis jobs admitted and not finished (of one client, or of all)."""
        return self._analysis[client] if client is not None else sum(self._analysis.values())

    async def run(
        self, kind: str, fn: Callable[..., Any], *args: Any, client: str | None = None, seconds: float = 1.0
    ) -> Any:
        """Run `fn(*args)` in a worker when its turn comes; EngineBusy if an analysis bound is full."""
        if kind == ANALYSIS:
            self._admit(client)
        job = _Job(
            PRIORITY[kind], next(self._seq), kind, client, seconds, fn, args,
            asyncio.get_running_loop().create_future(),
        )  # fmt: skip
        if kind == ANALYSIS:
            self._analysis[client] += 1
            self._seconds[client] += seconds
        heapq.heappush(self._heap, job)
        self._dispatch()
        try:
            return await job.future
        except asyncio.CancelledError:
            if not job.started and not job.dropped:
                job.dropped = True  # left in the heap, skipped when it comes up
                self._release(job)
            raise

    def _admit(self, client: str | None) -> None:
        mine = self._analysis[client]
        if mine >= self.analysis_per_client:
            raise EngineBusy(
                f"you have {mine} analysis searches waiting or running (at most {self.analysis_per_client}); "
                "wait for them",
                status=429,
                retry_after=self._wait_estimate(client),
                code="too_many_searches",
            )
        total = self.analysis_jobs()
        if total >= self.analysis_total:
            raise EngineBusy(
                f"the engine has {total} analysis searches waiting or running; try again shortly",
                status=503,
                retry_after=self._wait_estimate(None),
            )

    def _wait_estimate(self, client: str | None) -> int:
        """Whole seconds until the analysis admitted (the client's, or everybody's) is done."""
        seconds = self._seconds[client] if client is not None else sum(self._seconds.values())
        return max(1, math.ceil(seconds / max(1, self.workers)))

    def _dispatch(self) -> None:
        """Hand the most urgent waiting jobs to the executor, while a worker is free."""
        while self._running < self.workers and self._heap:
            job = heapq.heappop(self._heap)
            if job.dropped:
                continue
            job.started = True
            self.started.append(job.kind)
            try:
                done = asyncio.get_running_loop().run_in_executor(self.executor(), job.fn, *job.args)
            except Exception as exc:  # a broken or shut-down executor refuses at once
                self._release(job)
                if not job.future.done():
                    job.future.set_exception(exc)
                continue
            self._running += 1
            done.add_done_callback(functools.partial(self._finished, job))

    def _finished(self, job: _Job, done: asyncio.Future[Any]) -> None:
        self._running -= 1
        self._release(job)
        if not job.future.done():
            if done.cancelled():
                job.future.cancel()
            elif (exc := done.exception()) is not None:
                job.future.set_exception(exc)
            else:
                job.future.set_result(done.result())
        self._dispatch()

    def _release(self, job: _Job) -> None:
        if job.kind == ANALYSIS:
            self._analysis[job.client] -= 1
            self._seconds[job.client] -= job.seconds
            if self._analysis[job.client] <= 0:
                del self._analysis[job.client], self._seconds[job.client]

    def close(self, exc: BaseException) -> None:
        """Fail every waiting job with `exc` (the server is stopping)."""
        while self._heap:
            job = heapq.heappop(self._heap)
            if not job.dropped and not job.future.done():
                self._release(job)
                job.future.set_exception(exc)
