"""HTML pages: lobby, game, analysis board, rules pages, recent games, API docs, piece stylesheets.

Pages are server-rendered Jinja2 templates; the board and everything live on them is done by the
ES modules in static/ (chessgroundx is imported from node_modules as is, without a bundler). The
lobby is a plain form, so a game can be started without JavaScript's help.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from functools import lru_cache
from typing import Any
from urllib.parse import parse_qs

from markupsafe import Markup
from sqlalchemy.exc import SQLAlchemyError
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from hordes import Variant
from hordes.web.accounts import User, viewer
from hordes.web.api import create_game, invite_url, seat_url, set_seat_cookie
from hordes.web.clocks import CORRESPONDENCE_DAYS, PRESETS
from hordes.web.common import MAX_BODY, SEAT_COOKIE, check_game_id, game_id_param, read_body
from hordes.web.games import GameError, NotFound
from hordes.web.howto import how_to
from hordes.web.lobby import ensure_player
from hordes.web.openapi import openapi_schema
from hordes.web.pieces import piece_css, piece_svg
from hordes.web.positions import variant_info
from hordes.web.qr import qr_svg
from hordes.web.variant_store import StoredRow, is_stored_name
from hordes.web.variants import UnknownVariant, playable, stored_variant, web_variant

MAX_FORM_FIELDS = 20  # the lobby form has 8


def render(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
    template = request.app.state.templates.get_template(name)
    # `viewer`: the logged-in account (None: anonymous), for the header's log in / log out.
    html = template.render(
        request=request,
        nav_variants=playable(),
        viewer=_viewer(request),
        clock_presets=PRESETS,  # the lobby's time-control select
        correspondence_days=CORRESPONDENCE_DAYS,
        **context,
    )
    return HTMLResponse(html, status_code=status)


def _viewer(request: Request) -> User | None:
    """The logged-in account for the header; an error page still renders if the database fails."""
    try:
        return viewer(request)
    except SQLAlchemyError:
        return None


def _variant_or_404(slug: str) -> Variant:
    try:
        return web_variant(slug)
    except UnknownVariant as exc:
        raise NotFound(exc.message) from None


# The lobby shows the project's own games first; other variant documents follow in their order.
FEATURED = ("orda", "hordes", "khans", "chess")


LOBBY_STORED = 20  # the newest public stored documents offered in the lobby


@dataclass(frozen=True)
class StoredChoice:
    """A stored document as the lobby offers it (not built: the lobby shows many and plays one)."""

    slug: str  # the play name, SLUG~SERIES@VERSION
    title: str
    summary: str


def _choice(row: StoredRow) -> tuple[StoredChoice, Markup]:
    by = f" by {row.author}" if row.author else ""
    return StoredChoice(row.name, row.title, f"A variant document{by}, version {row.version}."), Markup("")


def lobby_variants(
    request: Request, chosen: str | None = None
) -> list[tuple[Variant | StoredChoice, Markup]]:
    """The variants to offer: the built-ins, each with a small picture of its start position, then
    the newest public stored documents (and `chosen`, e.g. an unlisted one a link preselects)."""
    variants = playable()
    variants.sort(key=lambda v: FEATURED.index(v.slug) if v.slug in FEATURED else len(FEATURED))
    out: list[tuple[Variant | StoredChoice, Markup]] = [(v, Markup(_thumbnail(v))) for v in variants]
    store = request.app.state.variant_store
    rows = store.public(LOBBY_STORED)
    if chosen and is_stored_name(chosen) and all(chosen not in (r.name, r.series) for r in rows):
        with contextlib.suppress(NotFound):
            rows.insert(0, store.find(chosen))
    return out + [_choice(row) for row in rows]


@lru_cache(maxsize=128)  # bounded: stored variants come and go (variant_store.py)
def _thumbnail(variant: Variant) -> str:
    try:
        from hordes import Board
        from hordes.svg import board

        return board(Board(variant), size=84, coordinates=False, id_prefix=f"thumb-{variant.slug}-")
    except Exception:  # a picture is a nicety: the lobby works without it
        return ""


async def lobby(request: Request) -> Response:
    recent = await run_in_threadpool(request.app.state.games.recent, 12)
    form = dict(request.query_params)  # /?variant=orda preselects a variant
    variants = await run_in_threadpool(lobby_variants, request, form.get("variant"))
    response = render(request, "lobby.html", variants=variants, recent=recent, error=None, form=form)
    ensure_player(request, response)  # the lobby socket then knows this browser's seeks
    return response


async def lobby_create(request: Request) -> Response:
    """The lobby form: create the game, give this browser its seat cookie, open the game page."""
    raw = await read_body(request, MAX_BODY)
    fields: dict[str, str] = {}
    try:
        try:
            query = parse_qs(raw.decode("utf-8", "replace"), max_num_fields=MAX_FORM_FIELDS)
        except ValueError:  # more fields than max_num_fields
            raise GameError(f"the form has more than {MAX_FORM_FIELDS} fields") from None
        fields = {k: v[0] for k, v in query.items()}
        created, color = await create_game(request, fields)
    except GameError as exc:
        recent = await run_in_threadpool(request.app.state.games.recent, 12)
        variants = await run_in_threadpool(lobby_variants, request, fields.get("variant"))
        return render(
            request,
            "lobby.html",
            status=400,
            variants=variants,
            recent=recent,
            error=exc.message,
            form=fields,
        )
    response = RedirectResponse(f"/game/{created.id}", status_code=303)
    set_seat_cookie(response, created.id, created.tokens[color])
    return response


# What a visitor is told about the link that brought them (nothing is changed by a link that fails).
LINK_NOTICES = {
    "bad_seat_link": "This seat link does not belong to this game, so nothing was changed.",
    "seat_taken": "The seat of this invitation has been taken: you are watching the game.",
    "bad_invite": "This invitation does not match this game: you are watching it.",
    "own_invite": "This is your own invitation: send it to your friend.",
}


async def game_page(request: Request) -> Response:
    game_id = game_id_param(request)
    games = request.app.state.games
    token = request.query_params.get("token")
    notice = None
    if token:
        # A seat link, opened on another device or browser: keep the seat in this browser's cookie and
        # show a clean address, so the token does not stay in the address bar, the history or a
        # Referer. A token that is no seat of this game changes nothing (it must not wipe a seat).
        row = await run_in_threadpool(games.row, game_id)
        if games.seat(row, token) is not None:
            response: Response = RedirectResponse(f"/game/{game_id}", status_code=303)
            set_seat_cookie(response, game_id, token)
            return response
        notice = LINK_NOTICES["bad_seat_link"]
    held = request.cookies.get(SEAT_COOKIE + game_id)
    state = await run_in_threadpool(games.state, game_id, held)
    joining = None
    invite = request.query_params.get("invite")
    if invite:
        verdict = await run_in_threadpool(games.invitation, game_id, invite)
        if state.get("seat"):
            notice = LINK_NOTICES["own_invite"] if verdict != "invalid" else None
        elif verdict == "open":
            joining = {"invite": invite, "seat": state.get("waiting_for")}
        else:
            notice = LINK_NOTICES["seat_taken" if verdict == "taken" else "bad_invite"]
    invitation = None
    if state.get("seat") and state.get("invite_token"):
        link = invite_url(request, game_id, state["invite_token"])
        invitation = {"url": link, "qr": qr_svg(link, "QR code of the invitation")}
    carry = None
    if state.get("seat") and held:
        link = seat_url(request, game_id, held)
        carry = {"url": link, "qr": qr_svg(link, "QR code of your seat link")}
    state.pop("invite_token", None)
    return render(
        request,
        "game.html",
        state=state,
        variant=stored_variant(state["variant"]["slug"]),
        invite=invitation,
        carry=carry,
        joining=joining,
        notice=notice,
    )


async def analysis_page(request: Request) -> Response:
    q = request.query_params
    slug = q.get("variant", "chess")
    start: dict[str, Any] = {"variant": slug, "fen": q.get("fen") or None, "moves": []}
    game_id = q.get("game")
    if game_id:
        check_game_id(game_id)
        state = await run_in_threadpool(request.app.state.games.state, game_id, None)
        slug = state["variant"]["slug"]
        start = {
            "variant": slug,
            "fen": state["start_fen"],
            "moves": [m["uci"] for m in state["moves"]],
            "game": game_id,
            "over": state["status"] == "over",  # the page then shows the judged moves
        }
    variant = _variant_or_404(slug)
    return render(
        request,
        "analysis.html",
        start=start,
        variant=variant,
        info=variant_info(variant),
        variants=playable() + ([variant] if is_stored_name(variant.slug) else []),
    )


async def variants_page(request: Request) -> Response:
    return render(request, "variants.html", variants=playable())


async def variant_page(request: Request) -> Response:
    variant = _variant_or_404(request.path_params["slug"])
    return render(
        request, "rules.html", variant=variant, article=Markup(_article(variant)), how_to=how_to(variant)
    )


@lru_cache(maxsize=128)
def _article(variant: Variant) -> str:
    """The variant's rules with diagrams, from the site generator (the same pages as `hordes site`)."""
    try:
        from hordes.site import render_variant_body

        return render_variant_body(variant)
    except Exception:  # the site module belongs to another layer: show the plain text rather than fail
        from html import escape

        return f'<article class="variant"><pre>{escape(variant.body)}</pre></article>'


async def games_page(request: Request) -> Response:
    recent = await run_in_threadpool(request.app.state.games.recent, 100)
    return render(request, "games.html", games=recent)


async def api_docs(request: Request) -> Response:
    return render(request, "docs.html", schema=openapi_schema())


async def openapi_json(request: Request) -> Response:
    return JSONResponse(openapi_schema())


async def pieces_css(request: Request) -> Response:
    slug = request.path_params["slug"]
    variant = _variant_or_404(slug.removesuffix(".css"))
    return Response(
        piece_css(variant), media_type="text/css", headers={"Cache-Control": "public, max-age=3600"}
    )


async def piece_image(request: Request) -> Response:
    variant = _variant_or_404(request.path_params["slug"])
    svg = piece_svg(variant, request.path_params["name"])
    if svg is None:
        raise NotFound(f"no piece picture {request.path_params['name']!r} in {variant.slug}")
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "public, max-age=3600"})


def error_page(request: Request, status: int, message: str) -> Response:
    """Errors as HTML for pages and JSON for the API (decided by the path)."""
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": "not_found" if status == 404 else "error", "message": message}, status)
    return render(request, "error.html", status=status, status_code=status, message=message)
