"""Issue 16 point 1: what release 0.3.0 stored still loads and plays on after the colour change.

The artefacts in tests/data/v0_3_0 were written by 0.3.0 itself (make_artefacts.py there says how):
a web games database, the web app's PGN exports, and a self-play run, which `hordes balance` reads.
0.3.0 stored colours as side numbers (0 = White); these tests read them with today's code.
"""

from __future__ import annotations

import re
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from hordes import BLACK, WHITE, Board
from hordes.cli import main as hordes_main
from hordes.notation import read_games
from hordes.web.app import create_app

DATA = Path(__file__).resolve().parents[1] / "data" / "v0_3_0"
IDS = dict(line.split() for line in (DATA / "game-ids.txt").read_text().splitlines())


@pytest.fixture
def client(tmp_path: Path) -> Any:
    shutil.copy(DATA / "games.sqlite3", tmp_path / "hordes.sqlite3")
    with TestClient(create_app(data_dir=tmp_path, engine_workers=1, engine_movetime=0.2)) as c:
        yield c


def _tokens(path: Path, game_id: str) -> tuple[str, str]:
    with sqlite3.connect(path) as db:
        row = db.execute("SELECT white_token, black_token FROM games WHERE id = ?", (game_id,)).fetchone()
    return row[0], row[1]


def test_p1_v030_finished_games_keep_their_winners(client: TestClient) -> None:
    expect = {
        "fools_mate": ("0-1", "black", "Black wins by checkmate"),
        "scholars_mate": ("1-0", "white", "White wins by checkmate"),
        "orda_resigned": ("0-1", "black", "White resigned — Black wins"),
        "khans_draw": ("1/2-1/2", None, "Draw by agreement"),
    }
    for name, (result, winner, reason) in expect.items():
        state = client.get(f"/api/games/{IDS[name]}").json()
        assert (state["result"], state["winner"], state["reason"]) == (result, winner, reason), name
        assert state["status"] == "over"


def test_p1_v030_running_games_play_on(client: TestClient, tmp_path: Path) -> None:
    db = tmp_path / "hordes.sqlite3"
    for name, mover in (("hordes_running", 1), ("orda_running", 0)):
        game_id = IDS[name]
        state = client.get(f"/api/games/{game_id}").json()
        move = min(m.uci() for m in Board(state["variant"]["slug"], state["fen"]).legal_moves)
        assert state["turn"] == ("white", "black")[mover] and state["status"] == "playing"
        token = _tokens(db, game_id)[mover]
        r = client.post(
            f"/api/games/{game_id}/moves",
            json={"uci": move, "ply": state["ply"]},
            headers={"X-Seat-Token": token},
        )
        assert r.status_code == 200, r.text
        after = client.get(f"/api/games/{game_id}").json()
        assert after["ply"] == state["ply"] + 1 and after["turn"] == ("black", "white")[mover]
    engine_game = client.get(f"/api/games/{IDS['orda_engine']}").json()
    assert engine_game["turn"] == "white" and engine_game["ply"] == 2


def test_p1_v030_pgn_exports_replay_to_their_results(client: TestClient) -> None:
    for name, game_id in IDS.items():
        old = (DATA / f"web-{name}.pgn").read_text(encoding="utf-8")
        (game,) = read_games(old)
        board = game.end().board()
        result = game.headers["Result"]
        outcome = board.outcome()
        if outcome is not None:  # a game ended by the rules: today's rules give the same winner
            assert outcome.result() == result, name
            assert outcome.winner is {"1-0": WHITE, "0-1": BLACK}.get(result), name
        new = client.get(f"/api/games/{game_id}/pgn").text
        assert _movetext(new) == _movetext(old), name


def _movetext(pgn: str) -> str:
    return " ".join(line for line in pgn.splitlines() if line and not line.startswith("["))


def test_p1_v030_selfplay_run_resumes_and_balance_reads_it(tmp_path: Path, capsys: Any) -> None:
    run = tmp_path / "run"
    shutil.copytree(DATA / "selfplay", run)
    old_pgn = (run / "games.pgn").read_text(encoding="utf-8")
    results = re.findall(r'\[Result "([^"]+)"\]', old_pgn)
    assert len(results) == 6
    for game in read_games(old_pgn):  # each stored game replays, and ends as its Result says
        outcome = game.end().board().outcome()
        assert outcome is not None and outcome.result() == game.headers["Result"]
    # The same command with more games resumes the run: the six old games stay as they were.
    code = hordes_main(["selfplay", "orda", "--games", "8", "--out", str(run), "--tc", "none", "--quiet"])
    assert code == 0
    new_pgn = (run / "games.pgn").read_text(encoding="utf-8")
    assert new_pgn.startswith(old_pgn) and len(re.findall(r"\[Result ", new_pgn)) == 8
    capsys.readouterr()
    assert hordes_main(["balance", str(run / "games.pgn"), "--variant", "orda"]) == 0
    report = capsys.readouterr().out
    new_results = re.findall(r'\[Result "([^"]+)"\]', new_pgn)
    # The report counts the wins as the Result tags have them: a mixed-up colour would swap them.
    for label, result in (("White wins", "1-0"), ("Black wins", "0-1"), ("Draws", "1/2-1/2")):
        assert re.search(rf"{label}\s+{new_results.count(result)}\s", report), (label, report)
    assert ": 8 games" in report


def test_p1_v030_boards_from_stored_fens() -> None:
    """The FENs 0.3.0 stored (side to move as w/b) give the same side to move as a bool."""
    with sqlite3.connect(DATA / "games.sqlite3") as db:
        rows = db.execute("SELECT variant, fen FROM games").fetchall()
    assert rows
    for variant, fen in rows:
        board = Board(variant, fen)
        assert board.turn is (fen.split()[1] == "w")
