"""The `hordes` command line. User errors print one line and exit with status 2, never a traceback."""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from collections.abc import Sequence
from typing import Any

from hordes._version import __version__
from hordes.core.position import Board
from hordes.core.rules import Variant
from hordes.errors import HordesError, VariantError, quoted
from hordes.variants import REGISTRY, builtin_variants, fairy_variants, load_variant
from hordes.variants.loader import line_of


def _cmd_variants(args: argparse.Namespace) -> int:
    for v in builtin_variants():
        names = ", ".join(v.aliases)
        print(f"{v.slug:<10} {v.title}  —  {v.summary}" + (f"  (also: {names})" if names else ""))
    if args.all:
        print("\nFairy-Stockfish's variants, as documents (docs/fairy-stockfish.md):")
        for v in fairy_variants():
            print(f"{v.slug:<14} {v.title}")
    else:
        print(f"\n... and {len(fairy_variants())} of Fairy-Stockfish's variants: hordes variants --all")
    return 0


def _cmd_check(args: argparse.Namespace) -> int:
    """Every problem of the document on its own line (file:line: key: problem), status 2 if any."""
    try:
        variant = REGISTRY.load(args.file)
        _check_evaluation(variant)
        _check_examples(variant)
    except VariantError as exc:
        source = exc.source  # this document's problems first, in the order of their lines
        for error in sorted(exc.errors, key=lambda e: (e.source != source, e.source, e.line)):
            print(f"hordes: error: {_one_line(str(error))}", file=sys.stderr)
        return 2
    board = Board(variant)
    geo = variant.geometry
    print(
        f"{args.file}: ok — {variant.title} ({variant.slug}), {geo.cols}x{geo.rows}, "
        f"{len(variant.pieces)} piece kinds, {board.legal_moves.count()} legal first moves"
    )
    return 0


def _check_evaluation(variant: Variant) -> None:
    """The engine's section is read by the engine: check it here too, with the line of its key."""
    from hordes.engine.eval_params import parse_params

    try:
        parse_params(variant)
    except VariantError as exc:
        raise VariantError(exc.source, exc.key, exc.problem, line_of(variant, exc.key)) from None


def _check_examples(variant: Variant) -> None:
    """Play the rules page's examples and test their claims (hordes.examples), each problem at the
    line of its example."""
    from hordes.examples import check, examples

    errors = []
    for ex in examples(variant):
        key = f"examples.{ex.name}"
        for problem in check(variant, ex):
            problem = problem.removeprefix(f"example {ex.name!r}: ")
            errors.append(VariantError(variant.source, key, problem, line_of(variant, key)))
    if errors:
        errors[0].errors = errors
        raise errors[0]


def _cmd_perft(args: argparse.Namespace) -> int:
    board = Board(load_variant(args.variant), args.fen)
    start = time.perf_counter()
    if args.divide:
        total = 0
        for move in board.legal_moves:
            board.push(move)
            n = board.perft(args.depth - 1)
            board.pop()
            total += n
            print(f"{move.uci()}: {n}")
        print()
    else:
        total = board.perft(args.depth)
    elapsed = time.perf_counter() - start
    rate = f"  ({total / elapsed:,.0f} nodes/s)" if elapsed > 0 else ""
    print(f"perft {args.depth}: {total}{rate}" if not args.quiet else total)
    return 0


# Each layer above the core adds its own subcommands: a module with `register(subparsers)`.
COMMAND_MODULES: tuple[str, ...] = (
    "hordes.notation.cli",
    "hordes.play_cli",
    "hordes.engine.cli",
    "hordes.site_cli",
    "hordes.web.cli",
    "hordes.selfplay.cli",
    "hordes.balance.cli",
    "hordes.tune.cli",
    "hordes.fsf.cli",
    "hordes.fsf.import_cli",
)


class _Commands:
    """The `add_parser` of the subcommands, as the command modules see it: a subcommand that brings
    no description of its own starts its `--help` with its one-line summary from `hordes --help`."""

    def __init__(self, action: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
        self._action = action

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser:
        summary = kwargs.get("help")
        if kwargs.get("description") is None and summary:
            kwargs["description"] = summary[:1].upper() + summary[1:] + "."
        return self._action.add_parser(name, **kwargs)

    def __getattr__(self, name: str) -> Any:  # everything else as argparse has it
        return getattr(self._action, name)


class _HelpFormatter(argparse.HelpFormatter):
    """argparse measures the command names two columns short of where it prints them (one indent
    more), so a long name such as `engine-worker` pushed its summary onto a line of its own."""

    def add_argument(self, action: argparse.Action) -> None:
        super().add_argument(action)
        if isinstance(action, argparse._SubParsersAction):
            longest = max((len(sub.dest) for sub in action._get_subactions()), default=0)
            self._action_max_length = max(self._action_max_length, longest + self._current_indent + 2)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hordes",
        description="Chess variants: rules, notation and engine.",
        formatter_class=_HelpFormatter,
    )
    parser.add_argument(
        "--version", action="version", version=f"hordes {__version__}", help="print the version and exit"
    )
    sub = _Commands(parser.add_subparsers(dest="command", metavar="COMMAND"))
    p = sub.add_parser("variants", help="list the built-in variants")
    p.add_argument("--all", action="store_true", help="also list the Fairy-Stockfish variants we ship")
    p.set_defaults(func=_cmd_variants)
    p = sub.add_parser("check", help="validate a variant document")
    p.add_argument("file", help="path to a variant document (.md)")
    p.set_defaults(func=_cmd_check)
    p = sub.add_parser("perft", help="count the legal move tree")
    p.add_argument("variant", help="variant name or document path")
    p.add_argument("depth", type=int, help="plies to count")
    p.add_argument("--fen", help="start from this position instead of the variant's start")
    p.add_argument("--divide", action="store_true", help="print the count below each first move")
    p.add_argument("--quiet", action="store_true", help="print only the number")
    p.set_defaults(func=_cmd_perft)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def _one_line(message: str) -> str:
    """A message as one line (a YAML or FEN problem may quote text with line breaks)."""
    return " ".join(message.splitlines())


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        return int(args.func(args))
    except HordesError as exc:
        print(f"hordes: error: {_one_line(str(exc))}", file=sys.stderr)
        return 2
    except OSError as exc:
        name = f": {quoted(str(exc.filename))}" if exc.filename is not None else ""
        print(f"hordes: error: {_one_line(exc.strerror or str(exc))}{name}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
