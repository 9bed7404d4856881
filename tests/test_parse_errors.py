"""Issue 13, point 11: every parsing error is a HordesError (a ValueError) that names the problem.

Each test feeds one of the inputs that used to escape as another exception (RecursionError, OSError,
UnicodeDecodeError, a plain ValueError) and checks the type and the words of the error. The fuzz
suite (tests/fuzz/test_fuzz_parsers.py) runs the same inputs as explicit examples among random ones.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hordes import Board, HordesError, UnreadableFileError, VariantError, load_variant, parse_variant
from hordes.cli import main
from hordes.core.betza import parse_betza
from hordes.errors import InvalidFenError, InvalidMoveError, UnknownVariantError
from hordes.notation.pgn import read_games
from hordes.notation.san import parse_san

LONG_NAME = "x" * 5000
HUGE = "1" * 5000  # int() refuses strings of more than 4300 digits
CHESS_END = "8/8/8/8/8/8/8/K6k"


def _doc(engine: str, top: str = "") -> str:
    return f"---\ntitle: T\nslug: t\nparent: chess\n{top}engine:\n{engine}---\nbody\n"


def test_p11_deeply_nested_yaml_is_a_variant_error() -> None:
    text = "---\ntitle: T\nslug: t\nengine: " + "[" * 5000 + "]" * 5000 + "\n---\n"
    with pytest.raises(VariantError, match="nested more than 50 levels") as info:
        parse_variant(text, "deep.md")
    assert info.value.line == 4


def test_p11_a_chain_of_1200_parents_stops_at_the_limit(tmp_path: Path) -> None:
    (tmp_path / "p0.md").write_text("---\ntitle: T\nslug: t\nparent: chess\n---\n")
    for i in range(1, 1200):
        (tmp_path / f"p{i}.md").write_text(f"---\ntitle: T\nslug: t\nparent: p{i - 1}.md\n---\n")
    last = str(tmp_path / "p1199.md")
    with pytest.raises(VariantError, match="more than 20 generations of parents") as info:
        load_variant(last)
    assert info.value.source == last and info.value.key == "parent" and info.value.line == 4
    # Twenty generations are allowed: p20 -> p19 -> ... -> p0 -> chess.
    assert load_variant(str(tmp_path / "p19.md")).slug == "t"


def test_p11_a_very_long_file_name_is_named_not_dumped(tmp_path: Path) -> None:
    with pytest.raises(UnknownVariantError, match=r"\(5003 characters\)") as info:
        load_variant(LONG_NAME + ".md")
    assert len(str(info.value)) < 300
    with pytest.raises(UnreadableFileError, match=r"\(5000 characters\)"):
        list(read_games(Path(LONG_NAME)))
    bad_parent = tmp_path / "child.md"
    bad_parent.write_text(_doc("  pieces: {}\n").replace("parent: chess", f"parent: {LONG_NAME}.md"))
    with pytest.raises(VariantError, match="5003 characters") as vinfo:
        load_variant(str(bad_parent))
    assert vinfo.value.key == "parent"


def test_p11_a_file_that_is_not_utf8_is_an_unreadable_file_error(tmp_path: Path) -> None:
    doc = tmp_path / "latin.md"
    doc.write_bytes(b"---\ntitle: Caf\xe9\n---\n")
    with pytest.raises(UnreadableFileError, match=r"not UTF-8 text \(byte 0xe9 at offset 14\)"):
        load_variant(str(doc))
    pgn = tmp_path / "latin.pgn"
    pgn.write_bytes(b'[White "Caf\xe9"]\n\n1. e4 *\n')
    with pytest.raises(UnreadableFileError, match="not UTF-8"):
        list(read_games(pgn))
    with pgn.open(encoding="utf-8") as stream, pytest.raises(UnreadableFileError, match="not UTF-8"):
        list(read_games(stream))
    child = tmp_path / "child.md"
    child.write_text(_doc("  pieces: {}\n").replace("parent: chess", "parent: latin.md"))
    with pytest.raises(VariantError, match="not UTF-8") as info:
        load_variant(str(child))
    assert info.value.key == "parent"


@pytest.mark.parametrize(
    ("fen", "field"),
    [
        (f"{CHESS_END} w - - ² 1", "halfmove clock"),
        (f"{CHESS_END} w - - 0 ²", "fullmove number"),
        (f"{CHESS_END} w - - {HUGE} 1", "halfmove clock"),
        (f"{CHESS_END} w - - 0 {HUGE}", "fullmove number"),
        ("8/8/8/8/8/8/8/K²5k w - - 0 1", "placement"),
        (f"8/8/8/8/8/8/8/K{HUGE}k w - - 0 1", "placement"),
        (f"{CHESS_END} w - e{HUGE} 0 1", "en passant"),
        (f"{CHESS_END} w - e² 0 1", "en passant"),
    ],
    ids=["clock ²", "number ²", "clock huge", "number huge", "placement ²", "placement huge",
         "ep huge", "ep ²"],
)  # fmt: skip
def test_p11_superscript_digits_and_huge_numbers_in_a_fen(fen: str, field: str) -> None:
    with pytest.raises(InvalidFenError) as info:
        Board("chess", fen)
    assert info.value.field == field
    assert len(str(info.value)) < 700  # the 5000 digits are not echoed


@pytest.mark.parametrize("text", ["W²", "R" + HUGE, "R100"])
def test_p11_superscript_digits_and_huge_ranges_in_betza(text: str) -> None:
    with pytest.raises(HordesError, match=r"unknown atom '²'|at most 99"):
        parse_betza(text)


@pytest.mark.parametrize("variant", ["chess", "hordes"])
@pytest.mark.parametrize("text", ["e" + HUGE, "Ne" + HUGE, "e2e" + HUGE, "Ke1:e" + HUGE, "e²", "a1²"])
def test_p11_huge_and_non_ascii_numbers_in_san(variant: str, text: str) -> None:
    with pytest.raises(InvalidMoveError, match="not a move"):
        parse_san(Board(variant), text)


@pytest.mark.parametrize("text", ["e2e" + HUGE, "e" + HUGE + "e4", "e٢e٤", "e²e4"])
def test_p11_huge_and_non_ascii_numbers_in_uci(text: str) -> None:
    with pytest.raises(InvalidMoveError, match="not a UCI move"):
        Board().parse_uci(text)


def test_p11_the_pgn_reader_goes_on_after_a_bad_fen_tag_or_a_huge_nag() -> None:
    games = list(
        read_games(
            f'[FEN "{CHESS_END} w - - ² 1"]\n\n*\n\n'
            f"1. e4 ${HUGE} e5 *\n\n"
            "1. d4 $300 *\n\n"
            f'[FEN "{CHESS_END} w - - {HUGE} 1"]\n\n*\n\n'
            f"1. e{HUGE} *\n\n"
            '[Event "fine"]\n\n1. e4 $1 e5 $255 *\n'
        )
    )
    assert [g.number for g in games] == [1, 2, 3, 4, 5, 6]
    errors = [str(g.error) for g in games[:5]]
    assert "bad FEN tag" in errors[0] and "halfmove clock" in errors[0]
    assert "NAG of 5000 digits is out of range ($0 to $255)" in errors[1]
    assert "NAG $300 is out of range" in errors[2]
    assert "bad FEN tag" in errors[3]
    assert "not a move" in errors[4]
    assert all(len(e) < 700 for e in errors)
    last = games[5]
    assert last.error is None and last.headers["Event"] == "fine"
    assert [n.nags for n in last.mainline()] == [{1}, {255}]


def test_p11_yaml_values_python_cannot_build() -> None:
    for engine in (f"  topology: {{rows: {HUGE}}}\n", "  setup: 2024-13-45\n"):
        with pytest.raises(VariantError, match="value YAML cannot build"):
            parse_variant(_doc(engine))


def test_p11_yaml_aliases_cannot_blow_up() -> None:
    laughs = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{c}: &{c} [{', '.join([f'*{p}'] * 10)}]\n" for p, c in zip("abcdefgh", "bcdefghi", strict=True)
    )
    with pytest.raises(VariantError, match="more than 100000 values"):
        parse_variant(f"---\n{laughs}---\n")
    with pytest.raises(VariantError, match="alias inside its own anchor"):
        parse_variant("---\nengine: &e [*e]\n---\n")


def test_p11_yaml_keys_of_mixed_types_are_each_named() -> None:
    with pytest.raises(VariantError) as info:
        parse_variant(_doc("  pieces: {K: {betza: K, royal: true}}\n", top="1: one\ncolour: red\n"))
    assert [e.key for e in info.value.errors] == ["1", "colour"]


def test_p11_a_long_key_is_shortened_and_keeps_its_line() -> None:
    with pytest.raises(VariantError) as info:
        parse_variant(_doc("  pieces: {K: {betza: K, royal: true}}\n", top="k" * 1000 + ": 1\n"))
    err = info.value
    assert err.key == "k" * 60 + "…" and err.line == 5 and len(str(err)) < 300


def test_p11_check_lists_every_error_with_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = tmp_path / "many.md"
    doc.write_text(
        "---\n"  # 1
        "title: T\n"
        "slug: t\n"
        "colour: red\n"  # 4
        "parent: chess\n"
        "engine:\n"
        "  pieces:\n"
        "    X: {betza: pQ}\n"  # 8
        "    Y: {betza: W, royal: maybe}\n"  # 9
        "  rules:\n"
        "    stalemate: maybe\n"  # 11
        "    promotion:\n"
        "      white: {pieces: [P], ranks: [8], choices: [Z]}\n"  # 13
        "---\n"
    )
    assert main(["check", str(doc)]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert lines == [
        f"hordes: error: {doc}:4: colour: unknown key (allowed: aliases, board, designer, engine, examples, parent, "
        "players, slug, special, summary, title, win, year)",
        f"hordes: error: {doc}:8: engine.pieces.X.betza: unsupported modifier 'p' at position 1 in 'pQ'",
        f"hordes: error: {doc}:9: engine.pieces.Y.royal: must be true or false, not 'maybe'",
        f"hordes: error: {doc}:11: engine.rules.stalemate: must be one of draw, loss, win, not 'maybe'",
        f"hordes: error: {doc}:13: engine.rules.promotion.white.choices: piece letter 'Z' is not defined "
        "in engine.pieces",
    ]
    # The library raises the first problem and lists them all.
    with pytest.raises(VariantError) as info:
        load_variant(str(doc))
    assert info.value.key == "colour" and len(info.value.errors) == 5


def test_p11_check_names_the_line_of_a_bad_evaluation_term(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = tmp_path / "eval.md"
    doc.write_text(_doc("  pieces: {}\n  evaluation:\n    tempo: lots\n"))
    assert main(["check", str(doc)]) == 2
    assert (
        capsys.readouterr().err
        == f"hordes: error: {doc}:8: engine.evaluation.tempo: must be a whole number, not 'lots'\n"
    )


@pytest.mark.parametrize("command", ["check", "pgn"])
@pytest.mark.parametrize("what", ["long name", "not utf-8", "directory", "missing", "nul"])
def test_p11_check_and_pgn_print_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, what: str
) -> None:
    latin = tmp_path / "latin.md"
    latin.write_bytes(b"---\ntitle: \xe9\n---\n")
    (tmp_path / "dir.md").mkdir()
    target = {
        "long name": LONG_NAME + ".md",
        "not utf-8": str(latin),
        "directory": str(tmp_path / "dir.md"),
        "missing": str(tmp_path / "missing.md"),
        "nul": "a\0b.md",
    }[what]
    assert main([command, target]) == 2
    out = capsys.readouterr()
    assert out.err.count("\n") == 1 and out.err.startswith("hordes: error: "), out.err
    assert "Traceback" not in out.err and len(out.err) < 400
