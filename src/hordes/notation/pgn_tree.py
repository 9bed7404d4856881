"""The PGN game tree, with python-chess's names and meanings (`chess.pgn`), for every variant.

A `Game` is the root node: its `headers` (the Seven Tag Roster first, like python-chess's `Headers`),
the start position (`game.board()`) and the first moves in `variations`. Each move is a `ChildNode`
with its `move`, `parent`, `comment`, `starting_comment` and `nags` (a set of numeric annotation
glyphs). `node.board()` is the position after the node's move, `game.board()` the start position
and `game.end().board()` the position at the end of the main line, as in python-chess.

What differs from python-chess: moves are checked for legality when they are added; the variant
comes from the `Variant` tag (see `resolve_variant`), or is given as `Game(variant=...)`; `errors`
holds at most one PgnError (the reader stops reading a game at its first problem, see pgn_read).
"""

from __future__ import annotations

import enum
import re
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping
from dataclasses import dataclass, field
from typing import Generic, TypeVar, overload

from hordes.core import movegen
from hordes.core.position import Board as RulesBoard
from hordes.core.position import Move
from hordes.core.rules import BLACK, WHITE, Color, Variant
from hordes.errors import HordesError, UnknownVariantError, quoted
from hordes.notation.board import Board
from hordes.notation.san import _to_int, san_int
from hordes.variants import load_variant

__all__ = [
    "NAG_SUFFIXES",
    "SEVEN_TAG_ROSTER",
    "ChildNode",
    "Game",
    "GameNode",
    "Headers",
    "Mainline",
    "PgnError",
    "TimeControl",
    "TimeControlPart",
    "TimeControlType",
    "VariantResolver",
    "initial_fen",
    "parse_time_control",
    "pgn_variant_name",
    "resolve_variant",
]

SEVEN_TAG_ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
STR_DEFAULTS = {
    "Event": "?",
    "Site": "?",
    "Date": "????.??.??",
    "Round": "?",
    "White": "?",
    "Black": "?",
    "Result": "*",
}
NAG_SUFFIXES = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}
# Values of the Variant tag that mean plain chess (lichess writes "From Position" for a set-up board).
_CHESS_NAMES = {"", "standard", "chess", "fromposition"}
# `[%clk 1:02:03]` and `[%emt 0:00:05.2]` commands inside comments (lichess, pychess, python-chess).
_CLOCK = re.compile(r"\[%clk\s+(\d+):(\d+):(\d+(?:\.\d*)?)\]")
_EMT = re.compile(r"\[%emt\s+(\d+):(\d+):(\d+(?:\.\d*)?)\]")


class PgnError(HordesError):
    """A game that could not be read: where (game number, move number, line) and what (the token).

    `game` counts from 1 in the file; `move` is the PGN move number of the offending move (`"12."` for
    White, `"12..."` for Black) or None for a problem in the tags; `token` is the offending text.
    """

    def __init__(
        self, problem: str, *, game: int, move: str | None = None, token: str | None = None, line: int = 0
    ) -> None:
        self.problem = problem
        self.game = game
        self.move = move
        self.token = token
        self.line = line
        where = f"game {game}"
        if move:
            where += f", move {move}"
        if line:
            where += f" (line {line})"
        super().__init__(f"{where}: {problem}")


# ----- the TimeControl tag ----------------------------------------------------------------------------------
class TimeControlType(enum.Enum):
    """How fast a game is (python-chess's classes: by base time plus 60 increments, FIDE's limits)."""

    UNKNOWN = 0
    UNLIMITED = 1
    STANDARD = 2
    RAPID = 3
    BLITZ = 4
    BULLET = 5


@dataclass
class TimeControlPart:
    """One period: `moves` to play in `time` seconds (0 moves: the rest of the game), with an
    `increment` or a `delay` in seconds per move."""

    moves: int = 0
    time: int = 0
    increment: float = 0
    delay: float = 0


@dataclass
class TimeControl:
    parts: list[TimeControlPart] = field(default_factory=list)
    type: TimeControlType = TimeControlType.UNKNOWN


_TC_PART = re.compile(r"(?:(\d+)/)?(\d+)(?:\+(\d+(?:\.\d*)?)([dD])?)?")


def parse_time_control(text: str) -> TimeControl:
    """A TimeControl tag's value (`300+3`, `40/7200:3600`, `-` for no clock, `?` for unknown), read as
    python-chess's `chess.pgn.parse_time_control` reads it; HordesError for a value it cannot read."""
    text = text.strip()
    if not text or text.startswith("?"):
        return TimeControl()
    if text.startswith("-"):
        return TimeControl(type=TimeControlType.UNLIMITED)
    parts = []
    for piece in text.split(":"):
        m = _TC_PART.fullmatch(piece)
        if m is None:
            raise HordesError(
                f"bad TimeControl {quoted(text, 40)}: expected a form such as 300+3 or 40/7200:3600"
            )
        moves, seconds, extra, delay = m.groups()
        part = TimeControlPart(moves=int(moves or 0), time=int(seconds))
        if extra is not None:
            if delay:
                part.delay = float(extra)
            else:
                part.increment = float(extra)
        parts.append(part)
    if any(p.moves == 0 for p in parts[:-1]):
        raise HordesError(
            f"bad TimeControl {quoted(text, 40)}: only the last period can be the rest of the game"
        )
    pace = parts[0].time + 60 * parts[0].increment
    kind = (
        TimeControlType.BULLET
        if pace < 180
        else TimeControlType.BLITZ
        if pace < 900
        else TimeControlType.RAPID
        if pace < 3600
        else TimeControlType.STANDARD
    )
    return TimeControl(parts, kind)


# ----- headers -----------------------------------------------------------------------------------------
class Headers(MutableMapping[str, str]):
    """The tag pairs of a game: the Seven Tag Roster first, in its order, then the others in the order
    they were set (python-chess's `chess.pgn.Headers`). `Headers()` holds the roster's defaults
    (`Event "?"`, ..., `Result "*"`); `Headers({})` is empty."""

    __slots__ = ("_others", "_roster")

    def __init__(
        self, data: Mapping[str, str] | Iterable[tuple[str, str]] | None = None, **kwargs: str
    ) -> None:
        self._roster: dict[str, str] = {}
        self._others: dict[str, str] = {}
        self.update(STR_DEFAULTS if data is None else data, **kwargs)

    def __setitem__(self, key: str, value: str) -> None:
        if key in STR_DEFAULTS:
            self._roster[key] = value
        else:
            self._others[key] = value

    def __getitem__(self, key: str) -> str:
        return self._roster[key] if key in STR_DEFAULTS else self._others[key]

    def __delitem__(self, key: str) -> None:
        if key in STR_DEFAULTS:
            del self._roster[key]
        else:
            del self._others[key]

    def __iter__(self) -> Iterator[str]:
        for key in SEVEN_TAG_ROSTER:
            if key in self._roster:
                yield key
        yield from self._others

    def __len__(self) -> int:
        return len(self._roster) + len(self._others)

    def __contains__(self, key: object) -> bool:
        return key in self._roster or key in self._others

    def copy(self) -> Headers:
        return Headers(self)

    def __repr__(self) -> str:
        return "Headers(" + ", ".join(f"{k}={v!r}" for k, v in self.items()) + ")"


# ----- the main line as a view -------------------------------------------------------------------------
T = TypeVar("T")


class Mainline(Generic[T]):
    """The main line after a node, as python-chess's `Mainline`: iterate it (also `reversed`), test it
    for emptiness, or `str()` it for its SAN. It also has a length, indexes and slices like a list,
    and equals a list or tuple of the same items, so code written for 0.3.0's lists keeps its answers."""

    __slots__ = ("_f", "_start")

    def __init__(self, start: GameNode, f: Callable[[ChildNode], T]) -> None:
        self._start = start
        self._f = f

    def __bool__(self) -> bool:
        return bool(self._start.variations)

    def __iter__(self) -> Iterator[T]:
        node = self._start
        while node.variations:
            node = node.variations[0]
            yield self._f(node)

    def __reversed__(self) -> Iterator[T]:
        return reversed(list(self))

    def __len__(self) -> int:
        count = 0
        node = self._start
        while node.variations:
            node = node.variations[0]
            count += 1
        return count

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> list[T]: ...
    def __getitem__(self, index: int | slice) -> T | list[T]:
        return list(self)[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Mainline | list | tuple):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __str__(self) -> str:
        from hordes.notation.pgn_write import line_text

        return line_text(self._start)

    def __repr__(self) -> str:
        return f"<Mainline ({self})>"


# ----- the nodes ---------------------------------------------------------------------------------------
class GameNode:
    """A position in a game tree: the root (a `Game`) or a move (a `ChildNode`).

    `variations[0]` continues the main line, the others are alternatives. `comment` follows the move,
    `starting_comment` precedes it (only for the first move of a variation), and `nags` are numeric
    annotation glyphs ($1 = !, $2 = ?, ...).
    """

    __slots__ = ("_code", "comment", "move", "nags", "parent", "starting_comment", "variations")

    parent: GameNode | None
    move: Move | None

    def __init__(self, *, comment: str = "") -> None:
        self.parent = None
        self.move = None
        self._code = -1  # the generator's int for the move, when known (saves a legality search)
        self.variations: list[ChildNode] = []
        self.comment = comment
        self.starting_comment = ""
        self.nags: set[int] = set()

    # -- navigation --
    def root(self) -> GameNode:
        node = self
        while node.parent is not None:
            node = node.parent
        return node

    def game(self) -> Game:
        root = self.root()
        if not isinstance(root, Game):
            raise HordesError("this node is not part of a Game")
        return root

    def next(self) -> ChildNode | None:
        """The main continuation, or None at the end of the line."""
        return self.variations[0] if self.variations else None

    def end(self) -> GameNode:
        """The last node of the main line from here (this node if it has no continuation)."""
        node = self
        while node.variations:
            node = node.variations[0]
        return node

    def is_end(self) -> bool:
        return not self.variations

    def mainline(self) -> Mainline[ChildNode]:
        """The nodes of the main line after this one."""
        return Mainline(self, _node)

    def mainline_moves(self) -> Mainline[Move]:
        """The moves of the main line after this one."""
        return Mainline(self, _move)

    def path(self) -> list[ChildNode]:
        """The nodes from the first move down to this one."""
        out: list[ChildNode] = []
        node: GameNode = self
        while isinstance(node, ChildNode):
            out.append(node)
            node = node.parent
        out.reverse()
        return out

    def ply(self) -> int:
        """Half-moves up to this node counted as the position's move number says (python-chess's
        meaning): the number of moves from the root, plus the plies before a set-up start position."""
        return self.game().ply() + len(self.path())

    def turn(self) -> Color:
        """The side to move at this node."""
        return WHITE if self.ply() % 2 == 0 else BLACK

    def is_mainline(self) -> bool:
        node = self
        while node.parent is not None:
            if node.parent.variations[0] is not node:
                return False
            node = node.parent
        return True

    def is_main_variation(self) -> bool:
        """Whether this node is its parent's first continuation (the root is)."""
        return self.parent is None or self.parent.variations[0] is self

    def starts_variation(self) -> bool:
        """Whether this node begins a side variation (and so may have a starting comment)."""
        return self.parent is not None and self.parent.variations[0] is not self

    def __getitem__(self, key: int | Move | GameNode) -> ChildNode:
        if isinstance(key, int):
            return self.variations[key]
        for child in self.variations:
            if child is key or child.move == key:
                return child
        raise KeyError(key)

    def __contains__(self, key: int | Move | GameNode) -> bool:
        try:
            self[key]
        except (KeyError, IndexError):
            return False
        return True

    def variation(self, key: int | Move | GameNode) -> ChildNode:
        """A continuation by index, move or node."""
        return self[key]

    def has_variation(self, key: int | Move | GameNode) -> bool:
        return key in self

    def promote_to_main(self, key: int | Move | GameNode) -> None:
        child = self[key]
        self.variations.remove(child)
        self.variations.insert(0, child)

    def promote(self, key: int | Move | GameNode) -> None:
        i = self.variations.index(self[key])
        if i > 0:
            self.variations[i - 1], self.variations[i] = self.variations[i], self.variations[i - 1]

    def demote(self, key: int | Move | GameNode) -> None:
        i = self.variations.index(self[key])
        if i < len(self.variations) - 1:
            self.variations[i + 1], self.variations[i] = self.variations[i], self.variations[i + 1]

    def remove_variation(self, key: int | Move | GameNode) -> None:
        self.variations.remove(self[key])

    # -- positions --
    def board(self) -> Board:
        """The position at this node (a new Board, replayed from the game's start)."""
        board = self.game().start_board()
        for node in self.path():
            node._push(board)
        return board

    def san(self) -> str:
        """This node's move in SAN (in the position before it)."""
        raise ValueError("the root of a game has no move")

    # -- annotations in comments --
    def clock(self) -> float | None:
        """The `[%clk h:mm:ss]` of this node's comment in seconds (the mover's time left), or None."""
        return _duration(_CLOCK, self.comment)

    def set_clock(self, seconds: float | None) -> None:
        """Replace this node's `[%clk ...]` (or add one); None removes it."""
        self.comment = _set_duration(_CLOCK, "clk", self.comment, seconds)

    def emt(self) -> float | None:
        """The `[%emt h:mm:ss]` of this node's comment in seconds (the time the move took), or None."""
        return _duration(_EMT, self.comment)

    # -- building --
    def add_variation(
        self, move: Move, *, comment: str = "", starting_comment: str = "", nags: Iterable[int] = ()
    ) -> ChildNode:
        """Append a continuation (the main one if it is the first). The move is checked for legality."""
        return ChildNode(self, move, comment=comment, starting_comment=starting_comment, nags=nags)

    def add_main_variation(self, move: Move, *, comment: str = "", nags: Iterable[int] = ()) -> ChildNode:
        """Add a continuation and make it the main one."""
        node = self.add_variation(move, comment=comment, nags=nags)
        self.variations.insert(0, self.variations.pop())
        return node

    def add_line(
        self,
        moves: Iterable[Move],
        *,
        comment: str = "",
        starting_comment: str = "",
        nags: Iterable[int] = (),
    ) -> GameNode:
        """Append moves one after the other from here; the comment and NAGs go to the last one, which
        is returned."""
        node: GameNode = self
        board = self.board()
        for move in moves:
            code = _to_int(board, move, movegen.generate_legal(board))
            child = ChildNode._attach(node, board.int_to_move(code), code)
            child.starting_comment, starting_comment = starting_comment, ""
            board.push_int(code)
            node = child
        if comment:
            node.comment = f"{node.comment} {comment}" if node.comment else comment
        node.nags.update(nags)
        return node

    def __repr__(self) -> str:
        return "<GameNode root>"


class ChildNode(GameNode):
    """A move of a game tree: `move`, the node it follows (`parent`) and what was said about it."""

    __slots__ = ()

    parent: GameNode
    move: Move

    def __init__(
        self,
        parent: GameNode,
        move: Move,
        *,
        comment: str = "",
        starting_comment: str = "",
        nags: Iterable[int] = (),
    ) -> None:
        """A legal move after `parent`, appended to its variations (IllegalMoveError if not legal)."""
        board = parent.board()
        code = _to_int(board, move, movegen.generate_legal(board))
        super().__init__(comment=comment)
        self.parent = parent
        self.move = board.int_to_move(code)
        self._code = code
        self.starting_comment = starting_comment
        self.nags.update(nags)
        parent.variations.append(self)

    @classmethod
    def _attach(cls, parent: GameNode, move: Move, code: int) -> ChildNode:
        """A node for a move already known to be legal (the reader's fast path)."""
        node = cls.__new__(cls)
        GameNode.__init__(node)
        node.parent = parent
        node.move = move
        node._code = code
        parent.variations.append(node)
        return node

    def _push(self, board: RulesBoard) -> None:
        if self._code < 0:
            self._code = _to_int(board, self.move, movegen.generate_legal(board))
        board.push_int(self._code)

    def san(self) -> str:
        board = self.parent.board()
        legal = movegen.generate_legal(board)
        code = self._code if self._code >= 0 else _to_int(board, self.move, legal)
        return san_int(board, code, legal)

    def uci(self) -> str:
        return self.parent.board().uci(self.move)

    def end(self) -> ChildNode:
        node: ChildNode = self
        while node.variations:
            node = node.variations[0]
        return node

    def __repr__(self) -> str:
        return f"<ChildNode {self.move.uci()} ply {self.ply()}>"


def _node(node: ChildNode) -> ChildNode:
    return node


def _move(node: ChildNode) -> Move:
    return node.move


def _duration(pattern: re.Pattern[str], comment: str) -> float | None:
    m = pattern.search(comment)
    if m is None:
        return None
    return int(m.group(1)) * 3600 + int(m.group(2)) * 60 + float(m.group(3))


def _set_duration(pattern: re.Pattern[str], name: str, comment: str, seconds: float | None) -> str:
    text = ""
    if seconds is not None:
        seconds = max(0.0, seconds)
        hours, rest = divmod(seconds, 3600)
        minutes, secs = divmod(rest, 60)
        shown = f"{secs:06.3f}".rstrip("0").rstrip(".")
        text = f"[%{name} {int(hours)}:{int(minutes):02d}:{shown}]"
    new, found = pattern.subn(text, comment, count=1)
    if found:
        return " ".join(new.split()) if not text else new
    if not text:
        return comment
    return f"{comment} {text}" if comment else text


# ----- the game ----------------------------------------------------------------------------------------
class Game(GameNode):
    """A game record: its headers, its start position and the tree of moves.

    `Game()` is a chess game with the Seven Tag Roster's defaults; `Game(headers)` takes the variant
    and the start position from the headers' `Variant` and `FEN` tags; `variant=` and `fen=` set
    them (and the tags). `errors` lists what went wrong reading the game (empty for a good one;
    `error` is its first entry or None). A game whose Variant or FEN tag could not be used has no
    variant: `variant`, `board()` and writing it raise that error.
    """

    __slots__ = ("_variant", "errors", "headers", "number", "start_fen")

    def __init__(
        self,
        headers: Mapping[str, str] | Iterable[tuple[str, str]] | None = None,
        *,
        variant: Variant | str | None = None,
        fen: str | None = None,
    ) -> None:
        super().__init__()
        if isinstance(headers, str | Variant):  # 0.3.0's Game("orda", fen) reads as tags otherwise
            raise TypeError(f"Game() takes the tags first: write Game(variant={headers!r}) for a variant")
        self.headers = Headers(headers)
        self.errors: list[PgnError] = []
        self.number = 0
        if variant is None:
            resolved = resolve_variant(self.headers.get("Variant", ""))
        else:
            resolved = load_variant(variant) if isinstance(variant, str) else variant
            if resolved.slug != "chess" or "Variant" in self.headers:
                self.headers["Variant"] = pgn_variant_name(resolved)
        self._variant: Variant | None = resolved
        if fen is None:
            fen = self.headers.get("FEN")
        # Validated and normalised now (as Board.fen() writes it), not when the game is written.
        self.start_fen = initial_fen(resolved) if fen is None else Board(resolved, fen).fen()
        if self.start_fen != initial_fen(resolved):
            self.headers["FEN"] = self.start_fen
            self.headers["SetUp"] = "1"

    @classmethod
    def without_tag_roster(cls) -> Game:
        """An empty game with no tags at all."""
        return cls({})

    @classmethod
    def from_board(cls, board: RulesBoard, headers: Mapping[str, str] | None = None) -> Game:
        """A game of the moves played on a board, from the position where they began; `headers` are
        added to the roster's defaults, and Result is the board's unless they give one."""
        start = board.copy()
        codes: list[int] = []
        while start._stack:
            codes.append(start.pop_int())
        game = cls(variant=board.variant, fen=start.fen())
        if headers:
            game.headers.update(headers)
        node: GameNode = game
        for code in reversed(codes):
            node = ChildNode._attach(node, start.int_to_move(code), code)
            start.push_int(code)
        if "Result" not in (headers or {}):
            game.headers["Result"] = start.result()
        return game

    def setup(self, board: RulesBoard | str) -> None:
        """Start the game from a position (a Board, or a FEN of the game's variant); sets or removes
        the FEN and SetUp tags. Existing moves are dropped, since they may not fit the new start."""
        variant = board.variant if isinstance(board, RulesBoard) else self.variant
        fen = board.fen() if isinstance(board, RulesBoard) else Board(variant, board).fen()
        self._variant = variant
        self.start_fen = fen
        self.variations.clear()
        if fen == initial_fen(variant):
            self.headers.pop("FEN", None)
            self.headers.pop("SetUp", None)
        else:
            self.headers["FEN"] = fen
            self.headers["SetUp"] = "1"
        if variant.slug != "chess":
            self.headers["Variant"] = pgn_variant_name(variant)
        else:
            self.headers.pop("Variant", None)

    @property
    def error(self) -> PgnError | None:
        """The problem that stopped reading this game, or None."""
        return self.errors[0] if self.errors else None

    @error.setter
    def error(self, value: PgnError | None) -> None:
        self.errors = [] if value is None else [value]

    @property
    def variant(self) -> Variant:
        if self._variant is None:
            raise self.error or HordesError("this game has no variant")
        return self._variant

    @property
    def result(self) -> str:
        return self.headers.get("Result", "*")

    @result.setter
    def result(self, value: str) -> None:
        self.headers["Result"] = value

    def time_control(self) -> TimeControl:
        """The TimeControl tag, parsed (UNKNOWN without one)."""
        return parse_time_control(self.headers.get("TimeControl", ""))

    def start_board(self) -> Board:
        """The start position (the same as `board()` for a Game)."""
        return Board(self.variant, self.start_fen)

    def board(self) -> Board:
        """The start position, as in python-chess; `game.end().board()` is the final one."""
        return self.start_board()

    def ply(self) -> int:
        """The plies before the start position by its move number (0 for a game from the start)."""
        if self._variant is None or self.start_fen == initial_fen(self._variant):
            return 0
        parts = self.start_fen.split()
        fullmove = int(parts[5]) if len(parts) > 5 and parts[5].isdigit() else 1
        black = len(parts) > 1 and parts[1] == "b"
        return 2 * (max(fullmove, 1) - 1) + (1 if black else 0)

    def __str__(self) -> str:
        from hordes.notation.pgn_write import write_game

        return write_game(self)

    def __repr__(self) -> str:
        name = self._variant.slug if self._variant else "?"
        err = f", error={self.error}" if self.error else ""
        players = f"{self.headers.get('White', '?')} - {self.headers.get('Black', '?')}"
        return f"<Game {self.number} {name} {players}, {len(self.mainline_moves())} plies{err}>"


# ----- variants ----------------------------------------------------------------------------------------
# A PGN reader's hook for variants that are not known by name: given a game's tags, its Variant, or
# None to look the Variant tag up as usual. hordes itself never fetches anything a tag points to: an
# application that keeps documents (the web app's store) passes one that finds a `[VariantDocument]`.
VariantResolver = Callable[[Mapping[str, str]], Variant | None]


def resolve_variant(name: str) -> Variant:
    """The variant a PGN Variant tag names (case-insensitive name, slug, alias or title); never a path."""
    key = re.sub(r"[\s\-_'’]", "", name).lower()
    if key in _CHESS_NAMES:
        return load_variant("chess")
    if "/" in name or "\\" in name or name.lower().endswith(".md"):
        raise UnknownVariantError(
            f"unknown variant {quoted(name)}: a PGN Variant tag names a variant, not a file"
        )
    return load_variant(name)


_INITIAL_FEN: weakref.WeakKeyDictionary[Variant, str] = weakref.WeakKeyDictionary()


def initial_fen(variant: Variant) -> str:
    """The variant's start position as Board.fen() writes it (a document may spell it differently)."""
    fen = _INITIAL_FEN.get(variant)
    if fen is None:
        fen = _INITIAL_FEN[variant] = Board(variant).fen()
    return fen


def pgn_variant_name(variant: Variant) -> str:
    """The Variant tag value the writer uses: pychess's spelling, the slug capitalised (`Orda`)."""
    return variant.slug[:1].upper() + variant.slug[1:]
