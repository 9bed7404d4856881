"""`hordes balance`: is a variant balanced? A report on a body of games, in the terminal and as files."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from hordes.errors import HordesError


def register(subparsers: Any) -> None:
    """Add the `balance` subcommand (called by hordes.cli for every module in COMMAND_MODULES)."""
    p = subparsers.add_parser(
        "balance",
        help="result rates, endings, lengths and openings of games",
        description="Read PGN games (a file, or every *.pgn below a directory) and report, per variant, "
        "White/Black/draw rates with 95 % Wilson intervals, White's score and its Elo equivalent, how the "
        "games ended, their lengths and the most common openings. Broken games are listed on standard "
        "error and left out.",
    )
    p.add_argument("paths", nargs="+", metavar="DIR_OR_PGN", help="a PGN file or a directory of them")
    p.add_argument("--out", metavar="OUT_DIR", help="also write index.html, report.md and PNG plots here")
    p.add_argument("--variant", metavar="NAME", help="only the games of this variant")
    p.add_argument(
        "--opening-plies", type=int, default=4, metavar="N", help="plies that make an opening (default 4)"
    )
    p.add_argument("--top", type=int, default=10, metavar="K", help="openings to show (default 10)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # Imported here: matplotlib is slow to load and other subcommands never need it.
    from hordes.balance.collect import collect
    from hordes.balance.report import render_text, summarise

    if args.top < 1:
        raise HordesError(f"--top must be at least 1, not {args.top}")
    data = collect(args.paths, variant=args.variant, opening_plies=args.opening_plies)
    for broken in data.broken:
        print(f"hordes balance: skipped {broken}", file=sys.stderr)
    report = summarise(data, top=args.top)
    sys.stdout.write(render_text(report))
    if args.out:
        from hordes.balance.output import write_report

        files = write_report(report, args.out)
        print(f"\nWrote {files[0]}, {files[1]} and {len(files) - 2} plots.")
    return 0
