"""Playing levels 1–8 for casual games: weaker levels search less and make controlled mistakes.

A level caps the search (depth, nodes, time per move) and adds two kinds of randomness, both drawn
from a seeded generator so a game can be replayed:
- evaluation noise: every evaluation is shifted by a pseudo-random amount (fixed per position for
  one game), so the weaker levels misjudge positions in a consistent, human-looking way;
- an occasional wild move at the lowest levels: a random legal move instead of the searched one,
  but never one that allows mate in one when the searched move does not.
Level 8 is the full engine: no caps beyond the caller's limits, no noise.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace

from hordes.core import movegen
from hordes.core.position import Board, Move
from hordes.engine.evaluate import evaluator
from hordes.engine.limits import MATE_BOUND, Info, Limits
from hordes.engine.search import Searcher

MIN_LEVEL = 1
MAX_LEVEL = 8


@dataclass(frozen=True, slots=True)
class Level:
    number: int
    depth: int | None
    nodes: int | None
    movetime: float | None  # seconds per move at most
    noise_cp: int  # evaluation noise, in centipawns (either way)
    wild: float  # chance of a random legal move instead of the searched one


LEVELS = {
    1: Level(1, 1, 2_000, 0.2, 300, 0.30),
    2: Level(2, 1, 5_000, 0.3, 180, 0.15),
    3: Level(3, 2, 10_000, 0.5, 110, 0.06),
    4: Level(4, 2, 20_000, 0.7, 70, 0.02),
    5: Level(5, 3, 40_000, 1.0, 40, 0.0),
    6: Level(6, 4, 80_000, 1.5, 20, 0.0),
    7: Level(7, 6, 200_000, 3.0, 8, 0.0),
    8: Level(8, None, None, None, 0, 0.0),
}


def level(number: int) -> Level:
    """The settings of a level; numbers outside 1..8 are clamped."""
    return LEVELS[max(MIN_LEVEL, min(MAX_LEVEL, number))]


def capped(lv: Level, limits: Limits) -> Limits:
    """The caller's limits, tightened by the level's caps (an infinite search stays infinite in time).
    The level's time is a ceiling (`max_time`), not a time to use up as a movetime is."""

    def low(a: float | None, b: float | None) -> float | None:
        return b if a is None else a if b is None else min(a, b)

    depth = low(limits.depth, lv.depth)
    nodes = low(limits.nodes, lv.nodes)
    max_time = limits.max_time if limits.infinite else low(limits.max_time, lv.movetime)
    return replace(
        limits,
        depth=int(depth) if depth is not None else None,
        nodes=int(nodes) if nodes is not None else None,
        max_time=max_time,
    )


def think(
    searcher: Searcher,
    board: Board,
    lv: Level,
    limits: Limits | None = None,
    *,
    rng: random.Random | None = None,
    on_info: Callable[[Info], None] | None = None,
) -> tuple[Move | None, Info | None]:
    """Search at a level and choose the move to play; returns (move, last search report)."""
    rng = rng or random.Random()
    unit = evaluator(board.variant).pawn_unit
    noise = lv.noise_cp * unit // 100
    last: Info | None = None
    for info in searcher.search(board, capped(lv, limits or Limits()), noise=noise, seed=rng.getrandbits(32)):
        last = info
        if on_info is not None:
            on_info(info)
    move = last.best_move if last else None
    if (
        move is not None
        and lv.wild
        and rng.random() < lv.wild
        and last is not None
        and last.score < MATE_BOUND
    ):
        move = _wild_move(board, rng) or move
    return move, last


def _wild_move(board: Board, rng: random.Random) -> Move | None:
    """A random legal move that does not hand the opponent an immediate win."""
    b = board.copy()
    moves = movegen.generate_legal(b)
    rng.shuffle(moves)
    mover = b.turn
    for m in moves[:8]:
        b.push_int(m)
        out = b.outcome()
        safe = out.winner is None or out.winner is mover if out is not None else not _has_winning_reply(b)
        b.pop_int()
        if safe:
            return board.int_to_move(m)
    return None


def _has_winning_reply(b: Board) -> bool:
    me = not b.turn
    for reply in movegen.generate_legal(b):
        b.push_int(reply)
        out = b.outcome()
        b.pop_int()
        if out is not None and out.winner is not None and out.winner is not me:
            return True
    return False
