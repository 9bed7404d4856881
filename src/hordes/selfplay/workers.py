"""Run independent tasks on local worker processes or as Ray tasks, yielding results as they finish.

Self-play games and tuning batches are both "call one picklable function on many items". This
module is the only place that knows how they are spread: `workers=1` runs in this process,
`workers=K` on a process pool, `ray=...` on a Ray cluster (`local` starts a private one on this
machine, `auto` joins the cluster `ray start` made here, anything else is a cluster address).

A worker process that dies (killed, out of memory) loses only the tasks it was running: the
process pool is rebuilt and those tasks run again; Ray retries them itself (`max_retries`).
Only a bounded window of tasks is in flight at a time, so a run of a million items neither
queues a million futures nor charges queued tasks for a worker they never reached. Pool workers
die with the process that started them (Linux), so a killed driver leaves no orphans behind.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import ctypes
import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from hordes.errors import HordesError

T = TypeVar("T")
R = TypeVar("R")

# A task that keeps killing its worker is a bug, not bad luck: give up after this many attempts.
MAX_ATTEMPTS = 3
# Tasks in flight per worker: one running, one queued so a worker never waits for the driver.
WINDOW_PER_WORKER = 2


def run_tasks(
    func: Callable[[T], R],
    items: Sequence[T],
    workers: int = 1,
    ray: str | None = None,
) -> Iterator[tuple[int, R]]:
    """Yield `(index, func(items[index]))` in the order the tasks finish."""
    if workers < 1:
        raise HordesError("workers must be at least 1")
    if ray is not None:
        yield from _ray_tasks(func, items, ray, workers)
    elif workers == 1:
        for i, item in enumerate(items):
            yield i, func(item)
    else:
        yield from _pool_tasks(func, items, workers)


# ----- local process pool --------------------------------------------------------------------------
def _die_with_parent(parent: int) -> None:
    """Pool initializer: ask Linux to SIGKILL this worker when the driver dies, even by SIGKILL.

    Without it, workers of a killed driver block forever on the task queue (forked children hold
    its write end, so they never see end-of-file). The signal follows the driver thread that
    started the worker: the one iterating `run_tasks`. Ctrl-C is left to the driver, which stops
    the workers itself (no traceback from every worker)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL)  # 1 = PR_SET_PDEATHSIG
    if os.getppid() != parent:  # the driver died before prctl took effect
        os._exit(1)


def _kill_pool(pool: cf.ProcessPoolExecutor) -> None:
    """Stop at once (on an interrupt or an abandoned iterator): running tasks are not waited for."""
    for process in list(pool._processes.values()):
        with contextlib.suppress(Exception):
            process.kill()
    pool.shutdown(wait=True, cancel_futures=True)


def _pool_tasks(func: Callable[[T], R], items: Sequence[T], workers: int) -> Iterator[tuple[int, R]]:
    todo = list(range(len(items)))  # not yet submitted, in order; lost tasks go back to the front
    attempts = [0] * len(items)
    window = workers * WINDOW_PER_WORKER
    while todo:
        pool = cf.ProcessPoolExecutor(
            max_workers=min(workers, len(todo)), initializer=_die_with_parent, initargs=(os.getpid(),)
        )
        running: dict[cf.Future[R], int] = {}
        broken = False
        try:
            while (todo or running) and not broken:
                while todo and len(running) < window:
                    try:
                        future = pool.submit(func, items[todo[0]])
                    except BrokenProcessPool:  # a worker died since the last wait
                        broken = True
                        break
                    i = todo.pop(0)
                    attempts[i] += 1
                    running[future] = i
                if broken:
                    break
                done, _ = cf.wait(running, return_when=cf.FIRST_COMPLETED)
                if any(isinstance(f.exception(), BrokenProcessPool) for f in done):
                    broken = True  # a worker died: the pool is unusable, its unfinished tasks lost
                    break
                for future in done:
                    i = running.pop(future)
                    yield i, future.result()  # a task's own exception propagates to the caller
        except BaseException:  # interrupted, abandoned by the caller, or a task raised
            _kill_pool(pool)
            raise
        pool.shutdown(wait=True)
        if not broken:
            continue
        # Results the broken pool did deliver are kept; only the lost tasks run again.
        for future, i in [(f, i) for f, i in running.items() if _succeeded(f)]:
            running.pop(future)
            yield i, future.result()
        lost = sorted(running.values())
        hopeless = [i for i in lost if attempts[i] >= MAX_ATTEMPTS]
        if hopeless:
            raise HordesError(f"task {hopeless[0]} lost its worker process {MAX_ATTEMPTS} times; giving up")
        todo[:0] = lost


def _succeeded(future: cf.Future[Any]) -> bool:
    return future.done() and not future.cancelled() and future.exception() is None


# ----- Ray -----------------------------------------------------------------------------------------
def connect_ray(address: str, num_cpus: int | None = None) -> Any:
    """Initialise Ray once per process: `local` (a private cluster on this machine), `auto`, or an
    address such as `ray://head:10001`. Returns the `ray` module."""
    try:
        import ray
    except ImportError:
        raise HordesError("--ray needs the Ray package: pip install 'hordes[ray]'") from None
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {"ignore_reinit_error": True, "log_to_driver": False}
        try:
            if address == "local":
                ray.init(num_cpus=num_cpus, include_dashboard=False, **kwargs)
            else:
                ray.init(address=address, **kwargs)
        except ConnectionError as exc:  # no cluster at that address: a user error, in one line
            raise HordesError(f"--ray {address}: {exc}") from None
    return ray


def _ray_tasks(
    func: Callable[[T], R], items: Sequence[T], address: str, workers: int
) -> Iterator[tuple[int, R]]:
    ray = connect_ray(address, num_cpus=workers if address == "local" else None)
    remote = ray.remote(max_retries=MAX_ATTEMPTS - 1, num_cpus=1)(func)
    cpus = int(ray.cluster_resources().get("CPU", workers))
    window = max(workers, cpus) * WINDOW_PER_WORKER
    next_item = 0
    refs: dict[Any, int] = {}
    try:
        while next_item < len(items) or refs:
            while next_item < len(items) and len(refs) < window:
                refs[remote.remote(items[next_item])] = next_item
                next_item += 1
            done, _ = ray.wait(list(refs), num_returns=1)
            for ref in done:
                i = refs.pop(ref)
                try:
                    result = ray.get(ref)
                except Exception as exc:  # a task's error or a worker lost past its retries
                    raise HordesError(f"Ray task {i} failed: {exc}") from exc
                yield i, result
    finally:
        for ref in refs:  # abandoned (interrupt, error, caller stopped): free the cluster
            with contextlib.suppress(Exception):
                ray.cancel(ref, force=True)
