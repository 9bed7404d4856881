"""Issue 13 point 5: no malformed request answers 500. Each reproducer of the issue is one test; the
API answers a 4xx JSON error naming the problem, pages an HTML error page with a 4xx, and websockets
an `error` message (and a proper close code where they close). Nothing refused changes a game."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as ws_connect

from hordes.web.app import create_app
from tests.web.conftest import ORIGIN, csrf_token, friend_game
from tests.web.live_server import server

JSON = {"content-type": "application/json"}


@pytest.fixture
def quiet(tmp_path: Path) -> Iterator[TestClient]:
    """A client that sees a server error as the 500 a browser would get, not as an exception."""
    app = create_app(data_dir=tmp_path, engine_workers=1, engine_movetime=0.1)
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


def post(client: TestClient, url: str, body: str | bytes, headers: dict[str, str] | None = None) -> Any:
    return client.post(url, content=body, headers={**JSON, **(headers or {})})


def form_post(client: TestClient, content: str) -> Any:
    """A lobby form as a browser posts it from this site's page (same Origin, the page's CSRF token)."""
    fields = f"{content}&csrf_token={csrf_token(client)}"
    headers = {"Origin": ORIGIN, "Content-Type": "application/x-www-form-urlencoded"}
    return client.post("/games", content=fields, headers=headers, follow_redirects=False)


def refused(r: Any, status: int, code: str, *words: str) -> dict[str, Any]:
    """`r` is a JSON error with this status and code, whose message mentions `words`."""
    assert r.status_code == status, (r.status_code, r.text[:300])
    body: dict[str, Any] = r.json()
    assert body["error"] == code, body
    for word in words:
        assert word in body["message"], body
    return body


def html_error(r: Any, status: int) -> None:
    assert r.status_code == status, (r.status_code, r.text[:300])
    assert r.headers["content-type"].startswith("text/html")


def snapshot(client: TestClient, game_id: str) -> dict[str, Any]:
    state: dict[str, Any] = client.get(f"/api/games/{game_id}").json()
    return {k: state[k] for k in ("ply", "moves", "status", "result", "draw_offer", "fen")}


# ----- HTTP --------------------------------------------------------------------------------------------
def test_p5_deeply_nested_json_body(quiet: TestClient) -> None:
    refused(post(quiet, "/api/games", "[" * 5000), 400, "bad_json", "nested")
    refused(post(quiet, "/api/position", '{"moves": ' + "[" * 5000 + "]" * 5000 + "}"), 400, "bad_json")
    refused(post(quiet, "/api/position", '{"moves": ' + "[" * 40 + "]" * 40 + "}"), 400, "bad_json", "32")


def test_p5_unicode_digit_limit(quiet: TestClient) -> None:
    refused(quiet.get("/api/games?limit=²"), 400, "bad_request", "'limit'")
    refused(quiet.get("/api/games?limit=many"), 400, "bad_request", "'limit'")
    assert quiet.get("/api/games?limit=3").status_code == 200


def test_p5_unicode_digit_level(quiet: TestClient) -> None:
    refused(post(quiet, "/api/games", '{"level": "²"}'), 400, "bad_level", "'level'")
    refused(post(quiet, "/api/games", '{"level": true}'), 400, "bad_level")
    # the lobby form sends its level as text: ASCII digits still work
    assert post(quiet, "/api/games", '{"level": "3"}').json()["game"]["players"]["black"]["level"] == 3
    r = form_post(quiet, "variant=chess&color=white&opponent=engine&level=²")
    html_error(r, 400)
    assert "level" in r.text


def test_p5_numbers_over_4300_digits(quiet: TestClient) -> None:
    digits = "1" * 5000
    refused(quiet.get(f"/api/games?limit={digits}"), 400, "bad_request", "'limit'")
    refused(post(quiet, "/api/games", f'{{"level": "{digits}"}}'), 400, "bad_level")
    refused(post(quiet, "/api/games", f'{{"level": {digits}}}'), 400, "bad_json", "5000 digits")
    refused(post(quiet, "/api/analysis", '{"movetime": 1e999}'), 400, "bad_json", "too large")
    refused(post(quiet, "/api/analysis", '{"movetime": NaN}'), 400, "bad_json", "NaN")
    # a Content-Length of 5,000 digits (int() refuses it) is too large, not a crash
    refused(post(quiet, "/api/games", "{}", {"content-length": digits}), 413, "too_large")


def test_p5_lone_surrogate_token(quiet: TestClient) -> None:
    game_id, _, _ = friend_game(quiet)
    before = snapshot(quiet, game_id)
    r = post(quiet, f"/api/games/{game_id}/moves", '{"uci": "e2e4", "token": "\\ud800"}')
    refused(r, 400, "bad_json", "surrogate", "'token'")
    refused(post(quiet, f"/api/games/{game_id}/resign", '{"token": "\\udfff"}'), 400, "bad_json")
    # a token that no seat can have, in a link: it changes nothing (no cookie set, a notice shown)
    page = quiet.get(f"/game/{game_id}?token=%ED%A0%80", follow_redirects=False)
    assert page.status_code == 200 and "set-cookie" not in page.headers and "does not belong" in page.text
    assert quiet.get(f"/api/games/{game_id}?token=a%22b;c").json()["seat"] is None  # URLs carry no seat
    assert snapshot(quiet, game_id) == before


def test_p5_lone_surrogate_pgn_header(quiet: TestClient) -> None:
    r = post(quiet, "/api/pgn/export", '{"moves": ["e2e4"], "headers": {"White": "\\ud800"}}')
    refused(r, 400, "bad_json", "headers.White")
    refused(post(quiet, "/api/pgn/import", '{"pgn": "[White \\"\\ud800\\"]\\n1. e4 *"}'), 400, "bad_json")


def test_p5_300_character_variant_name(quiet: TestClient) -> None:
    for name in ("x" * 300, "x" * 297 + ".md"):
        body = json.dumps({"variant": name})
        for url in ("/api/games", "/api/position", "/api/pgn/export", "/api/analysis"):
            refused(post(quiet, url, body), 400, "unknown_variant")
        html_error(quiet.get(f"/variants/{name}"), 404)
        html_error(quiet.get(f"/pieces/{name}.css"), 404)
        html_error(quiet.get(f"/analysis?variant={name}"), 404)
        r = form_post(quiet, f"variant={name}&opponent=friend")
        html_error(r, 400)


def test_p5_variant_name_is_never_a_path(quiet: TestClient, tmp_path: Path) -> None:
    """A variant document on the server's disk is not loaded by naming its path."""
    from hordes import load_variant

    doc = tmp_path / "mine.md"
    doc.write_text(Path(load_variant("orda").source).read_text(encoding="utf-8"), encoding="utf-8")
    for url in ("/api/games", "/api/position"):
        refused(post(quiet, url, json.dumps({"variant": str(doc)})), 400, "unknown_variant")
    html_error(quiet.get(f"/analysis?variant={doc}"), 404)
    assert quiet.get("/api/games").json()["games"] == []


def test_p5_bad_pgn_export_tag_name(quiet: TestClient) -> None:
    for name in ("", "Bad Tag", 'X"]', "T" * 65):
        body = json.dumps({"moves": ["e2e4"], "headers": {name: "x"}})
        refused(post(quiet, "/api/pgn/export", body), 400, "bad_header", "tag name")
    # tags the line itself decides, and a Result that would corrupt the movetext
    for name, value in (("FEN", "8/8/8/8/8/8/8/8 w - - 0 1"), ("Variant", "orda"), ("Result", "1-0 {")):
        body = json.dumps({"headers": {name: value}})
        refused(post(quiet, "/api/pgn/export", body), 400, "bad_header", name)
    r = post(quiet, "/api/pgn/export", json.dumps({"moves": ["e2e4"], "headers": {"White": "Ann"}}))
    assert r.status_code == 200 and '[White "Ann"]' in r.json()["pgn"]


def test_p5_game_id_superscript(quiet: TestClient) -> None:
    html_error(quiet.get("/game/%C2%B2"), 404)
    html_error(quiet.get("/game/%C2%B2?token=x", follow_redirects=False), 404)
    html_error(quiet.get("/game/a;b?token=x", follow_redirects=False), 404)
    html_error(quiet.get("/analysis?game=%C2%B2"), 404)
    refused(quiet.get("/api/games/%C2%B2"), 404, "not_found")
    refused(post(quiet, "/api/games/%C2%B2/moves", '{"uci": "e2e4"}'), 404, "not_found")


def test_p5_lobby_form_over_20_fields(quiet: TestClient) -> None:
    r = form_post(quiet, "&".join(f"f{i}=1" for i in range(21)))
    html_error(r, 400)
    assert "more than 20 fields" in r.text
    assert quiet.get("/api/games").json()["games"] == []


# ----- websockets (TestClient) -------------------------------------------------------------------------
def test_p5_ws_binary_frame(client: TestClient) -> None:
    game_id, white, _ = friend_game(client)
    with client.websocket_connect(f"/ws/game/{game_id}?token={white}") as ws:
        ws.receive_json()
        ws.send_bytes(b'{"type": "move", "uci": "e2e4"}')
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["error"] == "bad_message" and "binary" in reply["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1003
    assert client.get(f"/api/games/{game_id}").json()["ply"] == 0


def test_p5_ws_deeply_nested_json(client: TestClient) -> None:
    game_id, white, _ = friend_game(client)
    with client.websocket_connect(f"/ws/game/{game_id}?token={white}") as ws:
        ws.receive_json()
        ws.send_text('{"type": "move", "uci": ' + "[" * 5000 + "]" * 5000 + "}")
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["error"] == "bad_json" and "nested" in reply["message"]
        ws.send_json({"type": "ping", "ref": 1})
        assert ws.receive_json() == {"type": "pong", "ref": 1}  # the socket is still open
    assert client.get(f"/api/games/{game_id}").json()["ply"] == 0


def test_p5_ws_surrogate_token(client: TestClient) -> None:
    game_id, _, _ = friend_game(client)
    with client.websocket_connect(f"/ws/game/{game_id}") as ws:
        ws.receive_json()
        ws.send_text('{"type": "move", "uci": "e2e4", "token": "\\ud800", "ref": 3}')
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["error"] == "bad_json" and "surrogate" in reply["message"]
        ws.send_text('{"type": "move", "uci": "e2e4", "token": "not a token", "ref": 4}')
        reply = ws.receive_json()
        assert reply["error"] == "bad_token" and reply["ref"] == 4
    # a token no seat can have in the header: an error, then a policy-violation close (a token in the
    # address is not read at all: URLs end up in logs)
    with client.websocket_connect(f"/ws/game/{game_id}", headers={"X-Seat-Token": '"x"'}) as ws:
        assert ws.receive_json()["error"] == "bad_token"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1008
    with client.websocket_connect("/ws/game/%C2%B2") as ws:
        assert ws.receive_json()["error"] == "not_found"
    assert client.get(f"/api/games/{game_id}").json()["ply"] == 0


# ----- websockets through a real `hordes serve` (uvicorn's protocol layer, ws_max_size) -----------------
def _close_code(ws: Any) -> int | None:
    """The code of the close frame the server sent, after the connection is closed."""
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            ws.recv(timeout=20)
    rcvd = closed.value.rcvd
    return None if rcvd is None else int(rcvd.code)


def test_p5_real_server_binary_and_oversize_frames(tmp_path: Path) -> None:
    with server(tmp_path) as base:
        req = json.dumps({"opponent": "friend"}).encode()
        r = urllib.request.urlopen(urllib.request.Request(base + "/api/games", req, JSON), timeout=10)
        game = json.loads(r.read())
        url = base.replace("http", "ws") + f"/ws/game/{game['id']}?token={game['token']}"
        with ws_connect(url, open_timeout=10) as ws:
            assert json.loads(ws.recv(timeout=10))["type"] == "game"
            ws.send(b'{"type": "ping"}')
            reply = json.loads(ws.recv(timeout=10))
            assert reply["type"] == "error" and reply["error"] == "bad_message"
            assert _close_code(ws) == 1003
        with ws_connect(url, open_timeout=10) as ws:
            assert json.loads(ws.recv(timeout=10))["type"] == "game"
            ws.send('{"type": "move", "uci": "' + "e" * 20000 + '"}')
            assert _close_code(ws) == 1009  # refused by the protocol layer (ws_max_size)
        with ws_connect(url, open_timeout=10) as ws:  # the server is fine, the game unchanged
            assert json.loads(ws.recv(timeout=10))["ply"] == 0
