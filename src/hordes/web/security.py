"""Cross-site protection and security headers for every HTTP response.

A browser attaches this site's cookies (the seat cookies) to requests that other sites' pages make,
so a state-changing request (POST, PUT, PATCH, DELETE) is accepted only when it cannot have come
from another site:

- an Origin header, if present, must be this server's own origin (web/origins.py): the configured
  `--base-url` when there is one, else the request's scheme and Host;
- `/api/*` calls carry JSON: another site's page can send a form or `text/plain` without a CORS
  preflight, but not `application/json` (the preflight fails: this server answers no CORS);
- HTML form posts (every other path) must show a same-origin Origin (or, without one, Referer) and
  a CSRF token: the random value of the `hordes_csrf` cookie repeated in the form's hidden field
  (`{{ csrf_field() }}` in a template) or in an X-CSRF-Token header (double submit: another site
  can make the browser send the cookie but can neither read it nor guess it).

Every response (pages, JSON, static files, errors) gets the headers of HEADERS: a Content-Security-
Policy allowing only this origin's scripts, styles, images and connections and no inline script or
style, nosniff, a same-origin Referrer-Policy and no framing.
"""

from __future__ import annotations

import hmac
import re
import secrets
from dataclasses import dataclass
from urllib.parse import parse_qs

import jinja2
from markupsafe import Markup
from starlette.datastructures import Headers, MutableHeaders
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from hordes.web.common import MAX_BODY
from hordes.web.origins import same_origin
from hordes.web.pages import error_page

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
}
STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
CSRF_COOKIE = "hordes_csrf"
CSRF_FIELD = "csrf_token"
CSRF_HEADER = "x-csrf-token"
CSRF_MAX_AGE = 60 * 60 * 24 * 90
_TOKEN = re.compile(r"[A-Za-z0-9_-]{43}")  # secrets.token_urlsafe(32)
_SCOPE_KEY = "hordes.csrf"  # this request's CSRF state, kept in the ASGI scope for the templates


class Refused(Exception):
    """A request this module refuses: HTTP status, error code, message."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


# ----- origins (web/origins.py) ------------------------------------------------------------------


def check_origin(conn: HTTPConnection, *, required: bool) -> None:
    """Refuse (403) a foreign Origin; with `required`, also a request that shows neither Origin nor
    Referer (a same-origin Referer stands in for a missing Origin)."""
    origin = conn.headers.get("origin")
    if origin is None and required:
        origin = conn.headers.get("referer")
        if origin is None:
            raise Refused(403, "cross_origin", "a form post without an Origin or Referer header is refused")
    if origin is not None and not same_origin(conn, origin):
        raise Refused(403, "cross_origin", f"a request from {origin[:100]!r} to this site is refused")


def check_json_type(headers: Headers) -> None:
    """Refuse (415) an API call whose body is not declared as JSON."""
    ctype = headers.get("content-type")
    has_body = headers.get("content-length", "0") != "0" or "transfer-encoding" in headers
    if ctype is None and not has_body:
        return  # a call without a body (e.g. a resignation by curl -X POST)
    if ctype is None or ctype.split(";", 1)[0].strip().lower() != "application/json":
        raise Refused(
            415,
            "unsupported_media_type",
            f"the API takes a JSON body with Content-Type: application/json, not {ctype or 'none'!r}",
        )


# ----- CSRF tokens ---------------------------------------------------------------------------------


@dataclass
class _Csrf:
    token: str | None  # from the request's cookie, if it holds a well-formed one
    issued: bool = False  # a new token was handed to a form: the response sets the cookie


def _csrf_state(conn: HTTPConnection) -> _Csrf:
    state = conn.scope.get(_SCOPE_KEY)
    if not isinstance(state, _Csrf):
        cookie = conn.cookies.get(CSRF_COOKIE, "")
        state = _Csrf(cookie if _TOKEN.fullmatch(cookie) else None)
        conn.scope[_SCOPE_KEY] = state
    return state


def csrf_token(conn: HTTPConnection) -> str:
    """This browser's CSRF token, made (and set as a cookie by the middleware) on first use."""
    state = _csrf_state(conn)
    if state.token is None:
        state.token = secrets.token_urlsafe(32)
        state.issued = True
    return state.token


@jinja2.pass_context
def csrf_field(context: jinja2.runtime.Context) -> Markup:
    """`{{ csrf_field() }}` inside a <form method="post">: the hidden field the middleware checks."""
    token = csrf_token(context["request"])
    return Markup('<input type="hidden" name="{}" value="{}">').format(CSRF_FIELD, token)


def check_csrf(conn: HTTPConnection, body: bytes) -> None:
    """Refuse (403) a form post whose token (field or header) is not the one in its cookie."""
    cookie = conn.cookies.get(CSRF_COOKIE, "")
    sent = conn.headers.get(CSRF_HEADER)
    if sent is None and conn.headers.get("content-type", "").lower().startswith(
        "application/x-www-form-urlencoded"
    ):
        try:
            fields = parse_qs(body.decode("utf-8", "replace"), max_num_fields=50)
        except ValueError:
            raise Refused(400, "bad_form", "the form has more than 50 fields") from None
        sent = next(iter(fields.get(CSRF_FIELD, [])), None)
    if not _TOKEN.fullmatch(cookie):
        raise Refused(
            403, "csrf", "this browser has no form token yet: reload the page and send the form again"
        )
    if not sent or not hmac.compare_digest(sent.encode(), cookie.encode()):
        raise Refused(
            403, "csrf", "the form's token is missing or stale: reload the page and send the form again"
        )


# ----- the middleware ------------------------------------------------------------------------------


class SecurityMiddleware:
    """Refuses cross-site writes (see the module's docstring) and adds HEADERS to every response."""

    def __init__(self, app: ASGIApp, max_form: int = MAX_BODY) -> None:
        self.app = app
        self.max_form = max_form

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        conn = HTTPConnection(scope)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in HEADERS.items():
                    if name not in headers:
                        headers[name] = value
                state = scope.get(_SCOPE_KEY)
                if isinstance(state, _Csrf) and state.issued and state.token:
                    secure = "; Secure" if conn.url.scheme == "https" else ""
                    headers.append(
                        "Set-Cookie",
                        f"{CSRF_COOKIE}={state.token}; Max-Age={CSRF_MAX_AGE}; Path=/; "
                        f"SameSite=Strict; HttpOnly{secure}",
                    )
            await send(message)

        try:
            if scope["method"] in STATE_CHANGING:
                receive = await self._check(conn, receive)
        except Refused as exc:
            response = await self._refusal(conn, exc)
            await response(scope, receive, send_with_headers)
            return
        await self.app(scope, receive, send_with_headers)

    async def _check(self, conn: HTTPConnection, receive: Receive) -> Receive:
        """Check a state-changing request; return the `receive` for the app (a form's body is read
        here, so the app gets it replayed)."""
        if conn.url.path.startswith("/api/"):
            check_origin(conn, required=False)
            check_json_type(conn.headers)
            return receive
        check_origin(conn, required=True)
        body = await self._read_body(conn, receive)
        check_csrf(conn, body)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        return replay

    async def _read_body(self, conn: HTTPConnection, receive: Receive) -> bytes:
        declared = conn.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > self.max_form:
            raise Refused(413, "too_large", f"the form is over {self.max_form} bytes")
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break  # the client went away; the app sees an empty body
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_form:
                raise Refused(413, "too_large", f"the form is over {self.max_form} bytes")
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        return b"".join(chunks)

    async def _refusal(self, conn: HTTPConnection, exc: Refused) -> Response:
        if conn.url.path.startswith("/api/"):
            return JSONResponse({"error": exc.code, "message": exc.message}, status_code=exc.status)
        return error_page(Request(conn.scope), exc.status, exc.message)


def install(templates: jinja2.Environment) -> None:
    """Make `csrf_field()` available to every template."""
    templates.globals["csrf_field"] = csrf_field
