"""Live games over the websocket: players and spectators, errors, reconnecting."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.web.conftest import WINS, friend_game


def connect(client: TestClient, game_id: str, token: str | None = None) -> Any:
    headers = {"X-Seat-Token": token} if token else {}
    return client.websocket_connect(f"/ws/game/{game_id}", headers=headers)


def test_players_and_spectators_see_moves(client: TestClient) -> None:
    game_id, white, black = friend_game(client, "orda")
    with (
        connect(client, game_id, white) as w,
        connect(client, game_id, black) as b,
        connect(client, game_id) as s,
    ):
        for ws, seat in ((w, "white"), (b, "black"), (s, None)):
            hello = ws.receive_json()
            assert hello["type"] == "game" and hello["seat"] == seat and hello["ply"] == 0
        w.send_json({"type": "move", "uci": "e2e4", "ply": 0, "ref": 1})
        for ws in (w, b, s):
            event = ws.receive_json()
            assert event["type"] == "move" and event["san"] == "e4" and event["ply"] == 1
            assert event["turn"] == "black" and "g6" in event["dests"]
        assert w.receive_json() == {"type": "ack", "ref": 1, "ply": 1}
        b.send_json({"type": "move", "uci": "g6g5", "ref": "x"})
        for ws in (w, b, s):
            assert ws.receive_json()["uci"] == "g6g5"
        assert b.receive_json()["type"] == "ack"


def test_errors_leave_the_game_unchanged(client: TestClient) -> None:
    game_id, white, black = friend_game(client)
    with connect(client, game_id, white) as w, connect(client, game_id) as spectator:
        w.receive_json()
        spectator.receive_json()
        cases: list[tuple[Any, str]] = [
            ({"type": "move", "uci": "e2e5"}, "illegal_move"),
            ({"type": "move", "uci": 7}, "bad_move"),
            ({"type": "move", "uci": "e7e5", "token": black}, "not_your_turn"),
            ({"type": "move", "uci": "e2e4", "ply": 3}, "stale_ply"),
            ({"type": "dance"}, "bad_message"),
            ({"type": "draw", "action": "accept"}, "no_draw_offer"),
        ]
        for i, (msg, code) in enumerate(cases):
            w.send_json({**msg, "ref": i})
            reply = w.receive_json()
            assert reply["type"] == "error" and reply["error"] == code and reply["ref"] == i, reply
        w.send_text("{oops")
        assert w.receive_json()["error"] == "bad_json"
        w.send_text("[]")
        assert w.receive_json()["error"] == "bad_json"
        spectator.send_json({"type": "move", "uci": "e2e4"})
        assert spectator.receive_json()["error"] == "forbidden"
        spectator.send_json({"type": "resign"})
        assert spectator.receive_json()["error"] == "forbidden"
    state = client.get(f"/api/games/{game_id}").json()
    assert state["ply"] == 0 and state["status"] == "playing" and state["draw_offer"] is None


def test_too_large_message_closes(client: TestClient) -> None:
    game_id, white, _ = friend_game(client)
    with connect(client, game_id, white) as w:
        w.receive_json()
        w.send_text('{"type": "move", "uci": "' + "e" * 20000 + '"}')
        assert w.receive_json()["error"] == "too_large"
        with pytest.raises(WebSocketDisconnect) as closed:
            w.receive_json()
        assert closed.value.code == 1009
    assert client.get(f"/api/games/{game_id}").json()["ply"] == 0


def test_unknown_game_closes(client: TestClient) -> None:
    with connect(client, "nosuchgame") as ws:
        assert ws.receive_json()["error"] == "not_found"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4404


def test_cross_site_pages_are_refused(client: TestClient) -> None:
    game_id, _, _ = friend_game(client)
    with (
        pytest.raises(WebSocketDisconnect) as closed,
        client.websocket_connect(f"/ws/game/{game_id}", headers={"origin": "https://evil.example"}) as ws,
    ):
        ws.receive_json()
    assert closed.value.code == 4403


def test_reconnect_gets_the_whole_game_and_the_end(client: TestClient) -> None:
    fen, win, result, _ = WINS["hordes"]
    game_id, white, _ = friend_game(client, "hordes", fen)
    with connect(client, game_id, white) as w:
        w.receive_json()
        w.send_json({"type": "move", "uci": win})
        assert w.receive_json()["status"] == "over"
    with connect(client, game_id, white) as again:
        whole = again.receive_json()
        assert whole["type"] == "game" and [m["uci"] for m in whole["moves"]] == [win]
        assert whole["result"] == result and whole["reason"] == "White wins by checkmate"
        again.send_json({"type": "move", "uci": "e1e2"})
        assert again.receive_json()["error"] == "game_over"
        again.send_json({"type": "sync"})
        assert again.receive_json()["type"] == "game"
        again.send_json({"type": "ping", "ref": 9})
        assert again.receive_json() == {"type": "pong", "ref": 9}


def test_resign_and_draw_over_the_socket(client: TestClient) -> None:
    game_id, white, black = friend_game(client)
    with connect(client, game_id, white) as w, connect(client, game_id, black) as b:
        w.receive_json()
        b.receive_json()
        w.send_json({"type": "draw", "action": "offer"})
        assert b.receive_json()["draw_offer"] == "white"
        w.receive_json()  # the status event
        w.receive_json()  # the ack
        b.send_json({"type": "draw", "action": "decline"})
        assert w.receive_json()["draw_offer"] is None
        b.receive_json()
        b.receive_json()
        b.send_json({"type": "resign"})
        ended = w.receive_json()
        assert ended["type"] == "status" and ended["result"] == "1-0"


def test_the_cookie_is_the_token(client: TestClient) -> None:
    r = client.post("/api/games", json={"variant": "chess", "opponent": "friend"})
    game_id = r.json()["id"]
    with client.websocket_connect(f"/ws/game/{game_id}") as ws:  # the cookie from creating the game
        assert ws.receive_json()["seat"] == "white"


def test_an_event_made_while_a_socket_waits_for_its_snapshot_comes_after_it(
    client: TestClient, app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A socket is registered before its snapshot is read, so that no event is missed; one made in
    between (here a move, made while the snapshot's presence is being read) used to reach the
    client before the snapshot. It is held and sent after it."""
    game_id, white, _black = friend_game(client)
    live = app.state.live
    reading, release = threading.Event(), threading.Event()
    real_view = live.presence_view

    def slow_view(game: str, joining: str | None = None) -> Any:
        reading.set()
        assert release.wait(30)
        return real_view(game, joining)

    monkeypatch.setattr(live, "presence_view", slow_view)
    with connect(client, game_id) as spectator:
        assert reading.wait(30)
        monkeypatch.setattr(live, "presence_view", real_view)
        moved = client.post(
            f"/api/games/{game_id}/moves", json={"uci": "e2e4"}, headers={"X-Seat-Token": white}
        )
        assert moved.status_code == 200
        release.set()
        first, second = spectator.receive_json(), spectator.receive_json()
        assert first["type"] == "game" and second["type"] == "move" and second["ply"] == 1
