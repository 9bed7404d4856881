"""`hordes pgn FILE`: validate and summarise a PGN file, or print the position after a given ply.

Exit status: 0 when every game reads cleanly, 1 when some game is broken (each broken game is listed
with its game number, move number, line and token; reading goes on with the next game), 2 for a user
error (no such file, a file that is not UTF-8 text, no such game or ply), printed on one line by
hordes.cli.main.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from hordes.errors import HordesError
from hordes.notation.pgn import Game, pgn_variant_name, read_games


class PgnCommandError(HordesError):
    """A user error of `hordes pgn`: the game or ply asked for does not exist."""


def register(subparsers: Any) -> None:
    """Add the `pgn` subcommand (called by hordes.cli for every module in COMMAND_MODULES)."""
    p = subparsers.add_parser(
        "pgn",
        help="check and summarise a PGN file, or replay a game to a ply",
        description="Read every game of a PGN file (of any variant); report games, variants, results and "
        "the games that cannot be read. With --fen-at, print the FEN after a ply of one game.",
    )
    p.add_argument("file", help="PGN file ('-' for standard input)")
    p.add_argument(
        "--fen-at", type=int, metavar="N", help="print the FEN after ply N (0 = start; -1 = the end)"
    )
    p.add_argument("--game", type=int, default=1, metavar="K", help="the game for --fen-at (default 1)")
    p.add_argument("--quiet", action="store_true", help="print only the errors")
    p.set_defaults(func=run)


def _games(path: str) -> list[Game]:
    return list(_games_iter(path))


def run(args: argparse.Namespace) -> int:
    if args.fen_at is not None:
        return _fen_at(args)
    games = _games(args.file)
    broken = [g for g in games if g.error is not None]
    if not args.quiet:
        variants = Counter(pgn_variant_name(g._variant) if g._variant else "?" for g in games)
        results = Counter(g.result for g in games)
        plies = sum(len(g.mainline_moves()) for g in games)
        print(f"{args.file}: {len(games)} games, {plies} plies, {len(broken)} with errors")
        if games:
            print("variants: " + ", ".join(f"{name} {n}" for name, n in variants.most_common()))
            print("results:  " + ", ".join(f"{r} {n}" for r, n in sorted(results.items())))
    for game in broken:
        print("error: " + " ".join(str(game.error).splitlines()))
    return 1 if broken else 0


def _fen_at(args: argparse.Namespace) -> int:
    if args.game < 1:
        raise PgnCommandError(f"--game counts from 1, not {args.game}")
    game = None
    for i, g in enumerate(_games_iter(args.file), 1):
        if i == args.game:
            game = g
            break
    if game is None:
        raise PgnCommandError(f"{args.file} has no game {args.game}")
    nodes = list(game.mainline())
    ply = args.fen_at if args.fen_at >= 0 else len(nodes) + 1 + args.fen_at
    if not 0 <= ply <= len(nodes):
        detail = f" (stopped by: {game.error})" if game.error is not None else ""
        have = f"game {args.game} has {len(nodes)} readable plies"
        raise PgnCommandError(f"{have}, no ply {args.fen_at}{detail}")
    if game.error is not None and game._variant is None:
        raise game.error
    board = game.start_board()
    for node in nodes[:ply]:
        node._push(board)
    print(board.fen())
    return 0


def _games_iter(path: str) -> Iterator[Game]:
    """The games of the file (or standard input); a file that cannot be read raises
    UnreadableFileError, which hordes.cli.main prints on one line."""
    if path == "-":
        return read_games(sys.stdin)
    return read_games(Path(path))
