"""Issue 14 point 4: game clocks, on an injected clock (timeouts.ManualClock): no test waits for time.

The server owns the clock: a move is charged when it is stored, the increment added; a flag falls
by the watcher's timer with no move arriving, and a late move is refused and ends the game; the
flagging side loses unless the other side cannot win under the variant's document.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from hordes.web import clocks, db
from hordes.web.app import create_app
from hordes.web.engine_pool import game_limits
from hordes.web.games import GameService, TimeUp
from hordes.web.timeouts import ManualClock
from tests.web.clocked import advance, clock_game, play, state, timed_client
from tests.web.conftest import create, post_form

MIN = 60


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def timed(tmp_path: Path, clock: ManualClock) -> Iterator[TestClient]:
    yield from timed_client(tmp_path, clock)


# ----- the flag, in two variants ------------------------------------------------------------------
def test_p4_flag_by_the_watcher_loses_in_chess(timed: TestClient) -> None:
    game_id, w, b = clock_game(timed, {"base": MIN, "increment": 0})
    for token, uci in ((w, "e2e4"), (b, "e7e5"), (w, "g1f3")):
        play(timed, game_id, token, uci)
    s = state(timed, game_id)
    assert s["clock"]["running"] == "black" and s["clock"]["black"] == 60_000
    advance(timed, 59.9)
    assert state(timed, game_id)["status"] == "playing"
    advance(timed, 0.1)  # nobody moves: the watcher's timer ends the game
    s = state(timed, game_id)
    assert (s["status"], s["result"], s["termination"], s["winner"]) == (
        "over",
        "1-0",
        "time forfeit",
        "white",
    )
    assert s["reason"] == "Black ran out of time — White wins"
    assert s["clock"]["running"] is None and s["dests"] == {}
    r = timed.post(f"/api/games/{game_id}/moves", json={"uci": "b8c6", "token": b})
    assert r.status_code == 409 and r.json()["error"] == "game_over"


# White: a lone king. Black: king and rook. Black flags -> White could never mate: a draw.
LONE_KING = "k7/8/8/8/8/8/r7/7K w - - 0 1"


@pytest.mark.parametrize(
    ("flagging", "result", "termination"),
    [("black", "1/2-1/2", "timeout vs insufficient material"), ("white", "0-1", "time forfeit")],
)
def test_p4_flag_against_a_lone_king_in_chess(
    timed: TestClient, flagging: str, result: str, termination: str
) -> None:
    game_id, w, b = clock_game(timed, {"base": MIN}, fen=LONE_KING)
    play(timed, game_id, w, "h1g1")
    play(timed, game_id, b, "a8b8")
    if flagging == "black":
        play(timed, game_id, w, "g1h1")  # Black to move, with the clock running
    advance(timed, MIN)
    s = state(timed, game_id)
    assert (s["status"], s["result"], s["termination"]) == ("over", result, termination), s["reason"]


def test_p4_flag_in_hordes_of_change_loses_even_against_a_lone_king(timed: TestClient) -> None:
    """Hordes of Change has no insufficient-material rule: the flag loses whatever the other side has
    (the same material in chess is a draw: the test above)."""
    fen = "7k/8/8/8/8/8/8/RR2K3 w - - 0 1"  # White: king and two rooks; Black: a lone king
    game_id, w, b = clock_game(timed, {"base": MIN}, variant="hordes", fen=fen)
    play(timed, game_id, w, "e1e2")
    play(timed, game_id, b, "h8g8")
    play(timed, game_id, w, "e2e1")
    play(timed, game_id, b, "g8h8")  # White to move with the clock running
    advance(timed, MIN)
    s = state(timed, game_id)
    assert (s["result"], s["termination"], s["winner"]) == ("0-1", "time forfeit", "black")


# ----- charging moves -----------------------------------------------------------------------------
def test_p4_moves_are_charged_when_stored_and_get_the_increment(timed: TestClient) -> None:
    game_id, w, b = clock_game(timed, {"base": 3 * MIN, "increment": 2})
    advance(timed, 5)
    play(timed, game_id, w, "e2e4")  # the first move of each side is not timed (nor incremented)
    advance(timed, 7)
    ev = play(timed, game_id, b, "e7e5")
    assert (ev["clock"]["white"], ev["clock"]["black"], ev["clock"]["running"]) == (180_000, 180_000, "white")
    advance(timed, 10)
    ev = play(timed, game_id, w, "g1f3")
    assert ev["clock"]["white"] == 180_000 - 10_000 + 2_000  # charged 10 s, then +2
    assert ev["clock"]["running"] == "black" and ev["clock"]["server_time"] == int(timed_now(timed) * 1000)
    advance(timed, 4.5)
    s = state(timed, game_id)
    assert s["clock"]["black"] == 175_500 and s["clock"]["white"] == 172_000  # Black's runs meanwhile
    assert s["clock"]["deadline"] == s["clock"]["server_time"] + 175_500
    assert [m["clock_ms"] for m in s["moves"]] == [180_000, 180_000, 172_000]


def timed_now(client: TestClient) -> float:
    now: float = client.app.state.live.clock.now()  # type: ignore[attr-defined]
    return now


def test_p4_a_late_move_is_refused_and_the_game_ends_in_the_same_step(tmp_path: Path) -> None:
    """With no watcher at all (the service alone): the move that arrives after the flag ends the game."""
    t = [1_800_000_000.0]
    engine = db.make_engine(db.database_url(None, tmp_path))
    db.migrate(engine)
    service = GameService(engine, now=lambda: t[0])
    g = service.create("chess", creator="white", clock=clocks.TimeControl(60_000, 0))
    black = service.join(g.id, g.invite).token
    white = g.tokens["white"]
    service.move(g.id, white, "e2e4")
    service.move(g.id, black, "e7e5")
    t[0] += 60.001
    with pytest.raises(TimeUp) as caught:
        service.move(g.id, white, "g1f3")
    assert caught.value.status == 409 and caught.value.event["termination"] == "time forfeit"
    s = service.state(g.id)
    assert (s["ply"], s["result"], s["winner"]) == (2, "0-1", "black")  # the move was not stored


def test_p4_the_engine_searches_on_the_game_clock(timed: TestClient) -> None:
    live = timed.app.state.live  # type: ignore[attr-defined]
    seen: list[dict[str, float] | None] = []
    real_move = live.pool.move

    async def recording(*args: Any, clock: dict[str, float] | None = None, **kw: Any) -> str | None:
        seen.append(clock)
        result: str | None = await real_move(*args, clock=clock, **kw)
        return result

    live.pool.move = recording
    g = create(timed, variant="chess", opponent="engine", level=1, clock={"base": 3 * MIN, "increment": 2})
    token = g["token"]
    play(timed, g["id"], token, "e2e4")
    wait_ply(timed, g["id"], 2)
    advance(timed, 10)
    play(timed, g["id"], token, "d2d4")
    wait_ply(timed, g["id"], 4)
    assert seen[-1] == {"wtime": 172.0, "btime": 180.0, "winc": 2.0, "binc": 2.0}
    limits = game_limits(0.3, seen[-1])  # what the worker's search gets: the clock, capped by movetime
    assert (limits.wtime, limits.btime, limits.winc, limits.binc, limits.max_time) == (
        172.0,
        180.0,
        2.0,
        2.0,
        0.3,
    )
    assert game_limits(0.3, None).wtime is None  # an untimed game: only the cap


def test_p4_the_engine_is_charged_its_thinking_time(tmp_path: Path) -> None:
    t = [1_800_000_000.0]
    engine = db.make_engine(db.database_url(None, tmp_path))
    db.migrate(engine)
    service = GameService(engine, now=lambda: t[0])
    g = service.create(
        "chess", black="engine", level=1, creator="white", clock=clocks.TimeControl(180_000, 2_000)
    )
    me = g.tokens["white"]
    service.move(g.id, me, "e2e4")
    service.engine_move(g.id, 1, "e7e5")
    service.move(g.id, me, "d2d4")
    t[0] += 7  # the engine thinks for 7 s
    turn = service.engine_turn_clock(g.id)
    assert turn is not None and turn[1] == {"wtime": 182.0, "btime": 173.0, "winc": 2.0, "binc": 2.0}
    event = service.engine_move(g.id, 3, "d7d5")
    assert event is not None and event["clock"]["black"] == 175_000  # 180 - 7 + 2


def wait_ply(client: TestClient, game_id: str, ply: int) -> None:
    import time

    deadline = time.monotonic() + 60  # a safety net only: the engine answers in well under a second
    while state(client, game_id)["ply"] < ply:
        assert time.monotonic() < deadline, "the engine did not move"
        time.sleep(0.02)


# ----- refused settings, the lobby form, PGN --------------------------------------------------------
@pytest.mark.parametrize(
    "bad",
    [
        {"base": -1},
        {"base": 5},
        {"base": 100_000},
        {"base": 60, "increment": 500},
        {"base": "60"},
        {"base": True},
        {"increment": 2},
        {"days": 2},
        {"days": 3, "base": 60},
        {"base": 60, "delay": 3},
        "fast",
        [180, 2],
    ],
)
def test_p4_clock_settings_out_of_range_are_refused(timed: TestClient, bad: Any) -> None:
    before = len(timed.get("/api/games").json()["games"])
    r = timed.post("/api/games", json={"variant": "chess", "clock": bad})
    assert r.status_code == 400 and r.json()["error"] == "bad_clock", r.text
    assert "clock" in r.json()["message"]
    assert len(timed.get("/api/games").json()["games"]) == before


def test_p4_presets_custom_correspondence_and_untimed(timed: TestClient) -> None:
    labels = [f"{base // 60}+{inc}" for base, inc in clocks.PRESETS]
    assert labels == ["1+0", "3+0", "3+2", "5+3", "10+5", "15+10", "30+20"]
    for label in labels:
        g = create(timed, variant="chess", opponent="friend", clock=label)
        assert g["game"]["clock"]["control"]["label"] == label
    g = create(timed, variant="orda", opponent="friend", clock={"base": 40, "increment": 1.5})
    assert g["game"]["clock"]["control"] == {"base": 40, "increment": 1.5, "label": "40s+1.5"}
    g = create(timed, variant="orda", opponent="friend", clock={"days": 3})
    assert g["game"]["clock"]["control"] == {"days": 3, "label": "3 days"}
    assert create(timed, variant="orda", opponent="friend")["game"]["clock"] is None  # untimed by default
    # the lobby form: a preset, a custom clock, correspondence
    for choice, extra, label in (
        ("3+2", {}, "3+2"),
        ("custom", {"clock_minutes": "2.5", "clock_increment": "1"}, "2.5+1"),
        ("days:7", {}, "7 days"),
    ):
        fields = {"variant": "chess", "opponent": "friend", "color": "white", "clock": choice, **extra}
        r = post_form(timed, "/games", fields)
        assert r.status_code == 303, r.text
        game_id = r.headers["location"].rsplit("/", 1)[1]
        assert state(timed, game_id)["clock"]["control"]["label"] == label
    r = post_form(timed, "/games", {"variant": "chess", "clock": "custom", "clock_minutes": "999"})
    assert r.status_code == 400 and "clock.base" in r.text


def test_p4_pgn_time_control_and_clock_comments(timed: TestClient) -> None:
    game_id, w, b = clock_game(timed, {"base": 3 * MIN, "increment": 2})
    play(timed, game_id, w, "e2e4")
    play(timed, game_id, b, "e7e5")
    advance(timed, 2.7)
    play(timed, game_id, w, "g1f3")
    advance(timed, 64)
    play(timed, game_id, b, "b8c6")
    pgn = timed.get(f"/api/games/{game_id}/pgn").text
    assert '[TimeControl "180+2"]' in pgn
    assert (
        "1. e4 { [%clk 0:03:00] } 1... e5 { [%clk 0:03:00] } 2. Nf3 { [%clk 0:02:59] } 2... Nc6 { [%clk 0:01:58] }"
        in " ".join(pgn.split())
    )
    untimed = create(timed, variant="chess", opponent="friend")
    assert '[TimeControl "-"]' in timed.get(f"/api/games/{untimed['id']}/pgn").text
    corr = create(timed, variant="chess", opponent="friend", clock={"days": 3})
    assert '[TimeControl "1/259200"]' in timed.get(f"/api/games/{corr['id']}/pgn").text
    one = create(timed, variant="chess", opponent="friend", clock={"base": 60})
    assert '[TimeControl "60"]' in timed.get(f"/api/games/{one['id']}/pgn").text


def test_p4_running_clocks_are_watched_again_after_a_restart(tmp_path: Path, clock: ManualClock) -> None:
    app = create_app(data_dir=tmp_path, engine_workers=1, clock=clock)
    with TestClient(app) as c:
        game_id, w, b = clock_game(c, {"base": MIN})
        play(c, game_id, w, "e2e4")
        play(c, game_id, b, "e7e5")
    clock.advance(120)  # the server was down when White's flag fell
    app2 = create_app(database_url=app.state.database_url, engine_workers=1, clock=clock)
    with TestClient(app2) as c2:
        advance(c2, 0)
        s = state(c2, game_id)
        assert (s["result"], s["termination"]) == ("0-1", "time forfeit")


def test_p4_a_late_move_over_the_websocket_ends_the_game_for_every_watcher(timed: TestClient) -> None:
    game_id, w, b = clock_game(timed, {"base": MIN})
    play(timed, game_id, w, "e2e4")
    play(timed, game_id, b, "e7e5")
    live = timed.app.state.live  # type: ignore[attr-defined]
    with (
        timed.websocket_connect(f"/ws/game/{game_id}", headers={"X-Seat-Token": w}) as ws,
        timed.websocket_connect(f"/ws/game/{game_id}") as spectator,
    ):
        assert ws.receive_json()["type"] == "game"
        assert ws.receive_json()["type"] == "presence"  # White's own arrival
        first = spectator.receive_json()
        if first["type"] == "presence":  # White's arrival may reach a watcher that joined just after
            first = spectator.receive_json()
        assert first["type"] == "game"
        live.clock.time += MIN + 1  # time passes, but the watcher's timer has not fired yet
        ws.send_json({"type": "move", "uci": "g1f3", "ref": 5})
        for sock in (ws, spectator):
            ended = sock.receive_json()
            while ended["type"] != "status":
                ended = sock.receive_json()
            assert (ended["result"], ended["termination"], ended["clock"]["white"]) == (
                "0-1",
                "time forfeit",
                0,
            )
        refused = ws.receive_json()
        assert (refused["type"], refused["error"], refused["ref"]) == ("error", "time_up", 5)
    assert state(timed, game_id)["ply"] == 2


def test_p4_games_stored_before_the_clocks_stay_untimed(tmp_path: Path) -> None:
    engine = db.make_engine(db.database_url(None, tmp_path))
    db.migrate(engine, target=db.MIGRATIONS.index(db._m5_clocks))  # the schema before the clocks
    service = GameService(engine)
    with engine.begin() as conn:
        columns = {c["name"] for c in sa.inspect(conn).get_columns("games")}
    assert "clock_base_ms" not in columns
    g = service.create("chess", creator="white")  # stored as the schema before the clocks holds it
    db.migrate(engine)
    s = service.state(g.id)
    assert s["clock"] is None and service.deadline(g.id) is None and service.judge(g.id) is None
    assert '[TimeControl "-"]' in service.pgn(g.id)
