"""The tuned document: inherits the original's rules, loads, and drives a player via `evalfile`."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from hordes.core.position import Board
from hordes.engine.match import GameJob, Opening, play_game
from hordes.engine.players import HORDES_KEYS, HordesPlayer, parse_player
from hordes.errors import HordesError
from hordes.tune.document import tuned_document
from hordes.tune.texel import Param
from hordes.variants import REGISTRY, load_variant

CHANGES = [
    (Param("value", "N", 0), 781, 800),
    (Param("value", "Q", 1), 2682, 2600),
    (Param("pair", "centre", 0), 4, 6),
    (Param("scalar", "tempo", 0), 10, 15),
]


def write(variant_name: str, out: Path, changes: list[tuple[Param, int, int]] = CHANGES) -> Path:
    variant = load_variant(variant_name)
    out.write_text(tuned_document(variant, changes, out, ["made by a test"]), encoding="utf-8")
    return out


@pytest.mark.parametrize("name", ["chess", "orda"])
def test_tuned_document_inherits_the_rules(name: str, tmp_path: Path) -> None:
    original = load_variant(name)
    path = write(name, tmp_path / f"{name}-tuned.md")
    text = path.read_text(encoding="utf-8")
    assert f'parent: "{name}"' in text and "# made by a test" in text
    tuned = REGISTRY.load(str(path))
    assert tuned.slug == f"{name}-tuned"
    assert [p.letter for p in tuned.pieces] == [p.letter for p in original.pieces]
    assert tuned.rules == original.rules and tuned.start_fen == original.start_fen
    assert Board(tuned).perft(3) == Board(original).perft(3)
    pieces = {p.letter: p for p in tuned.pieces}
    old = {p.letter: p for p in original.pieces}
    assert (pieces["N"].value_mg, pieces["N"].value_eg) == (800, old["N"].value_eg)
    assert (pieces["Q"].value_mg, pieces["Q"].value_eg) == (old["Q"].value_mg, 2600)
    assert pieces["R"] == old["R"]
    # Only the changed numbers are written; the rest of the evaluation comes from the parent.
    assert tuned.evaluation["centre"] == [6, original.evaluation.get("centre", [4, 2])[1]]
    assert tuned.evaluation["tempo"] == 15
    assert {k: v for k, v in tuned.evaluation.items() if k not in ("centre", "tempo")} == {
        k: v for k, v in original.evaluation.items() if k not in ("centre", "tempo")
    }
    assert "R:" not in text and "royal_centre" not in text


def test_parent_of_a_users_document_is_a_relative_path(tmp_path: Path) -> None:
    mine = tmp_path / "docs" / "mychess.md"
    mine.parent.mkdir()
    shutil.copy(REGISTRY.find("chess"), mine)
    mine.write_text(
        mine.read_text(encoding="utf-8").replace("slug: chess", "slug: mychess"), encoding="utf-8"
    )
    variant = REGISTRY.load(str(mine))
    out = tmp_path / "out" / "tuned.md"
    out.parent.mkdir()
    write(str(mine), out)
    assert 'parent: "../docs/mychess.md"' in out.read_text(encoding="utf-8")
    tuned = REGISTRY.load(str(out))
    assert tuned.rules == variant.rules
    assert Board(tuned).legal_moves.count() == 20


def test_nothing_changed_still_loads(tmp_path: Path) -> None:
    path = write("chess", tmp_path / "same.md", [])
    assert "engine: {}" in path.read_text(encoding="utf-8")
    assert REGISTRY.load(str(path)).pieces == load_variant("chess").pieces


def test_evalfile_player_spec(tmp_path: Path) -> None:
    path = write("chess", tmp_path / "tuned.md")
    assert "evalfile" in HORDES_KEYS
    player = parse_player(f"hordes:evalfile={path},depth=1")
    assert isinstance(player, HordesPlayer)
    assert player.searcher.eval_variant is REGISTRY.load(str(path))
    plain = parse_player("hordes:depth=1")
    assert isinstance(plain, HordesPlayer) and plain.searcher.eval_variant is None
    with pytest.raises(HordesError, match="no variant document"):
        parse_player(f"hordes:evalfile={tmp_path / 'missing.md'}")


def test_evalfile_player_plays_a_legal_game(tmp_path: Path) -> None:
    """The tuned numbers, the original rules: a whole game with no illegal move or engine failure."""
    path = write("orda", tmp_path / "orda-tuned.md")
    job = GameJob(
        round=1,
        white_spec=f"hordes:evalfile={path},depth=1,name=tuned",
        black_spec="random",
        player1_white=True,
        variant="orda",
        opening=Opening(None),
        tc=None,
        max_plies=80,
        time_margin=0.5,
        seed=1,
    )
    game = play_game(job)
    assert game.error == "" and game.termination not in ("illegal move", "engine failure")
    board = Board("orda")
    for move in game.moves:
        board.push_uci(move)  # raises on an illegal move
    assert game.white == "tuned" and game.variant == "orda"


def test_evalfile_with_other_pieces_fails_the_game(tmp_path: Path) -> None:
    path = write("chess", tmp_path / "chess-tuned.md")
    job = GameJob(
        1, f"hordes:evalfile={path},depth=1", "random", True, "orda", Opening(None), None, 20, 0.5, 1
    )
    game = play_game(job)
    assert game.termination == "engine failure" and "pieces differ" in game.error
