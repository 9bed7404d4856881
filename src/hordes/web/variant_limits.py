"""The limits on variant documents sent to the web app, checked before anything is built.

A document is text from anyone, and what it asks for is memory and time: its board and its pieces
decide the size of the move tables the rules core builds (hordes.core.tables), and every game and
engine search of it pays for them. So before a document is built it is weighed: its size as text,
then (merged with its parents) its board, its number of piece kinds, its generations of parents,
and an estimate of its tables' memory from those numbers. Each refusal names the limit. The limits
and the reasons for them are in docs/web.md ("Variant documents").
"""

from __future__ import annotations

import contextlib
from typing import Any

from hordes.core.betza import parse_betza
from hordes.errors import HordesError
from hordes.variants.loader import Resolved
from hordes.web.errors import GameError

MAX_STORED_BYTES = 64 * 1024  # a document's text, UTF-8: the longest built-in is under 8 KB
MAX_ROWS = 16  # ranks, and files: 16x16 is four chess boards; the core itself stops at 26
MAX_COLS = 16
MAX_PIECE_KINDS = 24  # letters in engine.pieces; Hordes of Change, the largest built-in, has 13
MAX_STORED_ANCESTORS = 5  # generations of parents; khans -> orda -> chess is two
# The subset tables a stored variant may build (the core's default is TABLE_BUDGET, 32 MB): past it,
# its lines are scanned instead (core.compiled.limit_tables). The core caches tables for good, so a
# smaller share per document keeps what many documents leave behind small.
STORED_TABLE_BUDGET = 8 * 2**20
# The estimated memory of a variant's move tables (estimate_table_bytes); a document at every other
# limit at once, 16x16 with 24 kinds of riders in 48 directions each, is estimated at 89 MB and
# measured at 14 MB and 0.2 s of CPU (benchmarks/variant_limits.py): the estimate is deliberately high.
MAX_TABLE_BYTES = 96 * 2**20


class DocumentTooLarge(GameError):
    status = 413
    code = "document_too_large"


class OverLimit(GameError):
    """A document over one of the limits: every limit it is over, each with its key path and line."""

    status = 422
    code = "over_limit"

    def __init__(self, problems: list[dict[str, Any]]) -> None:
        first = problems[0]
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        super().__init__(f"the document is over a limit: {first['message']}{more}")
        self.problems = problems

    def as_dict(self) -> dict[str, Any]:
        return {**super().as_dict(), "problems": self.problems}


def check_size(text: str) -> None:
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_STORED_BYTES:
        raise DocumentTooLarge(
            f"the document is {size} bytes, over the limit of {MAX_STORED_BYTES} bytes "
            f"({MAX_STORED_BYTES // 1024} KB)"
        )


def _int(value: Any, default: int) -> int | None:
    if value is None:
        return default
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def rider_directions(spec: Any) -> int:
    """The riding directions of one piece as its document spells them (moves, pulls, restrictions);
    0 for what does not parse (the build reports it)."""
    if not isinstance(spec, dict):
        return 0
    count = 0
    for key in ("betza", "pull", "restricts"):
        text = spec.get(key)
        if not isinstance(text, str):
            continue
        with contextlib.suppress(HordesError):
            count += sum(len(c.vectors) for c in parse_betza(text) if c.rider)
    return count


def estimate_table_bytes(rows: int, cols: int, directions: list[int]) -> int:
    """An upper estimate of the memory of a variant's move tables from its board and, for each piece
    kind, its number of riding directions.

    Per kind and colour, moves and captures apart, the core keeps a leap table (one bitboard per
    square) and one ray per riding direction and square; every bitboard is a Python int of the
    board's width (28 bytes plus 4 per 30 squares) in a list slot (8 bytes). The Zobrist keys add
    one per piece code and square; the tables of the whole board (the squares between two squares,
    the king's and the pawns' zones) about 40 bytes per pair of squares and 2 KB per square. The
    subset tables of riders are held to STORED_TABLE_BUDGET by the core, whose own estimate of them
    runs up to a fifth low: they are counted at 1.25 times it. Measured against compile_variant with
    tracemalloc the whole is 1.5 to 7 times what a build takes (tests/web/test_variant_store.py)."""
    squares = rows * cols
    int_bytes = 28 + 4 * (squares // 30) + 8
    patterns = sum(2 * 2 * squares * (1 + d) * int_bytes for d in directions)
    zobrist = len(directions) * 2 * squares * int_bytes
    board = squares * squares * 40 + squares * 2048
    return patterns + zobrist + board + STORED_TABLE_BUDGET * 5 // 4


def check_limits(resolved: Resolved) -> None:
    """Board size, piece kinds and table memory of a merged document (OverLimit); values of the wrong
    type are left for the build to report."""
    problems: list[dict[str, Any]] = []

    def over(key: str, message: str) -> None:
        problems.append({"path": key, "line": resolved.line_of(key) or None, "message": message})

    engine = resolved.data.get("engine")
    engine = engine if isinstance(engine, dict) else {}
    topology = engine.get("topology")
    topology = topology if isinstance(topology, dict) else {}
    rows = _int(topology.get("rows"), 8)
    cols = _int(topology.get("cols"), 8)
    if rows is not None and rows > MAX_ROWS:
        over(
            "engine.topology.rows",
            f"{rows} ranks is over the limit of {MAX_ROWS} (boards are at most {MAX_ROWS}x{MAX_COLS})",
        )
    if cols is not None and cols > MAX_COLS:
        over(
            "engine.topology.cols",
            f"{cols} files is over the limit of {MAX_COLS} (boards are at most {MAX_ROWS}x{MAX_COLS})",
        )
    pieces = engine.get("pieces")
    pieces = pieces if isinstance(pieces, dict) else {}
    if len(pieces) > MAX_PIECE_KINDS:
        over("engine.pieces", f"{len(pieces)} piece kinds is over the limit of {MAX_PIECE_KINDS}")
    if not problems and rows and cols:
        estimate = estimate_table_bytes(rows, cols, [rider_directions(p) for p in pieces.values()])
        if estimate > MAX_TABLE_BYTES:
            mb = 2**20
            over(
                "engine.pieces",
                f"the move tables would take about {estimate // mb} MB, over the limit of "
                f"{MAX_TABLE_BYTES // mb} MB: use a smaller board or fewer piece kinds",
            )
    if problems:
        raise OverLimit(problems)
