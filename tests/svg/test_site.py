"""`hordes site OUT_DIR` and hordes.site: every page exists, every directive is replaced by a figure,
pages are well-formed, and each piece's movement diagram is there."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

from hordes import Variant, builtin_variants, load_variant, parse_variant, svg
from hordes.cli import main
from hordes.site import DIRECTIVE, render_variant_body, render_variant_page
from tests.svg.conftest import SVG_NS, XIPHOS_DOC, assert_not_blank, render_png

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class _Balance(HTMLParser):
    """Checks that every element is closed, in order, as an HTML parser reads the page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        pass

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'} at {self.getpos()}")
        else:
            self.stack.pop()


def assert_well_formed(text: str) -> ET.Element:
    """Both strict XML (void tags closed, no HTML-only entities) and balanced as HTML."""
    root = ET.fromstring(text.split("\n", 1)[1] if text.startswith("<!DOCTYPE") else text)
    checker = _Balance()
    checker.feed(text)
    checker.close()
    assert not checker.errors, checker.errors[:3]
    assert not checker.stack, f"unclosed: {checker.stack}"
    return root


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    assert main(["site", str(out)]) == 0
    return out


def test_every_page_exists(site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    names = {p.name for p in site.iterdir()}
    expected = {"index.html", "style.css"} | {f"{v.slug}.html" for v in builtin_variants()}
    assert names == expected


def test_index_links_to_every_page(site: Path) -> None:
    index = (site / "index.html").read_text()
    assert_well_formed(index)
    links = set(re.findall(r'<a [^>]*href="([^"]+)"', index))
    for v in builtin_variants():
        assert f"{v.slug}.html" in links
    for link in links:
        assert (site / link).exists(), link


@pytest.mark.parametrize("variant", builtin_variants(), ids=lambda v: v.slug)
def test_pages_replace_directives_and_are_well_formed(site: Path, variant: Variant) -> None:
    text = (site / f"{variant.slug}.html").read_text()
    assert "{{" not in text and "}}" not in text
    assert "HORDESFIGURE" not in text
    root = assert_well_formed(text)
    figures = [f for f in root.iter("figure") if f.get("class") == "board"]
    directives = DIRECTIVE.findall(variant.body)
    assert len(figures) == len(directives) >= 1
    for fig, (_, caption) in zip(figures, directives, strict=True):
        assert fig.find(SVG_NS + "svg") is not None
        assert "".join(fig.find("figcaption").itertext()) == caption
    # a movement diagram for every piece kind, each with its name and letter
    cards = [f for f in root.iter("figure") if f.get("class") == "piece"]
    assert len(cards) >= len(variant.pieces)
    captions = " ".join("".join(c.find("figcaption").itertext()) for c in cards)
    for pt in variant.pieces:
        assert pt.letter in captions
    # the HTML ids are unique on the page, SVG definitions included
    ids = re.findall(r'\sid="([^"]+)"', text)
    assert len(ids) == len(set(ids))
    assert text.count('<link rel="stylesheet" href="style.css" />') == 1


def test_orda_page_shows_the_lancer_diverging(site: Path) -> None:
    root = ET.fromstring((site / "orda.html").read_text().split("\n", 1)[1])
    cards = {
        "".join(c.find("figcaption").itertext()): c for c in root.iter("figure") if c.get("class") == "piece"
    }
    lancer = next(card for caption, card in cards.items() if caption.startswith("Lancer"))
    fills = {c.get("fill") for c in lancer.iter(SVG_NS + "circle") if c.get("class")}
    assert fills == {svg.MOVE_DOT, svg.CAPTURE_DOT}
    assert any(caption.startswith("Khan (Horde)") for caption in cards)
    assert any(caption.startswith("King (white)") for caption in cards)
    assert "mNcR" in "".join(lancer.itertext())


def test_hordes_page_has_the_magnet_legend(site: Path) -> None:
    text = (site / "hordes.html").read_text()
    assert 'class="pull"' in text and 'class="restrict"' in text
    assert "pulls along" in text
    assert 'class="restrict"' not in (site / "chess.html").read_text()


def test_stylesheet_is_small_and_used(site: Path) -> None:
    css = (site / "style.css").read_text()
    assert 200 < len(css) < 10_000
    for cls in ("facts", "piece", "legend", "variants"):
        assert cls in css


def test_body_fragment_and_full_page() -> None:
    orda = load_variant("orda")
    body = render_variant_body(orda)
    assert body.startswith('<article class="variant"') and body.endswith("</article>")
    assert "<html" not in body
    assert_well_formed(body)
    page = render_variant_page(orda)
    assert page.startswith("<!DOCTYPE html>") and body in page
    assert "<title>Orda Chess — hordes</title>" in page


def test_user_document_with_an_unknown_piece(tmp_path: Path, xiphos: Variant) -> None:
    page = render_variant_page(xiphos)
    root = assert_well_formed(page)
    board = next(f for f in root.iter("figure") if f.get("class") == "board")
    assert board.find("figcaption") is None  # the directive had no caption
    assert "<table>" in page
    doc = tmp_path / "xiphos.md"
    doc.write_text(XIPHOS_DOC)
    out = tmp_path / "out"
    assert main(["site", str(out), "--variant", str(doc), "--variant", "orda"]) == 0
    assert {p.name for p in out.iterdir()} == {"index.html", "style.css", "xiphos.html", "orda.html"}
    # the figure is a picture, not just markup
    svg_text = ET.tostring(board.find(SVG_NS + "svg"), encoding="unicode")
    _, pixels = render_png(svg_text, 300)
    assert_not_blank(pixels)


def test_unknown_variant_is_a_user_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["site", str(tmp_path / "x"), "--variant", "no-such-game"]) == 2
    assert "error" in capsys.readouterr().err


def test_documents_cannot_inject_html(xiphos: Variant) -> None:
    """User documents reach the web app: raw HTML is shown as text, script links are dropped, and
    named entities become numeric so the page stays well-formed XML."""
    doc = XIPHOS_DOC + (
        "\n<script>alert(1)</script>\n\nSee [this](javascript:alert(1)) and [that](orda.html) &mdash; "
        "&bogus; AT&T.\n"
    )
    body = render_variant_body(parse_variant(doc, "evil.md"))
    root = assert_well_formed(body)
    assert "<script" not in body and "&lt;script&gt;" in body
    assert {a.get("href") for a in root.iter("a")} == {"#", "orda.html"}
    assert "&#8212;" in body and "&amp;bogus;" in body


def test_directive_pattern() -> None:
    m = DIRECTIVE.search('{{svg:orda-board.svg "Orda Chess — starting position"}}')
    assert m is not None and m.groups() == ("orda-board.svg", "Orda Chess — starting position")
    m = DIRECTIVE.search("{{svg:plain.svg}}")
    assert m is not None and m.groups() == ("plain.svg", None)
