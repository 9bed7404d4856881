"""`hordes export fairy-stockfish VARIANT…`: print a Fairy-Stockfish variants.ini for documents."""

from __future__ import annotations

import argparse
from typing import Any

from hordes.fsf.export import CURRENT, DIALECTS, export_variants
from hordes.variants import load_variant


def register(subparsers: Any) -> None:
    """Add the `export` subcommand (called by hordes.cli for every module in COMMAND_MODULES)."""
    p = subparsers.add_parser(
        "export",
        help="write a Fairy-Stockfish variants.ini for variant documents",
        description="Print a Fairy-Stockfish variants.ini section for each variant (a built-in name or a "
        "document path). A document that uses a mechanism Fairy-Stockfish lacks is refused with the "
        "mechanism named, and nothing is printed. Load the output with "
        "'setoption name VariantPath value FILE' and select it with UCI_Variant.",
    )
    p.add_argument("format", choices=["fairy-stockfish"], help="the target format")
    p.add_argument("variants", nargs="+", metavar="VARIANT", help="variant name or document path")
    p.add_argument(
        "--dialect",
        choices=DIALECTS,
        default=CURRENT,
        help="the ini keys to write: 'current' (recent releases, pyffish 0.0.90; the default) or '11.1' "
        "(Debian's fairy-stockfish 11.1)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # Everything is built before anything is printed: a refused document leaves stdout empty.
    text = export_variants([load_variant(name) for name in args.variants], args.dialect)
    print(text, end="")
    return 0
