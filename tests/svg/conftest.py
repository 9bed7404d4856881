"""Helpers for the picture tests: parse SVG, render it to pixels, and a user document with its own piece."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import pytest

from hordes import Variant, parse_variant

SVG_NS = "{http://www.w3.org/2000/svg}"

# A user document with a piece the set has no figure for, and a shared letter (H) that means something
# else here: both must be drawn as letter tokens.
XIPHOS_DOC = """---
title: Xiphos Chess
slug: xiphos
parent: chess
engine:
  setup: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBXKBNH w Qkq - 0 1"
  pieces:
    X: {name: Xiphos, betza: WD}
    H: {name: Hawk, betza: BN}
---

## Xiphos Chess

A test document.

{{svg:xiphos.svg}}

| piece | letter |
|---|---|
| Xiphos | X |
"""


@pytest.fixture(scope="session")
def xiphos() -> Variant:
    return parse_variant(XIPHOS_DOC, "xiphos.md")


def parse_svg(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == SVG_NS + "svg"
    return root


def render_png(svg_text: str, width: int) -> tuple[tuple[int, int], list[tuple[int, int, int]]]:
    """Rasterise with cairosvg (on white); return the image size and its RGB pixels."""
    cairosvg = pytest.importorskip("cairosvg")
    from PIL import Image

    data = cairosvg.svg2png(bytestring=svg_text.encode(), output_width=width, background_color="white")
    image = Image.open(io.BytesIO(data)).convert("RGB")
    raw = image.tobytes()
    return image.size, [(raw[i], raw[i + 1], raw[i + 2]) for i in range(0, len(raw), 3)]


def assert_not_blank(pixels: list[tuple[int, int, int]], min_colors: int = 8) -> None:
    """A real picture has many colours and light and dark areas, not one flat fill."""
    distinct = set(pixels)
    assert len(distinct) >= min_colors, f"only {len(distinct)} colours"
    lum = [0.299 * r + 0.587 * g + 0.114 * b for r, g, b in pixels]
    mean = sum(lum) / len(lum)
    variance = sum((x - mean) ** 2 for x in lum) / len(lum)
    assert variance > 100, f"luminance variance {variance:.1f}: the picture looks blank"
