"""Small pieces shared by the HTTP and websocket handlers: bounded JSON bodies, errors, seat tokens,
and the checks of every field a client sends (strings, integers, variant names, game ids, tokens).

Input is checked here, at the edge, so that nothing malformed reaches the service or the rules: each
refusal is a GameError (a 4xx) that names the field and what is wrong with it.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse

from hordes.web.games import GameError, NotFound

MAX_BODY = 16 * 1024  # bytes: a request body or websocket message larger than this is refused
MAX_DEPTH = 32  # nesting of a JSON body or message; no request needs more than 3
MAX_DIGITS = 9  # of an integer sent as text (a query parameter, a lobby form field)
MAX_INT_DIGITS = 100  # of a JSON integer (int() refuses more than 4,300)
# Game ids are made by games.new_id; a seat token is URL-safe text (secrets.token_urlsafe).
_GAME_ID = re.compile(r"[A-Za-z0-9]{1,16}")
_TOKEN = re.compile(r"[A-Za-z0-9_.~-]{1,128}")
_SURROGATE = re.compile("[\ud800-\udfff]")
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
    declared = request.headers.get("content-length", "")
    # Only ASCII digits, and few enough of them for int(): "²" is a digit to str.isdigit.
    if declared.isascii() and declared.isdigit() and (len(declared) > MAX_DIGITS or int(declared) > limit):
        raise PayloadTooLarge(f"the request body is over {limit} bytes")
    chunks = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise PayloadTooLarge(f"the request body is over {limit} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


# json.loads hooks: their ValueError is reported as "not valid JSON: <why>".
def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {_shorten(text, 20)} is too large")
    return value


def _bounded_int(text: str) -> int:
    if len(text) > MAX_INT_DIGITS:
        raise ValueError(f"a number of {len(text)} digits is too large (at most {MAX_INT_DIGITS})")
    return int(text)


def _shorten(text: str, limit: int = 40) -> str:
    """`text` for an error message: at most `limit` characters, lone surrogates escaped."""
    text = text if len(text) <= limit else text[:limit] + "..."
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def check_json(data: Any, what: str) -> None:
    """Refuse JSON nested deeper than MAX_DEPTH or holding a lone surrogate (`"\\ud800"` is valid
    JSON but not text: it cannot be encoded, stored or compared). Walks without recursion."""
    stack: list[tuple[Any, str, int]] = [(data, "", 0)]  # (value, its path like 'headers.White', depth)
    while stack:
        value, path, depth = stack.pop()
        if isinstance(value, str):
            bad = _SURROGATE.search(value)
            if bad:
                where = f"\\u{ord(bad.group()):04x}" + (f" in '{_shorten(path)}'" if path else "")
                raise GameError(
                    f"{what} holds a lone surrogate {where}; send valid Unicode text", code="bad_json"
                )
        elif isinstance(value, dict | list):
            if depth >= MAX_DEPTH:
                raise GameError(f"{what} is nested deeper than {MAX_DEPTH} levels", code="bad_json")
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, item in items:
                inner = f"{path}.{key}" if path else str(key)
                stack.append((item, inner, depth + 1))
                if isinstance(key, str):
                    stack.append((key, f"{inner} (a key)", depth + 1))


def parse_json_object(raw: bytes | str, what: str = "the request body") -> dict[str, Any]:
    """A JSON object, or GameError naming what is wrong (empty, not UTF-8, not JSON, not an object,
    nested too deeply, not finite numbers, lone surrogates)."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise GameError(f"{what} is not UTF-8 text: {exc}", code="bad_json") from None
    if not raw.strip():
        raise GameError(f"{what} is empty; send a JSON object", code="bad_json")
    try:
        data = json.loads(
            raw, parse_constant=_refuse_constant, parse_float=_finite_float, parse_int=_bounded_int
        )
    except RecursionError:
        raise GameError(f"{what} is nested deeper than {MAX_DEPTH} levels", code="bad_json") from None
    except ValueError as exc:  # json.JSONDecodeError, and integers over 4,300 digits
        raise GameError(f"{what} is not valid JSON: {exc}", code="bad_json") from None
    if not isinstance(data, dict):
        raise GameError(f"{what} must be a JSON object, not {type(data).__name__}", code="bad_json")
    check_json(data, what)
    return data


async def json_body(request: Request) -> dict[str, Any]:
    return parse_json_object(await read_body(request))


def seat_token(conn: HTTPConnection, game_id: str, body: dict[str, Any] | None = None) -> str | None:
    """The seat token a client presents: a JSON field, the X-Seat-Token header or the game's cookie.

    Never a query parameter: a URL ends up in access logs, browser history and Referer headers."""
    if body and isinstance(body.get("token"), str):
        return check_token(str(body["token"]), "the 'token' field")
    header = conn.headers.get(TOKEN_HEADER)
    if header:
        return check_token(header, f"the {TOKEN_HEADER} header")
    cookie = conn.cookies.get(SEAT_COOKIE + game_id)
    # A cookie is not typed by anyone: a damaged one is ignored (a spectator) rather than refused.
    return cookie if cookie and _TOKEN.fullmatch(cookie) else None


def check_token(token: str, where: str) -> str:
    """A seat token as sent, if it can be one (URL-safe characters, at most 128); else 400."""
    if not _TOKEN.fullmatch(token):
        raise GameError(
            f"{where} is not a seat token: tokens are at most 128 letters, digits and -_.~",
            code="bad_token",
        )
    return token


def game_id_param(conn: HTTPConnection) -> str:
    """The {game_id} of the path; an id that no game can have is refused at once (404)."""
    return check_game_id(str(conn.path_params["game_id"]))


def check_game_id(game_id: str) -> str:
    if not _GAME_ID.fullmatch(game_id):
        raise NotFound(f"no game {_shorten(game_id)!r}: game ids are letters and digits")
    return game_id


def variant_field(body: dict[str, Any], name: str = "variant", default: str = "chess") -> str:
    """A variant name from a request, as a string (`web_variant` then finds it on the list)."""
    value = body.get(name, default)
    if value is None or value == "":
        return default
    if not isinstance(value, str):
        raise GameError(f"'{name}' must be a string, the name of a variant", code="bad_request")
    return value  # looked up by web_variant (variants.py): a name on the list, never a path


def int_field(value: object, name: str, low: int, high: int, code: str = "bad_request") -> int:
    """An integer from low to high: a JSON integer (not a boolean) or ASCII digits (form fields and
    query parameters are text)."""
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= MAX_DIGITS:
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise GameError(f"'{name}' must be an integer from {low} to {high}", code=code)
    return value


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
