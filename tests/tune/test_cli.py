"""`hordes tune` end to end on a few quick games, and its user errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from hordes.cli import main
from hordes.core.position import Board
from hordes.engine.match import MatchConfig, run_match
from hordes.tune.positions import SampleOptions, collect_positions, split_games
from hordes.variants import REGISTRY, load_variant


@pytest.fixture(scope="module")
def games_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two PGN files of greedy-versus-random chess games (no clock: fast and deterministic)."""
    directory = tmp_path_factory.mktemp("games")
    for n, seed in enumerate((1, 2)):
        config = MatchConfig(
            "greedy", "random", variant="chess", games=4, tc=None, max_plies=160, seed=seed,
            pgn=directory / f"part{n}.pgn",
        )  # fmt: skip
        run_match(config)
    config = MatchConfig(
        "greedy", "random", variant="orda", games=2, tc=None, max_plies=60, seed=3,
        pgn=directory / "orda.pgn.txt",
    )  # fmt: skip
    run_match(config)
    return directory


def test_sampling(games_dir: Path) -> None:
    text = (games_dir / "part0.pgn").read_text(encoding="utf-8")
    assert len(split_games(text)) == 4
    positions, stats = collect_positions(games_dir, load_variant("chess"), SampleOptions(per_game=5))
    assert stats.games == 8 and stats.used == 8
    assert len(positions) == 40 and {p.result for p in positions} <= {0.0, 0.5, 1.0}
    for p in positions:
        board = Board("chess", p.fen)
        assert not board.is_check() and board.outcome() is None and board.fullmove >= 5
    again, _ = collect_positions(games_dir, load_variant("chess"), SampleOptions(per_game=5), workers=2)
    assert again == positions  # the same sample on worker processes


def test_tune_end_to_end(games_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "chess-tuned.md"
    code = main(
        [
            "tune", "chess", "--positions", str(games_dir), "--out", str(out), "--params", "values,tempo",
            "--verify-games", "2", "--tc", "none", "--verify-depth", "1", "--quiet", "--workers", "2",
        ]
    )  # fmt: skip
    printed = capsys.readouterr().out
    assert code == 0, printed
    assert "parameter" in printed and "Q.eg" in printed and "tempo" in printed and "centre" not in printed
    assert "max deviation" in printed and "mean squared error" in printed
    assert "SPRT elo0=0 elo1=10" in printed and "tuned vs original: Elo" in printed
    tuned = REGISTRY.load(str(out))
    assert tuned.rules == load_variant("chess").rules
    header = out.read_text(encoding="utf-8")
    lines = header.splitlines()
    assert any(line.startswith("# Made by `hordes tune`") for line in lines)
    assert any(line.startswith("# Fit: ridge") and "K = " in line for line in lines)
    assert any(line.startswith("# Sample: ") and "of 8 games" in line for line in lines)
    assert f"# Games: {games_dir}" in lines  # a long path stays on its own line


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["tune", "nosuchgame", "--positions", "GAMES"], "unknown variant 'nosuchgame'"),
        (["tune", "chess", "--positions", "GAMES", "--params", "values,wings"], "unknown parameter 'wings'"),
        (["tune", "khans", "--positions", "GAMES"], "no positions"),
        (["tune", "chess", "--positions", "MISSING"], "no file or directory"),
        (["tune", "chess", "--positions", "GAMES", "--workers", "0"], "--workers"),
        (["tune", "chess", "--positions", "GAMES", "--sprt", "5", "0", "0.05", "0.05"], "--sprt"),
    ],
)
def test_user_errors(
    games_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    args = [
        str(games_dir) if a == "GAMES" else str(tmp_path / "missing.pgn") if a == "MISSING" else a
        for a in args
    ]
    assert main([*args, "--out", str(tmp_path / "x.md"), "--verify-games", "0", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "x.md").exists()


def test_no_positions_names_the_variants_found(
    tmp_path: Path, games_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pgn = tmp_path / "orda.pgn"
    pgn.write_text((games_dir / "orda.pgn.txt").read_text(encoding="utf-8"), encoding="utf-8")
    assert main(["tune", "chess", "--positions", str(pgn), "--verify-games", "0", "--quiet"]) == 2
    assert "games of: orda" in capsys.readouterr().err
