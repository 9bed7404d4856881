"""Fixtures for the web app: an app on a temporary SQLite file, a TestClient, and helpers.

`HORDES_TEST_DATABASE=postgresql` runs the same tests on PostgreSQL instead: each test gets a fresh
empty database on the throwaway cluster (tests/pg_cluster.py) as $DATABASE_URL, which every
`create_app(data_dir=...)` and `db.database_url(None, ...)` of the tests then uses in place of the
SQLite file. (The `hordes serve` subprocesses of tests/web/live_server.py stay on SQLite unless
a test gives them --database.)
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from hordes.web.app import create_app

# Short games from crafted positions: (variant, FEN, winning move, result, termination).
WINS = {
    "chess": ("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", "d8h4", "0-1", "checkmate"),
    "orda": ("7k/4K3/8/8/8/8/8/8 w - - 0 1", "e7e8", "1-0", "campmate"),
    "khans": ("8/8/8/8/8/8/3k4/7K b - - 0 1", "d2d1", "0-1", "campmate"),
    "hordes": ("7k/R7/8/8/8/8/8/1R2K3 w - - 0 1", "b1b8", "1-0", "checkmate"),
}


TEST_DATABASE = os.environ.get("HORDES_TEST_DATABASE", "sqlite")
if TEST_DATABASE not in ("sqlite", "postgresql"):
    raise pytest.UsageError(f"HORDES_TEST_DATABASE is {TEST_DATABASE!r}: it must be sqlite or postgresql")


@pytest.fixture(autouse=True)
def test_database(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The backend of this test's app: "sqlite", or "postgresql" with a fresh database for it."""
    if TEST_DATABASE == "sqlite":
        yield "sqlite"
        return
    cluster = request.getfixturevalue("pg_cluster")
    name = "w_" + hashlib.sha256(request.node.nodeid.encode()).hexdigest()[:20]
    monkeypatch.setenv("DATABASE_URL", cluster.create_database(name))
    yield "postgresql"
    cluster.drop_database(name)


@pytest.fixture
def app(tmp_path: Path) -> Any:
    return create_app(data_dir=tmp_path, engine_workers=1, engine_movetime=0.3)


@pytest.fixture
def client(app: Any) -> Iterator[TestClient]:
    with TestClient(app) as c:
        yield c


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    """Create a game through the API and forget the seat cookie it sets, so that each request of a
    test says explicitly which token (if any) it sends."""
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    client.cookies.clear()
    data: dict[str, Any] = r.json()
    return data


def friend_game(
    client: TestClient, variant: str = "chess", fen: str | None = None, clock: Any = None
) -> tuple[str, str, str]:
    """(game id, white token, black token) of a game between two people (`clock`: its time control)."""
    body: dict[str, Any] = {"variant": variant, "opponent": "friend", "color": "white"}
    if fen:
        body["fen"] = fen
    if clock is not None:
        body["clock"] = clock
    g = create(client, **body)
    r = client.post(f"/api/games/{g['id']}/join", json={"invite": g["invite_token"]})
    assert r.status_code == 200, r.text
    client.cookies.clear()
    return g["id"], g["token"], r.json()["token"]


ORIGIN = "http://testserver"  # the TestClient's own origin


def csrf_token(client: TestClient) -> str:
    """The CSRF token the lobby page puts in its form (and in this client's cookie)."""
    html = client.get("/").text
    match = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert match, "the lobby form has no csrf_token field"
    return match.group(1)


def post_form(client: TestClient, path: str, fields: dict[str, str], **kwargs: Any) -> Any:
    """A form post as a browser sends it from this site's page: same Origin, the page's CSRF token."""
    data = {"csrf_token": csrf_token(client), **fields}
    return client.post(path, data=data, headers={"Origin": ORIGIN}, follow_redirects=False, **kwargs)
