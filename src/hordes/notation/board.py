"""`hordes.Board`: the core's position with python-chess's notation methods (san, lan, push_san...).

The core (hordes.core.position.Board) knows rules, not notation, and never imports this layer; this
subclass adds the methods that python-chess users call on a board and that need SAN. Everything the
core returns as a board (copy, root) keeps the subclass.
"""

from __future__ import annotations

from collections.abc import Iterable

from hordes.core.position import Board as RulesBoard
from hordes.core.position import Move
from hordes.notation.san import lan as _lan
from hordes.notation.san import parse_san as _parse_san
from hordes.notation.san import push_san as _push_san
from hordes.notation.san import san as _san
from hordes.notation.san import variation_san as _variation_san


class Board(RulesBoard):
    """A position of any variant: `Board("orda")`, `Board("chess", fen=...)` or `Board(variant)`.

    >>> board = Board("chess")
    >>> board.push_san("e4")
    Move.from_uci('e2e4')
    >>> board.san(board.parse_uci("g8f6"))
    'Nf6'
    >>> bool(board.turn)  # BLACK is False
    False
    """

    def san(self, move: Move) -> str:
        """The SAN of a legal move here (IllegalMoveError if it is not legal)."""
        return _san(self, move)

    def lan(self, move: Move) -> str:
        """Long algebraic notation of a legal move (`Ng1-f3`)."""
        return _lan(self, move)

    def parse_san(self, text: str) -> Move:
        """The legal move that SAN text names: InvalidMoveError, IllegalMoveError or
        AmbiguousMoveError say what is wrong."""
        return _parse_san(self, text)

    def push_san(self, text: str) -> Move:
        """Parse SAN, play the move and return it."""
        return _push_san(self, text)

    def variation_san(self, moves: Iterable[Move]) -> str:
        """A line of legal moves from here as numbered SAN (`1. e4 e5 2. Nf3`); the board is unchanged."""
        return _variation_san(self, moves)
