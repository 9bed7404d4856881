"""Helpers for the clock and abandonment tests: an app on a ManualClock, time moved on through the
TestClient's event loop, two-player clock games."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from hordes.web.app import create_app
from hordes.web.timeouts import ManualClock
from tests.web.conftest import friend_game


def timed_client(tmp_path: Path, clock: ManualClock) -> Iterator[TestClient]:
    app = create_app(data_dir=tmp_path, engine_workers=1, engine_movetime=0.3, clock=clock)
    with TestClient(app) as c:
        yield c


def advance(client: TestClient, seconds: float) -> None:
    """Move the server's time on and let every timer that fell due do its work."""

    async def go() -> None:
        live = client.app.state.live  # type: ignore[attr-defined]
        live.clock.advance(seconds)
        await live.timeouts.settle()

    assert client.portal is not None
    client.portal.call(go)


def clock_game(
    client: TestClient, clock: Any, variant: str = "chess", fen: str | None = None
) -> tuple[str, str, str]:
    """(id, white token, black token) of a two-player game with this clock, both seats filled."""
    return friend_game(client, variant, fen, clock)


def play(client: TestClient, game_id: str, token: str, uci: str) -> dict[str, Any]:
    r = client.post(f"/api/games/{game_id}/moves", json={"uci": uci, "token": token})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def state(client: TestClient, game_id: str) -> dict[str, Any]:
    data: dict[str, Any] = client.get(f"/api/games/{game_id}").json()
    return data
