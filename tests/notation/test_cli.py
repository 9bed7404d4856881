"""`hordes pgn`: summary, errors with game/move/token, --fen-at, and user errors (exit status 2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hordes.cli import main

DATA = Path(__file__).parent / "data"
GOOD = """[Event "one"]
[Variant "Orda"]
[Result "*"]

1. e4 Hf7 2. Nf3 Hd7 *

[Event "two"]
[Result "0-1"]

1. f3 e5 2. g4 Qh4# 0-1
"""


@pytest.fixture
def good(tmp_path: Path) -> Path:
    path = tmp_path / "good.pgn"
    path.write_text(GOOD)
    return path


def test_summary(good: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pgn", str(good)]) == 0
    out = capsys.readouterr().out
    assert "2 games, 8 plies, 0 with errors" in out
    assert "Orda 1" in out and "Chess 1" in out
    assert "* 1" in out and "0-1 1" in out


def test_errors_are_listed_and_the_status_is_1(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pgn", str(DATA / "broken" / "ambiguous_move.pgn")]) == 1
    out = capsys.readouterr().out
    assert "3 games" in out and "1 with errors" in out
    assert "error: game 2, move 3. (line 10): ambiguous move 'Nd2'" in out


def test_quiet(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pgn", "--quiet", str(DATA / "broken" / "null_move.pgn")]) == 1
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1 and out[0].startswith("error: game 2, move 1...")


def test_fen_at(good: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pgn", str(good), "--fen-at", "0"]) == 0
    assert main(["pgn", str(good), "--fen-at", "1"]) == 0
    assert main(["pgn", str(good), "--fen-at", "4", "--game", "2"]) == 0
    assert main(["pgn", str(good), "--fen-at", "-1", "--game", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "lhaykahl/8/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1"
    assert lines[1] == "lhaykahl/8/pppppppp/8/4P3/8/PPPP1PPP/RNBQKBNR b KQ - 0 1"
    assert lines[2] == lines[3] == "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"


def test_fen_at_in_a_broken_game_before_the_error(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(DATA / "broken" / "illegal_move.pgn")
    assert main(["pgn", path, "--game", "2", "--fen-at", "3"]) == 0
    assert capsys.readouterr().out.startswith("lhayka1l/5h2/")
    assert main(["pgn", path, "--game", "2", "--fen-at", "4"]) == 2
    err = capsys.readouterr().err
    assert "3 readable plies" in err and "Lxe4" in err


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--fen-at", "9"], "game 1 has 4 readable plies, no ply 9"),
        (["--fen-at", "1", "--game", "3"], "has no game 3"),
        (["--fen-at", "1", "--game", "0"], "--game counts from 1"),
    ],
)
def test_user_errors(good: Path, args: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pgn", str(good), *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("hordes: error: ") and words in err and len(err.strip().splitlines()) == 1


def test_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pgn", str(tmp_path / "nope.pgn")]) == 2
    assert "No such file" in capsys.readouterr().err


def test_unknown_variant_game_with_fen_at(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(DATA / "broken" / "unknown_variant.pgn")
    assert main(["pgn", path, "--game", "2", "--fen-at", "0"]) == 2
    assert "unknown variant 'Shogi'" in capsys.readouterr().err


def test_corpus_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pgn", "--quiet", str(DATA / "orda_corpus.pgn")]) == 0
    assert capsys.readouterr().out == ""
