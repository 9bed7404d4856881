"""The Board: a position of any variant, with push/pop, FEN, Zobrist hash and game outcome.

>>> from hordes import Board
>>> board = Board("chess")  # a variant's name, a path to a document, or a Variant
>>> board.push_uci("e2e4")
Move.from_uci('e2e4')
>>> board.fen()
'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1'
>>> board.pop()
Move.from_uci('e2e4')
>>> board.legal_moves.count(), board.is_check(), board.outcome()
(20, False, None)

Squares are numbers, rank by rank from a1 = 0: on a board of `cols` files the square of file `f`
and rank `r` (both from 0) is `r * cols + f`, so chess squares match python-chess's. A `Move` holds
its from and to squares and a promotion letter; `Board.legal_moves` lists the legal ones lazily,
`push` and `pop` play and take back, `parse_uci` and `push_uci` read UCI text. `Board.outcome` says
how the game ended by the variant's rules (checkmate, stalemate, campmate, repetition, the n-move
rule, ...) or None while it goes on.

Colours are python-chess's: `WHITE` is True, `BLACK` False, `board.turn` a bool. Internally the
board keeps `board.side`, a side number (0 = White) that indexes its tables. `hordes.Board` is the
subclass in `hordes.notation.board` that adds SAN (`san`, `push_san`, ...); this core class knows
no notation.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import Enum, Flag, auto

from mypy_extensions import i64

from hordes.core import movegen
from hordes.core.compiled import Compiled, compiled
from hordes.core.fen import EMPTY, Setup, board_fen, parse_fen, royal_counts
from hordes.core.geometry import Geometry, geometry
from hordes.core.movegen import FLAG_CASTLE, FLAG_DOUBLE, FLAG_EP, FLAG_SHIFT, PROMO_SHIFT, SQ_MASK, TO_SHIFT
from hordes.core.rules import Color, PieceType, Variant, side_color, side_index
from hordes.errors import HordesError, IllegalMoveError, InvalidMoveError, quoted


@dataclass(frozen=True, slots=True)
class Move:
    """A move: from and to squares and an optional promotion letter (upper case).

    A move whose from and to squares are the same is a transformation in place.
    `geometry` only serves to print the move; it takes no part in equality.
    """

    from_square: int
    to_square: int
    promotion: str | None = None
    geometry: Geometry | None = None

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Move)
            and self.from_square == other.from_square
            and self.to_square == other.to_square
            and self.promotion == other.promotion
        )

    def __hash__(self) -> int:
        return hash((self.from_square, self.to_square, self.promotion))

    def __reduce__(self) -> tuple[type[Move], tuple[int, int, str | None, Geometry | None]]:
        # Pickled field by field: a frozen class compiled by mypyc cannot be unpickled by setting
        # its attributes one by one, as pickle does by default.
        return Move, (self.from_square, self.to_square, self.promotion, self.geometry)

    def uci(self) -> str:
        if self is _NULL_MOVE:
            return "0000"
        geo = self.geometry or _DEFAULT_GEOMETRY
        text = geo.square_name(self.from_square) + geo.square_name(self.to_square)
        return text + self.promotion.lower().lstrip("+") if self.promotion else text

    def __str__(self) -> str:
        return self.uci()

    def __repr__(self) -> str:
        return f"Move.from_uci({self.uci()!r})"

    def __bool__(self) -> bool:
        """False for the null move, as in python-chess."""
        return self.from_square != self.to_square or self.promotion is not None or self.geometry is not None

    @classmethod
    def null(cls) -> Move:
        """The null move ("0000" in UCI): a pass, which no board accepts as a legal move."""
        return _NULL_MOVE

    @classmethod
    def from_uci(cls, text: str, geometry: Geometry | None = None) -> Move:
        geo = geometry or _DEFAULT_GEOMETRY
        if text.strip() == "0000":
            return _NULL_MOVE
        # ASCII digits, at most three: `\d` would take '٣', and int() refuses 5000 digits.
        m = re.fullmatch(r"([a-z])([0-9]{1,3})([a-z])([0-9]{1,3})([a-z]?)", text.strip())
        if not m:
            raise InvalidMoveError(f"not a UCI move: {quoted(text)} (expected e.g. e2e4 or e7e8q)")
        try:
            frm = geo.parse_square(m.group(1) + m.group(2))
            to = geo.parse_square(m.group(3) + m.group(4))
        except HordesError as exc:
            raise InvalidMoveError(f"UCI move {quoted(text)}: {exc}") from None
        return cls(frm, to, m.group(5).upper() or None, geo)


_DEFAULT_GEOMETRY = geometry(8, 8)
# from == to is a transformation in place on a real square; the null move is told apart by identity.
_NULL_MOVE = Move(0, 0)


class Termination(Enum):
    """Why a game ended (`Outcome.termination`); the value is the reason in words."""

    CHECKMATE = "checkmate"
    STALEMATE = "stalemate"
    CAMPMATE = "campmate"
    INSUFFICIENT_MATERIAL = "insufficient material"
    THREEFOLD_REPETITION = "threefold repetition"
    REPETITION_LOSS = "repetition loss"
    N_MOVE_RULE = "n-move rule"
    VARIANT_WIN = "variant win"
    VARIANT_LOSS = "variant loss"


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: `winner` is WHITE (True), BLACK (False) or None for a draw."""

    termination: Termination
    winner: Color | None

    def result(self) -> str:
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner else "0-1"


@dataclass(frozen=True, slots=True)
class Piece:
    """A piece on the board, as python-chess has it: a kind (`piece_type`, its upper-case letter,
    e.g. "N" or "+R") and a colour. `kind` is the document's description of that kind."""

    piece_type: str
    color: Color
    kind: PieceType | None = None

    def symbol(self) -> str:
        """The FEN letter: upper case for White, lower case for Black."""
        return self.piece_type if self.color else self.piece_type.lower()

    def unicode_symbol(self, *, invert_color: bool = False) -> str:
        """The chess figurine for the six chess kinds, the letter otherwise."""
        symbol = self.symbol() if not invert_color else self.symbol().swapcase()
        return UNICODE_PIECES.get(symbol, symbol)

    def __str__(self) -> str:
        return self.symbol()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Piece) and (self.piece_type, self.color) == (other.piece_type, other.color)

    def __hash__(self) -> int:
        return hash((self.piece_type, self.color))


UNICODE_PIECES = {
    "R": "♖", "N": "♘", "B": "♗", "Q": "♕", "K": "♔", "P": "♙",
    "r": "♜", "n": "♞", "b": "♝", "q": "♛", "k": "♚", "p": "♟",
}  # fmt: skip


class Status(Flag):
    """What is wrong with a position (`Board.status()`); `Status.VALID` when nothing is."""

    VALID = 0
    NO_ROYAL = auto()  # a side that must have a royal piece has none
    OPPOSITE_CHECK = auto()  # the side not to move is in check
    BAD_CASTLING_RIGHTS = auto()
    INVALID_EP_SQUARE = auto()


class LegalMoves:
    """A lazy view of the legal moves: iterate, test with `in`, count."""

    def __init__(self, board: Board) -> None:
        self._board = board

    def _ints(self) -> list[int]:
        return movegen.generate_legal(self._board)

    def __iter__(self) -> Iterator[Move]:
        to_move = self._board.int_to_move
        for m in self._ints():
            yield to_move(m)

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and self._board.is_legal(move)

    def count(self) -> int:
        return len(self._ints())

    def __len__(self) -> int:
        return self.count()

    def __bool__(self) -> bool:
        return bool(self._ints())

    def __repr__(self) -> str:
        return f"<LegalMoves ({', '.join(m.uci() for m in self)})>"


# An undo record: move int, the kind and occupancy lists before the move (push works on copies, so a
# stored list is never changed again and Board copies may share it), the from and to squares' codes,
# castling, ep, clocks, and further mailbox changes (castling, en passant) or None.
_Undo = tuple[int, list[int], list[int], int, int, int, int, int, int, list[tuple[int, int]] | None]


class Board:
    """A position of a variant. `Board("orda")`, `Board("chess", fen=...)`, or a Variant object."""

    def __init__(self, variant: Variant | str = "chess", fen: str | None = None) -> None:
        if isinstance(variant, str):
            from hordes.variants import load_variant  # the registry of documents sits beside the core

            variant = load_variant(variant)
        self.variant = variant
        self.compiled: Compiled = compiled(variant)
        self.geometry = variant.geometry
        self.set_fen(fen if fen is not None else variant.start_fen)

    # ----- state -----------------------------------------------------------------------------
    def set_fen(self, fen: str) -> None:
        """Set up the position of a FEN (the move stack is cleared); InvalidFenError if it is not one."""
        setup = parse_fen(self.variant, fen)
        self._load(setup)
        if movegen.in_check(self, self.side ^ 1):
            from hordes.errors import InvalidFenError

            raise InvalidFenError(fen, "placement", "the side not to move is in check")

    def _load(self, setup: Setup) -> None:
        comp = self.compiled
        nkinds = len(self.variant.pieces)
        self.mailbox: list[int] = list(setup.board)
        self.kind_bb: list[int] = [0] * nkinds
        self.occ: list[int] = [0, 0]
        h = 0
        for sq, code in enumerate(self.mailbox):
            if code != EMPTY:
                self.kind_bb[code >> 1] |= 1 << sq
                self.occ[code & 1] |= 1 << sq
                h ^= comp.z_piece[code][sq]
        self.side: int = setup.side
        self.castling: int = setup.castling
        self.ep_square: int = -1
        self.halfmove: int = setup.halfmove
        self.fullmove: int = setup.fullmove
        if setup.side:
            h ^= comp.z_turn
        for sq in movegen_iter(setup.castling):
            h ^= comp.z_castle[sq]
        # Signed (the keys are, see compiled._signed64): a native i64 in the compiled build, where XOR
        # on a boxed 64-bit int would allocate a new int for each key a move adds or removes.
        self._hash: i64 = h
        if setup.ep_square >= 0 and self._ep_capturable(setup.ep_square, setup.side):
            self.ep_square = setup.ep_square
            self._hash ^= comp.z_ep[setup.ep_square % comp.cols]
        self._stack: list[_Undo] = []
        self._hashes: list[int] = [self._hash]
        self._nulls: list[tuple[int, int, int, int]] = []

    def _ep_capturable(self, ep: int, by: int) -> bool:
        """Could a pawn of `by` capture onto ep (pseudo-legally)? Only then is an ep square recorded."""
        comp = self.compiled
        pawns = self.occ[by]
        for k, table in comp.ep_leapers[by]:  # a pawn that only leaps: from where it captures on ep
            if self.kind_bb[k] & pawns & table[ep]:
                return True
        occupied = self.occ[0] | self.occ[1]
        for k in comp.ep_riders[by]:
            bb = self.kind_bb[k] & pawns
            g = comp.gens[by][k]
            while bb:
                low = bb & -bb
                bb ^= low
                if g.capture.attacks(low.bit_length() - 1, occupied) >> ep & 1:
                    return True
        return False

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves of the side to move, generated when asked for."""
        return LegalMoves(self)

    def copy(self, *, stack: bool = True) -> Board:
        """An independent board in the same position, with the moves played so far unless `stack=False`."""
        new = type(self).__new__(type(self))  # a subclass (hordes.Board, with notation) stays itself
        new.variant = self.variant
        new.compiled = self.compiled
        new.geometry = self.geometry
        new.mailbox = list(self.mailbox)
        new.kind_bb = list(self.kind_bb)
        new.occ = list(self.occ)
        new.side = self.side
        new.castling = self.castling
        new.ep_square = self.ep_square
        new.halfmove = self.halfmove
        new.fullmove = self.fullmove
        new._hash = self._hash
        new._stack = list(self._stack) if stack else []
        new._hashes = list(self._hashes) if stack else [self._hash]
        new._nulls = list(self._nulls) if stack else []
        return new

    def zobrist_hash(self) -> int:
        """A 64-bit hash of the position (placement, side to move, castling, en passant square)."""
        return int(self._hash) & 0xFFFF_FFFF_FFFF_FFFF

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and other.variant is self.variant and other.fen() == self.fen()

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"Board({self.variant.slug!r}, fen={self.fen()!r})"

    # ----- python-chess's view: colours as bools ----------------------------------------------
    @property
    def turn(self) -> Color:
        """The side to move: WHITE (True) or BLACK (False). The core works with `side` (0 = White)."""
        return self.side == 0

    @turn.setter
    def turn(self, color: Color) -> None:
        side = side_index(color)
        if side != self.side:
            self.side = side
            self._hash ^= self.compiled.z_turn
            self._hashes[-1] = self._hash

    @property
    def side_to_move(self) -> Color:
        return self.turn

    @property
    def fullmove_number(self) -> int:
        """Starts at 1 and goes up after every move of Black."""
        return self.fullmove

    @fullmove_number.setter
    def fullmove_number(self, value: int) -> None:
        self.fullmove = value

    @property
    def halfmove_clock(self) -> int:
        """Plies since the last capture or pawn move (the n-move rule's count)."""
        return self.halfmove

    @halfmove_clock.setter
    def halfmove_clock(self, value: int) -> None:
        self.halfmove = value

    def piece_at(self, square: int) -> Piece | None:
        """The piece on a square, or None."""
        code = self.mailbox[square]
        if code == EMPTY:
            return None
        kind = self.variant.pieces[code >> 1]
        return Piece(kind.letter, side_color(code & 1), kind)

    def piece_type_at(self, square: int) -> str | None:
        piece = self.piece_at(square)
        return piece.piece_type if piece else None

    def color_at(self, square: int) -> Color | None:
        code = self.mailbox[square]
        return None if code == EMPTY else side_color(code & 1)

    def ply(self) -> int:
        """Plies played since the start of the game (python-chess counts from the FEN's move number)."""
        return 2 * (self.fullmove - 1) + self.side

    def root(self) -> Board:
        """A copy of the position before the first move of move_stack."""
        board = self.copy()
        while board._stack:
            board.pop_int()
        board._nulls = []
        return board

    def __str__(self) -> str:
        """An ASCII diagram, White at the bottom: letters as in FEN, '.' for an empty square."""
        return self._diagram(lambda piece: piece.symbol(), ".")

    def unicode(self, *, invert_color: bool = False, borders: bool = False, empty_square: str = "⭘") -> str:
        """The diagram with chess figurines where a piece has one (letters elsewhere)."""
        text = self._diagram(lambda piece: piece.unicode_symbol(invert_color=invert_color), empty_square)
        if not borders:
            return text
        geo = self.geometry
        rows = text.split("\n")
        width = max(len(r) for r in rows)
        line = "  " + "-" * (width + 2)
        files = "  " + " ".join(geo.square_name(f)[0] for f in range(geo.cols))
        return "\n".join(
            [line, *[f"{geo.rows - i:>2}| {r} |" for i, r in enumerate(rows)], line, "   " + files]
        )

    def _diagram(self, show: Callable[[Piece], str], empty: str) -> str:
        geo = self.geometry
        cells = [[empty] * geo.cols for _ in range(geo.rows)]
        for sq in range(geo.size):
            piece = self.piece_at(sq)
            if piece is not None:
                cells[geo.rows - 1 - geo.rank_of(sq)][geo.file_of(sq)] = show(piece)
        width = max(len(c) for row in cells for c in row)
        return "\n".join(" ".join(c.rjust(width) for c in row) for row in cells)

    # ----- FEN ---------------------------------------------------------------------------------
    def board_fen(self) -> str:
        """The placement part of the FEN."""
        return board_fen(self.variant, self.mailbox)

    def castling_fen(self) -> str:
        if not self.castling:
            return "-"
        out = ""
        for color, (k, q) in ((0, "KQ"), (1, "kq")):
            rights = self.castling & self.compiled.back_rank[color]
            royals = movegen.royal_squares(self, color) & self.compiled.back_rank[color]
            if not rights or not royals:
                continue
            ksq = royals.bit_length() - 1
            if rights >> (ksq + 1):
                out += k
            if rights & ((1 << ksq) - 1):
                out += q
        return out or "-"

    def fen(self) -> str:
        """The position as FEN: placement, side to move, castling, en passant, clocks."""
        ep = self.geometry.square_name(self.ep_square) if self.ep_square >= 0 else "-"
        turn = "w" if self.side == 0 else "b"
        return f"{self.board_fen()} {turn} {self.castling_fen()} {ep} {self.halfmove} {self.fullmove}"

    # ----- moves -----------------------------------------------------------------------------
    def int_to_move(self, m: int) -> Move:
        promo = (m >> PROMO_SHIFT & 63) - 1
        letter = self.variant.pieces[promo].letter if promo >= 0 else None
        return Move(m & SQ_MASK, m >> TO_SHIFT & SQ_MASK, letter, self.geometry)

    def _find(self, move: Move, legal: list[int] | None = None) -> int | None:
        promo = self.variant.kind_of(move.promotion) + 1 if move.promotion else 0
        if move.promotion and not self.variant.has_letter(move.promotion):
            return None
        for m in movegen.generate_legal(self) if legal is None else legal:
            if (
                m & SQ_MASK == move.from_square
                and m >> TO_SHIFT & SQ_MASK == move.to_square
                and m >> PROMO_SHIFT & 63 == promo
            ):
                return m
        return None

    def is_legal(self, move: Move) -> bool:
        """Whether `move` is legal in this position."""
        return self._find(move) is not None

    def parse_uci(self, text: str) -> Move:
        """A legal move from UCI text; InvalidMoveError if malformed, IllegalMoveError if not legal."""
        return self.int_to_move(self.parse_uci_int(text))

    def parse_uci_int(self, text: str, legal: list[int] | None = None) -> int:
        """`parse_uci`, as the generator's int. `legal`, the list `movegen.generate_legal` gives for
        this position, saves generating it again where the caller needs it too (SAN, for one)."""
        move = Move.from_uci(text, self.geometry)
        if move.promotion and not self.variant.has_letter(move.promotion):
            raise IllegalMoveError(text, self.fen(), f"{self.variant.title} has no piece {move.promotion}")
        m = self._find(move, legal)
        if m is None:
            raise IllegalMoveError(text, self.fen())
        return m

    def uci(self, move: Move) -> str:
        """A move in UCI text, with this board's square names."""
        return Move(move.from_square, move.to_square, move.promotion, self.geometry).uci()

    def push_uci(self, text: str) -> Move:
        """Read a UCI move (as `parse_uci`), play it and return it."""
        m = self.parse_uci_int(text)  # legal already: no second look for it, as push would take
        self.push_int(m)
        return self.int_to_move(m)

    def push(self, move: Move) -> None:
        """Play a legal move. Raises IllegalMoveError (the position is unchanged) if it is not legal."""
        m = self._find(move)
        if m is None:
            raise IllegalMoveError(self.uci(move), self.fen())
        self.push_int(m)

    def pop(self) -> Move:
        """Take back the last move and return it."""
        if not self._stack:
            raise IndexError("pop from a board with no moves played")
        return self.int_to_move(self.pop_int())

    def peek(self) -> Move:
        """The last move played (IndexError if none)."""
        if not self._stack:
            raise IndexError("no move has been played")
        return self.int_to_move(self._stack[-1][0])

    @property
    def move_stack(self) -> list[Move]:
        """The moves played since the position was set up, oldest first."""
        return [self.int_to_move(u[0]) for u in self._stack]

    def moves_played(self) -> int:
        """len(move_stack), without building the list of moves."""
        return len(self._stack)

    # The internal, fast interface used by perft, the search and tests: moves as ints.
    def push_int(self, m: int) -> None:
        comp = self.compiled
        zp = comp.z_piece
        frm = m & SQ_MASK
        to = m >> TO_SHIFT & SQ_MASK
        flags = m >> FLAG_SHIFT
        mailbox = self.mailbox
        old_kinds = self.kind_bb
        old_occ = self.occ
        self.kind_bb = kinds = old_kinds[:]
        self.occ = occ = old_occ[:]
        us = self.side
        code = mailbox[frm]
        captured = mailbox[to]
        ep_old = self.ep_square
        castling = self.castling
        halfmove = self.halfmove
        h: i64 = self._hash
        changes: list[tuple[int, int]] | None = [] if flags else None
        self._stack.append(
            (m, old_kinds, old_occ, code, captured, castling, ep_old, halfmove, self.fullmove, changes)
        )
        h ^= comp.z_turn
        if ep_old >= 0:
            h ^= comp.z_ep[ep_old % comp.cols]
            self.ep_square = -1
        if us:
            self.fullmove += 1
        self.side = us ^ 1
        frm_bb = 1 << frm
        to_bb = 1 << to
        kind = code >> 1
        if frm == to:  # a transformation in place
            new = comp.transform_code[code]
            kinds[kind] ^= frm_bb
            kinds[new >> 1] |= frm_bb
            h ^= zp[code][frm] ^ zp[new][frm]
            mailbox[frm] = new
            self.halfmove = halfmove + 1
            self._hash = h
            self._hashes.append(h)
            return
        # lift the moving piece (of either colour: a magnet may pull an enemy piece)
        kinds[kind] ^= frm_bb
        occ[code & 1] ^= frm_bb
        h ^= zp[code][frm]
        mailbox[frm] = EMPTY
        if captured != EMPTY:
            kinds[captured >> 1] ^= to_bb
            occ[captured & 1] ^= to_bb
            h ^= zp[captured][to]
            self.halfmove = 0
        elif kind in comp.reset_kinds[us]:
            self.halfmove = 0
        else:
            self.halfmove = halfmove + 1
        promo = (m >> PROMO_SHIFT & 63) - 1
        placed = promo * 2 + us if promo >= 0 else code
        if changes is not None:
            if flags & FLAG_EP:
                victim_sq = to - comp.forward[us]
                victim = mailbox[victim_sq]
                changes.append((victim_sq, victim))
                kinds[victim >> 1] ^= 1 << victim_sq
                occ[victim & 1] ^= 1 << victim_sq
                h ^= zp[victim][victim_sq]
                mailbox[victim_sq] = EMPTY
                if comp.owner_change[kind]:
                    placed ^= 1
            elif flags & FLAG_CASTLE:
                h = self._castle_rook(h, frm, to, us, changes)
        if captured != EMPTY and comp.owner_change[kind]:
            placed ^= 1  # Andernach: the capturer (after promoting) changes sides
        kinds[placed >> 1] |= to_bb
        occ[placed & 1] |= to_bb
        h ^= zp[placed][to]
        mailbox[to] = placed
        # castling rights: a royal move clears its rank; a move from or to a rook square clears that square
        if castling and (comp.on_back_rank[frm] or comp.on_back_rank[to] or kind in comp.royal_kinds):
            new_rights = castling & ~frm_bb & ~to_bb
            if kind in comp.royal_kinds:
                new_rights &= ~comp.back_rank[us]
            if new_rights != castling:
                diff = castling ^ new_rights
                while diff:
                    low = diff & -diff
                    h ^= comp.z_castle[low.bit_length() - 1]
                    diff ^= low
                self.castling = new_rights
        if flags & FLAG_DOUBLE and self.variant.rules.en_passant:  # a double step without en passant
            ep = (frm + to) // 2  # (`en_passant: false`) leaves no square behind
            if self._ep_capturable(ep, us ^ 1):
                self.ep_square = ep
                h ^= comp.z_ep[ep % comp.cols]
        self._hash = h
        self._hashes.append(h)

    def _castle_rook(self, h: i64, frm: int, to: int, us: int, changes: list[tuple[int, int]]) -> i64:
        """Move the castling rook (the king's squares are handled by push_int); returns the hash."""
        comp = self.compiled
        zp = comp.z_piece
        mailbox = self.mailbox
        kinds = self.kind_bb
        occ = self.occ
        rank_rights = self.castling & comp.back_rank[us]
        if to > frm:
            rook = rank_rights.bit_length() - 1
            rook_to = to - 1
        else:
            rook = (rank_rights & -rank_rights).bit_length() - 1
            rook_to = to + 1
        rcode = mailbox[rook]
        if rook != to:  # the king may land where the rook stood only in odd geometries
            changes.append((rook, rcode))
            mailbox[rook] = EMPTY
        changes.append((rook_to, mailbox[rook_to]))
        kinds[rcode >> 1] ^= 1 << rook
        occ[us] ^= 1 << rook
        kinds[rcode >> 1] |= 1 << rook_to
        occ[us] |= 1 << rook_to
        mailbox[rook_to] = rcode
        return h ^ zp[rcode][rook] ^ zp[rcode][rook_to]

    def pop_int(self) -> int:
        m, kinds, occ, code, captured, castling, ep, halfmove, fullmove, changes = self._stack.pop()
        mailbox = self.mailbox
        if changes:
            for sq, c in reversed(changes):
                mailbox[sq] = c
        mailbox[m >> TO_SHIFT & SQ_MASK] = captured
        mailbox[m & SQ_MASK] = code
        self.kind_bb = kinds
        self.occ = occ
        self.castling = castling
        self.ep_square = ep
        self.halfmove = halfmove
        self.fullmove = fullmove
        self.side ^= 1
        hashes = self._hashes
        hashes.pop()
        self._hash = hashes[-1]  # the last hash is always the position's (not kept in the undo tuple)
        return m

    def push_null(self) -> None:
        """Pass the move (for null-move pruning): the other side moves next, the hash changes as a
        move's would, and the reversible-move count restarts, so repetition detection does not look
        back across the pass. Not part of move_stack; undo with pop_null, before any earlier pop_int."""
        comp = self.compiled
        self._nulls.append((self.ep_square, self.halfmove, self.fullmove, self._hash))
        h: i64 = self._hash ^ comp.z_turn
        if self.ep_square >= 0:
            h ^= comp.z_ep[self.ep_square % comp.cols]
            self.ep_square = -1
        if self.side == 1:
            self.fullmove += 1
        self.side ^= 1
        self.halfmove = 0
        self._hash = h
        self._hashes.append(h)

    def pop_null(self) -> None:
        """Take back the last push_null."""
        self.ep_square, self.halfmove, self.fullmove, self._hash = self._nulls.pop()
        self.side ^= 1
        self._hashes.pop()

    def is_safe_after(self, m: int) -> bool:
        """Make the move and test that no royal piece of the mover can be captured."""
        us = self.side
        self.push_int(m)
        safe = not movegen.in_check(self, us)
        self.pop_int()
        return safe

    # ----- game state --------------------------------------------------------------------------
    def is_check(self) -> bool:
        return movegen.in_check(self, self.side)

    def is_checkmate(self) -> bool:
        return self.is_check() and not movegen.has_legal_move(self)

    def is_stalemate(self) -> bool:
        """No legal move and not in check (what it scores is the document's stalemate rule)."""
        return not self.is_check() and not movegen.has_legal_move(self)

    def is_insufficient_material(self) -> bool:
        return self.side_has_insufficient_material(0) and self.side_has_insufficient_material(1)

    def is_repetition(self, count: int = 3) -> bool:
        """Has the current position occurred `count` times (since the last irreversible move)?"""
        return self.repetitions() >= count

    def variant_outcome(self) -> Outcome | None:
        """The outcome if the game ended by a rule chess does not have: a campmate, a stalemate that
        wins or loses, a repetition that loses. None otherwise (checkmate and chess's draws are not)."""
        out = self.outcome()
        if out is None:
            return None
        rules = self.variant.rules
        if out.termination in (Termination.CAMPMATE, Termination.REPETITION_LOSS):
            return out
        if out.termination is Termination.STALEMATE and rules.stalemate != "draw":
            return out
        return None

    def is_variant_end(self) -> bool:
        return self.variant_outcome() is not None

    def is_variant_win(self) -> bool:
        """Does the side to move win by a variant-specific rule?"""
        out = self.variant_outcome()
        return out is not None and out.winner is self.turn

    def is_variant_loss(self) -> bool:
        """Does the side to move lose by a variant-specific rule?"""
        out = self.variant_outcome()
        return out is not None and out.winner is (not self.turn)

    def is_variant_draw(self) -> bool:
        out = self.variant_outcome()
        return out is not None and out.winner is None

    def status(self) -> Status:
        """What makes this position impossible to play from, as flags (`Status.VALID` if nothing).
        A FEN is checked when it is set; this re-checks what moves cannot break but edits could."""
        status = Status.VALID
        counts = royal_counts(self.variant, self.mailbox)
        start = royal_counts(self.variant, parse_fen(self.variant, self.variant.start_fen).board)
        if any(start[side] and not counts[side] for side in (0, 1)):
            status |= Status.NO_ROYAL
        if movegen.in_check(self, self.side ^ 1):
            status |= Status.OPPOSITE_CHECK
        if self.castling & ~(self.compiled.back_rank[0] | self.compiled.back_rank[1]):
            status |= Status.BAD_CASTLING_RIGHTS
        if self.ep_square >= 0 and not self._ep_capturable(self.ep_square, self.side):
            status |= Status.INVALID_EP_SQUARE
        return status

    def is_valid(self) -> bool:
        return self.status() == Status.VALID

    def checkers(self) -> int:
        """Bitboard of enemy pieces attacking the side to move's royal pieces."""
        out = 0
        occupied = self.occ[0] | self.occ[1]
        royals = movegen.royal_squares(self, self.side)
        for sq in movegen_iter(royals):
            out |= movegen.attackers(self, self.side ^ 1, sq, occupied)
        return out

    def repetitions(self) -> int:
        """How many times the current position has occurred (within the reversible stretch)."""
        hashes = self._hashes
        # Earlier positions with the same side to move: every second hash back to the last
        # irreversible move. A slice and list.count do the scan in C (the search asks at every node).
        i = len(hashes) - 3
        low = max(-1, len(hashes) - 2 - self.halfmove)
        if i <= low:
            return 1
        return 1 + hashes[i : low if low >= 0 else None : -2].count(self._hash)

    def campmate_winner(self) -> Color | None:
        side = self.campmate_side()
        return None if side < 0 else side_color(side)

    def campmate_side(self) -> int:
        """The side (0 = White) whose royal piece stands in its camp, or -1."""
        comp = self.compiled
        if not comp.camp_kinds:
            return -1
        royal_camp = 0
        for k in comp.camp_kinds:
            royal_camp |= self.kind_bb[k]
        for side in (self.side ^ 1, self.side):
            if royal_camp & self.occ[side] & comp.camp_zone[side]:
                return side
        return -1

    def has_insufficient_material(self, color: Color) -> bool:
        """Can `color` never mate, whatever the moves? Chess conventions (as python-chess and
        Fairy-Stockfish): a lone knight against king and queens only, or bishops all on one shade
        with no pawns or knights on the board."""
        if not isinstance(color, bool):
            raise TypeError(f"a colour is WHITE (True) or BLACK (False), not {color!r}")
        return self.side_has_insufficient_material(side_index(color))

    def side_has_insufficient_material(self, color: int) -> bool:
        """has_insufficient_material for a side number (0 = White), as the search asks it."""
        if not self.variant.rules.insufficient_material:
            return False
        pieces = self.variant.pieces
        mailbox = self.mailbox
        ours = [pieces[mailbox[sq] >> 1] for sq in movegen_iter(self.occ[color])]
        others = [p for p in ours if not p.royal]
        if not others:
            return True
        if any(p.betza not in ("N", "B") for p in others):
            return False
        if any(p.betza == "N" for p in others):
            theirs = [pieces[mailbox[sq] >> 1] for sq in movegen_iter(self.occ[color ^ 1])]
            return len(others) == 1 and all(p.royal or p.betza == "Q" for p in theirs)
        geo = self.geometry
        shades = set()
        for sq in movegen_iter(self.occ[0] | self.occ[1]):
            piece = pieces[mailbox[sq] >> 1]
            if piece.pawn or piece.betza == "N":
                return False
            if piece.betza == "B":
                shades.add((geo.file_of(sq) + geo.rank_of(sq)) % 2)
        return len(shades) == 1

    def outcome(self, *, legal: list[int] | None = None) -> Outcome | None:
        """The end of the game by rule, or None. Repetition and the n-move rule end the game at once.
        `legal`: this position's `movegen.generate_legal` list, where the caller has made it already."""
        rules = self.variant.rules
        camp = self.campmate_winner()
        if camp is not None:
            return Outcome(Termination.CAMPMATE, camp)
        us = self.turn
        if not (movegen.generate_legal(self) if legal is None else legal):
            if self.is_check():
                return Outcome(Termination.CHECKMATE, not us)
            return Outcome(Termination.STALEMATE, _stalemate_winner(rules.stalemate, us))
        if self.repetitions() >= rules.repetition_count:
            if rules.repetition_result == "loss":
                return Outcome(Termination.REPETITION_LOSS, us)
            return Outcome(Termination.THREEFOLD_REPETITION, None)
        if rules.n_move_rule and self.halfmove >= 2 * rules.n_move_rule:
            return Outcome(Termination.N_MOVE_RULE, None)
        if self.side_has_insufficient_material(0) and self.side_has_insufficient_material(1):
            return Outcome(Termination.INSUFFICIENT_MATERIAL, None)
        return None

    def is_game_over(self) -> bool:
        """Whether the game has ended by rule (see `outcome`)."""
        return self.outcome() is not None

    def result(self) -> str:
        """The game's result as PGN writes it: "1-0", "0-1", "1/2-1/2", or "*" while it goes on."""
        out = self.outcome()
        return out.result() if out else "*"

    # ----- counting ----------------------------------------------------------------------------
    def perft(self, depth: int) -> int:
        """Leaf count of the legal move tree; the last ply is counted, not played."""
        if depth <= 0:
            return 1
        moves = movegen.generate_legal(self)
        if depth == 1:
            return len(moves)
        total = 0
        for m in moves:  # called by name: compiled, a native call (a bound method is a Python call)
            self.push_int(m)
            total += self.perft(depth - 1)
            self.pop_int()
        return total


def _stalemate_winner(rule: str, side_to_move: Color) -> Color | None:
    if rule == "draw":
        return None
    return (not side_to_move) if rule == "loss" else side_to_move


def movegen_iter(bb: int) -> Iterator[int]:
    while bb:
        low = bb & -bb
        yield low.bit_length() - 1
        bb ^= low
