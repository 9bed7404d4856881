"""`hordes site OUT_DIR`: write the variant pages (HTML, inline SVG diagrams, one stylesheet)."""

from __future__ import annotations

import argparse
from typing import Any

from hordes.variants import builtin_variants, load_variant


def _cmd_site(args: argparse.Namespace) -> int:
    from hordes.site import build_site  # markdown is only needed when pages are built

    variants = [load_variant(name) for name in args.variant] if args.variant else builtin_variants()
    written = build_site(args.out_dir, variants)
    print(f"wrote {len(written)} files to {args.out_dir} ({len(variants)} variant pages, index, stylesheet)")
    return 0


def register(subparsers: Any) -> None:
    """Add the `site` subcommand to the `hordes` command line."""
    p = subparsers.add_parser("site", help="write HTML pages for the variants, with diagrams")
    p.add_argument("out_dir", metavar="OUT_DIR", help="directory to write into (created if missing)")
    p.add_argument(
        "--variant",
        action="append",
        metavar="NAME",
        help="a variant name or document path; repeat for several (default: every built-in variant)",
    )
    p.set_defaults(func=_cmd_site)
