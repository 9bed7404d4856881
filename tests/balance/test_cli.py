"""`hordes balance`: the report on standard output, broken games on standard error, user errors exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from hordes.cli import main

DATA = Path(__file__).parent / "data"
CHESS = DATA / "chess.pgn"


def _lines(text: str) -> list[str]:
    return [" ".join(line.split()) for line in text.splitlines()]


def test_report_on_a_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["balance", str(CHESS)]) == 0
    captured = capsys.readouterr()
    lines = _lines(captured.out)
    assert lines[0] == f"Balance report on {CHESS}: 9 games"
    assert "Chess: 8 games (and 1 unfinished, not counted)" in lines
    assert "White wins 2 25.0 % 7.1–59.1 %" in lines
    assert "Draws 3 37.5 % 13.7–69.4 %" in lines
    assert "stalemate* 1 0 0 1" in lines
    assert "Orda Chess: 7 games" not in lines
    assert f"hordes balance: skipped {CHESS}, game 10: illegal move 'Ke3'" in captured.err
    assert "skipped" not in captured.out


def test_directory_with_variant_filter_and_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["balance", str(DATA), "--variant", "orda", "--opening-plies", "2", "--top", "1"]) == 0
    lines = _lines(capsys.readouterr().out)
    assert "Orda Chess: 7 games" in lines
    assert not any(line.startswith("Chess:") for line in lines)
    assert "Openings: the 1 most common of 4, first 2 plies" in lines
    assert "1. e4 e5 3 50.0 % 19.4–80.6 % 1/1/1" in lines


def test_out_writes_the_pages(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "site"
    assert main(["balance", str(CHESS), "--out", str(out)]) == 0
    assert "and 4 plots" in capsys.readouterr().out
    assert sorted(p.name for p in out.iterdir()) == [
        "chess-lengths.png", "chess-openings.png", "chess-results.png", "chess-terminations.png",
        "index.html", "report.md",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing.pgn"], "missing.pgn: no such file or directory"),
        (["EMPTY"], "no .pgn files in this directory"),
        ([str(CHESS), "--variant", "nosuchvariant"], "nosuchvariant"),
        ([str(CHESS), "--variant", "orda"], "no orda games"),
        ([str(CHESS), "--top", "0"], "--top must be at least 1"),
        ([str(CHESS), "--opening-plies", "-1"], "--opening-plies must be 0 or more"),
    ],
)
def test_user_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    args = [str(tmp_path / a) if a in ("missing.pgn", "EMPTY") else a for a in args]
    (tmp_path / "EMPTY").mkdir()
    assert main(["balance", *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("hordes: error: ")
    assert message in captured.err
    assert len(captured.err.strip().splitlines()) == 1
