"""Issue 13 point 6: cross-site writes are refused, security headers, no inline script or style."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from typing import Any

import pytest
from starlette.routing import Route
from starlette.testclient import TestClient

from hordes import builtin_variants
from hordes.web.security import CSP, HEADERS
from tests.web.conftest import ORIGIN, csrf_token, friend_game, post_form

EVIL = "http://evil.example"
NEW_GAME = {"variant": "orda", "color": "black", "opponent": "friend"}


def games(client: TestClient) -> list[dict[str, Any]]:
    listed: list[dict[str, Any]] = client.get("/api/games").json()["games"]
    return listed


def test_p6_the_issue_reproducer_is_refused_and_changes_nothing(client: TestClient) -> None:
    game_id, white, _ = friend_game(client)
    client.cookies.set(f"hordes_seat_{game_id}", white)  # the browser holds White's seat cookie
    url = f"/api/games/{game_id}/moves"
    body = json.dumps({"uci": "e2e4"})
    r = client.post(url, content=body, headers={"Content-Type": "text/plain", "Origin": EVIL})
    assert r.status_code == 403 and r.json()["error"] == "cross_origin"
    # each defence holds on its own: a foreign Origin with JSON, text/plain without an Origin
    r = client.post(url, content=body, headers={"Content-Type": "application/json", "Origin": EVIL})
    assert r.status_code == 403 and r.json()["error"] == "cross_origin"
    r = client.post(url, content=body, headers={"Content-Type": "text/plain"})
    assert r.status_code == 415 and r.json()["error"] == "unsupported_media_type"
    assert "application/json" in r.json()["message"]
    r = client.post(url, content="uci=e2e4", headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert r.status_code == 415
    r = client.post(url, content=body, headers={"Origin": "null", "Content-Type": "application/json"})
    assert r.status_code == 403  # a sandboxed frame or a file:// page
    r = client.post(f"/api/games/{game_id}/resign", headers={"Origin": EVIL})  # no body at all
    assert r.status_code == 403
    state = client.get(f"/api/games/{game_id}").json()
    assert state["ply"] == 0 and state["status"] == "playing"
    # the same call from this site's own page (or a script without Origin) works
    r = client.post(
        url, content=body, headers={"Content-Type": "application/json; charset=utf-8", "Origin": ORIGIN}
    )
    assert r.status_code == 200, r.text
    assert client.get(f"/api/games/{game_id}").json()["ply"] == 1


def test_p6_api_creation_needs_json(client: TestClient) -> None:
    r = client.post("/api/games", content=json.dumps(NEW_GAME), headers={"Content-Type": "text/plain"})
    assert r.status_code == 415
    r = client.post("/api/games", content=json.dumps(NEW_GAME))  # a body without a Content-Type
    assert r.status_code == 415
    assert games(client) == []


def test_p6_base_url_is_the_allowed_origin(app: Any, client: TestClient) -> None:
    app.state.base_url = "https://hordes.example"  # behind a proxy: Host says nothing reliable
    r = client.post("/api/games", json=NEW_GAME, headers={"Origin": ORIGIN})
    assert r.status_code == 403
    r = client.post("/api/games", json=NEW_GAME, headers={"Origin": "https://hordes.example:443"})
    assert r.status_code == 201
    assert len(games(client)) == 1


class _Page(HTMLParser):
    """What CSP would block in a page: inline scripts and styles, handlers, data: URLs."""

    def __init__(self) -> None:
        super().__init__()
        self.problems: list[str] = []
        self._script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "style":
            self.problems.append("<style> element")
        if tag == "script" and not a.get("src") and a.get("type") != "application/json":
            self.problems.append("inline <script>")
        for name, value in attrs:
            if name == "style" or name.startswith("on"):
                self.problems.append(f"<{tag} {name}=...>")
            if name in ("src", "href") and (value or "").strip().lower().startswith(("data:", "javascript:")):
                self.problems.append(f"<{tag} {name}={value[:20] if value else ''}>")


def test_p6_pages_have_no_inline_script_or_style(client: TestClient) -> None:
    game_id, _, _ = friend_game(client, "hordes")
    urls = ["/", "/games", f"/game/{game_id}", f"/analysis?game={game_id}", "/variants", "/api/docs", "/nope"]
    for v in builtin_variants():
        urls += [f"/variants/{v.slug}", f"/analysis?variant={v.slug}"]
    for url in urls:
        parser = _Page()
        parser.feed(client.get(url).text)
        assert parser.problems == [], url
    for v in builtin_variants():  # piece pictures are files of this origin, not data: URIs
        css = client.get(f"/pieces/{v.slug}.css").text
        assert "data:" not in css
        first = css.split("url('", 1)[1].split("'", 1)[0]
        picture = client.get(first)
        assert picture.status_code == 200 and picture.headers["content-type"].startswith("image/svg+xml")
        assert picture.text.startswith("<svg")
    assert client.get("/pieces/orda/nope.svg").status_code == 404
    assert client.get("/pieces/nope/k-piece.black.svg").status_code == 404


@pytest.mark.parametrize(
    "url", ["/", "/api/variants", "/static/app.css", "/pieces/orda/k-piece.black.svg", "/nope", "/api/nope"]
)
def test_p6_security_headers_on_every_response(client: TestClient, url: str) -> None:
    r = client.get(url)
    for name, value in HEADERS.items():
        assert r.headers.get(name) == value, (url, name)


def test_p6_security_headers_on_refusals_and_the_policy_is_strict(client: TestClient) -> None:
    for r in (
        client.post("/api/games", content="x", headers={"Content-Type": "text/plain"}),
        client.post("/games", data=NEW_GAME),
    ):
        assert r.status_code in (403, 415)
        assert r.headers["content-security-policy"] == CSP
        assert r.headers["x-content-type-options"] == "nosniff"
    directives = dict(d.strip().split(" ", 1) for d in CSP.split(";"))
    assert directives["default-src"] == "'self'" and directives["script-src"] == "'self'"
    assert directives["object-src"] == "'none'" and directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in CSP and "data:" not in CSP


def test_p6_lobby_form_needs_same_origin_and_csrf_token(client: TestClient) -> None:
    token = csrf_token(client)
    refused = [
        ({**NEW_GAME}, {"Origin": ORIGIN}),  # no token
        ({**NEW_GAME, "csrf_token": "x" * 43}, {"Origin": ORIGIN}),  # a wrong one
        ({**NEW_GAME, "csrf_token": token}, {"Origin": EVIL}),  # another site's page
        ({**NEW_GAME, "csrf_token": token}, {"Referer": EVIL + "/page"}),  # ... without Origin
        ({**NEW_GAME, "csrf_token": token}, {}),  # neither Origin nor Referer
    ]
    for data, headers in refused:
        r = client.post("/games", data=data, headers=headers, follow_redirects=False)
        assert r.status_code == 403, (data, headers)
        assert r.headers["content-type"].startswith("text/html")
        assert "reload the page" in r.text or "is refused" in r.text
    cookie = client.cookies.pop("hordes_csrf")
    r = client.post("/games", data={**NEW_GAME, "csrf_token": token}, headers={"Origin": ORIGIN})
    assert r.status_code == 403  # the token without its cookie
    assert games(client) == []
    client.cookies.set("hordes_csrf", cookie)
    # a same-origin Referer stands in for a missing Origin
    r = client.post(
        "/games",
        data={**NEW_GAME, "csrf_token": token},
        headers={"Referer": ORIGIN + "/"},
        follow_redirects=False,
    )
    assert r.status_code == 303
    r = post_form(client, "/games", NEW_GAME)
    assert r.status_code == 303
    created = client.get("/api/games/" + r.headers["location"].rsplit("/", 1)[1]).json()
    assert created["variant"]["slug"] == "orda" and created["seat"] == "black"  # the form reached the page
    assert len(games(client)) == 2


def test_p6_big_form_is_refused(client: TestClient) -> None:
    r = post_form(client, "/games", {**NEW_GAME, "fen": "x" * 20_000})
    assert r.status_code == 413
    r = post_form(client, "/games", {**NEW_GAME, **{f"f{i}": "" for i in range(60)}})
    assert r.status_code == 400 and "fields" in r.text
    assert games(client) == []


def test_p6_security_headers_on_a_server_error(app: Any) -> None:
    async def boom(request: Any) -> Any:
        raise RuntimeError("a bug")

    app.router.routes.append(Route("/boom", boom))
    with TestClient(app, raise_server_exceptions=False) as client:
        r = client.get("/boom")
    assert r.status_code == 500
    assert r.headers["content-security-policy"] == CSP and r.headers["x-frame-options"] == "DENY"


def test_p6_csrf_cookie(client: TestClient) -> None:
    first = client.get("/")
    # (the lobby also gives a new browser its player token, lobby.py: another cookie)
    cookie = next(c for c in first.headers.get_list("set-cookie") if c.startswith("hordes_csrf="))
    assert "SameSite=Strict" in cookie and "HttpOnly" in cookie and "Path=/" in cookie
    assert "set-cookie" not in client.get("/").headers  # the browser keeps its token
    assert csrf_token(client) == client.cookies["hordes_csrf"]
    client.cookies.clear()
    assert "set-cookie" not in client.get("/api/variants").headers  # no form, no cookie
