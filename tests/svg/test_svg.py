"""hordes.svg: boards, single pieces and movement diagrams are valid SVG, define each figure once,
mark what they should, and render to non-blank pictures."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter

import pytest

from hordes import (
    BLACK,
    WHITE,
    Board,
    Move,
    Variant,
    builtin_variants,
    load_variant,
    parse_variant,
    svg,
)
from hordes.pieces import ART, BLACK_PALETTE, GOLD_PALETTE, WHITE_PALETTE, figure
from tests.svg.conftest import SVG_NS, assert_not_blank, parse_svg, render_png

BUILTINS = [v.slug for v in builtin_variants()]


def _defs_ids(root: ET.Element) -> list[str]:
    defs = root.find(SVG_NS + "defs")
    assert defs is not None
    return [str(el.get("id")) for el in defs if el.get("class") == "piece"]


def _uses(root: ET.Element) -> list[tuple[str, float, float]]:
    return [
        (str(el.get("href")).lstrip("#"), float(el.get("x", 0)), float(el.get("y", 0)))
        for el in root.iter(SVG_NS + "use")
    ]


@pytest.mark.parametrize("slug", BUILTINS)
def test_board_is_xml_and_defines_each_piece_once(slug: str) -> None:
    board = Board(slug)
    root = parse_svg(svg.board(board))
    ids = _defs_ids(root)
    assert len(ids) == len(set(ids))
    uses = _uses(root)
    pieces = [board.piece_at(sq) for sq in range(board.geometry.size)]
    occupied = [p for p in pieces if p is not None]
    assert len(uses) == len(occupied)
    # exactly the kinds on the board are defined, and every <use> points at a definition
    assert {u[0] for u in uses} == set(ids)
    assert len(ids) == len(set(occupied))


def test_hordes_of_change_reuses_figures() -> None:
    root = parse_svg(svg.board(Board("hordes")))
    counts = Counter(u[0] for u in _uses(root))
    assert sum(counts.values()) == 48
    assert len(_defs_ids(root)) == 6  # K, R, B for each side
    assert max(counts.values()) == 12


@pytest.mark.parametrize("slug", ["chess", "orda", "khans", "hordes"])
def test_board_renders_to_a_real_picture(slug: str) -> None:
    size, pixels = render_png(svg.board(Board(slug), size=360), 360)
    assert size == (360, 360)
    assert_not_blank(pixels, min_colors=40)


def test_size_sets_pixels_and_keeps_aspect_on_any_geometry() -> None:
    doc = """---
title: Wide
slug: wide
engine:
  topology: {type: grid, rows: 6, cols: 10}
  players: [white, black]
  setup: "rnbqkkqbnr/pppppppppp/10/10/PPPPPPPPPP/RNBQKKQBNR w - - 0 1"
  pieces:
    P: {name: Pawn, betza: fmWfcF, pawn: true}
    N: {name: Knight, betza: N}
    B: {name: Bishop, betza: B}
    R: {name: Rook, betza: R}
    Q: {name: Queen, betza: Q}
    K: {name: King, betza: K, royal: true}
---
"""
    board = Board(parse_variant(doc, "wide.md"))
    text = svg.board(board, size=500, coordinates=False)
    root = parse_svg(text)
    assert root.get("viewBox") == "0 0 450 270"
    assert (root.get("width"), root.get("height")) == ("500", "300")
    size, pixels = render_png(text, 500)
    assert size == (500, 300)
    assert_not_blank(pixels)
    framed = parse_svg(svg.board(board))
    assert framed.get("viewBox") == f"0 0 {450 + 2 * svg.MARGIN} {270 + 2 * svg.MARGIN}"
    labels = [t.text for t in framed.iter(SVG_NS + "text")]
    assert labels[:10] == list("abcdefghij") and labels[10:] == [str(i) for i in range(1, 7)]


def test_orientation_flips_the_board() -> None:
    board = Board("chess")
    m = svg.MARGIN
    white = {(x, y): pid for pid, x, y in _uses(parse_svg(svg.board(board)))}
    black = {(x, y): pid for pid, x, y in _uses(parse_svg(svg.board(board, orientation=BLACK)))}
    # a1 (White's rook) is bottom-left for White, top-right for Black
    assert white[(m, m + 7 * 45)].endswith("white-R")
    assert black[(m + 7 * 45, m)].endswith("white-R")
    assert black[(m + 4 * 45 - 45, m)].endswith("white-K")  # e1 seen from Black: fourth column from the left


def test_check_lastmove_arrows_and_marks() -> None:
    board = Board("chess")
    for uci in ("f2f3", "e7e5", "g2g4", "d8h4"):
        board.push_uci(uci)
    assert board.is_check()
    text = svg.board(
        board, lastmove=board.peek(), arrows=[(6, 21), svg.Arrow(12, 12, "#123456")], marks={35: "#0000ff"}
    )
    root = parse_svg(text)
    gradients = list(root.iter(SVG_NS + "radialGradient"))
    assert len(gradients) == 1
    glow = [r for r in root.iter(SVG_NS + "rect") if r.get("fill") == f"url(#{gradients[0].get('id')})"]
    assert len(glow) == 1
    m = svg.MARGIN
    assert (float(glow[0].get("x")), float(glow[0].get("y"))) == (m + 4 * 45, m + 7 * 45)  # e1
    assert len([r for r in root.iter(SVG_NS + "rect") if r.get("fill") == svg.LASTMOVE]) == 2
    assert len([r for r in root.iter(SVG_NS + "rect") if r.get("fill") == "#0000ff"]) == 1
    assert any(p.get("fill") == svg.ARROW for p in root.iter(SVG_NS + "path"))
    assert any(c.get("stroke") == "#123456" for c in root.iter(SVG_NS + "circle"))
    # an explicit square overrides the default; the start position has no glow
    assert "radialGradient" not in svg.board(Board("chess"))
    explicit = parse_svg(svg.board(Board("chess"), check=4, marks=[0, 1]))
    assert len(list(explicit.iter(SVG_NS + "radialGradient"))) == 1
    assert len([r for r in explicit.iter(SVG_NS + "rect") if r.get("fill") == svg.MARK]) == 2
    render_png(text, 200)


def test_lastmove_accepts_a_move_object() -> None:
    text = svg.board(Board("orda"), lastmove=Move.from_uci("e2e4"))
    assert text.count(f'fill="{svg.LASTMOVE}"') == 2


def test_campmate_ranks_are_marked_only_for_campmate_variants() -> None:
    orda = parse_svg(svg.board(Board("orda")))
    groups = [g for g in orda.iter(SVG_NS + "g") if g.get("class") == "campmate"]
    assert len(groups) == 1
    bands = list(groups[0].iter(SVG_NS + "rect"))
    assert len(bands) == 2 and all(b.get("stroke-dasharray") for b in bands)
    m = svg.MARGIN
    assert sorted(float(b.get("y")) for b in bands) == [m + 1.5, m + 7 * 45 + 1.5]
    assert len(list(groups[0].iter(SVG_NS + "path"))) == 2  # one pennant per side in the frame
    chess = parse_svg(svg.board(Board("chess")))
    assert not [r for r in chess.iter(SVG_NS + "rect") if r.get("stroke-dasharray")]


def test_pictures_on_one_page_get_distinct_ids() -> None:
    a = svg.board(Board("chess"))
    b = svg.board(Board("orda"))
    ids_a = set(re.findall(r'id="([^"]+)"', a))
    ids_b = set(re.findall(r'id="([^"]+)"', b))
    assert ids_a and ids_b and not ids_a & ids_b
    assert svg.board(Board("chess")) == a  # pure: same input, same picture
    assert 'id="mine-white-K"' in svg.board(Board("chess"), id_prefix="mine-")


@pytest.mark.parametrize("variant", builtin_variants(), ids=lambda v: v.slug)
def test_every_builtin_piece_has_a_figure(variant: Variant) -> None:
    for pt in variant.pieces:
        for color in (WHITE, BLACK):
            assert svg.figure_name(variant, pt.letter, color) is not None, (variant.slug, pt.letter, color)


def test_the_horde_is_gold_and_its_king_is_the_khan() -> None:
    orda = load_variant("orda")
    assert svg.horde_colors(orda) == {BLACK}
    assert svg.horde_colors(load_variant("khans")) == {BLACK}
    assert svg.horde_colors(load_variant("chess")) == set()
    assert svg.horde_colors(load_variant("hordes")) == set()
    assert svg.figure_name(orda, "K", BLACK) == "khan"
    assert svg.figure_name(orda, "K", WHITE) == "king"
    assert svg.figure_name(load_variant("chess"), "K", BLACK) == "king"
    assert GOLD_PALETTE.fill in svg.piece("L", BLACK, "orda")
    assert GOLD_PALETTE.fill in svg.piece("P", BLACK, orda)
    assert WHITE_PALETTE.fill in svg.piece("H", WHITE, orda)  # a promoted white Kheshig stays white
    assert BLACK_PALETTE.fill in svg.piece("R", BLACK)


def test_magnets_differ_from_their_pieces() -> None:
    hordes = load_variant("hordes")
    assert svg.figure_name(hordes, "+R", WHITE) == "rook_magnet"
    assert svg.figure_name(hordes, "+B", BLACK) == "bishop_magnet"
    assert WHITE_PALETTE.accent in svg.piece("+R", WHITE, hordes)
    assert WHITE_PALETTE.accent not in svg.piece("R", WHITE, hordes)


def test_single_pieces_are_45_square_svg() -> None:
    for letter in ("K", "Q", "R", "B", "N", "P", "L", "A", "H", "Y", "T", "S", "+R", "+B", "Z"):
        root = parse_svg(svg.piece(letter, BLACK))
        assert root.get("viewBox") == "0 0 45 45"


def test_every_figure_is_distinct_and_visible_at_32px() -> None:
    """Each figure, rendered at 32 px, is a real picture and differs from every other figure."""
    seen: dict[tuple[tuple[int, int, int], ...], str] = {}
    for name in ART:
        for palette in (WHITE_PALETTE, BLACK_PALETTE, GOLD_PALETTE):
            text = (
                f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 45 45">{figure(name, palette)}</svg>'
            )
            size, pixels = render_png(text, 32)
            assert size == (32, 32)
            inked = sum(1 for p in pixels if p != (255, 255, 255))
            assert 180 < inked < 800, (name, palette.name, inked)  # neither a speck nor a blob
            key = tuple(pixels)
            assert key not in seen, f"{name} looks like {seen[key]}"
            seen[key] = name
    # and not by a few stray pixels: in each army, any two figures differ clearly over a good area
    for palette in (WHITE_PALETTE, BLACK_PALETTE):
        images = {}
        for name in ART:
            text = (
                f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 45 45">{figure(name, palette)}</svg>'
            )
            images[name] = render_png(text, 32)[1]
        names = list(images)
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                differing = sum(
                    sum(abs(x - y) for x, y in zip(p, q, strict=True)) > 150
                    for p, q in zip(images[a], images[b], strict=True)
                )
                assert differing >= 40, f"{a} and {b} look nearly the same ({differing} px differ)"


def test_unknown_piece_gets_a_letter_token(xiphos: Variant) -> None:
    assert svg.figure_name(xiphos, "X", WHITE) is None
    assert svg.figure_name(xiphos, "H", WHITE) is None  # a Hawk, not a Kheshig
    text = svg.board(Board(xiphos))
    root = parse_svg(text)
    defs = root.find(SVG_NS + "defs")
    tokens = {el.get("id"): "".join(el.itertext()) for el in defs if el.find(SVG_NS + "text") is not None}
    assert sorted(tokens.values()) == ["H", "X"]
    _, pixels = render_png(text, 360)
    assert_not_blank(pixels)
    _, pixels = render_png(svg.piece("X", BLACK, xiphos), 45)
    assert_not_blank(pixels)
    assert "&lt;" in svg.piece("<", WHITE)  # escaped, still XML
    parse_svg(svg.piece("<", WHITE))


# --- movement diagrams -----------------------------------------------------------------------------


def _dots(text: str) -> Counter[str]:
    root = parse_svg(text)
    return Counter(
        c.get("class") for c in root.iter(SVG_NS + "circle") if c.get("class") in ("move", "capture", "both")
    )


def test_lancer_diagram_has_green_moves_and_red_captures() -> None:
    text = svg.movement_diagram("orda", "L", color=BLACK)
    dots = _dots(text)
    assert dots == {"move": 8, "capture": 12}  # 8 knight leaps, 4 rook lines of 3 squares in 7x7
    assert svg.MOVE_DOT in text and svg.CAPTURE_DOT in text and svg.BOTH_DOT not in text
    size, pixels = render_png(text, 210)
    assert size == (210, 210)
    assert_not_blank(pixels)
    greens = sum(1 for r, g, b in pixels if g > 140 and r < 100 and b < 110)
    reds = sum(1 for r, g, b in pixels if r > 180 and g < 80 and b < 80)
    assert greens > 100 and reds > 100


@pytest.mark.parametrize(
    ("slug", "letter", "expected"),
    [
        ("chess", "B", {"both": 12}),
        ("chess", "Q", {"both": 24}),
        ("chess", "N", {"both": 8}),
        ("chess", "P", {"move": 1, "capture": 2}),
        ("orda", "H", {"both": 16}),
        ("orda", "Y", {"both": 5}),
        ("khans", "S", {"move": 4, "capture": 1}),
        ("khans", "T", {"move": 8, "capture": 8}),
    ],
)
def test_diagram_dots_follow_betza(slug: str, letter: str, expected: dict[str, int]) -> None:
    assert _dots(svg.movement_diagram(slug, letter)) == expected


def test_diagram_window_grows_for_long_leaps() -> None:
    doc = """---
title: Giraffe
slug: giraffe
parent: chess
engine:
  pieces:
    G: {name: Giraffe, betza: C}
---
"""
    variant = parse_variant(doc, "giraffe.md")
    root = parse_svg(svg.movement_diagram(variant, "G", size=300))
    assert root.get("viewBox") == "0 0 315 315"  # 7x7 fits a (3,1) leap exactly
    assert parse_svg(svg.movement_diagram(variant, "G", window=9)).get("viewBox") == "0 0 405 405"
    assert root.get("width") == "300"


def test_black_pieces_face_up_by_default() -> None:
    """A black Yurt's forward step points down the board, so its diagram is seen from Black's side."""
    root = parse_svg(svg.movement_diagram("orda", "Y", color=BLACK))
    centre = 3 * 45 + 22.5
    ys = [float(c.get("cy")) for c in root.iter(SVG_NS + "circle") if c.get("class") == "both"]
    assert centre - 45 in ys and centre + 45 in ys
    straight = [float(c.get("cy")) for c in root.iter(SVG_NS + "circle") if float(c.get("cx")) == centre]
    assert straight == [centre - 45]
    from_white = parse_svg(svg.movement_diagram("orda", "Y", color=BLACK, orientation=WHITE))
    straight = [
        float(c.get("cy")) for c in from_white.iter(SVG_NS + "circle") if float(c.get("cx")) == centre
    ]
    assert straight == [centre + 45]


def test_magnet_diagram_shows_pulls_and_restrictions() -> None:
    text = svg.movement_diagram("hordes", "+R", color=WHITE)
    root = parse_svg(text)
    assert not _dots(text)
    pulls = [el for el in root.iter() if el.get("class") == "pull"]
    rings = [el for el in pulls if el.tag == SVG_NS + "circle"]
    arrows = [el for el in pulls if el.tag == SVG_NS + "path"]
    assert len(rings) == 4 and len(arrows) == 8  # landing squares, and two arrowheads per line in 7x7
    restricted = [el for el in root.iter(SVG_NS + "rect") if el.get("class") == "restrict"]
    assert len(restricted) == 4
    bishop_magnet = parse_svg(svg.movement_diagram("hordes", "+B"))
    assert len([el for el in bishop_magnet.iter(SVG_NS + "rect") if el.get("class") == "restrict"]) == 4
    _, pixels = render_png(text, 210)
    assert_not_blank(pixels)
    assert sum(1 for r, g, b in pixels if b > 180 and r < 90) > 100  # the blue pull marks show


def test_diagram_of_a_missing_piece_is_a_clear_error() -> None:
    from hordes.errors import HordesError

    with pytest.raises(HordesError, match="no piece 'L'"):
        svg.movement_diagram("chess", "L")


def test_diagram_color_default_is_white() -> None:
    assert "white-L" in svg.movement_diagram("orda", "L")
    assert "black-L" in svg.movement_diagram("orda", "L", color=BLACK)


def test_the_core_does_not_import_the_pictures() -> None:
    """svg and site sit at the top with the command line: importing the library must not load them."""
    import subprocess
    import sys

    code = "import sys, hordes; hordes.Board('orda'); print(sorted(m for m in sys.modules if m.startswith('hordes')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    for name in ("hordes.svg", "hordes.site", "hordes.pieces", "markdown"):
        assert f"'{name}'" not in out
