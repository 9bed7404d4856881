"""hordes: asymmetric and shape-shifting chess variants — rules, notation, engine and web app.

>>> from hordes import Board
>>> board = Board("orda")
>>> board.push_uci("e2e4")
Move.from_uci('e2e4')
>>> board.legal_moves.count()
28
"""

from hordes.core.position import LegalMoves, Move, Outcome, Piece, Status, Termination
from hordes.core.rules import BLACK, COLOR_NAMES, COLORS, WHITE, Color, PieceType, Rules, Variant
from hordes.errors import (
    AmbiguousMoveError,
    BetzaError,
    HordesError,
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    UnknownVariantError,
    UnreadableFileError,
    VariantError,
)
from hordes.notation.board import Board
from hordes.variants import builtin_variants, load_variant, parse_variant

__version__ = "0.3.0"

__all__ = [
    "BLACK",
    "COLORS",
    "COLOR_NAMES",
    "WHITE",
    "AmbiguousMoveError",
    "BetzaError",
    "Board",
    "Color",
    "HordesError",
    "IllegalMoveError",
    "InvalidFenError",
    "InvalidMoveError",
    "LegalMoves",
    "Move",
    "Outcome",
    "Piece",
    "PieceType",
    "Rules",
    "Status",
    "Termination",
    "UnknownVariantError",
    "UnreadableFileError",
    "Variant",
    "VariantError",
    "builtin_variants",
    "load_variant",
    "parse_variant",
]
