"""The JSON API: games (create, read, move, resign, draw, PGN, evaluations) and stateless positions.

Every handler answers errors as `{"error": "<code>", "message": "<what is wrong>"}` with a 4xx
status, and changes nothing when it refuses. The OpenAPI description of all of this is in openapi.py.
"""

from __future__ import annotations

import asyncio
import random
import re
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response

from hordes import Board, HordesError, builtin_variants, load_variant
from hordes.notation.pgn import Game, read_game, write_game
from hordes.notation.san import san
from hordes.web.common import (
    COOKIE_MAX_AGE,
    SEAT_COOKIE,
    game_id_param,
    int_field,
    json_body,
    parse_json_object,
    read_body,
    seat_token,
    string_field,
    variant_field,
)
from hordes.web.engine_pool import EngineBusy
from hordes.web.games import MAX_LEVEL, MIN_LEVEL, Created, GameError, IllegalMove
from hordes.web.live import Live
from hordes.web.positions import position_view, variant_info

MAX_LINE = 1000  # moves in a stateless position request
MAX_EVAL_LINE = 300  # positions evaluated for one graph
PGN_BODY = 64 * 1024  # a PGN import may be longer than other requests
MAX_LIST = 200  # games in one listing
MAX_HEADERS = 32  # tags of a PGN export
MAX_HEADER_VALUE = 1000  # characters of one tag's value
TAG_NAME = re.compile(r"[A-Za-z0-9_]{1,64}")  # what the PGN writer can write
DERIVED_TAGS = ("Variant", "FEN", "SetUp")  # written from the line itself, never from the client
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
MAX_GRAPH_SECONDS = 30.0  # engine seconds (summed over positions) for one evaluation graph


def live(request: Request) -> Live:
    value: Live = request.app.state.live
    return value


# ----- creating games --------------------------------------------------------------------------------
def create_spec(body: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """Lobby choices -> the service's create() arguments and the creator's colour."""
    variant = variant_field(body)
    fen = string_field(body, "fen", None, limit=1000) or None
    color = string_field(body, "color", "white") or "white"
    opponent = string_field(body, "opponent", "engine") or "engine"
    if color == "random":
        color = random.choice(("white", "black"))
    if color not in ("white", "black"):
        raise GameError("'color' must be white, black or random", code="bad_request")
    if opponent not in ("engine", "friend"):
        raise GameError("'opponent' must be engine or friend", code="bad_request")
    level = int_field(body.get("level", 1), "level", MIN_LEVEL, MAX_LEVEL, code="bad_level")
    other = "engine" if opponent == "engine" else "human"
    kinds = {"white": "human", "black": other} if color == "white" else {"white": other, "black": "human"}
    return {
        "variant": variant,
        "fen": fen,
        "level": level if opponent == "engine" else None,
        "creator": color,
        **kinds,
    }, color


async def create_game(request: Request, body: dict[str, Any]) -> tuple[Created, str]:
    spec, color = create_spec(body)
    created = await run_in_threadpool(lambda: request.app.state.games.create(**spec))
    live(request).schedule_engine(created.id)  # the engine may have the first move
    return created, color


def set_seat_cookie(response: Response, game_id: str, token: str) -> None:
    response.set_cookie(
        SEAT_COOKIE + game_id, token, max_age=COOKIE_MAX_AGE, path="/", httponly=True, samesite="lax"
    )


async def api_create_game(request: Request) -> Response:
    created, color = await create_game(request, await json_body(request))
    state = await run_in_threadpool(lambda: request.app.state.games.state(created.id, created.tokens[color]))
    base = str(request.base_url).rstrip("/")
    out: dict[str, Any] = {
        "id": created.id,
        "seat": color,
        "token": created.tokens[color],
        "url": f"{base}/game/{created.id}?token={created.tokens[color]}",
        "game": state,
    }
    other = "black" if color == "white" else "white"
    if other in created.tokens:
        out["invite_token"] = created.tokens[other]
        out["invite_url"] = f"{base}/game/{created.id}?token={created.tokens[other]}"
    response = JSONResponse(out, status_code=201)
    set_seat_cookie(response, created.id, created.tokens[color])
    return response


# ----- one game --------------------------------------------------------------------------------------
async def api_list_games(request: Request) -> Response:
    n = int_field(request.query_params.get("limit", "50"), "limit", 1, MAX_LIST)
    return JSONResponse({"games": await run_in_threadpool(lambda: request.app.state.games.recent(n))})


async def api_get_game(request: Request) -> Response:
    game_id = game_id_param(request)
    token = seat_token(request, game_id)
    return JSONResponse(await run_in_threadpool(lambda: request.app.state.games.state(game_id, token)))


async def api_move(request: Request) -> Response:
    game_id = game_id_param(request)
    body = await json_body(request)
    if "uci" not in body:
        raise GameError("the body needs 'uci', the move in UCI notation (e.g. \"e2e4\")", code="bad_move")
    event = await live(request).move(
        game_id, seat_token(request, game_id, body), body.get("uci"), body.get("ply")
    )
    return JSONResponse(event)


async def api_resign(request: Request) -> Response:
    game_id = game_id_param(request)
    raw = await read_body(request)
    body = parse_json_object(raw) if raw.strip() else {}
    return JSONResponse(await live(request).resign(game_id, seat_token(request, game_id, body)))


async def api_draw(request: Request) -> Response:
    game_id = game_id_param(request)
    body = await json_body(request)
    event = await live(request).draw(game_id, seat_token(request, game_id, body), body.get("action"))
    return JSONResponse(event)


async def api_pgn(request: Request) -> Response:
    game_id = game_id_param(request)
    site = str(request.base_url).rstrip("/")
    text = await run_in_threadpool(request.app.state.games.pgn, game_id, site)
    headers = {}
    if request.query_params.get("download"):
        headers["Content-Disposition"] = f'attachment; filename="hordes-{game_id}.pgn"'
    return PlainTextResponse(text, media_type="application/x-chess-pgn", headers=headers)


async def api_evaluations(request: Request) -> Response:
    """The engine's evaluation of every position of a finished game, computed once and then stored."""
    game_id = game_id_param(request)
    games = request.app.state.games
    variant, start_fen, moves = await run_in_threadpool(lambda: games.positions(game_id))
    async with live(request).lock(game_id):
        known = await run_in_threadpool(lambda: games.evaluations(game_id))
        missing = [ply for ply in range(min(len(moves), MAX_EVAL_LINE) + 1) if ply not in known]
        if missing:
            fresh = await evaluate_positions(request, variant, start_fen, moves, missing, movetime=0.1)
            await run_in_threadpool(lambda: games.store_evaluations(game_id, fresh))
            known.update({ev["ply"]: ev for ev in fresh})
    return JSONResponse({"id": game_id, "evaluations": [known[p] for p in sorted(known)]})


async def evaluate_positions(
    request: Request, variant: str, start_fen: str, moves: list[str], plies: list[int], movetime: float
) -> list[dict[str, Any]]:
    """Evaluate the positions after each of `plies` moves, as many at once as there are workers."""
    pool = request.app.state.pool
    gate = asyncio.Semaphore(pool.workers)

    async def one(ply: int) -> dict[str, Any]:
        async with gate:
            res = await pool.analyse(variant, start_fen, moves[:ply], movetime)
        return {"ply": ply, "cp": res["cp"], "mate": res["mate"], "best": res["best"], "depth": res["depth"]}

    return list(await asyncio.gather(*(one(p) for p in plies)))


# ----- positions without a game (the analysis board) -------------------------------------------------
def _line(body: dict[str, Any], limit: int = MAX_LINE) -> tuple[Board, list[dict[str, str]], str]:
    """The board of a {variant, fen, moves} request with its moves played, the moves (uci, san, fen
    after) and the start FEN."""
    name = variant_field(body)
    try:
        variant = load_variant(name)
    except HordesError as exc:
        raise GameError(str(exc), code="unknown_variant") from None
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
    body = await json_body(request)
    board, _sans, start_fen = await run_in_threadpool(lambda: _line(body))
    movetime = _number(body, "movetime", 1.0, 0.05, 5.0)
    moves = [board.uci(m) for m in board.move_stack]
    try:
        result = await request.app.state.pool.analyse(board.variant.slug, start_fen, moves, movetime)
    except EngineBusy as exc:
        return JSONResponse({"error": "engine_busy", "message": str(exc)}, status_code=503)
    return JSONResponse(result)


async def api_analysis_line(request: Request) -> Response:
    body = await json_body(request)
    board, _sans, start_fen = await run_in_threadpool(lambda: _line(body, MAX_EVAL_LINE))
    moves = [board.uci(m) for m in board.move_stack]
    # At most about half a minute of engine time for one graph, however long the line.
    movetime = min(_number(body, "movetime", 0.15, 0.02, 0.5), MAX_GRAPH_SECONDS / (len(moves) + 1))
    try:
        evals = await evaluate_positions(
            request, board.variant.slug, start_fen, moves, list(range(len(moves) + 1)), movetime
        )
    except EngineBusy as exc:
        return JSONResponse({"error": "engine_busy", "message": str(exc)}, status_code=503)
    return JSONResponse({"evaluations": evals})


def _number(body: dict[str, Any], name: str, default: float, low: float, high: float) -> float:
    value = body.get(name, default)
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise GameError(f"'{name}' must be a number", code="bad_request")
    return max(low, min(high, float(value)))


async def api_pgn_import(request: Request) -> Response:
    body = parse_json_object(await read_body(request, PGN_BODY))
    text = string_field(body, "pgn", "", limit=PGN_BODY) or ""

    def work() -> dict[str, Any]:
        try:
            game = read_game(text)  # a str is PGN text, never a file name
        except (HordesError, ValueError) as exc:
            raise GameError(f"cannot read the PGN: {exc}", code="bad_pgn") from None
        if game is None:
            raise GameError("no game found in the PGN text", code="bad_pgn")
        if game.error is not None:
            raise GameError(f"cannot read the PGN: {game.error}", code="bad_pgn")
        board = game.start_board()
        moves = []
        for move in game.mainline_moves():
            moves.append({"uci": board.uci(move), "san": san(board, move)})
            board.push(move)
        return {
            "variant": game.variant.slug,
            "start_fen": game.start_fen,
            "moves": moves,
            "headers": game.headers,
        }

    return JSONResponse(await run_in_threadpool(work))


async def api_pgn_export(request: Request) -> Response:
    body = await json_body(request)

    def work() -> str:
        board, _sans, _start = _line(body)
        return write_game(Game.from_board(board, {"Event": "Analysis", **_export_headers(body)}))

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


async def api_variants(request: Request) -> Response:
    return JSONResponse({"variants": [variant_info(v) | {"summary": v.summary} for v in builtin_variants()]})
