"""Variant documents: the built-ins load, inheritance works, and every kind of mistake is named."""

from __future__ import annotations

from pathlib import Path

import pytest

from hordes import Board, VariantError, builtin_variants, load_variant, parse_variant
from hordes.cli import main
from hordes.errors import UnknownVariantError
from tests.fsf import oracle

MINI = """---
title: Mini
slug: mini
parent: chess
engine:
  topology: {type: grid, rows: 6, cols: 6}
  setup: "rnbqkr/pppppp/6/6/PPPPPP/RNBQKR w - - 0 1"
  rules:
    castling: false
    double_step: {white: [], black: []}
    promotion:
      white: {pieces: [P], ranks: [6], choices: [Q, R, B, N]}
      black: {pieces: [P], ranks: [1], choices: [Q, R, B, N]}
---
A 6x6 test game.
"""


def test_every_builtin_document_loads_and_plays() -> None:
    slugs = {v.slug for v in builtin_variants()}
    assert {"chess", "orda", "khans"} <= slugs
    for v in builtin_variants():
        assert v.body.strip(), f"{v.slug} has no rules page"
        assert Board(v).legal_moves.count() > 0


@pytest.mark.parametrize("name", ["orda", "Orda", "ORDA", "Orda Chess", "orda-chess", "ordachess"])
def test_names_resolve_case_insensitively(name: str) -> None:
    assert load_variant(name).slug == "orda"


def test_unknown_variant_names_the_known_ones() -> None:
    with pytest.raises(UnknownVariantError, match=r"unknown variant 'shogi' \(known: .*orda"):
        load_variant("shogi")


def test_inheritance_merges_and_removes_pieces() -> None:
    khans = load_variant("khans")
    letters = {p.letter for p in khans.pieces}
    assert {"L", "A", "H", "T", "S", "K", "P"} <= letters
    assert "Y" not in letters  # removed with `Y: null`
    assert khans.rules.campmate is not None  # inherited from orda
    assert khans.rules.stalemate == "loss"  # overridden
    assert khans.rules.castling  # inherited from chess through orda


def test_a_user_document_on_another_board_size(tmp_path: Path) -> None:
    path = tmp_path / "mini.md"
    path.write_text(MINI)
    v = load_variant(str(path))
    assert (v.geometry.rows, v.geometry.cols) == (6, 6)
    board = Board(v)
    assert board.fen().startswith("rnbqkr/pppppp/6/6/PPPPPP/RNBQKR w")
    assert board.perft(1) == 6 + 2  # six single pawn steps (no double step) and two knight leaps


def test_a_6x6_game_agrees_with_fairy_stockfish() -> None:
    sf = oracle()
    board = Board(parse_variant(MINI))
    fen = board.fen()

    def fsf_perft(fen: str, depth: int) -> int:
        moves = sf.legal_moves("minitest", fen, [])  # type: ignore[attr-defined]
        if depth == 1:
            return len(moves)
        return sum(fsf_perft(sf.get_fen("minitest", fen, [m]), depth - 1) for m in moves)  # type: ignore[attr-defined]

    for depth in (1, 2, 3):
        assert board.perft(depth) == fsf_perft(fen, depth)


def _doc(engine: str = "", top: str = "") -> str:
    return f'---\ntitle: T\nslug: t\nparent: chess\n{top}engine:\n  setup: "8/8/8/8/8/8/8/K6k w - - 0 1"\n{engine}---\nbody\n'


BAD = [
    ("no front matter", "just text", "", "no YAML front matter"),
    ("bad yaml", "---\ntitle: [unclosed\n---\n", "", "not valid YAML"),
    ("unknown top key", _doc(top="colour: red\n"), "colour", "unknown key"),
    ("unknown engine key", _doc("  speed: 3\n"), "engine.speed", "unknown key"),
    ("unknown piece key", _doc("  pieces:\n    X: {betza: W, flies: true}\n"), "engine.pieces.X.flies", "unknown key"),
    ("bad betza", _doc("  pieces:\n    X: {betza: pQ}\n"), "engine.pieces.X.betza", "unsupported modifier 'p'"),
    ("missing betza", _doc("  pieces:\n    X: {name: Ex}\n"), "engine.pieces.X.betza", "missing"),
    ("bad letter", _doc("  pieces:\n    xy: {betza: W}\n"), "engine.pieces.xy", "one capital letter"),
    ("setup letter", _doc().replace("K6k", "K5zk"), "engine.setup", "'z' is not a piece"),
    ("promotion choice", _doc("  rules:\n    promotion: {white: {pieces: [P], ranks: [8], choices: [Z]}}\n"),
     "engine.rules.promotion.white.choices", "'Z' is not defined"),
    ("promote to king", _doc("  rules:\n    promotion: {white: {pieces: [P], ranks: [8], choices: [K]}}\n"),
     "engine.rules.promotion.white.choices", "royal"),
    ("camp not royal", _doc("  rules:\n    campmate: {pieces: [Q], white: [8], black: [1]}\n"),
     "engine.rules.campmate.pieces", "not royal"),
    ("no royal", _doc("  pieces:\n    K: {betza: K, royal: false}\n"), "engine.pieces", "no piece is royal"),
    ("unknown rule", _doc("  rules:\n    gravity: true\n"), "engine.rules.gravity", "unknown key"),
    ("bad stalemate", _doc("  rules:\n    stalemate: maybe\n"), "engine.rules.stalemate", "must be one of"),
    ("rank range", _doc("  rules:\n    double_step: {white: [9]}\n"), "engine.rules.double_step.white", "out of range"),
    ("topology", _doc("  topology: {type: hex, rows: 8, cols: 8}\n"), "engine.topology.type", "only 'grid'"),
    ("setup size", _doc("  topology: {rows: 9, cols: 8}\n"), "engine.setup", "expected 9 ranks"),
    ("unknown parent", "---\ntitle: T\nslug: t\nparent: shogi\nengine: {}\n---\n", "parent", "unknown variant"),
    ("no slug", "---\ntitle: T\nparent: chess\n---\n", "slug", "non-empty string"),
]  # fmt: skip


@pytest.mark.parametrize(("label", "text", "key", "problem"), BAD, ids=[b[0] for b in BAD])
def test_bad_documents_name_the_file_key_and_problem(label: str, text: str, key: str, problem: str) -> None:
    with pytest.raises(VariantError) as info:
        parse_variant(text, source="user/bad.md")
    err = info.value
    assert err.source == "user/bad.md"
    assert err.key == key, str(err)
    assert problem in err.problem, str(err)
    assert str(err).startswith("user/bad.md")


def test_parent_cycle_is_reported(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("---\ntitle: A\nslug: a\nparent: b.md\nengine: {}\n---\n")
    (tmp_path / "b.md").write_text("---\ntitle: B\nslug: b\nparent: a.md\nengine: {}\n---\n")
    with pytest.raises(VariantError, match="cycle"):
        load_variant(str(tmp_path / "a.md"))


def test_cli_check_reports_ok_and_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "mini.md"
    good.write_text(MINI)
    assert main(["check", str(good)]) == 0
    assert "ok — Mini" in capsys.readouterr().out
    bad = tmp_path / "bad.md"
    bad.write_text(_doc("  pieces:\n    X: {betza: pQ}\n"))
    assert main(["check", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "engine.pieces.X.betza" in err and "Traceback" not in err


def test_cli_variants_and_perft(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["variants"]) == 0
    out = capsys.readouterr().out
    assert "orda" in out and "khans" in out and "chess" in out and "capablanca" not in out
    assert main(["variants", "--all"]) == 0
    assert "capablanca" in capsys.readouterr().out  # the Fairy-Stockfish documents, listed apart
    assert main(["perft", "orda", "3", "--quiet"]) == 0
    assert capsys.readouterr().out.strip() == "12462"
    assert main(["perft", "chess", "2", "--divide"]) == 0
    out = capsys.readouterr().out
    assert "e2e4: 20" in out and "perft 2: 400" in out
    assert main(["perft", "chess", "1", "--fen", "8/8/8 w - - 0 1"]) == 2
    assert "invalid FEN (placement)" in capsys.readouterr().err
