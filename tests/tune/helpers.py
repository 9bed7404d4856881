"""Positions for the tuning tests: quiet positions of seeded random games (no engine, no clock)."""

from __future__ import annotations

import random

from hordes.core import movegen
from hordes.core.position import Board
from hordes.engine.evaluate import evaluator
from hordes.tune.positions import is_quiet
from hordes.variants import load_variant


def random_positions(variant_name: str, games: int, seed: int, every: int = 3, plies: int = 200) -> list[str]:
    """FENs of quiet positions (not in check, game not over) from random games, every few plies."""
    variant = load_variant(variant_name)
    ev = evaluator(variant)
    rng = random.Random(seed)
    fens: list[str] = []
    for _ in range(games):
        board = Board(variant)
        for ply in range(plies):
            if board.outcome() is not None:
                break
            board.push_int(rng.choice(movegen.generate_legal(board)))
            if ply < 8 or ply % every or board.is_check() or board.outcome() is not None:
                continue
            if is_quiet(board, ev):
                fens.append(board.fen())
    return fens
