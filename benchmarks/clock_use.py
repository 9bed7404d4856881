"""How two players spend a clock: the seconds each has left at plies 40, 80 and 120 and at the end of
a few games, played as `hordes match` plays them (the same random openings, colours alternating,
the clock charged with the wall time of each move, the increment added after it).

    .venv/bin/python benchmarks/clock_use.py                     # chess, 6 games at 5+0.05
    .venv/bin/python benchmarks/clock_use.py --variant orda --games 4 \
        --opponent "/usr/games/fairy-stockfish:Skill Level=6,name=fsf"

It measures the time manager (engine/limits.py), not strength: what is left on the clock at the end
of a game was never used to think. Figures in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import statistics
import time

from hordes import Board
from hordes.engine.match import random_book
from hordes.engine.players import Clock, parse_player
from hordes.variants import load_variant

MARKS = (40, 80, 120)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="chess")
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--base", type=float, default=5.0, help="seconds on each clock at the start")
    parser.add_argument("--inc", type=float, default=0.05, help="seconds added after each move")
    parser.add_argument("--engine", default="hordes")
    parser.add_argument("--opponent", default="/usr/games/fairy-stockfish:Skill Level=6,name=fsf")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--max-plies", type=int, default=400)
    args = parser.parse_args()
    variant = load_variant(args.variant)
    left: dict[str, list[list[float]]] = {"engine": [[] for _ in MARKS], "opponent": [[] for _ in MARKS]}
    print(f"{args.variant}, {args.base:g}+{args.inc:g}: seconds left (engine / opponent)")
    for game, opening in enumerate(random_book(args.variant, args.games, 4, args.seed)):
        board = Board(variant, opening.fen)
        for text in opening.moves:
            board.push_uci(text)
        players = [parse_player(args.engine, seed=game), parse_player(args.opponent, seed=game)]
        ours = game % 2  # the engine's colour: White in the even games, Black in the odd ones
        if ours:
            players.reverse()
        seats = {ours: "engine", ours ^ 1: "opponent"}
        try:
            for player in players:
                player.new_game(board)
            clock = [args.base, args.base]
            row: dict[int, tuple[float, float]] = {}
            plies = 0
            while board.outcome() is None and plies < args.max_plies:
                us = board.side
                started = time.perf_counter()
                move = players[us].move(board, Clock(clock[0], clock[1], args.inc, args.inc))
                clock[us] = max(0.0, clock[us] - (time.perf_counter() - started)) + args.inc
                board.push(move)
                plies += 1
                if plies in MARKS:
                    row[plies] = (clock[ours], clock[ours ^ 1])
                    for who, side in seats.items():
                        left[side][MARKS.index(plies)].append(clock[who])
        finally:
            for player in players:
                player.close()
        marks = "  ".join(f"ply {p}: {a:.2f} / {b:.2f}" for p, (a, b) in row.items())
        print(f"game {game + 1}: {plies} plies  {marks}  end: {clock[ours]:.2f} / {clock[ours ^ 1]:.2f}")
    for i, ply in enumerate(MARKS):
        if left["engine"][i]:
            print(
                f"median at ply {ply} ({len(left['engine'][i])} games): "
                f"{statistics.median(left['engine'][i]):.2f} / {statistics.median(left['opponent'][i]):.2f}"
            )


if __name__ == "__main__":
    main()
