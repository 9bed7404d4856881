"""The JSON API: games (create, read, move, resign, draw, claim, takeback, rematch, abort, PGN,
evaluations) and stateless positions.

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

from hordes import Board, HordesError
from hordes.notation.pgn import Game, parse_game, write_game
from hordes.notation.san import san
from hordes.web import offers
from hordes.web.accounts import viewer
from hordes.web.clocks import MIN_BASE, form_clock, parse_clock
from hordes.web.common import (
    COOKIE_MAX_AGE,
    SEAT_COOKIE,
    game_id_param,
    int_field,
    json_body,
    parse_json_object,
    read_body,
    seat_token,
    site_url,
    string_field,
    variant_field,
)
from hordes.web.games import MAX_LEVEL, MIN_LEVEL, Created, GameError, IllegalMove
from hordes.web.live import Live
from hordes.web.positions import position_view, variant_info
from hordes.web.ratelimit import client_of, rate_limit
from hordes.web.variants import playable, web_variant

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
GAME_GRAPH_MOVETIME = 0.1  # engine seconds per position of a finished game's graph


def live(request: Request) -> Live:
    value: Live = request.app.state.live
    return value


# ----- creating games --------------------------------------------------------------------------------
def create_spec(body: dict[str, Any], min_base: float = MIN_BASE) -> tuple[dict[str, Any], str]:
    """Lobby choices -> the service's create() arguments and the creator's colour. `clock` is an
    object from the API, or the lobby form's select (clocks.form_clock); absent: untimed."""
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
    choice = body.get("clock")
    clock = parse_clock(form_clock(body) if isinstance(choice, str) else choice, min_base)
    return {
        "variant": variant,
        "fen": fen,
        "level": level if opponent == "engine" else None,
        "creator": color,
        "rated": rated_field(body.get("rated", False)),
        "clock": clock,
        **kinds,
    }, color


def rated_field(value: object) -> bool:
    """`rated`: a JSON boolean, or a form checkbox ("1" / "on" when ticked)."""
    if isinstance(value, bool):
        return value
    if value in ("1", "on", "true"):
        return True
    if value in ("", "0", "off", "false"):
        return False
    raise GameError("'rated' must be true or false", code="bad_request")


async def create_game(request: Request, body: dict[str, Any]) -> tuple[Created, str]:
    rate_limit(request, "create")  # the API and the lobby form share the limit
    spec, color = create_spec(body, request.app.state.clock_min_base)
    user = await run_in_threadpool(viewer, request)
    spec["user"] = user.id if user else None
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
    out: dict[str, Any] = {
        "id": created.id,
        "seat": color,
        "token": created.tokens[color],
        "url": seat_url(request, created.id, created.tokens[color]),
        "game": state,
    }
    if created.invite:
        out["invite_token"] = created.invite
        out["invite_url"] = invite_url(request, created.id, created.invite)
    response = JSONResponse(out, status_code=201)
    set_seat_cookie(response, created.id, created.tokens[color])
    return response


def seat_url(request: Request, game_id: str, token: str) -> str:
    """The seat holder's own link: opening it elsewhere carries the seat to that browser."""
    return f"{site_url(request)}/game/{game_id}?token={token}"


def invite_url(request: Request, game_id: str, invite: str) -> str:
    """The friend's link: whoever joins through it first takes the seat."""
    return f"{site_url(request)}/game/{game_id}?invite={invite}"


async def api_join(request: Request) -> Response:
    """Claim the friend's seat with its invitation: {"invite": TOKEN} -> the seat and its token."""
    game_id = game_id_param(request)
    body = await json_body(request)
    invite = string_field(body, "invite", None, limit=128)
    user = await run_in_threadpool(viewer, request)
    joined = await live(request).join(
        game_id, invite, seat_token(request, game_id), user.id if user else None
    )
    url = seat_url(request, game_id, joined.token)
    response = JSONResponse({"id": game_id, "seat": joined.seat, "token": joined.token, "url": url})
    set_seat_cookie(response, game_id, joined.token)
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


async def api_claim(request: Request) -> Response:
    """After the opponent has left a running clock game for a while: {"outcome": "win"|"draw"}."""
    game_id = game_id_param(request)
    body = await json_body(request)
    event = await live(request).claim(game_id, seat_token(request, game_id, body), body.get("outcome"))
    return JSONResponse(event)


async def api_takeback(request: Request) -> Response:
    """{"action": "offer"|"accept"|"decline"|"cancel"}: ask to take back your last move, or answer."""
    game_id = game_id_param(request)
    body = await json_body(request)
    token = seat_token(request, game_id, body)
    return JSONResponse(await live(request).offer(game_id, token, "takeback", body.get("action")))


async def api_rematch(request: Request) -> Response:
    """{"action": ...} after the game: offer, accept, decline or cancel a rematch. The answer that
    creates it carries your seat in the new game (`seat`, `token`, `url`) and sets its cookie."""
    game_id = game_id_param(request)
    body = await json_body(request)
    token = seat_token(request, game_id, body)
    event = await live(request).offer(game_id, token, "rematch", body.get("action"), request)
    if event["action"] != "accept":
        return JSONResponse(event)
    return await _with_rematch_seat(request, game_id, token, event)


async def api_rematch_seat(request: Request) -> Response:
    """The rematch of a game; for one of its players, once created, their seat in it (the page reads
    this when the websocket says the rematch exists; its cookie is set here)."""
    game_id = game_id_param(request)
    return await _with_rematch_seat(request, game_id, seat_token(request, game_id), {})


async def _with_rematch_seat(
    request: Request, game_id: str, token: str | None, out: dict[str, Any]
) -> Response:
    games = request.app.state.games
    seat = await run_in_threadpool(offers.rematch_seat, games, game_id, token)
    new_token = seat.pop("token", None)
    out = {**out, **seat} if out else seat
    if new_token:
        out.update(token=new_token, url=seat_url(request, seat["rematch"], new_token))
    response = JSONResponse(out)
    if new_token:
        set_seat_cookie(response, seat["rematch"], new_token)
    return response


async def api_abort(request: Request) -> Response:
    """End the game without a result, before both sides have moved."""
    game_id = game_id_param(request)
    raw = await read_body(request)
    body = parse_json_object(raw) if raw.strip() else {}
    return JSONResponse(await live(request).abort(game_id, seat_token(request, game_id, body)))


async def api_pgn(request: Request) -> Response:
    game_id = game_id_param(request)
    text = await run_in_threadpool(request.app.state.games.pgn, game_id, site_url(request))
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
        if missing:  # only computing costs: a stored graph is free
            rate_limit(request, "graph", len(missing) * GAME_GRAPH_MOVETIME)
            fresh = await evaluate_positions(
                request, variant, start_fen, moves, missing, movetime=GAME_GRAPH_MOVETIME
            )
            await run_in_threadpool(lambda: games.store_evaluations(game_id, fresh))
            known.update({ev["ply"]: ev for ev in fresh})
    return JSONResponse({"id": game_id, "evaluations": [known[p] for p in sorted(known)]})


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


# ----- positions without a game (the analysis board) -------------------------------------------------
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
    body = await json_body(request)
    board, _sans, start_fen = await run_in_threadpool(lambda: _line(body))
    movetime = _number(body, "movetime", 1.0, 0.05, 5.0)
    rate_limit(request, "analysis", movetime)
    moves = [board.uci(m) for m in board.move_stack]
    pool = request.app.state.pool
    result = await pool.analyse(board.variant.slug, start_fen, moves, movetime, client=client_of(request))
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
    return JSONResponse({"evaluations": evals})


def _number(body: dict[str, Any], name: str, default: float, low: float, high: float) -> float:
    value = body.get(name, default)
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise GameError(f"'{name}' must be a number", code="bad_request")
    return max(low, min(high, float(value)))


async def api_pgn_import(request: Request) -> Response:
    raw = await read_body(request, PGN_BODY)
    rate_limit(request, "pgn", len(raw) / 1024)  # reading costs about 0.5 s of CPU per 64 KB
    body = parse_json_object(raw)
    text = string_field(body, "pgn", "", limit=PGN_BODY) or ""

    def work() -> dict[str, Any]:
        if not text.strip():
            raise GameError("no game found in the PGN text", code="bad_pgn")
        try:
            game = parse_game(text)  # the first game of the text; raises the error of a broken one
        except (HordesError, ValueError) as exc:
            raise GameError(f"cannot read the PGN: {exc}", code="bad_pgn") from None
        board = game.start_board()
        moves = []
        for move in game.mainline_moves():
            moves.append({"uci": board.uci(move), "san": san(board, move)})
            board.push(move)
        return {
            "variant": game.variant.slug,
            "start_fen": game.start_fen,
            "moves": moves,
            "headers": dict(game.headers),
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
    return JSONResponse({"variants": [variant_info(v) | {"summary": v.summary} for v in playable()]})
