"""Engine searches in worker processes, so the server answers moves and pages while the engine thinks.

The engine is pure Python: a search in the server's process would hold the GIL for its whole
movetime and stall every other game. A ProcessPoolExecutor runs searches in separate processes
(started with "spawn", which is safe in a threaded server, and only when the first search is asked
for). Each worker keeps one Searcher, so its transposition table survives between requests.

Jobs carry the variant's name, the start FEN and the moves played, never a Board: the worker rebuilds
the position with its history, which the repetition rules need. Jobs wait in an `EngineQueue`
(engine_queue.py), where game moves go before analysis and analysis is bounded per client and in
total. A worker dies with the server, however the server dies (worker_guard.py). A worker that dies
breaks the executor; the next job starts a new one.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from starlette.concurrency import run_in_threadpool

from hordes import Board, load_variant
from hordes.core.compiled import limit_tables
from hordes.errors import UnknownVariantError
from hordes.variants import parse_variant
from hordes.web.engine_queue import (
    ANALYSIS,
    ANALYSIS_PER_CLIENT,
    ANALYSIS_TOTAL,
    GAME,
    EngineBusy,
    EngineQueue,
)
from hordes.web.variant_limits import STORED_TABLE_BUDGET
from hordes.web.variant_store import is_stored_name, job_document
from hordes.web.worker_guard import die_with_parent

__all__ = ["EngineBusy", "EnginePool", "analyse", "engine_move"]

_searcher: Any = None  # one per worker process
WON_CP = 10_000  # the evaluation of a position whose game is over, for the winner


def _get_searcher() -> Any:
    global _searcher
    if _searcher is None:
        from hordes.engine.search import Searcher

        _searcher = Searcher(hash_mb=16)
    return _searcher


def _no_parents(name: str) -> tuple[str, str]:
    raise UnknownVariantError(f"a job's document has no parents to look up ({name[:40]!r})")


_job_variants: dict[str, Any] = {}  # a worker's variants of stored documents, by their text
JOB_VARIANTS = 16


def job_variant(variant: str) -> Any:
    """A built-in by its name, or the variant of a stored document sent whole (job_document)."""
    if not variant.startswith("---"):
        return load_variant(variant)
    found = _job_variants.get(variant)
    if found is None:
        if len(_job_variants) >= JOB_VARIANTS:
            _job_variants.pop(next(iter(_job_variants)))
        found = _job_variants[variant] = parse_variant(variant, "<stored>", parents=_no_parents)
        limit_tables(found, STORED_TABLE_BUDGET)  # as the server's own copy (variant_store.py)
    return found


def _board(variant: str, start_fen: str, moves: list[str]) -> Board:
    board = Board(job_variant(variant), start_fen)
    for uci in moves:
        board.push_uci(uci)
    return board


def game_limits(movetime: float, clock: dict[str, float] | None = None) -> Any:
    """The engine's Limits for a game move: `movetime` as a cap, and in a timed game the game clock
    (wtime, btime, winc, binc in seconds), from which the search manages its time."""
    from hordes.engine.limits import Limits

    if not clock:
        return Limits(max_time=movetime)
    return Limits(
        wtime=clock["wtime"], btime=clock["btime"], winc=clock["winc"], binc=clock["binc"], max_time=movetime
    )


def engine_move(
    variant: str,
    start_fen: str,
    moves: list[str],
    level_number: int,
    movetime: float,
    seed: int,
    clock: dict[str, float] | None = None,
) -> str | None:
    """The move the engine plays at this level (runs in a worker); None when the game is over."""
    from hordes.engine.levels import level, think

    board = _board(variant, start_fen, moves)
    if board.outcome() is not None:
        return None
    move, _info = think(
        _get_searcher(), board, level(level_number), game_limits(movetime, clock), rng=random.Random(seed)
    )
    if move is None:  # a search cut off before depth 1: any legal move beats hanging
        move = next(iter(board.legal_moves), None)
    return board.uci(move) if move is not None else None


def analyse(
    variant: str,
    start_fen: str,
    moves: list[str],
    movetime: float,
    depth: int | None = None,
    multipv: int = 1,
) -> dict[str, Any]:
    """Evaluation of the position after `moves`, from White's point of view (runs in a worker):
    line 1's score and moves at the top level, and all `multipv` lines, best first, in `lines`."""
    from hordes.engine.limits import Limits

    board = _board(variant, start_fen, moves)
    out: dict[str, Any] = {
        "cp": None, "mate": None, "depth": 0, "pv": [], "pv_san": "", "best": None, "lines": [],
    }  # fmt: skip
    outcome = board.outcome()
    if outcome is not None:
        # A finished game: the result is the evaluation (the graph draws a won position at its edge).
        winner = outcome.winner
        out["cp"] = 0 if winner is None else (WON_CP if winner else -WON_CP)
        out["over"] = outcome.result()
        return out
    last = None
    limits = Limits(max_time=movetime, depth=depth, multipv=multipv)  # caps, not targets
    for info in _get_searcher().search(board, limits):
        last = info
    if last is None:
        return out
    lines = [_line_view(board, line) for line in last.lines]
    out.update(lines[0], depth=last.depth, nodes=last.nodes, lines=lines)
    return out


def _line_view(board: Board, info: Any) -> dict[str, Any]:
    """One engine line from White's point of view: score, moves in UCI and SAN, its depth."""
    from hordes.notation.san import san, variation_san

    sign = 1 if board.turn else -1
    mate = info.mate
    sans = []
    for move in info.pv:
        sans.append(san(board, move))
        board.push(move)
    for _ in info.pv:
        board.pop()
    return {
        "cp": sign * info.cp,
        "mate": None if mate is None else sign * mate,
        "pv": [board.uci(m) for m in info.pv],
        "pv_san": variation_san(board, info.pv) if info.pv else "",
        "pv_sans": sans,
        "best": board.uci(info.pv[0]) if info.pv else None,
        "depth": info.depth,
    }


def _worker_start(parent_pid: int) -> None:
    """Each worker's initializer: die with the server, then import the engine before the first job.
    Ctrl-C reaches the whole process group of a terminal: the server stops its workers itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent(parent_pid)
    _get_searcher()


class EnginePool:
    """Engine jobs in worker processes; `await pool.move(...)` and `await pool.analyse(...)`."""

    def __init__(
        self,
        workers: int | None = None,
        analysis_per_client: int = ANALYSIS_PER_CLIENT,
        analysis_total: int = ANALYSIS_TOTAL,
    ) -> None:
        # 0: no searches in this process (`hordes serve --engine-workers 0`: engine workers elsewhere
        # take the engine's turns, engine_worker.py); None: the default
        self.searches = workers != 0
        self.workers = workers or max(1, min(2, os.cpu_count() or 1))
        self._executor: ProcessPoolExecutor | None = None
        self.queue = EngineQueue(self.workers, self._pool, analysis_per_client, analysis_total)

    def _pool(self) -> ProcessPoolExecutor:
        # Called on the event loop's thread, which lives as long as the server: Linux's parent-death
        # signal follows the thread that started the worker.
        if self._executor is not None and self._executor._broken:
            self._discard()  # a worker died (killed, out of memory): start afresh
        if self._executor is None:
            ctx = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=ctx,
                initializer=_worker_start,
                initargs=(os.getpid(),),
            )
        return self._executor

    async def _run(
        self, kind: str, fn: Any, *args: Any, client: str | None = None, seconds: float = 1.0
    ) -> Any:
        if args and isinstance(args[0], str) and is_stored_name(args[0]):
            args = (await run_in_threadpool(job_document, args[0]), *args[1:])
        if not self.searches:
            raise EngineBusy(
                "this server runs no engine searches (--engine-workers 0); analysis is not available here",
                status=503,
                retry_after=60,
            )
        try:
            return await self.queue.run(kind, fn, *args, client=client, seconds=seconds)
        except BrokenProcessPool:
            raise EngineBusy("an engine worker stopped; try again", status=503, retry_after=1) from None

    async def move(
        self,
        variant: str,
        start_fen: str,
        moves: list[str],
        level: int,
        movetime: float,
        seed: int | None = None,
        clock: dict[str, float] | None = None,
    ) -> str | None:
        """`clock`: the game clock for the search (clocks.engine_limits), None in untimed games."""
        seed = random.getrandbits(32) if seed is None else seed
        result: str | None = await self._run(
            GAME, engine_move, variant, start_fen, moves, level, movetime, seed, clock, seconds=movetime
        )
        return result

    async def analyse(
        self,
        variant: str,
        start_fen: str,
        moves: list[str],
        movetime: float,
        depth: int | None = None,
        client: str | None = None,
        multipv: int = 1,
    ) -> dict[str, Any]:
        """Raises EngineBusy past the analysis bounds (per `client` and in total)."""
        result: dict[str, Any] = await self._run(
            ANALYSIS, analyse, variant, start_fen, moves, movetime, depth, multipv,
            client=client, seconds=movetime,
        )  # fmt: skip
        return result

    def _discard(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None

    def shutdown(self) -> None:
        self.queue.close(EngineBusy("the server is stopping", status=503, retry_after=5))
        self._discard()
