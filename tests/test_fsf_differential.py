"""Differential test against Fairy-Stockfish: seeded random games in chess, Orda and Khan's Chess.

At every ply: the set of legal moves, whether the side to move is in check, and whether and how the
game has ended. A failure prints the FEN, the moves from the start and the differing moves.
"""

from __future__ import annotations

import random

import pytest

from hordes import Board
from tests.fsf import oracle

# Each pyffish call costs about 1.7 ms whatever it asks (measured: legal_moves and gives_check alike,
# in the start position of chess), so these games are bound by the oracle, not by hordes: 80 games
# per variant keep `make test` inside its budget; `pytest --games 200` (or more) runs further seeds.
CI_GAMES = 80
MAX_PLIES = 300


def _fsf_end(
    sf: object, variant: str, start: str, moves: list[str], fen: str, legal: list[str]
) -> str | None:
    """How Fairy-Stockfish sees the end of the game: a result string, or None if it goes on."""
    # Each pyffish call costs about 1.7 ms, so ask only where the answer can be yes:
    # campmate needs a king on the far rank, repetition needs 8 reversible plies, the 50-move rule 100,
    # and a chess draw by material needs the pawns, rooks and queens gone.
    rows = fen.split()[0].split("/")
    # Orda's and Khan's only immediate end is the flag (campmate): a king on the far rank, White's
    # on rank 8 (the first row of the FEN), Black's on rank 1.
    if variant != "chess" and ("K" in rows[0] or "k" in rows[-1]):
        ended, value = sf.is_immediate_game_end(variant, fen, [])  # type: ignore[attr-defined]
        if ended:
            return "win" if value > 0 else "loss" if value < 0 else "draw"
    if not legal:
        value = sf.game_result(variant, fen, [])  # type: ignore[attr-defined]
        return "win" if value > 0 else "loss" if value < 0 else "draw"
    if len(moves) >= 8 or int(fen.split()[4]) >= 100:
        ended, value = sf.is_optional_game_end(variant, start, moves)  # type: ignore[attr-defined]
        if ended:
            return "draw"
    placement = fen.split()[0]
    no_majors = not any(ch in placement for ch in "pPrRqQ")
    if variant == "chess" and no_majors and all(sf.has_insufficient_material(variant, fen, [])):  # type: ignore[attr-defined]
        return "draw"
    return None


def _ours_end(board: Board) -> str | None:
    out = board.outcome()
    if out is None:
        return None
    if out.winner is None:
        return "draw"
    return "win" if out.winner == board.turn else "loss"


def play_and_compare(variant: str, seed: int) -> int:
    sf = oracle()
    rng = random.Random(seed)
    board = Board(variant)
    start = board.fen()
    moves: list[str] = []
    # Repetition needs history; replaying only since the last irreversible move keeps it linear.
    anchor, since = start, []
    for _ in range(MAX_PLIES):
        fen = board.fen()
        theirs = sorted(sf.legal_moves(variant, fen, []))  # type: ignore[attr-defined]
        ours = sorted(m.uci() for m in board.legal_moves)
        where = f"\nvariant {variant}, seed {seed}\nFEN {fen}\nmoves {' '.join(moves)}"
        assert ours == theirs, (
            f"legal moves differ{where}\nonly ours: {sorted(set(ours) - set(theirs))}"
            f"\nonly Fairy-Stockfish: {sorted(set(theirs) - set(ours))}"
        )
        in_check = sf.gives_check(variant, fen, [])  # type: ignore[attr-defined]
        assert board.is_check() == in_check, f"check differs (ours {board.is_check()}){where}"
        end_theirs = _fsf_end(sf, variant, anchor, since, fen, theirs)
        end_ours = _ours_end(board)
        assert end_ours == end_theirs, f"game end differs: ours {board.outcome()}, theirs {end_theirs}{where}"
        if end_ours is not None:
            break
        move = rng.choice(ours)
        board.push_uci(move)
        moves.append(move)
        expected = sf.get_fen(variant, fen, [move])  # type: ignore[attr-defined]
        assert board.fen() == expected, f"FEN after {move} differs: {board.fen()} != {expected}{where}"
        if board.halfmove == 0:
            anchor, since = board.fen(), []
        else:
            since.append(move)
    return len(moves)


# The games of a variant run as CHUNKS tests of every CHUNKS-th seed, so that the two test workers
# share them: one test of 200 games took six minutes and left the other worker idle at the end.
CHUNKS = 5


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("variant", ["chess", "orda", "khans"])
def test_random_games_agree_with_fairy_stockfish(variant: str, chunk: int, games: int) -> None:
    seeds = range(chunk, games or CI_GAMES, CHUNKS)
    plies = 0
    for seed in seeds:
        plies += play_and_compare(variant, seed)
    print(f"{variant}: {len(seeds)} games (chunk {chunk}), {plies} plies compared")
    assert plies > len(seeds) * 10
