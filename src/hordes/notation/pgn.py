"""PGN game records for every variant, with python-chess's names (`chess.pgn`): the game tree
(hordes.notation.pgn_tree), reading (pgn_read) and writing (pgn_write), gathered here.

>>> import io
>>> from hordes.notation.pgn import read_game
>>> handle = io.StringIO('[Variant "Orda"]\\n\\n1. e4 Hf7 *\\n\\n1. d4 *\\n')
>>> first = read_game(handle)
>>> [node.san() for node in first.mainline()], first.variant.slug
(['e4', 'Hf7'], 'orda')
>>> len(read_game(handle).mainline_moves()), read_game(handle)
(1, None)

Variants. `[Variant "..."]` names the variant; names and aliases resolve case-insensitively (`Orda`,
`orda`, `Orda Chess`), and a missing tag means chess (as does lichess's `From Position`). Only names are
resolved, never file paths: a record must not make the reader open files. Games are written with the
name pychess-variants uses, the variant's slug capitalised (`Orda`, `Khans`), so pychess-variants and
Fairy-Stockfish based tools read our files, and chess games carry no Variant tag. A game that does not
start from the variant's initial position gets `FEN` and `SetUp "1"`.
"""

from __future__ import annotations

from hordes.notation.pgn_read import MAX_NAG, RESULTS, parse_game, read_game, read_games
from hordes.notation.pgn_tree import (
    NAG_SUFFIXES,
    SEVEN_TAG_ROSTER,
    ChildNode,
    Game,
    GameNode,
    Headers,
    Mainline,
    PgnError,
    TimeControl,
    TimeControlPart,
    TimeControlType,
    VariantResolver,
    initial_fen,
    parse_time_control,
    pgn_variant_name,
    resolve_variant,
)
from hordes.notation.pgn_write import write_game

__all__ = [
    "MAX_NAG",
    "NAG_SUFFIXES",
    "RESULTS",
    "SEVEN_TAG_ROSTER",
    "ChildNode",
    "Game",
    "GameNode",
    "Headers",
    "Mainline",
    "PgnError",
    "TimeControl",
    "TimeControlPart",
    "TimeControlType",
    "VariantResolver",
    "initial_fen",
    "parse_game",
    "parse_time_control",
    "pgn_variant_name",
    "read_game",
    "read_games",
    "resolve_variant",
    "write_game",
]
