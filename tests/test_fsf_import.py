"""Issue 16 point 6: `hordes import fairy-stockfish`, on sections written for these tests
(tests/data/fsf_import.ini): inheritance from a built-in and from a section above, a section with no
parent, keys hordes cannot express; malformed files. Each imported document must load and count the
same perft as pyffish with the same ini loaded."""

from __future__ import annotations

from pathlib import Path

import pyffish
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hordes import Board, VariantError, load_variant, parse_variant
from hordes.cli import main
from hordes.errors import HordesError
from hordes.fsf.importer import import_text
from hordes.fsf.ini import IniError, parse_ini
from hordes.fsf.model import OTHER_DEFAULTS, TYPE_ORDER
from tests.pyffish_perft import compare_perft

DATA = Path(__file__).resolve().parent / "data"
INI = DATA / "fsf_import.ini"
EXPRESSIBLE = ["smallchess", "smallamazon", "wazirs", "qamazon"]
_loaded = False


def _pyffish() -> object:
    """pyffish with the test sections loaded once (their names are unique to this file)."""
    global _loaded
    if not _loaded:
        pyffish.load_variant_config(INI.read_text(encoding="utf-8"))
        _loaded = True
    return pyffish


@pytest.fixture(scope="module")
def imported() -> dict[str, object]:
    return {r.name: r for r in import_text(INI.read_text(encoding="utf-8"), str(INI))}


@pytest.mark.parametrize("name", EXPRESSIBLE)
def test_p6_import_perft_matches_pyffish(name: str, imported: dict[str, object], tmp_path: Path) -> None:
    result = imported[name]
    assert result.document is not None, result.problems  # type: ignore[attr-defined]
    path = tmp_path / f"{name}.md"
    path.write_text(result.document, encoding="utf-8")  # type: ignore[attr-defined]
    board = Board(load_variant(str(path)))
    sf = _pyffish()
    assert board.fen() == sf.start_fen(name)  # type: ignore[attr-defined]
    for what, ours, theirs in compare_perft(sf, name, board):
        assert ours == theirs, f"{name}: {what}: hordes {ours}, pyffish {theirs}"


def test_p6_import_resolves_inheritance(imported: dict[str, object]) -> None:
    """[smallamazon:smallchess] keeps its parent's 6x6 board and pawns, and changes what it names."""
    v = parse_variant(imported["smallamazon"].document)  # type: ignore[attr-defined]
    assert (v.geometry.rows, v.geometry.cols) == (6, 6)
    letters = {p.letter: p for p in v.pieces}
    assert letters["A"].betza == "QN" and letters["N"].betza == "NN" and "Q" not in letters
    assert v.rules.stalemate == "loss" and v.rules.n_move_rule == 30
    assert v.rules.promotion[0].choices == ("R", "A", "N") and v.rules.promotion[0].ranks == (5,)
    assert not v.rules.castling and v.rules.double_step_ranks == ((), ())


def test_p6_import_lists_keys_it_cannot_express(imported: dict[str, object]) -> None:
    grass = imported["dropgrass"]
    assert grass.document is None  # type: ignore[attr-defined]
    where = {p.key: p.where for p in grass.problems}  # type: ignore[attr-defined]
    assert {"pieceDrops", "checkCounting", "customPiece1", "startFen"} <= set(where)
    assert where["pieceDrops"] == f"{INI}:{_line_of('pieceDrops = true')}"
    mechanisms = {p.mechanism for p in grass.problems}  # type: ignore[attr-defined]
    assert any("drops" in m for m in mechanisms) and any("hoppers" in m for m in mechanisms)
    # what a built-in parent brings is named too, with the built-in it comes from
    shogi = imported["bigshogi"]
    assert shogi.document is None  # type: ignore[attr-defined]
    assert any(p.key == "pieceDrops" and "built-in" in p.where for p in shogi.problems)  # type: ignore[attr-defined]


def _line_of(text: str) -> int:
    return INI.read_text(encoding="utf-8").splitlines().index(text) + 1


def test_p6_import_refuses_unknown_keys_and_builtin_names() -> None:
    (unknown,) = import_text("[typo:chess]\npromotionPieceType = q\n")
    assert unknown.document is None
    assert [p.key for p in unknown.problems] == ["promotionPieceType"]
    (chess,) = import_text("[chess]\nmaxRank = 8\n")
    assert chess.document is None and "built-in" in chess.problems[0].detail


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("[a:chess]\nmaxRank = 6\nnot a pair\n", 3, "key = value"),
        ("maxRank = 6\n[a:chess]\n", 1, "before any [section]"),
        ("[a:chess\nmaxRank = 6\n", 1, "section header"),
        ("[a]\n[a:chess]\n", 2, "already defined on line 1"),
        ("[a:chess]\n = 6\n", 2, "key = value"),
        ("# comment\n\n[a:nosuchvariant]\n", 3, "nosuchvariant"),
        ("[a:chess]\nmaxFile = 40\n", 2, "maxFile"),
        ("[a:chess]\npromotionRegionWhite = z99\n", 2, "promotionRegionWhite"),
        ("[a:chess]\npromotionPieceTypes = qx\n", 2, "letter 'x'"),
        ("[a:chess]\nstartFen =\n", 2, "starting position is empty"),
    ],
)
def test_p6_malformed_ini_error_names_the_line(text: str, line: int, words: str) -> None:
    with pytest.raises(IniError) as caught:
        import_text(text, "bad.ini")
    assert caught.value.line == line and words in str(caught.value)
    assert str(caught.value).startswith(f"bad.ini:{line}:")


def test_p6_ini_parser_keeps_the_last_value_and_skips_comments() -> None:
    (section,) = parse_ini("; semicolon comment\n[x:chess]\n# hash comment\nmaxRank = 6\nmaxRank = 7\n")
    assert section.parent == "chess" and section.entries["maxRank"].value == "7"
    assert section.entries["maxRank"].line == 5


def test_p6_cli_import(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "docs"
    assert main(["import", "fairy-stockfish", str(INI), "smallchess", "wazirs", "--out", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["smallchess.md", "wazirs.md"]
    assert main(["check", str(out / "wazirs.md")]) == 0
    capsys.readouterr()
    assert main(["import", "fairy-stockfish", str(INI), "dropgrass", "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert "[dropgrass]: not imported" in err and f"pieceDrops ({INI}:" in err
    assert not (out / "dropgrass.md").exists()
    bad = tmp_path / "bad.ini"
    bad.write_text("[x:chess]\nmaxRank 6\n", encoding="utf-8")
    assert main(["import", "fairy-stockfish", str(bad)]) == 2
    assert f"{bad}:2:" in capsys.readouterr().err
    assert main(["import", "fairy-stockfish", str(INI), "nosuch"]) == 2
    assert "no section 'nosuch'" in capsys.readouterr().err
    assert main(["import", "fairy-stockfish", str(tmp_path / "missing.ini")]) == 2


CASTLING_DOC = """---
slug: wide
engine:
  topology: {type: grid, rows: 8, cols: 10}
  setup: "r3k4r/pppppppppp/10/10/10/10/PPPPPPPPPP/R3K4R w KQkq - 0 1"
  pieces:
    P: {betza: fmWfcF, pawn: true}
    R: {betza: R}
    K: {betza: K, royal: true}
  rules:
    castling: true
    castling_files: FILES
    double_step: {white: [2], black: [7]}
    en_passant: true
---
"""


def test_p6_castling_files_are_the_documents() -> None:
    """`castling_files` (the loader's new key, for Janus, Embassy, Modern and Chancellor Chess): the
    king lands on the files named, the rook beside it on the inside."""
    board = Board(parse_variant(CASTLING_DOC.replace("FILES", "[b, h]")))
    castles = {m.uci() for m in board.legal_moves if m.from_square == board.geometry.parse_square("e1")}
    assert {"e1b1", "e1h1"} <= castles and "e1i1" not in castles and "e1c1" not in castles
    board.push_uci("e1h1")
    assert board.board_fen().split("/")[-1] == "R5RK2"
    default = Board(parse_variant(CASTLING_DOC.replace("    castling_files: FILES\n", "")))
    assert {"e1c1", "e1i1"} <= {m.uci() for m in default.legal_moves}


@pytest.mark.parametrize(
    ("files", "words"),
    [
        ("[b]", "two file letters"),
        ("[b, k]", "files are letters a to j"),
        ("[h, b]", "queenside file comes first"),
    ],
)
def test_p6_castling_files_errors(files: str, words: str) -> None:
    with pytest.raises(VariantError) as caught:
        parse_variant(CASTLING_DOC.replace("FILES", files))
    assert "engine.rules.castling_files" in str(caught.value) and words in str(caught.value)
    off = CASTLING_DOC.replace("FILES", "[b, h]").replace("castling: true", "castling: false")
    with pytest.raises(VariantError, match="castling is off"):
        parse_variant(off.replace(" KQkq ", " - "))


def test_p6_campmate_squares_errors_name_the_key() -> None:
    doc = CASTLING_DOC.replace("FILES", "[c, i]").replace(
        "    en_passant: true\n",
        "    en_passant: true\n    campmate: {pieces: [K], white: [e5, z9], black: [1]}\n",
    )
    with pytest.raises(VariantError, match=r"engine\.rules\.campmate\.white: .*'z9'"):
        parse_variant(doc)


_KEYS = sorted(
    {*OTHER_DEFAULTS, *TYPE_ORDER[:8], "customPiece1", "king", "maxRank", "maxFile", "startFen",
     "promotionRegionWhite", "promotionPieceTypes", "doubleStepRegionBlack", "enPassantRegion",
     "castlingKingsideFile", "flagRegion", "flagPiece", "nFoldRule", "nFoldValue", "nMoveRule",
     "stalemateValue", "pieceValueMg", "promotedPieceType", "promotionLimit", "pawnTypes"}
)  # fmt: skip
_VALUES = st.one_of(
    st.sampled_from(["true", "false", "-", "*", "k", "q:1", "p:g", "*8 d4", "n:NN", "x:pQ", "3", "0", "win",
                     "rnbqkbnr/8/8/8/8/8/8/RNBQKBNR w - - 0 1", "8/8/8/8/8/8/8/8[] w 0 1"]),
    st.text(alphabet="abkpqnr*-: 0123456789/[]+~", max_size=12),
)  # fmt: skip


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.sampled_from(_KEYS), _VALUES), max_size=6))
def test_p6_import_never_crashes(entries: list[tuple[str, str]]) -> None:
    """Any mix of Fairy-Stockfish keys and values: a document, a list of problems, or an IniError
    naming the line; never another exception."""
    text = "[fuzz:chess]\n" + "".join(f"{k} = {v}\n" for k, v in entries)
    try:
        (result,) = import_text(text, "fuzz.ini")
    except HordesError:
        return
    if result.document is not None:
        parse_variant(result.document)
