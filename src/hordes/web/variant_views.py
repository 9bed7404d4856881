"""The JSON API of variants: the list (built-ins and public stored documents), one variant with its
document, checking a document, and storing one (variant_store.py holds the rules and the SQL).

Refusals are the API's usual `{"error": CODE, "message": ...}`; a document with problems adds
`"problems": [{"path": "engine.pieces.H.betza", "line": 12, "message": ...}, ...]`, every problem
found, the same from checking and from storing.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response

from hordes import Variant
from hordes.web.accounts import viewer
from hordes.web.common import parse_json_object, read_body, string_field
from hordes.web.errors import GameError, NotFound
from hordes.web.positions import variant_info
from hordes.web.ratelimit import rate_limit
from hordes.web.variant_limits import MAX_STORED_BYTES, check_size
from hordes.web.variant_store import VariantStore, builtin_text, is_stored_name
from hordes.web.variants import MAX_NAME, playable

# A document is sent as a JSON string: quotes and newlines escaped, it stays under twice its size.
MAX_DOCUMENT_BODY = 2 * MAX_STORED_BYTES + 4096
CHECK_UNIT = 4096  # characters of document per unit of the "variant_check" rate limit
CHECK_CACHE = 128  # answers of recent checks, by the document's hash (the editor re-sends unchanged text)


def store(request: Request) -> VariantStore:
    value: VariantStore = request.app.state.variant_store
    return value


def variant_summary(variant: Variant) -> dict[str, Any]:
    """What the workshop's live check shows: name, title, start position, board, pieces."""
    return {
        "ok": True,
        "name": variant.slug,
        "title": variant.title,
        "fen": variant.start_fen,
        "width": variant.geometry.cols,
        "height": variant.geometry.rows,
        "pieces": [{"letter": p.letter, "name": p.name, "betza": p.betza} for p in variant.pieces],
    }


async def _document(request: Request) -> tuple[dict[str, Any], str]:
    body = parse_json_object(await read_body(request, MAX_DOCUMENT_BODY))
    text = body.get("document")
    if not isinstance(text, str) or not text.strip():
        raise GameError("'document' must be the text of a variant document", code="bad_request")
    check_size(text)  # 413 before anything else, the rate limit's cost included
    return body, text


class _CheckCache:
    """Recent check answers (a status and a body) by the SHA-256 of the document."""

    def __init__(self) -> None:
        self.answers: OrderedDict[str, tuple[int, dict[str, Any]]] = OrderedDict()

    def get(self, key: str) -> tuple[int, dict[str, Any]] | None:
        found = self.answers.get(key)
        if found is not None:
            self.answers.move_to_end(key)
        return found

    def put(self, key: str, answer: tuple[int, dict[str, Any]]) -> None:
        self.answers[key] = answer
        while len(self.answers) > CHECK_CACHE:
            self.answers.popitem(last=False)


def _check_cache(request: Request) -> _CheckCache:
    cache = getattr(request.app.state, "variant_checks", None)
    if cache is None:
        cache = request.app.state.variant_checks = _CheckCache()
    return cache


async def api_check_variant(request: Request) -> Response:
    """Validate a document without storing it (the workshop calls this on each pause in typing)."""
    _, text = await _document(request)
    # Reading the YAML is most of the cost (about 3 ms of CPU per KB): a long document costs more.
    rate_limit(request, "variant_check", max(1.0, len(text) / CHECK_UNIT))
    key = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    cache = _check_cache(request)
    answer = cache.get(key)
    if answer is None:

        def work() -> tuple[int, dict[str, Any]]:
            try:
                return 200, variant_summary(store(request).check(text).variant)
            except GameError as exc:
                return exc.status, exc.as_dict()

        answer = await run_in_threadpool(work)
        cache.put(key, answer)
    return JSONResponse(answer[1], status_code=answer[0])


async def api_create_variant(request: Request) -> Response:
    """Check and store a document: 201 with the name to play it by."""
    body, text = await _document(request)
    visibility = string_field(body, "visibility", "public", limit=16) or "public"
    rate_limit(request, "variant_save")
    user = await run_in_threadpool(viewer, request)
    row = await run_in_threadpool(store(request).save, text, visibility, user.id if user else None)
    out = row.view() | {"url": f"/api/variants/{row.name}", "play_url": f"/variants/{row.name}"}
    return JSONResponse(out, status_code=201)


def builtin_view(variant: Variant) -> dict[str, Any]:
    return variant_info(variant) | {"name": variant.slug, "summary": variant.summary, "builtin": True}


async def api_list_variants(request: Request) -> Response:
    """The built-ins (`builtin: true`), then the latest public version of every stored series."""
    stored = await run_in_threadpool(store(request).public)
    return JSONResponse({"variants": [builtin_view(v) for v in playable()] + [row.view() for row in stored]})


async def api_get_variant(request: Request) -> Response:
    """One variant with its document (unlisted ones too: their name is the key). `?format=md`: the
    document alone, its parents merged in, loadable on its own (e.g. by `hordes uci`'s VariantPath)."""
    name = str(request.path_params["name"])
    raw = request.query_params.get("format", "json")
    if raw not in ("json", "md"):
        raise GameError("'format' must be json or md", code="bad_request")
    if len(name) > MAX_NAME:
        raise NotFound(f"no variant named {name[:MAX_NAME]!r}…")
    if is_stored_name(name):
        if raw == "md":
            text = await run_in_threadpool(store(request).flattened, name)
            return PlainTextResponse(text, media_type="text/markdown")
        row = await run_in_threadpool(store(request).find, name)
        return JSONResponse(row.view(with_document=True))
    found = builtin_text(name)
    if found is None:
        raise NotFound(f"no variant named {name!r}: built-ins by their name, stored ones as SLUG~SERIES@N")
    text, variant = found
    if raw == "md":
        flat = await run_in_threadpool(store(request).flattened_builtin, variant)
        return PlainTextResponse(flat, media_type="text/markdown")
    return JSONResponse(builtin_view(variant) | {"document": text})
