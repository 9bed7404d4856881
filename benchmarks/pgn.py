"""PGN reading speed: games/s to parse and replay 1,000 Orda games, beside python-chess on 1,000 chess games.

Usage::

    python benchmarks/pgn.py [--games 1000] [--plies 120] [--repeat 3] [--profile]

Both files are made here, deterministically, by the same random-game generator (seeded; a capture half
of the time, at most --plies plies) and written by hordes' PGN writer, so the two sides read games of
similar length. "Parse and replay" means reading every game, moves checked for legality, and taking
the final position of its main line: `hordes.notation.read_game` + `game.end().board()` against
`chess.pgn.read_game` + `game.end().board()`. The best of --repeat runs is reported, and the ratio of
the times (goal: hordes within 1.5x of python-chess).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import chess.pgn

from hordes import Board
from hordes.core import movegen
from hordes.notation import Game, read_game, write_game


def make_pgn(variant: str, games: int, plies: int, seed: int) -> str:
    rng = random.Random(seed)
    out = []
    for n in range(games):
        board = Board(variant)
        for _ in range(plies):
            legal = movegen.generate_legal(board)
            if not legal or board.outcome() is not None:
                break
            captures = [m for m in legal if board.mailbox[m >> 10 & 1023] >= 0]
            board.push_int(rng.choice(captures) if captures and rng.random() < 0.5 else rng.choice(legal))
        game = Game.from_board(board, {"Event": f"bench {n + 1}", "White": "a", "Black": "b"})
        out.append(write_game(game))
    return "\n".join(out)


def read_hordes(text: str) -> int:
    stream = io.StringIO(text)
    plies = 0
    while (game := read_game(stream)) is not None:
        if game.error is not None:
            raise game.error
        plies += len(game.end().board().move_stack)
    return plies


def read_python_chess(text: str) -> int:
    stream = io.StringIO(text)
    plies = 0
    while (game := chess.pgn.read_game(stream)) is not None:
        if game.errors:
            raise game.errors[0]
        plies += len(game.end().board().move_stack)
    return plies


def best_of(fn: object, text: str, repeat: int) -> tuple[float, int]:
    best = float("inf")
    plies = 0
    for _ in range(repeat):
        start = time.perf_counter()
        plies = fn(text)  # type: ignore[operator]
        best = min(best, time.perf_counter() - start)
    return best, plies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--plies", type=int, default=120)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--profile", action="store_true", help="profile hordes' reader instead")
    args = parser.parse_args()
    orda = make_pgn("orda", args.games, args.plies, seed=1)
    chess_text = make_pgn("chess", args.games, args.plies, seed=2)
    if args.profile:
        prof = cProfile.Profile()
        prof.runcall(read_hordes, orda)
        pstats.Stats(prof).sort_stats("tottime").print_stats(15)
        return
    t_orda, p_orda = best_of(read_hordes, orda, args.repeat)
    t_hchess, p_hchess = best_of(read_hordes, chess_text, args.repeat)
    t_pc, p_pc = best_of(read_python_chess, chess_text, args.repeat)
    n = args.games
    versions = f"Python {sys.version.split()[0]}, python-chess {chess.__version__}"
    print(f"{n} games each, best of {args.repeat}; {versions}")
    for label, t, p in (
        ("hordes  Orda ", t_orda, p_orda),
        ("hordes  chess", t_hchess, p_hchess),
        ("python-chess ", t_pc, p_pc),
    ):
        print(f"{label}  {n / t:8.0f} games/s  {p / t:9.0f} plies/s  ({p / n:.0f} plies/game)")
    print(f"ratio, time per game: hordes Orda / python-chess = {t_orda / t_pc:.2f}x (goal <= 1.5x)")
    print(f"ratio, time per ply:  hordes Orda / python-chess = {(t_orda / p_orda) / (t_pc / p_pc):.2f}x")


if __name__ == "__main__":
    main()
