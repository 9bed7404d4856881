"""The analysis board's move tree as JSON, to and from the PGN library's game tree (notation.pgn).

The format follows PGN's own shape, so that a long game does not nest deeply: a line is a list of
moves, and each move lists the variations that replace it (each one a line again):

    {"comment": "before the first move",
     "moves": [{"uci": "e2e4", "san": "e4", "fen": "...", "comment": "", "nags": [1],
                "variations": [[{"uci": "d2d4", "starting_comment": "or", ...}, ...]]},
               {"uci": "e7e5", ...}]}

`moves` is the main line; `moves[0].variations` are the other first moves, and so on down the tree.
A move's `starting_comment` is the comment before it (PGN keeps one only on a variation's first
move). The server writes `san` and `fen` (the position after the move); when the tree is sent back
they are ignored and the moves are replayed from `uci`. A move may also be sent as a bare UCI
string, which is the old single-line format (`"moves": ["e2e4", "e7e5"]`).

Every problem in a sent tree is a GameError naming where it is, as a path such as
`moves[3].variations[0][1].uci`.
"""

from __future__ import annotations

from typing import Any

from hordes import HordesError, Variant
from hordes.notation.board import Board
from hordes.notation.pgn import ChildNode, Game, GameNode
from hordes.notation.san import san
from hordes.web.errors import GameError, IllegalMove

MAX_TREE_MOVES = 10_000  # moves in one tree, all variations counted (a 64 KB PGN holds about 9,400)
# Variations inside variations: eight levels nest a request 28 deep, within common.MAX_DEPTH (32).
MAX_VARIATION_DEPTH = 8
MAX_COMMENT = 4000  # characters of one comment
MAX_NAG = 255  # $0 .. $255, the PGN standard's range
MOVE_FIELDS = frozenset({"uci", "san", "fen", "comment", "starting_comment", "nags", "variations"})


class TreeTooLarge(GameError):
    """A tree (sent, or read from a PGN) past MAX_TREE_MOVES or MAX_VARIATION_DEPTH."""

    code = "tree_too_large"


# ----- the library's tree -> JSON ------------------------------------------------------------------------
def tree_json(game: Game) -> dict[str, Any]:
    """{"comment", "moves"} of a game tree; TreeTooLarge past the bounds a client could send back."""
    count = [0]
    return {"comment": game.comment, "moves": _line_out(game.start_board(), game.next(), 0, count)}


def _line_out(board: Board, first: ChildNode | None, depth: int, count: list[int]) -> list[dict[str, Any]]:
    """The line starting at `first` (whose parent's position `board` holds; left as it was)."""
    if depth > MAX_VARIATION_DEPTH:
        raise TreeTooLarge(f"variations are nested deeper than {MAX_VARIATION_DEPTH} levels")
    items: list[dict[str, Any]] = []
    node = first
    pushed = 0
    try:
        while node is not None:
            count[0] += 1
            if count[0] > MAX_TREE_MOVES:
                raise TreeTooLarge(f"the tree has more than {MAX_TREE_MOVES} moves")
            item: dict[str, Any] = {"uci": board.uci(node.move), "san": san(board, node.move)}
            parent = node.parent
            if parent.variations[0] is node:  # the main move carries the alternatives to it
                item["variations"] = [
                    _line_out(board, alt, depth + 1, count) for alt in parent.variations[1:]
                ]
            board.push(node.move)
            pushed += 1
            item["fen"] = board.fen()
            item["comment"] = node.comment
            if node.starting_comment:
                item["starting_comment"] = node.starting_comment
            item["nags"] = sorted(node.nags)
            items.append(item)
            node = node.next()
    finally:
        for _ in range(pushed):
            board.pop()
    return items


# ----- JSON -> the library's tree ------------------------------------------------------------------------
def tree_game(variant: Variant | str, fen: str | None, body: dict[str, Any]) -> Game:
    """A Game from a request's {comment, moves} (moves: the tree or a list of UCI strings)."""
    try:
        game = Game(variant=variant, fen=fen)
    except (HordesError, ValueError) as exc:
        raise GameError(f"bad FEN: {exc}", code="bad_fen") from None
    comment = body.get("comment", "")
    game.comment = _text(comment, "comment")
    moves = body.get("moves", [])
    if not isinstance(moves, list):
        raise GameError("'moves' must be a list of moves (UCI strings or move objects)", code="bad_request")
    _line_in(game, game.start_board(), moves, "moves", 0, [0])
    return game


def _line_in(
    parent: GameNode, board: Board, items: list[Any], path: str, depth: int, count: list[int]
) -> ChildNode | None:
    """Add the line `items` after `parent` (whose position `board` holds; left as it was), as a new
    continuation of it; returns its first node."""
    if depth > MAX_VARIATION_DEPTH:
        raise TreeTooLarge(f"{path}: variations are nested deeper than {MAX_VARIATION_DEPTH} levels")
    # First the line itself, checked move by move (so that an error names its move), then added at once.
    parsed = []
    pushed = 0
    try:
        for i, raw in enumerate(items):
            where = f"{path}[{i}]"
            count[0] += 1
            if count[0] > MAX_TREE_MOVES:
                raise TreeTooLarge(f"{where}: the tree has more than {MAX_TREE_MOVES} moves")
            fields = _move_fields(raw, where)
            try:
                move = board.parse_uci(fields["uci"])
            except ValueError as exc:
                raise IllegalMove(f"{where}.uci ({fields['uci'][:20]!r}): {exc}") from None
            parsed.append((move, fields, where))
            board.push(move)
            pushed += 1
    finally:
        for _ in range(pushed):
            board.pop()
    if not parsed:
        return None
    last = parent.add_line([move for move, _f, _w in parsed])
    nodes = last.path()[-len(parsed) :]
    for node, (_move, fields, _where) in zip(nodes, parsed, strict=True):
        node.comment = fields["comment"]
        node.starting_comment = fields["starting_comment"]
        node.nags.update(fields["nags"])
    # Then the variations of each move: alternatives to it, continuations of the node before it.
    pushed = 0
    try:
        before: GameNode = parent
        for node, (move, fields, where) in zip(nodes, parsed, strict=True):
            for k, alt in enumerate(fields["variations"]):
                alt_where = f"{where}.variations[{k}]"
                if not isinstance(alt, list) or not alt:
                    raise GameError(f"{alt_where} must be a non-empty list of moves", code="bad_tree")
                _line_in(before, board, alt, alt_where, depth + 1, count)
            board.push(move)
            pushed += 1
            before = node
    finally:
        for _ in range(pushed):
            board.pop()
    return nodes[0]


def _move_fields(raw: Any, where: str) -> dict[str, Any]:
    if isinstance(raw, str):
        raw = {"uci": raw}
    if not isinstance(raw, dict):
        raise GameError(f"{where} must be a UCI string or a move object", code="bad_tree")
    unknown = sorted(set(raw) - MOVE_FIELDS)
    if unknown:
        raise GameError(f"{where}: unknown field {unknown[0][:40]!r}", code="bad_tree")
    uci = raw.get("uci")
    if not isinstance(uci, str) or not uci:
        raise GameError(f'{where}.uci must be the move in UCI notation (e.g. "e2e4")', code="bad_tree")
    nags = raw.get("nags", [])
    if not isinstance(nags, list) or not all(
        isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= MAX_NAG for n in nags
    ):
        raise GameError(f"{where}.nags must be a list of integers from 0 to {MAX_NAG}", code="bad_tree")
    variations = raw.get("variations", [])
    if not isinstance(variations, list):
        raise GameError(f"{where}.variations must be a list of lines", code="bad_tree")
    return {
        "uci": uci,
        "comment": _text(raw.get("comment", ""), f"{where}.comment"),
        "starting_comment": _text(raw.get("starting_comment", ""), f"{where}.starting_comment"),
        "nags": nags,
        "variations": variations,
    }


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise GameError(f"{where} must be a string", code="bad_tree")
    if len(value) > MAX_COMMENT:
        raise GameError(f"{where} is longer than {MAX_COMMENT} characters", code="bad_tree")
    return value
