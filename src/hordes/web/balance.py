"""Quick balance: a short self-play run of a workshop document, on the engine's workers.

A run is a few games of the engine against itself at a low level and a fast clock, each opening
with a couple of random plies (the self-play library's random book) so the games differ. Each game
is one job in the "analysis" class of the engine queue (engine_queue.py), a run has one game in
flight at a time, and all runs together keep one worker free for live games when there are two or
more (with one, a live game's engine move, which always goes first, waits at most for the one game
the worker is playing). The run's state machine is `BalanceRun.status`:

    running -> done       every game played
    running -> stopped    the run's time bound passed first (the games played so far are reported)
    running -> failed     the engine refused or broke (the message says why)

One run at a time per client (a second is refused with 429 and a Retry-After), at most
`MAX_RUNS` runs at once in total (503). Runs live in this process's memory: a finished run is kept
for `KEEP_SECONDS` so the page can read its result, then forgotten. Clients poll a run by its id.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import secrets
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hordes import Variant
from hordes.web.engine_pool import EngineBusy, EnginePool
from hordes.web.engine_queue import ANALYSIS

GAMES = 20  # a run's games unless the request says otherwise
MIN_GAMES, MAX_GAMES = 2, 40
BASE_SECONDS, INCREMENT = 1.0, 0.01  # each side's clock: 1+0.01
LEVEL = 2  # the engine's level (1 is the weakest); low, so a game takes about a second
MAX_PLIES = 300  # a game still going after this many plies is adjudicated a draw
BOOK_PLIES = 2  # random plies before the engine plays, so that the games differ
RUN_SECONDS = 240.0  # a run stops after this long, whatever it has played
MAX_RUNS = 8  # runs at once, of all clients
KEEP_SECONDS = 600.0  # a finished run's result stays readable this long
# A game's expected engine time, for the queue's Retry-After estimates: both clocks and their increments.
GAME_SECONDS = 2 * BASE_SECONDS + INCREMENT * MAX_PLIES


def play_balance_game(document: str, number: int, moves: tuple[str, ...], seed: int) -> dict[str, Any]:
    """One game of a run (runs in an engine worker): the engine against itself from the opening
    `moves`; its result, how it ended and its length in plies. The variant comes as its flattened
    document, built once per worker: a built Variant does not pickle in the compiled build."""
    from hordes.engine.match import GameJob, Opening, TimeControl, play_game
    from hordes.web.engine_pool import job_variant

    variant = job_variant(document)

    spec = f"hordes:level={LEVEL}"
    job = GameJob(
        number, spec, spec, True, variant.slug, Opening(None, moves), TimeControl(BASE_SECONDS, INCREMENT),
        MAX_PLIES, 0.5, seed,
    )  # fmt: skip
    game = play_game(job, variant)
    return {"result": game.result, "termination": game.termination, "plies": len(game.moves)}


def openings(variant: Variant, games: int, seed: int) -> list[tuple[str, ...]]:
    """The run's openings: the self-play library's random book of BOOK_PLIES plies."""
    from hordes.selfplay.plan import distinct_book

    return [o.moves for o in distinct_book(variant, games, BOOK_PLIES, seed)]


@dataclass
class BalanceRun:
    id: str
    client: str
    title: str
    games: int
    started: float
    status: str = "running"
    results: list[dict[str, Any]] = field(default_factory=list)
    message: str = ""
    finished: float | None = None

    def view(self) -> dict[str, Any]:
        """What the page shows: progress, and the split and the lengths of the games played."""
        tally = {"1-0": 0, "0-1": 0, "1/2-1/2": 0}
        terminations: dict[str, int] = {}
        for r in self.results:
            tally[r["result"]] = tally.get(r["result"], 0) + 1
            terminations[r["termination"]] = terminations.get(r["termination"], 0) + 1
        plies = [r["plies"] for r in self.results]
        lengths = (
            {"median": statistics.median(plies), "min": min(plies), "max": max(plies)} if plies else None
        )
        return {
            "id": self.id,
            "variant": self.title,
            "status": self.status,
            "games": self.games,
            "played": len(self.results),
            "white": tally["1-0"],
            "black": tally["0-1"],
            "draws": tally["1/2-1/2"],
            "lengths": lengths,  # in plies
            "terminations": terminations,
            "message": self.message,
            "settings": {
                "clock": f"{BASE_SECONDS:g}+{INCREMENT:g}",
                "level": LEVEL,
                "max_plies": MAX_PLIES,
                "book_plies": BOOK_PLIES,
                "time_bound": RUN_SECONDS,
            },
        }


class BalanceRuns:
    """The runs of this server process: started by `start`, read by `get`."""

    def __init__(self, pool: EnginePool, clock: Callable[[], float] = time.monotonic) -> None:
        self.pool = pool
        self.clock = clock
        self._runs: dict[str, BalanceRun] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        # Balance games in flight, of all runs: with two workers or more, one is always left to the
        # live games, so an engine move never waits behind a balance game (made on first use, on
        # the server's event loop).
        self.in_flight = max(1, pool.workers - 1)
        self._slots: asyncio.Semaphore | None = None

    def _forget_old(self) -> None:
        now = self.clock()
        for key, run in list(self._runs.items()):
            if run.finished is not None and now - run.finished > KEEP_SECONDS:
                del self._runs[key]

    def active(self, client: str | None = None) -> list[BalanceRun]:
        return [
            r for r in self._runs.values() if r.status == "running" and (client is None or r.client == client)
        ]

    def start(self, variant: Variant, document: str, games: int, client: str) -> BalanceRun:
        """A new run, or EngineBusy: 429 while this client has one running, 503 past MAX_RUNS."""
        self._forget_old()
        if not self.pool.searches:
            raise EngineBusy("this server runs no engine searches; quick balance is not available here")
        mine = self.active(client)
        if mine:
            left = mine[0].games - len(mine[0].results)
            raise EngineBusy(
                f"your quick balance run {mine[0].id} is still playing ({left} games left); "
                "one run at a time",
                status=429,
                retry_after=max(1, math.ceil(min(left * GAME_SECONDS, self._time_left(mine[0])))),
                code="balance_running",
            )
        if len(self.active()) >= MAX_RUNS:
            raise EngineBusy(
                f"{MAX_RUNS} quick balance runs are playing; try again shortly", status=503, retry_after=30
            )
        run = BalanceRun(secrets.token_urlsafe(9), client, variant.title, games, self.clock())
        self._runs[run.id] = run
        task = asyncio.get_running_loop().create_task(self._play(run, variant, document))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return run

    def get(self, run_id: str) -> BalanceRun | None:
        self._forget_old()
        return self._runs.get(run_id)

    def _time_left(self, run: BalanceRun) -> float:
        return RUN_SECONDS - (self.clock() - run.started)

    async def _play(self, run: BalanceRun, variant: Variant, document: str) -> None:
        seed = secrets.randbits(31)
        try:
            from starlette.concurrency import run_in_threadpool

            book = await run_in_threadpool(openings, variant, run.games, seed)
            if self._slots is None:
                self._slots = asyncio.Semaphore(self.in_flight)
            for number in range(1, run.games + 1):
                async with self._slots:
                    if self._time_left(run) <= 0:
                        run.status = "stopped"
                        run.message = f"stopped after {RUN_SECONDS:g} s with {len(run.results)} games played"
                        return
                    result = await self.pool.queue.run(
                        ANALYSIS, play_balance_game, document, number, book[number - 1], seed + number,
                        client=f"balance:{run.client}", seconds=GAME_SECONDS,
                    )  # fmt: skip
                run.results.append(result)
            run.status = "done"
        except EngineBusy as exc:
            run.status, run.message = "failed", exc.message
        except asyncio.CancelledError:
            run.status, run.message = "stopped", "the server is stopping"
            raise
        except Exception as exc:  # a broken worker pool, a bug: the run says so instead of hanging
            run.status, run.message = "failed", f"the run failed: {type(exc).__name__}: {exc}"[:300]
        finally:
            run.finished = self.clock()

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError):  # _play itself catches the rest
                await task
