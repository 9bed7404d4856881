"""The Board: a position of any variant, with push/pop, FEN, Zobrist hash and game outcome."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum

from hordes.core import movegen
from hordes.core.compiled import Compiled, compiled
from hordes.core.fen import EMPTY, Setup, board_fen, parse_fen
from hordes.core.geometry import Geometry, geometry
from hordes.core.movegen import FLAG_CASTLE, FLAG_DOUBLE, FLAG_EP, FLAG_SHIFT, PROMO_SHIFT, SQ_MASK, TO_SHIFT
from hordes.core.rules import Color, Variant
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

    def uci(self) -> str:
        geo = self.geometry or _DEFAULT_GEOMETRY
        text = geo.square_name(self.from_square) + geo.square_name(self.to_square)
        return text + self.promotion.lower().lstrip("+") if self.promotion else text

    def __str__(self) -> str:
        return self.uci()

    def __repr__(self) -> str:
        return f"Move.from_uci({self.uci()!r})"

    @classmethod
    def from_uci(cls, text: str, geometry: Geometry | None = None) -> Move:
        geo = geometry or _DEFAULT_GEOMETRY
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


class Termination(Enum):
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
    termination: Termination
    winner: Color | None

    def result(self) -> str:
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner == Color.WHITE else "0-1"


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
# castling, ep, clocks, hash, and further mailbox changes (castling, en passant) or None.
_Undo = tuple[int, list[int], list[int], int, int, int, int, int, int, int, list[tuple[int, int]] | None]


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
        setup = parse_fen(self.variant, fen)
        self._load(setup)
        if movegen.in_check(self, self.turn ^ 1):
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
        self.turn: int = setup.turn
        self.castling: int = setup.castling
        self.ep_square: int = -1
        self.halfmove: int = setup.halfmove
        self.fullmove: int = setup.fullmove
        if setup.turn:
            h ^= comp.z_turn
        for sq in movegen_iter(setup.castling):
            h ^= comp.z_castle[sq]
        self._hash = h
        if setup.ep_square >= 0 and self._ep_capturable(setup.ep_square, setup.turn):
            self.ep_square = setup.ep_square
            self._hash ^= comp.z_ep[setup.ep_square % comp.cols]
        self._stack: list[_Undo] = []
        self._hashes: list[int] = [self._hash]
        self._nulls: list[tuple[int, int, int, int]] = []

    def _ep_capturable(self, ep: int, by: int) -> bool:
        """Could a pawn of `by` capture onto ep (pseudo-legally)? Only then is an ep square recorded."""
        comp = self.compiled
        occupied = self.occ[0] | self.occ[1]
        for k in comp.pawn_kinds:
            bb = self.kind_bb[k] & self.occ[by]
            g = comp.gens[by][k]
            while bb:
                low = bb & -bb
                bb ^= low
                if g.capture.attacks(low.bit_length() - 1, occupied) >> ep & 1:
                    return True
        return False

    @property
    def legal_moves(self) -> LegalMoves:
        return LegalMoves(self)

    def copy(self, *, stack: bool = True) -> Board:
        new = Board.__new__(Board)
        new.variant = self.variant
        new.compiled = self.compiled
        new.geometry = self.geometry
        new.mailbox = list(self.mailbox)
        new.kind_bb = list(self.kind_bb)
        new.occ = list(self.occ)
        new.turn = self.turn
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
        return self._hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and other.variant is self.variant and other.fen() == self.fen()

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"Board({self.variant.slug!r}, fen={self.fen()!r})"

    @property
    def side_to_move(self) -> Color:
        return Color(self.turn)

    def piece_at(self, square: int) -> tuple[str, Color] | None:
        """(piece letter, colour) on a square, or None."""
        code = self.mailbox[square]
        if code == EMPTY:
            return None
        return self.variant.pieces[code >> 1].letter, Color(code & 1)

    # ----- FEN ---------------------------------------------------------------------------------
    def board_fen(self) -> str:
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
        ep = self.geometry.square_name(self.ep_square) if self.ep_square >= 0 else "-"
        turn = "w" if self.turn == 0 else "b"
        return f"{self.board_fen()} {turn} {self.castling_fen()} {ep} {self.halfmove} {self.fullmove}"

    # ----- moves -----------------------------------------------------------------------------
    def int_to_move(self, m: int) -> Move:
        promo = (m >> PROMO_SHIFT & 63) - 1
        letter = self.variant.pieces[promo].letter if promo >= 0 else None
        return Move(m & SQ_MASK, m >> TO_SHIFT & SQ_MASK, letter, self.geometry)

    def _find(self, move: Move) -> int | None:
        promo = self.variant.kind_of(move.promotion) + 1 if move.promotion else 0
        if move.promotion and not self.variant.has_letter(move.promotion):
            return None
        for m in movegen.generate_legal(self):
            if (
                m & SQ_MASK == move.from_square
                and m >> TO_SHIFT & SQ_MASK == move.to_square
                and m >> PROMO_SHIFT & 63 == promo
            ):
                return m
        return None

    def is_legal(self, move: Move) -> bool:
        return self._find(move) is not None

    def parse_uci(self, text: str) -> Move:
        """A legal move from UCI text; InvalidMoveError if malformed, IllegalMoveError if not legal."""
        move = Move.from_uci(text, self.geometry)
        if move.promotion and not self.variant.has_letter(move.promotion):
            raise IllegalMoveError(text, self.fen(), f"{self.variant.title} has no piece {move.promotion}")
        m = self._find(move)
        if m is None:
            raise IllegalMoveError(text, self.fen())
        return self.int_to_move(m)

    def uci(self, move: Move) -> str:
        return Move(move.from_square, move.to_square, move.promotion, self.geometry).uci()

    def push_uci(self, text: str) -> Move:
        move = self.parse_uci(text)
        self.push(move)
        return move

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
        if not self._stack:
            raise IndexError("no move has been played")
        return self.int_to_move(self._stack[-1][0])

    @property
    def move_stack(self) -> list[Move]:
        """The moves played since the position was set up, oldest first."""
        return [self.int_to_move(u[0]) for u in self._stack]

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
        us = self.turn
        code = mailbox[frm]
        captured = mailbox[to]
        ep_old = self.ep_square
        castling = self.castling
        halfmove = self.halfmove
        h = self._hash
        changes: list[tuple[int, int]] | None = [] if flags else None
        self._stack.append(
            (m, old_kinds, old_occ, code, captured, castling, ep_old, halfmove, self.fullmove, h, changes)
        )
        h ^= comp.z_turn
        if ep_old >= 0:
            h ^= comp.z_ep[ep_old % comp.cols]
            self.ep_square = -1
        if us:
            self.fullmove += 1
        self.turn = us ^ 1
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
        if castling:
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

    def _castle_rook(self, h: int, frm: int, to: int, us: int, changes: list[tuple[int, int]]) -> int:
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
        m, kinds, occ, code, captured, castling, ep, halfmove, fullmove, h, changes = self._stack.pop()
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
        self._hash = h
        self.turn ^= 1
        self._hashes.pop()
        return m

    def push_null(self) -> None:
        """Pass the move (for null-move pruning): the other side moves next, the hash changes as a
        move's would, and the reversible-move count restarts, so repetition detection does not look
        back across the pass. Not part of move_stack; undo with pop_null, before any earlier pop_int."""
        comp = self.compiled
        self._nulls.append((self.ep_square, self.halfmove, self.fullmove, self._hash))
        h = self._hash ^ comp.z_turn
        if self.ep_square >= 0:
            h ^= comp.z_ep[self.ep_square % comp.cols]
            self.ep_square = -1
        if self.turn == 1:
            self.fullmove += 1
        self.turn ^= 1
        self.halfmove = 0
        self._hash = h
        self._hashes.append(h)

    def pop_null(self) -> None:
        """Take back the last push_null."""
        self.ep_square, self.halfmove, self.fullmove, self._hash = self._nulls.pop()
        self.turn ^= 1
        self._hashes.pop()

    def is_safe_after(self, m: int) -> bool:
        """Make the move and test that no royal piece of the mover can be captured."""
        us = self.turn
        self.push_int(m)
        safe = not movegen.in_check(self, us)
        self.pop_int()
        return safe

    # ----- game state --------------------------------------------------------------------------
    def is_check(self) -> bool:
        return movegen.in_check(self, self.turn)

    def checkers(self) -> int:
        """Bitboard of enemy pieces attacking the side to move's royal pieces."""
        out = 0
        occupied = self.occ[0] | self.occ[1]
        royals = movegen.royal_squares(self, self.turn)
        for sq in movegen_iter(royals):
            out |= movegen.attackers(self, self.turn ^ 1, sq, occupied)
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
        comp = self.compiled
        if not comp.camp_kinds:
            return None
        royal_camp = 0
        for k in comp.camp_kinds:
            royal_camp |= self.kind_bb[k]
        for color in (self.turn ^ 1, self.turn):
            if royal_camp & self.occ[color] & comp.camp_zone[color]:
                return Color(color)
        return None

    def has_insufficient_material(self, color: Color | int) -> bool:
        """Can `color` never mate, whatever the moves? Chess conventions (as python-chess and
        Fairy-Stockfish): a lone knight against king and queens only, or bishops all on one shade
        with no pawns or knights on the board."""
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

    def outcome(self) -> Outcome | None:
        """The end of the game by rule, or None. Repetition and the n-move rule end the game at once."""
        rules = self.variant.rules
        camp = self.campmate_winner()
        if camp is not None:
            return Outcome(Termination.CAMPMATE, camp)
        them = Color(self.turn ^ 1)
        if not movegen.generate_legal(self):
            if self.is_check():
                return Outcome(Termination.CHECKMATE, them)
            return Outcome(Termination.STALEMATE, _stalemate_winner(rules.stalemate, Color(self.turn)))
        if self.repetitions() >= rules.repetition_count:
            if rules.repetition_result == "loss":
                return Outcome(Termination.REPETITION_LOSS, Color(self.turn))
            return Outcome(Termination.THREEFOLD_REPETITION, None)
        if rules.n_move_rule and self.halfmove >= 2 * rules.n_move_rule:
            return Outcome(Termination.N_MOVE_RULE, None)
        if self.has_insufficient_material(0) and self.has_insufficient_material(1):
            return Outcome(Termination.INSUFFICIENT_MATERIAL, None)
        return None

    def is_game_over(self) -> bool:
        return self.outcome() is not None

    def result(self) -> str:
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
        push = self.push_int
        pop = self.pop_int
        for m in moves:
            push(m)
            total += self.perft(depth - 1)
            pop()
        return total


def _stalemate_winner(rule: str, side_to_move: Color) -> Color | None:
    if rule == "draw":
        return None
    return side_to_move.other if rule == "loss" else side_to_move


def movegen_iter(bb: int) -> Iterator[int]:
    while bb:
        low = bb & -bb
        yield low.bit_length() - 1
        bb ^= low
