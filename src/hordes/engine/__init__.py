"""The engine: search and evaluation for every variant, playing levels, a UCI client and matches.

>>> from hordes import Board
>>> from hordes.engine import Limits, best_move
>>> best_move(Board("chess", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"), Limits(depth=2))
Move.from_uci('d1d8')

The search and the evaluation read everything about a game from its variant document (see
docs/engine.md); the UCI engine lives in `hordes.uci`, matches in `hordes.engine.match`.
"""

from hordes.engine.client import EngineError, EngineTimeout, UciClient
from hordes.engine.evaluate import Evaluator, evaluator
from hordes.engine.levels import Level, level, think
from hordes.engine.limits import MATE, Info, Limits
from hordes.engine.search import Searcher, best_move, search

__all__ = [
    "MATE",
    "EngineError",
    "EngineTimeout",
    "Evaluator",
    "Info",
    "Level",
    "Limits",
    "Searcher",
    "UciClient",
    "best_move",
    "evaluator",
    "level",
    "search",
    "think",
]
