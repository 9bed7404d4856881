"""The variant workshop (/workshop): write a variant document in the browser, see it, play it.

- the page: CodeMirror 6 (editor.py) with the starting points, every built-in document, the
  package's example documents if it has any, and "new from parent";
- `POST /api/workshop/preview {"document"}`: the document checked as the store checks it
  (variant_store.py: limits, parents by name), and on success the start position and each piece's
  movement as SVG (hordes.svg) with the rules page as /variants/{slug} renders it; on failure the
  store's refusal, a 422 listing every problem with its key path and line;
- `POST /api/workshop/balance {"document", "games"}` and `GET /api/workshop/balance/{id}`: quick
  balance (balance.py), a short self-play run on the engine workers, polled by its id.

A document is untrusted text: the preview's SVG escapes every text of the document and the rules are
rendered by the site generator, which shows raw HTML as text and keeps only harmless links; the page
inserts the server's markup and the CSP runs no script but the site's own. Nothing here stores
anything: saving a document is the store's (POST /api/variants).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from hordes import Board, Variant, parse_variant
from hordes.errors import HordesError
from hordes.variants import REGISTRY
from hordes.web import balance, editor
from hordes.web.common import int_field, parse_json_object, read_body
from hordes.web.errors import GameError, NotFound
from hordes.web.pages import render
from hordes.web.ratelimit import client_of, rate_limit
from hordes.web.variant_limits import check_size
from hordes.web.variant_store import InvalidVariant, VariantStore
from hordes.web.variant_views import CHECK_UNIT, MAX_DOCUMENT_BODY, variant_summary

EXAMPLES_DIR = Path(REGISTRY.directory) / "examples"
_RUN_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


def check_document(request: Request, text: str) -> Variant:
    """The variant a document describes, checked as the store checks a document it stores (its
    limits first, a parent by name only): InvalidVariant, OverLimit or DocumentTooLarge otherwise."""
    store: VariantStore = request.app.state.variant_store
    return store.check(text).variant


async def _document(request: Request) -> tuple[str, dict[str, Any]]:
    body = parse_json_object(await read_body(request, MAX_DOCUMENT_BODY))
    text = body.get("document")
    if not isinstance(text, str) or not text.strip():
        raise GameError("'document' must be the text of a variant document", code="bad_document")
    check_size(text)
    return text, body


# ----- the page ----------------------------------------------------------------------------------


def _start(name: str, title: str, group: str, text: str) -> dict[str, str]:
    return {"name": name, "title": title, "group": group, "document": text}


@cache
def starting_points() -> tuple[dict[str, str], ...]:
    """Every built-in document, then the package's example documents (if it has any)."""
    out = []
    for path in REGISTRY.builtin_paths():
        out.append(_start(path.stem, REGISTRY.load(str(path)).title, "built-in", path.read_text("utf-8")))
    if EXAMPLES_DIR.is_dir():
        for path in sorted(EXAMPLES_DIR.glob("*.md")):
            text = path.read_text("utf-8")
            try:
                title = parse_variant(text, str(path), path.parent).title
            except HordesError:
                title = path.stem
            out.append(_start(path.stem, title, "example", text))
    return tuple(out)


def parents() -> list[tuple[str, str]]:
    """(slug, title) of the documents "new from parent" may start from: the built-ins."""
    return [(p["name"], p["title"]) for p in starting_points() if p["group"] == "built-in"]


async def workshop_page(request: Request) -> Response:
    response = render(
        request,
        "workshop.html",
        import_map=editor.IMPORT_MAP,
        starts=list(starting_points()),
        parents=parents(),
        balance_games=balance.GAMES,
        balance_min=balance.MIN_GAMES,
        balance_max=balance.MAX_GAMES,
        editor_installed=editor.installed(),
    )
    response.headers["Content-Security-Policy"] = editor.WORKSHOP_CSP  # the import map's hash
    return response


# ----- preview -------------------------------------------------------------------------------------


def preview(variant: Variant) -> dict[str, Any]:
    """What the page draws for a valid document: the start position, each piece's movement and the
    rules page (the same article as /variants/{slug})."""
    from hordes import svg
    from hordes.site import render_variant_body

    out = variant_summary(variant)  # what the store's check answers, plus the pictures
    out["board"] = svg.board(Board(variant), id_prefix="ws-board-")
    for k, piece in enumerate(out["pieces"]):
        piece["diagram"] = svg.movement_diagram(variant, piece["letter"], size=140, id_prefix=f"ws-move-{k}-")
    out["rules"] = render_variant_body(variant)
    return out


def _preview_text(request: Request, text: str) -> dict[str, Any]:
    variant = check_document(request, text)
    try:
        return preview(variant)
    except HordesError as exc:  # a document the checks pass but the pictures cannot draw
        raise InvalidVariant([{"path": "", "line": None, "message": str(exc)}]) from None


async def api_preview(request: Request) -> Response:
    """POST /api/workshop/preview {"document"}: 200 with the pictures, or 422 with the problems."""
    text, _ = await _document(request)  # a document over the size limit is 413 before any charge
    rate_limit(request, "preview", max(1.0, len(text) / CHECK_UNIT))
    return JSONResponse(await run_in_threadpool(_preview_text, request, text))


# ----- quick balance ---------------------------------------------------------------------------------


def runs(request: Request) -> balance.BalanceRuns:
    found: balance.BalanceRuns = request.app.state.balance
    return found


async def api_balance_start(request: Request) -> Response:
    """POST /api/workshop/balance {"document", "games"}: 202 with the run (poll it by its id)."""
    text, body = await _document(request)
    games = int_field(
        body.get("games", balance.GAMES), "games", balance.MIN_GAMES, balance.MAX_GAMES, code="bad_games"
    )
    store: VariantStore = request.app.state.variant_store
    variant = await run_in_threadpool(check_document, request, text)
    document = await run_in_threadpool(store.flattened_text, text, variant)
    run = runs(request).start(variant, document, games, client_of(request))
    return JSONResponse(run.view(), status_code=202, headers={"Location": f"/api/workshop/balance/{run.id}"})


async def api_balance_get(request: Request) -> Response:
    """GET /api/workshop/balance/{run_id}: the run's progress, and at the end its result."""
    run_id = str(request.path_params["run_id"])
    run = runs(request).get(run_id) if _RUN_ID.fullmatch(run_id) else None
    if run is None:
        raise NotFound("no quick balance run with this id (a finished run is kept for 10 minutes)")
    return JSONResponse(run.view())
