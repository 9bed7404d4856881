"""Issue 15: `/metrics`, this process's figures in Prometheus's text format (metrics.py)."""

from __future__ import annotations

import re

from starlette.testclient import TestClient

from tests.web.conftest import friend_game

SAMPLE = re.compile(r'([a-z_]+)(\{[a-z]+="[^"]*"\})? (-?[0-9.e+-]+|\+Inf)')


def scrape(client: TestClient) -> tuple[str, dict[str, float]]:
    """The text of /metrics and its samples by name with labels, checking every line's form."""
    r = client.get("/metrics")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain; version=0.0.4")
    samples: dict[str, float] = {}
    for line in r.text.splitlines():
        if line.startswith("# "):
            assert re.fullmatch(r"# (HELP|TYPE) hordes_[a-z_]+ .+", line), line
            continue
        match = SAMPLE.fullmatch(line)
        assert match, f"not a Prometheus sample: {line!r}"
        samples[match.group(1) + (match.group(2) or "")] = float(match.group(3))
    return r.text, samples


def test_issue15_p6_metrics_count_games_sockets_moves_and_their_latency(client: TestClient) -> None:
    _text, before = scrape(client)
    assert before["hordes_live_games"] == 0 and before['hordes_open_sockets{kind="game"}'] == 0
    assert before["hordes_moves_stored_total"] == 0 and before["hordes_move_seconds_count"] == 0
    assert before['hordes_engine_queue_length{kind="game"}'] == 0
    assert before["hordes_process_resident_memory_bytes"] > 0

    game_id, white, black = friend_game(client)
    with (
        client.websocket_connect(f"/ws/game/{game_id}") as watcher,
        client.websocket_connect(f"/ws/game/{game_id}") as second,
        client.websocket_connect("/ws/lobby") as lobby,
    ):
        assert watcher.receive_json()["type"] == "game" and second.receive_json()["type"] == "game"
        assert lobby.receive_json()["type"] == "seeks"
        for uci, token in (("e2e4", white), ("e7e5", black)):
            r = client.post(f"/api/games/{game_id}/moves", json={"uci": uci}, headers={"X-Seat-Token": token})
            assert r.status_code == 200, r.text
            assert watcher.receive_json()["uci"] == uci and second.receive_json()["uci"] == uci
        text, during = scrape(client)
    assert during["hordes_live_games"] == 1
    assert during['hordes_open_sockets{kind="game"}'] == 2
    assert during['hordes_open_sockets{kind="lobby"}'] == 1
    assert during["hordes_moves_stored_total"] == 2
    # the process's CPU, counted up (the web load benchmark divides it by the moves stored)
    assert 0 < before["hordes_process_cpu_seconds_total"] <= during["hordes_process_cpu_seconds_total"]
    assert during["hordes_move_seconds_count"] == 2 and during['hordes_move_seconds_bucket{le="+Inf"}'] == 2
    assert 0 < during["hordes_move_seconds_sum"] < 10
    buckets = [v for k, v in during.items() if k.startswith("hordes_move_seconds_bucket")]
    assert buckets == sorted(buckets)  # cumulative
    # nothing that names a game or lets anyone act in it
    for secret in (game_id, white, black):
        assert secret not in text
