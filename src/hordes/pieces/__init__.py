"""The project's own piece set: figures, palettes, and which figure a piece kind is drawn with.

Figures are looked up by the piece's *name* when a variant is known ("Lancer", "Rook Magnet"), not by
its letter, because letters are only shared conventions: a user document that calls its `H` a Hawk
must get a neutral token, not a Kheshig. Without a variant the usual letters are assumed.
"""

from __future__ import annotations

from dataclasses import dataclass
from string import Template

from hordes.pieces.art import ART, TOKEN


@dataclass(frozen=True, slots=True)
class Palette:
    """Colours of one army. `detail` is drawn on top of `fill`, so it must contrast with it."""

    name: str
    fill: str
    line: str
    detail: str
    accent: str = "#c62f38"  # pennants, plumes, magnets: the same red in every army
    tip: str = "#ececec"  # the bare-metal ends of a magnet

    def values(self) -> dict[str, str]:
        return {
            "fill": self.fill,
            "line": self.line,
            "detail": self.detail,
            "accent": self.accent,
            "tip": self.tip,
        }


WHITE_PALETTE = Palette("white", fill="#fbfaf4", line="#1b1b1b", detail="#1b1b1b")
BLACK_PALETTE = Palette("black", fill="#2b2b2b", line="#050505", detail="#efefef")
# The Horde, drawn in gold as pychess does: a third colour says "the other army" at a glance.
GOLD_PALETTE = Palette("gold", fill="#e5a823", line="#36230a", detail="#36230a")

# Figure for each piece name the built-in variants use (lower case).
ART_BY_NAME: dict[str, str] = {
    "king": "king",
    "queen": "queen",
    "rook": "rook",
    "bishop": "bishop",
    "knight": "knight",
    "pawn": "pawn",
    "lancer": "lancer",
    "horse archer": "archer",
    "archer": "archer",
    "kheshig": "kheshig",
    "yurt": "yurt",
    "khan": "khan",
    "khatun": "khatun",
    "scout": "scout",
    "rook magnet": "rook_magnet",
    "bishop magnet": "bishop_magnet",
}

# Figure for each letter when no variant says what the letter means.
ART_BY_LETTER: dict[str, str] = {
    "K": "king",
    "Q": "queen",
    "R": "rook",
    "B": "bishop",
    "N": "knight",
    "P": "pawn",
    "L": "lancer",
    "A": "archer",
    "H": "kheshig",
    "Y": "yurt",
    "T": "khatun",
    "S": "scout",
    "+R": "rook_magnet",
    "+B": "bishop_magnet",
}

# Figures that make an army "the Horde": drawn in gold, with its king as the Khan.
HORDE_FIGURES = frozenset({"lancer", "archer", "kheshig", "yurt", "khatun", "scout", "khan"})


def figure(art: str, palette: Palette) -> str:
    """The SVG fragment (no wrapper) of a figure in a palette, in a 45x45 box."""
    return Template(ART[art]).substitute(palette.values())


def token(letter: str, palette: Palette) -> str:
    """The fallback: the piece's letter in a round token, for kinds that have no figure."""
    size = 20 if len(letter) == 1 else 15
    text = letter.replace("&", "&amp;").replace("<", "&lt;")
    return Template(TOKEN).substitute(palette.values()) + (
        f'<text x="22.5" y="22.5" dy=".36em" text-anchor="middle" font-family="DejaVu Sans, Verdana, '
        f'Arial, sans-serif" font-weight="bold" font-size="{size}" fill="{palette.detail}">{text}</text>'
    )


__all__ = [
    "ART_BY_LETTER",
    "ART_BY_NAME",
    "BLACK_PALETTE",
    "GOLD_PALETTE",
    "HORDE_FIGURES",
    "WHITE_PALETTE",
    "Palette",
    "figure",
    "token",
]
