"""Issue 14 point 7: takeback, rematch and abort (web/offers.py), and the draw offer's absence in
engine games. Every transition of each machine is made once; every refused one answers a 4xx and
leaves the game as it was. Clocks run on an injected clock (no test waits for time)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from hordes.web import offers
from hordes.web.ratelimit import Rule
from hordes.web.timeouts import ManualClock
from tests.web.clocked import advance, clock_game, timed_client
from tests.web.conftest import create, friend_game
from tests.web.test_ratings import account, fast, rated_game
from tests.web.test_snapshots import busy_switching, mismatches

__all__ = ["busy_switching", "fast"]  # fixtures, used by name


def state(client: TestClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    headers = {"X-Seat-Token": token} if token else {}
    r = client.get(f"/api/games/{game_id}", headers=headers)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def stored(client: TestClient, game_id: str) -> dict[str, Any]:
    """The game as stored (the clock's reading of "now" left out: only the stored state counts)."""
    s = state(client, game_id)
    if s.get("clock"):
        s["clock"] = {k: v for k, v in s["clock"].items() if k != "server_time"}
    return s


def post(client: TestClient, game_id: str, what: str, token: str | None, **body: Any) -> Any:
    return client.post(f"/api/games/{game_id}/{what}", json={**body, **({"token": token} if token else {})})


def ok(client: TestClient, game_id: str, what: str, token: str, **body: Any) -> dict[str, Any]:
    r = post(client, game_id, what, token, **body)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def refused(
    client: TestClient, game_id: str, what: str, token: str | None, status: int, code: str, **body: Any
) -> None:
    before = stored(client, game_id)
    r = post(client, game_id, what, token, **body)
    assert (r.status_code, r.json()["error"]) == (status, code), r.text
    assert stored(client, game_id) == before, f"{what} {body} changed the game"


def play(client: TestClient, game_id: str, token: str, *moves: str) -> None:
    for uci in moves:
        r = client.post(f"/api/games/{game_id}/moves", json={"uci": uci, "token": token})
        assert r.status_code == 200, r.text


# ----- takeback ------------------------------------------------------------------------------------
def test_p7_takeback_state_machine(client: TestClient) -> None:
    g, w, b = friend_game(client)
    refused(client, g, "takeback", w, 409, "nothing_to_take_back", action="offer")  # no move yet
    play(client, g, w, "e2e4")
    refused(client, g, "takeback", b, 409, "nothing_to_take_back", action="offer")  # Black has none
    play(client, g, b, "e7e5")
    # none: accept, decline and cancel are refused; so are strangers and bad actions
    for action in ("accept", "decline", "cancel"):
        refused(client, g, "takeback", w, 409, "no_offer", action=action)
    refused(client, g, "takeback", None, 403, "forbidden", action="offer")
    refused(client, g, "takeback", w, 400, "bad_request", action="please")
    # none -> offer (White's move and Black's reply would go back)
    ev = ok(client, g, "takeback", w, action="offer")
    assert (ev["type"], ev["kind"], ev["action"], ev["by"]) == ("offer", "takeback", "offer", "white")
    assert state(client, g)["takeback_offer"] == "white"
    # mine: offer again, accept or decline it myself -> refused; theirs: cancel -> refused
    refused(client, g, "takeback", w, 409, "already_offered", action="offer")
    refused(client, g, "takeback", w, 409, "own_offer", action="accept")
    refused(client, g, "takeback", w, 409, "own_offer", action="decline")
    refused(client, g, "takeback", b, 409, "no_offer", action="cancel")
    # mine -> cancel
    assert ok(client, g, "takeback", w, action="cancel")["action"] == "cancel"
    assert state(client, g)["takeback_offer"] is None
    # theirs -> decline: closed until someone moves
    ok(client, g, "takeback", w, action="offer")
    ev = ok(client, g, "takeback", b, action="decline")
    assert (ev["action"], ev["by"], ev["takeback_offer"], ev["takeback_declined"]) == (
        "decline", "black", None, True,
    )  # fmt: skip
    refused(client, g, "takeback", w, 409, "takeback_declined", action="offer")
    refused(client, g, "takeback", b, 409, "no_offer", action="accept")
    # a move reopens it; a pending request is cancelled by a move
    play(client, g, w, "g1f3")
    ok(client, g, "takeback", b, action="offer")  # Black to move: Nf3 and Black's e5 would go back
    play(client, g, b, "b8c6")
    assert state(client, g)["takeback_offer"] is None
    refused(client, g, "takeback", w, 409, "no_offer", action="accept")
    # theirs -> accept: the asker's last move and the reply go; the asker is to move
    ok(client, g, "takeback", w, action="offer")
    ev = ok(client, g, "takeback", b, action="accept")
    assert (ev["action"], ev["by"], ev["plies"], ev["ply"], ev["turn"]) == ("accept", "black", 2, 2, "white")
    s = state(client, g)
    assert [m["uci"] for m in s["moves"]] == ["e2e4", "e7e5"] and s["takeback_offer"] is None
    # the game goes on from there, on the rewound board
    play(client, g, w, "d2d4")
    assert [m["san"] for m in state(client, g)["moves"]] == ["e4", "e5", "d4"]
    # crossing requests agree: White asks, then Black "offers" too -> White's request is accepted
    ok(client, g, "takeback", w, action="offer")
    ev = ok(client, g, "takeback", b, action="offer")
    assert (ev["action"], ev["plies"], ev["ply"], ev["turn"]) == ("accept", 1, 2, "white")
    # not in a finished game
    ok(client, g, "resign", b)
    refused(client, g, "takeback", w, 409, "game_over", action="offer")


def test_p7_takebacks_are_for_casual_games(fast: Any, client: TestClient) -> None:
    g, w, _ = rated_game(client, account(client, "alice"), account(client, "bob"))
    play(client, g, w, "e2e4")
    refused(client, g, "takeback", w, 409, "no_takebacks", action="offer")
    assert state(client, g)["takebacks_allowed"] is False


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def timed(tmp_path: Path, clock: ManualClock) -> Iterator[TestClient]:
    yield from timed_client(tmp_path, clock)


def test_p7_an_accepted_takeback_restores_the_clocks(timed: TestClient) -> None:
    g, w, b = clock_game(timed, {"base": 180, "increment": 2})
    play(timed, g, w, "e2e4")
    play(timed, g, b, "e7e5")  # the first moves are not timed
    advance(timed, 10)
    play(timed, g, w, "g1f3")  # White: 180 - 10 + 2 = 172
    advance(timed, 20)
    play(timed, g, b, "b8c6")  # Black: 180 - 20 + 2 = 162
    advance(timed, 30)
    play(timed, g, w, "f1c4")  # White: 172 - 30 + 2 = 144
    assert [m["clock_ms"] for m in state(timed, g)["moves"]] == [180_000, 180_000, 172_000, 162_000, 144_000]
    advance(timed, 5)
    ok(timed, g, "takeback", b, action="offer")  # Black to move: Black's Nc6 and White's Bc4 go back
    advance(timed, 3)
    ev = ok(timed, g, "takeback", w, action="accept")
    c = ev["clock"]
    # each side has the time stored with its last remaining move; Black's turn starts again now
    assert (c["white"], c["black"], c["running"]) == (172_000, 180_000, "black")
    assert c["turn_started"] == c["server_time"] and c["deadline"] == c["server_time"] + 180_000
    advance(timed, 7)
    s = state(timed, g)
    assert s["ply"] == 3 and s["clock"]["black"] == 173_000 and s["clock"]["white"] == 172_000
    play(timed, g, b, "d7d6")
    assert [m["clock_ms"] for m in state(timed, g)["moves"]][-2:] == [172_000, 175_000]
    # the flag timer follows the restored clock: White's 172 s
    advance(timed, 171.9)
    assert state(timed, g)["status"] == "playing"
    advance(timed, 0.1)
    assert state(timed, g)["termination"] == "time forfeit"


def wait_for(client: TestClient, game_id: str, test: Any, token: str | None = None) -> dict[str, Any]:
    """The game's state once `test(state)` holds (the engine's move comes when it comes)."""
    deadline = time.monotonic() + 30  # a safety net only
    while True:
        s = state(client, game_id, token)
        if test(s):
            return s
        assert time.monotonic() < deadline, f"the game never got there: {s['ply']} {s['status']}"
        time.sleep(0.02)


def test_p7_the_engine_accepts_a_takeback_at_once_and_takes_no_draw_offers(client: TestClient) -> None:
    g = create(client, variant="chess", opponent="engine", color="white", level=1)
    gid, w = g["id"], g["token"]
    assert g["game"]["can_abort"] is True
    play(client, gid, w, "e2e4")
    wait_for(client, gid, lambda s: s["ply"] == 2)
    refused(client, gid, "draw", w, 409, "no_draw_offers", action="offer")  # never in engine games
    ev = ok(client, gid, "takeback", w, action="offer")
    assert (ev["action"], ev["by"], ev["plies"], ev["ply"], ev["turn"]) == ("accept", "black", 2, 0, "white")
    play(client, gid, w, "d2d4")  # a new line: the engine answers this one
    s = wait_for(client, gid, lambda s: s["ply"] == 2)
    assert s["moves"][0]["uci"] == "d2d4" and s["turn"] == "white"


def test_p7_an_engine_move_searched_before_a_takeback_is_dropped(client: TestClient) -> None:
    """The engine's search for one line must not land on another line at the same ply."""
    svc = client.app.state.games  # type: ignore[attr-defined]
    g = svc.create("chess", white="human", black="engine", level=1, creator="white")
    w = g.tokens["white"]
    svc.move(g.id, w, "e2e4")
    svc.engine_move(g.id, 1, "e7e5", ["e2e4"])
    offers.takeback(svc, g.id, w, "offer")  # accepted at once: back to ply 0
    svc.move(g.id, w, "d2d4")
    assert svc.engine_move(g.id, 1, "e7e5", ["e2e4"]) is None  # searched on e4: dropped
    assert svc.state(g.id)["ply"] == 1
    assert svc.engine_move(g.id, 1, "d7d5", ["d2d4"])["san"] == "d5"


# ----- rematch -------------------------------------------------------------------------------------
def test_p7_rematch_state_machine(client: TestClient) -> None:
    g, w, b = friend_game(client, "orda")
    refused(client, g, "rematch", w, 409, "game_not_over", action="offer")
    ok(client, g, "resign", b)
    for action in ("accept", "decline", "cancel"):
        refused(client, g, "rematch", w, 409, "no_offer", action=action)
    refused(client, g, "rematch", None, 403, "forbidden", action="offer")
    # none -> offer; mine: offer, accept, decline refused; theirs: cancel refused; mine -> cancel
    ev = ok(client, g, "rematch", w, action="offer")
    assert (ev["type"], ev["kind"], ev["action"], ev["by"], ev["rematch_offer"]) == (
        "offer", "rematch", "offer", "white", "white",
    )  # fmt: skip
    refused(client, g, "rematch", w, 409, "already_offered", action="offer")
    refused(client, g, "rematch", w, 409, "own_offer", action="accept")
    refused(client, g, "rematch", w, 409, "own_offer", action="decline")
    refused(client, g, "rematch", b, 409, "no_offer", action="cancel")
    assert ok(client, g, "rematch", w, action="cancel")["rematch_offer"] is None
    refused(client, g, "rematch", b, 409, "no_offer", action="accept")  # accepting a withdrawn offer
    # theirs -> decline: final
    ok(client, g, "rematch", b, action="offer")
    ev = ok(client, g, "rematch", w, action="decline")
    assert (ev["action"], ev["by"], ev["rematch_declined"]) == ("decline", "white", True)
    refused(client, g, "rematch", b, 409, "rematch_declined", action="offer")
    refused(client, g, "rematch", w, 409, "rematch_declined", action="offer")
    refused(client, g, "rematch", w, 409, "no_offer", action="accept")


def test_p7_an_accepted_rematch_swaps_colours_and_keeps_the_settings(timed: TestClient) -> None:
    fen = "7k/4K3/8/8/8/8/8/8 w - - 0 1"
    g, w, b = clock_game(timed, {"base": 300, "increment": 3}, variant="orda", fen=fen)
    play(timed, g, w, "e7e6")
    ok(timed, g, "abort", b)  # an aborted game can be replayed too
    ok(timed, g, "rematch", b, action="offer")
    r = post(timed, g, "rematch", w, action="accept")
    assert r.status_code == 200, r.text
    ev = r.json()
    new = ev["rematch"]
    assert (ev["action"], ev["by"], ev["seat"]) == ("accept", "white", "black")  # White plays Black now
    assert r.cookies.get(f"hordes_seat_{new}") == ev["token"] and ev["url"].endswith(
        f"/game/{new}?token={ev['token']}"
    )
    timed.cookies.clear()
    old = state(timed, g)
    assert (old["rematch"], old["rematch_offer"]) == (new, None)
    # the offerer reads their new seat from the old game (their browser follows the websocket's news)
    seat = timed.get(f"/api/games/{g}/rematch", headers={"X-Seat-Token": b}).json()
    assert (seat["rematch"], seat["seat"]) == (new, "white")
    timed.cookies.clear()
    assert "token" not in timed.get(f"/api/games/{g}/rematch").json()  # spectators get no seat
    s = state(timed, new, seat["token"])
    assert s["seat"] == "white" and state(timed, new, ev["token"])["seat"] == "black"
    assert (s["variant"]["slug"], s["start_fen"], s["status"], s["ply"], s["rematch_of"]) == (
        "orda", fen, "playing", 0, g,
    )  # fmt: skip
    assert s["clock"]["control"]["label"] == "5+3" and s["clock"]["white"] == 300_000
    assert s["clock"]["first_move_deadline"] is not None  # both seats are filled: the window is open
    # a second accept (a double click), or any later action, creates nothing
    refused(timed, g, "rematch", w, 409, "rematch_exists", action="accept")
    refused(timed, g, "rematch", b, 409, "rematch_exists", action="offer")
    # the new game's first-move window is watched: nobody moves, it is aborted
    advance(timed, 30)
    assert state(timed, new)["status"] == "aborted"


def test_p7_an_engine_games_rematch_starts_at_once(client: TestClient) -> None:
    g = create(client, variant="chess", opponent="engine", color="white", level=2)
    gid, w = g["id"], g["token"]
    ok(client, gid, "resign", w)
    ev = ok(client, gid, "rematch", w, action="offer")  # the engine accepts at once
    assert (ev["action"], ev["by"], ev["seat"]) == ("accept", "black", "black")
    client.cookies.clear()
    s = wait_for(client, ev["rematch"], lambda s: s["ply"] == 1, ev["token"])  # the engine, White, moved
    assert s["seat"] == "black" and s["players"]["white"] == {"kind": "engine", "level": 2, "user": None}
    assert s["turn"] == "black" and s["rated"] is False


def test_p7_rematches_count_against_the_game_creation_limit(client: TestClient) -> None:
    """Resigning and replaying the engine must not create games faster than the lobby allows."""
    client.app.state.limiter.rules["create"] = Rule(2, 1e-6, "games", "creating games")  # type: ignore[attr-defined]
    g = create(client, variant="chess", opponent="engine", color="white", level=1)
    ok(client, g["id"], "resign", g["token"])
    ev = ok(client, g["id"], "rematch", g["token"], action="offer")  # the second game: allowed
    client.cookies.clear()
    ok(client, ev["rematch"], "resign", ev["token"])
    refused(client, ev["rematch"], "rematch", ev["token"], 429, "rate_limited", action="offer")
    with connect(client, ev["rematch"], ev["token"]) as ws:
        ws.receive_json()
        ws.send_json({"type": "rematch", "action": "offer", "ref": 1})
        assert ws.receive_json()["error"] == "rate_limited"
    assert state(client, ev["rematch"])["rematch"] is None


def test_p7_a_rated_rematch_stays_rated_between_the_same_accounts(fast: Any, client: TestClient) -> None:
    g, w, b = rated_game(client, account(client, "alice"), account(client, "bob"))
    ok(client, g, "resign", w)
    ok(client, g, "rematch", w, action="offer")
    new = ok(client, g, "rematch", b, action="accept")["rematch"]
    client.cookies.clear()
    s = state(client, new)
    assert s["rated"] is True
    assert (s["players"]["white"]["user"]["name"], s["players"]["black"]["user"]["name"]) == ("bob", "alice")


# ----- abort ---------------------------------------------------------------------------------------
def test_p7_abort_before_both_sides_have_moved(client: TestClient) -> None:
    g, w, b = friend_game(client)
    refused(client, g, "abort", None, 403, "forbidden")
    ev = ok(client, g, "abort", b)  # at ply 0
    assert (ev["status"], ev["result"], ev["reason"], ev["by"], ev["can_abort"]) == (
        "aborted", "*", "Game aborted by Black", "black", False,
    )  # fmt: skip
    refused(client, g, "abort", w, 409, "game_over")
    g, w, b = friend_game(client)
    play(client, g, w, "e2e4")
    assert ok(client, g, "abort", w)["status"] == "aborted"  # at ply 1
    g, w, b = friend_game(client)
    play(client, g, w, "e2e4")
    play(client, g, b, "e7e5")
    assert state(client, g)["can_abort"] is False
    refused(client, g, "abort", w, 409, "too_late")


def test_p7_an_aborted_rated_game_is_not_rated_and_not_counted(fast: Any, client: TestClient) -> None:
    alice, bob = account(client, "alice"), account(client, "bob")
    g, w, b = rated_game(client, alice, bob)
    play(client, g, w, "e2e4")
    ok(client, g, "abort", b)
    client.cookies.clear()
    user = client.get("/api/users/alice").json()
    assert user["results"] == {"win": 0, "draw": 0, "loss": 0} and user["ratings"] == {}
    assert client.get("/api/users/alice/games").json()["total"] == 0


def test_p7_aborting_a_clock_game(timed: TestClient) -> None:
    g, w, _ = clock_game(timed, {"base": 60})
    ev = ok(timed, g, "abort", w)
    assert ev["status"] == "aborted" and ev["clock"]["running"] is None and ev["clock"]["deadline"] is None


# ----- the other side sees everything ---------------------------------------------------------------
def connect(client: TestClient, game_id: str, token: str | None = None) -> Any:
    headers = {"X-Seat-Token": token} if token else {}
    return client.websocket_connect(f"/ws/game/{game_id}", headers=headers)


def test_p7_every_request_and_answer_reaches_the_other_side(client: TestClient) -> None:
    g, w, b = friend_game(client)
    play(client, g, w, "e2e4")
    with connect(client, g, w) as ws_w, connect(client, g, b) as ws_b, connect(client, g) as spectator:
        for ws in (ws_w, ws_b, spectator):
            assert ws.receive_json()["type"] == "game"
        ws_w.send_json({"type": "takeback", "action": "offer", "ref": 1})
        for ws in (ws_w, ws_b, spectator):
            ev = ws.receive_json()
            assert (ev["type"], ev["kind"], ev["action"], ev["by"]) == ("offer", "takeback", "offer", "white")
        assert ws_w.receive_json() == {"type": "ack", "ref": 1, "ply": 1}
        ws_b.send_json({"type": "takeback", "action": "decline", "ref": 2})
        for ws in (ws_w, ws_b, spectator):
            ev = ws.receive_json()
            assert (ev["kind"], ev["action"], ev["by"]) == ("takeback", "decline", "black")
        assert ws_b.receive_json()["type"] == "ack"
        ws_b.send_json({"type": "takeback", "action": "accept", "ref": 3})  # refused: only to the sender
        assert ws_b.receive_json()["error"] == "no_offer"
        ws_w.send_json({"type": "abort", "ref": 4})
        for ws in (ws_w, ws_b, spectator):
            ev = ws.receive_json()
            assert (ev["type"], ev["status"], ev["by"]) == ("status", "aborted", "white")
        assert ws_w.receive_json()["type"] == "ack"
        ws_b.send_json({"type": "rematch", "action": "offer", "ref": 5})
        for ws in (ws_w, ws_b, spectator):
            ev = ws.receive_json()
            assert (ev["kind"], ev["action"], ev["by"]) == ("rematch", "offer", "black")
        assert ws_b.receive_json()["type"] == "ack"
        ws_w.send_json({"type": "rematch", "action": "accept", "ref": 6})
        news = [ws.receive_json() for ws in (ws_w, ws_b, spectator)]
        assert {ev["rematch"] for ev in news} == {state(client, g)["rematch"]} and all(
            "token" not in ev for ev in news
        )  # the new seats' tokens are never broadcast
        assert ws_w.receive_json()["type"] == "ack"


# ----- reading a game while takebacks rewrite its moves -----------------------------------------------
def test_p7_reads_during_takebacks_are_one_snapshot(client: TestClient, busy_switching: None) -> None:
    """A takeback deletes moves and a new move replaces them at the same ply: a read never mixes the
    row of one line with the moves of another (test_snapshots' check, on a game that is rewound)."""
    svc = client.app.state.games  # type: ignore[attr-defined]
    g, w, b = friend_game(client)
    reads: list[dict[str, Any]] = []
    errors: list[BaseException] = []

    def writer() -> None:
        try:
            for i in range(30):
                svc.move(g, w, ("e2e4", "d2d4", "c2c4")[i % 3])  # a different line each time
                offers.takeback(svc, g, w, "offer")
                offers.takeback(svc, g, b, "accept")
        except BaseException as exc:
            errors.append(exc)

    def reader() -> None:
        try:
            for _ in range(100):
                reads.append(svc.state(g))
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=writer)] + [threading.Thread(target=reader) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors, errors
    bad = [(r["ply"], wrong) for r in reads if (wrong := mismatches(r))]
    assert bad == [], f"{len(bad)} of {len(reads)} reads mixed two lines: {bad[:3]}"
    assert svc.state(g)["takebacks_allowed"] and svc.row(g).takebacks == 30


def test_a_move_made_while_the_engine_looks_is_answered(client: TestClient) -> None:
    """The engine's task may be reading the game (finding no turn) when the human's move lands: that
    task must look again, or the engine never answers (seen on PostgreSQL, whose reads are slower)."""
    svc = client.app.state.games  # type: ignore[attr-defined]
    real = svc.engine_turn_clock
    looked, release = threading.Event(), threading.Event()

    def held_first_look(game_id: str) -> Any:
        found = real(game_id)
        if not looked.is_set():  # the look at creation: no turn yet, held until the move is stored
            looked.set()
            assert release.wait(30)
        return found

    svc.engine_turn_clock = held_first_look
    g = create(client, variant="chess", opponent="engine", color="white", level=1)
    assert looked.wait(30)
    play(client, g["id"], g["token"], "e2e4")
    release.set()
    assert wait_for(client, g["id"], lambda s: s["ply"] == 2)["turn"] == "white"
