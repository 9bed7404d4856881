"""SAN for variants whose documents switch on in-place transformations or magnet pulls (Hordes of
Change, rule H20). hordes.notation.san hands such variants here; every other variant keeps the
Fairy-Stockfish SAN of that module untouched.

Why a notation of its own: the generator encodes a transformation as a move from a square to itself
and a pull as the *pulled* piece's from and to (rule H19), so neither can be written as a chess move
(`Rc3` would say nothing about the new kind, and a pulled piece may be the opponent's). The forms:

* an ordinary move or capture of the mover's own piece, as in chess: `Rd4`, `Bxf6`, `Nxe5`, `Ke2`,
  disambiguated by file, rank or both among the *ordinary* moves of the same kind to the same square
  (a pull of one's own Rook onto that square is not a Rook move and never forces a disambiguation);
* a transformation: the piece, its square, `=` and the new kind: `Rc3=+R`, `+Bf4=B`, `Kd1=N`, `Ne4=K`;
* a pull: the magnet, its square, `:`, then the pulled piece's from and to: `+Re1:e5-e2`. A pull that
  is also an ordinary move of one's own piece (same squares, hence the same move by H19) is written as
  the ordinary move (`Re2`); both spellings are read. No magnet letter and square ever name two pulls
  of the same piece to the same square: the landing square is next to the magnet on the line toward
  the pulled piece, so the magnet's square follows from the two squares.
* `+` when a royal piece of the opponent can be captured after the move, `#` when the opponent then has
  no legal move at all (in these variants that loses, H14; with a King or Knight able to change shape
  it only happens in check). A repetition loss is not marked.

Reading accepts those forms plus UCI (`c3c3`, `e5e2`), a missing or superfluous `x`, `+` or `#`, the
magnet's letter or the pulled piece's origin left out of a pull (`e1:e5-e2`, `+Re1:e2`), a transformation
without `=` (`Kd1N`), and a pull written as a move of the pulled piece with its full origin (`Re5e2`).
Text that fits several legal moves raises AmbiguousMoveError, text that fits none IllegalMoveError;
both name the candidates in this SAN.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from weakref import WeakKeyDictionary

from hordes.core import movegen
from hordes.core.fen import EMPTY
from hordes.core.movegen import FLAG_SHIFT, PROMO_SHIFT, SQ_MASK, TO_SHIFT
from hordes.core.position import Board
from hordes.core.rules import Variant
from hordes.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError, quoted
from hordes.notation.san import _CASTLE, _SAN, _castle, _san_body, _strip_suffix

_PULL = re.compile(
    r"(?P<piece>\+?[A-Z])?(?P<magnet>[a-z][0-9]{1,3}):(?:(?P<frm>[a-z][0-9]{1,3})[-x]?)?(?P<to>[a-z][0-9]{1,3})"
)
_TRANSFORM = re.compile(r"(?P<piece>\+?[A-Z])?(?P<square>[a-z][0-9]{1,3})[=/]?\(?(?P<new>\+?[A-Za-z])\)?")


@dataclass(frozen=True, slots=True)
class _Mechanisms:
    """What the notation needs to know about a variant's mechanisms, computed once per variant."""

    active: bool  # some kind transforms or pulls: this module writes and reads the SAN
    pullers: tuple[int, ...]  # kinds that pull
    # Royal kinds whose change of shape can never endanger a royal piece (neither kind restricts):
    # while such a piece stands and its side is not in check, that side has a legal move.
    safe_shifters: tuple[int, ...]
    camp: bool  # a campmate ends the game, so "no legal move" cannot be inferred from the pieces


_INFO: WeakKeyDictionary[Variant, _Mechanisms] = WeakKeyDictionary()


def _info(variant: Variant) -> _Mechanisms:
    info = _INFO.get(variant)
    if info is None:
        pieces = variant.pieces
        pullers = tuple(k for k, p in enumerate(pieces) if p.pull_components)
        shifters = tuple(
            k
            for k, p in enumerate(pieces)
            if p.royal
            and p.transforms_to is not None
            and not p.restricts
            and not pieces[variant.kind_of(p.transforms_to)].restricts
        )
        active = bool(pullers) or any(p.transforms_to for p in pieces)
        info = _INFO[variant] = _Mechanisms(active, pullers, shifters, variant.rules.campmate is not None)
    return info


def applies(board: Board) -> bool:
    """Does this variant use the SAN of this module (it has transformations or pulls)?"""
    return _info(board.variant).active


# ----- what kind of move is it -----------------------------------------------------------------------
def is_ordinary(board: Board, m: int) -> bool:
    """Is the legal move `m` a move of the mover's own piece by its own movement (not a change of
    shape, not only a pull)? A pull with the same squares is the same move, and is written this way."""
    frm = m & SQ_MASK
    to = m >> TO_SHIFT & SQ_MASK
    code = board.mailbox[frm]
    us = board.side
    if frm == to or code & 1 != us:
        return False
    if m >> FLAG_SHIFT:  # castling, en passant and double steps are moves by construction
        return True
    occupied = board.occ[0] | board.occ[1]
    return bool(movegen.pseudo_targets(board, frm, code >> 1, us, occupied) >> to & 1)


def pulls(board: Board, magnet: int = -1) -> list[tuple[int, int, int]]:
    """Every pseudo-legal pull of the side to move as (magnet square, pulled from, to), optionally of
    the magnet on one square only."""
    comp = board.compiled
    occupied = board.occ[0] | board.occ[1]
    own = board.occ[board.side]
    out = []
    for kind in _info(board.variant).pullers:
        bb = board.kind_bb[kind] & own
        if magnet >= 0:
            bb &= 1 << magnet
        while bb:
            low = bb & -bb
            bb ^= low
            sq = low.bit_length() - 1
            for ray in comp.pull_rays[kind][sq]:
                for i, s in enumerate(ray):
                    if occupied >> s & 1:
                        if i:
                            out.append((sq, s, ray[0]))
                        break
    return out


def _magnet_of(board: Board, frm: int, to: int) -> int:
    """The square of the magnet that pulls the piece on `frm` to `to` (-1 if none does)."""
    for sq, f, t in pulls(board):
        if f == frm and t == to:
            return sq
    return -1


# ----- writing ---------------------------------------------------------------------------------------
def san_body(board: Board, m: int, legal: list[int]) -> str:
    """SAN of a legal move without the check suffix."""
    frm = m & SQ_MASK
    to = m >> TO_SHIFT & SQ_MASK
    geo = board.geometry
    pieces = board.variant.pieces
    code = board.mailbox[frm]
    if frm == to:
        new = board.compiled.transform_code[code]
        return f"{pieces[code >> 1].letter}{geo.square_name(frm)}={pieces[new >> 1].letter}"
    if is_ordinary(board, m):
        rivals = [x for x in legal if x >> TO_SHIFT & SQ_MASK == to and x != m and is_ordinary(board, x)]
        return _san_body(board, m, [m, *rivals])
    magnet = _magnet_of(board, frm, to)
    if magnet < 0:  # unreachable for a legal move: it is a transformation, a move or a pull
        raise IllegalMoveError(board.uci(board.int_to_move(m)), board.fen(), "neither a move nor a pull")
    return _pull_text(board, magnet, frm, to)


def _pull_text(board: Board, magnet: int, frm: int, to: int) -> str:
    """`+Re1:e5-e2`: the magnet, its square, `:`, the pulled piece's from and to."""
    name = board.geometry.square_name
    letter = board.variant.pieces[board.mailbox[magnet] >> 1].letter
    return f"{letter}{name(magnet)}:{name(frm)}-{name(to)}"


def suffix_after(board: Board) -> str:
    """`+`, `#` or nothing for the position just reached (the opponent to move)."""
    them = board.side
    check = movegen.in_check(board, them)
    if not check:
        info = _info(board.variant)
        if not info.camp:
            own = board.occ[them]
            if any(board.kind_bb[k] & own for k in info.safe_shifters):
                return ""  # a royal piece can always change shape, and that is legal when not in check
    if movegen.generate_legal(board):
        return "+" if check else ""
    return "#"


def san_int(board: Board, m: int, legal: list[int]) -> str:
    """SAN of a legal move, with its `+` or `#`."""
    text = san_body(board, m, legal)
    board.push_int(m)
    try:
        return text + suffix_after(board)
    finally:
        board.pop_int()


# ----- reading ---------------------------------------------------------------------------------------
def _square(board: Board, text: str, name: str) -> int:
    geo = board.geometry
    f = ord(name[0]) - 97
    r = int(name[1:]) - 1
    if f >= geo.cols or not 0 <= r < geo.rows:
        raise InvalidMoveError(f"{quoted(text)}: square {name} is off the {geo.cols}x{geo.rows} board")
    return r * geo.cols + f


def _letter(board: Board, text: str, letter: str) -> int:
    """The kind a piece letter names (upper or lower case); InvalidMoveError if the variant lacks it."""
    variant = board.variant
    up = letter.upper()
    if not variant.has_letter(up):
        raise InvalidMoveError(f"{quoted(text)}: {variant.title} has no piece {up!r}")
    return variant.kind_of(up)


def parse_san_int(board: Board, text: str, legal: list[int]) -> int:
    """The legal move (generator int) that the text names; see the module doc for what is read."""
    body = _strip_suffix(text)
    match = _PULL.fullmatch(body)
    if match is not None:
        m = _parse_pull(board, text, match, legal)
        if m >= 0:
            return m
    match = _TRANSFORM.fullmatch(body)
    if match is not None:
        sq = _square(board, text, match["square"])
        if (sq | sq << TO_SHIFT) in legal:
            return _parse_transform(board, text, match, sq)
    match = _SAN.fullmatch(body.replace(":", "x"))  # `Re1:e2`, an old way to write a capture
    if match is None:
        if _CASTLE.fullmatch(body):
            return _castle(board, text, body.count("O") + body.count("0") + body.count("o") == 2, legal)
        expected = "expected SAN such as Rd4, Bxf6, Rc3=+R or +Re1:e5-e2, or UCI such as c3c3"
        raise InvalidMoveError(f"not a move: {quoted(text)} ({expected})")
    return _parse_move(board, text, match, legal)


def _parse_pull(board: Board, text: str, match: re.Match[str], legal: list[int]) -> int:
    """A pull `+Re1:e5-e2`; -1 when no magnet of the mover stands on the square (the text may be an
    old-style capture such as `Re1:e2`)."""
    magnet = _square(board, text, match["magnet"])
    code = board.mailbox[magnet]
    if code == EMPTY or code & 1 != board.side or code >> 1 not in _info(board.variant).pullers:
        if match["frm"] is None:
            return -1
        reason = f"the side to move has no magnet on {match['magnet']}"
        raise IllegalMoveError(text, board.fen(), reason)
    geo = board.geometry
    letter = board.variant.pieces[code >> 1].letter
    if match["piece"] is not None and _letter(board, text, match["piece"]) != code >> 1:
        raise IllegalMoveError(text, board.fen(), f"the piece on {match['magnet']} is {letter}")
    frm = _square(board, text, match["frm"]) if match["frm"] else -1
    to = _square(board, text, match["to"])
    options = [(f, t) for _, f, t in pulls(board, magnet)]
    legal_set = set(legal)
    found = [f | t << TO_SHIFT for f, t in options if t == to and frm in (-1, f)]
    found = [m for m in found if m in legal_set]
    if len(found) == 1:
        return found[0]
    if found:
        raise AmbiguousMoveError(text, board.fen(), [san_int(board, m, legal) for m in found])
    # Listed in the pull spelling even where SAN writes the same move as a move of the pulled piece.
    allowed = [_pull_text(board, magnet, f, t) for f, t in options if (f | t << TO_SHIFT) in legal_set]
    if allowed:
        reason = f"legal pulls of {letter}{geo.square_name(magnet)}: {', '.join(allowed)}"
    else:
        reason = f"{letter}{geo.square_name(magnet)} has no legal pull"
    raise IllegalMoveError(text, board.fen(), reason)


def _parse_transform(board: Board, text: str, match: re.Match[str], sq: int) -> int:
    """A change of shape `Rc3=+R` (the caller has checked that the piece on sq may change)."""
    pieces = board.variant.pieces
    code = board.mailbox[sq]
    new = board.compiled.transform_code[code] >> 1
    right = f"{pieces[code >> 1].letter}{match['square']}={pieces[new].letter}"
    if match["piece"] is not None and _letter(board, text, match["piece"]) != code >> 1:
        raise IllegalMoveError(text, board.fen(), f"the piece on {match['square']} changes by {right}")
    if _letter(board, text, match["new"]) != new:
        raise IllegalMoveError(text, board.fen(), f"the piece on {match['square']} can only become {right}")
    return sq | sq << TO_SHIFT


def _parse_move(board: Board, text: str, match: re.Match[str], legal: list[int]) -> int:
    """A move as in chess (`Rd4`, `Rad4`, `Bxf6`), or UCI (`e5e2`, `c3c3`), or a piece letter with a
    full origin (`Re5e2`), which, like UCI, may name any legal move with those squares, pulls included."""
    piece, ffile, frank, tfile, trank, promo = match.groups()
    cols = board.geometry.cols
    to = _square(board, text, tfile + trank)
    kind = _letter(board, text, piece) if piece is not None else -1
    full = ffile is not None and frank is not None
    from_file = ord(ffile) - 97 if ffile is not None else -1
    from_rank = int(frank) - 1 if frank is not None else -1
    promo_code = _letter(board, text, promo) + 1 if promo is not None else -1
    mailbox = board.mailbox
    pawns = board.compiled.pawn_kinds
    found = []
    for m in legal:
        if m >> TO_SHIFT & SQ_MASK != to:
            continue
        frm = m & SQ_MASK
        if (from_file >= 0 and frm % cols != from_file) or (from_rank >= 0 and frm // cols != from_rank):
            continue
        if promo_code >= 0 and m >> PROMO_SHIFT & 63 != promo_code:
            continue
        if full and piece is None:  # UCI: the squares alone name the move
            found.append(m)
            continue
        k = mailbox[frm] >> 1
        if (k == kind if piece is not None else k in pawns) and (full or is_ordinary(board, m)):
            found.append(m)
    if len(found) == 1:
        return found[0]
    if found:
        plain = [m for m in found if not m >> PROMO_SHIFT & 63]
        if promo_code < 0 and len(plain) == 1:
            return plain[0]
        raise AmbiguousMoveError(text, board.fen(), [san_int(board, m, legal) for m in found])
    raise _illegal(board, text, to, legal)


def _illegal(board: Board, text: str, to: int, legal: list[int]) -> IllegalMoveError:
    there = [m for m in legal if m >> TO_SHIFT & SQ_MASK == to]
    square = board.geometry.square_name(to)
    if there:
        reason = f"legal moves to {square}: " + ", ".join(san_int(board, m, legal) for m in there)
    elif legal:
        reason = f"no legal move reaches {square}"
    else:
        outcome = board.outcome()
        reason = f"the game is over by {outcome.termination.value}" if outcome else "the game is over"
    return IllegalMoveError(text, board.fen(), reason)
