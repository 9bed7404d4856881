"""Subcommands of the engine layer: `hordes uci` and `hordes match`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from hordes.errors import HordesError


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "uci",
        help="the engine over UCI, for GUIs, cutechess and fairyfishnet",
        description="Run the engine over the UCI protocol on standard input and output, for GUIs, "
        "cutechess and fairyfishnet.",
    )
    p.set_defaults(func=_cmd_uci)

    p = subparsers.add_parser(
        "match",
        help="play an engine-versus-engine match",
        description=(
            "Play a match between two players. A player is 'hordes' (options: level=1..8, hash=MB, depth=N, "
            "nodes=N, movetime=SECONDS), 'random', 'greedy', 'hordes-uci' (this engine as a UCI subprocess) "
            "or an engine command, with options after a colon: "
            "'fairy-stockfish:Skill Level=3'. Fairy-Stockfish is taught the variant from our export of its "
            "document (see 'hordes export'); the PGN records which ini it played from."
        ),
    )
    p.add_argument("engine1")
    p.add_argument("engine2")
    p.add_argument("--variant", default="chess", help="variant name (default: chess)")
    p.add_argument("--games", type=int, default=10, help="number of games (default 10)")
    p.add_argument(
        "--tc", default="10+0.1", help="time control SECONDS+INCREMENT, or 'none' (default 10+0.1)"
    )
    p.add_argument("--concurrency", type=int, default=1, help="games played at once (default 1)")
    p.add_argument("--openings", type=Path, help="file of openings: a FEN or UCI moves per line")
    p.add_argument("--book-plies", type=int, default=4, help="plies of the random book without --openings")
    p.add_argument("--max-plies", type=int, default=400, help="adjudicate a draw after this many plies")
    p.add_argument("--time-margin", type=float, default=0.5, help="seconds of overrun before a time forfeit")
    p.add_argument(
        "--sprt", nargs=4, type=float, metavar=("ELO0", "ELO1", "ALPHA", "BETA"), help="stop by SPRT"
    )
    p.add_argument("--seed", type=int, help="seed for the book and the players' randomness")
    p.add_argument("--pgn", type=Path, help="write the games to this PGN file")
    p.add_argument("--quiet", action="store_true", help="no progress line")
    p.set_defaults(func=_cmd_match)


def _cmd_uci(args: argparse.Namespace) -> int:
    from hordes.uci import main

    return main()


def _cmd_match(args: argparse.Namespace) -> int:
    from hordes.engine.match import (
        MatchConfig,
        Sprt,
        TimeControl,
        load_openings,
        print_progress,
        run_match,
        summary,
    )
    from hordes.variants import load_variant

    if args.games < 1:
        raise HordesError("--games must be at least 1")
    if args.concurrency < 1:
        raise HordesError("--concurrency must be at least 1")
    variant = load_variant(args.variant).slug
    sprt = None
    if args.sprt:
        elo0, elo1, alpha, beta = args.sprt
        if not (0 < alpha < 1 and 0 < beta < 1) or elo0 >= elo1:
            raise HordesError("--sprt: need ELO0 < ELO1 and 0 < ALPHA, BETA < 1")
        sprt = Sprt(elo0, elo1, alpha, beta)
    config = MatchConfig(
        player1=args.engine1,
        player2=args.engine2,
        variant=variant,
        games=args.games,
        tc=None if args.tc.lower() == "none" else TimeControl.parse(args.tc),
        concurrency=args.concurrency,
        openings=load_openings(args.openings, variant) if args.openings else None,
        book_plies=args.book_plies,
        max_plies=args.max_plies,
        time_margin=args.time_margin,
        sprt=sprt,
        seed=args.seed,
        pgn=args.pgn,
    )
    result = run_match(config, None if args.quiet else print_progress(config))
    if not args.quiet and sys.stderr.isatty():
        sys.stderr.write("\n")
    print(summary(config, result))
    return 0
