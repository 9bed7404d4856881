"""Run independent tasks on local worker processes or as Ray tasks, yielding results as they finish.

Self-play games and tuning batches are both "call one picklable function on many items". This
module is the only place that knows how they are spread: `workers=1` runs in this process,
`workers=K` on a process pool, `ray=...` on a Ray cluster (`local` starts a private one on this
machine, `auto` joins the cluster `ray start` made here, anything else is a cluster address).

A worker process that dies (killed, out of memory) loses only the tasks it was running: the
process pool is rebuilt and those tasks run again; Ray retries them itself (`max_retries`).
"""

from __future__ import annotations

import concurrent.futures as cf
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from hordes.errors import HordesError

T = TypeVar("T")
R = TypeVar("R")

# A task that keeps killing its worker is a bug, not bad luck: give up after this many attempts.
MAX_ATTEMPTS = 3


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


def _pool_tasks(func: Callable[[T], R], items: Sequence[T], workers: int) -> Iterator[tuple[int, R]]:
    pending = set(range(len(items)))
    attempts = dict.fromkeys(pending, 0)
    while pending:
        pool = cf.ProcessPoolExecutor(max_workers=min(workers, len(pending)))
        broken = False
        try:
            futures = {pool.submit(func, items[i]): i for i in sorted(pending)}
            for i in futures.values():
                attempts[i] += 1
            for future in cf.as_completed(futures):
                i = futures[future]
                try:
                    result = future.result()
                except BrokenProcessPool:
                    broken = True  # a worker died: every unfinished task of this pool is lost
                    break
                pending.discard(i)
                yield i, result
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
        if broken:
            hopeless = [i for i in pending if attempts[i] >= MAX_ATTEMPTS]
            if hopeless:
                raise HordesError(
                    f"task {hopeless[0]} lost its worker process {MAX_ATTEMPTS} times; giving up"
                )


def connect_ray(address: str, num_cpus: int | None = None) -> Any:
    """Initialise Ray once per process: `local` (a private cluster on this machine), `auto`, or an
    address such as `ray://head:10001`. Returns the `ray` module."""
    try:
        import ray
    except ImportError:
        raise HordesError("--ray needs the Ray package: pip install 'hordes[ray]'") from None
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {"ignore_reinit_error": True, "log_to_driver": False}
        if address == "local":
            ray.init(num_cpus=num_cpus, include_dashboard=False, **kwargs)
        else:
            ray.init(address=address, **kwargs)
    return ray


def _ray_tasks(
    func: Callable[[T], R], items: Sequence[T], address: str, workers: int
) -> Iterator[tuple[int, R]]:
    ray = connect_ray(address, num_cpus=workers if address == "local" else None)
    remote = ray.remote(max_retries=MAX_ATTEMPTS - 1, num_cpus=1)(func)
    refs = {remote.remote(item): i for i, item in enumerate(items)}
    waiting = list(refs)
    while waiting:
        done, waiting = ray.wait(waiting, num_returns=1)
        for ref in done:
            try:
                result = ray.get(ref)
            except Exception as exc:  # a task's error or a worker lost past its retries
                raise HordesError(f"Ray task {refs[ref]} failed: {exc}") from exc
            yield refs[ref], result
