"""Build the API reference from the docstrings with pdoc: `make docs` (or this script) writes HTML
pages to build/api/ (not committed). Any warning pdoc gives (a docstring it cannot render, a type it
cannot resolve) fails the build, so `make test` catches a broken reference cheaply.

    .venv/bin/python tools/api_docs.py [--out DIR] [MODULE ...]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

# The library's public face, in reading order. Command-line plumbing (the */cli.py modules) and the
# web app's internals are left out: they are used through `hordes --help` and docs/web.md.
# pdoc adds a package's submodules whose names are in its `__all__`: hordes.notation brings
# hordes.notation.san, hordes.engine brings hordes.engine.search (naming them again is a warning).
MODULES: tuple[str, ...] = (
    "hordes",
    "hordes.core.position",
    "hordes.core.rules",
    "hordes.core.fen",
    "hordes.core.betza",
    "hordes.core.geometry",
    "hordes.variants",
    "hordes.notation",
    "hordes.notation.pgn",
    "hordes.errors",
    "hordes.engine",
    "hordes.engine.evaluate",
    "hordes.engine.levels",
    "hordes.engine.limits",
    "hordes.engine.client",
    "hordes.engine.match",
    "hordes.uci",
    "hordes.selfplay",
    "hordes.svg",
    "hordes.play",
)

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "build" / "api"


def build(out: Path, modules: tuple[str, ...] = MODULES) -> list[str]:
    """Write the pages for `modules` into `out`; return pdoc's warnings, one line each.

    pdoc reads signatures and source from the Python modules, which the compiled build's extensions
    do not carry: it runs in a child process on the pure source (HORDES_PURE=1, hordes.buildinfo)."""
    env = {**os.environ, "HORDES_PURE": "1"}
    cmd = [sys.executable, __file__, "--child", "--out", str(out), *modules]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return [f"pdoc failed: {done.stderr.strip().splitlines()[-1:] or done.returncode}"]
    problems: list[str] = json.loads(done.stdout)
    return problems


def _build_here(out: Path, modules: tuple[str, ...]) -> list[str]:
    import pdoc
    import pdoc.render

    pdoc.render.configure(docformat="markdown", footer_text="hordes API reference", search=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pdoc.pdoc(*modules, output_directory=out)
    return [" ".join(str(w.message).split()) for w in caught]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build the API reference (pdoc) and fail on warnings.")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output directory (default build/api)")
    parser.add_argument("modules", nargs="*", help="modules to document (default: the public library)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)  # build(): pdoc runs here
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(_build_here(args.out, tuple(args.modules) or MODULES)))
        return 0
    problems = build(args.out, tuple(args.modules) or MODULES)
    for problem in problems:
        print(f"api docs: {problem}", file=sys.stderr)
    if problems:
        print(f"api docs: failed with {len(problems)} warning(s), listed above", file=sys.stderr)
        return 1
    print(f"api docs: {args.out / 'index.html'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
