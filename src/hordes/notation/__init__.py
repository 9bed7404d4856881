"""Notation and game records: SAN (as Fairy-Stockfish and pychess write it) and PGN for every variant.

>>> from hordes import Board
>>> from hordes.notation import push_san, san
>>> board = Board("orda")
>>> push_san(board, "e4")
Move.from_uci('e2e4')
>>> san(board, board.parse_uci("g8f7"))
'Hf7'

A PGN game record, read from a text stream and written back (`hordes.notation.pgn` says how broken
records, variants and comments are handled):

>>> import io
>>> from hordes.notation import read_game, write_game
>>> game = read_game(io.StringIO('[Variant "Orda"] 1. e4 Hf7 2. Nf3 *'))
>>> [move.uci() for move in game.mainline_moves()]
['e2e4', 'g8f7', 'g1f3']
>>> game.end().board().fen()
'lhayka1l/5h2/pppppppp/8/4P3/5N2/PPPP1PPP/RNBQKB1R b KQ - 2 2'
>>> print(write_game(game).splitlines()[-1])
1. e4 Hf7 2. Nf3 *
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
