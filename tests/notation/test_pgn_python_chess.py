"""Issue 16 point 2: the same script of calls, run against python-chess's `chess.pgn` and against
hordes on standard chess PGN, gives the same answers.

The script reads a multi-game stream with `read_game` until it returns None and records, per game, the
headers, the main line, and for every node of the tree (variations included) its move, SAN, comment,
starting comment, NAGs, number of variations, ply, side to move, main-line flags, clock and position.
The stream is read from a file, from an in-memory stream and from an OS pipe (not seekable).

What is left out on purpose, because the two differ by design (see hordes.notation.pgn_read): tag
values with escapes (python-chess 1.11 keeps the backslashes), `;` comments (python-chess drops them),
games not ended by a result token, and errors inside a side variation.
"""

from __future__ import annotations

import io
import logging
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TextIO

import chess
import chess.pgn
import pytest

import hordes
from hordes.notation import pgn as hordes_pgn

DATA = Path(__file__).parent / "data"
GAMES = DATA / "chess_annotated.pgn"


def _nodes(node: Any) -> Iterator[Any]:
    for child in node.variations:
        yield child
        yield from _nodes(child)


def _script(read_game: Callable[[TextIO], Any], white: object, handle: TextIO) -> list[dict[str, object]]:
    """The calls a python-chess user makes, with the answers as plain data."""
    out: list[dict[str, object]] = []
    while (game := read_game(handle)) is not None:
        nodes = list(_nodes(game))
        out.append(
            {
                "headers": list(game.headers.items()),
                "Event": game.headers["Event"],
                "game comment": game.comment,
                "mainline": [m.uci() for m in game.mainline_moves()],
                "mainline nodes": [n.san() for n in game.mainline()],
                "reversed": [n.move.uci() for n in reversed(game.mainline())],
                "has moves": bool(game.mainline_moves()),
                "start": game.board().fen(),
                "end": game.end().board().fen(),
                "game ply": game.ply(),
                "first": game.next().move.uci() if game.next() else None,
                "root variations": len(game.variations),
                "errors": len(game.errors),
                "nodes": [
                    (
                        n.move.uci(),
                        n.san(),
                        n.comment,
                        n.starting_comment,
                        sorted(n.nags),
                        len(n.variations),
                        n.ply(),
                        n.turn() == white,
                        n.is_mainline(),
                        n.is_main_variation(),
                        n.starts_variation(),
                        n.is_end(),
                        n.clock(),
                        n.emt(),
                        n.board().fen(),
                        n.parent.board().fen(),
                        n.game() is game,
                        n.root() is game,
                    )
                    for n in nodes
                ],
            }
        )
    return out


def _pipe(text: str) -> TextIO:
    """The text behind a real OS pipe: readable line by line, not seekable."""
    read_end, write_end = os.pipe()
    data = text.encode("utf-8")
    assert len(data) < 60_000  # fits the pipe's buffer, so it can be written before reading
    os.write(write_end, data)
    os.close(write_end)
    return os.fdopen(read_end, encoding="utf-8")


def _chess(handle: TextIO) -> list[dict[str, object]]:
    return _script(chess.pgn.read_game, chess.WHITE, handle)


def _hordes(handle: TextIO) -> list[dict[str, object]]:
    return _script(hordes_pgn.read_game, hordes.WHITE, handle)


@pytest.fixture(scope="module")
def expected() -> list[dict[str, object]]:
    logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)  # its report of the broken game
    with GAMES.open(encoding="utf-8") as handle:
        return _chess(handle)


@pytest.mark.parametrize("source", ["file", "stringio", "pipe"])
def test_p2_read_game_script_matches_python_chess(expected: list[dict[str, object]], source: str) -> None:
    text = GAMES.read_text(encoding="utf-8")
    handle: TextIO
    if source == "file":
        handle = GAMES.open(encoding="utf-8")
    elif source == "stringio":
        handle = io.StringIO(text)
    else:
        handle = _pipe(text)
        assert not handle.seekable()
    with handle:
        got = _hordes(handle)
    assert [g["Event"] for g in got] == [g["Event"] for g in expected]
    for mine, theirs in zip(got, expected, strict=True):
        for key in theirs:
            assert mine[key] == theirs[key], f"{theirs['Event']}: {key}"


def test_p2_the_corpus_has_what_the_script_compares(expected: list[dict[str, object]]) -> None:
    """The comparison is only as good as the file: it must hold each feature the script looks at."""
    nodes = [n for g in expected for n in g["nodes"]]  # type: ignore[attr-defined]
    assert len(expected) == 5 and sum(g["errors"] for g in expected) == 1  # type: ignore[misc]
    assert any(n[5] >= 3 for n in nodes)  # a move with two side variations
    assert any("\n" in n[2] for n in nodes)  # a comment written on two lines
    assert any(n[3] for n in nodes)  # a starting comment
    assert any(len(n[4]) >= 2 for n in nodes)  # a move with two NAGs
    assert any(n[12] is not None for n in nodes)  # a clock
    assert any(g["game ply"] > 0 for g in expected)  # a set-up start with Black to move


def test_p2_read_game_leaves_the_stream_at_the_next_game() -> None:
    """After each call the stream is just past the game: what follows is the next game's text."""
    text = GAMES.read_text(encoding="utf-8")
    handle = _pipe(text)
    with handle:
        first = hordes_pgn.read_game(handle)
        assert first is not None and first.headers["Event"] == "Casual game"
        rest = handle.read()
    assert rest.lstrip().startswith('[Event "Rated blitz game"]')
    assert hordes_pgn.read_game(io.StringIO(rest)) is not None


def test_p2_games_without_blank_lines_and_numbering_across_calls() -> None:
    """pychess-variants' bulk export puts no blank line between games; the game and line numbers of an
    error count from the start of the stream across read_game calls."""
    text = '[Event "a"]\n\n1. e4 e5 *\n[Event "b"]\n1. e4 e5 2. Ke3 *\n[Event "c"]\n\n1. d4 *\n'
    handle = io.StringIO(text)
    games = []
    while (game := hordes_pgn.read_game(handle)) is not None:
        games.append(game)
    assert [g.headers["Event"] for g in games] == ["a", "b", "c"]
    err = games[1].error
    assert err is not None and (err.game, err.line, err.move) == (2, 5, "2.")
    assert games[2].error is None and len(games[2].mainline_moves()) == 1


def test_p2_read_game_wants_a_stream() -> None:
    with pytest.raises(TypeError, match="parse_game"):
        hordes_pgn.read_game("1. e4 *")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="parse_game"):
        hordes_pgn.read_game(GAMES)  # type: ignore[arg-type]


def test_p2_a_pipe_keeps_the_line_read_past_a_game_without_result() -> None:
    """A game cut short by the next game's tags: the tag line read to find that out is not lost
    between two read_game calls on a pipe, which cannot seek back."""
    text = '[Event "a"]\n\n1. e4 e5 2. Nf3\n[Event "b"]\n\n1. d4 d5 *\n\n[Event "c"]\n\n1. c4 *\n'
    with _pipe(text) as handle:
        first = hordes_pgn.read_game(handle)
        second = hordes_pgn.read_game(handle)
        third = hordes_pgn.read_game(handle)
        assert hordes_pgn.read_game(handle) is None
    assert first is not None and first.error is not None and "missing result" in str(first.error)
    assert len(first.mainline_moves()) == 3
    assert second is not None and second.headers["Event"] == "b" and second.error is None
    assert third is not None and third.number == 3 and len(third.mainline_moves()) == 1


@pytest.mark.parametrize(
    "value",
    [
        "300+3",
        "180+0",
        "900+10",
        "5400+30",
        "60+1",
        "-",
        "?",
        "",
        "40/7200:3600",
        "40/5400+30:1800+30",
        "300+2d",
    ],
)
def test_p2_time_control_reads_like_python_chess(value: str) -> None:
    """pychess-variants writes `300+3` and `-` (server/utils.py pgn, server/game.py Game.pgn)."""
    theirs = chess.pgn.parse_time_control(value)
    ours = hordes_pgn.parse_time_control(value)
    assert ours.type.name == theirs.type.name
    assert [(p.moves, p.time, p.increment, p.delay) for p in ours.parts] == [
        (p.moves, p.time, p.increment, p.delay) for p in theirs.parts
    ]
    game = hordes_pgn.parse_game(f'[TimeControl "{value}"]\n\n1. e4 *\n')
    assert game.time_control() == ours


@pytest.mark.parametrize("value", ["abc", "300+x", "300:40/60"])
def test_p2_bad_time_control_is_a_value_error_in_both(value: str) -> None:
    with pytest.raises(ValueError):
        chess.pgn.parse_time_control(value)
    with pytest.raises(hordes.HordesError, match="bad TimeControl"):
        hordes_pgn.parse_time_control(value)
