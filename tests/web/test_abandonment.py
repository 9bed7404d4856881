"""Issue 14 point 5: abandonment, on an injected clock (no test waits for time).

A clock game whose side to move does not make its first move within 30 s of both seats being filled
is aborted (an unclaimed invitation does not count); correspondence games use their days instead
and expire by their clock; a player gone from a running clock game for CLAIM_AFTER_MS lets the
opponent claim the win or a draw, refused (409) before that.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from hordes.web import clocks
from hordes.web.timeouts import ManualClock
from tests.web.clocked import advance, clock_game, play, state, timed_client
from tests.web.conftest import create


@pytest.fixture
def timed(tmp_path: Path) -> Iterator[TestClient]:
    yield from timed_client(tmp_path, ManualClock())


DAY = 86_400


def test_p5_no_first_move_in_30_s_aborts_but_not_while_the_invitation_is_unclaimed(timed: TestClient) -> None:
    g = create(timed, variant="chess", opponent="friend", color="white", clock={"base": 180})
    advance(timed, 600)  # nobody has claimed the friend's seat: the game waits, whatever the time
    assert state(timed, g["id"])["status"] == "waiting"
    r = timed.post(f"/api/games/{g['id']}/join", json={"invite": g["invite_token"]})
    assert r.status_code == 200
    timed.cookies.clear()
    s = state(timed, g["id"])
    assert s["clock"]["first_move_deadline"] == s["clock"]["server_time"] + 30_000
    advance(timed, 29.9)
    assert state(timed, g["id"])["status"] == "playing"
    advance(timed, 0.1)
    s = state(timed, g["id"])
    assert (s["status"], s["result"], s["termination"], s["winner"]) == ("aborted", "*", "aborted", None)
    assert s["reason"].startswith("Game aborted")
    r = timed.post(f"/api/games/{g['id']}/moves", json={"uci": "e2e4", "token": g["token"]})
    assert r.status_code == 409 and r.json()["error"] == "game_over"


def test_p5_the_second_side_has_30_s_for_its_first_move_too(timed: TestClient) -> None:
    game_id, w, _b = clock_game(timed, {"base": 60})
    advance(timed, 25)
    play(timed, game_id, w, "e2e4")
    advance(timed, 29)
    assert state(timed, game_id)["status"] == "playing"  # Black's 30 s started at White's move
    advance(timed, 1)
    assert state(timed, game_id)["status"] == "aborted"


def test_p5_correspondence_uses_its_days_and_expires_by_its_clock(timed: TestClient) -> None:
    game_id, w, b = clock_game(timed, {"days": 1})
    advance(timed, 3600)  # no 30 s rule for correspondence: a day for the first move
    play(timed, game_id, w, "e2e4")
    advance(timed, DAY - 1)
    play(timed, game_id, b, "e7e5")
    advance(timed, DAY - 1)
    ev = play(timed, game_id, w, "g1f3")
    assert ev["clock"]["white"] == DAY * 1000  # each move resets the mover's day
    advance(timed, DAY)
    s = state(timed, game_id)
    assert (s["status"], s["result"], s["termination"]) == ("over", "1-0", "time forfeit")
    quiet, _w, _b = clock_game(timed, {"days": 3})
    advance(timed, 3 * DAY)  # the first moves' days run out: nothing was played, the game is aborted
    assert state(timed, quiet)["status"] == "aborted"


def connect(client: TestClient, game_id: str, token: str) -> Any:
    return client.websocket_connect(f"/ws/game/{game_id}", headers={"X-Seat-Token": token})


def claim(client: TestClient, game_id: str, token: str, outcome: str) -> Any:
    return client.post(f"/api/games/{game_id}/claim", json={"outcome": outcome, "token": token})


def test_p5_a_player_gone_lets_the_opponent_claim_after_the_set_time(timed: TestClient) -> None:
    game_id, w, b = clock_game(timed, {"base": 600, "increment": 5})
    with connect(timed, game_id, w) as ws_white:
        hello = ws_white.receive_json()
        assert hello["presence"]["white"]["online"] is True and hello["presence"]["black"]["online"] is False
        assert ws_white.receive_json()["seat"] == "white"  # its own arrival, told to every watcher
        with connect(timed, game_id, b) as ws_black:
            ws_black.receive_json()
            assert ws_white.receive_json() == {
                "type": "presence", "id": game_id, "seat": "black", "online": True, "claim_at": None,
            }  # fmt: skip
            play(timed, game_id, w, "e2e4")
            play(timed, game_id, b, "e7e5")
            r = claim(timed, game_id, w, "win")
            assert r.status_code == 409 and r.json()["error"] == "opponent_present"
            # Black leaves: its socket closes as a browser's does, and White hears of it (read before
            # the session ends, which would cancel the server's handler instead of closing it).
            ws_black.close(1000)
            gone = ws_white.receive_json()
            while gone["type"] != "presence":
                gone = ws_white.receive_json()
        assert gone["seat"] == "black" and gone["online"] is False
        assert gone["claim_at"] == int(timed.app.state.live.clock.now() * 1000) + clocks.CLAIM_AFTER_MS  # type: ignore[attr-defined]
        advance(timed, clocks.CLAIM_AFTER_MS / 1000 - 1)
        before = state(timed, game_id)
        r = claim(timed, game_id, w, "win")
        assert (
            r.status_code == 409
            and r.json()["error"] == "too_early"
            and "claim in 1 s" in r.json()["message"]
        )
        r = claim(timed, game_id, w, "resign")
        assert r.status_code == 400
        r = claim(timed, game_id, b, "win")  # the one who left cannot claim against one who is here
        assert r.status_code == 409 and r.json()["error"] == "opponent_present"
        assert state(timed, game_id) == before  # refusals change nothing
        advance(timed, 1)
        r = claim(timed, game_id, w, "win")
        assert r.status_code == 200, r.text
        s = state(timed, game_id)
        assert (s["status"], s["result"], s["termination"], s["winner"]) == (
            "over",
            "1-0",
            "abandoned",
            "white",
        )
        assert s["reason"] == "Black left the game — White wins"


def test_p5_a_draw_can_be_claimed_and_a_win_needs_material(timed: TestClient) -> None:
    game_id, w, b = clock_game(timed, {"base": 600})
    play(timed, game_id, w, "e2e4")
    play(timed, game_id, b, "e7e5")
    advance(timed, clocks.CLAIM_AFTER_MS / 1000)  # neither has ever connected: both count as gone
    r = claim(timed, game_id, b, "draw")
    assert r.status_code == 200
    s = state(timed, game_id)
    assert (s["result"], s["termination"], s["reason"]) == (
        "1/2-1/2",
        "abandoned",
        "Draw: a player left the game",
    )
    # a lone king claiming the win gets a draw: it could never have won
    game_id, w, b = clock_game(timed, {"base": 600}, fen="k7/8/8/8/8/8/r7/7K w - - 0 1")
    play(timed, game_id, w, "h1g1")
    play(timed, game_id, b, "a8b8")
    advance(timed, clocks.CLAIM_AFTER_MS / 1000)
    assert claim(timed, game_id, w, "win").status_code == 200
    assert state(timed, game_id)["result"] == "1/2-1/2"


def test_p5_no_claims_in_untimed_correspondence_or_unstarted_games(timed: TestClient) -> None:
    for control in (None, {"days": 3}):
        game_id, w, b = clock_game(timed, control)
        play(timed, game_id, w, "e2e4")
        play(timed, game_id, b, "e7e5")
        advance(timed, 60)
        r = claim(timed, game_id, w, "win")
        assert r.status_code == 409 and r.json()["error"] == "no_claim"
    game_id, w, b = clock_game(timed, {"base": 600})
    advance(timed, 25)
    r = claim(timed, game_id, w, "win")  # before both sides have moved: the abort rule applies instead
    assert r.status_code == 409 and r.json()["error"] == "no_claim"
    r = claim(timed, game_id, "nope", "win")
    assert r.status_code == 403


def test_p5_an_aborted_game_is_listed_as_such(timed: TestClient) -> None:
    game_id, _w, _b = clock_game(timed, {"base": 60})
    advance(timed, 30)
    html = timed.get("/games").text
    row = html[html.index(f"/game/{game_id}") - 400 : html.index(f"/game/{game_id}")]
    assert "Game aborted" in row and "playing" not in row
