"""Issue 16 point 8: `hordes uci` driven by python-chess's `chess.engine`, as a python-chess user
drives any engine. python-chess knows only chess, so these tests play chess; MultiPV in a variant is
tested over raw UCI in test_uci.py."""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

import chess
import chess.engine
import pytest

# The engine subprocess must run this checkout's source, whatever is installed.
SRC = Path(__file__).resolve().parents[2] / "src"
COMMAND = [sys.executable, "-m", "hordes", "uci"]
DEADLINE = 60.0  # a safety net only: every wait below ends on a state the engine reaches in well under 1 s
T = TypeVar("T")


@contextmanager
def hordes_engine() -> Iterator[chess.engine.SimpleEngine]:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(SRC), os.environ.get("PYTHONPATH")])),
    }
    engine = chess.engine.SimpleEngine.popen_uci(COMMAND, timeout=DEADLINE, env=env)
    try:
        yield engine
    finally:
        engine.close()  # quits the engine and waits for the process to end


def bounded(work: Callable[[], T]) -> T:
    """work() in a thread, failing the test instead of hanging it if the engine never answers."""
    out: list[T] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            out.append(work())
        except BaseException as exc:  # handed to the test's thread
            errors.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(DEADLINE)
    if errors:
        raise errors[0]
    assert out, "the engine did not answer"
    return out[0]


def test_p8_engine_runs_this_checkout() -> None:
    with hordes_engine() as engine:
        assert engine.id["name"].startswith("hordes")
        assert "MultiPV" in engine.options and "UCI_ShowWDL" in engine.options
        assert "UCI_Chess960" not in engine.options  # not supported, so not advertised


def test_p8_analyse_multipv_3_gives_three_distinct_ordered_lines() -> None:
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    with hordes_engine() as engine:
        infos = engine.analyse(board, chess.engine.Limit(depth=4), multipv=3)
        assert [info["multipv"] for info in infos] == [1, 2, 3]
        firsts = [info["pv"][0] for info in infos]
        assert len(set(firsts)) == 3 and all(move in board.legal_moves for move in firsts)
        scores = [info["score"].relative.score(mate_score=100_000) for info in infos]
        assert scores == sorted(scores, reverse=True), scores
        assert all(info["depth"] == 4 for info in infos)
        # The move played is line 1, and one line is the default again afterwards.
        with engine.analysis(board, chess.engine.Limit(depth=3), multipv=2) as analysis:
            best = bounded(analysis.wait)
            assert best.move == analysis.multipv[0]["pv"][0]
        single = engine.analyse(board, chess.engine.Limit(depth=2))
        assert single["multipv"] == 1


def test_p8_play_on_a_clock_returns_a_legal_move() -> None:
    board = chess.Board()
    board.push_san("e4")
    limit = chess.engine.Limit(white_clock=2.0, black_clock=2.0, white_inc=0.05, black_inc=0.05)
    with hordes_engine() as engine:
        for _ in range(2):
            result = engine.play(board, limit)
            assert result.move is not None and result.move in board.legal_moves
            board.push(result.move)


def test_p8_infinite_analysis_stops_when_asked() -> None:
    """The analysis runs until stop: the test waits for an info of depth 2 or more (a state, not a
    sleep), stops it, and the best move then comes, legal."""
    board = chess.Board()
    with hordes_engine() as engine:
        with engine.analysis(board) as analysis:

            def until_depth_2() -> chess.engine.InfoDict:
                for info in analysis:
                    if info.get("depth", 0) >= 2 and "pv" in info:
                        return info
                raise AssertionError("the analysis ended by itself")

            info = bounded(until_depth_2)
            analysis.stop()
            best = bounded(analysis.wait)
        assert info["pv"][0] in board.legal_moves
        assert best.move is not None and best.move in board.legal_moves
        # The engine is free again: a depth-limited search runs to the end.
        assert engine.analyse(board, chess.engine.Limit(depth=2))["depth"] == 2


def test_p8_chess960_is_refused_before_any_move_and_the_engine_stays_usable() -> None:
    """The engine does not offer UCI_Chess960, so python-chess refuses a Chess960 board itself
    instead of sending a position the engine would misread."""
    board = chess.Board.from_chess960_pos(0)  # BBQNNRKR: castling needs Shredder-FEN rights
    with hordes_engine() as engine:
        with pytest.raises(chess.engine.EngineError, match="UCI_Chess960"):
            engine.play(board, chess.engine.Limit(depth=1))
        result = engine.play(chess.Board(), chess.engine.Limit(depth=1))
        assert result.move in chess.Board().legal_moves


def test_p8_show_wdl_reaches_python_chess() -> None:
    with hordes_engine() as engine:
        engine.configure({"UCI_ShowWDL": True})
        info = engine.analyse(chess.Board(), chess.engine.Limit(depth=2))
        wdl = info["wdl"].relative
        assert wdl.wins + wdl.draws + wdl.losses == 1000
        assert wdl.wins > 0 and wdl.draws > 0 and wdl.losses > 0  # the opening is no forced result
