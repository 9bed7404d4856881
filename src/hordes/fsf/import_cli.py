"""`hordes import fairy-stockfish FILE.ini [SECTION…] [--out DIR]`: variant documents from a
Fairy-Stockfish variants.ini, one file per section; the sections it cannot express are listed with
the keys that stop them."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from hordes.fsf.importer import import_text
from hordes.fsf.ini import MAX_INI_BYTES
from hordes.textfiles import read_text_file


def _cmd_import(args: argparse.Namespace) -> int:
    """Status 0 when every section was written, 1 when some could not be expressed."""
    text = read_text_file(Path(args.file), max_bytes=MAX_INI_BYTES)  # errors name the file (status 2)
    results = import_text(text, args.file, args.sections or None)
    out = Path(args.out)
    refused = 0
    for result in results:
        if result.document is None:
            refused += 1
            print(f"[{result.name}]: not imported, no document written:", file=sys.stderr)
            for problem in result.problems:
                print(f"  {problem}", file=sys.stderr)
            continue
        out.mkdir(parents=True, exist_ok=True)
        path = out / f"{result.slug}.md"
        path.write_text(result.document, encoding="utf-8")
        print(f"[{result.name}]: wrote {path}")
    return 1 if refused else 0


def register(subparsers: Any) -> None:
    """Add the `import` subcommand to the `hordes` command line."""
    p = subparsers.add_parser(
        "import",
        help="write variant documents from a Fairy-Stockfish variants.ini",
    )
    p.add_argument("source", choices=["fairy-stockfish"], help="the format to read")
    p.add_argument("file", metavar="FILE.ini", help="a Fairy-Stockfish variants.ini")
    p.add_argument("sections", nargs="*", metavar="SECTION", help="sections to import (default: all)")
    p.add_argument("--out", default=".", metavar="DIR", help="directory for the documents (default: .)")
    p.set_defaults(func=_cmd_import)
