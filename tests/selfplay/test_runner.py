"""`hordes selfplay`: runs per variant on the process pool, resuming, extending, torn records, planning,
and the errors a user can meet."""

from __future__ import annotations

from pathlib import Path

import pytest

from hordes.cli import main
from hordes.engine.match import TimeControl
from hordes.selfplay import SelfplayConfig, run_selfplay, store
from hordes.selfplay.plan import GamePlan, distinct_book, plan_jobs
from tests.selfplay.conftest import FAST, game_ids, read_run_games

VARIANTS = ["chess", "orda", "khans", "hordes", "andernach"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_small_run_on_the_process_pool_reads_back(
    variant: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    code = main(
        ["selfplay", variant, "--games", "6", *FAST, "--workers", "2", "--seed", "11", "--out", str(out)]
    )
    assert code == 0
    captured = capsys.readouterr()
    assert "[6/6]" in captured.err  # the progress line
    assert "6/6 games" in captured.out and str(out / "games.pgn") in captured.out
    games = read_run_games(out, variant)
    assert sorted(int(g.headers["GameId"]) for g in games) == [1, 2, 3, 4, 5, 6]
    for game in games:
        player_white = int(game.headers["GameId"]) % 2 == 1
        assert (game.headers["White"] == "random") == player_white
        assert game.headers["TimeControl"] == "-"
        assert game.headers["Variant"]
    # Each game has its own opening.
    openings = {tuple(m.uci() for m in g.mainline_moves()[:4]) for g in games}
    assert len(openings) == 6


def test_in_process_run_with_a_clock_and_the_api(tmp_path: Path) -> None:
    seen: list[int] = []
    config = SelfplayConfig(
        "chess", games=3, out=tmp_path, player="hordes:depth=1", tc=TimeControl(5, 0.05), max_plies=30, seed=1
    )
    result = run_selfplay(config, on_game=lambda k, game, progress: seen.append(progress.done))
    assert seen == [1, 2, 3]
    assert result.games == result.played == 3 and result.kept == 0
    assert result.tally.white_wins + result.tally.black_wins + result.tally.draws == 3
    assert {g.headers["TimeControl"] for g in read_run_games(tmp_path)} == {"5+0.05"}


def test_resume_skips_finished_games_and_extends(tmp_path: Path) -> None:
    config = SelfplayConfig("orda", games=4, out=tmp_path, player="random", tc=None, max_plies=40, seed=3)
    run_selfplay(config)
    before = (tmp_path / "games.pgn").read_bytes()
    again = run_selfplay(config)
    assert again.played == 0 and again.kept == 4
    assert (tmp_path / "games.pgn").read_bytes() == before
    config.games = 7
    config.seed = None  # a resumed run keeps its stored seed
    more = run_selfplay(config)
    assert more.played == 3 and more.games == 7
    assert (tmp_path / "games.pgn").read_bytes().startswith(before)
    assert game_ids(tmp_path) == list(range(1, 8))


def test_the_same_seed_plans_the_same_games(tmp_path: Path) -> None:
    """A resumed game is the game the first run would have played: same opening, same players' seeds."""
    a, b = tmp_path / "a", tmp_path / "b"
    run_selfplay(SelfplayConfig("khans", games=4, out=a, player="random", tc=None, max_plies=30, seed=9))
    run_selfplay(SelfplayConfig("khans", games=2, out=b, player="random", tc=None, max_plies=30, seed=9))
    run_selfplay(SelfplayConfig("khans", games=4, out=b, player="random", tc=None, max_plies=30, seed=9))
    moves = {
        d: {g.headers["GameId"]: [m.uci() for m in g.mainline_moves()] for g in read_run_games(d)}
        for d in (a, b)
    }
    assert moves[a] == moves[b]


def test_a_torn_last_record_is_dropped_and_played_again(tmp_path: Path) -> None:
    config = SelfplayConfig("chess", games=3, out=tmp_path, player="random", tc=None, max_plies=40, seed=5)
    run_selfplay(config)
    pgn = tmp_path / "games.pgn"
    whole = pgn.read_bytes()
    last = whole.rindex(b"[Event ")
    for cut in (
        40,
        len(whole) - last - 3,
        len(whole) - last - 1,
    ):  # in the tags, in the result, before the blank line
        pgn.write_bytes(whole[: last + cut])
        result = run_selfplay(config)
        assert result.played == 1 and result.kept == 2
        assert any("unfinished record" in note for note in result.notes)
        assert pgn.read_bytes().startswith(whole[:last])
        assert game_ids(tmp_path) == [1, 2, 3]


def test_damage_before_the_end_is_an_error(tmp_path: Path) -> None:
    config = SelfplayConfig("chess", games=3, out=tmp_path, player="random", tc=None, max_plies=20, seed=5)
    run_selfplay(config)
    pgn = tmp_path / "games.pgn"
    text = pgn.read_bytes()
    second = text.index(b"[Event ", 1)
    pgn.write_bytes(text[: second - 10] + text[second:])
    with pytest.raises(ValueError, match="damaged"):
        run_selfplay(config)


def test_random_book_openings_are_distinct_and_stable() -> None:
    book = distinct_book("chess", 200, 4, seed=1)
    assert len({o.moves for o in book}) == 200
    assert distinct_book("chess", 50, 4, seed=1) == book[:50]
    assert distinct_book("chess", 50, 4, seed=2) != book[:50]
    # Chess has 20 first moves: 30 one-ply openings are those 20, then repeats.
    short = distinct_book("chess", 30, 1, seed=1)
    assert len({o.moves for o in short[:20]}) == 20 and short[20:] == short[:10]


def test_game_plans_depend_on_the_game_number_only() -> None:
    plan = GamePlan("orda", "random", "greedy", None, 4, 4, None, 100, 0.5)
    all_jobs = plan_jobs(plan, list(range(1, 21)))
    assert plan_jobs(plan, [7, 13]) == [all_jobs[6], all_jobs[12]]
    assert len({job.seed for job in all_jobs}) == 20
    assert [job.white_spec for job in all_jobs[:4]] == ["random", "greedy", "random", "greedy"]


def test_openings_file(tmp_path: Path) -> None:
    book = tmp_path / "book.txt"
    book.write_text("e2e4 e7e5\nd2d4 d7d5  # queen's pawn\n")
    out = tmp_path / "run"
    args = ["selfplay", "chess", "--games", "3", *FAST, "--openings", str(book), "--out", str(out), "--quiet"]
    assert main(args) == 0
    games = sorted(read_run_games(out), key=lambda g: int(g.headers["GameId"]))
    assert [g.mainline_moves()[0].uci() for g in games] == ["e2e4", "d2d4", "e2e4"]
    # Resuming without --openings uses the stored ones; a different file is refused.
    assert main(["selfplay", "chess", "--games", "4", "--out", str(out), "--quiet"]) == 0
    assert game_ids(out) == [1, 2, 3, 4]
    book.write_text("c2c4\n")
    assert main(["selfplay", "chess", "--games", "5", "--openings", str(book), "--out", str(out)]) == 2
    assert game_ids(out) == [1, 2, 3, 4]


def error_of(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("hordes: error: ") and "\n" not in err, err
    return err


def test_bad_input_gives_one_line_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = str(tmp_path / "run")
    assert "unknown variant 'nope'" in error_of(["selfplay", "nope", "--games", "2", "--out", out], capsys)
    assert "--games" in error_of(["selfplay", "chess", "--games", "0", "--out", out], capsys)
    assert "time control" in error_of(
        ["selfplay", "chess", "--games", "2", "--tc", "fast", "--out", out], capsys
    )
    assert "time control" in error_of(
        ["selfplay", "chess", "--games", "2", "--tc", "-1", "--out", out], capsys
    )
    assert "player 'nobody'" in error_of(
        ["selfplay", "chess", "--games", "2", "--player", "nobody", "--out", out], capsys
    )
    assert "--workers" in error_of(
        ["selfplay", "chess", "--games", "2", "--workers", "0", "--out", out], capsys
    )
    assert not (tmp_path / "run" / "games.pgn").exists()


def test_conflicting_resume_settings_name_the_setting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = str(tmp_path / "run")
    assert main(["selfplay", "chess", "--games", "2", *FAST, "--seed", "1", "--out", out, "--quiet"]) == 0
    capsys.readouterr()
    before = (tmp_path / "run" / "games.pgn").read_bytes()
    base = ["selfplay", "chess", "--games", "3", "--out", out]
    assert "variant chess, not orda" in error_of(["selfplay", "orda", "--games", "3", "--out", out], capsys)
    assert "--tc none, not 1+0.01" in error_of([*base, "--tc", "1+0.01"], capsys)
    assert "--player random, not greedy" in error_of([*base, "--player", "greedy"], capsys)
    assert "--opponent" in error_of([*base, "--opponent", "random"], capsys)
    assert "--seed 1, not 2" in error_of([*base, "--seed", "2"], capsys)
    assert "--book-plies 4, not 2" in error_of([*base, "--book-plies", "2"], capsys)
    assert "--max-plies 60, not 61" in error_of([*base, "--max-plies", "61"], capsys)
    assert (tmp_path / "run" / "games.pgn").read_bytes() == before
    # Left-out options come from run.json: this resumes.
    assert main([*base, "--quiet"]) == 0
    assert game_ids(tmp_path / "run") == [1, 2, 3]


def test_a_directory_in_use_is_refused(tmp_path: Path) -> None:
    import fcntl

    config = SelfplayConfig("chess", games=1, out=tmp_path, player="random", tc=None, max_plies=10)
    with (tmp_path / store.LOCK_FILE).open("a") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)
        with pytest.raises(ValueError, match="in use"):
            run_selfplay(config)
