"""Engine searches in worker processes, so the server answers moves and pages while the engine thinks.

The engine is pure Python: a search in the server's process would hold the GIL for its whole
movetime and stall every other game. A ProcessPoolExecutor runs searches in separate processes
(started with "spawn", which is safe in a threaded server, and only when the first search is asked
for). Each worker keeps one Searcher, so its transposition table survives between requests.

Jobs carry the variant's name, the start FEN and the moves played, never a Board: the worker rebuilds
the position with its history, which the repetition rules need. Waiting jobs are bounded; past the
bound `EngineBusy` is raised and the web layer answers 503.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import random
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from hordes import Board, load_variant

_searcher: Any = None  # one per worker process
WON_CP = 10_000  # the evaluation of a position whose game is over, for the winner


def _get_searcher() -> Any:
    global _searcher
    if _searcher is None:
        from hordes.engine.search import Searcher

        _searcher = Searcher(hash_mb=16)
    return _searcher


def _board(variant: str, start_fen: str, moves: list[str]) -> Board:
    board = Board(load_variant(variant), start_fen)
    for uci in moves:
        board.push_uci(uci)
    return board


def engine_move(
    variant: str, start_fen: str, moves: list[str], level_number: int, movetime: float, seed: int
) -> str | None:
    """The move the engine plays at this level (runs in a worker); None when the game is over."""
    from hordes.engine.levels import level, think
    from hordes.engine.limits import Limits

    board = _board(variant, start_fen, moves)
    if board.outcome() is not None:
        return None
    move, _info = think(
        _get_searcher(), board, level(level_number), Limits(movetime=movetime), rng=random.Random(seed)
    )
    if move is None:  # a search cut off before depth 1: any legal move beats hanging
        move = next(iter(board.legal_moves), None)
    return board.uci(move) if move is not None else None


def analyse(
    variant: str, start_fen: str, moves: list[str], movetime: float, depth: int | None = None
) -> dict[str, Any]:
    """Evaluation of the position after `moves`, from White's point of view (runs in a worker)."""
    from hordes.engine.limits import Limits
    from hordes.notation.san import variation_san

    board = _board(variant, start_fen, moves)
    out: dict[str, Any] = {"cp": None, "mate": None, "depth": 0, "pv": [], "pv_san": "", "best": None}
    outcome = board.outcome()
    if outcome is not None:
        # A finished game: the result is the evaluation (the graph draws a won position at its edge).
        winner = outcome.winner
        out["cp"] = 0 if winner is None else (WON_CP if int(winner) == 0 else -WON_CP)
        out["over"] = outcome.result()
        return out
    last = None
    for info in _get_searcher().search(board, Limits(movetime=movetime, depth=depth)):
        last = info
    if last is None:
        return out
    sign = 1 if board.turn == 0 else -1
    mate = last.mate
    out.update(
        cp=sign * last.cp,
        mate=None if mate is None else sign * mate,
        depth=last.depth,
        pv=[board.uci(m) for m in last.pv],
        pv_san=variation_san(board, last.pv) if last.pv else "",
        best=board.uci(last.pv[0]) if last.pv else None,
        nodes=last.nodes,
    )
    return out


def _warm() -> None:
    """Import the engine in a fresh worker before the first real job arrives."""
    _get_searcher()


class EngineBusy(RuntimeError):
    """Too many searches are already waiting."""


class EnginePool:
    """Engine jobs in worker processes; `await pool.move(...)` and `await pool.analyse(...)`."""

    def __init__(self, workers: int | None = None, max_pending: int = 64) -> None:
        self.workers = workers or max(1, min(2, os.cpu_count() or 1))
        self.max_pending = max_pending
        self._executor: ProcessPoolExecutor | None = None
        self._pending = 0

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            ctx = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(max_workers=self.workers, mp_context=ctx)
        return self._executor

    async def _run(self, fn: Any, *args: Any) -> Any:
        if self._pending >= self.max_pending:
            raise EngineBusy(f"the engine has {self._pending} searches waiting; try again shortly")
        self._pending += 1
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._pool(), fn, *args)
        finally:
            self._pending -= 1

    async def move(
        self,
        variant: str,
        start_fen: str,
        moves: list[str],
        level: int,
        movetime: float,
        seed: int | None = None,
    ) -> str | None:
        seed = random.getrandbits(32) if seed is None else seed
        result: str | None = await self._run(engine_move, variant, start_fen, moves, level, movetime, seed)
        return result

    async def analyse(
        self, variant: str, start_fen: str, moves: list[str], movetime: float, depth: int | None = None
    ) -> dict[str, Any]:
        result: dict[str, Any] = await self._run(analyse, variant, start_fen, moves, movetime, depth)
        return result

    def shutdown(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
