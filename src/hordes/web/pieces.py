"""The project's piece set as CSS for the board component, one stylesheet per variant.

chessgroundx draws a piece as `<piece class="white l-piece">` and leaves its picture to CSS. We give
each (variant, letter, colour) a background image made by `hordes.svg.piece`, scoped under the
board's variant class (`.cg-wrap.v-orda`), because one letter can mean different figures in different
variants (Orda's black K is the Khan). The pictures are files of their own
(`/pieces/orda/k-piece.black.svg`), not data: URIs, so that the Content-Security-Policy can keep
images to this origin (security.py). Stylesheets and pictures are made once and cached.
"""

from __future__ import annotations

from functools import lru_cache

from hordes import BLACK, COLOR_NAMES, WHITE, Color, Variant
from hordes.web.positions import role_of


def _svg(letter: str, color: Color, variant: Variant) -> str:
    try:
        from hordes.svg import piece

        return piece(letter, color, variant)
    except Exception:  # the art is another module's business: a missing figure must not break the board
        return _fallback(letter, color)


def _fallback(letter: str, color: Color) -> str:
    """A plain disc with the letter, used only if the piece set cannot draw this piece."""
    fill, ink = ("#fdfdfd", "#1d2329") if color else ("#2b3136", "#f4f4f4")
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 45 45">'
        f'<circle cx="22.5" cy="22.5" r="18" fill="{fill}" stroke="#1d2329" stroke-width="1.5"/>'
        f'<text x="22.5" y="29" font-size="18" font-family="sans-serif" font-weight="700" '
        f'text-anchor="middle" fill="{ink}">{letter}</text></svg>'
    )


def image_name(letter: str, color: Color) -> str:
    """The file name of a piece's picture: 'k-piece.black.svg'."""
    return f"{role_of(letter)}.{COLOR_NAMES[color]}.svg"


def piece_svg(variant: Variant, name: str) -> str | None:
    """The picture called `name` (see image_name) of one of the variant's pieces, or None."""
    return _pictures(variant).get(name)


@lru_cache(maxsize=128)  # bounded: stored variants come and go (variant_store.py)
def _pictures(variant: Variant) -> dict[str, str]:
    return {
        image_name(kind.letter, color): _svg(kind.letter, color, variant)
        for kind in variant.pieces
        for color in (WHITE, BLACK)
    }


def css_name(slug: str) -> str:
    """A slug as a CSS class selector: a stored variant's name has `~` and `@`, which a selector
    must escape (the class itself, set by board.js, is the slug as it is)."""
    return "".join(c if c.isascii() and (c.isalnum() or c in "-_") else "\\" + c for c in slug)


@lru_cache(maxsize=128)
def piece_css(variant: Variant) -> str:
    """CSS rules drawing every piece kind of the variant in both colours."""
    name = css_name(variant.slug)
    scope = f".cg-wrap.v-{name}"
    rules = []
    for kind in variant.pieces:
        for color in (WHITE, BLACK):
            selector = f"{scope} piece.{role_of(kind.letter)}.{COLOR_NAMES[color]}"
            uri = f"/pieces/{variant.slug}/{image_name(kind.letter, color)}"
            rules.append(f"{selector} {{ background-image: url('{uri}'); }}")
            # The promotion chooser and the piece legend use the same pictures outside the board.
            rules.append(
                f".v-{name} .piece-icon.{role_of(kind.letter)}.{COLOR_NAMES[color]} "
                f"{{ background-image: url('{uri}'); }}"
            )
    return "\n".join(rules) + "\n"
