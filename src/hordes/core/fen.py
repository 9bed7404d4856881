"""FEN parsing and writing for any variant: an unvalidated Setup first, then the checks.

Piece letters come from the variant; a magnet-style kind is written with a '+' before its letter.
Upper case is White, lower case is Black.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from hordes.core.rules import Variant
from hordes.errors import HordesError, InvalidFenError, quoted

EMPTY: Final = -1
_DIGITS = "0123456789"  # ASCII only: '²'.isdigit() is true but int() refuses it
MAX_COUNTER_DIGITS: Final = 9  # the halfmove clock and fullmove number: no game lasts a billion moves


@dataclass(slots=True)
class Setup:
    """A position as read from a FEN, before it is a Board. board[sq] = kind * 2 + color, or EMPTY."""

    board: list[int]
    side: int  # 0 = White to move, 1 = Black
    castling: int  # bitboard of rook squares that keep castling rights
    ep_square: int  # -1 when none
    halfmove: int
    fullmove: int


def piece_symbol(variant: Variant, code: int) -> str:
    letter = variant.pieces[code >> 1].letter
    return letter if code & 1 == 0 else letter.lower()


def parse_placement(variant: Variant, fen: str, placement: str) -> list[int]:
    geo = variant.geometry
    rows = placement.split("/")
    if len(rows) != geo.rows:
        raise InvalidFenError(
            fen, "placement", f"expected {geo.rows} ranks separated by '/', found {len(rows)}"
        )
    board = [EMPTY] * geo.size
    for i, row in enumerate(rows):
        rank = geo.rows - 1 - i
        file = 0
        j = 0
        while j < len(row):
            ch = row[j]
            if ch in _DIGITS:
                k = j
                while k < len(row) and row[k] in _DIGITS:
                    k += 1
                digits = row[j:k].lstrip("0") or "0"
                if len(digits) > 3:  # no int() of a run of thousands of digits
                    problem = f"rank {rank + 1}: empty-square count {quoted(digits, 10)} exceeds the board"
                    raise InvalidFenError(fen, "placement", problem)
                n = int(digits)
                if n == 0:
                    raise InvalidFenError(fen, "placement", f"rank {rank + 1}: empty-square count 0")
                file += n
                j = k
                continue
            token = ch
            if ch == "+":
                if j + 1 >= len(row):
                    raise InvalidFenError(fen, "placement", f"rank {rank + 1}: '+' without a piece letter")
                token = row[j : j + 2]
            key = token.upper()
            if not ("A" <= key[-1] <= "Z") or not variant.has_letter(key):
                raise InvalidFenError(
                    fen, "placement", f"rank {rank + 1}: {token!r} is not a piece of {variant.title}"
                )
            if file >= geo.cols:
                raise InvalidFenError(fen, "placement", f"rank {rank + 1} has more than {geo.cols} squares")
            color = 0 if token[-1].isupper() else 1
            board[geo.square(file, rank)] = variant.kind_of(key) * 2 + color
            file += 1
            j += len(token)
        if file != geo.cols:
            raise InvalidFenError(
                fen, "placement", f"rank {rank + 1} has {file} squares, expected {geo.cols}"
            )
    return board


def castling_rooks(variant: Variant, board: list[int], color: int) -> tuple[int, int, int]:
    """(king square, kingside rook square, queenside rook square) for castling, -1 where missing."""
    geo = variant.geometry
    rank = 0 if color == 0 else geo.rows - 1
    king = rook_letter = -1
    if not variant.rules.castling or not variant.has_letter("R"):
        return -1, -1, -1
    rook_letter = variant.kind_of("R")
    for f in range(geo.cols):
        code = board[geo.square(f, rank)]
        if code != EMPTY and code & 1 == color and variant.pieces[code >> 1].royal:
            king = geo.square(f, rank)
    if king < 0:
        return -1, -1, -1
    kside = qside = -1
    for f in range(geo.cols):
        sq = geo.square(f, rank)
        if board[sq] == rook_letter * 2 + color:
            if sq > king and kside < 0:
                kside = sq  # outermost found last; keep scanning
            if sq > king:
                kside = sq
            if sq < king and qside < 0:
                qside = sq
    return king, kside, qside


def parse_fen(variant: Variant, fen: str) -> Setup:
    fields = fen.split()
    if not fields:
        raise InvalidFenError(fen, "placement", "empty FEN")
    if len(fields) > 6:
        raise InvalidFenError(
            fen, "fields", f"expected at most 6 space-separated fields, found {len(fields)}"
        )
    board = parse_placement(variant, fen, fields[0])
    geo = variant.geometry
    turn_text = fields[1] if len(fields) > 1 else "w"
    if turn_text not in ("w", "b"):
        raise InvalidFenError(fen, "side to move", f"expected 'w' or 'b', found {quoted(turn_text, 20)}")
    side = 0 if turn_text == "w" else 1
    castling = 0
    ctext = fields[2] if len(fields) > 2 else "-"
    if ctext != "-" and not variant.rules.castling:
        raise InvalidFenError(fen, "castling", f"{variant.title} has no castling: the field must be '-'")
    if ctext != "-":
        for ch in ctext:
            if ch not in "KQkq":
                raise InvalidFenError(fen, "castling", f"unexpected character {ch!r} (use K, Q, k, q or -)")
            color = 0 if ch.isupper() else 1
            _, kside, qside = castling_rooks(variant, board, color)
            rook = kside if ch in "Kk" else qside
            if rook >= 0:  # rights without a king and rook in place are dropped, as python-chess does
                castling |= 1 << rook
    ep = -1
    etext = fields[3] if len(fields) > 3 else "-"
    if etext != "-" and not variant.rules.en_passant:
        raise InvalidFenError(fen, "en passant", f"{variant.title} has no en passant: the field must be '-'")
    if etext != "-":
        try:
            ep = geo.parse_square(etext)
        except HordesError as exc:
            raise InvalidFenError(fen, "en passant", str(exc)) from None
        if board[ep] != EMPTY:
            raise InvalidFenError(fen, "en passant", f"square {etext} is occupied")
    numbers = []
    for name, idx, default in (("halfmove clock", 4, 0), ("fullmove number", 5, 1)):
        text = fields[idx] if len(fields) > idx else str(default)
        if not (text.isascii() and text.isdigit()):  # '²'.isdigit() is true but int() refuses it
            raise InvalidFenError(fen, name, f"expected a non-negative number, found {quoted(text, 20)}")
        if len(text.lstrip("0")) > MAX_COUNTER_DIGITS:
            raise InvalidFenError(
                fen, name, f"{quoted(text, 20)} is too large (at most {MAX_COUNTER_DIGITS} digits)"
            )
        numbers.append(int(text))
    if numbers[1] < 1:
        numbers[1] = 1
    setup = Setup(board, side, castling, ep, numbers[0], numbers[1])
    _check_material(variant, fen, setup)
    return setup


def royal_counts(variant: Variant, board: list[int]) -> tuple[int, int]:
    counts = [0, 0]
    for code in board:
        if code != EMPTY and variant.pieces[code >> 1].royal:
            counts[code & 1] += 1
    return counts[0], counts[1]


def _max_royals(variant: Variant) -> tuple[int, int]:
    board = parse_placement(variant, variant.start_fen, variant.start_fen.split()[0])
    return royal_counts(variant, board)


def _check_material(variant: Variant, fen: str, setup: Setup) -> None:
    counts = royal_counts(variant, setup.board)
    start = _max_royals(variant) if fen != variant.start_fen else counts
    for color, name in ((0, "white"), (1, "black")):
        if counts[color] == 0:
            raise InvalidFenError(fen, "placement", f"{name} has no royal piece")
        if counts[color] > max(1, start[color]):
            raise InvalidFenError(
                fen,
                "placement",
                f"{name} has {counts[color]} royal pieces; {variant.title} allows {start[color]}",
            )
    geo = variant.geometry
    for color in (0, 1):
        promo = variant.rules.promotion[color]
        if not promo.ranks and not promo.squares:
            continue
        kinds = {variant.kind_of(letter) for letter in promo.pieces}
        for sq, code in enumerate(setup.board):
            in_zone = geo.rank_of(sq) in promo.ranks or sq in promo.squares
            if code != EMPTY and code & 1 == color and code >> 1 in kinds and in_zone:
                raise InvalidFenError(
                    fen,
                    "placement",
                    f"{piece_symbol(variant, code)} on {geo.square_name(sq)} stands on its promotion rank",
                )


def board_fen(variant: Variant, board: list[int]) -> str:
    geo = variant.geometry
    parts: list[str] = []
    for rank in range(geo.rows - 1, -1, -1):
        row = ""
        empty = 0
        for file in range(geo.cols):
            code = board[geo.square(file, rank)]
            if code == EMPTY:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += piece_symbol(variant, code)
        if empty:
            row += str(empty)
        parts.append(row)
    return "/".join(parts)
