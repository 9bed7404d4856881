"""Reading PGN: one game per `read_game(handle)` call, as python-chess does, or every game of a text,
file or stream with `read_games`; forgiving, never stopping at a broken game.

`read_game(handle)` reads from an open text stream line by line (a pipe or standard input will do,
nothing is sought back) and stops right after the game's result, so the next call reads the next
game; it returns None at the end of the stream. `parse_game(text)` reads a game from a str and raises
its error; `read_games(source)` yields every game of a str, a file path or a stream.

A game that cannot be read completely is still returned, with `game.errors` holding a PgnError naming
the game number, the move number, the line and the offending token, and with whatever came before the
problem (its tags and the moves that were legal); reading then goes on with the next game.

Where this reader differs from python-chess's: a game ends at its result token (python-chess waits for
a blank line), so files whose games follow one another without a blank line, as pychess-variants'
bulk export writes them, read correctly; `;` rest-of-line comments are kept as comments (python-chess
drops them); and a Result tag that contradicts the movetext's result is reported.

Comments keep their text as written, without the single space that usually pads each end
(`{ good move }` is "good move"), as python-chess reads them; several comments in a row are joined
with a space. Move-suffix annotations (`!`, `?`, `!!`, `??`, `!?`, `?!`) become NAGs 1-6.
"""

from __future__ import annotations

import bisect
import contextlib
import os
import re
import weakref
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TextIO

from hordes.core.rules import WHITE
from hordes.errors import HordesError, UnreadableFileError, quoted
from hordes.notation.board import Board
from hordes.notation.pgn_tree import (
    NAG_SUFFIXES,
    ChildNode,
    Game,
    GameNode,
    Headers,
    PgnError,
    VariantResolver,
    initial_fen,
    resolve_variant,
)
from hordes.notation.san import push_san_int
from hordes.textfiles import read_text_file

__all__ = ["MAX_NAG", "RESULTS", "parse_game", "read_game", "read_games"]

MAX_NAG = 255  # the PGN standard's range of numeric annotation glyphs, $0 to $255
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
_MISSING_RESULT = "missing result (1-0, 0-1, 1/2-1/2 or *)"

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
_TAG_LINE_START = re.compile(r"[ \t]*\[[A-Za-z0-9_]+[ \t]+\"")
_GLYPHS = re.compile(r"[!?]+$")


# ----- entry points ------------------------------------------------------------------------------------
def read_game(handle: TextIO, resolver: VariantResolver | None = None) -> Game | None:
    """The next game of an open text stream, or None at its end (as python-chess's read_game).

    The stream is read line by line and left just after the game, so repeated calls walk a file; game
    and line numbers in errors count from where the stream was when it was first read. For PGN text
    in a str, use `parse_game(text)` (one game) or `read_games(text)` (all of them). `resolver` finds
    the variants of games whose tags name one the library does not know (see VariantResolver).
    """
    if isinstance(handle, str | bytes | os.PathLike) or not hasattr(handle, "readline"):
        raise TypeError(
            f"read_game reads from an open text stream, not {type(handle).__name__}: "
            "use parse_game(text) or read_games(text_or_path)"
        )
    state = _resume(handle)
    reader = _Reader(state.leftover, handle, state.line, state.number, resolver)
    game = reader.next_game()
    _suspend(handle, reader)
    return game


def read_games(
    source: str | os.PathLike[str] | TextIO, resolver: VariantResolver | None = None
) -> Iterator[Game]:
    """Every game of a PGN text (a str), file (a path) or open text stream, in order.

    Broken games are yielded too, with `error` set (see the module doc). A file that cannot be read
    raises UnreadableFileError (a HordesError) naming it before any game is yielded; a stream that
    turns out not to be UTF-8 raises it when the reader gets there.
    """
    if isinstance(source, str):
        reader = _Reader(source.lstrip("\ufeff"), None, resolver=resolver)
    elif isinstance(source, os.PathLike):
        reader = _Reader(read_text_file(source).lstrip("\ufeff"), None, resolver=resolver)
    else:
        reader = _Reader("", source, resolver=resolver)
    return reader.games()


def parse_game(text: str, resolver: VariantResolver | None = None) -> Game:
    """The first game of PGN text; raises its PgnError if it is broken, or if there is none."""
    game = next(read_games(text, resolver), None)
    if game is None:
        raise PgnError("no game in the text", game=1)
    if game.error is not None:
        raise game.error
    return game


# ----- where a stream was left between read_game calls -------------------------------------------------
@dataclass
class _StreamState:
    leftover: str = ""  # text read past the end of the last game (the next game's first line)
    line: int = 1  # the line number where `leftover` begins
    number: int = 0  # games read so far
    position: object = None  # handle.tell() when it was left, to notice a seek in between


_STREAMS: weakref.WeakKeyDictionary[TextIO, _StreamState] = weakref.WeakKeyDictionary()


def _tell(handle: TextIO) -> object:
    try:
        return handle.tell() if handle.seekable() else None
    except (OSError, ValueError, AttributeError):
        return None


def _resume(handle: TextIO) -> _StreamState:
    try:
        state = _STREAMS.get(handle)
    except TypeError:  # a stream that takes no weak references: each call starts afresh
        return _StreamState()
    if state is None or (state.position is not None and _tell(handle) != state.position):
        return _StreamState()  # first call, or the stream was moved since: the numbering restarts
    return state


def _suspend(handle: TextIO, reader: _Reader) -> None:
    rest = reader.text[reader.pos :]
    leftover = rest if rest.strip() else ""
    line = reader.line_at(reader.pos) if leftover else reader.lines_read + 1
    state = _StreamState(leftover, line, reader.number, _tell(handle))
    with contextlib.suppress(TypeError):  # a stream that takes no weak references
        _STREAMS[handle] = state


# ----- the reader --------------------------------------------------------------------------------------
class _Reader:
    """Turns the token stream into games. The text is either whole (a str or a file read at once) or
    read from a stream a line at a time as the tokens need it; then only the unread part is kept."""

    def __init__(
        self,
        text: str,
        handle: TextIO | None,
        line: int = 1,
        number: int = 0,
        resolver: VariantResolver | None = None,
    ) -> None:
        self.text = text
        self.resolver = resolver
        self.handle = handle
        self.pos = 0
        self.number = number
        self.line_base = line  # the line number of text[0]
        self.lines_read = line - 1 + text.count("\n")
        self.eof = handle is None
        self._newlines: list[int] | None = None
        self._bom = handle is not None and line == 1 and not text

    # -- input --
    def _readline(self) -> str:
        assert self.handle is not None
        try:
            line = self.handle.readline()
        except UnicodeDecodeError as exc:
            byte = exc.object[exc.start] if isinstance(exc.object, bytes | bytearray) else 0
            reason = f"not UTF-8 text (byte 0x{byte:02x} after line {self.lines_read})"
            raise UnreadableFileError(_name(self.handle), reason) from None
        except OSError as exc:
            raise UnreadableFileError(_name(self.handle), exc.strerror or type(exc).__name__) from None
        if not line:
            self.eof = True
        else:
            self.lines_read += 1
            if self._bom:
                line = line.lstrip("\ufeff")
                self._bom = False
            if "\r" in line:
                line = line.replace("\r\n", "\n").replace("\r", "\n")
        return line

    def _trim(self, pos: int) -> int:
        """Drop the text before the line holding `pos` (it has been read); returns `pos` moved."""
        keep = self.text.rfind("\n", 0, pos) + 1
        if keep:
            self.line_base += self.text.count("\n", 0, keep)
            self.text = self.text[keep:]
        return pos - keep

    def _search(self, pos: int) -> re.Match[str] | None:
        """The next token from `pos`, reading more lines when the text runs out or a comment is open;
        self.text may be replaced, so positions are valid only against the match's string."""
        match = _TOKEN.search(self.text, pos)
        while not self.eof:
            if match is None:
                pos = self._trim(pos)
                line = self._readline()
                if not line:
                    return None
                self.text += line
            elif match.lastgroup == "opencomment":
                # Read on to the line that closes it, or to a tag line that shows it was never closed.
                pos = self._trim(pos)
                lines = []
                while True:
                    line = self._readline()
                    if not line:
                        break
                    lines.append(line)
                    if "}" in line or _TAG_LINE_START.match(line):
                        break
                self.text += "".join(lines)
                if "}" not in "".join(lines):
                    return _TOKEN.search(self.text, pos)
            else:
                return match
            match = _TOKEN.search(self.text, pos)
        return match

    def line_at(self, pos: int) -> int:
        """The line of a position in the text."""
        if self.handle is not None:
            return self.line_base + self.text.count("\n", 0, pos)
        if self._newlines is None:  # found once: a file of many broken games is not rescanned for each
            self._newlines = [m.start() for m in re.finditer("\n", self.text)]
        return self.line_base + bisect.bisect_left(self._newlines, pos)

    # -- games --
    def games(self) -> Iterator[Game]:
        while True:
            game = self.next_game()
            if game is None:
                return
            yield game

    def next_game(self) -> Game | None:
        while True:
            if self.eof and self.pos >= len(self.text):
                return None
            game = self._read_one()
            if game is not None:
                return game

    def _fail(self, game: Game, problem: str, pos: int, board: Board | None, token: str | None) -> None:
        if game.errors:
            return
        move = None
        if board is not None:
            move = f"{board.fullmove}." if board.turn == WHITE else f"{board.fullmove}..."
        game.error = PgnError(problem, game=game.number, move=move, token=token, line=self.line_at(pos))

    def _read_one(self) -> Game | None:
        """Read the game starting at self.pos (None if only blank text follows); self.pos is left
        where the next game begins."""
        tags: dict[str, str] = {}
        header_error: tuple[str, int, str] | None = None  # problem, line, token
        started = False  # a tag or movetext was read
        pos = self.pos
        while True:
            match = self._search(pos)
            if match is None:
                self.pos = len(self.text)
                if not started:
                    return None
                game = self._start(tags, self.pos, header_error)
                self._fail(game, "missing movetext and result", self.pos, None, None)
                return game
            kind = match.lastgroup
            start = match.start()
            if kind == "tag":
                name = match.group("name")
                if name in tags:  # the same tag again: the previous game had no movetext
                    self.pos = start
                    game = self._start(tags, start, header_error)
                    self._fail(game, "missing movetext and result", start, None, None)
                    return game
                tags[name] = _unescape(match.group("value"))
            elif kind == "badtag":
                if header_error is None:
                    bad = match.group()
                    problem = f'malformed tag pair {quoted(bad)} (expected [Name "value"])'
                    header_error = (problem, self.line_at(start), bad)
            elif kind != "escape" and kind != "linecomment":
                game = self._start(tags, start, header_error)
                self._movetext(game, start, "Result" in tags)
                return game
            started = started or kind in ("tag", "badtag")
            pos = match.end()

    def _movetext(self, game: Game, pos: int, result_stated: bool) -> None:
        """Read the moves of `game` from `pos`; self.pos is left where the next game begins."""
        stack: list[tuple[GameNode, int]] = []  # (node to return to, board depth) per open variation
        pending_comment = ""  # a comment before the first move of a variation
        at_variation_start = False
        board: Board | None = None
        node: GameNode = game
        if not game.errors:
            board = game.start_board()
        skipping = bool(game.errors)  # after an error: pass over the rest of this game
        depth = 0  # parenthesis depth while skipping
        while True:
            match = self._search(pos)
            if match is None:
                self.pos = len(self.text)
                if not skipping:
                    problem = "unterminated variation: '(' without ')'" if stack else _MISSING_RESULT
                    self._fail(game, problem, self.pos, board, None)
                return
            text = match.string
            kind = match.lastgroup
            start = match.start()
            if kind == "tag" or kind == "badtag":  # a tag section after movetext: the next game begins
                if not skipping:
                    self._fail(game, _MISSING_RESULT, start, board, None)
                self.pos = start
                return
            pos = match.end()
            if kind == "comment" or kind == "opencomment":
                # A comment that runs into a tag line was never closed: end this game before that line.
                cut = (
                    _TAG_LINE.search(text, start, pos) if kind == "comment" else _TAG_LINE.search(text, start)
                )
                if cut is not None or kind == "opencomment":
                    if not skipping:
                        self._fail(game, "unterminated comment: '{' without '}'", start, board, "{")
                    self.pos = cut.start() + 1 if cut is not None else len(text)
                    return
            if skipping:
                if kind == "open":
                    depth += 1
                elif kind == "close":
                    depth -= 1
                elif kind == "result" and depth <= 0:
                    self.pos = pos
                    return
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
                            node.nags.add(NAG_SUFFIXES[glyph])
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
                child = ChildNode._attach(node, board.int_to_move(code), code)
                node = child
                if glyph in NAG_SUFFIXES:
                    child.nags.add(NAG_SUFFIXES[glyph])
                if at_variation_start:
                    child.starting_comment = pending_comment
                    pending_comment = ""
                    at_variation_start = False
            elif kind == "number" or kind == "escape":
                continue
            elif kind == "comment" or kind == "linecomment":
                comment = _comment_text(match.group(), kind == "comment")
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
                    node.nags.add(int(digits))
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
                assert isinstance(back, ChildNode)
                back._push(board)
                node = back
                at_variation_start = False
            elif kind == "result":
                token = match.group()
                self.pos = pos
                if stack:
                    self._fail(game, "unterminated variation: '(' without ')'", start, board, token)
                    return
                stated = game.headers.get("Result") if result_stated else None
                if stated is None:
                    game.headers["Result"] = token
                elif stated != token:
                    problem = f"result {token} differs from the Result tag {quoted(stated, 20)}"
                    self._fail(game, problem, start, board, token)
                return
            else:  # a character that has no place in movetext
                self._fail(game, f"unexpected character {match.group()!r}", start, board, match.group())
                skipping = True
                depth = len(stack)

    def _start(self, tags: dict[str, str], pos: int, header_error: tuple[str, int, str] | None) -> Game:
        """Create the game for these tags; a malformed tag or an unusable Variant or FEN tag becomes
        the game's error (the first one found in the text)."""
        self.number += 1
        game = Game.__new__(Game)
        GameNode.__init__(game)
        game.headers = Headers()  # the roster's defaults, then the file's tags, as python-chess reads
        game.headers.update(tags)
        game.number = self.number
        game.errors = []
        game._variant = None
        game.start_fen = ""
        if header_error is not None:
            problem, line, bad = header_error
            game.error = PgnError(problem, game=self.number, token=bad, line=line)
        try:
            found = self.resolver(tags) if self.resolver is not None else None
            variant = found if found is not None else resolve_variant(tags.get("Variant", ""))
        except HordesError as exc:
            if not game.errors:
                name = tags.get("Variant")
                game.error = PgnError(str(exc), game=self.number, token=name, line=self.line_at(pos))
            return game
        fen = tags.get("FEN")
        try:
            start_fen = initial_fen(variant) if fen is None else Board(variant, fen).fen()
        except HordesError as exc:
            if not game.errors:
                problem = f"bad FEN tag: {exc}"
                game.error = PgnError(problem, game=self.number, token=fen, line=self.line_at(pos))
            return game
        game._variant = variant
        game.start_fen = start_fen
        return game


def _name(handle: TextIO) -> str:
    return str(getattr(handle, "name", "<stream>"))


def _comment_text(token: str, braced: bool) -> str:
    """A comment's text: a brace comment without the one space that pads each end, as python-chess
    reads it; a rest-of-line comment stripped."""
    if not braced:
        return token[1:].strip()
    body = token[1:-1]
    if body.startswith(" "):
        body = body[1:]
    if body.endswith(" "):
        body = body[:-1]
    return body.replace("\r\n", "\n") if "\r" in body else body


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value) if "\\" in value else value


def _join(a: str, b: str) -> str:
    return f"{a} {b}" if a else b
