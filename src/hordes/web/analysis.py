"""The analysis board's API: positions without a game, the engine's lines, evaluation graphs with
judged moves, and PGN import and export of a whole move tree (variations and comments kept).

The tree's JSON format is analysis_tree.py's; the judgements (?!, ?, ??) are judgement.py's. Engine
work runs in the analysis class of the engine queue (engine_queue.py), capped in time and depth and
rate-limited per client in engine seconds.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from hordes import Board, HordesError
from hordes.notation.pgn import parse_game, write_game
from hordes.notation.san import san
from hordes.web.analysis_tree import tree_game, tree_json
from hordes.web.common import int_field, json_body, parse_json_object, read_body, string_field, variant_field
from hordes.web.errors import GameError, IllegalMove
from hordes.web.judgement import with_judgements
from hordes.web.positions import position_view, variant_info
from hordes.web.ratelimit import client_of, rate_limit
from hordes.web.variant_store import pgn_resolver, pgn_tags
from hordes.web.variants import web_variant

MAX_LINE = 1000  # moves in a stateless position request
MAX_EVAL_LINE = 300  # positions evaluated for one graph
PGN_BODY = 64 * 1024  # a PGN import, or a tree to export, may be longer than other requests
MAX_HEADERS = 32  # tags of a PGN export
MAX_HEADER_VALUE = 1000  # characters of one tag's value
TAG_NAME = re.compile(r"[A-Za-z0-9_]{1,64}")  # what the PGN writer can write
DERIVED_TAGS = ("Variant", "FEN", "SetUp")  # written from the line itself, never from the client
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
MAX_GRAPH_SECONDS = 30.0  # engine seconds (summed over positions) for one evaluation graph
MAX_MULTIPV = 5  # engine lines of one analysis request
MAX_ANALYSIS_DEPTH = 40  # a depth cap a client may set (the time cap always holds too)


def white_first(start_fen: str) -> bool:
    """Whether White makes the first move from this start position (the FEN's side to move)."""
    parts = start_fen.split()
    return len(parts) < 2 or parts[1] != "b"


async def evaluate_positions(
    request: Request, variant: str, start_fen: str, moves: list[str], plies: list[int], movetime: float
) -> list[dict[str, Any]]:
    """Evaluate the positions after each of `plies` moves, as many at once as there are workers
    (EngineBusy if the engine queue refuses one: the others are then cancelled)."""
    pool = request.app.state.pool
    gate = asyncio.Semaphore(max(1, min(pool.workers, pool.queue.analysis_per_client)))
    client = client_of(request)

    async def one(ply: int) -> dict[str, Any]:
        async with gate:
            res = await pool.analyse(variant, start_fen, moves[:ply], movetime, client=client)
        return {"ply": ply, "cp": res["cp"], "mate": res["mate"], "best": res["best"], "depth": res["depth"]}

    tasks = [asyncio.ensure_future(one(p)) for p in plies]
    try:
        return list(await asyncio.gather(*tasks))
    finally:
        for task in tasks:
            task.cancel()


# ----- positions without a game ------------------------------------------------------------------------
def _line(body: dict[str, Any], limit: int = MAX_LINE) -> tuple[Board, list[dict[str, str]], str]:
    """The board of a {variant, fen, moves} request with its moves played, the moves (uci, san, fen
    after) and the start FEN."""
    variant = web_variant(variant_field(body))
    fen = string_field(body, "fen", None, limit=1000)
    try:
        board = Board(variant, fen) if fen else Board(variant)
    except (HordesError, ValueError) as exc:
        raise GameError(f"bad FEN: {exc}", code="bad_fen") from None
    moves = body.get("moves", [])
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise GameError("'moves' must be a list of UCI strings", code="bad_request")
    if len(moves) > limit:
        raise GameError(f"at most {limit} moves", code="bad_request")
    start_fen = board.fen()
    sans = []
    for i, text in enumerate(moves):
        try:
            move = board.parse_uci(text)
        except ValueError as exc:
            raise IllegalMove(f"move {i + 1} ({text[:20]!r}): {exc}") from None
        text_san = san(board, move)
        board.push(move)
        sans.append({"uci": board.uci(move), "san": text_san, "fen": board.fen()})
    return board, sans, start_fen


async def api_position(request: Request) -> Response:
    body = await json_body(request)

    def work() -> dict[str, Any]:
        board, line, start_fen = _line(body)
        out = {"variant": variant_info(board.variant), "start_fen": start_fen, "moves": line}
        out.update(position_view(board))
        return out

    return JSONResponse(await run_in_threadpool(work))


async def api_analysis(request: Request) -> Response:
    """The engine's best `multipv` lines (1..5) of a position, within `movetime` and `depth` caps."""
    body = await json_body(request)
    board, _sans, start_fen = await run_in_threadpool(lambda: _line(body))
    movetime = _number(body, "movetime", 1.0, 0.05, 5.0)
    multipv = int_field(body.get("multipv", 1), "multipv", 1, MAX_MULTIPV)
    depth = body.get("depth")
    if depth is not None:
        depth = int_field(depth, "depth", 1, MAX_ANALYSIS_DEPTH)
    rate_limit(request, "analysis", movetime)
    moves = [board.uci(m) for m in board.move_stack]
    pool = request.app.state.pool
    result = await pool.analyse(
        board.variant.slug,
        start_fen,
        moves,
        movetime,
        depth=depth,
        client=client_of(request),
        multipv=multipv,
    )
    return JSONResponse(result)


async def api_analysis_line(request: Request) -> Response:
    body = await json_body(request)
    board, _sans, start_fen = await run_in_threadpool(lambda: _line(body, MAX_EVAL_LINE))
    moves = [board.uci(m) for m in board.move_stack]
    # At most about half a minute of engine time for one graph, however long the line.
    movetime = min(_number(body, "movetime", 0.15, 0.02, 0.5), MAX_GRAPH_SECONDS / (len(moves) + 1))
    rate_limit(request, "graph", movetime * (len(moves) + 1))
    evals = await evaluate_positions(
        request, board.variant.slug, start_fen, moves, list(range(len(moves) + 1)), movetime
    )
    return JSONResponse({"evaluations": with_judgements(evals, white_first(start_fen))})


def _number(body: dict[str, Any], name: str, default: float, low: float, high: float) -> float:
    value = body.get(name, default)
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise GameError(f"'{name}' must be a number", code="bad_request")
    return max(low, min(high, float(value)))


# ----- PGN -----------------------------------------------------------------------------------------------
async def api_pgn_import(request: Request) -> Response:
    """A PGN game -> its variant, start, tags and move tree (`moves`: the main line, with variations)."""
    raw = await read_body(request, PGN_BODY)
    rate_limit(request, "pgn", len(raw) / 1024)  # reading costs about 0.5 s of CPU per 64 KB
    body = parse_json_object(raw)
    text = string_field(body, "pgn", "", limit=PGN_BODY) or ""

    def work() -> dict[str, Any]:
        if not text.strip():
            raise GameError("no game found in the PGN text", code="bad_pgn")
        try:
            # The first game of the text (raises the error of a broken one); a stored variant's game
            # is found by its [VariantDocument] tag or its name, in this site's store only.
            game = parse_game(text, pgn_resolver)
            tree = tree_json(game)
        except (HordesError, ValueError) as exc:
            raise GameError(f"cannot read the PGN: {exc}", code="bad_pgn") from None
        return {
            "variant": game.variant.slug,
            "start_fen": game.start_fen,
            "headers": dict(game.headers),
            **tree,
        }

    return JSONResponse(await run_in_threadpool(work))


async def api_pgn_export(request: Request) -> Response:
    """A move tree (or a single line of UCI moves) -> PGN text with its variations and comments."""
    raw = await read_body(request, PGN_BODY)
    rate_limit(request, "pgn", len(raw) / 1024)
    body = parse_json_object(raw)

    def work() -> str:
        variant = web_variant(variant_field(body))
        fen = string_field(body, "fen", None, limit=1000) or None
        game = tree_game(variant, fen, body)
        headers = {"Event": "Analysis", **pgn_tags(variant), **_export_headers(body)}
        if "Result" not in headers:
            headers["Result"] = game.end().board().result()
        game.headers.update(headers)
        return write_game(game)

    return JSONResponse({"pgn": await run_in_threadpool(work)})


def _export_headers(body: dict[str, Any]) -> dict[str, str]:
    """The PGN tags a client asks for, each a name the writer can write and a one-line value."""
    headers = body.get("headers")
    if headers is None:
        return {}
    if not isinstance(headers, dict) or not all(isinstance(v, str) for v in headers.values()):
        raise GameError("'headers' must be an object of strings", code="bad_request")
    if len(headers) > MAX_HEADERS:
        raise GameError(f"'headers' may have at most {MAX_HEADERS} tags", code="bad_header")
    for name, value in headers.items():
        if not TAG_NAME.fullmatch(name):
            raise GameError(
                f"'headers': {name[:40]!r} is not a PGN tag name (1 to 64 letters, digits and '_')",
                code="bad_header",
            )
        if name in DERIVED_TAGS:
            raise GameError(
                f"'headers': the {name} tag is written from 'variant' and 'fen', not sent", code="bad_header"
            )
        if len(value) > MAX_HEADER_VALUE or any(ord(c) < 32 for c in value):
            raise GameError(
                f"'headers': the {name} tag must be one line of at most {MAX_HEADER_VALUE} characters",
                code="bad_header",
            )
        if name == "Result" and value not in RESULTS:
            raise GameError(f"'headers': Result must be one of {', '.join(RESULTS)}", code="bad_header")
    return headers
