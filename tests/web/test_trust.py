"""Issue 13, points 1-4: variants from a list, invitations claimed once, links that cannot wipe a
seat, tokens out of URLs and logs. Each test failed on 0.3.0."""

from __future__ import annotations

import json
import threading
import urllib.request
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from starlette.testclient import TestClient

from hordes.web import db
from hordes.web.app import create_app
from hordes.web.redact import redact
from tests.web.conftest import create, friend_game, post_form
from tests.web.live_server import logged_server

SECRET_DOC = """---
title: Secret
slug: secret
board: {files: 8, ranks: 8}
---
The server's private notes: do not show me.
"""


def seat_cookie(game_id: str, token: str) -> dict[str, str]:
    """The seat cookie as a request header (per-request cookies are deprecated in the test client)."""
    return {"Cookie": f"hordes_seat_{game_id}={token}"}


def stored(client: TestClient) -> list[Any]:
    app = client.app
    with app.state.db.connect() as conn:  # type: ignore[attr-defined]
        return list(conn.execute(sa.select(db.games.c.id)))


# ----- 1. variants come from a list, never from a path -------------------------------------------------
def test_p1_a_variant_path_is_refused_and_nothing_is_stored(client: TestClient, tmp_path: Path) -> None:
    doc = tmp_path / "secret.md"
    doc.write_text(SECRET_DOC)
    answers = []
    for name in (str(doc), str(tmp_path / "absent.md"), "../../etc/passwd", "x" * 300, "chess.md"):
        for url in ("/api/games", "/api/position"):
            r = client.post(url, json={"variant": name, "opponent": "friend"})
            assert r.status_code == 400 and r.json()["error"] == "unknown_variant", (name, r.text)
            assert "private notes" not in r.text and "Secret" not in r.text
            answers.append(r.json()["message"].split(";", 1)[1])  # the list of variants, the same each time
    assert len(set(answers)) == 1  # an existing path and a missing one are answered alike
    assert stored(client) == []
    form = post_form(client, "/games", {"variant": str(doc), "opponent": "friend"})
    assert form.status_code == 400 and "private notes" not in form.text
    assert stored(client) == []


def test_p1_builtin_names_aliases_and_titles_still_work(client: TestClient) -> None:
    for name in ("orda", "Orda Chess", "HORDES", "khans", "chess"):
        assert client.post("/api/position", json={"variant": name}).status_code == 200, name


def test_p1_a_game_of_an_unloadable_variant_does_not_stop_the_server(tmp_path: Path) -> None:
    app = create_app(data_dir=tmp_path, engine_workers=1, engine_movetime=0.1)
    with TestClient(app) as client:
        good = create(client, variant="orda", opponent="engine", color="black", level=1)["id"]
    # A row as 0.3.0 stored it when it accepted a path: the engine is to move in a variant that no
    # longer loads. Start-up used to fail on it ("Application startup failed").
    with app.state.db.begin() as conn:
        row = dict(conn.execute(sa.select(db.games).where(db.games.c.id == good)).one()._mapping)
        conn.execute(db.games.insert().values({**row, "id": "lostvariant", "variant": "/tmp/gone/secret"}))
    again = create_app(data_dir=tmp_path, engine_workers=1, engine_movetime=0.1)
    with TestClient(again) as client:
        r = client.get("/api/games/lostvariant")
        assert r.status_code == 409 and r.json()["error"] == "variant_unavailable"
        page = client.get("/game/lostvariant")
        assert page.status_code == 409 and "not available" in page.text
        listed = {g["id"]: g for g in client.get("/api/games").json()["games"]}
        assert listed["lostvariant"]["available"] is False and listed[good]["available"] is True
        assert client.get("/").status_code == 200 and client.get(f"/game/{good}").status_code == 200


# ----- 2. an invitation is claimed once -----------------------------------------------------------------
def test_invite_is_claimed_once(client: TestClient) -> None:
    g = create(client, variant="chess", opponent="friend", color="white")
    game_id, white, invite = g["id"], g["token"], g["invite_token"]
    # waiting: the game shows it and refuses moves, even the creator's
    assert g["game"]["status"] == "waiting" and g["game"]["waiting_for"] == "black"
    r = client.post(f"/api/games/{game_id}/moves", json={"uci": "e2e4", "token": white})
    assert r.status_code == 409 and r.json()["error"] == "waiting_for_opponent"
    creator_page = client.get(f"/game/{game_id}", headers=seat_cookie(game_id, white)).text
    assert 'id="invite"' in creator_page and invite in creator_page
    # the first visitor claims the seat ...
    visitor = client.get(f"/game/{game_id}?invite={invite}")
    assert (
        visitor.status_code == 200
        and 'id="join-game"' in visitor.text
        and "set-cookie" not in visitor.headers
    )
    first = client.post(f"/api/games/{game_id}/join", json={"invite": invite})
    assert first.status_code == 200 and first.json()["seat"] == "black"
    black = first.json()["token"]
    assert black != invite
    client.cookies.clear()
    # ... and a second, unrelated browser gets a spectator's view and a message
    second = client.post(f"/api/games/{game_id}/join", json={"invite": invite})
    assert second.status_code == 409 and second.json()["error"] == "seat_taken"
    late = client.get(f"/game/{game_id}?invite={invite}")
    assert "seat of this invitation has been taken" in late.text and 'id="join-game"' not in late.text
    assert client.get(f"/api/games/{game_id}").json()["seat"] is None
    # the invitation box has left the creator's page; the game is on
    creator_page = client.get(f"/game/{game_id}", headers=seat_cookie(game_id, white)).text
    assert 'id="invite"' not in creator_page and invite not in creator_page
    assert client.post(f"/api/games/{game_id}/moves", json={"uci": "e2e4", "token": white}).status_code == 200
    assert client.post(f"/api/games/{game_id}/moves", json={"uci": "e7e5", "token": black}).status_code == 200


def test_invite_race_has_one_winner(app: Any) -> None:
    g = app.state.games.create("orda", white="human", black="human", creator="white")
    results: list[str] = []

    def claim() -> None:
        try:
            results.append(app.state.games.join(g.id, g.invite).seat)
        except Exception as exc:  # the loser's Conflict
            results.append(type(exc).__name__)

    threads = [threading.Thread(target=claim) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["Conflict"] * 7 + ["black"]


def test_invite_cannot_be_claimed_by_the_creator_or_with_a_wrong_token(client: TestClient) -> None:
    g = create(client, variant="chess", opponent="friend", color="white")
    own = client.post(
        f"/api/games/{g['id']}/join", json={"invite": g["invite_token"]}, headers={"X-Seat-Token": g["token"]}
    )
    assert own.status_code == 409 and own.json()["error"] == "already_seated"
    wrong = client.post(f"/api/games/{g['id']}/join", json={"invite": "not-the-invitation"})
    assert wrong.status_code == 403 and wrong.json()["error"] == "bad_invite"
    assert client.get(f"/api/games/{g['id']}").json()["status"] == "waiting"


def test_invite_join_is_broadcast_to_the_creator(client: TestClient) -> None:
    g = create(client, variant="chess", opponent="friend", color="white")
    with client.websocket_connect(f"/ws/game/{g['id']}", headers={"X-Seat-Token": g["token"]}) as ws:
        assert ws.receive_json()["status"] == "waiting"
        client.post(f"/api/games/{g['id']}/join", json={"invite": g["invite_token"]})
        event = ws.receive_json()
        assert event["type"] == "status" and event["status"] == "playing" and event["dests"]


# ----- 3. a link cannot wipe a seat ----------------------------------------------------------------------
def test_p3_a_bogus_token_link_changes_nothing(client: TestClient) -> None:
    game_id, white, _black = friend_game(client)
    cookie = seat_cookie(game_id, white)
    r = client.get(f"/game/{game_id}?token=ANYTHING", headers=cookie, follow_redirects=False)
    assert r.status_code == 200 and "set-cookie" not in r.headers
    assert "does not belong to this game" in r.text
    assert client.get(f"/api/games/{game_id}", headers=cookie).json()["seat"] == "white"


def test_p3_a_seat_link_carries_the_seat_and_only_its_holder_sees_it(client: TestClient) -> None:
    game_id, white, _black = friend_game(client)
    holder = client.get(f"/game/{game_id}", headers=seat_cookie(game_id, white)).text
    assert f"/game/{game_id}?token={white}" in holder and 'class="qr"' in holder
    spectator = client.get(f"/game/{game_id}").text
    assert white not in spectator and 'id="carry"' not in spectator
    # another device opens the seat link: it gets the seat in its cookie and a clean address
    moved = client.get(f"/game/{game_id}?token={white}", follow_redirects=False)
    assert moved.status_code == 303 and moved.headers["location"] == f"/game/{game_id}"
    assert client.get(f"/api/games/{game_id}").json()["seat"] == "white"


# ----- 4. tokens out of URLs and logs, links from the configured address --------------------------------
def test_p4_tokens_in_urls_do_not_authenticate(client: TestClient) -> None:
    game_id, white, _black = friend_game(client)
    assert client.get(f"/api/games/{game_id}?token={white}").json()["seat"] is None
    with client.websocket_connect(f"/ws/game/{game_id}?token={white}") as ws:
        assert ws.receive_json()["seat"] is None
    with client.websocket_connect(f"/ws/game/{game_id}", headers=seat_cookie(game_id, white)) as ws:
        assert ws.receive_json()["seat"] == "white"


def test_p4_links_are_built_from_the_base_url(tmp_path: Path) -> None:
    app = create_app(data_dir=tmp_path, engine_workers=1, base_url="https://play.example.org/")
    with TestClient(app) as client:
        r = client.post(
            "/api/games", json={"variant": "chess", "opponent": "friend"}, headers={"Host": "evil.example"}
        )
        data = r.json()
        assert data["invite_url"].startswith("https://play.example.org/game/")
        assert data["url"].startswith("https://play.example.org/game/")
        page = client.get(f"/game/{data['id']}", headers={"Host": "evil.example"}).text
        assert "evil.example" not in page and "https://play.example.org/game/" in page


def test_p4_redact_removes_tokens_and_invitations() -> None:
    line = '127.0.0.1:5 - "GET /game/abc?token=s3cr3t&x=1 HTTP/1.1" 303 ; /game/abc?invite=inv1'
    assert redact(line) == '127.0.0.1:5 - "GET /game/abc?token=***&x=1 HTTP/1.1" 303 ; /game/abc?invite=***'


def test_p4_tokens_stay_out_of_the_server_log(tmp_path: Path) -> None:
    """A real `hordes serve` at log level info: its access and websocket lines name no token."""
    with logged_server(tmp_path) as (base, log):
        body = json.dumps({"variant": "chess", "opponent": "friend"}).encode()
        req = urllib.request.Request(
            base + "/api/games", data=body, headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(req, timeout=10) as r:
            g = json.loads(r.read())
        secrets = [g["token"], g["invite_token"]]
        for url in (g["url"], g["invite_url"]):  # the links a person opens
            urllib.request.urlopen(url, timeout=10).read()
        from websockets.sync.client import connect

        ws_base = base.replace("http://", "ws://")
        with connect(f"{ws_base}/ws/game/{g['id']}?token={g['token']}", open_timeout=10) as ws:
            assert json.loads(ws.recv(10))["type"] == "game"
        urllib.request.urlopen(base + "/api/variants?last=1", timeout=10).read()
        text = log.wait_for("/api/variants?last=1")  # lines come in order: everything is there
    assert "/api/games" in text and "token=***" in text
    assert not [s for s in secrets if s in text], text
