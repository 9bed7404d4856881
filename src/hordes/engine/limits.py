"""What a search may spend (Limits), what it reports (Info), and the clock arithmetic between them."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from hordes.core.position import Move

MATE = 1_000_000  # a win in n plies scores MATE - n for the winner
MATE_BOUND = MATE - 10_000  # any |score| above this is a forced win or loss
INF = MATE + 1

StopSignal = threading.Event | Callable[[], bool]


@dataclass(slots=True)
class Limits:
    """Search limits. Times are in seconds. With none set the search runs to `MAX_DEPTH`.

    `stop` is a threading.Event or a callable returning True to stop; it is polled every few
    hundred nodes, as are the node and time limits.
    """

    depth: int | None = None
    nodes: int | None = None
    movetime: float | None = None
    wtime: float | None = None
    btime: float | None = None
    winc: float = 0.0
    binc: float = 0.0
    movestogo: int | None = None
    infinite: bool = False
    stop: StopSignal | None = None
    searchmoves: list[Move] = field(default_factory=list)
    # Time kept back for the process and the pipe between the engine and the GUI, per move.
    overhead: float = 0.03

    def stopped(self) -> bool:
        s = self.stop
        if s is None:
            return False
        if isinstance(s, threading.Event):
            return s.is_set()
        return bool(s())

    def budget(self, turn: int) -> tuple[float | None, float | None]:
        """(soft, hard) seconds: do not start a new iteration after soft; abort at hard.

        With both a move time and a clock (a playing level's cap in a timed game), the tighter wins."""
        if self.infinite:
            return None, None
        fixed = max(0.001, self.movetime - self.overhead) if self.movetime is not None else None
        left = self.wtime if turn == 0 else self.btime
        if left is None:
            return fixed, fixed
        inc = self.winc if turn == 0 else self.binc
        left = max(0.0, left - self.overhead)
        # Expect about 30 more moves (fewer when the GUI says so), and use most of the increment.
        mtg = min(self.movestogo, 40) if self.movestogo else 30
        soft = left / max(1, mtg) + inc * 0.8
        hard = min(left * 0.5, soft * 4)
        soft = min(soft, left * 0.25)
        floor = min(0.005, left * 0.5)
        soft, hard = max(floor, soft), max(floor, hard)
        if fixed is not None:
            return min(fixed, soft), min(fixed, hard)
        return soft, hard


@dataclass(frozen=True, slots=True)
class Info:
    """One report of the search: after each completed depth, and at the end.

    `score` is in internal units from the side to move's point of view; `cp` is the same in
    centipawns (100 = one pawn of the variant's `pawn_unit`); `mate` is the distance in moves to a
    forced win (positive) or loss (negative), counting campmate and other rule wins alike.
    `complete` is False for the final report of an iteration cut short by a limit.
    """

    depth: int
    seldepth: int
    score: int
    cp: int
    nodes: int
    time: float
    pv: tuple[Move, ...]
    complete: bool = True
    hashfull: int = 0

    @property
    def mate(self) -> int | None:
        if self.score > MATE_BOUND:
            return (MATE - self.score + 1) // 2
        if self.score < -MATE_BOUND:
            return -((MATE + self.score) // 2)
        return None

    @property
    def nps(self) -> int:
        return int(self.nodes / self.time) if self.time > 0 else 0

    @property
    def best_move(self) -> Move | None:
        return self.pv[0] if self.pv else None

    def uci(self, uci_move: Callable[[Move], str] | None = None) -> str:
        """The `info ...` line a UCI engine prints for this report."""
        mate = self.mate
        score = f"mate {mate}" if mate is not None else f"cp {self.cp}"
        fmt = uci_move or (lambda m: m.uci())
        pv = " ".join(fmt(m) for m in self.pv)
        ms = int(self.time * 1000)
        return (
            f"info depth {self.depth} seldepth {self.seldepth} multipv 1 score {score} nodes {self.nodes} "
            f"nps {self.nps} hashfull {self.hashfull} time {ms}" + (f" pv {pv}" if pv else "")
        )
