"""`hordes play`: driven through a pseudo-terminal with pexpect, as a player would use it, plus the
drawing and wording helpers tested in process.

The games run with NO_COLOR so the expected text is plain; one test checks the coloured drawing on a
terminal that asks for colour. Every expect has a timeout, so a hung game fails instead of stalling.
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from hordes import BLACK, WHITE, Board, Color, Termination
from hordes.core.position import Outcome
from hordes.notation import parse_game
from hordes.play import BLACK_MARK, Style, TerminalGame, describe_outcome, legend, render

TIMEOUT = 30  # seconds for any single expect: the engine plays at level 1 (0.2 s a move)
HORDES_MATE_FEN = "k7/8/8/8/8/8/7R/1R5K w - - 0 1"  # 1. Ra2# (and Rb2 is ambiguous)


def _spawn(*args: str, color: bool = False) -> pexpect.spawn[str]:
    env = dict(os.environ)
    env.pop("NO_COLOR", None)
    if color:
        env["TERM"] = "xterm-256color"
    else:
        env["NO_COLOR"] = "1"
    return pexpect.spawn(
        sys.executable,
        ["-m", "hordes.cli", "play", *args],
        env=env,
        encoding="utf-8",
        timeout=TIMEOUT,
        dimensions=(60, 120),
    )


def _finish(child: pexpect.spawn[str]) -> None:
    child.sendline("quit")
    child.expect(pexpect.EOF, timeout=TIMEOUT)
    child.close()
    assert child.exitstatus == 0


def test_orda_game_against_level_1_with_illegal_input_undo_and_save(tmp_path: Path) -> None:
    pgn = tmp_path / "game.pgn"
    child = _spawn("orda", "--level", "1", "--color", "white", "--seed", "1", "--hint-time", "0.3")
    try:
        child.expect("Orda Chess")
        child.expect(r"1\. white> ")
        child.sendline("e5")  # no pawn reaches e5 from the start
        child.expect("Illegal move 'e5' \\(no legal move reaches e5\\)")
        child.expect(r"1\. white> ")
        child.sendline("hello")
        child.expect("not a move.*Type 'help'")
        child.expect(r"1\. white> ")
        child.sendline("e4")
        child.expect(r"You play 1\. e4")
        child.expect(r"hordes \(level 1\) plays 1\.\.\. ")
        child.expect(r"2\. white> ")
        child.sendline("hint")
        child.expect(r"Hint: 2\. \S+")
        child.expect(r"2\. white> ")
        child.sendline("g1f3")  # UCI works as well as SAN
        child.expect(r"You play 2\. Nf3")
        child.expect(r"plays 2\.\.\. ")
        child.expect(r"3\. white> ")
        child.sendline("undo")
        child.expect(r"Took back Nf3, \S+\.")
        child.expect(r"2\. white> ")
        child.sendline("Nc3")
        child.expect(r"You play 2\. Nc3")
        child.expect(r"plays 2\.\.\. ")
        child.expect(r"3\. white> ")
        child.sendline(f"save {pgn}")
        child.expect(r"Saved 4 plies to ")
        child.expect(r"3\. white> ")
        _finish(child)
    finally:
        child.close(force=True)
    game = parse_game(pgn.read_text(encoding="utf-8"))
    assert game.headers["Variant"] == "Orda"
    assert game.headers["White"] == "Human" and game.headers["Black"] == "hordes level 1"
    assert game.result == "*"
    moves = [m.uci() for m in game.mainline_moves()]
    assert len(moves) == 4 and moves[0] == "e2e4" and moves[2] == "b1c3"
    assert game.end().board().turn is WHITE


def test_human_vs_human_quick_mate_from_a_fen(tmp_path: Path) -> None:
    pgn = tmp_path / "mate.pgn"
    child = _spawn("hordes", "--human-vs-human", "--fen", HORDES_MATE_FEN)
    try:
        child.expect(r"1\. white> ")
        child.sendline("Rb2")
        child.expect(r"'Rb2' is ambiguous: it could be Rbb2, Rhb2")
        child.expect(r"1\. white> ")
        child.sendline("Ra2")
        child.expect(r"White plays 1\. Ra2#")
        child.expect(r"Game over: checkmate — White wins \(1-0\)\.")
        child.expect("game over> ")
        child.sendline("Kb8")
        child.expect("The game is over")
        child.expect("game over> ")
        child.sendline("undo")  # two humans: one ply back
        child.expect("Took back Ra2#")
        child.expect(r"1\. white> ")
        child.sendline("h2a2")
        child.expect(r"Game over: checkmate")  # announced again after the undo
        child.expect("game over> ")
        child.sendline(f"save {pgn}")
        child.expect("Saved 1 ply")
        child.expect("game over> ")
        _finish(child)
    finally:
        child.close(force=True)
    game = parse_game(pgn.read_text(encoding="utf-8"))
    assert game.headers["Variant"] == "Hordes" and game.headers["FEN"] == HORDES_MATE_FEN
    assert game.result == "1-0"
    assert [m.uci() for m in game.mainline_moves()] == ["h2a2"]
    assert "checkmate" in game.end().comment


def test_help_fen_flip_and_moves() -> None:
    child = _spawn("chess", "--human-vs-human")
    try:
        child.expect(r"1\. white> ")
        child.sendline("help")
        child.expect(r"Type a move in SAN \(Nf3, exd5, O-O, e8=Q\) or UCI")
        for word in ("undo", "hint", "flip", "fen", "moves", "save FILE", "help", "quit"):
            child.expect(word)
        child.expect(r"1\. white> ")
        child.sendline("fen")
        child.expect(re.escape("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"))
        child.sendline("flip")
        child.expect(r"h  g  f  e  d  c  b  a")
        child.expect(r"1\. white> ")
        child.sendline("moves")
        child.expect("20 legal moves: ")
        child.expect(r"1\. white> ")
        _finish(child)
    finally:
        child.close(force=True)


def test_hordes_help_explains_its_notation() -> None:
    child = _spawn("hordes", "--human-vs-human")
    try:
        child.expect(r"1\. white> ")
        child.sendline("help")
        child.expect(re.escape("Rc3=+R"))
        child.expect(re.escape("+Re1:e5-e2"))
        child.expect(r"1\. white> ")
        _finish(child)
    finally:
        child.close(force=True)


def test_colour_on_a_terminal_and_plain_letters_in_a_pipe() -> None:
    child = _spawn("chess", "--human-vs-human", color=True)
    try:
        child.expect(re.escape("\x1b[48;5;"))
        child.expect("♚")
        child.expect(r"1\. white> ")
        _finish(child)
    finally:
        child.close(force=True)
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    out = subprocess.run(
        [sys.executable, "-m", "hordes.cli", "play", "chess", "--human-vs-human"],
        input="quit\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=TIMEOUT,
        check=True,
    ).stdout
    assert "\x1b[" not in out and "♚" not in out
    assert "8  r* n* b* q* k* b* n* r* 8" in out


def test_p10_play_shows_a_legend_and_marks_black_without_colour() -> None:
    child = _spawn("orda", "--human-vs-human")
    try:
        child.expect(re.escape("Pieces: P Pawn, N Knight, B Bishop, R Rook, Q Queen, K King, L Lancer,"))
        child.expect(re.escape("A Horse Archer, H Kheshig, Y Yurt."))
        child.expect(
            re.escape("White's pieces are in capitals (K), Black's in lower case and marked * (k*).")
        )
        child.expect(re.escape("8  l* h* a* y* k* a* h* l* 8"))
        child.expect(re.escape("1  R  N  B  Q  K  B  N  R  1"))
        child.expect(r"1\. white> ")
        child.sendline("help")
        child.expect("quit")
        child.expect(re.escape("Y Yurt."))  # the legend again, after the commands
        child.expect(r"1\. white> ")
        _finish(child)
    finally:
        child.close(force=True)


def test_user_errors_exit_with_status_2() -> None:
    for args in (["nosuchvariant"], ["chess", "--fen", "bad fen"], ["chess", "--level", "9"]):
        done = subprocess.run(
            [sys.executable, "-m", "hordes.cli", "play", *args],
            input="",
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )
        assert done.returncode == 2, args
        assert done.stderr.startswith("hordes: error: ")


# ----- in process ----------------------------------------------------------------------------------
def _visible(line: str) -> str:
    return re.sub(r"\x1b\[[0-9;]*m", "", line)


@pytest.mark.parametrize("fancy", [False, True])
def test_columns_stay_aligned_with_two_letter_pieces(fancy: bool) -> None:
    board = Board("hordes", "7k/8/8/8/4N+B2/2R5/7B/+R2K4 w - - 0 1")
    lines = [_visible(x) for x in render(board, Style(fancy), lastmove=None).splitlines()]
    rows = lines[1:-1]
    assert len({len(x) for x in rows}) == 1, rows
    assert len(rows[0]) == 2 + 3 * 8 + 2
    plain = render(board, Style(False))
    assert "+R " in plain and " N " in plain and " k*" in plain


@pytest.mark.parametrize("fancy", [False, True])
def test_p10_the_sides_differ_by_more_than_colour(fancy: bool) -> None:
    # Kings of both sides on the same file and square colour: once the colours are taken away, what
    # is left must still say whose each one is.
    board = Board("chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    lines = [_visible(x) for x in render(board, Style(fancy)).splitlines()]
    black_king = lines[1][2 + 3 * 4 : 2 + 3 * 5]
    white_king = lines[8][2 + 3 * 4 : 2 + 3 * 5]
    assert black_king.endswith(BLACK_MARK) and not white_king.endswith(BLACK_MARK)
    assert black_king != white_king
    if not fancy:
        assert (white_king, black_king) == (" K ", " k*")
    # Letters other than chess symbols keep their case in the coloured style too.
    orda = [_visible(x) for x in render(Board("orda"), Style(fancy)).splitlines()]
    assert orda[1].startswith("8  l* h* a* y*")


@pytest.mark.parametrize("fancy", [False, True])
def test_p10_legend_names_every_piece_kind(fancy: bool) -> None:
    board = Board("hordes")
    text = " ".join(legend(board, Style(fancy)))
    for piece in board.variant.pieces:
        assert f"{piece.letter} {piece.name}" in text
    assert "+B Bishop Magnet" in text and ("♜ R Rook" in text) == fancy
    assert all(len(line) <= 78 for line in legend(Board("khans"), Style(fancy)))


def test_a_human_vs_human_game_in_process() -> None:
    lines = iter(["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7", "quit"])
    out = io.StringIO()

    def read(prompt: str) -> str:
        out.write(prompt)
        return next(lines)

    game = TerminalGame(
        Board("chess"), humans=frozenset({WHITE, BLACK}), out=out, read=read, style=Style(False)
    )
    assert game.run() == 0
    text = out.getvalue()
    assert "White plays 4. Qxf7#" in text
    assert "Game over: checkmate — White wins (1-0)." in text


@pytest.mark.parametrize(
    ("termination", "winner", "words"),
    [
        (Termination.CHECKMATE, BLACK, "checkmate — Black wins (0-1)"),
        (Termination.STALEMATE, None, "stalemate — draw (1/2-1/2)"),
        (Termination.STALEMATE, WHITE, "Black has no legal move, which loses in Hordes of Change"),
        (Termination.REPETITION_LOSS, BLACK, "repetition loss: White brought about the same position"),
        (Termination.CAMPMATE, WHITE, "campmate"),
        (Termination.THREEFOLD_REPETITION, None, "threefold repetition — draw"),
    ],
)
def test_game_end_names_its_reason(termination: Termination, winner: Color | None, words: str) -> None:
    assert words in describe_outcome(Outcome(termination, winner), Board("hordes"))
