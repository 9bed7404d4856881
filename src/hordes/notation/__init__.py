"""Notation and game records: SAN (as Fairy-Stockfish and pychess write it) and PGN for every variant.

>>> from hordes import Board
>>> from hordes.notation import push_san, san
>>> board = Board("orda")
>>> push_san(board, "e4")
Move.from_uci('e2e4')
>>> san(board, board.parse_uci("g8f7"))
'Hf7'
"""

from hordes.notation.pgn import (
    ChildNode,
    Game,
    GameNode,
    Headers,
    PgnError,
    parse_game,
    read_game,
    read_games,
    write_game,
)
from hordes.notation.san import parse_san, push_san, san, variation_san

__all__ = [
    "ChildNode",
    "Game",
    "GameNode",
    "Headers",
    "PgnError",
    "parse_game",
    "parse_san",
    "push_san",
    "read_game",
    "read_games",
    "san",
    "variation_san",
    "write_game",
]
