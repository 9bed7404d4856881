"""The JSON API: whole games per variant, and every way a request can be wrong (4xx, game unchanged)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from starlette.testclient import TestClient

from hordes import Board, builtin_variants
from hordes.notation.san import san
from hordes.web.positions import position_view, royal_squares
from hordes.web.routes import routes
from tests.web.conftest import WINS, create, friend_game, post_form


def stored(client: TestClient, game_id: str) -> dict[str, Any]:
    """What the server has for a game (as a spectator sees it)."""
    r = client.get(f"/api/games/{game_id}")
    assert r.status_code == 200
    data: dict[str, Any] = r.json()
    return data


@pytest.mark.parametrize("variant", sorted(WINS))
def test_whole_game_per_variant(client: TestClient, variant: str) -> None:
    fen, win, result, termination = WINS[variant]
    game_id, white, black = friend_game(client, variant, fen)
    mover = white if " w " in fen else black
    start = stored(client, game_id)
    assert start["status"] == "playing" and start["ply"] == 0 and start["variant"]["slug"] == variant
    assert win[:2] in start["dests"]
    r = client.post(f"/api/games/{game_id}/moves", json={"uci": win, "token": mover, "ply": 0})
    assert r.status_code == 200, r.text
    event = r.json()
    assert event["ply"] == 1 and event["status"] == "over" and event["result"] == result
    assert event["termination"] == termination and event["reason"].endswith(termination)
    assert event["dests"] == {}
    after = stored(client, game_id)
    assert after["moves"][0]["uci"] == win and after["result"] == result
    pgn = client.get(f"/api/games/{game_id}/pgn").text
    assert f'[Result "{result}"]' in pgn and "[FEN " in pgn
    if variant != "chess":
        assert "[Variant " in pgn
    # the game is listed among the recent ones, finished
    listed = {g["id"]: g for g in client.get("/api/games").json()["games"]}
    assert listed[game_id]["status"] == "over"


def test_a_longer_game_and_its_san(client: TestClient) -> None:
    game_id, white, black = friend_game(client, "orda")
    for i, uci in enumerate(["e2e4", "g6g5", "d1h5", "h8g6"]):
        token = white if i % 2 == 0 else black
        r = client.post(
            f"/api/games/{game_id}/moves", json={"uci": uci, "ply": i}, headers={"X-Seat-Token": token}
        )
        assert r.status_code == 200, r.text
    game = stored(client, game_id)
    assert [m["san"] for m in game["moves"]] == ["e4", "g5", "Qh5+", "Lg6"]
    assert game["turn"] == "white" and game["last_move"] == ["h8", "g6"]


def test_promotion_choices_in_orda(client: TestClient) -> None:
    game_id, white, _ = friend_game(client, "orda", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    game = stored(client, game_id)
    assert sorted(game["promotions"]["a7a8"]) == ["H", "Q"]
    r = client.post(f"/api/games/{game_id}/moves", json={"uci": "a7a8h", "token": white})
    assert r.status_code == 200 and r.json()["san"].startswith("a8=H")
    assert stored(client, game_id)["fen"].startswith("H3k3/")


def test_hordes_transform_and_pull_listed(client: TestClient) -> None:
    game_id, white, _ = friend_game(client, "hordes", "7k/R7/8/8/4b3/8/8/K3+R3 w - - 0 1")
    game = stored(client, game_id)
    assert game["transforms"]["a7"] == "+R" and game["transforms"]["e1"] == "R"
    assert {"magnet": "e1", "from": "e4", "to": "e2"} in game["pulls"]
    assert "e2" in game["dests"]["e4"]  # an enemy piece may be dragged to its pull square
    r = client.post(f"/api/games/{game_id}/moves", json={"uci": "e4e2", "token": white})
    assert r.status_code == 200, r.text
    assert stored(client, game_id)["fen"].startswith("7k/R7/8/8/8/8/4b3/K3+R3 b")


# ----- refusals: each is a 4xx with a JSON error, and the stored game does not change -----------------
def refusal(
    client: TestClient, game_id: str, method: str, url: str, status: int, code: str, **kw: Any
) -> None:
    before = stored(client, game_id)
    r = client.request(method, url, **kw)
    assert r.status_code == status, r.text
    body = r.json()
    assert body["error"] == code and body["message"]
    assert stored(client, game_id) == before


def test_move_out_of_turn(client: TestClient) -> None:
    game_id, _, black = friend_game(client)
    refusal(
        client,
        game_id,
        "POST",
        f"/api/games/{game_id}/moves",
        409,
        "not_your_turn",
        json={"uci": "e7e5", "token": black},
    )


def test_illegal_and_malformed_moves(client: TestClient) -> None:
    game_id, white, _ = friend_game(client)
    url = f"/api/games/{game_id}/moves"
    refusal(client, game_id, "POST", url, 422, "illegal_move", json={"uci": "e2e5", "token": white})
    refusal(client, game_id, "POST", url, 422, "bad_move", json={"uci": "zz99", "token": white})
    refusal(client, game_id, "POST", url, 400, "bad_move", json={"uci": 42, "token": white})
    refusal(client, game_id, "POST", url, 400, "bad_move", json={"token": white})
    refusal(client, game_id, "POST", url, 409, "stale_ply", json={"uci": "e2e4", "token": white, "ply": 5})


def test_malformed_json(client: TestClient) -> None:
    game_id, white, _ = friend_game(client)
    url = f"/api/games/{game_id}/moves"
    headers = {"X-Seat-Token": white, "Content-Type": "application/json"}
    refusal(client, game_id, "POST", url, 400, "bad_json", content=b"{not json", headers=headers)
    refusal(client, game_id, "POST", url, 400, "bad_json", content=b"[1, 2]", headers=headers)
    refusal(client, game_id, "POST", url, 400, "bad_json", content=b"", headers=headers)
    refusal(
        client, game_id, "POST", url, 413, "too_large", content=b"{" + b" " * 20000 + b"}", headers=headers
    )


def test_tokens(client: TestClient) -> None:
    game_id, white, black = friend_game(client)
    url = f"/api/games/{game_id}/moves"
    refusal(client, game_id, "POST", url, 403, "forbidden", json={"uci": "e2e4"})  # no token
    refusal(
        client, game_id, "POST", url, 409, "not_your_turn", json={"uci": "e2e4", "token": black}
    )  # other seat
    refusal(client, game_id, "POST", url, 403, "forbidden", json={"uci": "e2e4", "token": "guess"})
    refusal(client, game_id, "POST", f"/api/games/{game_id}/resign", 403, "forbidden", json={})
    refusal(client, game_id, "POST", f"/api/games/{game_id}/draw", 403, "forbidden", json={"action": "offer"})
    # a spectator's view never includes the tokens
    assert white not in str(stored(client, game_id)) and black not in str(stored(client, game_id))


def test_unknown_game(client: TestClient) -> None:
    for method, url, kw in [
        ("GET", "/api/games/nosuchgame", {}),
        ("POST", "/api/games/nosuchgame/moves", {"json": {"uci": "e2e4", "token": "x"}}),
        ("POST", "/api/games/nosuchgame/resign", {"json": {}}),
        ("GET", "/api/games/nosuchgame/pgn", {}),
        ("GET", "/api/games/' OR 1=1 --/pgn", {}),
    ]:
        r = client.request(method, url, **kw)
        assert r.status_code == 404, (url, r.text)
        assert r.json()["error"] == "not_found"
    assert client.get("/game/nosuchgame").status_code == 404


def test_moves_after_the_end(client: TestClient) -> None:
    fen, win, _, _ = WINS["chess"]
    game_id, white, black = friend_game(client, "chess", fen)
    assert client.post(f"/api/games/{game_id}/moves", json={"uci": win, "token": black}).status_code == 200
    url = f"/api/games/{game_id}/moves"
    refusal(client, game_id, "POST", url, 409, "game_over", json={"uci": "e1f2", "token": white})
    refusal(client, game_id, "POST", f"/api/games/{game_id}/resign", 409, "game_over", json={"token": white})


def test_bad_game_requests(client: TestClient) -> None:
    for body, code in [
        ({"variant": "nope"}, "unknown_variant"),
        ({"variant": "chess", "fen": "not a fen"}, "bad_fen"),
        ({"variant": "chess", "opponent": "engine", "level": 9}, "bad_level"),
        ({"variant": "chess", "opponent": "engine", "level": "high"}, "bad_level"),
        ({"variant": "chess", "color": "green"}, "bad_request"),
        ({"variant": "chess", "opponent": "cat"}, "bad_request"),
        ({"variant": ["chess"]}, "bad_request"),
    ]:
        r = client.post("/api/games", json=body)
        assert r.status_code == 400, body
        assert r.json()["error"] == code
    assert client.get("/api/games").json()["games"] == []  # nothing was stored


def test_resign_and_draws(client: TestClient) -> None:
    game_id, white, black = friend_game(client)
    draw = f"/api/games/{game_id}/draw"
    refusal(client, game_id, "POST", draw, 409, "no_draw_offer", json={"action": "accept", "token": black})
    refusal(client, game_id, "POST", draw, 400, "bad_request", json={"action": "maybe", "token": black})
    assert client.post(draw, json={"action": "offer", "token": white}).json()["draw_offer"] == "white"
    assert client.post(draw, json={"action": "decline", "token": black}).json()["draw_offer"] is None
    client.post(draw, json={"action": "offer", "token": white})
    # a move declines the offer
    assert (
        client.post(f"/api/games/{game_id}/moves", json={"uci": "e2e4", "token": white}).json()["draw_offer"]
        is None
    )
    client.post(draw, json={"action": "offer", "token": black})
    ended = client.post(draw, json={"action": "accept", "token": white}).json()
    assert (
        ended["status"] == "over" and ended["result"] == "1/2-1/2" and ended["reason"] == "Draw by agreement"
    )

    game_id, white, black = friend_game(client)
    ended = client.post(f"/api/games/{game_id}/resign", json={"token": black}).json()
    assert ended["result"] == "1-0" and ended["reason"] == "Black resigned — White wins"


def test_no_draw_offers_to_the_engine(client: TestClient) -> None:
    g = create(client, variant="chess", opponent="engine", color="black", level=1)
    r = client.post(f"/api/games/{g['id']}/draw", json={"action": "offer", "token": g["token"]})
    assert r.status_code == 409 and r.json()["error"] == "no_draw_offers"


def test_seat_in_state_and_cookie(client: TestClient) -> None:
    r = client.post("/api/games", json={"variant": "orda", "opponent": "friend", "color": "black"})
    data = r.json()
    assert data["seat"] == "black" and data["game"]["seat"] == "black"
    assert data["invite_url"].endswith(f"?invite={data['invite_token']}")
    # the cookie set on creation identifies this client's seat
    assert client.get(f"/api/games/{data['id']}").json()["seat"] == "black"
    # the friend joins with the invitation and gets a seat token of their own, in a cookie
    client.cookies.clear()
    joined = client.post(f"/api/games/{data['id']}/join", json={"invite": data["invite_token"]})
    assert joined.status_code == 200 and joined.json()["seat"] == "white"
    friend = client.get(f"/api/games/{data['id']}").json()
    assert friend["seat"] == "white" and "invite_token" not in friend
    assert data["token"] not in str(friend)  # the friend never learns the creator's token
    creator = client.get(f"/api/games/{data['id']}", headers={"X-Seat-Token": data["token"]}).json()
    assert creator["seat"] == "black" and "invite_token" not in creator  # claimed: no invitation to show


# ----- stateless positions, PGN ------------------------------------------------------------------------
def test_position_endpoint(client: TestClient) -> None:
    r = client.post("/api/position", json={"variant": "orda", "moves": ["e2e4", "g6g5"]})
    data = r.json()
    assert [m["san"] for m in data["moves"]] == ["e4", "g5"] and data["turn"] == "white"
    r = client.post("/api/position", json={"variant": "orda", "moves": ["e2e4", "e2e4"]})
    assert r.status_code == 422 and "move 2" in r.json()["message"]
    assert client.post("/api/position", json={"variant": "orda", "moves": "e2e4"}).status_code == 400


def test_p9_check_is_marked_at_checkmate(client: TestClient) -> None:
    """The final position of a mated game marks the mated royal piece, as any check is marked."""
    for variant, (fen, move, result, _how) in WINS.items():
        data = client.post("/api/position", json={"variant": variant, "fen": fen, "moves": [move]}).json()
        assert data["result"] == result, variant
        if data["termination"] == "checkmate":
            assert data["check"] == royal_squares(Board(variant, data["fen"])) != [], variant
        else:  # a campmate is no check
            assert data["check"] == [], variant


def test_p9_the_san_suffix_says_when_a_position_is_in_check() -> None:
    """The game page marks check on earlier positions from each move's SAN ('+' or '#'): that suffix
    is written exactly when the position after the move has check marks."""
    checks = 0
    for variant in builtin_variants():
        rng = random.Random(variant.slug)
        board = Board(variant)
        for _ply in range(80):
            moves = [m for m in board.legal_moves]
            if not moves:
                break
            move = rng.choice(moves)
            text = san(board, move)
            board.push(move)
            marked = position_view(board)["check"] != []
            assert marked == text.endswith(("+", "#")), (variant.slug, board.fen(), text)
            checks += marked
    assert checks >= 5  # the games did give check (11 times with these seeds)


def test_pgn_round_trip(client: TestClient) -> None:
    r = client.post("/api/pgn/export", json={"variant": "orda", "moves": ["e2e4", "g6g5", "d1h5"]})
    pgn = r.json()["pgn"]
    assert '[Variant "Orda"]' in pgn and "1. e4 g5 2. Qh5" in pgn
    back = client.post("/api/pgn/import", json={"pgn": pgn}).json()
    assert back["variant"] == "orda" and [m["uci"] for m in back["moves"]] == ["e2e4", "g6g5", "d1h5"]
    bad = client.post("/api/pgn/import", json={"pgn": '[Variant "Nope"]\n\n1. e4 *'})
    assert bad.status_code == 400 and bad.json()["error"] == "bad_pgn"


def test_pages_render(client: TestClient) -> None:
    game_id, _, _ = friend_game(client, "hordes")
    for url in [
        "/",
        "/games",
        "/analysis",
        "/analysis?variant=orda",
        f"/analysis?game={game_id}",
        "/variants",
        "/variants/orda",
        "/variants/hordes",
        f"/game/{game_id}",
        "/api/docs",
        "/pieces/orda.css",
    ]:
        r = client.get(url)
        assert r.status_code == 200, url
    assert "k-piece" in client.get("/pieces/orda.css").text
    assert client.get("/variants/nope").status_code == 404
    assert client.get("/pieces/nope.css").status_code == 404


def test_lobby_form(client: TestClient) -> None:
    r = post_form(client, "/games", {"variant": "orda", "color": "white", "opponent": "friend"})
    assert r.status_code == 303
    game_id = r.headers["location"].rsplit("/", 1)[1]
    assert client.get(f"/api/games/{game_id}").json()["seat"] == "white"
    bad = post_form(client, "/games", {"variant": "nope"})
    assert bad.status_code == 400 and "nope" in bad.text


def test_openapi_describes_every_api_route(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    assert schema["openapi"].startswith("3.")
    described = {(path, method) for path, ops in schema["paths"].items() for method in ops}
    served = set()
    for route in routes():
        path = getattr(route, "path", "")
        if path.startswith("/api/") and path != "/api/docs":
            for method in getattr(route, "methods", None) or ():
                if method != "HEAD":
                    served.add((path, method.lower()))
    assert described == served


@pytest.mark.parametrize("variant", [v.slug for v in builtin_variants()])
def test_every_builtin_variant_starts(client: TestClient, variant: str) -> None:
    game_id, white, _ = friend_game(client, variant)
    game = stored(client, game_id)
    assert game["dests"] and game["variant"]["slug"] == variant
    first = next(f + tos[0] for f, tos in game["dests"].items())
    assert client.post(f"/api/games/{game_id}/moves", json={"uci": first, "token": white}).status_code == 200
    assert client.get(f"/game/{game_id}").status_code == 200
    css = client.get(f"/pieces/{variant}.css").text
    assert css.count("background-image") == 4 * len(game["variant"]["pieces"])
