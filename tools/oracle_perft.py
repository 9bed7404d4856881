"""Perft with Fairy-Stockfish's Python binding (pyffish), the project's rules oracle.

Usage::

    python tools/oracle_perft.py VARIANT DEPTH FEN [--all] [--divide] [--config PATH]

Counts the leaf nodes of the legal-move tree of depth DEPTH below FEN with ``pyffish.legal_moves``,
bulk-counting the last ply (the number of legal moves at depth DEPTH - 1). Each node below the root is
reached by replaying its move list from FEN (``legal_moves(variant, fen, moves)``), one pyffish call per
interior node; this gives the same counts as chaining ``get_fen`` (no rule of chess, orda or khans lets
the history of four plies change the legal moves) at half the calls. A position where the game is
already over (campmate, checkmate, stalemate) has no legal moves in Fairy-Stockfish, so it adds 0 at
every deeper ply.

The variant config (``orda``, ``khans``) is loaded before any call that names the variant, because
pyffish kills the process (segmentation fault) when asked about a variant it does not know; an unknown
variant name is rejected here instead.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pyffish as sf

REPO_ROOT = Path(__file__).resolve().parent.parent
# The oracle's config: the repository's Orda and Khan's Chess for a recent Fairy-Stockfish.
DEFAULT_CONFIG = REPO_ROOT / "tests" / "data" / "orda.ini"


def load_config(path: Path | None = DEFAULT_CONFIG) -> None:
    """Load a Fairy-Stockfish variant config (ini text) into pyffish, if ``path`` names a file."""
    if path is not None and path.is_file():
        sf.load_variant_config(path.read_text())


def check_variant(variant: str) -> None:
    """Raise ValueError for a variant pyffish does not know (asking pyffish itself would crash)."""
    if variant not in sf.variants():
        raise ValueError(f"unknown variant {variant!r} (load its config first)")


def perft_counts(variant: str, fen: str, depth: int) -> list[int]:
    """Perft of every depth from 1 to ``depth`` in one traversal: element ``i`` is perft(i + 1)."""
    counts = [0] * depth

    def visit(moves: list[str], ply: int) -> None:
        legal = sf.legal_moves(variant, fen, moves)
        counts[ply] += len(legal)
        if ply + 1 < depth:
            for move in legal:
                visit([*moves, move], ply + 1)

    if depth > 0:
        visit([], 0)
    return counts


def perft(variant: str, fen: str, depth: int) -> int:
    """Number of leaf nodes ``depth`` plies below ``fen``; perft(0) is 1."""
    return perft_counts(variant, fen, depth)[-1] if depth > 0 else 1


def divide(variant: str, fen: str, depth: int) -> dict[str, int]:
    """Perft of ``depth - 1`` below each legal move of ``fen`` (``depth`` >= 1), keyed by UCI move."""
    result: dict[str, int] = {}
    for move in sorted(sf.legal_moves(variant, fen, [])):
        child = sf.get_fen(variant, fen, [move])
        result[move] = perft(variant, child, depth - 1)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Perft with pyffish (Fairy-Stockfish).")
    parser.add_argument("variant", help="Fairy-Stockfish variant name, e.g. chess, orda, khans")
    parser.add_argument("depth", type=int, help="depth in plies (>= 0)")
    parser.add_argument("fen", help="FEN of the root position (quote it)")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--all", action="store_true", help="print 'perft D N' for every depth D <= DEPTH")
    group.add_argument("--divide", action="store_true", help="print the count below each root move")
    parser.add_argument(
        "--config",
        type=Path,
        default=DEFAULT_CONFIG,
        help=f"variant config to load first (default: {DEFAULT_CONFIG}, if present)",
    )
    args = parser.parse_args(argv)

    if args.depth < 0:
        parser.error("depth must be >= 0")
    if args.config != DEFAULT_CONFIG and not args.config.is_file():
        parser.error(f"no such config file: {args.config}")
    load_config(args.config)
    try:
        check_variant(args.variant)
    except ValueError as exc:
        parser.error(str(exc))
    if sf.validate_fen(args.fen, args.variant) != sf.FEN_OK:
        parser.error(f"pyffish rejects the FEN for {args.variant}: {args.fen}")

    if args.divide and args.depth >= 1:
        counts = divide(args.variant, args.fen, args.depth)
        for move, count in counts.items():
            print(f"{move}: {count}")
        print()
        print(sum(counts.values()))
    elif args.all:
        for depth, count in enumerate(perft_counts(args.variant, args.fen, args.depth), start=1):
            print(f"perft {depth} {count}")
    else:
        print(perft(args.variant, args.fen, args.depth))
    return 0


if __name__ == "__main__":
    sys.exit(main())
