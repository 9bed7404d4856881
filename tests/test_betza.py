"""The Betza parser: atoms, riders, modifiers and errors."""

from __future__ import annotations

import pytest

from hordes.core.betza import parse_betza
from hordes.errors import BetzaError


def vectors(text: str, *, move: bool | None = None) -> set[tuple[int, int]]:
    out: set[tuple[int, int]] = set()
    for comp in parse_betza(text):
        if move is None or comp.move == move:
            out.update(comp.vectors)
    return out


@pytest.mark.parametrize(
    ("atom", "leap"),
    [("W", (1, 0)), ("F", (1, 1)), ("D", (2, 0)), ("N", (2, 1)), ("A", (2, 2)),
     ("H", (3, 0)), ("C", (3, 1)), ("Z", (3, 2)), ("G", (3, 3))],
)  # fmt: skip
def test_leaper_atoms_have_all_symmetric_images(atom: str, leap: tuple[int, int]) -> None:
    vs = vectors(atom)
    dx, dy = leap
    expected = {(sx * a, sy * b) for a, b in ((dx, dy), (dy, dx)) for sx in (1, -1) for sy in (1, -1)}
    assert vs == expected
    assert all(c.max_steps == 1 for c in parse_betza(atom))


def test_compounds_and_riders() -> None:
    assert vectors("K") == vectors("WF")
    assert all(c.max_steps == 0 for c in parse_betza("R"))
    assert vectors("Q") == vectors("RB")
    nn = parse_betza("NN")
    assert len(nn) == 1 and nn[0].max_steps == 0 and len(nn[0].vectors) == 8
    assert parse_betza("R4")[0].max_steps == 4


def test_move_and_capture_modes() -> None:
    comps = parse_betza("mNcR")
    assert comps[0].move and not comps[0].capture
    assert comps[1].capture and not comps[1].move
    pawn = parse_betza("fmWfcF")
    assert pawn[0].vectors == ((0, 1),) and not pawn[0].capture
    assert set(pawn[1].vectors) == {(1, 1), (-1, 1)} and not pawn[1].move


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("fhN", {(1, 2), (-1, 2), (2, 1), (-2, 1)}),
        ("fN", {(1, 2), (-1, 2)}),
        ("ffN", {(1, 2), (-1, 2)}),
        ("fsN", {(2, 1), (-2, 1)}),
        ("vN", {(1, 2), (-1, 2), (1, -2), (-1, -2)}),
        ("sN", {(2, 1), (-2, 1), (2, -1), (-2, -1)}),
        ("lN", {(-2, 1), (-2, -1)}),
        ("fW", {(0, 1)}),
        ("vW", {(0, 1), (0, -1)}),
        ("sW", {(1, 0), (-1, 0)}),
        ("fF", {(1, 1), (-1, 1)}),
        ("flF", {(-1, 1)}),
        ("bR", {(0, -1)}),
        ("FfW", {(1, 1), (-1, 1), (1, -1), (-1, -1), (0, 1)}),
    ],
)
def test_direction_modifiers(text: str, expected: set[tuple[int, int]]) -> None:
    assert vectors(text) == expected


def test_black_mirrors_forward() -> None:
    comp = parse_betza("fmW")[0]
    assert comp.for_black().vectors == ((0, -1),)
    assert comp.reversed().vectors == ((0, -1),)
    # Black's pieces are turned by 180 degrees: its left is White's right.
    assert set(parse_betza("lW")[0].for_black().vectors) == {(1, 0)}


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "empty"),
        ("X", "unknown atom 'X'"),
        ("pR", "unsupported modifier 'p'"),
        ("fm", "not followed by an atom"),
        ("R0", "at least 1"),
        ("bfW", None),  # f and b together select both: allowed
    ],
)
def test_errors_name_the_problem(text: str, fragment: str | None) -> None:
    if fragment is None:
        assert vectors(text) == {(0, 1), (0, -1)}
        return
    with pytest.raises(BetzaError, match=fragment):
        parse_betza(text)


def test_every_betza_string_moves_as_in_fairy_stockfish() -> None:
    """tests/data/betza_fsf.json: the moves Fairy-Stockfish generates for a custom piece `x` with each
    Betza string, in several positions and for both colours (tools/make_betza_data.py)."""
    import json
    from pathlib import Path

    from hordes import Board, parse_variant

    data = json.loads((Path(__file__).parent / "data" / "betza_fsf.json").read_text())
    variants: dict[str, object] = {}
    checked = 0
    for record in data["records"]:
        betza = record["betza"]
        if betza not in variants:
            doc = (
                "---\ntitle: Betza test\nslug: betzatest\nparent: chess\nengine:\n  pieces:\n"
                f"    X: {{name: Test, betza: {betza}}}\n---\n"
            )
            variants[betza] = parse_variant(doc)
        board = Board(variants[betza], record["fen"])  # type: ignore[arg-type]
        square = board.geometry.parse_square(record["square"])
        ours = sorted(m.uci() for m in board.legal_moves if m.from_square == square)
        assert ours == record["moves"], f"{betza} in {record['fen']}"
        checked += 1
    assert checked >= 100
