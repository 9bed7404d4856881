"""Standard Algebraic Notation for every variant, written exactly as Fairy-Stockfish writes it.

Writing follows Fairy-Stockfish's `move_to_san` (pyffish.get_san), which is what pychess exports:

* the piece letter of the variant document, none for a piece kind marked `pawn` (chess and Orda
  pawns); every other kind keeps its letter, so a Khan's Chess Scout is `Sc3` and `Sxd3`;
* disambiguation as in chess, among the legal moves of the same kind of piece to the same square
  (by file if that is enough, else by rank, else both); a pawn capture always names its file;
* `x` for a capture (en passant included), `=Q`/`=H`/`=T` for a promotion, `O-O`/`O-O-O` for castling;
* `+` when the move leaves the opponent in check and `#` when it also leaves them without a legal move.
  A campmate is not marked (`Kd8`): it gives no check. A campmate that also uncovers a check is written
  `Kd8#`, because the game is over and the opponent has no legal move (this is Fairy-Stockfish's output,
  checked by tests/notation/test_san_fsf.py).

Reading is forgiving wherever the text cannot mean two things: the capture mark and the check/mate
suffixes are optional and never checked against the position, annotation glyphs (`!`, `?!`) and
`e.p.` are ignored, castling may be written with zeros or as the king's move (`Kg1`, `e1g1`), the
origin may be over-specified (`Ng1f3`) or given as a UCI move (`g1f3`, `e7e8q`), promotions may be
written `e8=Q`, `e8Q`, `e8q` or `e8(Q)`, a `-` may separate origin and destination (`N-f3`, `Ng1-f3`),
and a promotion with a single possible piece may omit it. Text that matches several legal moves raises
AmbiguousMoveError, text that matches none IllegalMoveError; both name the candidates.

Variants that transform pieces in place or pull them with magnets (Hordes of Change) use the SAN of
rule H20 instead, written and read by hordes.notation.san_mechanisms; san_int and parse_san_int hand
them over, so every caller (PGN included) gets it without knowing.

Parsing never writes SAN for every legal move: the text is taken apart by one regular expression and
matched against the legal moves by destination square, piece kind and origin.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from hordes.core import movegen
from hordes.core.fen import EMPTY
from hordes.core.movegen import (
    FLAG_CASTLE,
    FLAG_DOUBLE,
    FLAG_EP,
    FLAG_SHIFT,
    PROMO_SHIFT,
    SQ_MASK,
    TO_SHIFT,
)
from hordes.core.position import Board, Move
from hordes.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError, quoted

FILES = "abcdefghijklmnopqrstuvwxyz"

# Characters that may trail a move and mean nothing to its identity: check marks and annotation glyphs.
_TRAIL = "+#!?‼⁇⁈⁉ "
_CASTLE = re.compile(r"[O0o](?:-?[O0o]){1,2}")
_SAN = re.compile(
    r"(?P<piece>\+?[A-Z])?"
    r"(?P<ffile>[a-z])??(?P<frank>[0-9]{1,3})??"
    r"[-x:]?"
    r"(?P<file>[a-z])(?P<rank>[0-9]{1,3})"
    r"(?:[=/]?\(?(?P<promo>\+?[A-Za-z])\)?)?"
)


# ----- writing ---------------------------------------------------------------------------------------
def san_int(board: Board, m: int, legal: list[int] | None = None) -> str:
    """SAN of a legal move given as the generator's int; `legal` saves regenerating the move list."""
    if legal is None:
        legal = movegen.generate_legal(board)
    if not board.compiled.simple:
        # Transformations and pulls (Hordes of Change, rule H20) have no chess spelling and
        # Fairy-Stockfish knows no such variant: their SAN lives in a module that builds on this one.
        from hordes.notation import san_mechanisms

        if san_mechanisms.applies(board):
            return san_mechanisms.san_int(board, m, legal)
    return _san_body(board, m, legal) + check_suffix(board, m)


def check_suffix(board: Board, m: int) -> str:
    """`+` if the move gives check, `#` if it mates, else nothing."""
    board.push_int(m)
    try:
        if movegen.in_check(board, board.side):
            return "+" if movegen.generate_legal(board) else "#"
        return ""
    finally:
        board.pop_int()


def _san_body(board: Board, m: int, legal: list[int]) -> str:
    """SAN without the check suffix."""
    frm = m & SQ_MASK
    to = m >> TO_SHIFT & SQ_MASK
    flags = m >> FLAG_SHIFT
    if flags & FLAG_CASTLE:
        return "O-O" if to > frm else "O-O-O"
    variant = board.variant
    geo = board.geometry
    mailbox = board.mailbox
    kind = mailbox[frm] >> 1
    piece = variant.pieces[kind]
    capture = (mailbox[to] != EMPTY and frm != to) or bool(flags & FLAG_EP)
    if piece.pawn:
        text = FILES[frm % geo.cols] if capture else ""
    else:
        text = piece.letter
        others = {
            f
            for x in legal
            if x >> TO_SHIFT & SQ_MASK == to and (f := x & SQ_MASK) != frm and mailbox[f] >> 1 == kind
        }
        if others:
            cols = geo.cols
            if all(f % cols != frm % cols for f in others):
                text += FILES[frm % cols]
            elif all(f // cols != frm // cols for f in others):
                text += str(frm // cols + 1)
            else:
                text += geo.square_name(frm)
    if capture:
        text += "x"
    text += geo.square_name(to)
    promo = (m >> PROMO_SHIFT & 63) - 1
    if promo >= 0:
        text += "=" + variant.pieces[promo].letter
    return text


def _to_int(board: Board, move: Move, legal: list[int]) -> int:
    """The generator's int for a Move; IllegalMoveError if it is not legal here."""
    variant = board.variant
    promo = (
        variant.kind_of(move.promotion) + 1 if move.promotion and variant.has_letter(move.promotion) else 0
    )
    if move.promotion and not promo:
        raise IllegalMoveError(board.uci(move), board.fen(), f"{variant.title} has no piece {move.promotion}")
    for m in legal:
        if (
            m & SQ_MASK == move.from_square
            and m >> TO_SHIFT & SQ_MASK == move.to_square
            and m >> PROMO_SHIFT & 63 == promo
        ):
            return m
    raise IllegalMoveError(board.uci(move), board.fen())


def san(board: Board, move: Move) -> str:
    """The SAN of a legal move in this position (IllegalMoveError if it is not legal)."""
    legal = movegen.generate_legal(board)
    return san_int(board, _to_int(board, move, legal), legal)


def lan(board: Board, move: Move) -> str:
    """Long algebraic notation, as python-chess writes it: the piece letter (none for a pawn), the
    from square, `-` or `x`, the to square, a promotion and the check suffix (`Ng1-f3`, `e7xd8=Q+`).
    Castling is `O-O`; a move of a mechanism without a chess spelling (a pull, a change of shape)
    is written as its SAN, which already names both squares."""
    legal = movegen.generate_legal(board)
    m = _to_int(board, move, legal)
    if not board.compiled.simple:
        from hordes.notation import san_mechanisms

        if san_mechanisms.applies(board):
            return san_mechanisms.san_int(board, m, legal)
    frm = m & SQ_MASK
    to = m >> TO_SHIFT & SQ_MASK
    flags = m >> FLAG_SHIFT
    if flags & FLAG_CASTLE:
        text = "O-O" if to > frm else "O-O-O"
    else:
        geo = board.geometry
        piece = board.variant.pieces[board.mailbox[frm] >> 1]
        capture = board.mailbox[to] != EMPTY or bool(flags & FLAG_EP)
        text = ("" if piece.pawn else piece.letter) + geo.square_name(frm) + ("x" if capture else "-")
        text += geo.square_name(to)
        promo = (m >> PROMO_SHIFT & 63) - 1
        if promo >= 0:
            text += "=" + board.variant.pieces[promo].letter
    return text + check_suffix(board, m)


def variation_san(board: Board, moves: Iterable[Move]) -> str:
    """A line of moves as numbered SAN (`1. e4 e5 2. Nf3`, or `3...Nf6` when Black starts), as
    python-chess writes it.

    The board is left as it was; an illegal move raises IllegalMoveError naming the move and position.
    """
    parts: list[str] = []
    pushed = 0
    try:
        for move in moves:
            legal = movegen.generate_legal(board)
            m = _to_int(board, move, legal)
            text = san_int(board, m, legal)
            if board.side == 0:
                parts.append(f"{board.fullmove}. {text}")
            elif not parts:  # python-chess writes Black's first move as `3...Nf6`, no space
                parts.append(f"{board.fullmove}...{text}")
            else:
                parts.append(text)
            board.push_int(m)
            pushed += 1
    finally:
        for _ in range(pushed):
            board.pop_int()
    return " ".join(parts)


# ----- reading ---------------------------------------------------------------------------------------
def parse_san_int(board: Board, text: str, legal: list[int] | None = None) -> int:
    """The legal move (as the generator's int) that SAN text names; see the module doc for the rules."""
    if legal is None:
        legal = movegen.generate_legal(board)
    if not board.compiled.simple:
        from hordes.notation import san_mechanisms  # rule H20; see san_int

        if san_mechanisms.applies(board):
            return san_mechanisms.parse_san_int(board, text, legal)
    body = _strip_suffix(text)
    match = _SAN.fullmatch(body)
    if match is None:
        if _CASTLE.fullmatch(body):
            return _castle(board, text, body.count("O") + body.count("0") + body.count("o") == 2, legal)
        raise InvalidMoveError(f"not a move: {quoted(text)} (expected SAN such as Nf3, exd5, O-O or e8=Q)")
    piece, ffile, frank, tfile, trank, promo = match.groups()
    geo = board.geometry
    cols = geo.cols
    to_file = ord(tfile) - 97
    to_rank = int(trank) - 1
    if to_file >= cols or not 0 <= to_rank < geo.rows:
        raise InvalidMoveError(f"{quoted(text)}: square {tfile}{trank} is off the {cols}x{geo.rows} board")
    to = to_rank * cols + to_file
    variant = board.variant
    kinds: tuple[int, ...] | None
    if piece is not None:
        if not variant.has_letter(piece):
            raise InvalidMoveError(f"{quoted(text)}: {variant.title} has no piece {piece!r}")
        kinds = (variant.kind_of(piece),)
    elif ffile is not None and frank is not None:
        kinds = None  # a bare origin and destination (UCI style) names the piece by its square
    else:
        kinds = board.compiled.pawn_kinds
    from_file = ord(ffile) - 97 if ffile is not None else -1
    from_rank = int(frank) - 1 if frank is not None else -1
    promo_code = 0
    if promo is not None:
        letter = promo.upper()
        if not variant.has_letter(letter):
            raise InvalidMoveError(f"{quoted(text)}: {variant.title} has no piece {letter!r} to promote to")
        promo_code = variant.kind_of(letter) + 1
    mailbox = board.mailbox
    found: list[int] = []
    for m in legal:
        if m >> TO_SHIFT & SQ_MASK != to:
            continue
        frm = m & SQ_MASK
        if kinds is not None and mailbox[frm] >> 1 not in kinds:
            continue
        if from_file >= 0 and frm % cols != from_file:
            continue
        if from_rank >= 0 and frm // cols != from_rank:
            continue
        if promo_code and m >> PROMO_SHIFT & 63 != promo_code:
            continue
        found.append(m)
    if len(found) == 1:
        return found[0]
    if not found:
        raise _illegal(board, text, to, legal)
    if not promo_code:
        plain = [m for m in found if not m >> PROMO_SHIFT & 63]
        if len(plain) == 1:
            return plain[0]
    raise _ambiguous(board, text, _sans(board, found, legal))


def _strip_suffix(text: str) -> str:
    """Drop check marks, annotation glyphs and an en passant mark (`e.p.`, `ep`) from the end."""
    body = text.strip()
    if body[-1:] in _TRAIL:
        body = body.rstrip(_TRAIL)
    if body[-1:] in ".p":
        for mark in ("e.p.", "ep"):
            if body.endswith(mark):
                body = body[: -len(mark)].rstrip(_TRAIL)
                break
    return body


def _castle(board: Board, text: str, short: bool, legal: list[int]) -> int:
    for m in legal:
        if m >> FLAG_SHIFT & FLAG_CASTLE and ((m >> TO_SHIFT & SQ_MASK) > (m & SQ_MASK)) == short:
            return m
    side = "kingside" if short else "queenside"
    raise IllegalMoveError(text, board.fen(), f"castling {side} is not legal here")


def _sans(board: Board, moves: list[int], legal: list[int]) -> list[str]:
    return [san_int(board, m, legal) for m in moves]


def _ambiguous(board: Board, text: str, candidates: list[str]) -> AmbiguousMoveError:
    return AmbiguousMoveError(text, board.fen(), candidates)


def _illegal(board: Board, text: str, to: int, legal: list[int]) -> IllegalMoveError:
    there = [m for m in legal if m >> TO_SHIFT & SQ_MASK == to]
    square = board.geometry.square_name(to)
    if there:
        reason = f"legal moves to {square}: " + ", ".join(_sans(board, there, legal))
    elif legal:
        reason = f"no legal move reaches {square}"
    else:
        outcome = board.outcome()
        ended = f"by {outcome.termination.value}" if outcome else ""
        reason = f"the game is over {ended}".strip()
    return IllegalMoveError(text, board.fen(), reason)


def parse_san(board: Board, text: str) -> Move:
    """The legal Move that SAN text names. InvalidMoveError if the text is not SAN at all,
    IllegalMoveError if no legal move matches, AmbiguousMoveError if several do."""
    return board.int_to_move(parse_san_int(board, text))


def push_san(board: Board, text: str) -> Move:
    """Parse SAN, play the move and return it."""
    return board.int_to_move(push_san_int(board, text))


def push_san_int(board: Board, text: str) -> int:
    """Parse SAN and play the move; returns the generator's int. The fast path of the PGN reader."""
    m = _push_fast(board, text)
    if m < 0:
        m = parse_san_int(board, text)
        board.push_int(m)
    return m


def _push_fast(board: Board, text: str) -> int:
    """Resolve SAN against the pieces that can reach the destination, without generating every legal
    move, and play it. Returns -1 (and leaves the board alone) whenever the answer is not a single
    plain legal move: castling, errors, ambiguity and unusual variants go to parse_san_int, which
    looks at the full move list. The candidates found here are exactly those parse_san_int would
    find, because legality is decided the same way (play the move, then test the mover's royals)."""
    comp = board.compiled
    if not comp.simple:
        return -1
    body = text.strip()
    if body[-1:] in _TRAIL:
        body = body.rstrip(_TRAIL)
    match = _SAN.fullmatch(body)
    if match is None:
        return -1
    piece, ffile, frank, tfile, trank, promo = match.groups()
    cols = comp.cols
    to = (int(trank) - 1) * cols + ord(tfile) - 97
    if ord(tfile) - 97 >= cols or not 0 <= to < comp.size:
        return -1
    if comp.camp_kinds and movegen.campmate_reached(board):
        return -1
    us = board.side
    own = board.occ[us]
    to_bb = 1 << to
    if own & to_bb:
        return -1
    index = board.variant.letter_index
    from_file = ord(ffile) - 97 if ffile is not None else -1
    from_rank = int(frank) - 1 if frank is not None else -1
    kinds: tuple[int, ...]
    if piece is not None:
        if piece not in index:
            return -1
        kinds = (index[piece],)
    elif from_file >= 0 and from_rank >= 0:
        origin = from_rank * cols + from_file
        if from_file >= cols or not 0 <= origin < comp.size or not own >> origin & 1:
            return -1
        kinds = (board.mailbox[origin] >> 1,)
    else:
        kinds = comp.pawn_kinds
    promo_kind = -1
    if promo is not None:
        promo_kind = index.get(promo.upper(), -2)
        if promo_kind < 0:
            return -1
    occupied = own | board.occ[us ^ 1]
    gens = comp.gens[us]
    kind_bb = board.kind_bb
    found: list[int] = []
    for k in kinds:
        g = gens[k]
        if g.royal and board.castling & comp.back_rank[us]:
            return -1  # a king move may be castling: let the full move list decide
        bb = kind_bb[k] & own
        while bb:
            low = bb & -bb
            bb ^= low
            sq = low.bit_length() - 1
            if (from_file >= 0 and sq % cols != from_file) or (from_rank >= 0 and sq // cols != from_rank):
                continue
            flags = 0
            if not movegen.pseudo_targets(board, sq, k, us, occupied) & to_bb:
                if not g.pawn:
                    continue
                forward = comp.forward[us]
                if to == board.ep_square and g.capture.attacks(sq, occupied) & to_bb:
                    flags = FLAG_EP
                elif (
                    comp.double_step[us] & low
                    and to == sq + 2 * forward
                    and not (occupied >> (sq + forward) & 1 or occupied & to_bb)
                ):
                    flags = FLAG_DOUBLE
                else:
                    continue
            if g.promotes and to_bb & comp.promo_zone[us]:
                for c in comp.promo_choices[us]:
                    if promo_kind < 0 or c == promo_kind:
                        found.append(sq | to << TO_SHIFT | (c + 1) << PROMO_SHIFT)
            elif promo_kind < 0:
                found.append(sq | to << TO_SHIFT | flags << FLAG_SHIFT)
    if len(found) != 1:
        found = [m for m in found if board.is_safe_after(m)]
        if len(found) != 1:
            return -1
        board.push_int(found[0])
        return found[0]
    m = found[0]
    board.push_int(m)
    if movegen.in_check(board, us):
        board.pop_int()
        return -1
    return m
