"""PGN game records for every variant: reading (forgiving, never stopping at a broken game) and writing.

A file is read as a stream of games. A game that cannot be read completely is still yielded, with
`game.error` set to a PgnError naming the game number, the move number, the line and the offending
token, and with whatever came before the problem (its tags and the moves that were legal); reading
then goes on with the next game. That is what a tool validating or importing thousands of games
needs: one bad record must neither stop the import nor pass silently.

Variants. `[Variant "..."]` names the variant; names and aliases resolve case-insensitively (`Orda`,
`orda`, `Orda Chess`), and a missing tag means chess (as does lichess's `From Position`). Only names are
resolved, never file paths: a record must not make the reader open files. Games are written with the
name pychess uses, the variant's slug capitalised (`Orda`, `Khans`), so pychess and Fairy-Stockfish
based tools read our files, and chess games carry no Variant tag. A game that does not start from the
variant's initial position gets `FEN` and `SetUp "1"`.

Normalisation. Comments are stored with their runs of white space collapsed to single spaces, which
lets the writer wrap long comments at 80 columns and still read back the same text. Move-suffix
annotations (`!`, `?`, `!!`, `??`, `!?`, `?!`) become NAGs 1-6, written back as `$1`...`$6`.
"""

from __future__ import annotations

import bisect
import io
import os
import re
from collections.abc import Iterable, Iterator
from typing import TextIO

from hordes.core import movegen
from hordes.core.position import Board, Move
from hordes.core.rules import Variant
from hordes.errors import HordesError, UnknownVariantError, UnreadableFileError, quoted
from hordes.notation.san import _to_int, push_san_int, san_int
from hordes.textfiles import read_text_file
from hordes.variants import load_variant

__all__ = [
    "NAG_SUFFIXES",
    "SEVEN_TAG_ROSTER",
    "Game",
    "GameNode",
    "PgnError",
    "initial_fen",
    "parse_game",
    "pgn_variant_name",
    "read_game",
    "read_games",
    "resolve_variant",
    "write_game",
]

SEVEN_TAG_ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
_STR_DEFAULTS = {
    "Event": "?",
    "Site": "?",
    "Date": "????.??.??",
    "Round": "?",
    "White": "?",
    "Black": "?",
    "Result": "*",
}
NAG_SUFFIXES = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}
MAX_NAG = 255  # the PGN standard's range of numeric annotation glyphs, $0 to $255
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
# Values of the Variant tag that mean plain chess (lichess writes "From Position" for a set-up board).
_CHESS_NAMES = {"", "standard", "chess", "fromposition"}
_MISSING_RESULT = "missing result (1-0, 0-1, 1/2-1/2 or *)"
_TAG_NAME = re.compile(r"[A-Za-z0-9_]+")


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


# ----- the game tree ---------------------------------------------------------------------------------
class GameNode:
    """A move in a game tree with what was said about it. `variations[0]` continues the main line.

    `comment` follows the move, `starting_comment` precedes it (only kept for the first move of a
    variation) and `nags` are numeric annotation glyphs ($1 = !, $2 = ?, ...).
    """

    __slots__ = ("_code", "comment", "move", "nags", "parent", "starting_comment", "variations")

    def __init__(self, parent: GameNode | None = None, move: Move | None = None, code: int = -1) -> None:
        self.parent = parent
        self.move = move
        self._code = code  # the generator's int for the move, when known (saves a legality search)
        self.variations: list[GameNode] = []
        self.comment = ""
        self.starting_comment = ""
        self.nags: list[int] = []

    # -- navigation --
    def game(self) -> Game:
        node = self
        while node.parent is not None:
            node = node.parent
        assert isinstance(node, Game)
        return node

    def next(self) -> GameNode | None:
        """The main continuation, or None at the end of the line."""
        return self.variations[0] if self.variations else None

    def end(self) -> GameNode:
        """The last node of the main line from here."""
        node = self
        while node.variations:
            node = node.variations[0]
        return node

    def mainline(self) -> Iterator[GameNode]:
        """The nodes of the main line after this one."""
        node = self
        while node.variations:
            node = node.variations[0]
            yield node

    def mainline_moves(self) -> list[Move]:
        return [n.move for n in self.mainline() if n.move is not None]

    def path(self) -> list[GameNode]:
        """The nodes from the first move down to this one."""
        out: list[GameNode] = []
        node: GameNode | None = self
        while node is not None and node.parent is not None:
            out.append(node)
            node = node.parent
        out.reverse()
        return out

    def ply(self) -> int:
        return len(self.path())

    def is_mainline(self) -> bool:
        node = self
        while node.parent is not None:
            if node.parent.variations[0] is not node:
                return False
            node = node.parent
        return True

    # -- positions --
    def board(self) -> Board:
        """The position after this node's move (a new Board, replayed from the game's start)."""
        return self._position()

    def _position(self) -> Board:
        """The position after this node's move; for the game itself, its start (unlike Game.board)."""
        board = self.game().start_board()
        for node in self.path():
            node._push(board)
        return board

    def _push(self, board: Board) -> None:
        if self._code < 0:
            assert self.move is not None
            self._code = _to_int(board, self.move, movegen.generate_legal(board))
        board.push_int(self._code)

    def san(self) -> str:
        """This node's move in SAN (in the position before it)."""
        if self.parent is None or self.move is None:
            raise ValueError("the root of a game has no move")
        board = self.parent._position()
        legal = movegen.generate_legal(board)
        code = self._code if self._code >= 0 else _to_int(board, self.move, legal)
        return san_int(board, code, legal)

    # -- building --
    def add_variation(
        self, move: Move, *, comment: str = "", starting_comment: str = "", nags: Iterable[int] = ()
    ) -> GameNode:
        """Append a continuation (the main one if it is the first). The move is checked for legality."""
        board = self._position()
        code = _to_int(board, move, movegen.generate_legal(board))
        node = GameNode(self, board.int_to_move(code), code)
        node.comment = comment
        node.starting_comment = starting_comment
        node.nags = list(nags)
        self.variations.append(node)
        return node

    def add_main_variation(self, move: Move, *, comment: str = "") -> GameNode:
        """Add a continuation and make it the main one."""
        node = self.add_variation(move, comment=comment)
        self.variations.insert(0, self.variations.pop())
        return node

    def add_line(self, moves: Iterable[Move]) -> GameNode:
        """Append moves one after the other from here; returns the last node."""
        node: GameNode = self
        board = self._position()
        for move in moves:
            code = _to_int(board, move, movegen.generate_legal(board))
            child = GameNode(node, board.int_to_move(code), code)
            node.variations.append(child)
            board.push_int(code)
            node = child
        return node

    def __repr__(self) -> str:
        return f"<GameNode {self.move.uci() if self.move else 'root'} ply {self.ply()}>"


class Game(GameNode):
    """A game record: ordered tags, the start position and a tree of moves.

    `board()` is the position at the end of the main line (what a reader of a record wants most);
    `start_board()` is where the game began. `error` is set on a game that could not be read whole;
    if the problem was in the tags (unknown variant, bad FEN) the game has no variant, and `variant`,
    `board()` and writing raise that error.
    """

    __slots__ = ("_variant", "error", "headers", "number", "start_fen")

    def __init__(
        self, variant: Variant | str = "chess", fen: str | None = None, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__()
        self._variant: Variant | None = load_variant(variant) if isinstance(variant, str) else variant
        self.headers: dict[str, str] = dict(_STR_DEFAULTS)
        if headers:
            self.headers.update(headers)
        # Validated and normalised now (as Board.fen() writes it), not when the game is written.
        self.start_fen = initial_fen(self.variant) if fen is None else Board(self.variant, fen).fen()
        self.error: PgnError | None = None
        self.number = 0

    @classmethod
    def from_board(cls, board: Board, headers: dict[str, str] | None = None) -> Game:
        """A game of the moves played on a board, from the position where they began."""
        start = board.copy()
        codes: list[int] = []
        while start._stack:
            codes.append(start.pop_int())
        game = cls(board.variant, start.fen(), headers)
        node: GameNode = game
        for code in reversed(codes):
            child = GameNode(node, start.int_to_move(code), code)
            node.variations.append(child)
            node = child
            start.push_int(code)
        if "Result" not in (headers or {}):
            game.headers["Result"] = start.result()
        return game

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

    def start_board(self) -> Board:
        return Board(self.variant, self.start_fen)

    def board(self) -> Board:
        """The position at the end of the main line."""
        board = self.start_board()
        for node in self.mainline():
            node._push(board)
        return board

    def __str__(self) -> str:
        return write_game(self)

    def __repr__(self) -> str:
        name = self._variant.slug if self._variant else "?"
        err = f", error={self.error}" if self.error else ""
        players = f"{self.headers.get('White', '?')} - {self.headers.get('Black', '?')}"
        return f"<Game {self.number} {name} {players}, {len(self.mainline_moves())} plies{err}>"


# ----- variants ----------------------------------------------------------------------------------------
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


_INITIAL_FEN: dict[Variant, str] = {}


def initial_fen(variant: Variant) -> str:
    """The variant's start position as Board.fen() writes it (a document may spell it differently)."""
    fen = _INITIAL_FEN.get(variant)
    if fen is None:
        fen = _INITIAL_FEN[variant] = Board(variant).fen()
    return fen


def pgn_variant_name(variant: Variant) -> str:
    """The Variant tag value the writer uses: pychess's spelling, the slug capitalised (`Orda`)."""
    return variant.slug[:1].upper() + variant.slug[1:]


# ----- reading -----------------------------------------------------------------------------------------
_TOKEN = re.compile(
    r"""
    (?P<tag>\[[ \t]*(?P<name>[A-Za-z0-9_]+)[ \t]*"(?P<value>(?:[^"\\\n]|\\.)*)"[ \t]*\])
  | (?P<badtag>\[[^\n]*)
  | (?P<comment>\{[^}]*\})
  | (?P<opencomment>\{)
  | (?P<linecomment>;[^\n]*)
  | (?P<escape>^%[^\n]*)
  | (?P<result>(?:1-0|0-1|1/2-1/2|\*)(?![\w/*-]))
  | (?P<number>[0-9]+\.+)
  | (?P<nag>\$[0-9]+)
  | (?P<open>\()
  | (?P<close>\))
  | (?P<word>[^\s{}()\[\];"$]+)
  | (?P<other>\S)
    """,
    re.VERBOSE | re.MULTILINE,
)
# A line that starts a tag pair: a comment running into one was never closed.
_TAG_LINE = re.compile(r"\n[ \t]*\[[A-Za-z0-9_]+[ \t]+\"")
_GLYPHS = re.compile(r"[!?]+$")


def _source_text(source: str | os.PathLike[str] | TextIO) -> str:
    if isinstance(source, str):
        text = source
    elif isinstance(source, os.PathLike):
        text = read_text_file(source)
    else:
        name = str(getattr(source, "name", "<stream>"))
        try:
            text = source.read()
        except UnicodeDecodeError as exc:
            reason = f"not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at offset {exc.start})"
            raise UnreadableFileError(name, reason) from None
        except OSError as exc:
            raise UnreadableFileError(name, exc.strerror or type(exc).__name__) from None
    return text.lstrip("\ufeff")


def read_games(source: str | os.PathLike[str] | TextIO) -> Iterator[Game]:
    """Every game of a PGN text (a str), file (a path) or open text stream, in order.

    Broken games are yielded too, with `error` set (see the module doc). Only a file or stream that
    cannot be read raises: UnreadableFileError (a HordesError) naming it, before any game is yielded.
    """
    text = _source_text(source)
    return _Reader(text).games()


def read_game(source: str | os.PathLike[str] | TextIO) -> Game | None:
    """The first game of a PGN text, file or stream, or None if there is none."""
    return next(read_games(source), None)


def parse_game(text: str) -> Game:
    """Exactly one game from PGN text; raises its PgnError if it is broken or if there is none."""
    game = read_game(text)
    if game is None:
        raise PgnError("no game in the text", game=1)
    if game.error is not None:
        raise game.error
    return game


class _Reader:
    """Turns the token stream into games; one instance per text."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.number = 0
        self._newlines: list[int] | None = None

    def line_at(self, pos: int) -> int:
        """The line of a position; the newlines are found once, so a file of many broken games is
        not read again from its start for each one."""
        if self._newlines is None:
            self._newlines = [m.start() for m in re.finditer("\n", self.text)]
        return bisect.bisect_left(self._newlines, pos) + 1

    def games(self) -> Iterator[Game]:
        text = self.text
        pos = 0
        end = len(text)
        while pos < end:
            game, pos = self._read_one(pos)
            if game is not None:
                yield game

    def _fail(self, game: Game, problem: str, pos: int, board: Board | None, token: str | None) -> None:
        if game.error is not None:
            return
        move = None
        if board is not None:
            move = f"{board.fullmove}." if board.turn else f"{board.fullmove}..."
        game.error = PgnError(problem, game=game.number, move=move, token=token, line=self.line_at(pos))

    def _read_one(self, pos: int) -> tuple[Game | None, int]:
        """Read the game starting at `pos`; returns it (None if only blank text) and where the next begins."""
        text = self.text
        search = _TOKEN.search
        headers: dict[str, str] = {}
        header_error: tuple[str, int, str] | None = None
        started = False  # a tag or movetext was read
        game: Game | None = None  # created when the movetext begins
        while True:
            match = search(text, pos)
            if match is None:
                if not started:
                    return None, len(text)
                game = self._start(headers, len(text), header_error)
                self._fail(game, "missing movetext and result", len(text), None, None)
                return game, len(text)
            kind = match.lastgroup
            start = match.start()
            if kind == "tag":
                name = match.group("name")
                if name in headers:  # the same tag again: the previous game had no movetext
                    game = self._start(headers, start, header_error)
                    self._fail(game, "missing movetext and result", start, None, None)
                    return game, start
                headers[name] = _unescape(match.group("value"))
            elif kind == "badtag":
                if header_error is None:
                    bad = match.group()
                    header_error = (f'malformed tag pair {quoted(bad)} (expected [Name "value"])', start, bad)
            elif kind != "escape" and kind != "linecomment":
                game = self._start(headers, start, header_error)
                return game, self._movetext(game, start)
            started = started or kind in ("tag", "badtag")
            pos = match.end()

    def _movetext(self, game: Game, pos: int) -> int:
        """Read the moves of `game` from `pos`; returns where the next game begins."""
        text = self.text
        search = _TOKEN.search
        stack: list[tuple[GameNode, int]] = []  # (node to return to, board depth) per open variation
        pending_comment = ""  # a comment before the first move of a variation
        at_variation_start = False
        board: Board | None = None
        node: GameNode = game
        if game.error is None:
            board = game.start_board()
        skipping = game.error is not None  # after an error: pass over the rest of this game
        depth = 0  # parenthesis depth while skipping
        while True:
            match = search(text, pos)
            if match is None:
                if not skipping:
                    problem = "unterminated variation: '(' without ')'" if stack else _MISSING_RESULT
                    self._fail(game, problem, len(text), board, None)
                return len(text)
            kind = match.lastgroup
            start = match.start()
            if kind == "tag" or kind == "badtag":  # a tag section after movetext: the next game begins
                if not skipping:
                    self._fail(game, _MISSING_RESULT, start, board, None)
                return start
            pos = match.end()
            if kind == "comment" or kind == "opencomment":
                # A comment that runs into a tag line was never closed: end this game before that line.
                if kind == "comment":
                    cut = _TAG_LINE.search(text, start, pos)
                else:
                    cut = _TAG_LINE.search(text, start)
                if cut is not None or kind == "opencomment":
                    if not skipping:
                        self._fail(game, "unterminated comment: '{' without '}'", start, board, "{")
                    return cut.start() + 1 if cut is not None else len(text)
            if skipping:
                if kind == "open":
                    depth += 1
                elif kind == "close":
                    depth -= 1
                elif kind == "result" and depth <= 0:
                    return pos
                continue
            assert board is not None
            if kind == "word":
                word = match.group()
                if word.isascii() and word.isdigit():  # a move number without its dot
                    continue
                glyph = ""
                if word[-1] in "!?":
                    g = _GLYPHS.search(word)
                    assert g is not None
                    glyph = g.group()
                    word = word[: g.start()]
                    if not word:  # a glyph standing alone annotates the previous move
                        if glyph in NAG_SUFFIXES and node is not game:
                            node.nags.append(NAG_SUFFIXES[glyph])
                        continue
                try:
                    code = push_san_int(board, word)
                except HordesError as exc:
                    problem = str(exc)
                    if word in ("--", "Z0", "0000", "@@@@"):
                        problem = f"null move {word!r}: there are no null moves in hordes"
                    self._fail(game, problem, start, board, match.group())
                    skipping = True
                    depth = len(stack)
                    continue
                child = GameNode(node, board.int_to_move(code), code)
                node.variations.append(child)
                node = child
                if glyph in NAG_SUFFIXES:
                    child.nags.append(NAG_SUFFIXES[glyph])
                if at_variation_start:
                    child.starting_comment = pending_comment
                    pending_comment = ""
                    at_variation_start = False
            elif kind == "number" or kind == "escape":
                continue
            elif kind == "comment" or kind == "linecomment":
                body = match.group()[1:-1] if kind == "comment" else match.group()[1:]
                comment = " ".join(body.split())
                if not comment:
                    continue
                if at_variation_start:
                    pending_comment = _join(pending_comment, comment)
                else:
                    node.comment = _join(node.comment, comment)
            elif kind == "nag":
                digits = match.group()[1:].lstrip("0") or "0"
                if len(digits) > 3 or int(digits) > MAX_NAG:  # no int() of 5000 digits
                    shown = f"${digits}" if len(digits) <= 10 else f"of {len(digits)} digits"
                    problem = f"NAG {shown} is out of range ($0 to ${MAX_NAG})"
                    self._fail(game, problem, start, board, match.group())
                    skipping = True
                    depth = len(stack)
                    continue
                if node is not game:
                    node.nags.append(int(digits))
            elif kind == "open":
                if node.parent is None or at_variation_start:
                    self._fail(game, "variation '(' before any move", start, board, "(")
                    skipping = True
                    depth = len(stack) + 1
                    continue
                stack.append((node, len(board._stack)))
                board.pop_int()
                node = node.parent
                at_variation_start = True
                pending_comment = ""
            elif kind == "close":
                if not stack:
                    self._fail(game, "')' without a variation to close", start, board, ")")
                    skipping = True
                    depth = 0
                    continue
                back, size = stack.pop()
                while len(board._stack) >= size:
                    board.pop_int()
                back._push(board)
                node = back
                at_variation_start = False
            elif kind == "result":
                token = match.group()
                if stack:
                    self._fail(game, "unterminated variation: '(' without ')'", start, board, token)
                    return pos
                stated = game.headers.get("Result")
                if stated is None:
                    game.headers["Result"] = token
                elif stated != token:
                    problem = f"result {token} differs from the Result tag {quoted(stated, 20)}"
                    self._fail(game, problem, start, board, token)
                return pos
            else:  # a character that has no place in movetext
                self._fail(game, f"unexpected character {match.group()!r}", start, board, match.group())
                skipping = True
                depth = len(stack)

    def _start(self, headers: dict[str, str], pos: int, header_error: tuple[str, int, str] | None) -> Game:
        """Create the game for these tags; a malformed tag or an unusable Variant or FEN tag becomes
        the game's error (the first one found in the text)."""
        self.number += 1
        game = Game.__new__(Game)
        GameNode.__init__(game)
        game.headers = headers
        game.number = self.number
        game.error = None
        game._variant = None
        game.start_fen = ""
        if header_error is not None:
            problem, where, bad = header_error
            game.error = PgnError(problem, game=self.number, token=bad, line=self.line_at(where))
        try:
            variant = resolve_variant(headers.get("Variant", ""))
        except HordesError as exc:
            if game.error is None:
                name = headers.get("Variant")
                game.error = PgnError(str(exc), game=self.number, token=name, line=self.line_at(pos))
            return game
        fen = headers.get("FEN")
        try:
            start_fen = initial_fen(variant) if fen is None else Board(variant, fen).fen()
        except HordesError as exc:
            if game.error is None:
                problem = f"bad FEN tag: {exc}"
                game.error = PgnError(problem, game=self.number, token=fen, line=self.line_at(pos))
            return game
        game._variant = variant
        game.start_fen = start_fen
        return game


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value) if "\\" in value else value


def _join(a: str, b: str) -> str:
    return f"{a} {b}" if a else b


# ----- writing -----------------------------------------------------------------------------------------
def _escape(value: str) -> str:
    return " ".join(value.replace("\\", "\\\\").replace('"', '\\"').split("\n"))


def write_game(game: Game, *, columns: int = 80) -> str:
    """The game as PGN text: tags, then movetext wrapped at `columns`, ending with a blank line."""
    variant = game.variant
    headers = dict(_STR_DEFAULTS)
    headers.update(game.headers)
    if variant.slug != "chess" and "Variant" not in game.headers:
        headers["Variant"] = pgn_variant_name(variant)
    if game.start_fen != initial_fen(variant) or "FEN" in game.headers:
        headers["FEN"] = game.start_fen
        headers["SetUp"] = "1"
    lines = []
    for name, value in headers.items():
        if not _TAG_NAME.fullmatch(name):
            raise HordesError(f"cannot write tag {quoted(name, 40)}: tag names are letters, digits and '_'")
        lines.append(f'[{name} "{_escape(value)}"]')
    tokens: list[str] = []
    if game.comment:
        _comment_tokens(tokens, game.comment)
    _write_line(game.start_board(), game, tokens, True)
    tokens.append(headers["Result"])
    return "\n".join(lines) + "\n\n" + _wrap(tokens, columns) + "\n"


# Markers for the parentheses of a variation in the writer's token list (a comment may hold "(" words).
_OPEN = "\x00("
_CLOSE = "\x00)"


def _comment_tokens(tokens: list[str], comment: str) -> None:
    words = comment.replace("}", ")").split()
    if not words:
        return
    words[0] = "{" + words[0]
    words[-1] += "}"
    tokens.extend(words)


def _write_line(board: Board, parent: GameNode, tokens: list[str], force_number: bool) -> None:
    """Write the main continuation from `parent` with its side variations, as PGN tokens. A Black
    move gets its number (`5...`) at the start and after a comment or a variation."""
    pushed = 0
    node = parent
    while node.variations:
        main = node.variations[0]
        _write_move(board, main, tokens, force_number)
        for side in node.variations[1:]:
            tokens.append(_OPEN)
            if side.starting_comment:
                _comment_tokens(tokens, side.starting_comment)
            _write_move(board, side, tokens, True)
            side._push(board)
            _write_line(board, side, tokens, bool(side.comment))
            board.pop_int()
            tokens.append(_CLOSE)
        force_number = bool(main.comment) or len(node.variations) > 1
        main._push(board)
        pushed += 1
        node = main
    for _ in range(pushed):
        board.pop_int()


def _write_move(board: Board, node: GameNode, tokens: list[str], force_number: bool) -> None:
    if board.turn:
        tokens.append(f"{board.fullmove}.")
    elif force_number:
        tokens.append(f"{board.fullmove}...")
    legal = movegen.generate_legal(board)
    if node._code < 0:
        assert node.move is not None
        node._code = _to_int(board, node.move, legal)
    tokens.append(san_int(board, node._code, legal))
    tokens.extend(f"${nag}" for nag in node.nags)
    if node.comment:
        _comment_tokens(tokens, node.comment)


def _wrap(tokens: list[str], columns: int) -> str:
    """Join tokens with spaces into lines of at most `columns` characters; '(' and ')' hug their
    neighbours as in `(2... Nc6 3. Bb5)`."""
    merged: list[str] = []
    prefix = ""
    for tok in tokens:
        if tok is _OPEN:
            prefix += "("
        elif tok is _CLOSE:
            merged[-1] += ")"
        else:
            merged.append(prefix + tok)
            prefix = ""
    out = io.StringIO()
    width = 0
    for tok in merged:
        if width and width + 1 + len(tok) > columns:
            out.write("\n")
            width = 0
        elif width:
            out.write(" ")
            width += 1
        out.write(tok)
        width += len(tok)
    return out.getvalue()
