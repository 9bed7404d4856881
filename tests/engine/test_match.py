"""Matches: the CI match against a random mover, players, openings, statistics and PGN."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from hordes import Board
from hordes.engine.match import (
    PLY_LIMIT,
    GameJob,
    GameResult,
    MatchConfig,
    MatchResult,
    Opening,
    Sprt,
    Tally,
    TimeControl,
    elo_estimate,
    game_pgn,
    load_openings,
    play_game,
    random_book,
    run_match,
    sprt_llr,
    summary,
)
from hordes.engine.players import GreedyPlayer, parse_player
from hordes.errors import HordesError
from tests.engine.conftest import VARIANTS, step_clock

GAMES_PER_VARIANT = 4


@pytest.mark.parametrize("variant", VARIANTS)
def test_engine_beats_a_random_mover(variant: str, tmp_path: Path) -> None:
    pgn = tmp_path / "games.pgn"
    config = MatchConfig("hordes:depth=2", "random", variant, GAMES_PER_VARIANT, tc=None, seed=7, pgn=pgn)
    result = run_match(config)
    assert result.tally.games == GAMES_PER_VARIANT
    assert result.tally.score > 0.9, summary(config, result)
    text = pgn.read_text()
    assert text.count("[Event ") == GAMES_PER_VARIANT
    assert "[Round " in text


def test_engine_at_a_clock_beats_greedy_in_orda(monkeypatch: pytest.MonkeyPatch) -> None:
    """Timed games in which the match's clock and the engine's are one clock that advances 4 ms per
    reading (about the real pace): the engine manages it, never loses on time, and the games are the
    same on a loaded machine as on a quiet one."""
    step_clock(monkeypatch, 0.004, "hordes.engine.search", "hordes.engine.match")
    config = MatchConfig("hordes:level=5", "greedy", "orda", 2, tc=TimeControl(4, 0.05), seed=1)
    result = run_match(config)
    assert result.tally.score >= 0.75, summary(config, result)
    assert all(g.termination != "time forfeit" for g in result.games), summary(config, result)


def test_concurrent_match_and_sprt_stop(tmp_path: Path) -> None:
    config = MatchConfig(
        "greedy",
        "random",
        "chess",
        12,
        tc=None,
        concurrency=2,
        seed=5,
        sprt=Sprt(0, 200, 0.2, 0.2),
        max_plies=200,
    )
    result = run_match(config)
    assert 1 <= result.tally.games <= 12
    assert result.llr is not None


def test_colours_alternate_and_openings_repeat_in_pairs(tmp_path: Path) -> None:
    book = tmp_path / "book.txt"
    book.write_text("# two openings\ne2e4 e7e5\nrnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1\n")
    openings = load_openings(book, "chess")
    assert openings[0].moves == ("e2e4", "e7e5") and openings[1].fen is not None
    config = MatchConfig("random", "greedy", "chess", 4, tc=None, openings=openings, seed=2, max_plies=30)
    result = run_match(config)
    assert [g.player1_white for g in result.games] == [True, False, True, False]
    assert result.games[0].moves[:2] == ["e2e4", "e7e5"] == result.games[1].moves[:2]
    assert all(g.termination for g in result.games)


def test_bad_openings_file_names_the_line(tmp_path: Path) -> None:
    book = tmp_path / "book.txt"
    book.write_text("e2e4\ne2e5\n")
    with pytest.raises(HordesError, match=r"book.txt:2"):
        load_openings(book, "chess")


def test_random_book_leaves_games_open() -> None:
    book = random_book("orda", 10, 4, seed=1)
    assert len(book) == 10
    for opening in book:
        board = Board("orda")
        for text in opening.moves:
            board.push_uci(text)
        assert board.outcome() is None


def test_ply_cap_adjudicates_a_draw() -> None:
    job = GameJob(1, "random", "random", True, "chess", Opening(None), None, 6, 0.2, 1)
    game = play_game(job)
    assert game.result == "1/2-1/2" and game.termination.startswith("adjudication")
    assert len(game.moves) == 6


def test_engine_failure_loses_the_game() -> None:
    fake = Path(__file__).parent / "data" / "fake_engine.py"
    import sys

    job = GameJob(
        1, "random", f"'{sys.executable}' '{fake}' illegal", True, "chess", Opening(None), None, 20, 0.2, 1
    )
    game = play_game(job)
    assert game.result == "1-0" and game.termination == "illegal move"
    assert "e2e5" in game.error


def test_player_specs() -> None:
    assert parse_player("hordes:level=3").name == "hordes-level3"
    assert isinstance(parse_player("greedy"), GreedyPlayer)
    for bad in ("hordes:level=x", "hordes:colour=red", "random:seed", "no-such-program-xyz"):
        with pytest.raises(HordesError):
            parse_player(bad)


def test_time_control_parsing() -> None:
    assert TimeControl.parse("10+0.1") == TimeControl(10, 0.1)
    assert TimeControl.parse("1:30") == TimeControl(90, 0)
    for bad in ("x", "0+1", "5+-1"):
        with pytest.raises(HordesError):
            TimeControl.parse(bad)


def test_elo_and_sprt_arithmetic() -> None:
    elo, err = elo_estimate(50, 0, 50)
    assert elo == pytest.approx(0) and 60 < err < 80  # 100 games of coin flips: about ±68
    elo, err = elo_estimate(75, 0, 25)
    assert elo == pytest.approx(190.8, abs=0.5)
    assert math.isinf(elo_estimate(10, 0, 0)[0])
    assert sprt_llr(60, 20, 20, 0, 50) > 0 > sprt_llr(20, 20, 60, 0, 50)
    lo, hi = Sprt(0, 10, 0.05, 0.05).bounds
    assert lo == pytest.approx(-2.944, abs=1e-3) and hi == pytest.approx(2.944, abs=1e-3)


def test_pgn_of_a_game_is_readable() -> None:
    job = GameJob(3, "random", "random", False, "orda", Opening(None, ("e2e4",)), None, 10, 0.2, 4)
    game = play_game(job)
    text = game_pgn(game)
    assert '[Round "3"]' in text and '[Variant "Orda"]' in text
    from hordes.notation import parse_game

    record = parse_game(text)
    assert [m.uci() for m in record.mainline_moves()] == game.moves


def test_summary_gives_the_length_of_the_games_and_how_player_1_lost() -> None:
    # Issue 18 reads two things from a match: how long the games last (median, and how many reach the
    # ply cap) and what share of our losses were campmates. Five games of known length and ending.
    config = MatchConfig("hordes", "fsf", "orda", 5, max_plies=400)
    games = []
    for i, (plies, result, ending, first_white) in enumerate(
        [
            (40, "0-1", "campmate", True),  # a loss
            (60, "0-1", "checkmate", False),  # a win (player 1 is Black)
            (100, "1-0", "checkmate", False),  # a loss
            (400, "1/2-1/2", PLY_LIMIT, True),
            (20, "1-0", "checkmate", False),  # a loss
        ]
    ):
        games.append(GameResult(i + 1, "w", "b", result, ending, "", ["e2e4"] * plies, "orda", first_white))
    tally = Tally()
    for g in games:
        tally.add(g)
    text = summary(config, MatchResult(games, tally, 0.0, 0.0))
    assert "Length: median 60 plies (quartiles 30 to 250), 1 of 5 at the 400-ply cap" in text
    assert "hordes lost 3: campmate 1 (33.3 %), checkmate 2 (66.7 %)" in text
