"""The UCI client: against Debian's Fairy-Stockfish, and against engines that misbehave."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from hordes import BLACK, Board, IllegalMoveError
from hordes.engine.client import (
    FAIRY_STOCKFISH,
    HORDES_COMMAND,
    EngineError,
    EngineTimeout,
    UciClient,
    fairy_stockfish,
)
from hordes.variants import load_variant
from tests.perft_files import PERFT_DIR, read_perft_file

FAKE = [sys.executable, str(Path(__file__).parent / "data" / "fake_engine.py")]

needs_fsf = pytest.mark.skipif(
    not os.access(FAIRY_STOCKFISH, os.X_OK),
    reason=f"Debian fairy-stockfish not installed at {FAIRY_STOCKFISH} (`make` installs it: apt-get install fairy-stockfish)",
)


@needs_fsf
def test_fairy_stockfish_plays_orda_and_every_move_is_checked() -> None:
    with fairy_stockfish(load_variant("orda")) as fsf:  # taught Orda by our export, 11.1 keys
        assert fsf.id_name.startswith("Fairy-Stockfish")
        assert fsf.ini_id.endswith("dialect 11.1")
        fsf.new_game()
        board = Board("orda")
        for _ in range(8):
            move = fsf.play(board, movetime=0.02)
            board.push(move)
        assert len(board.move_stack) == 8
        assert fsf.perft(Board("orda"), 3) == 12462


@needs_fsf
def test_p15_debian_ini_gives_every_orda_perft_count() -> None:
    """Our export of Orda in 11.1's keys makes Debian's 11.1 play our Orda: every count of orda.perft
    (1.6M nodes, under a second in C++), including the campmate records, where the tree stops."""
    cases = read_perft_file(PERFT_DIR / "orda.perft")
    assert any(case.id.startswith("campmate") for case in cases)
    with fairy_stockfish(load_variant("orda")) as fsf:
        for case in cases:
            for depth, count in sorted(case.counts.items()):
                board = Board("orda", case.epd)
                assert fsf.perft(board, depth, timeout=30) == count, f"{case.source} {case.id} perft {depth}"


@needs_fsf
def test_p15_debian_ini_scores_a_campmate_as_mate() -> None:
    """The Khan one step from rank 1: Debian's engine, given our export, sees mate in 1 for Black
    and, with White to move after it, a lost game (mate 0, no move)."""
    with fairy_stockfish(load_variant("orda")) as fsf:
        board = Board("orda", "8/8/K7/8/8/8/4k3/8 b - - 0 1")
        info = fsf.analyse(board, depth=4)
        assert info.score_mate == 1
        board.push(board.parse_uci(info.pv[0]))
        assert board.campmate_winner() is BLACK
        assert fsf.perft(board, 1) == 0  # the game is over for the engine as for us


@needs_fsf
def test_fairy_stockfish_chess_mate_in_one() -> None:
    with UciClient([FAIRY_STOCKFISH], timeout=10) as fsf:
        fsf.set_variant("chess")
        board = Board("chess", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
        assert fsf.play(board, depth=5) == board.parse_uci("d1d8")


def test_hordes_as_a_uci_engine_through_the_client(tmp_path: Path) -> None:
    log = (tmp_path / "engine-stderr.txt").open("w")
    with UciClient(HORDES_COMMAND, timeout=20, stderr=log) as engine:
        engine.set_variant("hordes")
        board = Board("hordes")
        for _ in range(2):
            board.push(engine.play(board, nodes=300))


def test_illegal_move_names_the_engine_and_the_position() -> None:
    with UciClient([*FAKE, "illegal"], name="fake", timeout=10) as engine:
        board = Board("chess")
        with pytest.raises(IllegalMoveError) as err:
            engine.play(board, movetime=0.01)
        assert "fake" in str(err.value) and board.fen() in str(err.value) and "e2e5" in str(err.value)
        with pytest.raises(IllegalMoveError):
            engine.analyse(board, depth=1)  # the PV is checked too


def test_no_move_in_a_live_position_is_an_error() -> None:
    with UciClient([*FAKE, "none"], timeout=10) as engine, pytest.raises(IllegalMoveError):
        engine.play(Board("chess"), movetime=0.01)


def test_noise_before_bestmove_is_tolerated() -> None:
    with UciClient([*FAKE, "garbage"], timeout=10) as engine:
        assert engine.play(Board("chess"), movetime=0.01).uci() == "e2e4"


def test_crash_and_silence_are_reported_not_hung() -> None:
    with (
        UciClient([*FAKE, "crash"], name="crasher", timeout=10) as engine,
        pytest.raises(EngineError, match="crasher"),
    ):
        engine.play(Board("chess"), movetime=0.01)
    with UciClient([*FAKE, "silent"], timeout=10) as engine:
        with pytest.raises(EngineTimeout):
            engine.go(Board("chess"), movetime=0.01, timeout=0.5)
        assert engine.proc.poll() is not None  # killed after the timeout


def test_unknown_variant_and_missing_program() -> None:
    with UciClient([*FAKE, "illegal"], timeout=10) as engine, pytest.raises(EngineError, match="khans"):
        engine.set_variant("khans")
    with pytest.raises(EngineError, match="cannot start"):
        UciClient(["/nonexistent/engine"])


def test_history_is_sent_so_repetitions_count() -> None:
    from hordes.engine.client import _history

    board = Board("chess")
    for text in ("g1f3", "g8f6", "f3g1"):
        board.push_uci(text)
    root, moves = _history(board)
    assert root == Board("chess").fen() and moves == ["g1f3", "g8f6", "f3g1"]
