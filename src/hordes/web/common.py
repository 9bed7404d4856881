"""Small pieces shared by the HTTP and websocket handlers: bounded JSON bodies, errors, seat tokens."""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse

from hordes.web.games import GameError

MAX_BODY = 16 * 1024  # bytes: a request body or websocket message larger than this is refused
SEAT_COOKIE = "hordes_seat_"  # + game id
TOKEN_HEADER = "x-seat-token"
COOKIE_MAX_AGE = 60 * 60 * 24 * 90


class PayloadTooLarge(GameError):
    status = 413
    code = "too_large"


def error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


def game_error(exc: GameError) -> JSONResponse:
    return JSONResponse(exc.as_dict(), status_code=exc.status)


async def read_body(request: Request, limit: int = MAX_BODY) -> bytes:
    """The request body, refusing (413) anything over `limit` without reading it all."""
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > limit:
        raise PayloadTooLarge(f"the request body is over {limit} bytes")
    chunks = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise PayloadTooLarge(f"the request body is over {limit} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


def parse_json_object(raw: bytes | str, what: str = "the request body") -> dict[str, Any]:
    """A JSON object, or GameError naming what is wrong (empty, not JSON, not an object)."""
    if not raw:
        raise GameError(f"{what} is empty; send a JSON object", code="bad_json")
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise GameError(f"{what} is not valid JSON: {exc}", code="bad_json") from None
    if not isinstance(data, dict):
        raise GameError(f"{what} must be a JSON object, not {type(data).__name__}", code="bad_json")
    return data


async def json_body(request: Request) -> dict[str, Any]:
    return parse_json_object(await read_body(request))


def seat_token(conn: HTTPConnection, game_id: str, body: dict[str, Any] | None = None) -> str | None:
    """The seat token a client presents: a JSON field, the X-Seat-Token header or the game's cookie.

    Never a query parameter: a URL ends up in access logs, browser history and Referer headers."""
    if body and isinstance(body.get("token"), str):
        return str(body["token"])
    header = conn.headers.get(TOKEN_HEADER)
    if header:
        return header
    return conn.cookies.get(SEAT_COOKIE + game_id)


def site_url(conn: HTTPConnection) -> str:
    """The site's own address for links it hands out (invitations, seat links, PGN `Site`): the
    configured base URL, never the request's Host header, which the client chooses."""
    base: str = conn.app.state.link_base
    return base


def string_field(
    body: dict[str, Any], name: str, default: str | None = None, limit: int = 4096
) -> str | None:
    value = body.get(name, default)
    if value is None:
        return None
    if not isinstance(value, str):
        raise GameError(f"'{name}' must be a string", code="bad_request")
    if len(value) > limit:
        raise GameError(f"'{name}' is longer than {limit} characters", code="bad_request")
    return value
