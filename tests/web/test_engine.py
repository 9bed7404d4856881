"""Engine games and analysis: the engine answers from a worker process, the server stays responsive."""

from __future__ import annotations

import time

from starlette.testclient import TestClient

from tests.web.conftest import WINS, create, friend_game


def test_engine_answers_over_the_socket(client: TestClient) -> None:
    g = create(client, variant="orda", opponent="engine", color="white", level=1)
    with client.websocket_connect(f"/ws/game/{g['id']}", headers={"X-Seat-Token": g["token"]}) as ws:
        assert ws.receive_json()["seat"] == "white"
        ws.send_json({"type": "move", "uci": "e2e4"})
        mine = ws.receive_json()
        assert mine["type"] == "move" and mine["engine_to_move"] is True
        assert ws.receive_json()["type"] == "ack"
        # while the engine thinks in its process, the server answers other requests
        t0 = time.perf_counter()
        assert client.get("/api/games").status_code == 200
        assert time.perf_counter() - t0 < 1.0
        reply = ws.receive_json()
        assert reply["type"] == "move" and reply["ply"] == 2 and reply["turn"] == "white"
        assert reply["engine_to_move"] is False and reply["dests"]


def test_engine_plays_first_as_white(client: TestClient) -> None:
    g = create(client, variant="hordes", opponent="engine", color="black", level=1)
    with client.websocket_connect(f"/ws/game/{g['id']}", headers={"X-Seat-Token": g["token"]}) as ws:
        first = ws.receive_json()
        if first["ply"] == 0:
            first = ws.receive_json()
        assert first["ply"] == 1 and first["turn"] == "black"


def test_analysis_of_a_position(client: TestClient) -> None:
    fen, win, _, _ = WINS["hordes"]
    r = client.post("/api/analysis", json={"variant": "hordes", "fen": fen, "movetime": 0.5})
    ev = r.json()
    assert r.status_code == 200 and ev["best"] == win and ev["mate"] == 1
    assert ev["pv_san"] == "1. Rb8#"
    bad = client.post("/api/analysis", json={"variant": "hordes", "fen": fen, "movetime": "fast"})
    assert bad.status_code == 400


def test_evaluations_of_a_finished_game(client: TestClient) -> None:
    fen, win, _, _ = WINS["orda"]
    game_id, white, _ = friend_game(client, "orda", fen)
    assert client.get(f"/api/games/{game_id}/evaluations").status_code == 409  # not while it is played
    client.post(f"/api/games/{game_id}/moves", json={"uci": win, "token": white})
    evals = client.get(f"/api/games/{game_id}/evaluations").json()["evaluations"]
    assert [e["ply"] for e in evals] == [0, 1]
    assert evals[0]["mate"] == 1 and evals[1]["cp"] > 1000  # won: at the graph's edge
    assert client.get(f"/api/games/{game_id}/evaluations").json()["evaluations"] == evals  # stored


def test_evaluation_graph_of_a_line(client: TestClient) -> None:
    r = client.post(
        "/api/analysis/line", json={"variant": "chess", "moves": ["e2e4", "e7e5"], "movetime": 0.05}
    )
    assert [e["ply"] for e in r.json()["evaluations"]] == [0, 1, 2]
