"""The JSON API of games: create, read, move, resign, draw, claim, takeback, rematch, abort, PGN,
evaluations (the analysis board's positions, engine lines and PGN trees are analysis.py's).

Every handler answers errors as `{"error": "<code>", "message": "<what is wrong>"}` with a 4xx
status, and changes nothing when it refuses. The OpenAPI description of all of this is in openapi.py.
"""

from __future__ import annotations

import random
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response

from hordes.web import offers
from hordes.web.accounts import viewer
from hordes.web.analysis import MAX_EVAL_LINE, evaluate_positions, white_first
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
from hordes.web.games import MAX_LEVEL, MIN_LEVEL, Created, GameError
from hordes.web.judgement import with_judgements
from hordes.web.live import Live
from hordes.web.ratelimit import rate_limit

MAX_LIST = 200  # games in one listing
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
    evaluations = with_judgements([known[p] for p in sorted(known)], white_first(start_fen))
    return JSONResponse({"id": game_id, "evaluations": evaluations})
