"""QR codes for the links a player carries to another device (their seat link, the friend's invitation)."""

from __future__ import annotations

import io

import segno
from markupsafe import Markup


def qr_svg(text: str, label: str) -> Markup:
    """An inline SVG of the QR code of `text`: plain paths, no script, no style attribute (CSP-safe)."""
    out = io.BytesIO()
    segno.make(text, error="m").save(
        out, kind="svg", scale=4, border=2, xmldecl=False, svgns=True, svgclass="qr", lineclass=None,
        title=label, dark="#000", light="#fff",
    )  # fmt: skip
    return Markup(out.getvalue().decode("ascii"))
