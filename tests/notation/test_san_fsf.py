"""Differential test of SAN against Fairy-Stockfish (pyffish.get_san), the notation pychess exports.

At every ply of seeded random games in chess, Orda and Khan's Chess, the SAN we write for EVERY legal
move must equal Fairy-Stockfish's, and parse_san of Fairy-Stockfish's SAN must give back that move.
Each pyffish call costs about a millisecond, so the default run plays short games (a ply cap, with
random moves that prefer captures so that promotions, checks and mates come early) and checks whole
games cheaply with one get_san_moves call each; the slow suite plays full games.
"""

from __future__ import annotations

import random

import pytest

from hordes import Board
from hordes.core import movegen
from hordes.notation.san import parse_san_int, san_int
from tests.fsf import oracle

VARIANTS = ["chess", "orda", "khans"]
EVERY_MOVE_GAMES = 6  # per variant, default run: every legal move at every ply
EVERY_MOVE_PLIES = 50
WHOLE_GAMES = 150  # per variant, default run: the played moves of full games, one pyffish call a game
SLOW_GAMES = 12  # every legal move of 12 full games per variant in CI (the suite is oracle-bound; budget)
CHUNKS = 4  # the full games run as this many tests per variant (see test_fsf_differential.CHUNKS)
MAX_PLIES = 300


def _choose(board: Board, legal: list[int], rng: random.Random) -> int:
    """A random move, a capture half of the time when there is one."""
    if rng.random() < 0.5:
        captures = [m for m in legal if board.mailbox[m >> 10 & 1023] >= 0]
        if captures:
            return rng.choice(captures)
    return rng.choice(legal)


def _check_every_move(variant: str, seed: int, max_plies: int) -> int:
    """Compare every legal move of every position of one game; returns the number compared."""
    sf = oracle()
    rng = random.Random(seed)
    board = Board(variant)
    played: list[str] = []
    compared = 0
    for _ in range(max_plies):
        legal = movegen.generate_legal(board)
        if not legal or board.outcome() is not None:
            break
        fen = board.fen()
        for m in legal:
            uci = board.int_to_move(m).uci()
            theirs = sf.get_san(variant, fen, uci)  # type: ignore[attr-defined]
            ours = san_int(board, m, legal)
            where = f"\nvariant {variant} seed {seed}\nFEN {fen}\nmove {uci}\nmoves {' '.join(played)}"
            assert ours == theirs, f"SAN differs: ours {ours!r}, Fairy-Stockfish {theirs!r}{where}"
            assert parse_san_int(board, theirs, legal) == m, f"parse_san({theirs!r}) differs{where}"
            compared += 1
        m = _choose(board, legal, rng)
        played.append(board.int_to_move(m).uci())
        board.push_int(m)
    return compared


def _check_whole_game(variant: str, seed: int) -> int:
    """Play a full random game; one pyffish call gives the SAN of all its moves."""
    rng = random.Random(10_000 + seed)
    board = Board(variant)
    start = board.fen()
    ours: list[str] = []
    ucis: list[str] = []
    codes: list[int] = []
    for _ in range(MAX_PLIES):
        legal = movegen.generate_legal(board)
        if not legal or board.outcome() is not None:
            break
        m = _choose(board, legal, rng)
        ours.append(san_int(board, m, legal))
        ucis.append(board.int_to_move(m).uci())
        codes.append(m)
        board.push_int(m)
    theirs = oracle().get_san_moves(variant, start, ucis)  # type: ignore[attr-defined]
    assert ours == list(theirs), f"variant {variant} seed {seed}: SAN of the game differs"
    replay = Board(variant)
    for text, m in zip(theirs, codes, strict=True):
        assert parse_san_int(replay, text) == m
        replay.push_int(m)
    assert replay.fen() == board.fen()
    return len(ucis)


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_legal_move_matches_fsf(variant: str) -> None:
    compared = sum(_check_every_move(variant, seed, EVERY_MOVE_PLIES) for seed in range(EVERY_MOVE_GAMES))
    assert compared > EVERY_MOVE_GAMES * 200


@pytest.mark.parametrize("variant", VARIANTS)
def test_whole_games_match_fsf(variant: str) -> None:
    plies = sum(_check_whole_game(variant, seed) for seed in range(WHOLE_GAMES))
    assert plies > WHOLE_GAMES * 20


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("variant", VARIANTS)
def test_every_legal_move_matches_fsf_full_games(variant: str, chunk: int, games: int) -> None:
    seeds = range(chunk, games or SLOW_GAMES, CHUNKS)  # a share of the games, so both workers take part
    compared = sum(_check_every_move(variant, 1000 + seed, MAX_PLIES) for seed in seeds)
    n = len(seeds)
    print(f"{variant}: {n} full games (chunk {chunk}), {compared} moves compared")
    assert compared > n * 50
