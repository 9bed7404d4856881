"""Accounts and players over HTTP: the JSON API (/api/account/*, /api/users/*) and the pages
(/signup, /login, /logout, the player page /@/{username}).

The pages are plain forms (CSRF-checked by security.py like every form of the site); the API takes
JSON. Both log in through `_login`, which applies the login limits: a failed attempt costs one unit
of its client's bucket and one of its username's (ratelimit.py), and an empty bucket answers 429
with Retry-After before the password is even looked at. A password is never logged, echoed in an
error, or put back into a form.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlencode

from markupsafe import Markup
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response

from hordes.web import players
from hordes.web.accounts import (
    AccountService,
    BadCredentials,
    NotLoggedIn,
    User,
    check_password,
    check_username,
    clear_session_cookie,
    fold,
    forget_viewer,
    service,
    set_session_cookie,
    viewer,
)
from hordes.web.common import MAX_BODY, int_field, json_body, read_body
from hordes.web.errors import GameError, NotFound
from hordes.web.pages import render
from hordes.web.ratelimit import RateLimited, RateLimiter, client_of, rate_limit
from hordes.web.rating_plot import rating_svg
from hordes.web.variants import VariantUnavailable, playable, stored_variant

MAX_PAGE = 10_000


def _limiter(request: Request) -> RateLimiter | None:
    limiter: RateLimiter | None = getattr(request.app.state, "limiter", None)
    return limiter


async def _login(request: Request, username: object, password: object) -> User:
    """The account if the password is right; BadCredentials (401) or RateLimited (429) if not."""
    limiter = _limiter(request)
    name_key = fold(username)[:40] if isinstance(username, str) else ""
    if limiter is not None:
        limiter.check("login", client_of(request))
        limiter.check("login_name", name_key)
    accounts: AccountService = service(request)
    try:
        return await run_in_threadpool(accounts.authenticate, username, password)
    except BadCredentials:
        if limiter is not None:  # charged only now: a right password never costs anything
            limiter.take("login", client_of(request))
            limiter.take("login_name", name_key)
        raise


async def _signup(request: Request, username: object, password: object) -> User:
    check_username(username)
    check_password(password)
    rate_limit(request, "signup")  # after the cheap checks, before the costly hash
    accounts = service(request)
    return await run_in_threadpool(accounts.signup, username, password)


async def _open_session(request: Request, response: Response, user: User) -> None:
    cookie = await run_in_threadpool(service(request).open_session, user)
    set_session_cookie(request, response, cookie)
    forget_viewer(request, user)


def _account_json(user: User) -> dict[str, Any]:
    return {
        "username": user.username,
        "url": f"/@/{user.username}",
        "created_at": user.created_at.isoformat() if user.created_at else None,
    }


# ----- the JSON API ---------------------------------------------------------------------------------
async def api_signup(request: Request) -> Response:
    body = await json_body(request)
    user = await _signup(request, body.get("username"), body.get("password"))
    response = JSONResponse(_account_json(user), status_code=201)
    await _open_session(request, response, user)
    return response


async def api_login(request: Request) -> Response:
    body = await json_body(request)
    user = await _login(request, body.get("username"), body.get("password"))
    response = JSONResponse(_account_json(user))
    await _open_session(request, response, user)
    return response


async def api_logout(request: Request) -> Response:
    await run_in_threadpool(service(request).close_session, request.cookies.get("hordes_session"))
    response = JSONResponse({"logged_in": False})
    clear_session_cookie(request, response)
    return response


async def api_account(request: Request) -> Response:
    user = await run_in_threadpool(viewer, request)
    if user is None:
        raise NotLoggedIn("not logged in: POST /api/account/login first (the session is a cookie)")
    return JSONResponse(_account_json(user))


async def api_password(request: Request) -> Response:
    """Change the password: every session of the account ends, this client gets a new one."""
    body = await json_body(request)
    user = await run_in_threadpool(viewer, request)
    if user is None:
        raise NotLoggedIn("log in to change your password")
    accounts = service(request)
    limiter = _limiter(request)
    if limiter is not None:
        limiter.check("login", client_of(request))
    try:
        await run_in_threadpool(
            accounts.change_password, user, body.get("current_password"), body.get("new_password")
        )
    except BadCredentials:
        if limiter is not None:
            limiter.take("login", client_of(request))
        raise
    response = JSONResponse(_account_json(user))
    await _open_session(request, response, user)
    return response


def _user_or_404(request: Request) -> User:
    name = str(request.path_params["username"])
    user = service(request).user_by_name(name) if 2 <= len(name) <= 20 else None
    if user is None:
        raise NotFound(f"no player {name[:20]!r}")
    return user


def _filters(request: Request) -> tuple[str | None, str | None, int]:
    q = request.query_params
    variant = q.get("variant") or None
    if variant is not None and variant not in {v.slug for v in playable()}:
        raise GameError(f"'variant' {variant[:40]!r} is not a variant of this site", code="bad_variant")
    result = q.get("result") or None
    if result is not None and result not in players.RESULT_FILTERS:
        raise GameError("'result' must be win, draw or loss", code="bad_request")
    page = int_field(q.get("page", "1"), "page", 1, MAX_PAGE)
    return variant, result, page


def _profile(request: Request, user: User) -> dict[str, Any]:
    engine = request.app.state.db
    ratings = players.ratings_of(engine, user.id)
    playing, _ = players.games_of(engine, user.id, finished=False, per_page=50)
    return {
        **_account_json(user),
        "results": players.results(engine, user.id),
        "ratings": {v: {k: x for k, x in r.items() if k != "history"} for v, r in ratings.items()},
        "playing": playing,
    }


async def api_user(request: Request) -> Response:
    def work() -> dict[str, Any]:
        return _profile(request, _user_or_404(request))

    return JSONResponse(await run_in_threadpool(work))


async def api_user_games(request: Request) -> Response:
    variant, result, page = _filters(request)

    def work() -> dict[str, Any]:
        user = _user_or_404(request)
        games, total = players.games_of(
            request.app.state.db, user.id, finished=True, variant=variant, result=result, page=page
        )
        per = players.GAMES_PER_PAGE
        return {"username": user.username, "games": games, "total": total, "page": page,
                "pages": max(1, -(-total // per))}  # fmt: skip

    return JSONResponse(await run_in_threadpool(work))


async def api_user_ratings(request: Request) -> Response:
    def work() -> dict[str, Any]:
        user = _user_or_404(request)
        return {"username": user.username, "ratings": players.ratings_of(request.app.state.db, user.id)}

    return JSONResponse(await run_in_threadpool(work))


# ----- pages -------------------------------------------------------------------------------------------
async def _form(request: Request) -> dict[str, str]:
    raw = await read_body(request, MAX_BODY)
    try:
        query = parse_qs(raw.decode("utf-8", "replace"), max_num_fields=10)
    except ValueError:
        raise GameError("the form has more than 10 fields") from None
    return {k: v[0] for k, v in query.items()}


def _next(fields: dict[str, str] | Any) -> str:
    """Where to go after logging in: a path of this site only (never another site's address)."""
    target = str(fields.get("next") or "/")
    return target if target.startswith("/") and not target.startswith("//") and "\\" not in target else "/"


async def signup_page(request: Request) -> Response:
    return render(
        request, "account.html", mode="signup", error=None, form={"next": _next(request.query_params)}
    )


async def login_page(request: Request) -> Response:
    return render(
        request, "account.html", mode="login", error=None, form={"next": _next(request.query_params)}
    )


async def signup_submit(request: Request) -> Response:
    return await _submit(request, "signup")


async def login_submit(request: Request) -> Response:
    return await _submit(request, "login")


async def _submit(request: Request, mode: str) -> Response:
    fields: dict[str, str] = {}
    try:
        fields = await _form(request)
        username, password = fields.get("username", ""), fields.get("password", "")
        if mode == "signup":
            user = await _signup(request, username, password)
        else:
            user = await _login(request, username, password)
    except (GameError, RateLimited) as exc:
        form = {"username": str(fields.get("username", ""))[:40], "next": _next(fields)}  # no password
        response: Response = render(
            request, "account.html", status=exc.status, mode=mode, error=exc.message, form=form
        )
        if isinstance(exc, RateLimited):
            response.headers["Retry-After"] = str(max(1, int(exc.retry_after)))
        return response
    response = RedirectResponse(_next(fields), status_code=303)
    await _open_session(request, response, user)
    return response


async def logout_submit(request: Request) -> Response:
    await run_in_threadpool(service(request).close_session, request.cookies.get("hordes_session"))
    response = RedirectResponse("/", status_code=303)
    clear_session_cookie(request, response)
    return response


def _title(slug: str) -> str:
    try:
        return stored_variant(slug).title
    except VariantUnavailable:
        return slug


async def player_page(request: Request) -> Response:
    variant, result, page = _filters(request)

    def work() -> dict[str, Any]:
        user = _user_or_404(request)
        engine = request.app.state.db
        ratings = players.ratings_of(engine, user.id)
        for slug, r in ratings.items():
            r["title"] = _title(slug)
            r["plot"] = Markup(rating_svg(r["history"], f"{user.username}'s {_title(slug)} rating"))
        games, total = players.games_of(
            engine, user.id, finished=True, variant=variant, result=result, page=page
        )
        playing, _ = players.games_of(engine, user.id, finished=False, per_page=50)
        for g in games + playing:
            g["variant_title"] = _title(g["variant"])
        pages = max(1, -(-total // players.GAMES_PER_PAGE))

        def link(p: int) -> str:
            query = {k: v for k, v in (("variant", variant), ("result", result)) if v}
            return f"/@/{user.username}?" + urlencode({**query, "page": p})

        return {
            "player": user,
            "ratings": ratings,
            "results": players.results(engine, user.id),
            "games": games,
            "playing": playing,
            "total": total,
            "page": page,
            "pages": pages,
            "prev_link": link(page - 1) if page > 1 else None,
            "next_link": link(page + 1) if page < pages else None,
            "filter": {"variant": variant or "", "result": result or ""},
            "variants": playable(),
        }

    context = await run_in_threadpool(work)
    return render(request, "player.html", **context)
