"""Issue 14 points 1 and 2: accounts (sign up, log in, log out, sessions, login limits) and the
player page."""

from __future__ import annotations

import logging
import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from argon2 import PasswordHasher
from starlette.testclient import TestClient

from hordes.web import db
from hordes.web.app import create_app
from hordes.web.ratelimit import RateLimiter
from tests.web.conftest import ORIGIN, csrf_token
from tests.web.test_ratings import FOOLS_MATE, as_user, play, rated_game
from tests.web.test_security import _Page

PASSWORD = "correct horse battery"
CHEAP = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)  # argon2id, smaller costs


class Clock:
    """A clock the test moves by hand (for the rate limiter: seconds)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def app(tmp_path: Path, clock: Clock) -> Any:
    application = create_app(data_dir=tmp_path, engine_workers=1, rate_limits=RateLimiter(clock=clock))
    application.state.accounts.hasher = CHEAP
    return application


def signup(client: TestClient, name: str, password: str = PASSWORD) -> Any:
    return client.post("/api/account/signup", json={"username": name, "password": password})


def login(client: TestClient, name: str, password: str = PASSWORD) -> Any:
    return client.post("/api/account/login", json={"username": name, "password": password})


def test_p1_signup_login_logout(client: TestClient) -> None:
    r = signup(client, "Alice_1")
    assert r.status_code == 201 and r.json()["username"] == "Alice_1"
    assert client.get("/api/account").json()["username"] == "Alice_1"
    assert 'href="/@/Alice_1"' in client.get("/").text and "Log out" in client.get("/").text
    assert client.post("/api/account/logout").status_code == 200
    r = client.get("/api/account")
    assert r.status_code == 401 and r.json()["error"] == "not_logged_in"
    assert "Log in" in client.get("/").text
    assert login(client, "alice_1").status_code == 200  # the name is found ignoring case
    assert client.get("/api/account").json()["username"] == "Alice_1"  # as its owner spelt it


def test_p1_default_argon2_hash_is_stored(tmp_path: Path) -> None:
    """The app's own hasher (argon2-cffi's defaults): argon2id, never the password."""
    app = create_app(data_dir=tmp_path, engine_workers=1)
    with TestClient(app) as client:
        assert signup(client, "carol").status_code == 201
        assert login(client, "carol").status_code == 200
    with app.state.db.connect() as conn:
        stored = conn.execute(sa.select(db.users.c.password_hash)).scalar_one()
    assert stored.startswith("$argon2id$") and PASSWORD not in stored


def test_p1_names_are_unique_ignoring_case(client: TestClient) -> None:
    assert signup(client, "Alice").status_code == 201
    client.cookies.clear()
    for name in ("alice", "ALICE", "aLiCe"):
        r = signup(client, name)
        assert (
            r.status_code == 409
            and r.json()["error"] == "name_taken"
            and "ignoring case" in r.json()["message"]
        )
    with client.app.state.db.connect() as conn:  # type: ignore[attr-defined]
        assert conn.execute(sa.select(sa.func.count()).select_from(db.users)).scalar_one() == 1


@pytest.mark.parametrize(
    ("name", "error", "words"),
    [
        ("a", "bad_username", "2 to 20"),
        ("x" * 21, "bad_username", "2 to 20"),
        ("_alice", "bad_username", "starts with a letter or digit"),
        ("-bob", "bad_username", "starts with a letter or digit"),
        ("al ice", "bad_username", "letters"),
        ("élodie", "bad_username", "letters"),
        ("ab\u0661", "bad_username", "letters"),  # an Arabic-Indic digit is no ASCII digit
        ("Admin", "reserved_username", "reserved"),
        ("anonymous", "reserved_username", "reserved"),
        ("HORDES", "reserved_username", "reserved"),
        ("engine", "reserved_username", "reserved"),
        ("", "bad_username", "needed"),
        (42, "bad_username", "needed"),
    ],
)
def test_p1_bad_usernames_are_refused(client: TestClient, name: Any, error: str, words: str) -> None:
    r = client.post("/api/account/signup", json={"username": name, "password": PASSWORD})
    assert r.status_code == 400 and r.json()["error"] == error and words in r.json()["message"], r.json()
    assert "hordes_session" not in r.cookies


@pytest.mark.parametrize("password", ["short", "1234567", "x" * 257, None, 12345678])
def test_p1_bad_passwords_are_refused(client: TestClient, password: Any) -> None:
    r = client.post("/api/account/signup", json={"username": "dave", "password": password})
    assert r.status_code == 400 and r.json()["error"] == "bad_password" and "8 to 256" in r.json()["message"]
    assert client.get("/api/users/dave").status_code == 404


def test_p1_password_limits_are_inclusive(client: TestClient) -> None:
    assert signup(client, "eight", "8" * 8).status_code == 201
    assert signup(client, "long", "y" * 256).status_code == 201


def test_p1_login_attempts_are_limited_on_an_injected_clock(client: TestClient, clock: Clock) -> None:
    assert signup(client, "alice").status_code == 201
    client.cookies.clear()
    for _ in range(5):  # five wrong passwords for one name
        r = login(client, "alice", "wrong password")
        assert r.status_code == 401 and r.json()["error"] == "bad_credentials"
    r = login(client, "alice", "wrong password")
    assert (
        r.status_code == 429 and int(r.headers["retry-after"]) >= 1 and "failed logins" in r.json()["message"]
    )
    r = login(client, "ALICE")  # the right password too, while the name's bucket is empty
    assert r.status_code == 429 and "hordes_session" not in r.cookies
    clock.now += 60  # one attempt comes back a minute later
    assert login(client, "alice").status_code == 200
    # the client's own limit: ten failures, whichever names they try
    client.cookies.clear()
    clock.now += 3600  # every bucket full again
    for i in range(10):
        assert login(client, f"nobody{i}", "wrong password").status_code == 401
    r = login(client, "someone", "wrong password")
    assert r.status_code == 429 and r.headers["retry-after"] == "30"
    clock.now += 3600
    assert login(client, "alice").status_code == 200


def test_p1_session_cookie_flags(app: Any, client: TestClient) -> None:
    r = signup(client, "alice")
    header = r.headers["set-cookie"]
    assert header.startswith("hordes_session=")
    flags = {part.strip().split("=")[0].lower(): part for part in header.split(";")}
    assert (
        "httponly" in flags and flags["samesite"].strip().lower() == "samesite=lax" and "secure" not in flags
    )
    assert int(flags["max-age"].split("=")[1]) == 30 * 24 * 3600
    # behind https, the cookie is Secure
    app.state.base_url = "https://play.example.org"
    client.cookies.clear()
    r = client.post("/api/account/login", json={"username": "alice", "password": PASSWORD},
                    headers={"Origin": "https://play.example.org"})  # fmt: skip
    assert r.status_code == 200 and "secure" in r.headers["set-cookie"].lower()


def test_p1_tampered_and_expired_cookies_are_refused(app: Any, client: TestClient) -> None:
    signup(client, "alice")
    cookie = client.cookies["hordes_session"]
    session_id, mac = cookie.rsplit(".", 1)
    bad = [
        session_id,  # unsigned
        f"{session_id}.{'0' * len(mac)}",  # a wrong signature
        f"{session_id[:-1]}{'A' if session_id[-1] != 'A' else 'B'}.{mac}",  # another id, the old signature
        "x" * 300,
        "",
    ]
    for value in bad:
        client.cookies.clear()
        client.cookies.set("hordes_session", value)
        assert client.get("/api/account").status_code == 401, value
    client.cookies.clear()
    client.cookies.set("hordes_session", cookie)
    assert client.get("/api/account").status_code == 200
    # 30 days on, the session has expired (the server's clock, not the cookie's Max-Age, decides)
    accounts = app.state.accounts
    accounts.clock = lambda: db.now() + timedelta(days=31)
    assert client.get("/api/account").status_code == 401


def test_p1_the_signing_key_survives_a_restart(tmp_path: Path) -> None:
    first = create_app(data_dir=tmp_path, engine_workers=1)
    first.state.accounts.hasher = CHEAP
    with TestClient(first) as client:
        signup(client, "alice")
        cookie = client.cookies["hordes_session"]
    second = create_app(data_dir=tmp_path, engine_workers=1)
    with TestClient(second) as client:
        client.cookies.set("hordes_session", cookie)
        assert client.get("/api/account").json()["username"] == "alice"
    with second.state.db.connect() as conn:
        stored = [r.id_hash for r in conn.execute(sa.select(db.sessions.c.id_hash))]
    assert stored and cookie.split(".")[0] not in stored  # only a hash of the id is kept


def test_p1_logout_and_password_change_revoke_sessions(client: TestClient) -> None:
    signup(client, "alice")
    first = client.cookies["hordes_session"]
    client.cookies.clear()
    login(client, "alice")
    second = client.cookies["hordes_session"]
    client.post("/api/account/logout")
    as_user(client, {"hordes_session": second})
    assert client.get("/api/account").status_code == 401  # the old cookie, replayed, opens nothing
    as_user(client, {"hordes_session": first})
    assert client.get("/api/account").status_code == 200  # the other browser is still logged in
    r = client.post(
        "/api/account/password", json={"current_password": "wrong password", "new_password": "new password!"}
    )
    assert r.status_code == 401
    r = client.post("/api/account/password", json={"current_password": PASSWORD, "new_password": "short"})
    assert r.status_code == 400 and r.json()["error"] == "bad_password"
    r = client.post(
        "/api/account/password", json={"current_password": PASSWORD, "new_password": "new password!"}
    )
    assert r.status_code == 200
    fresh = r.cookies["hordes_session"]
    as_user(client, {"hordes_session": first})
    assert client.get("/api/account").status_code == 401  # every old session ended
    as_user(client, {"hordes_session": fresh})
    assert client.get("/api/account").status_code == 200
    client.cookies.clear()
    assert (
        login(client, "alice").status_code == 401
        and login(client, "alice", "new password!").status_code == 200
    )


def test_p1_the_password_is_never_logged_or_shown(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    secret = "Sup3r-secret-passw0rd"
    caplog.set_level(logging.DEBUG)
    pages = []
    pages.append(signup(client, "alice", secret).text)
    client.cookies.clear()
    pages.append(login(client, "alice", secret + "x").text)
    pages.append(login(client, "alice", secret).text)
    pages.append(client.get("/@/alice").text)
    client.cookies.clear()
    token = csrf_token(client)
    for path, fields in (("/login", {"username": "alice", "password": secret + "y"}),
                         ("/signup", {"username": "alice", "password": secret}),
                         ("/signup", {"username": "_bad", "password": secret})):  # fmt: skip
        r = client.post(
            path, data={"csrf_token": token, **fields}, headers={"Origin": ORIGIN}, follow_redirects=False
        )
        assert r.status_code in (400, 401, 409), (path, r.status_code)
        pages.append(r.text)
    pages.append(client.get("/login?password=" + secret).text)
    # uvicorn's access line of that request (the TestClient does not run uvicorn): the URL is redacted
    logging.getLogger("uvicorn.access").info(
        '%s - "%s %s HTTP/%s" %d', "127.0.0.1:5000", "GET", "/login?password=" + secret, "1.1", 200
    )
    assert all(secret not in page for page in pages)
    server_logs = [
        r.getMessage() for r in caplog.records if not r.name.startswith("httpx")
    ]  # not the client's
    assert any("password=***" in line for line in server_logs)
    assert not any(secret in line for line in server_logs)
    with client.app.state.db.connect() as conn:  # type: ignore[attr-defined]
        assert secret not in str(list(conn.execute(sa.select(db.users))))
        key = conn.execute(sa.select(db.site_secrets.c.value)).scalar_one()
    assert key not in caplog.text and all(key not in page for page in pages)  # nor the signing key


def test_p1_signup_and_login_forms(client: TestClient) -> None:
    page = client.get("/signup").text
    assert 'name="csrf_token"' in page and 'type="password"' in page
    token = csrf_token(client)

    def post(path: str, **fields: str) -> Any:
        return client.post(
            path, data={"csrf_token": token, **fields}, headers={"Origin": ORIGIN}, follow_redirects=False
        )

    r = post("/signup", username="x", password=PASSWORD)
    assert r.status_code == 400 and "2 to 20" in r.text and 'value="x"' in r.text  # the name is kept
    assert post("/signup", username="alice", password=PASSWORD).status_code == 303
    assert client.get("/api/account").json()["username"] == "alice"
    # logging out is a form too (CSRF-checked): without the token it is refused
    no_token = client.post("/logout", data={}, headers={"Origin": ORIGIN}, follow_redirects=False)
    assert no_token.status_code == 403 and client.get("/api/account").status_code == 200
    assert post("/logout").status_code == 303 and client.get("/api/account").status_code == 401
    r = post("/login", username="alice", password="wrong password")
    assert r.status_code == 401 and "wrong username or password" in r.text
    r = post("/login", username="alice", password=PASSWORD, next="https://evil.example/")
    assert r.status_code == 303 and r.headers["location"] == "/"  # never to another site
    assert post("/login", username="alice", password=PASSWORD, next="/games").headers["location"] == "/games"


def test_p1_logged_in_seats_are_linked_and_anonymous_play_stays(client: TestClient) -> None:
    signup(client, "alice")
    g = client.post("/api/games", json={"opponent": "friend", "color": "black"}).json()
    client.cookies.clear()
    j = client.post(f"/api/games/{g['id']}/join", json={"invite": g["invite_token"]})  # anonymous
    assert j.status_code == 200
    players = client.get(f"/api/games/{g['id']}").json()["players"]
    assert players["black"]["user"]["name"] == "alice" and players["white"]["user"] is None
    assert client.get("/api/users/alice").json()["playing"][0]["id"] == g["id"]
    with client.app.state.db.connect() as conn:  # type: ignore[attr-defined]
        row = conn.execute(sa.select(db.games).where(db.games.c.id == g["id"])).one()
    assert row.black_user is not None and row.white_user is None and row.rated is False
    assert row.black_token == g["token"]  # the seat token rules are unchanged
    anon = client.post("/api/games", json={"opponent": "engine", "level": 1})
    assert anon.status_code == 201 and anon.json()["game"]["players"]["white"]["user"] is None


def test_p2_player_page_filters_and_pages(client: TestClient) -> None:
    signup(client, "alice")
    alice = {"hordes_session": client.cookies["hordes_session"]}
    client.cookies.clear()
    signup(client, "bob")
    bob = {"hordes_session": client.cookies["hordes_session"]}
    client.cookies.clear()
    ids = []
    for variant in ("chess", "chess", "orda"):
        game_id, w, b = rated_game(client, alice, bob, variant=variant)
        ids.append(game_id)
        if variant == "chess":
            play(client, game_id, w, b, FOOLS_MATE)  # alice (White) loses
        else:
            client.post(f"/api/games/{game_id}/resign", json={"token": b})  # bob resigns
    waiting = as_user(client, alice).post("/api/games", json={"opponent": "friend"}).json()["id"]
    client.cookies.clear()
    data = client.get("/api/users/alice").json()
    assert data["results"] == {"win": 1, "draw": 0, "loss": 2}
    assert [g["id"] for g in data["playing"]] == [waiting]
    assert set(data["ratings"]) == {"chess", "orda"} and data["ratings"]["chess"]["games"] == 2

    def listed(**query: Any) -> list[str]:
        r = client.get("/api/users/alice/games", params=query)
        assert r.status_code == 200, r.text
        return [g["id"] for g in r.json()["games"]]

    assert listed() == ids[::-1]
    assert listed(variant="orda") == [ids[2]]
    assert listed(result="loss") == ids[1::-1]
    assert listed(result="win", variant="chess") == [] and listed(result="draw") == []
    assert client.get("/api/users/bob/games", params={"result": "win"}).json()["total"] == 2
    assert client.get("/api/users/alice/games", params={"result": "lost"}).status_code == 400
    assert client.get("/api/users/alice/games", params={"variant": "../etc"}).status_code == 400
    assert client.get("/api/users/alice/games", params={"page": "0"}).status_code == 400
    assert client.get("/api/users/nobody").status_code == 404 and client.get("/@/nobody").status_code == 404
    # pages of 20
    from hordes.web import players

    page1, total = players.games_of(client.app.state.db, 1, finished=True, per_page=2)  # type: ignore[attr-defined]
    page2, _ = players.games_of(client.app.state.db, 1, finished=True, per_page=2, page=2)  # type: ignore[attr-defined]
    assert total == 3 and [g["id"] for g in page1 + page2] == ids[::-1]
    # the page: each game opens, filters are kept, ratings plotted as SVG, no inline style or script
    html = client.get("/@/ALICE", params={"variant": "chess"}).text
    assert all(f'href="/game/{i}"' in html for i in ids[:2]) and f'href="/game/{ids[2]}"' not in html
    assert f'href="/game/{waiting}"' in html  # in progress
    assert '<option value="chess" selected>' in html and 'class="rating-plot"' in html
    assert "1 W" in html and "2 L" in html and re.search(r'class="rating big">1\d{3}\?<', html)
    parser = _Page()
    parser.feed(html)
    assert parser.problems == []
    for path in ("/login", "/signup"):
        parser = _Page()
        parser.feed(client.get(path).text)
        assert parser.problems == [], path


def test_p1_signing_up_is_limited_per_client(client: TestClient, clock: Clock) -> None:
    for i in range(5):
        assert signup(client, f"player{i}").status_code == 201
    r = signup(client, "player5")
    assert r.status_code == 429 and r.headers["retry-after"] == "120" and "signing up" in r.json()["message"]
    assert client.get("/api/users/player5").status_code == 404
    clock.now += 120
    assert signup(client, "player5").status_code == 201
