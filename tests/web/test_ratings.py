"""Issue 14 point 3: Glicko-2 ratings (web/ratings.py) and rated games between two accounts."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa
from argon2 import PasswordHasher
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from hordes.web import db, players
from hordes.web.ratings import Rating, after_game, display, expected_score, update


# ----- the maths ------------------------------------------------------------------------------------
def test_p3_glicko2_matches_glickmans_worked_example() -> None:
    """Glickman, "Example of the Glicko-2 system": 1500/200/0.06 against 1400/30 (won), 1550/100
    (lost) and 1700/300 (lost), τ = 0.5 -> r' 1464.06, RD' 151.52, σ' 0.05999."""
    player = Rating(1500, 200, 0.06)
    games = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
    new = update(player, games, tau=0.5, clamp=None)
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert new.rd == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=0.00001)


def test_p3_a_period_without_games_only_widens_rd() -> None:
    new = update(Rating(1600, 100, 0.06), [], clamp=None)
    assert new.rating == 1600 and new.volatility == 0.06
    assert new.rd == pytest.approx((100**2 + (0.06 * 173.7178) ** 2) ** 0.5, rel=1e-9)


def test_p3_provisional_is_marked() -> None:
    assert (
        display(1500, 500) == "1500?" and display(1732.4, 110) == "1732" and display(1499.6, 110.5) == "1500?"
    )
    assert Rating(1500, 111).provisional and not Rating(1500, 60).provisional
    with pytest.raises(ValueError, match="score"):
        update(Rating(), [(Rating(), 2.0)])


ratings = st.builds(
    Rating,
    st.floats(800, 2600),
    st.floats(45, 500),
    st.floats(0.03, 0.12),
)


@settings(max_examples=60, deadline=None)
@given(ratings, ratings, st.sampled_from([1.0, 0.5, 0.0]))
def test_p3_glicko2_properties(a: Rating, b: Rating, score: float) -> None:
    new_a, new_b = after_game(a, b, score)
    expected = expected_score(a, b)
    # the rating moves towards the result: up when scoring more than expected, down when less
    if score > expected + 1e-9:
        assert new_a.rating > a.rating
    if score < expected - 1e-9:
        assert new_a.rating < a.rating
    # a winner never loses points, a loser never gains; a game makes RD no larger than it was
    if score == 1.0:
        assert new_a.rating >= a.rating and new_b.rating <= b.rating
    if score == 0.0:
        assert new_a.rating <= a.rating and new_b.rating >= b.rating
    assert new_a.rd <= (a.rd**2 + (new_a.volatility * 173.7178) ** 2) ** 0.5 + 1e-9 or new_a.rd == 45.0
    assert 45.0 <= new_a.rd <= 500.0 and 45.0 <= new_b.rd <= 500.0
    # the same game seen from the other side gives the other player the same update
    swapped_b, swapped_a = after_game(b, a, 1.0 - score)
    assert swapped_a == new_a and swapped_b == new_b


def test_p3_a_draw_between_equals_changes_no_rating() -> None:
    a, b = after_game(Rating(1700, 80, 0.06), Rating(1700, 80, 0.06), 0.5)
    assert a.rating == pytest.approx(1700) and b.rating == pytest.approx(1700) and a.rd < 80


# ----- rated games in the app ------------------------------------------------------------------------
FOOLS_MATE = ["f2f3", "e7e5", "g2g4", "d8h4"]  # Black mates


@pytest.fixture
def fast(app: Any) -> Any:
    """The app with a cheaper argon2 (the real library; only its cost parameters are smaller)."""
    app.state.accounts.hasher = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    return app


def account(client: TestClient, name: str) -> dict[str, str]:
    """Sign `name` up; return its session cookie (the client's cookies are left empty)."""
    client.cookies.clear()
    r = client.post("/api/account/signup", json={"username": name, "password": "a long password"})
    assert r.status_code == 201, r.text
    cookie = {"hordes_session": r.cookies["hordes_session"]}
    client.cookies.clear()
    return cookie


def as_user(client: TestClient, cookie: dict[str, str] | None) -> TestClient:
    """The client with only this session cookie (None: anonymous)."""
    client.cookies.clear()
    if cookie:
        client.cookies.update(cookie)
    return client


def rated_game(
    client: TestClient, white: dict[str, str], black: dict[str, str], **extra: Any
) -> tuple[str, str, str]:
    body = {"opponent": "friend", "color": "white", "rated": True, **extra}
    r = as_user(client, white).post("/api/games", json=body)
    assert r.status_code == 201, r.text
    g = r.json()
    client.cookies.clear()
    j = as_user(client, black).post(f"/api/games/{g['id']}/join", json={"invite": g["invite_token"]})
    assert j.status_code == 200, j.text
    client.cookies.clear()
    return g["id"], g["token"], j.json()["token"]


def play(client: TestClient, game_id: str, white: str, black: str, moves: list[str]) -> None:
    for i, uci in enumerate(moves):
        r = client.post(
            f"/api/games/{game_id}/moves", json={"uci": uci, "token": white if i % 2 == 0 else black}
        )
        assert r.status_code == 200, r.text


def stored_ratings(app: Any) -> list[tuple[Any, ...]]:
    with app.state.db.connect() as conn:
        return [tuple(r) for r in conn.execute(sa.select(db.ratings).order_by(db.ratings.c.user_id))]


def test_p3_a_rated_game_updates_both_ratings_exactly_once(fast: Any, client: TestClient) -> None:
    alice, bob = account(client, "alice"), account(client, "Bob")
    game_id, w, b = rated_game(client, alice, bob)
    state = client.get(f"/api/games/{game_id}").json()
    assert state["rated"] is True and state["players"]["black"]["user"]["name"] == "Bob"
    play(client, game_id, w, b, FOOLS_MATE)
    a, bb = (
        client.get("/api/users/alice").json()["ratings"]["chess"],
        client.get("/api/users/bob").json()["ratings"]["chess"],
    )
    assert a["rating"] < 1500 < bb["rating"] and a["games"] == bb["games"] == 1
    assert a["provisional"] and a["rating_text"].endswith("?")
    before = stored_ratings(fast)
    # applying the same result again (a replay, a retry) changes nothing
    with fast.state.db.begin() as conn:
        assert players.apply_result(conn, game_id) is False
    assert stored_ratings(fast) == before
    pgn = client.get(f"/api/games/{game_id}/pgn").text
    assert '[White "alice"]' in pgn and '[Black "Bob"]' in pgn and '[Event "Rated game"]' in pgn
    history = client.get("/api/users/alice/ratings").json()["ratings"]["chess"]["history"]
    assert [h["game"] for h in history] == [game_id]
    # the game page and the lobby's recent games show the ratings beside the names
    state = client.get(f"/api/games/{game_id}").json()
    assert state["players"]["white"]["user"]["rating_text"] == a["rating_text"]
    # a counted game shows the rating it gave and the change, as lichess does
    assert state["players"]["black"]["user"]["rating_diff"] == bb["rating"] - 1500
    assert state["players"]["white"]["user"]["diff_text"] == f"{a['rating'] - 1500:+d}"
    assert f'<span class="rating">{bb["rating_text"]}</span>' in client.get("/").text


def test_p3_resignation_and_draw_agreement_are_rated(fast: Any, client: TestClient) -> None:
    alice, bob = account(client, "alice"), account(client, "bob")
    g1, w, b = rated_game(client, alice, bob, variant="orda")
    assert client.post(f"/api/games/{g1}/resign", json={"token": b}).status_code == 200
    g2, w, b = rated_game(client, alice, bob, variant="orda")
    client.post(f"/api/games/{g2}/draw", json={"token": w, "action": "offer"})
    assert client.post(f"/api/games/{g2}/draw", json={"token": b, "action": "accept"}).status_code == 200
    orda = client.get("/api/users/alice/ratings").json()["ratings"]["orda"]
    assert orda["games"] == 2 and [h["game"] for h in orda["history"]] == [g1, g2]
    assert orda["history"][1]["rating"] < orda["history"][0]["rating"]  # drawn against a weaker player
    assert client.get("/api/users/alice").json()["results"] == {"win": 1, "draw": 1, "loss": 0}


def test_p3_casual_and_anonymous_games_change_no_rating(fast: Any, client: TestClient) -> None:
    alice, bob = account(client, "alice"), account(client, "bob")
    r = as_user(client, alice).post("/api/games", json={"opponent": "friend"})  # casual by default
    g = r.json()
    client.cookies.clear()
    j = as_user(client, bob).post(f"/api/games/{g['id']}/join", json={"invite": g["invite_token"]}).json()
    client.cookies.clear()
    play(client, g["id"], g["token"], j["token"], FOOLS_MATE)
    assert client.get("/api/users/alice").json()["ratings"] == {}
    assert client.get("/api/users/alice").json()["results"]["loss"] == 1  # still one of her games
    assert stored_ratings(fast) == []


def test_p3_rated_games_need_two_accounts(fast: Any, client: TestClient) -> None:
    alice = account(client, "alice")
    before = client.get("/api/games").json()["games"]
    r = client.post("/api/games", json={"opponent": "friend", "rated": True})
    assert (
        r.status_code == 403
        and r.json()["error"] == "rated_needs_account"
        and "log in" in r.json()["message"]
    )
    r = as_user(client, alice).post("/api/games", json={"opponent": "engine", "rated": True})
    assert (
        r.status_code == 400
        and r.json()["error"] == "rated_needs_accounts"
        and "engine" in r.json()["message"]
    )
    r = as_user(client, alice).post("/api/games", json={"opponent": "friend", "rated": "yes"})
    assert r.status_code == 400 and "'rated'" in r.json()["message"]
    assert client.get("/api/games").json()["games"] == before  # nothing was created
    client.cookies.clear()
    g = as_user(client, alice).post("/api/games", json={"opponent": "friend", "rated": True}).json()
    client.cookies.clear()
    page = client.get(f"/game/{g['id']}", params={"invite": g["invite_token"]}).text
    assert 'id="join-rated"' in page and 'id="join-game"' not in page  # told to log in first
    anonymous = client.post(f"/api/games/{g['id']}/join", json={"invite": g["invite_token"]})
    assert anonymous.status_code == 403 and anonymous.json()["error"] == "rated_needs_account"
    myself = as_user(client, alice).post(f"/api/games/{g['id']}/join", json={"invite": g["invite_token"]})
    assert myself.status_code == 409 and myself.json()["error"] == "same_account"
    assert client.get(f"/api/games/{g['id']}").json()["status"] == "waiting"  # the seat is still free
