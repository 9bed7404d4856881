"""Issue 15: several server processes on one PostgreSQL, tested against a real server (the throwaway
cluster of tests/pg_cluster.py), and SQLite's single file serialised the same way."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import sqlite3
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient
from websockets.sync.client import connect

from hordes.web import db, move_store
from hordes.web.app import create_app
from hordes.web.bus import PostgresBus
from hordes.web.clocks import TimeControl
from hordes.web.games import Conflict, GameService
from tests.pg_cluster import Cluster
from tests.process_guard import descendants
from tests.web.conftest import TEST_DATABASE, create
from tests.web.live_server import engine_worker, server_processes

# These tests start their own PostgreSQL databases: the suite's second pass over tests/web (on
# PostgreSQL, HORDES_TEST_DATABASE=postgresql) would only run them again.
pytestmark = pytest.mark.skipif(TEST_DATABASE == "postgresql", reason="run in the first pass already")


@pytest.fixture
def pg_url(pg_cluster: Cluster, request: pytest.FixtureRequest) -> Iterator[str]:
    """A fresh empty database on the throwaway cluster, for this test only."""
    name = "t_" + hashlib.sha256(request.node.nodeid.encode()).hexdigest()[:16]
    url = pg_cluster.create_database(name)
    yield url
    pg_cluster.drop_database(name)


def test_issue15_p1_the_cluster_is_a_throwaway_one(pg_cluster: Cluster, pg_url: str) -> None:
    assert pg_cluster.port != 5432 and str(pg_cluster.dir) in str(pg_cluster.data)
    engine = sa.create_engine(pg_url, poolclass=sa.NullPool)
    with engine.connect() as conn:
        assert conn.execute(sa.text("SHOW data_directory")).scalar() == str(pg_cluster.data)
        assert conn.execute(sa.text("SHOW port")).scalar() == str(pg_cluster.port)
    engine.dispose()


def test_issue15_p3_every_migration_runs_on_postgresql(pg_url: str) -> None:
    engine = db.make_engine(pg_url)
    assert db.migrate(engine, target=1) == 1
    assert db.migrate(engine) == db.SCHEMA_VERSION
    assert db.migrate(engine) == db.SCHEMA_VERSION  # nothing left to do
    tables = set(sa.inspect(engine).get_table_names())
    assert {"schema_version", "games", "moves", "evaluations", "users", "seeks"} <= tables
    with engine.connect() as conn:
        assert db.current_version(conn) == db.SCHEMA_VERSION
        assert conn.execute(sa.select(sa.func.count()).select_from(db.schema_version)).scalar() == 1
    engine.dispose()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_issue15_p3_migrations_started_at_once_all_succeed(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Three migrations of one empty database released at the same instant (a barrier): before the
    lock, one failed (PostgreSQL: UniqueViolation on schema_version's type; SQLite: table exists)."""
    url = request.getfixturevalue("pg_url") if backend == "postgresql" else db.database_url(None, tmp_path)
    engines = [db.make_engine(url) for _ in range(3)]
    barrier = threading.Barrier(len(engines))
    outcomes: list[object] = [None] * len(engines)

    def run(i: int) -> None:
        barrier.wait()
        try:
            outcomes[i] = db.migrate(engines[i])
        except Exception as exc:
            outcomes[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(engines))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert outcomes == [db.SCHEMA_VERSION] * len(engines)
    with engines[0].connect() as conn:
        assert conn.execute(sa.select(db.schema_version.c.version)).scalars().all() == [db.SCHEMA_VERSION]
    for engine in engines:
        engine.dispose()


def test_issue15_p3_a_fresh_sqlite_file_being_written_still_enters_wal_mode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new connection's switch to WAL mode is refused at once ("database is locked", no busy
    wait) while another connection holds the write lock of a file not yet in WAL mode: the cause of
    the migrations test's rare failure. The switch now retries until the lock is gone."""
    path = tmp_path / "fresh.sqlite3"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("CREATE TABLE t (x)")
    holder.execute("BEGIN IMMEDIATE")  # the write lock, as another process's first migration holds it
    refused = threading.Event()
    real_sleep = time.sleep

    def pause(seconds: float) -> None:
        refused.set()  # only the retry of a refused switch sleeps here
        real_sleep(seconds)

    monkeypatch.setattr(time, "sleep", pause)
    outcome: list[object] = []

    def connect() -> None:
        try:
            engine = db.make_engine(f"sqlite:///{path}")
            with engine.connect() as conn:
                outcome.append(conn.exec_driver_sql("PRAGMA journal_mode").scalar())
            engine.dispose()
        except Exception as exc:
            outcome.append(exc)
        refused.set()

    opener = threading.Thread(target=connect)
    opener.start()
    assert refused.wait(30)
    holder.execute("ROLLBACK")
    opener.join(30)
    holder.close()
    assert outcome == ["wal"]


def api(
    base: str, path: str, body: dict[str, Any] | None = None, headers: dict[str, str] | None = None
) -> Any:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(
        base + path, data=data, headers={"Content-Type": "application/json", **(headers or {})}
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def ws(base: str, path: str) -> Any:
    return connect(base.replace("http://", "ws://") + path, open_timeout=10)


def wait_for(socket: Any, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The first frame the socket receives that `wanted` accepts (each frame within 10 s: a bound
    that only a lost event reaches)."""
    while True:
        frame: dict[str, Any] = json.loads(socket.recv(10))
        if wanted(frame):
            return frame


def test_issue15_p1_two_servers_started_together_share_moves_and_seeks(pg_url: str, tmp_path: Path) -> None:
    """Two processes started at once on an empty database both come up (they migrate together); a
    watcher on A sees a move made through B's API, and a seek made on A appears in B's lobby."""
    with server_processes(2, tmp_path, "--database", pg_url) as [(_pa, a), (_pb, b)]:
        g = api(a, "/api/games", {"variant": "chess", "opponent": "friend", "color": "white"})
        api(b, f"/api/games/{g['id']}/join", {"invite": g["invite_token"]})
        with ws(a, f"/ws/game/{g['id']}") as watcher:
            assert json.loads(watcher.recv(10))["type"] == "game"
            # the client offers compression; the server declines it (its CPU, at 500 games)
            assert "permessage-deflate" in (watcher.request.headers.get("Sec-WebSocket-Extensions") or "")
            assert watcher.response.headers.get("Sec-WebSocket-Extensions") is None
            played = api(b, f"/api/games/{g['id']}/moves", {"uci": "e2e4"}, {"X-Seat-Token": g["token"]})
            seen = wait_for(watcher, lambda f: f["type"] == "move")
            assert seen["ply"] == played["ply"] == 1 and seen["uci"] == "e2e4" and seen["san"] == "e4"
        with ws(b, "/ws/lobby") as lobby:
            assert json.loads(lobby.recv(10))["type"] == "seeks"
            made = api(a, "/api/seeks", {"variant": "orda"})
            added = wait_for(lobby, lambda f: f["type"] == "seek_added")
            assert added["seek"]["id"] == made["seek"]["id"] and added["seek"]["mine"] is False
            with urllib.request.urlopen(
                urllib.request.Request(
                    a + f"/api/seeks/{made['seek']['id']}",
                    method="DELETE",
                    headers={"X-Player-Token": made["player_token"]},
                ),
                timeout=10,
            ):
                pass
            removed = wait_for(lobby, lambda f: f["type"] == "seek_removed")
            assert removed["id"] == made["seek"]["id"] and removed["reason"] == "cancelled"


def test_issue15_p1_three_servers_every_watcher_sees_every_move(pg_url: str, tmp_path: Path) -> None:
    """Three processes started together on an empty database; moves made through each one reach the
    watchers on the other two, in order."""
    with server_processes(3, tmp_path, "--database", pg_url) as started:
        bases = [base for _proc, base in started]
        g = api(bases[0], "/api/games", {"variant": "chess", "opponent": "friend", "color": "white"})
        black = api(bases[1], f"/api/games/{g['id']}/join", {"invite": g["invite_token"]})["token"]
        with contextlib.ExitStack() as stack:
            sockets = [stack.enter_context(ws(base, f"/ws/game/{g['id']}")) for base in bases]
            for socket in sockets:
                assert json.loads(socket.recv(10))["type"] == "game"
            for ply, (uci, token) in enumerate([("e2e4", g["token"]), ("e7e5", black), ("g1f3", g["token"])]):
                api(bases[ply], f"/api/games/{g['id']}/moves", {"uci": uci}, {"X-Seat-Token": token})
                for socket in sockets:
                    seen = wait_for(socket, lambda f: f["type"] == "move")
                    assert (seen["ply"], seen["uci"]) == (ply + 1, uci)


def test_issue15_p2_the_flag_falls_once_on_the_other_process_after_one_dies(
    pg_url: str, tmp_path: Path
) -> None:
    """A clock game played through A, watched on B: A is killed; B, armed by A's move events,
    judges the flag and tells its watcher (the judgement is a conditional update: one process ends it)."""
    with server_processes(2, tmp_path, "--database", pg_url, "--clock-min-base", "1") as started:
        (proc_a, a), (_pb, b) = started
        body = {
            "variant": "chess",
            "opponent": "friend",
            "color": "white",
            "clock": {"base": 2, "increment": 0},
        }
        g = api(a, "/api/games", body)
        black = api(a, f"/api/games/{g['id']}/join", {"invite": g["invite_token"]})["token"]
        with ws(b, f"/ws/game/{g['id']}") as watcher:
            assert json.loads(watcher.recv(10))["type"] == "game"
            for uci, token in (("e2e4", g["token"]), ("e7e5", black)):
                api(a, f"/api/games/{g['id']}/moves", {"uci": uci}, {"X-Seat-Token": token})
                wait_for(watcher, lambda f, u=uci: f["type"] == "move" and f["uci"] == u)
            proc_a.kill()
            proc_a.wait(10)
            ended = wait_for(watcher, lambda f: f["type"] == "status" and f.get("status") == "over")
            assert ended["result"] == "0-1" and ended["termination"] == "time forfeit", ended
        state = api(b, f"/api/games/{g['id']}")
        assert state["result"] == "0-1" and state["termination"] == "time forfeit"


def test_issue15_p2_an_engine_turn_is_searched_once_when_three_processes_compete(pg_url: str) -> None:
    """Three apps on one database, each with a watcher of an engine game whose engine is to move
    (each watcher's connection starts its process's engine turn): one process searches, the move is
    stored once, and every watcher gets it. Before the claims, each of the three searched."""
    apps = [create_app(database_url=pg_url, engine_workers=1, engine_movetime=0.3) for _ in range(3)]
    searches: list[int] = []
    with contextlib.ExitStack() as stack:
        clients = [stack.enter_context(TestClient(app)) for app in apps]
        for i, client in enumerate(clients):
            live = client.app.state.live  # type: ignore[attr-defined]
            real_move = live.pool.move

            async def counting(*args: Any, _real: Any = real_move, _i: int = i, **kw: Any) -> str | None:
                searches.append(_i)
                result: str | None = await _real(*args, **kw)
                return result

            live.pool.move = counting
        # the game is stored through the first process only; its engine (White) moves first
        game = create(clients[0], variant="chess", opponent="engine", level=1, color="black")
        watchers = [stack.enter_context(c.websocket_connect(f"/ws/game/{game['id']}")) for c in clients]
        for watcher in watchers:
            while True:
                frame = watcher.receive_json()
                if frame["type"] == "move" or (frame["type"] == "game" and frame["ply"] >= 1):
                    break
        for client in clients:
            assert len(client.get(f"/api/games/{game['id']}").json()["moves"]) == 1
        assert len(searches) == 1, searches


def test_issue15_p4_a_server_without_engine_workers_leaves_the_engine_to_an_engine_worker(
    pg_url: str, tmp_path: Path
) -> None:
    """`hordes serve --engine-workers 0` searches nothing (no engine process, analysis refused); a
    `hordes engine-worker` on the same database plays the engine's moves: the first it finds by its
    sweep at start, the next when the server's notification of the human move wakes it."""
    with server_processes(1, tmp_path, "--database", pg_url, "--engine-workers", "0") as [(proc, base)]:
        g = api(base, "/api/games", {"variant": "chess", "opponent": "engine", "level": 1, "color": "white"})
        seat = {"X-Seat-Token": g["token"]}
        api(base, f"/api/games/{g['id']}/moves", {"uci": "e2e4"}, seat)
        with pytest.raises(urllib.error.HTTPError) as refused:
            api(base, "/api/analysis", {"variant": "chess", "movetime": 0.1})
        assert refused.value.code == 503
        with ws(base, f"/ws/game/{g['id']}") as watcher:
            assert json.loads(watcher.recv(10))["type"] == "game"
            with engine_worker(pg_url, "--movetime", "0.2", "--poll", "600"):
                assert wait_for(watcher, lambda f: f["type"] == "move")["ply"] == 2
                api(base, f"/api/games/{g['id']}/moves", {"uci": "d2d4"}, seat)
                wait_for(watcher, lambda f: f["type"] == "move" and f["ply"] == 4)
        assert len(api(base, f"/api/games/{g['id']}")["moves"]) == 4
        assert descendants(proc.pid) == []  # the server never started an engine process


def relayed(
    pg_url: str,
    events: list[dict[str, Any]],
    together: bool = False,
    texts: list[str] | None = None,
    encodings: list[str | None] | None = None,
) -> list[dict[str, Any]]:
    """What a second bus receives of `events` published by a first one on the database, one after
    the other or all at once (`together`: so that the sender batches them). `texts`: publish each
    event with this JSON text; `encodings`: collects what the receiver's `encoded` gives each event."""
    db.migrate(db.make_engine(pg_url))

    async def scenario() -> list[dict[str, Any]]:
        sender, receiver = PostgresBus(pg_url), PostgresBus(pg_url)
        got: list[dict[str, Any]] = []
        arrived = asyncio.Event()

        async def take(event: dict[str, Any]) -> None:
            got.append(event)
            if encodings is not None:
                encodings.append(receiver.encoded(event))
            if len(got) == len(events):
                arrived.set()

        receiver.subscribe("game", take)
        await sender.start()
        await receiver.start()
        try:
            given = texts or [None] * len(events)
            if together:
                await asyncio.gather(
                    *(sender.publish("game", e, t) for e, t in zip(events, given, strict=True))
                )
            else:
                for e, t in zip(events, given, strict=True):
                    await sender.publish("game", e, t)
            await asyncio.wait_for(arrived.wait(), 30)
        finally:
            await sender.close()
            await receiver.close()
        return got

    return asyncio.run(scenario())


def test_issue15_p1_an_event_too_large_for_a_notification_is_read_back(pg_url: str) -> None:
    """PostgreSQL refuses notifications of 8000 bytes and more: such an event goes through the
    bus_events table, and the other process gets it whole."""
    got = relayed(pg_url, [{"n": 1, "text": "x" * 20_000}, {"n": 2, "text": "small"}])
    assert [e["n"] for e in got] == [1, 2] and got[0]["text"] == "x" * 20_000


def test_issue15_p1_events_sent_together_arrive_whole_and_in_order(pg_url: str) -> None:
    """Events published at once go in batches of one statement each: every one arrives, in order,
    with the characters that JSON and array literals quote (quotes, backslashes, braces, commas)."""
    texts = [f'{n}: "q" \\ {{a, b}} ; é ♞ \n' for n in range(450)]
    got = relayed(pg_url, [{"n": n, "text": t} for n, t in enumerate(texts)], together=True)
    assert [e["n"] for e in got] == list(range(len(texts)))
    assert [e["text"] for e in got] == texts


def test_issue15_p1_an_events_text_crosses_the_bus_as_it_was_given(pg_url: str) -> None:
    """An event is encoded once: the receiving process's subscriber gets, through `encoded`, the very
    text the sender published with it, small, large (read back from bus_events) and batched; an
    event published without one comes with the JSON the envelope carried."""
    events = [{"n": n, "text": f'"q" \\ é {n}'} for n in range(40)] + [{"n": 40, "text": "x" * 20_000}]
    texts = [json.dumps(e) for e in events]  # default separators: not the envelope's compact ones
    for together in (False, True):
        encodings: list[str | None] = []
        got = relayed(pg_url, events, together=together, texts=texts, encodings=encodings)
        assert got == events and encodings == texts
    encodings = []
    assert relayed(pg_url, events[:3], encodings=encodings) == events[:3]
    assert [json.loads(t) for t in encodings if t is not None] == events[:3]


def test_issue15_p1_a_process_delivers_its_own_events_once(pg_url: str) -> None:
    """A process hears its own notifications too: it must skip them (it delivered each one when it
    was published), small and large alike. The receiver's reply is the fence: PostgreSQL delivers
    notifications in commit order, so once the sender hears it, its own have all come back."""
    db.migrate(db.make_engine(pg_url))
    events = [{"n": 1}, {"n": 2, "text": "x" * 20_000}, {"n": 3}]

    async def scenario() -> list[dict[str, Any]]:
        sender, receiver = PostgresBus(pg_url), PostgresBus(pg_url)
        at_sender: list[dict[str, Any]] = []
        relayed_all, fenced = asyncio.Event(), asyncio.Event()
        heard: list[dict[str, Any]] = []

        async def sender_hears(event: dict[str, Any]) -> None:
            at_sender.append(event)
            if event.get("fence"):
                fenced.set()

        async def receiver_hears(event: dict[str, Any]) -> None:
            heard.append(event)
            if len(heard) == len(events):
                relayed_all.set()

        sender.subscribe("game", sender_hears)
        receiver.subscribe("game", receiver_hears)
        await sender.start()
        await receiver.start()
        try:
            for e in events:
                await sender.publish("game", e)
            await asyncio.wait_for(relayed_all.wait(), 30)
            await receiver.publish("game", {"fence": True})
            await asyncio.wait_for(fenced.wait(), 30)
        finally:
            await sender.close()
            await receiver.close()
        return at_sender

    assert asyncio.run(scenario()) == [*events, {"fence": True}]


def _migrated(pg_url: str) -> tuple[sa.Engine, GameService]:
    engine = db.make_engine(pg_url)
    db.migrate(engine)
    return engine, GameService(engine)


def _two_humans(service: GameService) -> tuple[str, dict[str, str]]:
    made = service.create("chess", white="human", black="human", creator="white")
    joined = service.join(made.id, made.invite)
    return made.id, {"white": made.tokens["white"], "black": joined.token}


def _record_statements(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, bool]]:
    """The first word of every statement that psycopg runs from now on, and whether it ran it in
    autocommit (no BEGIN before it, no COMMIT after it). Recorded at the driver, since the move's
    read and store go to psycopg's cursor directly (move_store.py), not through SQLAlchemy."""
    import psycopg

    seen: list[tuple[str, bool]] = []
    execute = psycopg.Cursor.execute

    def record(cursor: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append((str(query).split()[0], bool(cursor.connection.autocommit)))
        return execute(cursor, query, *args, **kwargs)

    monkeypatch.setattr(psycopg.Cursor, "execute", record)
    return seen


def test_issue15_benchmark_a_move_takes_one_connection_and_two_statements(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Round trips per move set the 500-game latency: the row is read and the move stored on one
    # connection, the pool does not ping the connection it hands out, and the store is one
    # statement (move_store.py) that commits by itself: no BEGIN and no COMMIT around the move.
    engine = db.make_engine(pg_url)
    db.migrate(engine)
    service = GameService(engine)
    game_id, tokens = _two_humans(service)
    checkouts: list[object] = []
    sa.event.listen(engine, "checkout", lambda *args: checkouts.append(args[0]))
    statements = _record_statements(monkeypatch)
    event = service.move(game_id, tokens["white"], "e2e4")  # the board is built from the stored moves
    assert event["ply"] == 1
    assert len(checkouts) == 1
    assert statements == [("SELECT", True), ("SELECT", True), ("WITH", True)]
    statements.clear()
    assert service.move(game_id, tokens["black"], "e7e5")["ply"] == 2  # the cached board
    assert statements == [("SELECT", True), ("WITH", True)]
    assert [m["uci"] for m in service.state(game_id)["moves"]] == ["e2e4", "e7e5"]
    assert engine.pool._pre_ping is False  # type: ignore[attr-defined]
    engine.dispose()


def test_issue15_benchmark_a_move_that_ends_the_game_is_stored_with_its_result_in_one_transaction(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The move, the game's result and the ratings' update stand or fall together: for the last move
    # the connection leaves autocommit, and the store and the result go in one transaction.
    engine = db.make_engine(pg_url)
    db.migrate(engine)
    service = GameService(engine)
    game_id, tokens = _two_humans(service)
    for ply, uci in enumerate(["f2f3", "e7e5", "g2g4"]):
        service.move(game_id, tokens["white" if ply % 2 == 0 else "black"], uci)
    statements = _record_statements(monkeypatch)
    event = service.move(game_id, tokens["black"], "d8h4")  # mate
    assert event["result"] == "0-1" and event["status"] == "over"
    assert statements[0] == ("SELECT", True)  # the read, as for any move
    assert statements[1] == ("WITH", False) and all(not auto for _word, auto in statements[1:])
    state = service.state(game_id)
    assert state["result"] == "0-1" and [m["uci"] for m in state["moves"]][-1] == "d8h4"
    statements.clear()
    with engine.connect() as conn:  # the pool's connections are back in their default mode
        conn.execute(sa.text("SELECT 1"))
    assert statements == [("SELECT", False)]
    engine.dispose()


def test_issue15_benchmark_a_move_on_a_connection_the_server_dropped_is_stored(pg_url: str) -> None:
    engine, service = _migrated(pg_url)
    game_id, tokens = _two_humans(service)
    service.move(game_id, tokens["white"], "e2e4")  # leaves its connection in the pool
    killer = sa.create_engine(pg_url, poolclass=sa.NullPool)
    with killer.connect() as conn:
        dropped = conn.execute(
            sa.text(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        ).scalar()
    killer.dispose()
    assert dropped and dropped >= 1
    event = service.move(game_id, tokens["black"], "e7e5")  # its first read fails, and is tried again
    assert event["ply"] == 2
    assert [m["uci"] for m in service.state(game_id)["moves"]] == ["e2e4", "e7e5"]
    engine.dispose()


def test_issue15_benchmark_the_drivers_read_of_a_game_is_sqlalchemys_row(pg_url: str) -> None:
    # move_store reads a game through psycopg's cursor and makes the Row itself: every column must
    # come back as SQLAlchemy's own read gives it (values and types: times, flags, clock fields).
    engine, service = _migrated(pg_url)
    made = service.create(
        "chess", white="human", black="human", creator="white", clock=TimeControl(60_000, 2_000)
    )
    tokens = {"white": made.tokens["white"], "black": service.join(made.id, made.invite).token}
    for ply, uci in enumerate(["e2e4", "e7e5", "g1f3"]):
        service.move(made.id, tokens["white" if ply % 2 == 0 else "black"], uci)
    with engine.connect() as conn:
        ours = move_store.read_game(conn, made.id)
        theirs = conn.execute(move_store.READ_GAME, {"game_id": made.id}).one()
        assert move_store.read_game(conn, "no-such-game") is None
    assert ours is not None and isinstance(ours, sa.Row)
    assert list(ours._mapping) == list(theirs._mapping) == [c.name for c in db.games.c]
    assert [(v, type(v)) for v in ours] == [(v, type(v)) for v in theirs]
    assert ours.ply == 3 and ours.clock_base_ms == 60_000 and ours.white_ms is not None
    engine.dispose()


def test_issue15_benchmark_a_duplicate_move_row_through_the_driver_is_sqlalchemys_error(pg_url: str) -> None:
    # The store in autocommit goes to psycopg directly; a move row that exists already must still
    # raise SQLAlchemy's IntegrityError (GameService answers it as a stale ply), write nothing, and
    # leave the connection usable.
    engine, service = _migrated(pg_url)
    game_id, tokens = _two_humans(service)
    service.move(game_id, tokens["white"], "e2e4")
    stamp = db.now()
    with engine.begin() as conn:  # a row for ply 1 that the game row does not count yet
        conn.execute(db.moves.insert(), {"game_id": game_id, "ply": 1, "uci": "d7d5", "san": "d5",
                                         "fen": "x", "created_at": stamp, "clock_ms": None})  # fmt: skip
    with pytest.raises(Conflict) as refused:
        service.move(game_id, tokens["black"], "e7e5")
    assert refused.value.code == "stale_ply"
    with engine.connect() as conn:
        move_store.autocommit(conn)
        before = move_store.read_game(conn, game_id)
        assert before is not None and before.ply == 1
        row = {"game_id": game_id, "ply": 1, "uci": "e7e5", "san": "e5", "fen": "y", "created_at": stamp,
               "clock_ms": None}  # fmt: skip
        with pytest.raises(sa.exc.IntegrityError):
            move_store.store(conn, row, {"ply": 2, "fen": "y"}, game_id, 1)
        after = move_store.read_game(conn, game_id)  # the same connection still works
    assert after is not None and after.ply == 1 and after.fen == before.fen  # the update went with it
    engine.dispose()
