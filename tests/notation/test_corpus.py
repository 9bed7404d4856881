"""The Orda corpus (tools/make_orda_pgn_corpus.py): games written entirely by Fairy-Stockfish.

Every game must read without error and replay to the final position Fairy-Stockfish recorded in its
FinalFEN tag; a game that ended by rule must end the same way for us, and writing it back must give
Fairy-Stockfish's SAN again.
"""

from __future__ import annotations

import re
from pathlib import Path

from hordes.notation import read_games, write_game

CORPUS = Path(__file__).parent / "data" / "orda_corpus.pgn"


def test_corpus_reads_and_replays_like_fairy_stockfish() -> None:
    text = CORPUS.read_text(encoding="utf-8")
    games = list(read_games(text))
    assert len(games) >= 200
    ended = 0
    for game in games:
        assert game.error is None, game.error
        assert game.headers["Variant"] == "Orda" and game.variant.slug == "orda"
        board = game.end().board()
        assert board.fen() == game.headers["FinalFEN"], f"game {game.number}"
        outcome = board.outcome()
        if game.result != "*":
            ended += 1
            assert outcome is not None and outcome.result() == game.result, f"game {game.number}"
            assert outcome.termination.value == game.headers["Termination"], f"game {game.number}"
    assert ended >= 50


def _sans(movetext: str) -> list[str]:
    body = re.sub(r"\{[^}]*\}", " ", movetext)
    return [w for w in body.split() if not re.fullmatch(r"\d+\.+|1-0|0-1|1/2-1/2|\*", w)]


def test_writing_gives_fairy_stockfish_san_back() -> None:
    chunks = CORPUS.read_text(encoding="utf-8").split("\n\n[")
    games = list(read_games(CORPUS))
    for chunk, game in zip(chunks[:60], games[:60], strict=False):
        original = chunk.split("\n\n", 1)[1]
        written = write_game(game).split("\n\n", 1)[1]
        assert _sans(written) == _sans(original), f"game {game.number}"
