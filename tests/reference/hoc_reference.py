"""Plain, slow reference move generator for "Hordes of Change".

Written only from the rules text (the numbered rules H1-H20 the variant was specified from, which src/hordes/variants/hordes.md states for players) and used
only by tests, to check the fast generator differentially. Clarity over speed: the board is a plain
list of 64 squares (index = rank * 8 + file, a1 = 0, h8 = 63), no bitboards.

Decisions taken here where the rules text leaves something open (see also the module tests):

* FEN: 6 fields (placement, side, castling "-", en passant "-", halfmove, fullmove); a 4-field FEN is
  accepted too (clocks default to 0 and 1). Castling and en passant fields other than "-" are rejected.
* The halfmove clock has no rule meaning (H16); it is counted plainly: reset to 0 by a capture,
  otherwise +1. The fullmove number goes up after Black's move.
* Repetition (H15): the position given by the FEN counts as the first occurrence. A position is the
  placement (owners and kinds) plus the side to move; the clocks are not part of it.
* ``legal_moves`` depends on the position only; it does not look at ``outcome`` (a position that was
  just repeated for the third time still lists its moves, and ``push`` still accepts them).
* A FEN in which the side NOT to move could already have a royal piece captured is accepted (the rules
  do not call it invalid); such a capture is then simply a legal capture.
"""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

WHITE = "white"
BLACK = "black"

KING = "K"
KNIGHT = "N"
ROOK = "R"
BISHOP = "B"
ROOK_MAGNET = "+R"
BISHOP_MAGNET = "+B"

KINDS = (KING, KNIGHT, ROOK, BISHOP, ROOK_MAGNET, BISHOP_MAGNET)
ROYAL_KINDS = (KING, KNIGHT)

# H6: each kind has exactly one transformation.
TRANSFORM = {
    ROOK: ROOK_MAGNET,
    ROOK_MAGNET: ROOK,
    BISHOP: BISHOP_MAGNET,
    BISHOP_MAGNET: BISHOP,
    KING: KNIGHT,
    KNIGHT: KING,
}

# Directions as (file step, rank step).
ORTHOGONAL: tuple[tuple[int, int], ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))
DIAGONAL: tuple[tuple[int, int], ...] = ((1, 1), (1, -1), (-1, -1), (-1, 1))
ALL_DIRECTIONS = ORTHOGONAL + DIAGONAL
KNIGHT_JUMPS: tuple[tuple[int, int], ...] = (
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
)

FILES = "abcdefgh"
RANKS = "12345678"

START_FEN = "bbrkkrbb/rbbrrbbr/brbrrbrb/8/8/BRBRRBRB/RBBRRBBR/BBRKKRBB w - - 0 1"


class Piece(NamedTuple):
    color: str  # WHITE or BLACK
    kind: str  # one of KINDS


Board = list[Piece | None]


def other(color: str) -> str:
    return BLACK if color == WHITE else WHITE


def square_name(sq: int) -> str:
    return FILES[sq % 8] + RANKS[sq // 8]


def parse_square(name: str) -> int:
    if len(name) != 2 or name[0] not in FILES or name[1] not in RANKS:
        raise ValueError(f"bad square name {name!r}")
    return RANKS.index(name[1]) * 8 + FILES.index(name[0])


def step(sq: int, direction: tuple[int, int]) -> int | None:
    """The square one step from ``sq`` in ``direction``, or None if that leaves the board."""
    file = sq % 8 + direction[0]
    rank = sq // 8 + direction[1]
    if 0 <= file < 8 and 0 <= rank < 8:
        return rank * 8 + file
    return None


def piece_letter(piece: Piece) -> str:
    text = piece.kind
    return text if piece.color == WHITE else text.lower()


# ---------------------------------------------------------------------------------------------------
# Rules helpers, each working on a plain board.
# ---------------------------------------------------------------------------------------------------


def is_restricted(board: Board, sq: int, direction: tuple[int, int]) -> bool:
    """H9: may the Rook or Bishop on ``sq`` NOT move (or capture) in ``direction``?

    Only enemy magnets restrict, only Rooks and Bishops are restricted. A Rook Magnet restricts when it
    is orthogonally adjacent, a Bishop Magnet when it is diagonally adjacent. The closed directions are
    those "leading away" from the magnet: with ``offset`` the step from the piece to the magnet, a
    direction is closed when it points away, i.e. when dot(direction, offset) < 0. This gives exactly
    the four cases of H9: the one straight-away direction for a same-shaped magnet (Rook/Rook Magnet,
    Bishop/Bishop Magnet) and the two away directions for the other shape. Restrictions add up.
    """
    piece = board[sq]
    if piece is None or piece.kind not in (ROOK, BISHOP):
        return False
    for offset in ALL_DIRECTIONS:
        neighbour = step(sq, offset)
        if neighbour is None:
            continue
        magnet = board[neighbour]
        if magnet is None or magnet.color == piece.color:
            continue
        orthogonal_offset = offset in ORTHOGONAL
        restricts = (magnet.kind == ROOK_MAGNET and orthogonal_offset) or (
            magnet.kind == BISHOP_MAGNET and not orthogonal_offset
        )
        leads_away = direction[0] * offset[0] + direction[1] * offset[1] < 0
        if restricts and leads_away:
            return True
    return False


def is_attacked_by(board: Board, target: int, attacker: str) -> bool:
    """Could a piece of ``attacker`` capture on ``target`` (pseudo-legally, H12)?

    Capturers: Kings, Knights, and Rooks/Bishops along a direction that is not restricted (H9) by a
    magnet of the other side. Magnets never capture and pulls never capture.
    """
    for direction in ALL_DIRECTIONS:
        sq = step(target, direction)
        if sq is not None:
            piece = board[sq]
            if piece is not None and piece.color == attacker and piece.kind == KING:
                return True
    for jump in KNIGHT_JUMPS:
        sq = step(target, jump)
        if sq is not None:
            piece = board[sq]
            if piece is not None and piece.color == attacker and piece.kind == KNIGHT:
                return True
    for direction in ALL_DIRECTIONS:
        slider_kind = ROOK if direction in ORTHOGONAL else BISHOP
        sq = step(target, direction)
        while sq is not None and board[sq] is None:
            sq = step(sq, direction)
        if sq is None:
            continue
        piece = board[sq]
        assert piece is not None
        if piece.color == attacker and piece.kind == slider_kind:
            move_direction = (-direction[0], -direction[1])
            if not is_restricted(board, sq, move_direction):
                return True
    return False


def royal_in_danger(board: Board, color: str) -> bool:
    """H12: could the opponent capture any royal piece (King or Knight) of ``color``?"""
    for sq in range(64):
        piece = board[sq]
        is_royal = piece is not None and piece.color == color and piece.kind in ROYAL_KINDS
        if is_royal and is_attacked_by(board, sq, other(color)):
            return True
    return False


def pseudo_legal_moves(board: Board, color: str) -> list[tuple[str, Board, bool]]:
    """All moves of ``color`` before the H12 royal-safety test: (uci, board after, is_capture).

    The same uci may appear twice (a pull and an ordinary move with the same from/to, H19).
    """
    moves: list[tuple[str, Board, bool]] = []

    def add(uci: str, new_board: Board, capture: bool) -> None:
        moves.append((uci, new_board, capture))

    for sq in range(64):
        piece = board[sq]
        if piece is None or piece.color != color:
            continue
        name = square_name(sq)

        # H6: transformation, the piece stays on its square.
        new_board = board.copy()
        new_board[sq] = Piece(color, TRANSFORM[piece.kind])
        add(name + name, new_board, False)

        if piece.kind in (KING, KNIGHT):
            # H10 / H11: chess king and knight moves; capturing does not change the owner.
            offsets = ALL_DIRECTIONS if piece.kind == KING else KNIGHT_JUMPS
            for offset in offsets:
                to = step(sq, offset)
                if to is None:
                    continue
                target = board[to]
                if target is not None and target.color == color:
                    continue
                new_board = board.copy()
                new_board[sq] = None
                new_board[to] = piece
                add(name + square_name(to), new_board, target is not None)

        elif piece.kind in (ROOK, BISHOP):
            # H4: slide as in chess; H9: restricted directions are closed, captures included;
            # H5: a capturing Rook/Bishop becomes the opponent's piece of the same kind.
            directions = ORTHOGONAL if piece.kind == ROOK else DIAGONAL
            for direction in directions:
                if is_restricted(board, sq, direction):
                    continue
                to = step(sq, direction)
                while to is not None:
                    target = board[to]
                    if target is None:
                        new_board = board.copy()
                        new_board[sq] = None
                        new_board[to] = piece
                        add(name + square_name(to), new_board, False)
                    else:
                        if target.color != color:
                            new_board = board.copy()
                            new_board[sq] = None
                            new_board[to] = Piece(other(color), piece.kind)
                            add(name + square_name(to), new_board, True)
                        break
                    to = step(to, direction)

        else:
            # H7 / H8: a magnet never moves or captures; it pulls the first piece it sees along each of
            # its lines onto the square next to it. A piece already next to it cannot be pulled.
            directions = ORTHOGONAL if piece.kind == ROOK_MAGNET else DIAGONAL
            for direction in directions:
                adjacent = step(sq, direction)
                if adjacent is None or board[adjacent] is not None:
                    continue
                seen = step(adjacent, direction)
                while seen is not None and board[seen] is None:
                    seen = step(seen, direction)
                if seen is None:
                    continue
                new_board = board.copy()
                new_board[adjacent] = board[seen]
                new_board[seen] = None
                add(square_name(seen) + square_name(adjacent), new_board, False)
    return moves


def legal_move_boards(board: Board, color: str) -> dict[str, tuple[Board, bool]]:
    """Legal moves of ``color`` (H12 applied), uci -> (board after, is_capture)."""
    result: dict[str, tuple[Board, bool]] = {}
    for uci, new_board, capture in pseudo_legal_moves(board, color):
        if uci in result:
            # H19 claims that a pull and an ordinary move with the same squares give the same position.
            if result[uci][0] != new_board:
                raise AssertionError(f"two different moves share the uci {uci}")
            continue
        if royal_in_danger(new_board, color):
            continue
        result[uci] = (new_board, capture)
    return result


# ---------------------------------------------------------------------------------------------------
# FEN
# ---------------------------------------------------------------------------------------------------


def parse_placement(text: str) -> Board:
    rows = text.split("/")
    if len(rows) != 8:
        raise ValueError(f"FEN placement must have 8 ranks, got {len(rows)}: {text!r}")
    board: Board = [None] * 64
    for row_index, row in enumerate(rows):
        rank = 7 - row_index
        file = 0
        i = 0
        while i < len(row):
            char = row[i]
            if char.isdigit():
                if char in "09":
                    raise ValueError(f"bad empty-square count {char!r} in FEN rank {row!r}")
                file += int(char)
                i += 1
                continue
            if char == "+":
                if i + 1 >= len(row) or row[i + 1] not in "RBrb":
                    raise ValueError(f"'+' must be followed by R, B, r or b (a magnet) in FEN rank {row!r}")
                letter = row[i + 1]
                kind = "+" + letter.upper()
                i += 2
            else:
                if char not in "KNRBknrb":
                    raise ValueError(f"bad piece letter {char!r} in FEN rank {row!r}")
                letter = char
                kind = char.upper()
                i += 1
            if file >= 8:
                raise ValueError(f"FEN rank {row!r} has more than 8 squares")
            board[rank * 8 + file] = Piece(WHITE if letter.isupper() else BLACK, kind)
            file += 1
        if file != 8:
            raise ValueError(f"FEN rank {row!r} has {file} squares, expected 8")
    return board


def placement_text(board: Board) -> str:
    rows: list[str] = []
    for rank in range(7, -1, -1):
        row = ""
        empty = 0
        for file in range(8):
            piece = board[rank * 8 + file]
            if piece is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += piece_letter(piece)
        if empty:
            row += str(empty)
        rows.append(row)
    return "/".join(rows)


def position_key(board: Board, turn: str) -> tuple[tuple[Piece | None, ...], str]:
    """H15: a position is the placement (owners and kinds) plus the side to move."""
    return (tuple(board), turn)


# ---------------------------------------------------------------------------------------------------
# The position object.
# ---------------------------------------------------------------------------------------------------


class _Undo(NamedTuple):
    board: Board
    turn: str
    halfmove: int
    fullmove: int


class RefPosition:
    """A Hordes of Change position with move history (for repetition and ``pop``)."""

    def __init__(self, board: Board, turn: str, halfmove: int = 0, fullmove: int = 1) -> None:
        self.board: Board = board
        self.turn: str = turn
        self.halfmove: int = halfmove
        self.fullmove: int = fullmove
        self._undo: list[_Undo] = []
        self._keys: list[tuple[tuple[Piece | None, ...], str]] = [position_key(board, turn)]
        self._cache_key: tuple[tuple[Piece | None, ...], str] | None = None
        self._cache: dict[str, tuple[Board, bool]] = {}

    # -- FEN ------------------------------------------------------------------------------------

    @classmethod
    def from_fen(cls, fen: str) -> RefPosition:
        fields = fen.split()
        if len(fields) not in (4, 6):
            raise ValueError(f"FEN must have 6 fields (or 4, without clocks), got {len(fields)}: {fen!r}")
        board = parse_placement(fields[0])
        if fields[1] == "w":
            turn = WHITE
        elif fields[1] == "b":
            turn = BLACK
        else:
            raise ValueError(f"FEN side to move must be 'w' or 'b', got {fields[1]!r}")
        if fields[2] != "-":
            raise ValueError(
                f"Hordes of Change has no castling: the FEN castling field must be '-', got {fields[2]!r}"
            )
        if fields[3] != "-":
            raise ValueError(
                f"Hordes of Change has no en passant: the FEN field must be '-' (H18), got {fields[3]!r}"
            )
        halfmove, fullmove = 0, 1
        if len(fields) == 6:
            try:
                halfmove = int(fields[4])
                fullmove = int(fields[5])
            except ValueError:
                raise ValueError(f"FEN clocks must be integers: {fen!r}") from None
            if halfmove < 0 or fullmove < 1:
                raise ValueError(f"FEN clocks out of range (halfmove >= 0, fullmove >= 1): {fen!r}")
        for color in (WHITE, BLACK):
            if not any(p is not None and p.color == color and p.kind in ROYAL_KINDS for p in board):
                raise ValueError(
                    f"invalid position (H17): {color} has no royal piece (King or Knight): {fen!r}"
                )
        return cls(board, turn, halfmove, fullmove)

    def fen(self) -> str:
        side = "w" if self.turn == WHITE else "b"
        return f"{placement_text(self.board)} {side} - - {self.halfmove} {self.fullmove}"

    # -- moves ----------------------------------------------------------------------------------

    def _legal(self) -> dict[str, tuple[Board, bool]]:
        key = position_key(self.board, self.turn)
        if key != self._cache_key:
            self._cache = legal_move_boards(self.board, self.turn)
            self._cache_key = key
        return self._cache

    def legal_moves(self) -> set[str]:
        return set(self._legal())

    def is_check(self) -> bool:
        return royal_in_danger(self.board, self.turn)

    def push(self, uci: str) -> None:
        legal = self._legal()
        if uci not in legal:
            raise ValueError(f"illegal move {uci!r} in position {self.fen()}")
        new_board, capture = legal[uci]
        self._undo.append(_Undo(self.board, self.turn, self.halfmove, self.fullmove))
        self.board = new_board.copy()
        self.halfmove = 0 if capture else self.halfmove + 1
        if self.turn == BLACK:
            self.fullmove += 1
        self.turn = other(self.turn)
        self._keys.append(position_key(self.board, self.turn))

    def pop(self) -> None:
        if not self._undo:
            raise IndexError("pop from a position without move history")
        undo = self._undo.pop()
        self._keys.pop()
        self.board = undo.board
        self.turn = undo.turn
        self.halfmove = undo.halfmove
        self.fullmove = undo.fullmove

    # -- end of game ----------------------------------------------------------------------------

    def outcome(self) -> tuple[str, str] | None:
        """(winner, reason) or None. H15 repetition is checked first, then H14 (no legal move)."""
        seen: Counter[tuple[tuple[Piece | None, ...], str]] = Counter()
        for ply, key in enumerate(self._keys):
            seen[key] += 1
            if seen[key] == 3 and ply > 0:
                # The move that led to history entry ``ply`` was made by the side NOT to move there.
                mover = other(key[1])
                return (other(mover), "repetition")
        if not self._legal():
            return (other(self.turn), "no_legal_moves")
        return None


def perft(pos: RefPosition, depth: int) -> int:
    if depth == 0:
        return 1
    moves = sorted(pos.legal_moves())
    if depth == 1:
        return len(moves)
    total = 0
    for uci in moves:
        pos.push(uci)
        total += perft(pos, depth - 1)
        pos.pop()
    return total
