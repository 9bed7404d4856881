"""hordes: asymmetric and shape-shifting chess variants — rules, notation, engine and web app.

>>> from hordes import Board
>>> board = Board("orda")
>>> board.push_uci("e2e4")
Move.from_uci('e2e4')
>>> board.legal_moves.count()
28

Where to look:

- `hordes.Board` (`hordes.notation.board`): a position with python-chess's methods, SAN included;
  its rules come from `hordes.core.position` (moves, FEN, check, the end of the game) with `Move`.
- `hordes.variants`: the built-in games and your own documents (`load_variant`, `parse_variant`);
  `hordes.core.rules` is what a loaded document becomes (`Variant`, `PieceType`).
- `hordes.notation`: SAN (`hordes.notation.san`) and PGN game records (`hordes.notation.pgn`).
- `hordes.engine`: search, evaluation, playing levels, a UCI client and matches; `hordes.uci` is the
  UCI engine itself.
- `hordes.errors`: everything hordes raises about bad input is a `HordesError`, a `ValueError`.
- `hordes.build_kind()`: "compiled" when the core and search run as modules compiled by mypyc,
  "pure" for the Python source (`HORDES_PURE=1` at import time chooses it); see `hordes.buildinfo`.
- `hordes.selfplay` (games at scale), `hordes.svg` (board diagrams), `hordes.play` (the terminal game).

The `hordes` command (`hordes --help`) and the web app are described in the README and under docs/.
"""

from hordes._version import __version__ as __version__

# First of the package's modules: with HORDES_PURE=1 it makes the rest load from the Python source.
from hordes.buildinfo import build_kind as build_kind
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
    "build_kind",
    "builtin_variants",
    "load_variant",
    "parse_variant",
]
