"""The Info a search reports after each depth: its lines as Move objects, ranked for MultiPV, and the
score in centipawns."""

from __future__ import annotations

from dataclasses import replace

from hordes.core import movegen
from hordes.core.position import Board, Move
from hordes.engine.limits import MATE_BOUND, Info
from hordes.engine.tt import TranspositionTable


def cp(score: int, pawn_unit: int) -> int:
    return score * 100 // pawn_unit if abs(score) <= MATE_BOUND else (100000 if score > 0 else -100000)


def ranked(lines: list[tuple[int, list[int]]]) -> list[tuple[int, list[int]]]:
    """MultiPV lines best score first; equal scores keep their order."""
    return sorted(lines, key=lambda line: -line[0])


def report(
    b: Board,
    lines: list[tuple[int, int, list[int]]],
    seldepth: int,
    nodes: int,
    elapsed: float,
    complete: bool,
    pawn_unit: int,
    tt: TranspositionTable,
    wanted: int,
) -> Info:
    """The Info of line 1, carrying lines 2..`wanted` as its alternatives; `lines` holds (depth,
    score, pv) best first (a line an unfinished depth did not reach keeps the depth before)."""
    hashfull = tt.hashfull()
    infos = [
        Info(
            depth,
            max(seldepth, depth),
            score,
            cp(score, pawn_unit),
            nodes,
            elapsed,
            legal_line(b, pv),
            complete,
            hashfull,
            rank,
        )
        for rank, (depth, score, pv) in enumerate(lines[:wanted], 1)
    ]
    if len(infos) == 1:
        return infos[0]
    return replace(infos[0], alternatives=tuple(infos[1:]))


def legal_line(b: Board, pv: list[int]) -> tuple[Move, ...]:
    """The PV as Move objects, cut at the first move that is not legal (a stale table entry)."""
    out: list[Move] = []
    played = 0
    for m in pv:
        if m not in movegen.generate_legal(b):
            break
        out.append(b.int_to_move(m))
        b.push_int(m)
        played += 1
    for _ in range(played):
        b.pop_int()
    return tuple(out)
