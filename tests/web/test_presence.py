"""Issue 15, what the processes share about who is connected (web/presence.py), on one PostgreSQL:

- an abandonment claim counts the opponent's sockets on every process (a player connected through
  another process is present, not gone since this process started);
- a lobby reload that lands on another process keeps the creator's seeks, which go only after the
  creator's last lobby socket on any process closed (two app instances on one database, each with
  its own bus, presence rows and ManualClock, so the grace passes when the test says);
- the rows of a process that died lapse, and exactly one live process takes them over: it tells
  the game's watchers the seat left, and starts the seek creator's grace, from the dead process's
  last renewal.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from hordes.web import clocks, db, presence
from hordes.web.app import create_app
from hordes.web.lobby import GRACE, PLAYER_HEADER
from hordes.web.timeouts import ManualClock
from tests.pg_cluster import Cluster
from tests.web.conftest import TEST_DATABASE
from tests.web.live_server import server_processes
from tests.web.test_postgres import api, wait_for
from tests.web.test_scale_out import seat_socket
from tests.web.test_seeks import advance  # the lobby clock helper, shared

# These tests start their own PostgreSQL databases: the suite's second pass over tests/web (on
# PostgreSQL, HORDES_TEST_DATABASE=postgresql) would only run them again.
pytestmark = pytest.mark.skipif(TEST_DATABASE == "postgresql", reason="run in the first pass already")

ANN = {PLAYER_HEADER: "ann-" + "a" * 30}


@pytest.fixture
def pg_url(pg_cluster: Cluster, request: pytest.FixtureRequest) -> Iterator[str]:
    name = "p_" + hashlib.sha256(request.node.nodeid.encode()).hexdigest()[:16]
    url = pg_cluster.create_database(name)
    yield url
    pg_cluster.drop_database(name)


def claim(base: str, game_id: str, token: str) -> tuple[int, dict[str, Any]]:
    try:
        return 200, api(base, f"/api/games/{game_id}/claim", {"outcome": "win"}, {"X-Seat-Token": token})
    except Exception as exc:  # urllib's HTTPError: the refusal's JSON body
        body = json.loads(exc.read())  # type: ignore[attr-defined]
        return int(exc.code), body  # type: ignore[attr-defined]


def seat_view(sock: Any, seat: str, online: bool) -> dict[str, Any]:
    """The seat's presence in a fresh snapshot on `sock`, once it says `online`. B writes its socket's
    presence row just after sending that socket its snapshot, so A may answer a sync before the row
    is there: ask again until it is (the deadline is only a safety net)."""
    deadline = time.monotonic() + 30
    while True:
        sock.send(json.dumps({"type": "sync"}))
        view: dict[str, Any] = wait_for(sock, lambda f: f["type"] == "game")["presence"][seat]
        if view["online"] is online:
            return view
        assert time.monotonic() < deadline, f"{seat} never showed online={online}: {view}"
        time.sleep(0.02)


def test_issue15_p2_an_opponent_connected_through_another_process_is_present(
    pg_url: str, tmp_path: Path
) -> None:
    """A clock game, White's socket on A, Black's on B. A's snapshot says Black is online, and
    White's claim through A is refused because Black is connected (not "too early": A alone would
    count Black gone since its start). When Black's socket on B closes, A's watcher hears Black left."""
    with server_processes(2, tmp_path, "--database", pg_url) as [(_pa, a), (_pb, b)]:
        body = {"variant": "chess", "opponent": "friend", "color": "white", "clock": {"base": 600}}
        g = api(a, "/api/games", body)
        black = api(b, f"/api/games/{g['id']}/join", {"invite": g["invite_token"]})["token"]
        white = g["token"]
        api(a, f"/api/games/{g['id']}/moves", {"uci": "e2e4"}, {"X-Seat-Token": white})
        api(a, f"/api/games/{g['id']}/moves", {"uci": "e7e5"}, {"X-Seat-Token": black})
        with seat_socket(b, g["id"], black) as on_b, seat_socket(a, g["id"], white) as on_a:
            assert seat_view(on_a, "black", online=True) == {"online": True, "claim_at": None}
            assert claim(a, g["id"], white) == (
                409,
                {"error": "opponent_present", "message": "your opponent is connected"},
            )
            on_b.close()
            # (a frame announcing Black's arrival may still be on its way to A: wait for the departure)
            left = wait_for(
                on_a, lambda f: f["type"] == "presence" and f["seat"] == "black" and not f["online"]
            )
            assert isinstance(left["claim_at"], int)
            status, refused = claim(a, g["id"], white)
            assert (status, refused["error"]) == (409, "too_early")


def instance(url: str, clock: ManualClock) -> TestClient:
    """One server instance of its own (bus connection, presence owner, timers) on `url`."""
    return TestClient(create_app(database_url=url, engine_workers=1, clock=clock, seek_grace=GRACE))


def seek_state(client: TestClient, seek_id: str) -> str:
    state: str = client.get(f"/api/seeks/{seek_id}").json()["state"]
    return state


def test_issue15_p1_a_lobby_reload_on_another_process_keeps_the_seek(pg_url: str) -> None:
    """Ann's lobby socket is on A; she makes a seek and reloads, and the new socket lands on B.
    A's grace passes: the seek stays (she is in B's lobby). Then she leaves B too: after B's grace
    the seek expires, once, and A's lobby hears of it through the bus."""
    with contextlib.ExitStack() as stack:
        a = stack.enter_context(instance(pg_url, ManualClock()))
        b = stack.enter_context(instance(pg_url, ManualClock()))
        watcher = stack.enter_context(a.websocket_connect("/ws/lobby"))
        assert watcher.receive_json()["type"] == "seeks"
        with a.websocket_connect("/ws/lobby", headers=ANN) as first:
            first.receive_json()
            r = a.post("/api/seeks", json={"variant": "chess"}, headers=ANN)
            assert r.status_code == 201, r.text
            seek_id = r.json()["seek"]["id"]
            assert watcher.receive_json()["type"] == "seek_added"
            reload = stack.enter_context(contextlib.ExitStack())  # closed early, below
            second = reload.enter_context(b.websocket_connect("/ws/lobby", headers=ANN))
            assert [s["id"] for s in second.receive_json()["seeks"]] == [seek_id]
        advance(a, GRACE)
        advance(b, GRACE)
        assert seek_state(a, seek_id) == "open"
        reload.close()  # the socket closed, and its handler done (as a `with` block's end does)
        advance(b, GRACE / 2)
        advance(a, GRACE / 2)
        assert seek_state(b, seek_id) == "open"
        advance(b, GRACE / 2)
        advance(a, GRACE / 2)
        assert watcher.receive_json() == {
            "type": "seek_removed",
            "id": seek_id,
            "reason": "expired",
            "mine": False,
        }
        assert seek_state(a, seek_id) == "expired"


def test_issue15_p2_a_dead_process_rows_lapse_and_one_process_takes_them_over(pg_url: str) -> None:
    """A process that died left a seat and a lobby client counted as connected. Within the lease
    they still count as here; after it, two live processes renewing at the same moment (a barrier)
    clear each row once between them, and both subjects count as gone since the dead process's
    last renewal."""
    engine = db.make_engine(pg_url)
    db.migrate(engine)
    now = [1_800_000_000_000]
    live = [presence.Presence(engine, owner, lambda: now[0]) for owner in ("live-a", "live-b")]
    dead = presence.Presence(engine, "dead", lambda: now[0])
    seat, key = presence.seat_subject("g1", "black"), presence.lobby_subject("anon:x")
    try:
        dead.change(seat, 1)
        dead.change(key, 1)
        now[0] += presence.LEASE_MS
        assert live[0].absent_ms(seat, 0) is None and live[1].heartbeat() == []
        now[0] += 1
        barrier = threading.Barrier(2)
        taken: list[list[presence.Lapsed]] = [[], []]

        def beat(i: int) -> None:
            barrier.wait(10)
            taken[i] = live[i].heartbeat()

        threads = [threading.Thread(target=beat, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        seen = now[0] - 1 - presence.LEASE_MS
        assert sorted(taken[0] + taken[1], key=lambda x: x.subject) == [
            presence.Lapsed(seat, seen),
            presence.Lapsed(key, seen),
        ]
        assert live[0].absent_ms(seat, 0) == live[1].absent_ms(key, 0) == presence.LEASE_MS + 1
        with engine.connect() as conn:
            assert conn.execute(sa.select(sa.func.sum(db.presence.c.sockets))).scalar_one() == 0
    finally:
        engine.dispose()


def test_issue15_p2_a_dead_process_players_are_told_gone_and_its_seek_creators_seeks_expire(
    pg_url: str,
) -> None:
    """A process died holding Black's socket of a clock game and Ann's lobby socket (its rows, not
    renewed past the lease). The live process's renewal takes them over: the game's watchers hear
    Black left when the dead process last renewed, and Ann's seek expires a grace after that."""
    clock = ManualClock()
    with instance(pg_url, clock) as a:
        state = a.app.state  # type: ignore[attr-defined]
        body = {"variant": "chess", "opponent": "friend", "color": "white", "clock": {"base": 600}}
        g = a.post("/api/games", json=body).json()
        a.cookies.clear()
        assert a.post(f"/api/games/{g['id']}/join", json={"invite": g["invite_token"]}).status_code == 200
        a.cookies.clear()
        r = a.post("/api/seeks", json={"variant": "chess"}, headers=ANN)
        seek_id = r.json()["seek"]["id"]
        a.cookies.clear()
        with state.db.connect() as conn:
            key = conn.execute(sa.select(db.seeks.c.creator_key).where(db.seeks.c.id == seek_id)).scalar_one()
        seen = int(clock.now() * 1000)  # the dead process's last renewal: it dies now
        dead = presence.Presence(state.db, "dead", lambda: seen)
        dead.change(presence.seat_subject(g["id"], "black"), 1)
        dead.change(presence.lobby_subject(key), 1)
        with a.websocket_connect(f"/ws/game/{g['id']}") as watcher, a.websocket_connect("/ws/lobby") as lobby:
            assert watcher.receive_json()["presence"]["black"] == {"online": True, "claim_at": None}
            lobby.receive_json()
            advance(a, presence.LEASE_MS / 1000 + 1)  # its lease runs out

            async def renew() -> None:
                await presence.renew(state.live.presence, state.live.lapsed, state.lobby.lapsed)

            assert a.portal is not None
            a.portal.call(renew)
            watcher.send_json(
                {"type": "ping"}
            )  # answered after anything sent before: no wait on a lost frame
            assert watcher.receive_json() == {
                "type": "presence", "id": g["id"], "seat": "black", "online": False,
                "claim_at": seen + clocks.CLAIM_AFTER_MS,
            }  # fmt: skip
            advance(a, 0)  # the grace, counted from the dead process's last renewal, is over by now
            assert seek_state(a, seek_id) == "expired"
            lobby.send_json({"type": "ping"})
            assert lobby.receive_json() == {
                "type": "seek_removed",
                "id": seek_id,
                "reason": "expired",
                "mine": False,
            }
