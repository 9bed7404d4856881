"""A real server (uvicorn in a subprocess on loopback) is killed mid-game and restarted: nothing is lost."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.sync.client import connect

from tests.web.live_server import server


def api(base: str, path: str, body: dict[str, Any] | None = None) -> Any:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def ws_url(base: str, game_id: str) -> str:
    return base.replace("http://", "ws://") + f"/ws/game/{game_id}"


def play(base: str, game_id: str, token: str, uci: str) -> dict[str, Any]:
    """Send a move over the websocket and return its stored event (read before the ack)."""
    with connect(ws_url(base, game_id), additional_headers={"X-Seat-Token": token}, open_timeout=10) as ws:
        assert json.loads(ws.recv(10))["type"] == "game"
        ws.send(json.dumps({"type": "move", "uci": uci, "ref": 1}))
        event = json.loads(ws.recv(10))
        assert event["type"] == "move", event
        assert json.loads(ws.recv(10))["type"] == "ack"
        return dict(event)


def test_kill_and_restart_loses_nothing(tmp_path: Path) -> None:
    with server(tmp_path) as base:
        g = api(base, "/api/games", {"variant": "orda", "opponent": "friend"})
        game_id, white = g["id"], g["token"]
        black = api(base, f"/api/games/{game_id}/join", {"invite": g["invite_token"]})["token"]
        play(base, game_id, white, "e2e4")
        play(base, game_id, black, "g6g5")
        # an engine game in which the engine is thinking when the server dies
        e = api(base, "/api/games", {"variant": "chess", "opponent": "engine", "level": 6})
        play(base, e["id"], e["token"], "e2e4")
    with server(tmp_path) as base:
        state = api(base, f"/api/games/{game_id}")
        assert [m["uci"] for m in state["moves"]] == ["e2e4", "g6g5"] and state["turn"] == "white"
        event = play(base, game_id, white, "d1h5")
        assert event["ply"] == 3 and event["san"] == "Qh5+"
        # the engine's turn was resumed at start-up
        deadline = time.monotonic() + 30
        while api(base, f"/api/games/{e['id']}")["ply"] < 2:
            assert time.monotonic() < deadline, "the engine never answered after the restart"
            time.sleep(0.2)
    with server(tmp_path) as base:
        with connect(
            ws_url(base, game_id), additional_headers={"X-Seat-Token": black}, open_timeout=10
        ) as ws:
            whole = json.loads(ws.recv(10))
        assert whole["seat"] == "black" and [m["san"] for m in whole["moves"]] == ["e4", "g5", "Qh5+"]
