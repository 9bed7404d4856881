"""The search's side of the pull-trap-capture plan (issue 18, point 2): no shuffling where repetition
loses, and the quiescence moves of the plan. search.py asks this module; the evaluation's side of the
plan is plan.py.

Both parts are switched on by the document: the shuffle penalty by `engine.evaluation.shuffle` where
`rules.repetition` makes repetition a loss, plan quiescence by `plan_quiescence` where some capture
changes the capturer's owner. Everywhere else the search runs as it did before they existed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from hordes.core import movegen

if TYPE_CHECKING:
    from hordes.core.position import Board
    from hordes.engine.evaluate import Evaluator

SQ: Final = movegen.SQ_MASK
TO: Final = movegen.TO_SHIFT


class PlanSearch:
    """What one search needs of the plan: the shuffle penalty with the line of moves it reads, and
    the pulls quiescence adds."""

    def __init__(self, b: Board, ev: Evaluator, max_ply: int) -> None:
        comp = b.compiled
        # A move that undoes the mover's previous move, or makes a position that has occurred before,
        # costs `shuffle`. line[ply + 2] is the move made at ply (0 for a null move); line[0] and
        # line[1] are the game's last two moves.
        self.shuffle = ev.params.shuffle if b.variant.rules.repetition_result == "loss" else 0
        self.line = [0] * (max_ply + 4)
        if self.shuffle:
            game = [u[0] for u in b._stack[-2:]]
            self.line[2 - len(game) : 2] = game
        # Quiescence: captures judged by the owner-changing exchange (plan.see), and pulls that put an
        # enemy piece where our royal pieces take it.
        self.plan = ev.plan
        self.owner_change = comp.owner_change
        self.quiescence = bool(ev.params.plan_quiescence and self.plan is not None and any(comp.owner_change))

    def penalty(self, b: Board, ply: int, m: int) -> int:
        """Record move `m`, just made at `ply`, and return its shuffle penalty: `shuffle` if the piece
        goes back (or changes back) where it came from on the mover's previous move, or the position
        has occurred before; else 0. Only called when `shuffle` is set."""
        line = self.line
        line[ply + 2] = m
        prev = line[ply]
        if (prev and (m & SQ) == (prev >> TO & SQ) and (m >> TO & SQ) == (prev & SQ)) or (
            b.halfmove >= 4 and b.repetitions() >= 2
        ):
            return self.shuffle
        return 0

    def winning_pulls(self, b: Board, legal_moves: Callable[[], list[int]]) -> list[int]:
        """The legal ones of plan.pulls_into_reach (rarely any: the legal list is asked for only then)."""
        assert self.plan is not None
        found = self.plan.pulls_into_reach(b)
        if not found:
            return []
        legal = set(legal_moves())
        return [m for m in found if m in legal]
