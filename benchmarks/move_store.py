"""CPU of a human move in GameService.move on a real PostgreSQL: through the driver's cursor (today)
against through SQLAlchemy's execution (the form before, the peer), in one process.

    .venv/bin/python benchmarks/move_store.py              # 300 games of 8 moves per form, 3 rounds
    .venv/bin/python benchmarks/move_store.py --games 100 --rounds 2

It starts a throwaway PostgreSQL cluster (the tests' tests/pg_cluster.py; Debian's postgresql),
creates games between two people, and plays the same 8 opening moves in each, one move per game in
turn, as `GameService.move` is called for a move sent over the websocket: read the game, check the
move, store it. Each round measures both forms on fresh games, alternating which goes first, by CPU
time of this process (`time.process_time`): the server's own time, not PostgreSQL's. The two forms
must leave the same moves and game rows behind (checked at the end).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import sqlalchemy as sa
from tests.pg_cluster import Cluster, bin_dir  # the tests' throwaway PostgreSQL

from hordes.web import db, move_store
from hordes.web.games import GameService

LINE = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5", "d2d3", "d7d6"]


def play(service: GameService, games: int) -> tuple[float, list[str]]:
    """CPU seconds per move over `games` new games of LINE; their ids."""
    made = [service.create("chess", paired=True, creator="white") for _ in range(games)]
    began = time.process_time()
    for i, uci in enumerate(LINE):
        side = "white" if i % 2 == 0 else "black"
        for game in made:
            service.move(game.id, game.tokens[side], uci)
    return (time.process_time() - began) / (games * len(LINE)), [g.id for g in made]


def through_sqlalchemy(conn: sa.Connection) -> Any:
    return None  # move_store then takes SQLAlchemy's path, as before


def stored(engine: sa.Engine, ids: list[str]) -> list[tuple[Any, ...]]:
    """What the games left: each game's row (less its id, tokens and times) and its moves."""
    g, m = db.games, db.moves
    out: list[tuple[Any, ...]] = []
    with engine.connect() as conn:
        for game_id in ids:
            row = conn.execute(sa.select(g.c.fen, g.c.ply, g.c.status).where(g.c.id == game_id)).one()
            moves = conn.execute(sa.select(m.c.ply, m.c.uci, m.c.san, m.c.fen).where(m.c.game_id == game_id))
            out.append((tuple(row), tuple(tuple(r) for r in moves.all())))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    programs = bin_dir()
    if programs is None:
        print("PostgreSQL is not installed (Debian's postgresql package)", file=sys.stderr)
        return 1
    cluster = Cluster(programs)
    cluster.start()
    try:
        engine = db.make_engine(cluster.create_database("bench"))
        db.migrate(engine)
        service = GameService(engine, cache_size=4 * args.games)
        driver = move_store._driver
        play(service, 50)  # warm up both: prepared statements, caches
        move_store._driver = through_sqlalchemy
        play(service, 50)
        move_store._driver = driver
        print(f"{args.games} games x {len(LINE)} moves per form and round, CPU ms per move of this process")
        print("| round | through SQLAlchemy (before) | through the driver (now) | ratio |")
        print("|---|---|---|---|")
        old_all, new_all = [], []
        for r in range(args.rounds):
            order = [through_sqlalchemy, driver] if r % 2 == 0 else [driver, through_sqlalchemy]
            times, ids = {}, {}
            for form in order:
                move_store._driver = form
                times[form], ids[form] = play(service, args.games)
            move_store._driver = driver
            old, new = times[through_sqlalchemy], times[driver]
            old_all.append(old)
            new_all.append(new)
            print(f"| {r + 1} | {old * 1e3:.3f} | {new * 1e3:.3f} | {old / new:.2f} |")
            if stored(engine, ids[through_sqlalchemy]) != stored(engine, ids[driver]):
                raise SystemExit("the two forms stored different games")
        old, new = min(old_all), min(new_all)
        print(
            f"best of {args.rounds}: {old * 1e3:.3f} ms before, {new * 1e3:.3f} ms now, ratio {old / new:.2f}"
        )
        engine.dispose()
    finally:
        cluster.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
