"""What a search may spend (Limits), what it reports (Info), and the clock arithmetic between them."""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from hordes.core.position import Move
from hordes.core.rules import WHITE, Color

MATE: Final = 1_000_000  # a win in n plies scores MATE - n for the winner
MATE_BOUND: Final = MATE - 10_000  # any |score| above this is a forced win or loss
INF: Final = MATE + 1

StopSignal = threading.Event | Callable[[], bool]
# On a clock, a new depth starts only before this share of the move's time has gone: each depth costs
# a few times the one before, so one started later would most likely be cut off unfinished.
NEXT_ITERATION_GUESS: Final = 0.6
# On a clock without a moves-to-go count, the time left is shared as if this many moves were to come,
# unless the document says otherwise (engine.evaluation.moves_to_go). Against Fairy-Stockfish Skill 6
# at 5+0.05 in chess, neither 20 nor 40 scored better than 30 (docs/benchmarks.md).
MOVES_TO_GO_GUESS: Final = 30


@dataclass(slots=True)
class Limits:
    """Search limits. Times are in seconds. With none set the search runs to `MAX_DEPTH`.

    `movetime` is a target, as UCI's `go movetime` means it: the search goes on until that time is
    used (less `overhead`), ended mid-iteration if need be. `max_time` is a ceiling instead (a
    playing level's cap): the search may stop sooner when the next depth would not finish in it,
    as it does on a clock. `multipv` asks for that many best lines (each root move at most once).

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
    max_time: float | None = None
    multipv: int = 1
    # Time kept back for the process and the pipe between the engine and the GUI, per move.
    overhead: float = 0.03

    def stopped(self) -> bool:
        s = self.stop
        if s is None:
            return False
        if isinstance(s, threading.Event):
            return s.is_set()
        return bool(s())

    def budget(self, turn: Color, moves_to_go: int = MOVES_TO_GO_GUESS) -> tuple[float | None, float | None]:
        """(soft, hard) seconds: do not start a new iteration after soft; abort at hard.

        A movetime gives soft == hard: the search never stops early on a guess and uses the time.
        A clock or a ceiling (`max_time`) stops starting depths at NEXT_ITERATION_GUESS of their
        share, since the next depth would most likely not finish in it; the tightest limit wins."""
        if self.infinite:
            return None, None
        softs: list[float] = []
        hards: list[float] = []
        if self.movetime is not None:
            fixed = max(0.001, self.movetime - self.overhead)
            softs.append(fixed)
            hards.append(fixed)
        if self.max_time is not None:
            ceiling = max(0.001, self.max_time - self.overhead)
            softs.append(ceiling * NEXT_ITERATION_GUESS)
            hards.append(ceiling)
        left = self.wtime if turn is WHITE else self.btime
        if left is not None:
            inc = self.winc if turn is WHITE else self.binc
            left = max(0.0, left - self.overhead)
            # Expect `moves_to_go` more moves (the GUI's count when it gives one), and use most of
            # the increment.
            mtg = min(self.movestogo, 40) if self.movestogo else moves_to_go
            soft = left / max(1, mtg) + inc * 0.8
            hard = min(left * 0.5, soft * 4)
            soft = min(soft, left * 0.25)
            floor = min(0.005, left * 0.5)
            softs.append(max(floor, soft) * NEXT_ITERATION_GUESS)
            hards.append(max(floor, hard))
        if not hards:
            return None, None
        return min(softs), min(hards)


@dataclass(frozen=True, slots=True)
class Info:
    """One report of the search: after each completed depth, and at the end.

    `score` is in internal units from the side to move's point of view; `cp` is the same in
    centipawns (100 = one pawn of the variant's `pawn_unit`); `mate` is the distance in moves to a
    forced win (positive) or loss (negative), counting campmate and other rule wins alike.
    `complete` is False for the final report of an iteration cut short by a limit.
    With MultiPV this is line 1 (`multipv` 1, the move to play) and `alternatives` holds the next
    best lines, each an Info with its own `multipv` rank; otherwise `alternatives` is empty.
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
    multipv: int = 1
    alternatives: tuple[Info, ...] = ()

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

    @property
    def lines(self) -> tuple[Info, ...]:
        """Every line of this report, best first: itself, then its alternatives."""
        return (self, *self.alternatives)

    @property
    def wdl(self) -> tuple[int, int, int]:
        """Win, draw and loss per mille for the side to move, from the score (see `wdl_of`)."""
        return wdl_of(self.cp, self.mate)

    def uci(self, uci_move: Callable[[Move], str] | None = None, *, show_wdl: bool = False) -> str:
        """The `info ...` line a UCI engine prints for this line of the report (not its alternatives)."""
        mate = self.mate
        score = f"mate {mate}" if mate is not None else f"cp {self.cp}"
        if show_wdl:
            score += " wdl {} {} {}".format(*self.wdl)
        fmt = uci_move or (lambda m: m.uci())
        pv = " ".join(fmt(m) for m in self.pv)
        ms = int(self.time * 1000)
        return (
            f"info depth {self.depth} seldepth {self.seldepth} multipv {self.multipv} score {score} "
            f"nodes {self.nodes} nps {self.nps} hashfull {self.hashfull} time {ms}"
            + (f" pv {pv}" if pv else "")
        )


# The score -> win/draw/loss model of `Info.wdl` (UCI_ShowWDL). A logistic curve on either side of a
# drawish band: W = 1000 / (1 + exp(-(cp - WDL_DRAW_CP) / WDL_SCALE_CP)), L the same for -cp, D the
# rest. At 0 cp that is 159 / 682 / 159; at +100 cp 500 / 466 / 34; at +300 cp 966 / 33 / 1.
# It is a fixed guess, not fitted to games of any variant; a forced result is 1000 / 0 / 0 (or 0 / 0 / 1000).
WDL_DRAW_CP: Final = 100
WDL_SCALE_CP: Final = 60


def wdl_of(cp: int, mate: int | None = None) -> tuple[int, int, int]:
    """(win, draw, loss) per mille for the side whose score `cp` is (centipawns), or `mate` in moves."""
    if mate is not None:
        return (1000, 0, 0) if mate > 0 else (0, 0, 1000)

    def share(x: float) -> int:
        z = (x - WDL_DRAW_CP) / WDL_SCALE_CP
        return round(1000 / (1 + math.exp(-z))) if z > -50 else 0

    win, loss = share(cp), share(-cp)
    return win, 1000 - win - loss, loss
