"""The rating history of one variant as an SVG line chart, drawn on the server.

The page's Content-Security-Policy allows no inline style or script, so the chart uses SVG's
presentation attributes and classes (styled by app.css) only, and scales to its box by its viewBox.
"""

from __future__ import annotations

from html import escape
from typing import Any

WIDTH, HEIGHT = 400, 150  # small enough that the labels stay legible when it shrinks to a phone
LEFT, RIGHT, TOP, BOTTOM = 40, 8, 10, 20  # margins for the axis labels


def _nice_range(low: float, high: float) -> tuple[int, int]:
    """A y range in whole 50s around [low, high], at least 100 points tall."""
    lo, hi = int(low // 50) * 50, int(-(-high // 50)) * 50
    if hi - lo < 100:
        mid = (lo + hi) // 2
        lo, hi = mid - 50, mid + 50
    return lo, hi


def rating_svg(history: list[dict[str, Any]], title: str) -> str:
    """An <svg> of the ratings after each game (oldest left), with the start (1500) as point 0."""
    values = [1500.0] + [float(h["rating"]) for h in history]
    lo, hi = _nice_range(min(values), max(values))
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    step = inner_w / max(1, len(values) - 1)

    def y(v: float) -> float:
        return TOP + inner_h * (hi - v) / (hi - lo)

    points = " ".join(f"{LEFT + i * step:.1f},{y(v):.1f}" for i, v in enumerate(values))
    parts = [
        f'<svg class="rating-plot" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(title)}</title>",
    ]
    for v in (lo, (lo + hi) // 2, hi):  # whole numbers
        parts.append(
            f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(v):.1f}" y2="{y(v):.1f}"/>'
            f'<text class="axis" x="{LEFT - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{v}</text>'
        )
    parts.append(
        f'<text class="axis" x="{LEFT}" y="{HEIGHT - 6}">start</text>'
        f'<text class="axis" x="{WIDTH - RIGHT}" y="{HEIGHT - 6}" text-anchor="end">'
        f"after {len(values) - 1} game{'s' if len(values) != 2 else ''}</text>"
    )
    parts.append(f'<polyline class="line" fill="none" points="{points}"/>')
    for i, value in enumerate(values[1:], start=1):
        parts.append(f'<circle class="dot" cx="{LEFT + i * step:.1f}" cy="{y(value):.1f}" r="3"/>')
    parts.append("</svg>")
    return "".join(parts)
