"""Issue 14 point 11: the rules pages' teaching examples are played with the real rules.

Each example in a document's front matter is a FEN, a move in the variant's SAN and claims about what
the move does; hordes.examples checks the claims. Here every built-in example must pass, the examples
the issue asks for must exist and say what they are meant to show (checked from the boards, not from
the claims alone), and wrong examples must be caught.
"""

from __future__ import annotations

import dataclasses
import re
from html import escape as html_escape
from pathlib import Path
from xml.etree import ElementTree

import pytest

from hordes import BLACK, Variant, builtin_variants, load_variant, parse_variant
from hordes.cli import main
from hordes.core.position import Termination
from hordes.errors import VariantError
from hordes.examples import Example, ExampleError, attacked_royals, check, destinations, examples, play
from hordes.site import render_variant_body

HOC = load_variant("hordes")
ORDA = load_variant("orda")


def named(variant: Variant, name: str) -> Example:
    found = {ex.name: ex for ex in examples(variant)}
    return found[name]


@pytest.mark.parametrize("variant", builtin_variants(), ids=lambda v: v.slug)
def test_p11_every_example_plays_and_its_claims_hold(variant: Variant) -> None:
    for ex in examples(variant):
        assert check(variant, ex) == [], ex.name


def test_p11_the_pull_moves_an_enemy_piece_next_to_the_magnet() -> None:
    played = play(HOC, named(HOC, "pull"))
    move, before, after = played.move, played.before, played.after
    pulled = before.piece_at(move.from_square)
    assert pulled is not None and pulled.color != before.turn  # only a pull moves the opponent's piece
    assert after.piece_at(move.to_square) == pulled and after.piece_at(move.from_square) is None
    magnets = [
        sq
        for sq in range(64)
        if (p := before.piece_at(sq)) and p.color == before.turn and p.kind and p.kind.pull_components
    ]
    geo = HOC.geometry
    land = move.to_square
    assert any(
        max(abs(geo.file_of(m) - geo.file_of(land)), abs(geo.rank_of(m) - geo.rank_of(land))) == 1
        for m in magnets
    )


RESTRICTIONS = {  # (restricted piece, magnet): how many directions the magnet closes (H9)
    "rook-beside-rook-magnet": ("R", "+R", 1),
    "bishop-beside-rook-magnet": ("B", "+R", 2),
    "rook-beside-bishop-magnet": ("R", "+B", 2),
    "bishop-beside-bishop-magnet": ("B", "+B", 1),
}


@pytest.mark.parametrize("name", RESTRICTIONS)
def test_p11_each_restriction_case_closes_the_directions_away_from_the_magnet(name: str) -> None:
    piece, magnet, directions = RESTRICTIONS[name]
    ex = named(HOC, name)
    played = play(HOC, ex)
    geo = HOC.geometry
    origin = played.move.from_square
    mover = played.before.piece_at(origin)
    holder = played.before.piece_at(geo.parse_square(ex.restricted_by or ""))
    assert mover is not None and mover.piece_type == piece
    assert holder is not None and holder.piece_type == magnet and holder.color != mover.color
    # The closed squares run along exactly `directions` lines out of the piece's square.
    lines = set()
    for text in ex.closed:
        sq = geo.parse_square(text)
        dx, dy = geo.file_of(sq) - geo.file_of(origin), geo.rank_of(sq) - geo.rank_of(origin)
        step = max(abs(dx), abs(dy))
        lines.add((dx // step, dy // step))
    assert len(lines) == directions, lines
    assert check(HOC, ex) == []  # closed here, open without the magnet (restricted_by)


def test_p11_the_andernach_capture_hands_the_capturer_over() -> None:
    played = play(HOC, named(HOC, "andernach-capture"))
    move = played.move
    capturer, victim = played.before.piece_at(move.from_square), played.before.piece_at(move.to_square)
    landed = played.after.piece_at(move.to_square)
    assert capturer is not None and victim is not None and landed is not None
    assert victim.color != capturer.color
    assert landed.piece_type == capturer.piece_type and landed.color != capturer.color


def test_p11_the_shape_change_turns_a_king_into_a_knight() -> None:
    played = play(HOC, named(HOC, "shape-change"))
    sq = played.move.from_square
    assert played.move.to_square == sq
    before, after = played.before.piece_at(sq), played.after.piece_at(sq)
    assert before is not None and after is not None
    assert (before.piece_type, after.piece_type) == ("K", "N") and before.color == after.color


def test_p11_the_fork_attacks_both_royal_pieces() -> None:
    played = play(HOC, named(HOC, "royal-fork"))
    after = played.after
    royals = {
        sq
        for sq in range(64)
        if (p := after.piece_at(sq)) and p.color == after.turn and p.kind and p.kind.royal
    }
    assert len(royals) == 2 and attacked_royals(after) == royals
    assert not played.before.is_check()  # the move made the fork: neither was attacked before


def test_p11_orda_examples_show_the_divergent_pieces_and_a_campmate() -> None:
    for name, letter in (("lancer", "L"), ("horse-archer", "A")):
        ex = named(ORDA, name)
        played = play(ORDA, ex)
        mover = played.before.piece_at(played.move.from_square)
        assert mover is not None and mover.piece_type == letter and mover.color == BLACK
        assert played.before.piece_at(played.move.to_square) is not None  # it captures along a line
        assert ex.open and ex.closed  # leaps to move, no sliding onto the empty line
    played = play(ORDA, named(ORDA, "campmate"))
    outcome = played.after.outcome()
    assert outcome is not None and outcome.termination == Termination.CAMPMATE
    assert outcome.winner == played.before.turn


WRONG = [  # (example, a change that makes it wrong)
    ("pull", {"after": {"e2": "K", "e5": "."}}),  # the pulled King stays Black's
    ("andernach-capture", {"after": {"c7": "R"}}),  # ... and the capturer does not stay White's
    ("shape-change", {"after": {"d1": "K"}}),
    ("royal-fork", {"move": "Be4"}),  # attacks the Knight only
    ("royal-fork", {"ends": "campmate"}),
    ("rook-beside-rook-magnet", {"closed": ("e6", "d5")}),  # d5 is open
    ("rook-beside-rook-magnet", {"restricted_by": "a8"}),  # the Black King does not close them
    ("bishop-beside-bishop-magnet", {"open": ("f6",)}),
    ("pull", {"move": "Kb2"}),  # not a pull: e5 keeps its King
    ("pull", {"move": "+Re1:e5-e3"}),  # a pull lands next to the magnet, nowhere else
    ("pull", {"fen": "8/8/8/4k3/8/8/8/4+R3 w - - 0 1"}),  # no White royal piece (H17)
]


@pytest.mark.parametrize(("name", "change"), WRONG, ids=[f"{n}-{i}" for i, (n, _) in enumerate(WRONG)])
def test_p11_a_wrong_example_fails_its_check(name: str, change: dict[str, object]) -> None:
    wrong = dataclasses.replace(named(HOC, name), **change)  # type: ignore[arg-type]
    problems = check(HOC, wrong)
    assert problems and all(f"example {name!r}" in p for p in problems), problems


def test_p11_an_unplayable_example_says_which_and_why() -> None:
    ex = dataclasses.replace(named(HOC, "pull"), move="Qd4")
    with pytest.raises(ExampleError, match=r"example 'pull': move 'Qd4'"):
        play(HOC, ex)
    ex = dataclasses.replace(named(HOC, "pull"), after={"z9": "k"})
    assert check(HOC, ex) == ["example 'pull': 'z9' is not a square of the board"]


def test_p11_the_rules_page_draws_every_example() -> None:
    for variant, count in ((HOC, 9), (ORDA, 3)):
        body = render_variant_body(variant)
        ElementTree.fromstring(body)  # well-formed, as the site's pages are
        figures = re.findall(r'<figure class="example" id="example-([a-z-]+)">(.*?)</figure>', body)
        drawn = dict(figures)  # in the body's order; each example once
        assert sorted(drawn) == sorted(ex.name for ex in examples(variant)) and len(figures) == count
        assert "broken" not in body
        for ex in examples(variant):
            html = drawn[ex.name]
            assert html.count("<svg") == (2 if ex.shows_result else 1)
            assert played_san(variant, ex) in html and html_escape(ex.caption) in html


def played_san(variant: Variant, ex: Example) -> str:
    return play(variant, ex).san


DOC = """---
title: Taught
slug: taught
parent: chess
examples:
  opening:
    fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    move: e4
    after: {e4: P}
    caption: "The king's pawn goes two squares."
  {extra}
---
Body text, no directive: the examples follow it.
"""


def test_p11_examples_the_body_does_not_place_follow_it_and_wrong_ones_say_so() -> None:
    variant = parse_variant(
        DOC.replace("{extra}", 'bad:\n    fen: "8/8/8/8/8/8/8/8 w - - 0 1"\n    move: e4\n    caption: "x"')
    )
    body = render_variant_body(variant)
    assert "<h3>Examples</h3>" in body and 'id="example-opening"' in body
    assert re.search(
        r'class="example broken" id="example-bad"><figcaption>This example is wrong: example', body
    )
    assert [ex.name for ex in examples(variant)] == ["opening", "bad"]
    assert check(variant, examples(variant)[0]) == []


@pytest.mark.parametrize(
    ("extra", "key", "problem"),
    [
        ("Bad_Name: {fen: x, move: e4, caption: y}", "examples.Bad_Name", "lower-case letters"),
        ("second: {fen: x, move: e4, caption: y, colour: white}", "examples.second.colour", "unknown key"),
        ("second: {fen: x, move: e4}", "examples.second.caption", "non-empty string"),
        ("second: {fen: x, move: e4, caption: y, closed: e5}", "examples.second.closed", "a list of squares"),
    ],
)
def test_p11_the_loader_names_a_malformed_example(extra: str, key: str, problem: str) -> None:
    with pytest.raises(VariantError) as info:
        parse_variant(DOC.replace("{extra}", extra), "taught.md")
    assert key in str(info.value) and problem in str(info.value)
    assert "taught.md:" in str(info.value)  # with its line


def test_p11_hordes_check_plays_the_examples(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = tmp_path / "taught.md"
    doc.write_text(DOC.replace("{extra}", 'second: {fen: "8/8/8/8/8/8/8/8 w - - 0 1", move: e4, caption: y}'))
    assert main(["check", str(doc)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"hordes: error: {doc}:11: examples.second: invalid FEN"), err
    good = tmp_path / "good.md"
    good.write_text(DOC.replace("{extra}", ""))
    assert main(["check", str(good)]) == 0


def test_p11_a_capture_that_would_hand_over_an_attacker_is_refused() -> None:
    ex = named(HOC, "capture-that-would-betray")
    played = play(HOC, ex)
    geo = HOC.geometry
    rook, target = played.move.from_square, geo.parse_square(ex.closed[0])
    victim = played.before.piece_at(target)
    assert victim is not None and victim.color != played.before.turn  # an enemy on an open line ...
    assert {"c5", "c6"} <= set(ex.open) and target not in destinations(played.before, rook)  # ... not taken
