"""Issue 13 point 7: per-client rate limits on the expensive requests, tested on a clock the test moves."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from hordes.web import db
from hordes.web.app import create_app
from hordes.web.ratelimit import DEFAULT_RULES, MAX_BUCKETS, RateLimited, RateLimiter, Rule
from tests.web.conftest import WINS, friend_game, post_form


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def games_stored(client: TestClient) -> int:
    engine = client.app.state.db  # type: ignore[attr-defined]
    with engine.connect() as conn:
        return int(conn.execute(sa.select(sa.func.count()).select_from(db.games)).scalar_one())


def test_rate_limit_game_creation(tmp_path: Path) -> None:
    clock = FakeClock()
    app = create_app(data_dir=tmp_path, engine_workers=1, rate_limits=RateLimiter(clock=clock))
    rule = DEFAULT_RULES["create"]
    body = {"variant": "chess", "opponent": "friend"}
    with TestClient(app) as client:
        for _ in range(int(rule.capacity)):
            assert client.post("/api/games", json=body).status_code == 201
        over = client.post("/api/games", json=body)
        assert over.status_code == 429 and over.json()["error"] == "rate_limited"
        assert over.headers["retry-after"] == str(round(1 / rule.per_second))
        assert "creating games" in over.json()["message"]
        # the lobby form shares the limit, and answers with a page
        form = post_form(client, "/games", body)
        assert form.status_code == 429 and form.headers["retry-after"] == over.headers["retry-after"]
        assert form.headers["content-type"].startswith("text/html")
        assert games_stored(client) == rule.capacity  # refused: nothing stored
        clock.now += 1 / rule.per_second  # one game's worth of time
        assert post_form(client, "/games", body).status_code == 303
        assert client.post("/api/games", json=body).status_code == 429
        assert games_stored(client) == rule.capacity + 1


def test_rate_limits_on_pgn_analysis_and_graphs(tmp_path: Path) -> None:
    clock = FakeClock()
    rules = {
        "pgn": Rule(8, 1, "KB of PGN", "PGN import"),
        "analysis": Rule(0.04, 0.01, "engine seconds", "analysis"),  # less than any search
        "graph": Rule(0.01, 0.01, "engine seconds", "evaluation graphs"),
    }
    app = create_app(data_dir=tmp_path, engine_workers=1, rate_limits=RateLimiter(rules, clock))
    pgn = '[Variant "Orda"]\n\n' + "1. e4 g5 " + "{" + "x" * 3000 + "} *"  # about 3 KB
    with TestClient(app) as client:
        for _ in range(2):
            assert client.post("/api/pgn/import", json={"pgn": pgn}).status_code == 200
        over = client.post("/api/pgn/import", json={"pgn": pgn})
        assert over.status_code == 429 and int(over.headers["retry-after"]) >= 1
        clock.now += int(over.headers["retry-after"])
        assert client.post("/api/pgn/import", json={"pgn": pgn}).status_code == 200

        for url, body in [
            ("/api/analysis", {"variant": "chess", "movetime": 0.05}),
            ("/api/analysis/line", {"variant": "chess", "moves": ["e2e4"]}),
        ]:
            r = client.post(url, json=body)
            assert r.status_code == 429 and r.headers["retry-after"], (url, r.text)
        fen, win, _, _ = WINS["orda"]
        game_id, white, _ = friend_game(client, "orda", fen)
        client.post(f"/api/games/{game_id}/moves", json={"uci": win, "token": white})
        r = client.get(f"/api/games/{game_id}/evaluations")
        assert r.status_code == 429 and r.headers["retry-after"]
        assert client.app.state.pool._executor is None  # type: ignore[attr-defined]  # no search ran


def test_token_bucket_refills_and_forgets() -> None:
    clock = FakeClock()
    limiter = RateLimiter({"x": Rule(3, 0.5, "units", "things")}, clock)
    limiter.take("x", "a", 2)
    limiter.take("x", "b", 3)  # clients do not share buckets
    with pytest.raises(RateLimited) as exc:
        limiter.take("x", "a", 2)
    assert exc.value.retry_after == 2  # one unit missing at half a unit a second
    limiter.take("x", "a", 1)  # a refused request spent nothing
    clock.now += 100
    limiter.take("x", "a", 3)  # refilled, but never beyond the capacity
    with pytest.raises(RateLimited):
        limiter.take("x", "a", 0.5)
    limiter.take("unknown", "a", 10**9)  # a limit not configured is no limit
    for n in range(MAX_BUCKETS + 10):
        limiter.take("x", f"client {n}")
    assert len(limiter._buckets) == MAX_BUCKETS
