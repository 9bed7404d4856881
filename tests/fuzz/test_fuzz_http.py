"""Fuzz the HTTP API and the pages that take input (issue 13 point 5).

One hypothesis test per endpoint of the app's own OpenAPI description (web/openapi.py) and per page
(`_strategies.PAGES`), each drawing requests from that description mixed with junk. Every request
goes through Starlette's TestClient to an app on a tmp SQLite database with a few games. Properties:
no request answers 5xx (a server exception fails the test with the request that caused it); a 4xx
from /api/* is a JSON {"error", "message"} and one from a page is HTML; and after a refused request
(and any request but a POST) every stored game, its row and its moves read through the service, is
unchanged, and no game was created.

Fixed seed (SEED), EXAMPLES examples for each of the 21 surfaces (14 API operations, 7 pages).
CI: 60 each, about 1,300 requests with the explicit examples: 17 s CPU, 27 s on the shared 2-core
machine. Every reproducer of the issue is an explicit @example of its endpoint's test. Run longer
with `HORDES_FUZZ_EXAMPLES=500 HORDES_FUZZ_EXAMPLES_WS=2000 pytest -p no:xdist tests/fuzz` (14,400
inputs, 5.5 minutes).
The run prints how many inputs each surface got (tests/fuzz/counting.py).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, seed, settings

from tests.fuzz._strategies import Endpoint, Hints, Request, endpoints, request
from tests.fuzz._web import FuzzWeb, fuzz_web
from tests.fuzz.counting import COUNTER

SEED = 20261213
EXAMPLES = int(os.environ.get("HORDES_FUZZ_EXAMPLES", "60"))
ENGINE_PATHS = ("/api/analysis", "/api/analysis/line")
WEB: list[FuzzWeb] = []  # the module's app, for the hints (strategies draw from the current games)


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FuzzWeb]:
    with fuzz_web(tmp_path_factory.mktemp("fuzz-http"), WEB) as w:
        yield w


def hints_for(game: str | None) -> Hints:
    return WEB[-1].hints(game)


J = {"content-type": "application/json"}
GAME = "{game}"  # in an example's URL or body: the id of the first fixed game


def _r(
    method: str, url: str, body: str | bytes | None = None, headers: dict[str, str] | None = None
) -> Request:
    data = body.encode("utf-8") if isinstance(body, str) else body
    return Request(method, url, headers if headers is not None else (J if data is not None else {}), data)


STORED_DOCUMENT = "---\ntitle: Fuzz\nslug: fuzzmirror\nparent: orda\n---\nA child of Orda.\n"

# The reproducers, each an explicit example of its endpoint's test.
REPRODUCERS: dict[str, list[Request]] = {
    "POST /api/games": [
        _r("POST", "/api/games", "[" * 5000),
        _r("POST", "/api/games", '{"level": "²"}'),
        _r("POST", "/api/games", '{"level": "' + "1" * 5000 + '"}'),
        _r("POST", "/api/games", '{"level": ' + "1" * 5000 + "}"),
        _r("POST", "/api/games", json.dumps({"variant": "x" * 300})),
        _r("POST", "/api/games", json.dumps({"variant": "x" * 297 + ".md"})),
        _r("POST", "/api/games", "{}", {**J, "content-length": "9" * 5000}),
    ],
    "GET /api/games": [_r("GET", "/api/games?limit=%C2%B2"), _r("GET", "/api/games?limit=" + "1" * 5000)],
    "POST /api/games/{game_id}/moves": [
        _r("POST", f"/api/games/{GAME}/moves", '{"uci": "e2e4", "token": "\\ud800"}'),
        _r("POST", f"/api/games/{GAME}/moves", '{"uci": "e2e4", "ply": 1e999}'),
    ],
    "POST /api/pgn/export": [
        _r("POST", "/api/pgn/export", '{"moves": ["e2e4"], "headers": {"White": "\\ud800"}}'),
        _r("POST", "/api/pgn/export", json.dumps({"headers": {"Bad Tag": "x"}})),
        _r("POST", "/api/pgn/export", json.dumps({"headers": {"": "x"}})),
    ],
    "POST /api/pgn/import": [_r("POST", "/api/pgn/import", '{"pgn": "[White \\"\\ud800\\"]\\n1. e4 *"}')],
    "POST /api/position": [_r("POST", "/api/position", json.dumps({"variant": "x" * 300}))],
    "POST /api/analysis": [_r("POST", "/api/analysis", '{"movetime": NaN}')],
    "GET /game/{game_id}": [_r("GET", "/game/%C2%B2"), _r("GET", "/game/%C2%B2?token=x")],
    "POST /games": [
        _r("POST", "/games", "&".join(f"f{i}=1" for i in range(21)), {}),
        _r("POST", "/games", "variant=chess&opponent=engine&level=%C2%B2", {}),
    ],
    "GET /variants/{slug}": [_r("GET", "/variants/" + "x" * 297 + ".md")],
    # Stored variant documents (issue 19): a valid one, parents that are paths, a self-alias bomb.
    "POST /api/variants": [
        _r("POST", "/api/variants", json.dumps({"document": STORED_DOCUMENT})),
        _r("POST", "/api/variants", json.dumps({"document": STORED_DOCUMENT.replace("orda", "../chess.md")})),
        _r("POST", "/api/variants", json.dumps({"document": "---\na: &a [*a]\n---\n"})),
    ],
    "POST /api/variants/check": [
        _r(
            "POST",
            "/api/variants/check",
            json.dumps({"document": STORED_DOCUMENT.replace("orda", "/etc/passwd")}),
        ),
        _r(
            "POST",
            "/api/variants/check",
            json.dumps({"document": STORED_DOCUMENT.replace("orda", "x~abcdefgh")}),
        ),
    ],
    "GET /api/variants/{name}": [
        _r("GET", "/api/variants/x~abcdefgh@1?format=md"),
        _r("GET", "/api/variants/orda?format=md"),
    ],
}


def check(web: FuzzWeb, endpoint: Endpoint, req: Request) -> None:
    """Send `req`; assert the answer is not 5xx, that an error is the right kind of error, and that
    nothing changed unless the request was accepted and meant to change something."""
    first = next(iter(web.tokens))
    url = req.url.replace(GAME, first)
    body = req.body
    if body is not None and endpoint.path in ENGINE_PATHS:
        body = _short_engine_time(body)
    web.client.cookies.clear()  # each request carries only the cookie it draws
    COUNTER(endpoint.name)
    try:
        r = web.client.request(req.method, url, content=body, headers=req.headers, follow_redirects=False)
        assert r.status_code < 500, f"{r.status_code} {r.text[:300]}"
        if r.status_code >= 400 and req.method != "HEAD":  # HEAD: no body to look at
            _is_error(endpoint, req, r)
        changed = web.games_changed()
        if r.status_code >= 400 or req.method != "POST":
            assert not changed, f"a {r.status_code} answer ({r.text[:200]}) changed the stored games"
    except BaseException:
        COUNTER.failed(endpoint.name)
        raise


def _is_error(endpoint: Endpoint, req: Request, r: Any) -> None:
    kind = r.headers.get("content-type", "")
    if endpoint.api or (req.method != "GET" and kind.startswith("application/json")):
        assert kind.startswith("application/json"), f"{r.status_code} {kind}: {r.text[:200]}"
        data = r.json()
        assert isinstance(data.get("error"), str) and data["error"], data
        assert isinstance(data.get("message"), str) and data["message"], data
    else:
        assert kind.startswith("text/html"), f"{r.status_code} {kind}: {r.text[:200]}"


def _short_engine_time(body: bytes) -> bytes:
    """An engine request without a movetime searches 0.15-1 s: give it the shortest instead (only
    the test's time is at stake; the movetime field itself is fuzzed when it is sent)."""
    try:
        value = json.loads(body)
    except (ValueError, RecursionError):
        return body
    if isinstance(value, dict) and "movetime" not in value:
        return json.dumps({**value, "movetime": 0.05}).encode("utf-8")
    return body


def _fuzz_test(endpoint: Endpoint) -> Any:
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @seed(SEED)
    @given(req=request(endpoint, hints_for))
    def test(web: FuzzWeb, req: Request) -> None:
        check(web, endpoint, req)

    for req in REPRODUCERS.get(endpoint.name, []):
        test = example(req=req)(test)
    test.__doc__ = f"Fuzz {endpoint.name}: no 5xx, proper errors, nothing changed by a refusal."
    return test


ENDPOINTS = endpoints()
for _endpoint in ENDPOINTS:
    _name = "test_fuzz_" + (re.sub(r"[^a-z0-9]+", "_", _endpoint.name.lower()).strip("_") or "root")
    globals()[_name] = _fuzz_test(_endpoint)


def test_every_reproducer_has_its_endpoint() -> None:
    names = {e.name for e in ENDPOINTS}
    assert set(REPRODUCERS) <= names, set(REPRODUCERS) - names
