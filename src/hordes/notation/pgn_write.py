"""Writing PGN: tags, then the movetext with its variations, comments and NAGs, wrapped at 80 columns.

What the reader reads back is the same tree: the same moves, variations, comments (written as
`{ text }`, which the reader reads as `text` again, line breaks included; a `}` inside becomes `)`),
NAGs (as `$n`, in ascending order) and tags. A comment is never broken across lines, so a long one
makes a long line, as with python-chess. One change is made: a line inside a comment that begins like
a tag pair (`[Event "`) is joined to the line before, since a reader would take it for the next game.

Variants: a game of another variant than chess carries `[Variant "..."]`, by default pychess-variants'
spelling (the slug capitalised: `Orda`, `Khans`), and a game that does not start from the variant's
initial position gets `FEN` and `SetUp "1"`. Tag values are escaped as the PGN standard says (`\\"`);
pychess-variants' importer does not unescape them, so a value with a double quote reaches it cut short.
"""

from __future__ import annotations

import io
import re

from hordes.core import movegen
from hordes.core.rules import WHITE
from hordes.errors import HordesError, quoted
from hordes.notation.board import Board
from hordes.notation.pgn_tree import STR_DEFAULTS, ChildNode, Game, GameNode, initial_fen, pgn_variant_name
from hordes.notation.san import _to_int, san_int

__all__ = ["line_text", "write_game"]

_TAG_NAME = re.compile(r"[A-Za-z0-9_]+")
# A comment line that looks like a tag pair would read as the start of the next game.
_TAG_LIKE_LINE = re.compile(r"\n([ \t]*\[[A-Za-z0-9_]+[ \t]+\")")


def _escape(value: str) -> str:
    return " ".join(value.replace("\\", "\\\\").replace('"', '\\"').split("\n"))


def write_game(game: Game, *, columns: int = 80) -> str:
    """The game as PGN text: tags, then movetext wrapped at `columns`, ending with a newline."""
    variant = game.variant
    headers = dict(STR_DEFAULTS)
    headers.update(game.headers)
    if variant.slug != "chess" and "Variant" not in headers:
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
        tokens.append(_comment(game.comment))
    _write_line(game.start_board(), game, tokens, True)
    tokens.append(headers["Result"])
    return "\n".join(lines) + "\n\n" + _wrap(tokens, columns) + "\n"


def line_text(start: GameNode) -> str:
    """The main line after a node in numbered SAN, without comments or variations (`Mainline`'s text)."""
    board = start.board()
    tokens: list[str] = []
    force = True
    for node in start.mainline():
        tokens.extend(_move_tokens(board, node, force))
        force = False
        node._push(board)
    return " ".join(tokens)


# Markers for the parentheses of a variation in the writer's token list (a comment may hold "(" words).
_OPEN = "\x00("
_CLOSE = "\x00)"


def _comment(text: str) -> str:
    text = text.replace("}", ")")
    if "\n" in text:
        text = _TAG_LIKE_LINE.sub(r" \1", text)
    return "{ " + text + " }"


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
                tokens.append(_comment(side.starting_comment))
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


def _move_tokens(board: Board, node: ChildNode, force_number: bool) -> list[str]:
    out = []
    if board.turn == WHITE:
        out.append(f"{board.fullmove}.")
    elif force_number:
        out.append(f"{board.fullmove}...")
    legal = movegen.generate_legal(board)
    if node._code < 0:
        node._code = _to_int(board, node.move, legal)
    out.append(san_int(board, node._code, legal))
    return out


def _write_move(board: Board, node: ChildNode, tokens: list[str], force_number: bool) -> None:
    tokens.extend(_move_tokens(board, node, force_number))
    tokens.extend(f"${nag}" for nag in sorted(node.nags))
    if node.comment:
        tokens.append(_comment(node.comment))


def _wrap(tokens: list[str], columns: int) -> str:
    """Join tokens with spaces into lines of at most `columns` characters (a long comment excepted);
    '(' and ')' hug their neighbours as in `(2... Nc6 3. Bb5)`."""
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
        first = tok.find("\n")
        size = len(tok) if first < 0 else first
        if width and width + 1 + size > columns:
            out.write("\n")
            width = 0
        elif width:
            out.write(" ")
            width += 1
        out.write(tok)
        width = width + len(tok) if first < 0 else len(tok) - tok.rfind("\n") - 1
    return out.getvalue()
