"""Shared helpers for the engine tests: seeded random positions from playouts of every variant, and
a clock that does not depend on the machine's speed."""

from __future__ import annotations

import importlib
import random
import time
from typing import Any

import pytest

from hordes import Board, builtin_variants
from hordes.core import movegen
from hordes.engine.eval_params import PAIR_TERMS
from hordes.engine.evaluate import Evaluator

VARIANTS = [v.slug for v in builtin_variants()]
# The weight pairs of the piece-square table; every other pair is a term that Evaluator.extras adds.
PIECE_SQUARE_TERMS = frozenset({"centre", "pawn_advance", "royal_centre", "campmate"})


def extras_with_only(fen: str, **weights: Any) -> int:
    """The extras of a Hordes of Change position (White's view) with only the named terms on. Every
    other term that extras adds is set to 0, a term added to the evaluation later included."""
    board = Board("hordes", fen)
    off = {key: 0 for key in PAIR_TERMS if key not in PIECE_SQUARE_TERMS}
    ev = Evaluator(board.variant, off | weights)
    return ev.extras(board, ev.packed(board))


def random_positions(
    variant: str, count: int, seed: int, max_plies: int = 120, keep: float = 0.12
) -> list[Board]:
    """`count` positions (with their move history) met in seeded random games, each kept with
    probability `keep` per ply, plus every game's last position (which may be a finished game).
    Several positions per game keep the cost of the playouts down in the slower variants."""
    rng = random.Random(seed)
    out: list[Board] = []
    while len(out) < count:
        board = Board(variant)
        for _ in range(max_plies):
            moves = movegen.generate_legal(board)
            # outcome() generates the moves again: ask it only where a rule other than "no moves" can apply
            if not moves or (board.halfmove >= 4 and board.outcome() is not None):
                break
            if rng.random() < keep:
                out.append(board.copy())
            board.push_int(rng.choice(sorted(moves)))  # sorted: the sample does not follow generation order
        out.append(board)
    return out[:count]


class StepClock:
    """A stand-in for the `time` module of the search and the match: each reading of perf_counter
    advances it `step` seconds (everything else is the real module). Time limits are then tested
    by what the code does, not by how loaded the machine is."""

    def __init__(self, step: float) -> None:
        self.now = 1000.0
        self.step = step

    def perf_counter(self) -> float:
        self.now += self.step
        return self.now

    def __getattr__(self, name: str) -> Any:
        return getattr(time, name)


def step_clock(monkeypatch: pytest.MonkeyPatch, step: float, *modules: str) -> StepClock:
    """Give `modules` (dotted names) one StepClock for the rest of the test: as their `clock` where
    they read one (the search: its compiled build does not see a replaced `time`), else as `time`."""
    clock = StepClock(step)
    for name in modules:
        module = importlib.import_module(name)
        if hasattr(module, "clock"):
            monkeypatch.setattr(module, "clock", clock.perf_counter)
        else:
            monkeypatch.setattr(module, "time", clock)
    return clock
