"""Variant pages: each variant document's markdown body as HTML, with its diagrams drawn in.

`hordes site OUT_DIR` writes one page per variant, an index and a stylesheet. The web app reuses
`render_variant_body` (the article alone, to put inside its own layout) and `render_variant_page`.

A document's body may contain `{{svg:NAME.svg "caption"}}` directives (the variant-card format); each
becomes the variant's start position as an inline SVG figure with that caption. `{{example:NAME}}`
draws the front matter's example of that name (hordes.examples): the position with the move's arrow,
and the position after it when the example's claims are about that. Examples the body does not place
follow it under "Examples". After the body comes a section with the movement diagram of every piece
kind, drawn from its Betza.

Pages are written as well-formed XML (void tags closed, only XML's own entities), so a strict parser
can check them and the inline SVG needs no special treatment.
"""

from __future__ import annotations

import html
import html.entities
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from xml.etree.ElementTree import Element

import markdown
from markdown.treeprocessors import Treeprocessor

from hordes import examples as teaching
from hordes import svg
from hordes.core.position import Board
from hordes.core.rules import BLACK, COLOR_NAMES, WHITE, Color, PieceType, Variant
from hordes.variants import builtin_variants

DIRECTIVE = re.compile(r'\{\{\s*svg:([^\s"}]+)(?:\s+"([^"]*)")?\s*\}\}')
EXAMPLE_DIRECTIVE = re.compile(r"\{\{\s*example:([^\s}]+)\s*\}\}")
_TOKEN = "HORDESFIGURE{}X"
_TOKEN_RE = re.compile(r"(?:<p>\s*)?HORDESFIGURE(\d+)X(?:\s*</p>)?")

STYLESHEET = """\
:root { --ink: #1f262b; --muted: #5b6870; --line: #d5dde2; --bg: #f6f7f5; --card: #fff;
  --accent: #1f7a6c; --move: #3aa845; --capture: #d8333a; --both: #f2c12e; --pull: #2f6fd6;
  --restrict: #8a3fc7; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--ink);
  font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
header.site { background: #2f3b43; color: #e8ecef; padding: .6rem 1.2rem; }
header.site a { color: #e8ecef; text-decoration: none; margin-right: 1rem; }
header.site a.home { font-weight: 700; }
header.site a[aria-current] { border-bottom: 2px solid #8fd3c4; }
main { max-width: 56rem; margin: 0 auto; padding: 1rem 1.2rem 3rem; }
h1, h2, h3 { line-height: 1.2; }
h2 { margin-top: 1.2rem; font-size: 1.8rem; }
h3 { margin-top: 2rem; border-bottom: 1px solid var(--line); padding-bottom: .2rem; }
a { color: var(--accent); }
code { background: #e9eeeb; padding: .05rem .3rem; border-radius: 3px; font-size: .92em; }
pre code { display: block; padding: .6rem; overflow-x: auto; }
table { border-collapse: collapse; margin: 1rem 0; font-size: .95rem; }
th, td { border: 1px solid var(--line); padding: .35rem .6rem; text-align: left; vertical-align: top; }
th { background: #eef2f0; }
svg { max-width: 100%; height: auto; }
figure { margin: 1.2rem 0; }
figure.board { text-align: center; }
figure.board figcaption, figure.piece figcaption { color: var(--muted); font-size: .92rem; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; background: var(--card);
  border: 1px solid var(--line); border-radius: 6px; padding: .8rem 1rem; margin: 1rem 0; }
dl.facts dt { font-weight: 600; color: var(--muted); }
dl.facts dd { margin: 0; }
.pieces .grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(12.5rem, 1fr)); gap: 1rem; }
figure.piece { background: var(--card); border: 1px solid var(--line); border-radius: 6px; padding: .6rem;
  margin: 0; text-align: center; }
figure.piece figcaption strong { color: var(--ink); }
.legend span { display: inline-block; margin-right: 1rem; }
.legend i { display: inline-block; width: .85rem; height: .85rem; border-radius: 50%;
  border: 1.5px solid #1d2329; vertical-align: -.1rem; margin-right: .3rem; }
.legend i.move { background: var(--move); } .legend i.capture { background: var(--capture); }
.legend i.both { background: var(--both); }
.legend i.pull { background: var(--pull); border-radius: 2px; }
.legend i.restrict { border: 2px dashed var(--restrict); border-radius: 2px; }
figure.example { background: var(--card); border: 1px solid var(--line); border-radius: 6px; padding: .6rem; }
figure.example .boards { display: flex; flex-wrap: wrap; gap: .6rem; justify-content: center;
  align-items: center; }
figure.example svg { width: 17rem; }
figure.example figcaption { color: var(--muted); font-size: .92rem; margin-top: .4rem; }
figure.example figcaption strong { color: var(--ink); }
figure.example.broken figcaption { color: var(--capture); }
ul.variants { list-style: none; padding: 0; display: grid; gap: 1rem;
  grid-template-columns: repeat(auto-fill, minmax(15rem, 1fr)); }
ul.variants li { background: var(--card); border: 1px solid var(--line); border-radius: 6px; padding: .8rem; }
ul.variants li a.title { font-weight: 700; font-size: 1.1rem; }
ul.variants li p { margin: .4rem 0 0; color: var(--muted); font-size: .93rem; }
"""

_FACTS = (
    ("board", "Board"),
    ("players", "Players"),
    ("win", "Winning"),
    ("special", "Special"),
    ("designer", "Designer"),
    ("year", "Year"),
)


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _slug_id(name: str) -> str:
    stem = name.rsplit(".", 1)[0]
    return re.sub(r"[^A-Za-z0-9_-]+", "-", stem).strip("-") or "figure"


def _board_figure(variant: Variant, name: str, caption: str | None, index: int) -> str:
    picture = svg.board(Board(variant), size=400, id_prefix=f"{variant.slug}-fig{index}-")
    cap = f"<figcaption>{_e(caption)}</figcaption>" if caption else ""
    return f'<figure class="board" id="{_e(_slug_id(name))}">{picture}{cap}</figure>'


# Squares an example marks on its first diagram: where the piece cannot go, and where it can.
CLOSED_MARK = svg.RESTRICT
OPEN_MARK = svg.MOVE_DOT


def _example_figure(variant: Variant, example: teaching.Example, index: int) -> str:
    """The example's diagrams (before, and after when its claims are about that) and its caption; an
    example that cannot be played or whose claims fail is shown as that problem, not as a picture."""
    fid = f'id="example-{_e(example.name)}"'
    try:
        played = teaching.play(variant, example)
        problems = teaching.check(variant, example)
    except teaching.ExampleError as exc:
        problems, played = [str(exc)], None
    if played is None or problems:
        text = "; ".join(problems)
        caption = f"<figcaption>This example is wrong: {_e(text)}</figcaption>"
        return f'<figure class="example broken" {fid}>{caption}</figure>'
    move = played.move
    marks = {teaching.square(variant, example, t): OPEN_MARK for t in example.open}
    marks.update({teaching.square(variant, example, t): CLOSED_MARK for t in example.closed})
    prefix = f"{variant.slug}-ex{index}-"
    pictures = [
        svg.board(
            played.before,
            arrows=[svg.Arrow(move.from_square, move.to_square)],
            marks=marks,
            size=300,
            id_prefix=prefix + "a-",
        )
    ]
    if example.shows_result:
        pictures.append(svg.board(played.after, lastmove=move, size=300, id_prefix=prefix + "b-"))
    legend = []
    if example.closed:
        legend.append("violet: squares it cannot go to")
    if example.open:
        legend.append("green: squares it can go to")
    note = f" <small>({_e('; '.join(legend))})</small>" if legend else ""
    result = f" {played.after.result()}" if example.ends else ""  # the game is over: say who won
    return (
        f'<figure class="example" {fid}><div class="boards">{"".join(pictures)}</div>'
        f"<figcaption><strong>{_e(played.san + result)}</strong> {_e(example.caption)}{note}</figcaption>"
        "</figure>"
    )


_SAFE_URL = re.compile(r"^(?:https?:|mailto:|#|[^:]*$)", re.I)


class _SafeLinks(Treeprocessor):
    """Drops link and image targets with a scheme other than http(s) or mailto (javascript: ...)."""

    def run(self, root: Element) -> None:
        for el in root.iter():
            for attr in ("href", "src"):
                value = el.get(attr)
                if value is not None and not _SAFE_URL.match(value.strip()):
                    el.set(attr, "#")


def _markdown(text: str) -> str:
    """Markdown to an XHTML-style fragment (closed void tags), tables and fenced code included.

    Documents may come from users and the web app shows these pages, so raw HTML in a document is
    escaped (shown as text) rather than passed through, and only harmless link targets are kept.
    """
    md = markdown.Markdown(extensions=["tables", "fenced_code"], output_format="xhtml")
    md.preprocessors.deregister("html_block")
    md.inlinePatterns.deregister("html")
    md.treeprocessors.register(_SafeLinks(md), "safe_links", 0)
    return _NAMED_ENTITY.sub(_numeric_entity, md.convert(text))


_NAMED_ENTITY = re.compile(r"&([A-Za-z][A-Za-z0-9]*);")


def _numeric_entity(match: re.Match[str]) -> str:
    """`&mdash;` (kept by markdown) as `&#8212;`, so pages stay well-formed XML; unknown names escaped."""
    name = match.group(1)
    if name in ("amp", "lt", "gt", "quot", "apos"):
        return match.group(0)
    code = html.entities.name2codepoint.get(name)
    return f"&#{code};" if code is not None else f"&amp;{name};"


def _sides(variant: Variant) -> dict[str, list[Color]]:
    """For each piece letter, the colours that have it in the start position."""
    start = Board(variant)
    out: dict[str, list[Color]] = {}
    for sq in range(variant.geometry.size):
        found = start.piece_at(sq)
        if found is not None and found.color not in out.setdefault(found.piece_type, []):
            out[found.piece_type].append(found.color)
    return out


def _movement_text(pt: PieceType) -> str:
    bits = []
    if pt.betza and not pt.immobile:
        bits.append(f"<code>{_e(pt.betza)}</code>")
    if pt.pull_betza:
        bits.append(f"pulls along <code>{_e(pt.pull_betza)}</code>")
    if pt.restricts_betza:
        bits.append(f"restricts <code>{_e(pt.restricts_betza)}</code>")
    if pt.immobile:
        bits.append("never moves")
    if pt.royal:
        bits.append("royal")
    return ", ".join(bits)


def _piece_cards(variant: Variant) -> list[str]:
    """One card per piece kind and army; a kind both armies field gets a card per army only when
    the two are drawn differently (the Horde's Khan is not the Kingdom's King)."""
    sides = _sides(variant)
    cards = []
    for pt in variant.pieces:
        colors = sides.get(pt.letter) or [WHITE]
        if len(colors) == 2 and svg.figure_name(variant, pt.letter, WHITE) == svg.figure_name(
            variant, pt.letter, BLACK
        ):
            colors = [WHITE]
        for color in sorted(colors, reverse=True):  # White's card first
            picture = svg.movement_diagram(
                variant,
                pt.letter,
                color=color,
                size=200,
                id_prefix=f"{variant.slug}-mv-{COLOR_NAMES[color]}-{_slug_id(pt.letter)}-",
            )
            horde = color in svg.horde_colors(variant)
            army = (
                f" ({'Horde' if horde else COLOR_NAMES[color]})" if len(colors) > 1 or color == BLACK else ""
            )
            # The Horde's king is drawn, and known, as the Khan.
            khan = svg.figure_name(variant, pt.letter, color) == "khan" and pt.name.lower() == "king"
            name = "Khan" if khan else pt.name
            cards.append(
                f'<figure class="piece">{picture}<figcaption><strong>{_e(name)}</strong>{_e(army)} '
                f"<code>{_e(pt.letter)}</code><br />{_movement_text(pt)}</figcaption></figure>"
            )
    return cards


def _legend(variant: Variant) -> str:
    items = [
        '<span><i class="move"></i>moves only</span>',
        '<span><i class="capture"></i>captures only</span>',
        '<span><i class="both"></i>moves and captures</span>',
    ]
    if any(pt.pull_components for pt in variant.pieces):
        items.append(
            '<span><i class="pull"></i>pulls the first piece on the line (ring: where it lands)</span>'
        )
    if any(pt.restrict_components for pt in variant.pieces):
        items.append('<span><i class="restrict"></i>restricts enemy pieces standing here</span>')
    return '<p class="legend">' + "".join(items) + "</p>"


def _facts(variant: Variant) -> str:
    rows = [
        f"<dt>{label}</dt><dd>{_e(variant.meta[key])}</dd>" for key, label in _FACTS if variant.meta.get(key)
    ]
    return '<dl class="facts">' + "".join(rows) + "</dl>" if rows else ""


def render_variant_body(variant: Variant) -> str:
    """The variant's article: its facts, its rules page with diagrams, and its pieces' movements."""
    figures: list[str] = []

    def stash(match: re.Match[str]) -> str:
        figures.append(_board_figure(variant, match.group(1), match.group(2), len(figures)))
        return "\n\n" + _TOKEN.format(len(figures) - 1) + "\n\n"

    taught = {ex.name: ex for ex in teaching.examples(variant)}
    placed: list[str] = []

    def example(match: re.Match[str]) -> str:
        name = match.group(1)
        found = taught.get(name)
        if found is None:
            problem = f"This example is wrong: the document has no example {name!r}"
            figures.append(f'<figure class="example broken"><figcaption>{_e(problem)}</figcaption></figure>')
        else:
            placed.append(name)
            figures.append(_example_figure(variant, found, len(figures)))
        return "\n\n" + _TOKEN.format(len(figures) - 1) + "\n\n"

    text = DIRECTIVE.sub(stash, variant.body)
    text = EXAMPLE_DIRECTIVE.sub(example, text)
    rest = [ex for name, ex in taught.items() if name not in placed]
    if rest:  # examples the body does not place itself
        text += "\n\n### Examples\n\n"
        for ex in rest:
            figures.append(_example_figure(variant, ex, len(figures)))
            text += _TOKEN.format(len(figures) - 1) + "\n\n"
    body = _markdown(text)
    body = _TOKEN_RE.sub(lambda m: figures[int(m.group(1))], body)
    pieces = (
        '<section class="pieces"><h3>How the pieces move</h3>'
        + _legend(variant)
        + '<div class="grid">'
        + "".join(_piece_cards(variant))
        + "</div></section>"
    )
    # The facts card goes under the page's own title when the body starts with one.
    head = re.match(r"\s*<h[12][^>]*>.*?</h[12]>", body, re.S)
    cut = head.end() if head else 0
    body = body[:cut] + _facts(variant) + body[cut:]
    return f'<article class="variant" id="{_e(variant.slug)}">' + body + pieces + "</article>"


def _nav(variants: Sequence[Variant], current: Variant | None) -> str:
    links = ['<a class="home" href="index.html">hordes</a>']
    for v in variants:
        here = ' aria-current="page"' if v is current else ""
        links.append(f'<a href="{_e(v.slug)}.html"{here}>{_e(v.title)}</a>')
    return '<header class="site"><nav>' + "".join(links) + "</nav></header>"


def _page(title: str, content: str, nav: str, stylesheet: str) -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8" />'
        '<meta name="viewport" content="width=device-width, initial-scale=1" />'
        f"<title>{_e(title)}</title>"
        f'<link rel="stylesheet" href="{_e(stylesheet)}" /></head>'
        f"<body>{nav}<main>{content}</main></body></html>\n"
    )


def render_variant_page(
    variant: Variant, *, variants: Sequence[Variant] | None = None, stylesheet: str = "style.css"
) -> str:
    """A complete HTML page for one variant; `variants` fills the navigation bar (default: itself)."""
    nav = _nav(variants if variants is not None else [variant], variant)
    return _page(f"{variant.title} — hordes", render_variant_body(variant), nav, stylesheet)


def render_index(variants: Sequence[Variant], *, stylesheet: str = "style.css") -> str:
    """The list of variants, each with its start position in small."""
    items = []
    for v in variants:
        thumb = svg.board(Board(v), size=220, coordinates=False, id_prefix=f"idx-{v.slug}-")
        items.append(
            f'<li><a href="{_e(v.slug)}.html">{thumb}</a><br />'
            f'<a class="title" href="{_e(v.slug)}.html">{_e(v.title)}</a><p>{_e(v.summary)}</p></li>'
        )
    content = '<h1>Chess variants</h1><ul class="variants">' + "".join(items) + "</ul>"
    return _page("Variants — hordes", content, _nav(variants, None), stylesheet)


def build_site(out_dir: str | Path, variants: Iterable[Variant] | None = None) -> list[Path]:
    """Write index.html, one page per variant and style.css into out_dir; return the files written."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    chosen = list(variants) if variants is not None else builtin_variants()
    written = []
    for name, text in [
        ("style.css", STYLESHEET),
        ("index.html", render_index(chosen)),
        *((f"{v.slug}.html", render_variant_page(v, variants=chosen)) for v in chosen),
    ]:
        path = out / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written
