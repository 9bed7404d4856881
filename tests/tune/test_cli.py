"""`hordes tune` end to end on a few quick games, and its user errors."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from hordes.cli import main
from hordes.core.position import Board
from hordes.engine.evaluate import Evaluator
from hordes.engine.match import MatchConfig, run_match
from hordes.tune.cli import HeldOut
from hordes.tune.positions import Position, SampleOptions, collect_positions, split_by_game, split_games
from hordes.tune.texel import fit_k, mse
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
    # Each position knows its game: the 8 games numbered across both files, 5 positions each.
    assert Counter(p.game for p in positions) == dict.fromkeys(range(8), 5)
    assert all(p.game == n // 5 for n, p in enumerate(positions))


def test_p4_decisive_games_only(games_dir: Path, tmp_path: Path) -> None:
    # Issue 18, point 4: --decisive samples won and lost games only; the drawn ones are counted.
    games = split_games((games_dir / "part0.pgn").read_text(encoding="utf-8"))
    assert all('[Result "1/2-1/2"]' not in g for g in games)
    # The same four games with the second one's result made a draw.
    drawn = re.sub(r'\[Result "[^"]*"\]', '[Result "1/2-1/2"]', games[1])
    drawn = re.sub(r"(1-0|0-1)\s*$", "1/2-1/2\n", drawn)
    (tmp_path / "games.pgn").write_text(games[0] + drawn + games[2] + games[3], encoding="utf-8")
    chess = load_variant("chess")
    every, _ = collect_positions(tmp_path, chess, SampleOptions(per_game=5))
    assert {p.game for p in every if p.result == 0.5} == {1}
    decisive, stats = collect_positions(tmp_path, chess, SampleOptions(per_game=5, decisive=True))
    assert stats.drawn == 1 and stats.used == 3
    assert decisive == [p for p in every if p.game != 1]


def test_split_is_by_game_and_seeded(games_dir: Path) -> None:
    positions, _ = collect_positions(games_dir, load_variant("chess"), SampleOptions(per_game=5))
    train, held = split_by_game(positions, 0.25, seed=3)
    assert len(held) == 10 and len(train) == 30  # 2 of the 8 games, all 5 positions of each
    assert {p.game for p in train}.isdisjoint({p.game for p in held})
    assert sorted(train + held, key=positions.index) == positions  # nothing lost or duplicated
    assert split_by_game(positions, 0.25, seed=3) == (train, held)  # deterministic for a seed
    splits = {frozenset(p.game for p in split_by_game(positions, 0.25, seed)[1]) for seed in range(10)}
    assert len(splits) > 1  # and the seed chooses the games
    assert split_by_game(positions, 0.0, seed=3) == (positions, [])


def test_split_sizes() -> None:
    """About FRACTION of the games held out, at least one; never every game, and none of one game."""
    positions = [Position(f"fen {g} {i}", 1.0, g) for g in range(20) for i in range(3)]
    train, held = split_by_game(positions, 0.1, seed=0)
    assert len({p.game for p in held}) == 2 and len(held) == 6 and len(train) == 54
    assert len({p.game for p in split_by_game(positions[:9], 0.1, seed=0)[1]}) == 1  # 3 games: still one
    assert split_by_game(positions[:2], 0.5, seed=0) == (positions[:2], [])  # one game: nothing held out


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

    # The held-out check (default --holdout 0.1: one of the 8 games).
    assert "# Split: " in header and "held out (--holdout 0.1, whole games)" in header
    found = re.search(r"^held out: (\d+) positions of 1 game; mean squared error ([\d.]+) with the original "
                      r"numbers, ([\d.]+) tuned$", printed, re.M)  # fmt: skip
    assert found, printed
    count, before, after = int(found[1]), float(found[2]), float(found[3])
    assert (
        f"# Held out: mean squared error {found[2]} with the original numbers, {found[3]} with the tuned "
        f"ones, on {count} positions of 1 game." in lines
    )
    warned = "warning: the fit did not generalise" in printed
    assert warned == (after >= before) == ("# Warning: the held-out error did not improve" in header)
    # The figures are the two documents' own errors on the games the seed holds out, with the K fitted
    # on the other games alone.
    chess = load_variant("chess")
    positions, _ = collect_positions(games_dir, chess, SampleOptions())
    train, held = split_by_game(positions, 0.1, seed=0)
    assert len(held) == count and len({p.game for p in held}) == 1
    assert f"chess: {len(train)} positions of 7 games (training set)" in printed

    def scores(ev: Evaluator, sample: list[Position]) -> np.ndarray:
        boards = [Board(chess, p.fen) for p in sample]
        return np.array([ev.evaluate(b) * (1 if b.side == 0 else -1) for b in boards], dtype=np.float64)

    labels = np.array([p.result for p in train])
    k = fit_k(labels, scores(Evaluator(chess), train))
    assert f"K = {k:.6g}" in printed
    held_labels = np.array([p.result for p in held])
    assert abs(mse(held_labels, scores(Evaluator(chess), held), k) - before) < 2e-6
    assert abs(mse(held_labels, scores(Evaluator(tuned), held), k) - after) < 2e-6


def test_holdout_zero_fits_every_position(
    games_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "chess-tuned.md"
    args = ["tune", "chess", "--positions", str(games_dir), "--out", str(out), "--params", "values",
            "--verify-games", "0", "--quiet", "--holdout", "0"]  # fmt: skip
    assert main(args) == 0
    printed = capsys.readouterr().out
    positions, _ = collect_positions(games_dir, load_variant("chess"), SampleOptions())
    assert printed.startswith(f"chess: {len(positions)} positions of 8 games, K = ")
    assert "held out" not in printed.lower() and "warning" not in printed
    header = out.read_text(encoding="utf-8")
    assert f"# Sample: {len(positions)} quiet positions of 8 games" in header
    assert "# Split:" not in header and "# Held out" not in header and "# Warning" not in header


def test_one_game_has_nothing_to_hold_out(
    games_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pgn = tmp_path / "one.pgn"
    pgn.write_text(split_games((games_dir / "part0.pgn").read_text(encoding="utf-8"))[0], encoding="utf-8")
    out = tmp_path / "one-tuned.md"
    args = ["tune", "chess", "--positions", str(pgn), "--out", str(out), "--params", "values",
            "--verify-games", "0", "--quiet"]  # fmt: skip
    assert main(args) == 0
    assert "held out: nothing (fewer than 2 games to split)" in capsys.readouterr().out
    assert "# Held out: nothing (fewer than 2 games)" in out.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("before", "after", "warned"), [(0.2, 0.19, False), (0.2, 0.2, True), (0.2, 0.21, True)]
)
def test_held_out_warning(before: float, after: float, warned: bool) -> None:
    check = HeldOut(0.1, 10, 1, 70, 7, before, after)
    printed = check.printed_lines()
    assert printed[0] == (
        f"held out: 10 positions of 1 game; mean squared error {before:.6f} with the original numbers, "
        f"{after:.6f} tuned"
    )
    assert (printed[1:] != []) == warned
    assert any("the fit did not generalise" in line for line in printed) == warned
    split, held = check.header_lines()
    assert split == [
        "Split: 70 positions of 7 games to fit, 10 of 1 game held out (--holdout 0.1, whole games)."
    ]
    assert any(line.startswith("Warning: ") for line in held) == warned
    assert HeldOut(0.0).printed_lines() == [] and HeldOut(0.0).header_lines() == ([], [])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["tune", "nosuchgame", "--positions", "GAMES"], "unknown variant 'nosuchgame'"),
        (["tune", "chess", "--positions", "GAMES", "--params", "values,wings"], "unknown parameter 'wings'"),
        (["tune", "khans", "--positions", "GAMES"], "no positions"),
        (["tune", "chess", "--positions", "MISSING"], "no file or directory"),
        (["tune", "chess", "--positions", "GAMES", "--workers", "0"], "--workers"),
        (["tune", "chess", "--positions", "GAMES", "--sprt", "5", "0", "0.05", "0.05"], "--sprt"),
        (["tune", "chess", "--positions", "GAMES", "--holdout", "0.9"], "--holdout must be at least 0"),
        (["tune", "chess", "--positions", "GAMES", "--holdout=-0.1"], "--holdout must be at least 0"),
        (["tune", "chess", "--positions", "GAMES", "--holdout", "nan"], "--holdout must be at least 0"),
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
