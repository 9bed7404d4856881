"""Subcommand `hordes selfplay`: engine-versus-engine games at scale, resumable (see docs/ray.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from hordes.errors import HordesError

DESCRIPTION = """\
Play GAMES games of VARIANT between two players (by default the engine against itself), each from
its own opening, on --workers local processes or on Ray, and append each finished game to
OUT/games.pgn (tags Variant, Result, Termination, PlyCount, White, Black, TimeControl, GameId).
OUT/run.json holds the run's settings: the same command with the same --out resumes an interrupted
run, and a larger --games extends it. Options left out on a resume take the run's stored values.
A player is 'hordes' (options: level=1..8, depth=N, nodes=N, movetime=SECONDS, hash=MB),
'random', 'greedy' or an engine command such as 'fairy-stockfish:Skill Level=3'."""


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "selfplay",
        help="engine self-play at scale, resumable, on processes or Ray",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("variant", help="variant name")
    p.add_argument("--games", type=int, required=True, help="games in the run (numbered 1..GAMES)")
    p.add_argument("--out", type=Path, required=True, help="directory of the run (run.json, games.pgn)")
    p.add_argument("--tc", help="time control SECONDS+INCREMENT, or 'none' (default 2+0.02)")
    p.add_argument("--player", help="player spec (default: hordes); White in odd games")
    p.add_argument("--opponent", help="opponent spec (default: the player); White in even games")
    book = p.add_mutually_exclusive_group()
    book.add_argument("--book-plies", type=int, help="plies of the random opening book (default 4)")
    book.add_argument("--openings", type=Path, help="file of openings: a FEN or UCI moves per line")
    p.add_argument("--max-plies", type=int, help="adjudicate a draw after this many plies (default 400)")
    p.add_argument("--seed", type=int, help="seed of the openings and the players (default: random)")
    p.add_argument("--workers", type=int, default=1, help="games played at once (default 1: in process)")
    p.add_argument(
        "--ray",
        metavar="local|auto|ADDRESS",
        help="play on Ray: 'local' (a private cluster of --workers CPUs), 'auto' or ray://HOST:10001",
    )
    p.add_argument("--quiet", action="store_true", help="no progress line")
    p.set_defaults(func=_cmd_selfplay)


def _cmd_selfplay(args: argparse.Namespace) -> int:
    from hordes.engine.match import load_openings
    from hordes.selfplay import store
    from hordes.selfplay.runner import SelfplayConfig, print_progress, run_selfplay, summary
    from hordes.variants import load_variant

    variant = load_variant(args.variant).slug
    if args.games < 1:
        raise HordesError("--games must be at least 1")
    if args.out.exists() and not args.out.is_dir():
        raise HordesError(f"--out {args.out}: not a directory")
    # A resumed run takes what the command line leaves out from its run.json.
    stored = store.read_run(args.out) if args.out.is_dir() else None
    plan = stored.plan if stored else None
    config = SelfplayConfig(variant=variant, games=args.games, out=args.out)
    if args.tc is not None:
        config.tc = store.parse_tc(args.tc)
    elif plan:
        config.tc = plan.tc
    config.player = args.player or (plan.player if plan else config.player)
    config.opponent = args.opponent or (plan.opponent if plan else None)
    if args.openings is not None:
        config.openings = load_openings(args.openings, variant)
    elif args.book_plies is not None:
        config.book_plies = args.book_plies
    elif plan:
        config.book_plies = plan.book_plies
        config.openings = list(plan.openings) if plan.openings is not None else None
    if args.max_plies is not None:
        config.max_plies = args.max_plies
    elif plan:
        config.max_plies = plan.max_plies
    if plan:
        config.time_margin = plan.time_margin
    config.seed = args.seed
    config.workers = args.workers
    config.ray = args.ray
    show = None if args.quiet else print_progress(sys.stderr)
    try:
        result = run_selfplay(config, show)
    except KeyboardInterrupt:
        if show is not None:
            print(f"\ninterrupted: run the same command to resume ({args.out})", file=sys.stderr)
        raise
    if show is not None and sys.stderr.isatty() and result.played:
        sys.stderr.write("\n")
    for note in result.notes:
        print(f"note: {note}", file=sys.stderr)
    print(summary(result))
    return 0
