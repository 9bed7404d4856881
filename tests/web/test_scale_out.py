"""Issue 15, the rest of its verification: two sockets racing for one ply (one process on SQLite and
on PostgreSQL, and two processes on one PostgreSQL), and a process killed mid-game whose clients
reconnect to the other one and lose nothing that was acknowledged. Real `hordes serve` processes
(tests/web/live_server.py) on the throwaway cluster (tests/pg_cluster.py)."""

from __future__ import annotations

import contextlib
import hashlib
import json
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.pg_cluster import Cluster
from tests.web.conftest import TEST_DATABASE
from tests.web.live_server import server_processes
from tests.web.test_postgres import api, wait_for

# These tests start their own PostgreSQL databases: the suite's second pass over tests/web (on
# PostgreSQL, HORDES_TEST_DATABASE=postgresql) would only run them again.
pytestmark = pytest.mark.skipif(TEST_DATABASE == "postgresql", reason="run in the first pass already")

FRAME_BOUND = 10.0  # seconds a frame may take: only a lost event reaches it


@pytest.fixture
def pg_url(pg_cluster: Cluster, request: pytest.FixtureRequest) -> Iterator[str]:
    """A fresh empty database on the throwaway cluster, for this test only."""
    name = "s_" + hashlib.sha256(request.node.nodeid.encode()).hexdigest()[:16]
    url = pg_cluster.create_database(name)
    yield url
    pg_cluster.drop_database(name)


def seat_socket(base: str, game_id: str, token: str | None = None) -> ClientConnection:
    """A game's websocket (a seat's, sending its token as a header as non-browser clients do),
    once it has its snapshot."""
    headers = {"X-Seat-Token": token} if token else None
    url = base.replace("http://", "ws://") + f"/ws/game/{game_id}"
    # entered here (websockets wants its connections entered); closed by the caller's `with` or close()
    sock = connect(url, open_timeout=10, additional_headers=headers).__enter__()
    assert json.loads(sock.recv(FRAME_BOUND))["type"] == "game"
    return sock


def friend_game(base: str, other: str) -> tuple[str, str, str]:
    """(id, white token, black token) of a game made on `base` and joined through `other`."""
    g = api(base, "/api/games", {"variant": "chess", "opponent": "friend", "color": "white"})
    black = api(other, f"/api/games/{g['id']}/join", {"invite": g["invite_token"]})["token"]
    return g["id"], g["token"], black


def answer(sock: ClientConnection, ref: int) -> dict[str, Any]:
    """The ack or error frame that answers the message `ref`."""
    return wait_for(sock, lambda f: f["type"] in ("ack", "error") and f.get("ref") == ref)


# Each round: White's two sockets race with these two moves for one ply, then Black replies. Every
# pair is legal whichever of the earlier moves won, so the rounds chain. One race can miss the window
# in which a broken guard would let both moves in (they may arrive a little apart); three rarely do.
RACE_ROUNDS = [(("e2e4", "d2d4"), "e7e5"), (("g1f3", "b1c3"), "b8c6"), (("h2h3", "a2a3"), "g8f6")]


def race_once(racers: list[ClientConnection], moves: tuple[str, str], ply: int) -> int:
    """Release both moves for `ply` at once (a barrier), one from each racer; check that exactly one
    is acknowledged and the other refused as stale; return the winner's index."""
    barrier = threading.Barrier(len(racers))
    answers: list[dict[str, Any] | BaseException] = [RuntimeError("no answer")] * len(racers)
    refs = [ply * 10 + i for i in range(len(racers))]

    def race(i: int) -> None:
        try:
            barrier.wait(FRAME_BOUND)
            racers[i].send(json.dumps({"type": "move", "uci": moves[i], "ply": ply, "ref": refs[i]}))
            answers[i] = answer(racers[i], refs[i])
        except BaseException as exc:  # reported by the assertion below
            answers[i] = exc

    threads = [threading.Thread(target=race, args=(i,)) for i in range(len(racers))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(3 * FRAME_BOUND)
    assert all(isinstance(x, dict) for x in answers), answers
    kinds = sorted(x["type"] for x in answers if isinstance(x, dict))
    assert kinds == ["ack", "error"], (ply, answers)
    won = next(i for i, x in enumerate(answers) if isinstance(x, dict) and x["type"] == "ack")
    lost = answers[1 - won]
    assert isinstance(lost, dict) and lost["error"] in ("stale_ply", "not_your_turn"), lost
    assert answers[won] == {"type": "ack", "ref": refs[won], "ply": ply + 1}
    return won


@pytest.mark.parametrize(
    ("database", "processes"), [("sqlite", 1), ("postgresql", 1), ("postgresql", 2)]
)  # fmt: skip
def test_issue15_p2_two_sockets_racing_for_one_ply_store_one_move(
    database: str, processes: int, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """White's seat has two sockets (two tabs; with two processes, one on each). In each of three
    rounds a barrier releases both moves for White's ply at once, a different move on each: exactly
    one is stored and acknowledged, the other refused with a conflict (409: the other socket's move
    came first), and each watcher (one per process) sees that one move and then Black's reply, and
    nothing else. Without the database's per-ply guard (the moves key and the conditional update) the
    two-process case stores both; without the per-game lock as well, the one-process cases do."""
    options = ("--database", request.getfixturevalue("pg_url")) if database == "postgresql" else ()
    with server_processes(processes, tmp_path, *options) as started:
        bases = [base for _proc, base in started]
        a, b = bases[0], bases[-1]
        game_id, white, black = friend_game(a, b)
        line: list[str] = []
        with contextlib.ExitStack() as stack:
            watchers = [stack.enter_context(seat_socket(base, game_id)) for base in bases]
            racers = [stack.enter_context(seat_socket(base, game_id, white)) for base in (a, b)]
            for moves, reply in RACE_ROUNDS:
                ply = len(line)
                won = race_once(racers, moves, ply)
                # Black replies through the last process; each watcher's move frames up to it are
                # exactly the winner's move and the reply: no second move for the ply reached anyone.
                api(b, f"/api/games/{game_id}/moves", {"uci": reply, "ply": ply + 1}, {"X-Seat-Token": black})
                line += [moves[won], reply]
                for watcher in watchers:
                    seen: list[tuple[int, str]] = []
                    while not seen or seen[-1][0] < ply + 2:
                        frame = wait_for(watcher, lambda f: f["type"] in ("move", "game"))
                        assert frame["type"] == "move", f"a watcher was sent the whole game again: {frame}"
                        seen.append((frame["ply"], frame["uci"]))
                    assert seen == [(ply + 1, moves[won]), (ply + 2, reply)]
                for racer in racers:  # the racers' own copies of the moves, read before the next round
                    while wait_for(racer, lambda f: f["type"] == "move")["ply"] < ply + 2:
                        pass
        for base in bases:
            stored = api(base, f"/api/games/{game_id}")
            assert [m["uci"] for m in stored["moves"]] == line


class ReconnectingClient:
    """A game client that does what the page does when its socket drops: it connects again (here,
    to the next server process in its list), takes the whole game from the snapshot, and goes on.
    It remembers the plies the server acknowledged to it."""

    def __init__(self, bases: list[str], game_id: str, token: str) -> None:
        self.bases = bases
        self.game_id = game_id
        self.token = token
        self.at = 0  # the base it is connected to
        self.sock = connect(
            bases[0].replace("http://", "ws://") + f"/ws/game/{game_id}",
            open_timeout=10,
            additional_headers={"X-Seat-Token": token},
        ).__enter__()
        self.acked: dict[int, str] = {}  # ply -> the move this client made there
        self.sent: dict[int, str] = {}  # ref -> uci
        self.snapshot: dict[str, Any] | None = None  # the last whole game received

    def send_move(self, ref: int, uci: str) -> None:
        self.sent[ref] = uci
        self.sock.send(json.dumps({"type": "move", "uci": uci, "ref": ref}))

    def take(self, frame: dict[str, Any]) -> None:
        if frame["type"] == "ack":
            self.acked[frame["ply"]] = self.sent[frame["ref"]]
        elif frame["type"] == "game":
            self.snapshot = frame

    def answered(self, ref: int) -> dict[str, Any]:
        """Read frames until the server answers the message `ref` (its ack or error)."""
        while True:
            frame = json.loads(self.sock.recv(FRAME_BOUND))
            self.take(frame)
            if frame["type"] in ("ack", "error") and frame.get("ref") == ref:
                return frame

    def until(self, ply: int) -> None:
        """Read frames until a move at `ply` or beyond arrives."""
        while True:
            frame = json.loads(self.sock.recv(FRAME_BOUND))
            self.take(frame)
            if frame["type"] == "move" and frame["ply"] >= ply:
                return

    def drain_until_closed(self) -> None:
        """Read what the dead process sent before its socket closed (an ack may be among it)."""
        with contextlib.suppress(ConnectionClosed):
            while True:
                self.take(json.loads(self.sock.recv(FRAME_BOUND)))

    def reconnect(self) -> None:
        self.sock.close()
        self.at = (self.at + 1) % len(self.bases)
        url = self.bases[self.at].replace("http://", "ws://") + f"/ws/game/{self.game_id}"
        self.sock = connect(url, open_timeout=10, additional_headers={"X-Seat-Token": self.token}).__enter__()
        frame = json.loads(self.sock.recv(FRAME_BOUND))
        assert frame["type"] == "game", frame
        self.take(frame)

    def close(self) -> None:
        self.sock.close()


@contextlib.contextmanager
def game_row_held(url: str, game_id: str) -> Iterator[Callable[[], None]]:
    """Hold the game's row lock (SELECT ... FOR UPDATE) in a transaction of the test's own, so that
    a process storing a move of the game stops at its conditional update, with the move not yet
    committed. Yields a function that waits until some server's statement waits for that lock (a
    state read from pg_locks, polled). The lock is released (rolled back) on exit, and the exit then
    waits until every backend that waited for it has ended (a killed process's backend finishes its
    statement first): what is stored is then final."""
    engine = sa.create_engine(url, poolclass=sa.NullPool)
    waiting: list[int] = []
    try:
        with engine.connect() as holder, engine.connect() as probe:
            holder.execute(sa.text("SELECT id FROM games WHERE id = :g FOR UPDATE"), {"g": game_id})
            mine = holder.execute(sa.text("SELECT pg_backend_pid()")).scalar_one()
            blocked = sa.text("SELECT pid FROM pg_locks WHERE NOT granted AND pid <> :me")

            def wait_blocked() -> None:
                deadline = time.monotonic() + FRAME_BOUND
                while not (pids := probe.execute(blocked, {"me": mine}).scalars().all()):
                    probe.rollback()  # a fresh snapshot for the next look
                    assert time.monotonic() < deadline, "no move came to wait for the game's row"
                    time.sleep(0.01)
                waiting.extend(pids)
                probe.rollback()

            yield wait_blocked
            holder.rollback()
            alive = sa.text("SELECT count(*) FROM pg_stat_activity WHERE pid = ANY(:pids)")
            deadline = time.monotonic() + FRAME_BOUND
            while probe.execute(alive, {"pids": waiting}).scalar_one():
                probe.rollback()
                assert time.monotonic() < deadline, "a backend that waited for the game's row did not end"
                time.sleep(0.01)
    finally:
        engine.dispose()


def test_issue15_p1_a_killed_process_clients_reconnect_to_the_other_and_lose_nothing_acked(
    pg_url: str, tmp_path: Path
) -> None:
    """Both seats play through process A by websocket, a watcher sits on B. Then White sends a move
    while the test holds the game's row, and A is killed (SIGKILL) while it is storing that move: its
    statement is at the database, waiting for the row. Both seats reconnect to B: their snapshots
    hold every acknowledged move, in order, and the move in flight either whole or not at all (it is
    one statement that commits by itself, so the database may finish it after its sender died; no
    one was told it was stored). The seat is still theirs, and the game goes on through B to B's
    watcher. (A server that acknowledged a move before its commit fails here: White holds an ack for
    a move B never saw.)"""
    with server_processes(2, tmp_path, "--database", pg_url) as started:
        (proc_a, a), (_proc_b, b) = started
        game_id, white_token, black_token = friend_game(a, a)
        white = ReconnectingClient([a, b], game_id, white_token)
        black = ReconnectingClient([a, b], game_id, black_token)
        try:
            with seat_socket(b, game_id) as watcher:
                line = ["e2e4", "e7e5", "g1f3", "b8c6"]
                for ply, uci in enumerate(line):
                    mover, other = (white, black) if ply % 2 == 0 else (black, white)
                    mover.send_move(ply, uci)
                    assert mover.answered(ply) == {"type": "ack", "ref": ply, "ply": ply + 1}
                    other.until(ply + 1)
                    wait_for(watcher, lambda f, p=ply + 1: f["type"] == "move" and f["ply"] == p)
                assert sorted({**white.acked, **black.acked}) == [1, 2, 3, 4]
                with game_row_held(pg_url, game_id) as wait_blocked:
                    white.send_move(99, "f1b5")  # in flight when A dies
                    wait_blocked()
                    proc_a.kill()
                    proc_a.wait(10)
                    white.drain_until_closed()
                    black.drain_until_closed()
                acked = {**white.acked, **black.acked}
                for client in (white, black):
                    client.reconnect()
                    assert client.at == 1 and client.snapshot is not None
                    stored = [m["uci"] for m in client.snapshot["moves"]]
                    assert all(ply <= len(stored) and stored[ply - 1] == uci for ply, uci in acked.items()), (
                        stored,
                        acked,
                    )
                    assert stored in (line, [*line, "f1b5"]), stored
                    assert client.snapshot["seat"] == ("white" if client is white else "black")
                    assert 5 not in acked  # nobody was told of the move in flight
                # the game goes on through B, from what is stored, and B's watcher sees it
                ply = len(stored)
                mover, uci = (white, "f1b5") if ply == 4 else (black, "a7a6")
                mover.send_move(100, uci)
                assert mover.answered(100) == {"type": "ack", "ref": 100, "ply": ply + 1}
                seen = wait_for(watcher, lambda f: f["type"] == "move" and f["ply"] == ply + 1)
                assert seen["uci"] == uci
        finally:
            white.close()
            black.close()
        stored_moves = [m["uci"] for m in api(b, f"/api/games/{game_id}")["moves"]]
        assert stored_moves == [*stored, uci]


def test_issue15_p1_another_process_move_keeps_this_process_board_cache_and_a_misfit_drops_it(
    tmp_path: Path,
) -> None:
    """Two game services (two processes' worth of cache) on one database. A's moves, told to B as
    its bus would (`follow`), advance B's cached board in place, so B's own next move uses that board
    rather than one rebuilt from the stored moves. A move that does not reach the position the
    event names (events can arrive out of order) drops B's board, which B's next move rebuilds."""
    from hordes.web import db
    from hordes.web.games import GameService

    engine = db.make_engine(db.database_url(None, tmp_path))
    db.migrate(engine)
    a, b = GameService(engine), GameService(engine)
    try:
        made = a.create("chess", white="human", black="human", creator="white")
        white = made.tokens["white"]
        black = b.join(made.id, made.invite).token
        b.state(made.id)  # B has the game's board cached, at ply 0
        cached = b._boards[made.id].board
        told = a.move(made.id, white, "e2e4")
        b.follow(made.id, told["ply"], told["uci"], told["fen"])
        assert b._boards[made.id].board is cached and len(cached.move_stack) == 1
        b.move(made.id, black, "e7e5")
        assert b._boards[made.id].board is cached and len(cached.move_stack) == 2
        told = a.move(made.id, white, "g1f3")
        b.follow(made.id, told["ply"], "b1c3", told["fen"])  # not the stored move: dropped
        assert b._boards[made.id].board is None
        b.move(made.id, black, "b8c6")
        assert [m["uci"] for m in b.state(made.id)["moves"]] == ["e2e4", "e7e5", "g1f3", "b8c6"]
    finally:
        engine.dispose()
