"""SVG pictures of positions, single pieces and piece movements, drawn with the project's own piece set.

Everything here is a pure function returning an SVG string: the web app inlines them, `hordes site`
writes them into pages, tests convert them to PNG. Each picture defines every figure it uses once in
`<defs>` and places it with `<use>`, so a 24-piece Hordes of Change army costs one drawing per kind.

Ids inside a picture carry a prefix derived from its content, so several pictures inlined in one HTML
page do not fight over `#white-K`; the same picture twice gets the same (harmless) ids.

This module sits at the top with the command line and the web app: it reads the core, never the reverse.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from hordes.core.betza import Component
from hordes.core.movegen import attacked_by, royal_squares
from hordes.core.position import Board, Move
from hordes.core.rules import BLACK, COLOR_NAMES, WHITE, Color, Variant, side_index
from hordes.errors import HordesError
from hordes.pieces import (
    ART_BY_LETTER,
    ART_BY_NAME,
    BLACK_PALETTE,
    GOLD_PALETTE,
    HORDE_FIGURES,
    WHITE_PALETTE,
    Palette,
    figure,
    token,
)
from hordes.variants import load_variant

SQUARE = 45  # one square = one piece box, so figures are placed without scaling
MARGIN = 20  # the frame that carries the coordinates
LIGHT_SQUARE = "#dfe4e8"
DARK_SQUARE = "#8ea6b4"
FRAME = "#3d4a53"
FRAME_TEXT = "#e8ecef"
LASTMOVE = "#9bc700"
MARK = "#ef7c3b"
GOAL = "#1f9e89"  # campmate target ranks
ARROW = "#15781b"
# Movement diagrams, as on the Orda designer's page.
MOVE_DOT = "#3aa845"
CAPTURE_DOT = "#d8333a"
BOTH_DOT = "#f2c12e"
PULL = "#2f6fd6"
RESTRICT = "#8a3fc7"

_PLACEHOLDER = "@@ID@@"


@dataclass(frozen=True, slots=True)
class Arrow:
    """An arrow from one square to another (a circle when both are the same square)."""

    tail: int
    head: int
    color: str = ARROW


# --- which figure, which palette -------------------------------------------------------------------


def _art_for(variant: Variant | None, letter: str) -> str | None:
    """The figure for a piece kind: by name when the variant is known, else by the usual letter."""
    if variant is None:
        return ART_BY_LETTER.get(letter)
    if not variant.has_letter(letter):
        return None
    return ART_BY_NAME.get(variant.pieces[variant.kind_of(letter)].name.strip().lower())


@lru_cache(maxsize=64)
def horde_colors(variant: Variant) -> frozenset[Color]:
    """The side(s) that field the Horde at the start: drawn in gold, their king drawn as the Khan.

    A side is the Horde when its starting army has a Horde figure (Lancer, Archer, Kheshig, Yurt,
    Khatun, Scout) and the other side's has none; if both sides have them, neither is singled out,
    because gold against gold would hide who owns what.
    """
    try:
        start = Board(variant)
    except HordesError:  # a broken document still gets its pictures, just without the Horde's colours
        return frozenset()
    has = {WHITE: False, BLACK: False}
    for sq in range(variant.geometry.size):
        found = start.piece_at(sq)
        if found is not None and _art_for(variant, found.piece_type) in HORDE_FIGURES:
            has[found.color] = True
    if has[WHITE] and has[BLACK]:
        return frozenset()
    return frozenset(c for c, flag in has.items() if flag)


def _style(variant: Variant | None, letter: str, color: Color) -> tuple[str | None, Palette]:
    art = _art_for(variant, letter)
    if variant is not None and color in horde_colors(variant):
        return ("khan" if art == "king" else art), GOLD_PALETTE
    return art, (WHITE_PALETTE if color else BLACK_PALETTE)


def figure_name(variant: Variant | None, letter: str, color: Color) -> str | None:
    """Which figure of the set draws this piece ("khan", "lancer" ...), or None for the letter token."""
    return _style(variant, letter, color)[0]


def _figure_body(variant: Variant | None, letter: str, color: Color) -> str:
    art, palette = _style(variant, letter, color)
    return figure(art, palette) if art else token(letter, palette)


def _piece_id(letter: str, color: Color) -> str:
    safe = re.sub(r"[^A-Za-z0-9]", lambda m: f"_{ord(m.group()):x}", letter)
    return f"{_PLACEHOLDER}{COLOR_NAMES[color]}-{safe}"


class _Defs:
    """Collects the figures (and gradients) a picture uses, so each is written once."""

    def __init__(self, variant: Variant | None) -> None:
        self.variant = variant
        self.items: dict[str, str] = {}

    def piece(self, letter: str, color: Color) -> str:
        pid = _piece_id(letter, color)
        if pid not in self.items:
            body = _figure_body(self.variant, letter, color)
            self.items[pid] = f'<g id="{pid}" class="piece">{body}</g>'
        return pid

    def add(self, key: str, text: str) -> str:
        pid = f"{_PLACEHOLDER}{key}"
        self.items.setdefault(pid, text.replace("$ID", pid))
        return pid

    def render(self) -> str:
        return "<defs>" + "".join(self.items.values()) + "</defs>" if self.items else ""


def _finish(width: float, height: float, size: int | None, body: str, prefix: str | None, label: str) -> str:
    """Wrap the picture, sizing it to `size` pixels wide, and give its ids a prefix."""
    if prefix is None:
        prefix = "h" + hashlib.sha1(body.encode()).hexdigest()[:8] + "-"
    body = body.replace(_PLACEHOLDER, prefix)
    w = size if size is not None else width
    h = round(w * height / width, 2)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" viewBox="0 0 {_n(width)} {_n(height)}" '
        f'width="{_n(w)}" height="{_n(h)}" role="img" aria-label="{_esc(label)}">{body}</svg>'
    )


def _n(x: float) -> str:
    """A number for an attribute: integers without '.0', others with two decimals at most."""
    r = round(x, 2)
    return str(int(r)) if r == int(r) else f"{r:g}"


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def piece(letter: str, color: Color = WHITE, variant: Variant | str | None = None) -> str:
    """A single piece as a 45x45 SVG; with a variant, the figure follows the piece's name and army."""
    v = load_variant(variant) if isinstance(variant, str) else variant
    body = _figure_body(v, letter, color)
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" version="1.1" viewBox="0 0 45 45" width="45" height="45" '
        f'role="img" aria-label="{_esc(COLOR_NAMES[color] + " " + letter)}">{body}</svg>'
    )


# --- boards ----------------------------------------------------------------------------------------


class _Grid:
    """Maps squares to picture coordinates for a rows x cols board seen from one side."""

    def __init__(self, rows: int, cols: int, orientation: Color, margin: float) -> None:
        self.rows, self.cols, self.orientation, self.margin = rows, cols, orientation, margin

    def xy(self, file: int, rank: int) -> tuple[float, float]:
        """Top-left corner of the square on (file, rank)."""
        if self.orientation:
            col, row = file, self.rows - 1 - rank
        else:
            col, row = self.cols - 1 - file, rank
        return self.margin + col * SQUARE, self.margin + row * SQUARE

    def square_xy(self, sq: int) -> tuple[float, float]:
        return self.xy(sq % self.cols, sq // self.cols)

    def center(self, sq: int) -> tuple[float, float]:
        x, y = self.square_xy(sq)
        return x + SQUARE / 2, y + SQUARE / 2

    def squares(self, light: str = LIGHT_SQUARE, dark: str = DARK_SQUARE) -> str:
        """The chequer: one light rectangle and one path of dark squares (a1 is dark)."""
        m = self.margin
        w, h = self.cols * SQUARE, self.rows * SQUARE
        cells = []
        for rank in range(self.rows):
            for file in range(self.cols):
                if (file + rank) % 2 == 0:
                    x, y = self.xy(file, rank)
                    cells.append(f"M{_n(x)} {_n(y)}h{SQUARE}v{SQUARE}h-{SQUARE}z")
        dark_path = f'<path d="{"".join(cells)}" fill="{dark}"/>' if cells else ""
        return f'<rect x="{_n(m)}" y="{_n(m)}" width="{w}" height="{h}" fill="{light}"/>' + dark_path

    def rect(self, sq: int, fill: str, opacity: float = 1.0, inset: float = 0.0, extra: str = "") -> str:
        x, y = self.square_xy(sq)
        op = f' fill-opacity="{_n(opacity)}"' if opacity < 1 else ""
        s = SQUARE - 2 * inset
        return (
            f'<rect x="{_n(x + inset)}" y="{_n(y + inset)}" width="{_n(s)}" height="{_n(s)}" '
            f'fill="{fill}"{op}{extra}/>'
        )


def _coordinates(grid: _Grid) -> str:
    """File letters under the board and rank numbers left of it, in the frame."""
    out = []
    font = 'font-family="DejaVu Sans, Verdana, Arial, sans-serif" font-size="12" font-weight="bold"'
    m = grid.margin
    for file in range(grid.cols):
        x, _ = grid.xy(file, 0)
        y = m + grid.rows * SQUARE + m / 2
        letter = chr(ord("a") + file)
        out.append(
            f'<text x="{_n(x + SQUARE / 2)}" y="{_n(y)}" dy=".35em" text-anchor="middle">{letter}</text>'
        )
    for rank in range(grid.rows):
        _, y = grid.xy(0, rank)
        ty = _n(y + SQUARE / 2)
        out.append(f'<text x="{_n(m / 2)}" y="{ty}" dy=".35em" text-anchor="middle">{rank + 1}</text>')
    return f'<g fill="{FRAME_TEXT}" {font}>' + "".join(out) + "</g>"


def _campmate(board: Board, grid: _Grid, framed: bool) -> str:
    """Each side's campmate target ranks: a tinted band with a dashed edge, and (in the frame) a
    pennant in the colours of the side that wants to get there."""
    rule = board.variant.rules.campmate
    if rule is None:
        return ""
    out = []
    w = grid.cols * SQUARE
    for color in (WHITE, BLACK):
        _, palette = _style(board.variant, next(iter(rule.pieces), "K"), color)
        for rank in rule.ranks[side_index(color)]:
            if not 0 <= rank < grid.rows:
                continue
            _, y = grid.xy(0, rank)
            x = grid.margin
            out.append(
                f'<rect x="{_n(x + 1.5)}" y="{_n(y + 1.5)}" width="{_n(w - 3)}" height="{SQUARE - 3}" '
                f'fill="{GOAL}" fill-opacity=".16" stroke="{GOAL}" stroke-width="2" stroke-dasharray="5 4"/>'
            )
            if framed:
                px = x + w + 5
                py = y + SQUARE / 2
                out.append(
                    f'<path d="M{_n(px)} {_n(py - 8)}v16M{_n(px)} {_n(py - 8)}l{_n(grid.margin - 7)} 4'
                    f'-{_n(grid.margin - 7)} 4z" fill="{palette.fill}" stroke="{palette.line}" '
                    'stroke-width="1.2" stroke-linejoin="round">'
                    f"<title>{_esc(COLOR_NAMES[color])}'s campmate rank</title></path>"
                )
    return '<g class="campmate">' + "".join(out) + "</g>"


_CHECK_GRADIENT = (
    '<radialGradient id="$ID" r="0.5"><stop offset="0%" stop-color="#ff0000"/>'
    '<stop offset="25%" stop-color="#e70000"/><stop offset="89%" stop-color="#a90000" stop-opacity="0"/>'
    '<stop offset="100%" stop-color="#9e0000" stop-opacity="0"/></radialGradient>'
)


def _checked_royals(board: Board) -> list[int]:
    """The side to move's royal pieces that stand attacked (several in Hordes of Change)."""
    if not board.is_check():
        return []
    occupied = board.occ[0] | board.occ[1]
    royals = royal_squares(board, board.side)
    them = board.side ^ 1
    return [
        sq for sq in range(board.geometry.size) if royals >> sq & 1 and attacked_by(board, them, sq, occupied)
    ]


def _arrow(grid: _Grid, arrow: Arrow) -> str:
    x1, y1 = grid.center(arrow.tail)
    x2, y2 = grid.center(arrow.head)
    style = f'fill="{arrow.color}" fill-opacity=".8"'
    if arrow.tail == arrow.head:
        r = SQUARE / 2 - 3
        return (
            f'<circle cx="{_n(x1)}" cy="{_n(y1)}" r="{_n(r)}" fill="none" stroke="{arrow.color}" '
            f'stroke-opacity=".8" stroke-width="4"/>'
        )
    length = math.hypot(x2 - x1, y2 - y1)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    head_len, head_w, shaft_w = 17.0, 12.0, 4.5
    end = length - 6  # stop short of the centre, so the head points into the square
    bx, by = x1 + ux * (end - head_len), y1 + uy * (end - head_len)
    tx, ty = x1 + ux * end, y1 + uy * end
    px, py = -uy, ux
    pts = [
        (x1 + px * shaft_w, y1 + py * shaft_w),
        (bx + px * shaft_w, by + py * shaft_w),
        (bx + px * head_w, by + py * head_w),
        (tx, ty),
        (bx - px * head_w, by - py * head_w),
        (bx - px * shaft_w, by - py * shaft_w),
        (x1 - px * shaft_w, y1 - py * shaft_w),
    ]
    d = "M" + "L".join(f"{_n(x)} {_n(y)}" for x, y in pts) + "z"
    return f'<path d="{d}" {style}/>'


def board(
    board: Board,
    *,
    orientation: Color = WHITE,
    lastmove: Move | None = None,
    check: int | None = None,
    arrows: Iterable[Arrow | tuple[int, int]] = (),
    marks: Mapping[int, str] | Iterable[int] = (),
    size: int | None = None,
    coordinates: bool = True,
    id_prefix: str | None = None,
) -> str:
    """The position as SVG: any rows x cols board, seen from `orientation`.

    `check` is the square to mark as in check; by default every royal piece of the side to move that
    stands attacked. `marks` tints squares (a mapping gives each its colour). For campmate variants
    both sides' target ranks are banded. `size` is the width in pixels (default 45 per square).
    """
    variant = board.variant
    geo = board.geometry
    margin = MARGIN if coordinates else 0
    grid = _Grid(geo.rows, geo.cols, orientation, margin)
    width, height = geo.cols * SQUARE + 2 * margin, geo.rows * SQUARE + 2 * margin
    defs = _Defs(variant)
    parts: list[str] = []
    if coordinates:
        parts.append(f'<rect width="{width}" height="{height}" rx="4" fill="{FRAME}"/>')
    parts.append(grid.squares())
    parts.append(_campmate(board, grid, coordinates))
    if lastmove is not None:
        for sq in dict.fromkeys((lastmove.from_square, lastmove.to_square)):
            parts.append(grid.rect(sq, LASTMOVE, 0.41))
    mark_colors = dict(marks) if isinstance(marks, Mapping) else dict.fromkeys(marks, MARK)
    for sq, color in mark_colors.items():
        parts.append(grid.rect(sq, color, 0.5))
    checked = [check] if check is not None else _checked_royals(board)
    if checked:
        gid = defs.add("check", _CHECK_GRADIENT)
        for sq in checked:
            parts.append(grid.rect(sq, f"url(#{gid})"))
    for sq in range(geo.size):
        found = board.piece_at(sq)
        if found is not None:
            pid = defs.piece(found.piece_type, found.color)
            x, y = grid.square_xy(sq)
            parts.append(f'<use href="#{pid}" x="{_n(x)}" y="{_n(y)}"/>')
    for a in arrows:
        parts.append(_arrow(grid, a if isinstance(a, Arrow) else Arrow(a[0], a[1])))
    if coordinates:
        parts.append(_coordinates(grid))
    body = defs.render() + "".join(parts)
    label = f"{variant.title}: {board.fen()}"
    return _finish(width, height, size, body, id_prefix, label)


# --- movement diagrams -----------------------------------------------------------------------------


def _reach(components: Sequence[Component]) -> int:
    """How far from the centre a diagram must reach to show every leap (riders: one step suffices)."""
    out = 1
    for c in components:
        for dx, dy in c.vectors:
            step = max(abs(dx), abs(dy))
            out = max(out, step * (c.max_steps if c.max_steps > 1 else 1))
    return out


def _walk(components: Iterable[Component], half: int) -> dict[tuple[int, int], tuple[bool, bool]]:
    """Offsets a piece reaches from the centre of an empty (2*half+1)-wide window: (moves, captures)."""
    out: dict[tuple[int, int], tuple[bool, bool]] = {}
    for c in components:
        for dx, dy in c.vectors:
            x, y, n = dx, dy, 1
            while abs(x) <= half and abs(y) <= half and (c.max_steps == 0 or n <= c.max_steps):
                m, k = out.get((x, y), (False, False))
                out[(x, y)] = (m or c.move, k or c.capture)
                x, y, n = x + dx, y + dy, n + 1
    return out


def _chevron(cx: float, cy: float, ux: float, uy: float) -> str:
    """A notched arrowhead centred on (cx, cy) pointing along (ux, uy): the notch keeps its direction
    readable when it points along a diagonal."""
    px, py = -uy, ux
    pts = [
        (cx - ux * 8 + px * 7.5, cy - uy * 8 + py * 7.5),
        (cx + ux * 9, cy + uy * 9),
        (cx - ux * 8 - px * 7.5, cy - uy * 8 - py * 7.5),
        (cx - ux * 2, cy - uy * 2),
    ]
    d = "L".join(f"{_n(x)} {_n(y)}" for x, y in pts)
    return f'<path class="pull" d="M{d}z" fill="{PULL}"/>'


def movement_diagram(
    variant: Variant | str,
    letter: str,
    *,
    color: Color = WHITE,
    size: int | None = None,
    window: int | None = None,
    orientation: Color | None = None,
    id_prefix: str | None = None,
) -> str:
    """Where a piece goes, drawn from its Betza on an empty window with the piece in the middle.

    Green dots: moves only; red: captures only; yellow: both. Riders' dots run to the window's edge.
    A magnet shows blue arrowheads along its pull lines, pointing at it, a blue ring where the pulled
    piece lands, and violet dashed frames on the neighbouring squares it restricts. The window is 7x7
    unless a leap needs more (or `window` says otherwise); by default it is seen from `color`'s side,
    so "forward" is up.
    """
    v = load_variant(variant) if isinstance(variant, str) else variant
    if not v.has_letter(letter):
        raise HordesError(f"{v.title} has no piece {letter!r}")
    pt = v.pieces[v.kind_of(letter)]
    black = color == BLACK

    def frame(comps: Iterable[Component]) -> list[Component]:
        return [c.for_black() if black else c for c in comps]

    moves = frame(pt.mobile_components)
    pulls = frame(pt.pull_components)
    restricts = frame(pt.restrict_components)
    n = window if window is not None else max(7, 2 * _reach(moves + pulls + restricts) + 1)
    if n % 2 == 0:
        n += 1
    half = n // 2
    side = orientation if orientation is not None else color
    grid = _Grid(n, n, side, 0)
    center = half * n + half

    def sq(dx: int, dy: int) -> int:
        return (half + dy) * n + half + dx

    defs = _Defs(v)
    parts = [grid.squares("#e9edf0", "#b3c3cc")]
    pid = defs.piece(letter, color)
    x0, y0 = grid.square_xy(center)
    parts.append(f'<use href="#{pid}" x="{_n(x0)}" y="{_n(y0)}"/>')
    dots = []
    for (dx, dy), (m, k) in sorted(_walk(moves, half).items()):
        fill = BOTH_DOT if m and k else MOVE_DOT if m else CAPTURE_DOT
        kind = "both" if m and k else "move" if m else "capture"
        cx, cy = grid.center(sq(dx, dy))
        dots.append(f'<circle class="{kind}" cx="{_n(cx)}" cy="{_n(cy)}" r="9" fill="{fill}"/>')
    if dots:
        parts.append('<g stroke="#1d2329" stroke-width="1.5">' + "".join(dots) + "</g>")
    marks = []
    for comp in restricts:
        for dx, dy in comp.vectors:
            if abs(dx) <= half and abs(dy) <= half:
                marks.append(
                    grid.rect(sq(dx, dy), "none", inset=3, extra=f' class="restrict" stroke="{RESTRICT}"')
                )
    if marks:
        parts.append('<g stroke-width="3" stroke-dasharray="6 4">' + "".join(marks) + "</g>")
    pull_marks = []
    for comp in pulls:
        for dx, dy in comp.vectors:
            x, y, step = dx, dy, 1
            while abs(x) <= half and abs(y) <= half and (comp.max_steps == 0 or step <= comp.max_steps):
                cx, cy = grid.center(sq(x, y))
                if step == 1:
                    pull_marks.append(f'<circle class="pull" cx="{_n(cx)}" cy="{_n(cy)}" r="8" fill="none"/>')
                else:
                    tx, ty = grid.center(center)
                    d = math.hypot(tx - cx, ty - cy)
                    pull_marks.append(_chevron(cx, cy, (tx - cx) / d, (ty - cy) / d))
                x, y, step = x + dx, y + dy, step + 1
    if pull_marks:
        parts.append(
            f'<g class="pull" fill="none" stroke="{PULL}" stroke-width="3.5" stroke-linecap="round" '
            f'stroke-linejoin="round">' + "".join(pull_marks) + "</g>"
        )
    body = defs.render() + "".join(parts)
    label = f"{pt.name} ({letter}) of {v.title}: {pt.betza or pt.pull_betza or ''}"
    return _finish(n * SQUARE, n * SQUARE, size, body, id_prefix, label)
