"""Issue 14 point 6 (and its API, point 14): open challenges (seeks) in the lobby.

The server runs on a ManualClock, so a creator's grace after leaving and a seek's time to live pass
when the test says so. Identities: anonymous players send their player token as X-Player-Token,
accounts their session cookie; the client's own cookie jar is emptied after each call that fills it,
so every request says who makes it.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from hordes.web import db, seeks
from hordes.web.app import create_app
from hordes.web.errors import Conflict
from hordes.web.games import GameService
from hordes.web.lobby import GRACE, PLAYER_HEADER
from hordes.web.seeks import Seeker, SeekService, SeekSpec
from hordes.web.timeouts import ManualClock
from tests.web.conftest import ORIGIN

ANN = {PLAYER_HEADER: "ann-" + "a" * 30}  # two anonymous browsers
BEN = {PLAYER_HEADER: "ben-" + "b" * 30}


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def client(tmp_path: Path, clock: ManualClock) -> Iterator[TestClient]:
    app = create_app(data_dir=tmp_path, engine_workers=1, engine_movetime=0.3, clock=clock)
    with TestClient(app) as c:
        yield c


def advance(client: TestClient, seconds: float) -> None:
    async def go() -> None:
        state = client.app.state  # type: ignore[attr-defined]
        state.live.clock.advance(seconds)
        await state.lobby.settle()

    assert client.portal is not None
    client.portal.call(go)


def account(client: TestClient, name: str) -> dict[str, str]:
    """Sign up; the headers that make later requests this account's."""
    r = client.post("/api/account/signup", json={"username": name, "password": "a long password"})
    assert r.status_code in (200, 201), r.text
    session = client.cookies.get("hordes_session")
    client.cookies.clear()
    return {"Cookie": f"hordes_session={session}"}


def seek(client: TestClient, who: dict[str, str], **body: Any) -> dict[str, Any]:
    r = client.post("/api/seeks", json={"variant": "chess", **body}, headers=who)
    client.cookies.clear()
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()["seek"]
    return data


def listed(client: TestClient, who: dict[str, str] | None = None) -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = client.get("/api/seeks", headers=who or {}).json()["seeks"]
    return data


def counts(client: TestClient) -> tuple[int, int, list[tuple[str, str]]]:
    """(games, seeks, each seek's (id, state)): what a refused request must leave as it was."""
    engine = client.app.state.db  # type: ignore[attr-defined]
    with engine.connect() as conn:
        games = conn.execute(sa.select(sa.func.count()).select_from(db.games)).scalar_one()
        rows = [(r.id, r.state) for r in conn.execute(sa.select(db.seeks).order_by(db.seeks.c.id))]
    return games, len(rows), rows


def test_p6_a_seek_is_listed_and_only_its_creator_cancels_it(client: TestClient) -> None:
    s = seek(client, ANN, clock="3+2", color="white")
    assert s["clock"]["label"] == "3+2" and s["color"] == "white" and s["rated"] is False
    assert s["creator"]["name"] is None  # anonymous
    assert [(x["id"], x["mine"]) for x in listed(client, ANN)] == [(s["id"], True)]
    assert [(x["id"], x["mine"]) for x in listed(client, BEN)] == [(s["id"], False)]
    before = counts(client)
    r = client.delete(f"/api/seeks/{s['id']}", headers=BEN)
    assert (r.status_code, r.json()["error"]) == (403, "not_your_seek")
    assert client.delete(f"/api/seeks/{s['id']}").status_code == 403  # nobody known
    assert counts(client) == before
    assert client.delete(f"/api/seeks/{s['id']}", headers=ANN).json() == {"id": s["id"], "state": "cancelled"}
    assert listed(client) == []
    r = client.delete(f"/api/seeks/{s['id']}", headers=ANN)
    assert (r.status_code, r.json()["error"]) == (409, "seek_closed")
    assert client.get(f"/api/seeks/{s['id']}").json()["state"] == "cancelled"


def test_p6_accepting_makes_the_game_and_seats_both_players(client: TestClient) -> None:
    with client.websocket_connect("/ws/lobby", headers=BEN) as ws:
        assert ws.receive_json() == {"type": "seeks", "seeks": []}
        s = seek(client, ANN, clock={"base": 180, "increment": 2}, color="black")
        added = ws.receive_json()
        assert added["type"] == "seek_added" and added["seek"]["id"] == s["id"]
        assert added["seek"]["mine"] is False
        before = counts(client)
        r = client.post(f"/api/seeks/{s['id']}/accept", headers=ANN)  # one's own seek
        assert (r.status_code, r.json()["error"]) == (403, "own_seek")
        assert counts(client) == before
        r = client.post(f"/api/seeks/{s['id']}/accept", headers=BEN)
        assert r.status_code == 200, r.text
        client.cookies.clear()
        won = r.json()
        removed = ws.receive_json()
    assert removed == {
        "type": "seek_removed", "id": s["id"], "reason": "accepted", "game_id": won["id"], "mine": False,
    }  # fmt: skip
    assert won["seat"] == "white" and won["game"]["status"] == "playing"
    assert won["game"]["clock"]["control"]["label"] == "3+2"
    # The creator learns the game and their seat (black) by asking for the seek.
    mine = client.get(f"/api/seeks/{s['id']}", headers=ANN).json()
    client.cookies.clear()
    assert (mine["state"], mine["game_id"], mine["seat"]) == ("accepted", won["id"], "black")
    assert "token" not in client.get(f"/api/seeks/{s['id']}", headers=BEN).json()  # not the creator's
    game = won["id"]
    for token, uci in ((won["token"], "e2e4"), (mine["token"], "e7e5")):
        r = client.post(f"/api/games/{game}/moves", json={"uci": uci, "token": token})
        assert r.status_code == 200, r.text
    assert listed(client) == []
    r = client.post(f"/api/seeks/{s['id']}/accept", headers={PLAYER_HEADER: "cat-" + "c" * 30})
    assert (r.status_code, r.json()["error"]) == (409, "seek_closed")
    assert counts(client)[0] == before[0] + 1  # one game, however often it is accepted


def test_p6_rated_seeks_need_accounts(client: TestClient) -> None:
    alice, bob = account(client, "alice"), account(client, "bob")
    before = counts(client)
    r = client.post("/api/seeks", json={"variant": "orda", "rated": True}, headers=ANN)
    assert (r.status_code, r.json()["error"]) == (403, "rated_needs_account")
    assert counts(client) == before
    s = seek(client, alice, variant="orda", rated=True, clock="5+3")
    assert s["creator"] == {"name": "alice", "rating": 1500, "rating_text": "1500?", "provisional": True}
    before = counts(client)
    r = client.post(f"/api/seeks/{s['id']}/accept", headers=ANN)
    assert (r.status_code, r.json()["error"]) == (403, "rated_needs_account")
    assert counts(client) == before
    r = client.post(f"/api/seeks/{s['id']}/accept", headers=bob)
    client.cookies.clear()
    assert r.status_code == 200, r.text
    game = r.json()["game"]
    assert game["rated"] is True
    names = {side: p["user"]["name"] for side, p in game["players"].items()}
    assert sorted(names.values()) == ["alice", "bob"] and names[r.json()["seat"]] == "bob"


def race(services: list[SeekService], seek_id: str) -> list[object]:
    """Each service accepts the seek in a thread of its own, both released at once: their results."""
    start = threading.Barrier(len(services))
    results: list[object] = [None] * len(services)

    def accept(i: int) -> None:
        start.wait()
        try:
            results[i] = services[i].accept(seek_id, Seeker(f"anon:accepter{i}"))
        except Conflict as exc:
            results[i] = exc

    threads = [threading.Thread(target=accept, args=(i,)) for i in range(len(services))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


def test_p6_two_accepters_race_and_exactly_one_wins(tmp_path: Path) -> None:
    """Two server processes' services on one database (each with its own engine), accepting the same
    seek at the same moment: the conditional UPDATE lets one through; the other gets 409."""
    url = f"sqlite:///{tmp_path / 'race.sqlite3'}"
    engines = [db.make_engine(url), db.make_engine(url)]
    db.migrate(engines[0])
    services = [SeekService(e, GameService(e)) for e in engines]
    for attempt in range(3):  # a few rounds, so that the outcome is not one lucky interleaving
        s = services[0].create(Seeker(f"anon:creator{attempt}"), SeekSpec("chess", None, False, "random"))
        results = race(services, s.view["id"])
        won = [r for r in results if isinstance(r, seeks.Accepted)]
        lost = [r for r in results if isinstance(r, Conflict)]
        assert len(won) == 1 and len(lost) == 1, results
        assert lost[0].status == 409
        with engines[0].connect() as conn:
            made = conn.execute(sa.select(db.games.c.id)).scalars().all()
            row = conn.execute(sa.select(db.seeks).where(db.seeks.c.id == s.view["id"])).one()
        assert len(made) == attempt + 1 and won[0].game_id in made
        assert (row.state, row.game_id) == ("accepted", won[0].game_id)
    for e in engines:
        e.dispose()


def test_p6_a_seek_goes_when_its_creator_leaves_the_lobby(client: TestClient) -> None:
    with client.websocket_connect("/ws/lobby", headers=BEN) as watcher:
        watcher.receive_json()
        with client.websocket_connect("/ws/lobby", headers=ANN) as creator:
            creator.receive_json()
            s = seek(client, ANN)
            assert creator.receive_json()["seek"]["mine"] is True
            assert watcher.receive_json()["seek"]["mine"] is False  # the other form of the same event
        advance(client, GRACE / 2)  # a reload comes back within the grace: the seek stays
        with client.websocket_connect("/ws/lobby", headers=ANN) as creator:
            assert [x["id"] for x in creator.receive_json()["seeks"]] == [s["id"]]
        advance(client, GRACE / 2)  # the old grace timer was cancelled by the return
        assert [x["id"] for x in listed(client)] == [s["id"]]
        advance(client, GRACE)  # gone for good
        assert watcher.receive_json() == {
            "type": "seek_removed", "id": s["id"], "reason": "expired", "mine": False,
        }  # fmt: skip
    assert listed(client) == []
    assert client.get(f"/api/seeks/{s['id']}").json()["state"] == "expired"


def test_p6_an_api_seek_stays_until_its_time_to_live(client: TestClient) -> None:
    s = seek(client, ANN)  # this creator never opens the lobby socket
    advance(client, 10 * GRACE)
    assert [x["id"] for x in listed(client)] == [s["id"]]
    advance(client, seeks.TTL_MS / 1000)
    assert listed(client) == []
    assert client.get(f"/api/seeks/{s['id']}").json()["state"] == "expired"
    r = client.post(f"/api/seeks/{s['id']}/accept", headers=BEN)
    assert (r.status_code, r.json()["error"]) == (409, "seek_closed")


def test_p6_every_refused_seek_request_is_a_4xx_and_changes_nothing(client: TestClient) -> None:
    first = seek(client, ANN, clock="3+0")
    for n in range(1, seeks.MAX_OPEN):
        seek(client, ANN, clock=f"{n + 3}+0")
    before = counts(client)
    refused = [
        (client.post("/api/seeks", json={"clock": "3+0"}, headers=ANN), 409, "duplicate_seek"),
        (client.post("/api/seeks", json={"clock": "9+9"}, headers=ANN), 409, "too_many_seeks"),
        (client.post("/api/seeks", json={"variant": "nope"}, headers=BEN), 400, None),
        (client.post("/api/seeks", json={"clock": "3+x"}, headers=BEN), 400, "bad_clock"),
        (client.post("/api/seeks", json={"clock": {"days": 2}}, headers=BEN), 400, "bad_clock"),
        (client.post("/api/seeks", json={"color": "green"}, headers=BEN), 400, "bad_request"),
        (client.post("/api/seeks", json={"rated": "yes"}, headers=BEN), 400, "bad_request"),
        (client.post("/api/seeks", content=b"[1]", headers={**BEN, "content-type": "application/json"}), 400, None),
        (client.post("/api/seeks", content=b"x=1", headers={**BEN, "content-type": "text/plain"}), 415, None),
        (client.post("/api/seeks", json={}, headers={**BEN, "Origin": "http://evil.example"}), 403, None),
        (client.post("/api/seeks", json={}, headers={PLAYER_HEADER: "no spaces!"}), 400, "bad_token"),
        (client.post("/api/seeks/nosuchseek/accept", headers=BEN), 404, "no_seek"),
        (client.post("/api/seeks/bad..id/accept", headers=BEN), 404, None),
        (client.delete("/api/seeks/nosuchseek", headers=ANN), 404, "no_seek"),
        (client.post(f"/api/seeks/{first['id']}/accept", content=b"{", headers={**BEN, "content-type": "application/json"}), 400, "bad_json"),
        (client.delete(f"/api/seeks/{first['id']}", headers={**ANN, "Origin": "http://evil.example"}), 403, None),
    ]  # fmt: skip
    client.cookies.clear()
    for r, status, code in refused:
        assert r.status_code == status, (r.request.url, r.text)
        assert "error" in r.json() and "message" in r.json()
        if code:
            assert r.json()["error"] == code, r.text
    assert counts(client) == before


def test_p6_the_lobby_socket_refuses_other_sites_and_answers_only_pings(client: TestClient) -> None:
    evil = {"Origin": "http://evil.example"}
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect("/ws/lobby", headers=evil) as ws,
    ):
        ws.receive_json()
    assert refused.value.code == 4403
    s = seek(client, ANN)
    with client.websocket_connect("/ws/lobby", headers={"Origin": ORIGIN}) as ws:
        assert [(x["id"], x["mine"]) for x in ws.receive_json()["seeks"]] == [(s["id"], False)]
        ws.send_text('{"type": "accept"}')
        assert ws.receive_json()["error"] == "bad_message"
        ws.send_text("not json")
        assert ws.receive_json()["error"] == "bad_json"
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
    assert [x["id"] for x in listed(client)] == [s["id"]]  # nothing the socket was sent changed it
