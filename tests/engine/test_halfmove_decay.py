"""Issue 18: `engine.evaluation.halfmove_decay`, the search's static scores shrunk by the plies since
the last capture, so that a side ahead takes something rather than keep a lead it never cashes."""

from __future__ import annotations

from typing import Any

import pytest

from hordes import Board
from hordes.engine.evaluate import Evaluator
from hordes.engine.limits import Limits
from hordes.engine.search import Searcher
from hordes.errors import VariantError

# White is a Rook ahead; nothing can be taken within one ply, so a one-ply search of a King step
# scores the position after it as it stands (quiescence finds no capture to try).
QUIET = "k7/8/8/8/8/8/8/K6R w - - {clock} 1"


def _score(variant: str, fen: str, uci: str, **evaluation: Any) -> int:
    board = Board(variant, fen)
    only = Limits(depth=1, searchmoves=[board.parse_uci(uci)])
    return list(Searcher(1, evaluation=evaluation).search(board, only))[-1].score


@pytest.mark.parametrize("variant", ["hordes", "chess"])
@pytest.mark.parametrize("clock", [0, 9, 59])
def test_halfmove_decay_shrinks_the_static_score_by_the_clock(variant: str, clock: int) -> None:
    fen = QUIET.format(clock=clock)
    whole = _score(variant, fen, "a1b1", halfmove_decay=0)
    assert whole > 300  # a Rook ahead, in the search's units
    for decay in (50, 100):
        after = clock + 1  # the King step does not reset the clock
        shrunk = _score(variant, fen, "a1b1", halfmove_decay=decay)
        assert shrunk == whole * decay // (decay + after), (decay, clock)


def test_halfmove_decay_is_the_same_for_either_side() -> None:
    # The mirrored position with Black to move: the side behind's score shrinks toward 0 as the
    # side ahead's does, rounded the same way.
    white = _score("chess", "k7/8/8/8/8/8/8/K6R w - - 20 1", "a1b1", halfmove_decay=70)
    black = _score("chess", "k6r/8/8/8/8/8/8/K7 b - - 20 1", "a8b8", halfmove_decay=70)
    assert white == black > 0
    behind = _score("chess", "k7/8/8/8/8/8/8/K6R b - - 20 1", "a8b8", halfmove_decay=70)
    whole = _score("chess", "k7/8/8/8/8/8/8/K6R b - - 20 1", "a8b8", halfmove_decay=0)
    assert behind == -(-whole * 70 // 91) and whole < behind < 0


def test_halfmove_decay_makes_a_capture_worth_more_late() -> None:
    # White may take a Knight with its Rook (a plain capture in chess) or step the King. Long after
    # the last capture, the decayed score of the quiet step falls, and the capture's does not.
    fen = "k7/8/8/7n/8/8/8/K6R w - - {clock} 1"
    for clock in (0, 80):
        take = _score("chess", fen.format(clock=clock), "h1h5", halfmove_decay=40)
        assert take == _score("chess", fen.format(clock=0), "h1h5", halfmove_decay=40)
    early = _score("chess", fen.format(clock=0), "a1a2", halfmove_decay=40)
    late = _score("chess", fen.format(clock=80), "a1a2", halfmove_decay=40)
    assert late < early


@pytest.mark.parametrize("bad", [-1, "x", True])
def test_halfmove_decay_must_be_a_whole_number_not_below_0(bad: object) -> None:
    with pytest.raises(VariantError) as err:
        Evaluator(Board("hordes").variant, {"halfmove_decay": bad})
    assert "engine.evaluation.halfmove_decay" in str(err.value)
