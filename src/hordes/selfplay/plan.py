"""What each self-play game is: its opening, colours and seed, fixed by (run seed, game number).

Game k of a run is the same game plan whenever it is planned, so a resumed or extended run plays
exactly the games the first run would have played. Random-book openings come from one seeded
stream, deduplicated by move sequence: opening k is the k-th distinct sequence of that stream (the
stream's prefix does not depend on how many games are asked for). A variant with fewer distinct
openings of that length than games cycles through the ones it has.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass

from hordes.core import movegen
from hordes.core.position import Board
from hordes.engine.match import GameJob, Opening, TimeControl
from hordes.errors import HordesError
from hordes.variants import Variant, load_variant

# Draws of the stream without a new sequence before the book counts as exhausted.
BOOK_ATTEMPTS = 200


@dataclass(frozen=True)
class GamePlan:
    """Everything a run decides about its games; the same plan gives the same jobs."""

    variant: str
    player: str
    opponent: str
    tc: TimeControl | None
    seed: int
    book_plies: int
    openings: tuple[Opening, ...] | None  # None: the random book
    max_plies: int
    time_margin: float


def derived_seed(seed: int, *parts: object) -> int:
    """A 63-bit seed from the run seed and a label: independent streams that never collide by
    arithmetic (seed + k of one run is not game k + 1 of the run seeded one higher)."""
    text = ":".join(str(p) for p in (seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def distinct_book(variant: str | Variant, count: int, plies: int, seed: int) -> list[Opening]:
    """The first `count` openings of the run's random book (see the module doc); `variant` by name,
    or the Variant itself."""
    v = variant if isinstance(variant, Variant) else load_variant(variant)
    rng = random.Random(derived_seed(seed, "book", v.slug, plies))
    seen: set[tuple[str, ...]] = set()
    found: list[Opening] = []
    misses = 0
    while len(found) < count and misses < BOOK_ATTEMPTS:
        moves = _random_line(Board(v), plies, rng)
        if moves is None or moves in seen:
            misses += 1
            continue
        misses = 0
        seen.add(moves)
        found.append(Opening(None, moves, "random book"))
    if not found:
        raise HordesError(f"no random opening of {plies} plies leaves a {v.slug} game open")
    return [found[k % len(found)] for k in range(count)]


def _random_line(board: Board, plies: int, rng: random.Random) -> tuple[str, ...] | None:
    """A random legal line of `plies` moves that leaves the game open, or None."""
    moves: list[str] = []
    for _ in range(plies):
        legal = movegen.generate_legal(board)
        if not legal:
            return None
        code = rng.choice(legal)
        moves.append(board.uci(board.int_to_move(code)))
        board.push_int(code)
    return tuple(moves) if board.outcome() is None else None


def plan_jobs(plan: GamePlan, game_ids: Sequence[int]) -> list[GameJob]:
    """The jobs of games `game_ids` (numbered from 1). The player has White in odd games, the
    opponent in even ones; each game has its own opening and its own seed."""
    if not game_ids:
        return []
    last = max(game_ids)
    if plan.openings is not None:
        book = [plan.openings[(k - 1) % len(plan.openings)] for k in range(1, last + 1)]
    else:
        book = distinct_book(plan.variant, last, plan.book_plies, plan.seed)
    jobs = []
    for k in game_ids:
        player_white = k % 2 == 1
        white, black = (plan.player, plan.opponent) if player_white else (plan.opponent, plan.player)
        jobs.append(
            GameJob(
                round=k,
                white_spec=white,
                black_spec=black,
                player1_white=player_white,
                variant=plan.variant,
                opening=book[k - 1],
                tc=plan.tc,
                max_plies=plan.max_plies,
                time_margin=plan.time_margin,
                seed=derived_seed(plan.seed, "game", k),
            )
        )
    return jobs
