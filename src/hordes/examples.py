"""Teaching examples: a position and a move from a variant document, played with the real rules.

A document's front matter may hold `examples:`, each a FEN, a move in the variant's SAN, a caption and
claims about what the move does. The rules page draws them (`hordes.site`), and `check` plays each
move and tests its claims, so a wrong example is found by the tests instead of misleading a reader:

- `after`: squares and the piece letter on each after the move ("." for empty): a pull moved that
  piece, the capturer changed colour, a piece changed its shape;
- `royals_attacked`: the opponent's royal pieces attacked after the move (a fork of both);
- `ends`: the game is over after the move, won by the mover, with this termination ("campmate");
- `closed` / `open`: squares the moving piece cannot / can go to in the position;
- `restricted_by`: the square of the piece that closes `closed`; with it gone, all of them open.

Like svg.py and site.py this module sits on top of the notation layer; nothing below imports it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from hordes.core.movegen import attacked_by, royal_squares
from hordes.core.position import Move
from hordes.core.rules import Variant
from hordes.errors import HordesError
from hordes.notation.board import Board


class ExampleError(HordesError):
    """An example that cannot be played: a bad FEN, square or move. The message names the example."""


@dataclass(frozen=True)
class Example:
    name: str
    fen: str
    move: str  # SAN, as the document writes it
    caption: str
    after: Mapping[str, str] = field(default_factory=dict)
    royals_attacked: tuple[str, ...] = ()
    closed: tuple[str, ...] = ()
    open: tuple[str, ...] = ()
    restricted_by: str | None = None
    ends: str | None = None

    @property
    def shows_result(self) -> bool:
        """Whether the claims are about the position after the move (then it is drawn as well)."""
        return bool(self.after or self.royals_attacked or self.ends)


@dataclass(frozen=True)
class Played:
    """An example's move played: the boards before and after, the move and its SAN (with a number)."""

    before: Board
    move: Move
    after: Board
    san: str


def examples(variant: Variant) -> list[Example]:
    """The variant's examples in the document's order (the loader has checked their shape)."""
    spec: Any = variant.meta.get("examples") or {}
    out = []
    for name, data in spec.items():
        out.append(
            Example(
                name=name,
                fen=data["fen"],
                move=data["move"],
                caption=data["caption"],
                after=dict(data.get("after") or {}),
                royals_attacked=tuple(data.get("royals_attacked") or ()),
                closed=tuple(data.get("closed") or ()),
                open=tuple(data.get("open") or ()),
                restricted_by=data.get("restricted_by"),
                ends=data.get("ends"),
            )
        )
    return out


def square(variant: Variant, example: Example, text: str) -> int:
    try:
        return variant.geometry.parse_square(text)
    except (HordesError, ValueError, IndexError):
        raise ExampleError(f"example {example.name!r}: {text!r} is not a square of the board") from None


def _board(variant: Variant, example: Example, fen: str) -> Board:
    board = Board(variant)
    try:
        board.set_fen(fen)
    except HordesError as exc:
        raise ExampleError(f"example {example.name!r}: {exc}") from None
    return board


def play(variant: Variant, example: Example) -> Played:
    """Set up the example's position and play its move (ExampleError if either is wrong)."""
    before = _board(variant, example, example.fen)
    try:
        move = before.parse_san(example.move)
    except HordesError as exc:
        raise ExampleError(f"example {example.name!r}: move {example.move!r}: {exc}") from None
    number = f"{before.fullmove_number}." if before.turn else f"{before.fullmove_number}..."
    san = f"{number} {before.san(move)}"
    after = _board(variant, example, example.fen)
    after.push(move)
    return Played(before, move, after, san)


def attacked_royals(board: Board) -> set[int]:
    """The side to move's royal pieces that the other side attacks."""
    occupied = board.occ[0] | board.occ[1]
    royals = royal_squares(board, board.side)
    return {
        sq
        for sq in range(board.geometry.size)
        if royals >> sq & 1 and attacked_by(board, board.side ^ 1, sq, occupied)
    }


def destinations(board: Board, origin: int) -> set[int]:
    """Where the piece on `origin` may legally go (a change of shape in place is not a destination)."""
    return {m.to_square for m in board.legal_moves if m.from_square == origin and m.to_square != origin}


def _without(board: Board, gone: int) -> str:
    """The board's FEN with the piece on `gone` taken away."""
    geo = board.geometry
    ranks = []
    for rank in reversed(range(geo.rows)):
        row, empty = "", 0
        for file in range(geo.cols):
            sq = geo.square(file, rank)
            found = board.piece_at(sq) if sq != gone else None
            if found is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + found.symbol()
            empty = 0
        ranks.append(row + (str(empty) if empty else ""))
    return "/".join(ranks) + " " + " ".join(board.fen().split()[1:])


def check(variant: Variant, example: Example) -> list[str]:
    """What is wrong with the example: [] when its move is legal and every claim holds."""
    try:
        return _check(variant, example)
    except ExampleError as exc:
        return [str(exc)]


def _check(variant: Variant, example: Example) -> list[str]:
    played = play(variant, example)
    name = f"example {example.name!r}"
    geo = variant.geometry
    problems = []
    for text, letter in example.after.items():
        found = played.after.piece_at(square(variant, example, text))
        have = found.symbol() if found is not None else "."
        if have != letter:
            problems.append(f"{name}: after {example.move} {text} holds {have!r}, not {letter!r}")
    if example.royals_attacked:
        want = {square(variant, example, t) for t in example.royals_attacked}
        have_royals = attacked_royals(played.after)
        if have_royals != want:
            shown = sorted(geo.square_name(s) for s in have_royals) or "none"
            problems.append(f"{name}: after {example.move} the attacked royal pieces are on {shown}")
    if example.ends is not None:
        outcome = played.after.outcome()
        mover = played.before.turn
        if outcome is None or outcome.termination.value != example.ends or outcome.winner != mover:
            got = (
                "the game goes on" if outcome is None else f"{outcome.termination.value}, {outcome.result()}"
            )
            problems.append(f"{name}: {example.move} should win by {example.ends}, but {got}")
    origin = played.move.from_square
    reach = destinations(played.before, origin)
    for text in example.closed:
        if square(variant, example, text) in reach:
            problems.append(f"{name}: the piece on {geo.square_name(origin)} can go to {text}")
    for text in example.open:
        if square(variant, example, text) not in reach:
            problems.append(f"{name}: the piece on {geo.square_name(origin)} cannot go to {text}")
    if example.restricted_by is not None:
        gone = square(variant, example, example.restricted_by)
        if played.before.piece_at(gone) is None:
            problems.append(f"{name}: nothing stands on {example.restricted_by} to close a direction")
        else:
            freed = destinations(_board(variant, example, _without(played.before, gone)), origin)
            still = [t for t in example.closed if square(variant, example, t) not in freed]
            if still:
                problems.append(f"{name}: without the piece on {example.restricted_by}, {still} stay closed")
    return problems
