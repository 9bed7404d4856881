"""The server-side watcher of game clocks: a timer per running timed game, so that a flag falls (or
a game with no first move is aborted) when its time comes, without anybody having to move.

Each timed game has at most one timer, armed for the game's next deadline (clocks.deadline_ms)
whenever an event of that game is broadcast. When it fires, the watcher asks the game service to
judge the game under the game's lock (`judge`); if a move got there first nothing happens and the
timer is armed again for the new deadline. At start-up every running clock gets its timer again,
and a deadline passed while the server was down is judged at once.

All time goes through a `Clock`: the real one (`SystemClock`: the wall clock, because stored times
must mean the same in every process and after a restart, and the event loop's timers), or
`ManualClock` in tests, which moves time forward only when told to and then fires what is due.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

log = logging.getLogger("hordes.web")


class Timer(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    def now(self) -> float:
        """Seconds since the epoch."""
        ...

    def call_at(self, when: float, callback: Callable[[], None]) -> Timer:
        """Call `callback` on the running event loop at `when` (seconds since the epoch)."""
        ...


class SystemClock:
    """The wall clock, and the event loop's timers (call_later from now: wall-clock time can jump,
    and a timer that fires early or late only makes the watcher judge again)."""

    def now(self) -> float:
        return time.time()

    def call_at(self, when: float, callback: Callable[[], None]) -> Timer:
        return asyncio.get_running_loop().call_later(max(0.0, when - time.time()), callback)


class _ManualTimer:
    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class ManualClock:
    """A clock for tests: time stands still until `advance`, which fires every timer due by then
    (in order; call it on the event loop, e.g. through a TestClient's portal)."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.time = start
        self._timers: list[tuple[float, int, _ManualTimer, Callable[[], None]]] = []
        self._seq = itertools.count()

    def now(self) -> float:
        return self.time

    def call_at(self, when: float, callback: Callable[[], None]) -> Timer:
        timer = _ManualTimer()
        heapq.heappush(self._timers, (when, next(self._seq), timer, callback))
        return timer

    def advance(self, seconds: float) -> None:
        end = self.time + seconds
        while self._timers and self._timers[0][0] <= end:
            when, _seq, timer, callback = heapq.heappop(self._timers)
            self.time = max(self.time, when)
            if not timer.cancelled:
                callback()
        self.time = end

    def pending(self) -> int:
        return sum(1 for t in self._timers if not t[2].cancelled)


class Timeouts:
    """One timer per game; `judge(game_id)` runs when it fires and returns the next deadline (epoch
    ms) to arm again, or None."""

    def __init__(self, clock: Clock, judge: Callable[[str], Awaitable[int | None]]) -> None:
        self.clock = clock
        self._judge = judge
        self._timers: dict[str, tuple[int, Timer]] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def arm(self, game_id: str, deadline_ms: int | None) -> None:
        """Judge the game at `deadline_ms` (replacing its previous timer); None disarms it."""
        old = self._timers.pop(game_id, None)
        if old is not None:
            if old[0] == deadline_ms:
                self._timers[game_id] = old
                return
            old[1].cancel()
        if deadline_ms is None:
            return
        timer = self.clock.call_at(deadline_ms / 1000, lambda: self._fire(game_id, deadline_ms))
        self._timers[game_id] = (deadline_ms, timer)

    def armed(self, game_id: str) -> int | None:
        entry = self._timers.get(game_id)
        return None if entry is None else entry[0]

    def _fire(self, game_id: str, deadline_ms: int) -> None:
        entry = self._timers.get(game_id)
        if entry is not None and entry[0] == deadline_ms:
            del self._timers[game_id]
        task = asyncio.get_running_loop().create_task(self._run(game_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _run(self, game_id: str) -> None:
        try:
            following = await self._judge(game_id)
        except asyncio.CancelledError:
            raise
        except Exception:  # a game that cannot be judged now (database trouble): try again shortly
            log.exception("judging the clock of game %s failed; trying again in 1 s", game_id)
            following = int(self.clock.now() * 1000) + 1000
        if following is not None and game_id not in self._timers:
            self.arm(game_id, following)

    async def settle(self) -> None:
        """Wait until every judgment started so far has finished (tests)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def close(self) -> None:
        for _deadline, timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        for task in list(self._tasks):
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
