"""`hordes play VARIANT`: a game in the terminal against the engine, or between two humans."""

from __future__ import annotations

import argparse
import contextlib
import sys
from typing import Any

from hordes.errors import HordesError


def register(subparsers: Any) -> None:
    """Add the `play` subcommand (called by hordes.cli for every module in COMMAND_MODULES)."""
    p = subparsers.add_parser(
        "play",
        help="play in the terminal against the engine, or two humans",
        description="Play in the terminal. Moves are typed in SAN or UCI; type 'help' during the game for "
        "the commands (undo, hint, flip, fen, moves, save FILE.pgn, quit). The board is drawn in colour "
        "with chess symbols on a terminal, in plain letters when NO_COLOR is set or output is piped; "
        "in both, Black's pieces are marked * and a legend names the variant's pieces.",
    )
    p.add_argument(
        "variant", nargs="?", default="chess", help="variant name or document path (default chess)"
    )
    p.add_argument("--level", type=int, default=3, help="engine level 1 (weakest) to 8 (default 3)")
    p.add_argument(
        "--color", choices=("white", "black"), default="white", help="the side you play (default white)"
    )
    p.add_argument("--human-vs-human", action="store_true", help="two players at one keyboard, no engine")
    p.add_argument("--fen", help="start from this position instead of the variant's start")
    p.add_argument(
        "--movetime", type=float, default=5.0, help="most seconds the engine thinks per move (default 5)"
    )
    p.add_argument("--hint-time", type=float, default=1.0, help="seconds the engine spends on a hint")
    p.add_argument("--seed", type=int, help="seed the engine's choices, to replay a game")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from hordes.core.position import Board
    from hordes.core.rules import BLACK, WHITE
    from hordes.play import TerminalGame
    from hordes.variants import load_variant

    if not 1 <= args.level <= 8:
        raise HordesError(f"--level must be between 1 and 8, not {args.level}")
    if args.movetime <= 0 or args.hint_time <= 0:
        raise HordesError("--movetime and --hint-time must be positive")
    board = Board(load_variant(args.variant), args.fen)
    humans = frozenset({WHITE, BLACK}) if args.human_vs_human else frozenset({args.color == "white"})
    if sys.stdin.isatty():
        with contextlib.suppress(ImportError):  # line editing and history for input(), where available
            import readline  # noqa: F401
    game = TerminalGame(
        board,
        humans=humans,
        level=args.level,
        movetime=args.movetime,
        hint_time=args.hint_time,
        seed=args.seed,
    )
    return game.run()
