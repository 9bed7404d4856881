"""The piece set's artwork: hand-written SVG fragments, one per figure, in a 45x45 box.

Each fragment is a `string.Template` whose `$fill`, `$line`, `$detail`, `$accent` and `$tip` are filled
in from a palette (see `hordes.pieces`), so one drawing serves White, Black and the gold Horde. Shapes
are flat and bold with a 1.5-unit outline: at 32 px that is one pixel, so the silhouettes carry the
recognition, not inner detail. Every figure stands on the same pedestal (`_BASE`) so that the chess
pieces, the Horde and the magnets read as one set.

The drawings were written by hand for this project (coordinates typed, checked by rendering), and are
released with the library under its MIT license; see docs/pieces.md.
"""

from __future__ import annotations

# The common pedestal: every figure stands on it, which keeps heights and style consistent.
_BASE = '<path d="M8.5 39.5h28v-2.5a2.5 2.5 0 0 0-2.5-2.5h-23a2.5 2.5 0 0 0-2.5 2.5z"/>'
_SMALL_BASE = '<path d="M11 39.5h23v-2.5a2.5 2.5 0 0 0-2.5-2.5h-18a2.5 2.5 0 0 0-2.5 2.5z"/>'
_OPEN = '<g fill="$fill" stroke="$line" stroke-width="1.5" stroke-linejoin="round" stroke-linecap="round">'
_CLOSE = "</g>"

# A horse's head facing left (the chess Knight), reused smaller by the Horde's horsemen.
_HORSE = (
    '<path d="M33.5 34.5H13.5c-.5-5 1.5-8.5 6.5-11.5-2.5-.3-5 .7-7.5 2.4-2.3 1.6-4.9-.4-4-2.9'
    'l7-9.5c.6-2 1.7-3.4 3.2-4.4l-.4-4.1 3.4 3.1c7.4-.1 12.6 5.5 12.6 13.5z"/>'
)
_HORSE_DETAIL = (
    '<circle cx="18.8" cy="14.3" r="1.4" fill="$detail" stroke="none"/>'
    '<circle cx="10.6" cy="22.4" r=".9" fill="$detail" stroke="none"/>'
    '<path d="M24.5 10.5c4.6 1.6 7 5.6 7.2 11.5" fill="none" stroke="$detail" stroke-width="1.3"/>'
)
# The Horde's steppe horse: stockier, with a cropped upright mane (the zigzag) that sets the
# horsemen apart from the chess Knight even in monochrome.
_STEPPE_HORSE = (
    '<path d="M29.5 34.5H12c-.4-4.6 1.4-8 5.6-10.8-2.2-.2-4.4.6-6.6 2.1-2.1 1.4-4.4-.4-3.6-2.6'
    "l6.2-8.4c.5-1.8 1.5-3.1 2.9-4l-.3-3.7 3 2.8 1.6-2.3 1 2.8 2.2-1.6.4 3 2.5-.7-.3 3 2.5.1-1 2.9"
    ' 2.4.9c.5 2.3 .6 4.5 .5 7z"/>'
)
_STEPPE_DETAIL = (
    '<circle cx="16.6" cy="14.6" r="1.3" fill="$detail" stroke="none"/>'
    '<circle cx="9.4" cy="22.1" r=".85" fill="$detail" stroke="none"/>'
)

ART: dict[str, str] = {
    "pawn": _OPEN
    + '<path d="M14 35c0-5.5 3-9.2 5.6-11h6c2.6 1.8 5.4 5.5 5.4 11z"/>'
    + '<rect x="15.5" y="20.6" width="14" height="4" rx="2"/>'
    + '<circle cx="22.5" cy="14.5" r="6"/>'
    + _SMALL_BASE
    + _CLOSE,
    "rook": _OPEN
    + '<path d="M11 8.5h5v3.5h4V8.5h5v3.5h4V8.5h5V16l-3.5 3h-16L11 16z"/>'
    + '<path d="M14.5 19h16l1 12.5h-18z"/>'
    + '<rect x="11.5" y="31.5" width="22" height="3" rx="1"/>'
    + _BASE
    + '<path d="M11.5 16h22" fill="none" stroke="$detail" stroke-width="1.2"/>'
    + _CLOSE,
    "bishop": _OPEN
    + '<circle cx="22.5" cy="7.2" r="2.6"/>'
    + '<path d="M22.5 9.8c-6.6 4.3-8.4 11-6.2 17.7h12.4c2.2-6.7.4-13.4-6.2-17.7z"/>'
    + '<rect x="14.5" y="27.5" width="16" height="3.5" rx="1.5"/>'
    + '<path d="M16.5 31h12l2.5 3.5h-17z"/>'
    + _BASE
    + '<path d="M25.8 15.2l-5.2 6" fill="none" stroke="$detail" stroke-width="2"/>'
    + _CLOSE,
    "knight": _OPEN + _HORSE + _BASE + _HORSE_DETAIL + _CLOSE,
    "queen": _OPEN
    + '<path d="M11.5 30.5 8.5 14l6 8.5L16 11l4 10 2.5-11.5L25 21l4-10 1.5 11.5 6-8.5-3 16.5z"/>'
    + '<circle cx="8.5" cy="12.8" r="2"/><circle cx="16" cy="9.8" r="2"/>'
    + '<circle cx="22.5" cy="8" r="2.2"/><circle cx="29" cy="9.8" r="2"/><circle cx="36.5" cy="12.8" r="2"/>'
    + '<rect x="11" y="30.5" width="23" height="4" rx="1"/>'
    + _BASE
    + _CLOSE,
    "king": _OPEN
    + '<path d="M21 3h3v3h3v3h-3v4.5h-3V9h-3V6h3z"/>'
    + '<path d="M12.5 31 10 20.5c-.8-3.3 2.3-5.8 5.6-4.2l6.9 4.2 6.9-4.2c3.3-1.6 6.4.9 5.6 4.2L32.5 31z"/>'
    + '<path d="M18.5 20.5c0-4 1.6-7 4-7s4 3 4 7z"/>'
    + '<rect x="11.5" y="30.5" width="22" height="4" rx="1"/>'
    + _BASE
    + '<path d="M12.5 27.5h20" fill="none" stroke="$detail" stroke-width="1.2"/>'
    + _CLOSE,
    # --- the Horde ---------------------------------------------------------------------------------
    # Lancer: a horseman with an upright lance and pennant (it captures along straight lines).
    "lancer": _OPEN
    + '<path d="M34.5 2.5 36.5 8h-4z"/>'
    + '<rect x="33.3" y="8" width="2.4" height="26.5"/>'
    + '<path d="M33.3 8.5 25.5 11l7.8 3z" fill="$accent"/>'
    + _STEPPE_HORSE
    + _BASE
    + _STEPPE_DETAIL
    + _CLOSE,
    # Horse Archer: a horseman with a drawn bow behind it (it captures along diagonals).
    "archer": _OPEN
    + '<path d="M27 4.5c9.5 4 12.5 17 7.5 29" fill="none" stroke-width="4.2"/>'
    + '<path d="M27 4.5c9.5 4 12.5 17 7.5 29" fill="none" stroke="$fill" stroke-width="1.4"/>'
    + '<path d="M27 4.5 34.5 33.5" fill="none" stroke-width="1"/>'
    + _STEPPE_HORSE
    + _BASE
    + _STEPPE_DETAIL
    + _CLOSE,
    # Kheshig: the Khan's guard, a horseman behind a round shield (it steps like a king, too).
    "kheshig": _OPEN
    + _STEPPE_HORSE
    + '<circle cx="29" cy="25" r="7.5"/>'
    + '<circle cx="29" cy="25" r="4.5" fill="none" stroke="$detail" stroke-width="1.2"/>'
    + '<circle cx="29" cy="25" r="1.6" fill="$detail" stroke="none"/>'
    + _BASE
    + _STEPPE_DETAIL
    + _CLOSE,
    # Yurt: the felt tent, dome roof with a smoke ring, lattice wall and door.
    "yurt": _OPEN
    + '<path d="M7.5 24.5C10 17 15.5 12.2 22.5 11.8c7 .4 12.5 5.2 15 12.7z"/>'
    + '<path d="M18.5 12.3l1-3.3h6l1 3.3z"/>'
    + '<path d="M10 24.5h25v10H10z"/>'
    + _BASE
    + '<path d="M22.5 12v12.5M17 13.3l-4 11.2M28 13.3l4 11.2M14 28l5 4m-5 0 5-4m7 0 5 4m-5 0 5-4"'
    ' fill="none" stroke="$detail" stroke-width="1.1"/>'
    + '<path d="M20 34.5v-7h5v7z" fill="$detail" stroke="none"/>'
    + _CLOSE,
    # Khan: a fur-brimmed steppe helmet with a tall spike and plume, in place of the King's cross.
    "khan": _OPEN
    + '<path d="M22.5 1.5 24.5 9h-4z"/>'
    + '<path d="M24 5c4 .5 6.5 2.5 8 6-2.8-1.5-5.4-2.2-8-2z" fill="$accent"/>'
    + '<path d="M12.5 20.5c0-6.5 4.2-11.3 10-11.3s10 4.8 10 11.3z"/>'
    + '<rect x="9.5" y="19.5" width="26" height="5.5" rx="2.75"/>'
    + '<path d="M13 25l-1 6h21l-1-6z"/>'
    + '<rect x="11.5" y="30.5" width="22" height="4" rx="1"/>'
    + _BASE
    + '<path d="M14 22.2h2m3 0h2m3 0h2m3 0h2" fill="none" stroke="$detail" stroke-width="1.4"/>'
    + _CLOSE,
    # Khatun: a noblewoman in the tall boqta headdress, which leans forward and ends in a plume.
    "khatun": _OPEN
    + '<path d="M23.5 4.2c2.8-3 7-3.2 10.5-1.2-3.6.4-6.5 2-8.6 4.3z" fill="$accent"/>'
    + '<path d="M19.2 17.5 17 6.5c-.3-1.6.6-2.5 2-2.5h7.5c1.4 0 2.1 1 1.5 2.4L24.8 17.5z"/>'
    + '<circle cx="22" cy="21.5" r="5"/>'
    + '<path d="M11.5 34.5c0-6 3.5-9 7-9.5h8c3.5.5 7 3.5 7 9.5z"/>'
    + '<path d="M15.5 23.5c-1.8 1.5-2.3 3.8-1.7 6M28.5 23.5c1.8 1.5 2.3 3.8 1.7 6"'
    ' fill="none" stroke-width="1.6"/>'
    + _BASE
    + '<path d="M18.5 8.5h8" fill="none" stroke="$detail" stroke-width="1.2"/>'
    + '<path d="M22.5 25v9" fill="none" stroke="$detail" stroke-width="1.2"/>'
    + _CLOSE,
    # Scout: a pawn-sized horseman (it leaps forward like a knight and strikes one step ahead).
    "scout": _OPEN
    + '<g transform="translate(8.6 9.2) scale(.62)" stroke-width="2.4">'
    + _STEPPE_HORSE
    + "</g>"
    + '<path d="M13.5 34.5c.4-2.6 1.6-4.3 3.3-5h12.2c1.7.7 2.9 2.4 3.3 5z"/>'
    + _SMALL_BASE
    + '<circle cx="18.9" cy="18.3" r=".95" fill="$detail" stroke="none"/>'
    + _CLOSE,
    # --- Hordes of Change: the magnets carry a horseshoe magnet on the silhouette of their piece ---
    "rook_magnet": _OPEN
    + '<path d="M11 8.5h5v3.5h4V8.5h5v3.5h4V8.5h5V16l-3.5 3h-16L11 16z"/>'
    + '<path d="M14.5 19h16l1 12.5h-18z"/>'
    + '<rect x="11.5" y="31.5" width="22" height="3" rx="1"/>'
    + _BASE
    + '<path d="M14.5 13.5v8.5a8 8 0 0 0 16 0v-8.5h-5v8.5a3 3 0 0 1-6 0v-8.5z" fill="$accent"/>'
    + '<path d="M14.5 13.5h5v3.5h-5zm11 0h5v3.5h-5z" fill="$tip"/>'
    + _CLOSE,
    "bishop_magnet": _OPEN
    + '<circle cx="22.5" cy="7.2" r="2.6"/>'
    + '<path d="M22.5 9.8c-6.6 4.3-8.4 11-6.2 17.7h12.4c2.2-6.7.4-13.4-6.2-17.7z"/>'
    + '<rect x="14.5" y="27.5" width="16" height="3.5" rx="1.5"/>'
    + '<path d="M16.5 31h12l2.5 3.5h-17z"/>'
    + _BASE
    + '<path d="M15.5 14.5v7a7 7 0 0 0 14 0v-7h-4.5v7a2.5 2.5 0 0 1-5 0v-7z" fill="$accent"/>'
    + '<path d="M15.5 14.5h4.5v3.2h-4.5zm9.5 0h4.5v3.2H25z" fill="$tip"/>'
    + _CLOSE,
}

# The fallback for a piece a document defines without artwork: its letter in a round token.
TOKEN = (
    '<circle cx="22.5" cy="22.5" r="17" fill="$fill" stroke="$line" stroke-width="2"/>'
    '<circle cx="22.5" cy="22.5" r="13.8" fill="none" stroke="$detail" stroke-width="1" opacity=".6"/>'
)
