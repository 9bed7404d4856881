"""Issue 14 points 1-3 in a real browser: two people sign up in two browser contexts, play a rated
game, and the player page shows the rating (Debian's Chromium, as in test_browser.py).

Screenshots of the player page (1280x800 and 390x844) go to a temporary directory, or to
$HORDES_SCREENSHOTS (docs/images) to refresh the documentation's.
"""

from __future__ import annotations

from typing import Any

from tests.web.test_browser import (  # the module's fixtures and helpers (no tests are imported)
    base,
    browser,
    settle,
    shots,
    wait_ply,
    watch,
)

__all__ = ["base", "browser", "shots"]  # fixtures used by name
PASSWORD = "a long password"


def sign_up(page: Any, base: str, name: str) -> None:
    page.goto(base + "/signup")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("#signup-form button[type=submit]")
    page.wait_for_url(base + "/")
    assert page.locator("#account a.me").inner_text() == name


def api(page: Any, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """A JSON call with the context's cookies (its session and seat cookies), as a script would."""
    r = page.request.post(page.url.split("/", 3)[0] + "//" + page.url.split("/", 3)[2] + path, data=body)
    assert r.ok, r.text()
    data: dict[str, Any] = r.json()
    return data


def rated_game_by_api(white: Any, black: Any, variant: str) -> str:
    g = api(white, "/api/games", {"variant": variant, "opponent": "friend", "rated": True})
    api(black, f"/api/games/{g['id']}/join", {"invite": g["invite_token"]})
    return str(g["id"])


def test_p1_p3_two_accounts_play_rated_and_the_player_page_shows_the_rating(
    browser: Any, base: str, shots: Any
) -> None:
    first = browser.new_context(viewport={"width": 1280, "height": 800})
    second = browser.new_context(viewport={"width": 1280, "height": 800})
    problems = watch(first) + watch(second)
    try:
        a, b = first.new_page(), second.new_page()
        sign_up(a, base, "alice")
        sign_up(b, base, "Bob")
        # alice starts a rated friend game in the lobby; Bob joins it from her invitation
        a.click("label.variant-choice:has(input[value=chess])")
        a.check("input[name=opponent][value=friend]")
        a.check("input[name=rated]")
        a.check("input[name=color][value=white]")
        a.click("button.primary")
        a.wait_for_url("**/game/*")
        invite = a.locator("#invite-link").input_value()
        b.goto(invite)
        b.click("#join-game")
        b.wait_for_function("() => window.hordesGame && window.hordesGame.state.seat === 'black'")
        a.wait_for_function("() => window.hordesGame.state.status === 'playing'")
        game_id = a.evaluate("window.hordesGame.state.id")
        assert (
            "alice" in a.locator("#player-bottom").inner_text()
            and "Bob" in a.locator("#player-top").inner_text()
        )
        # fool's mate, each seat moving through the API with its own browser's seat cookie
        for page, uci in ((a, "f2f3"), (b, "e7e5"), (a, "g2g4"), (b, "d8h4")):
            api(page, f"/api/games/{game_id}/moves", {"uci": uci})
        assert wait_ply(a, 4)["status"] == "over"
        # a few more rated games, so that the history has a shape: two wins for alice, a draw
        for variant, resigner in (("chess", b), ("orda", b), ("chess", None)):
            game = rated_game_by_api(a, b, variant)
            if resigner is None:
                api(a, f"/api/games/{game}/draw", {"action": "offer"})
                api(b, f"/api/games/{game}/draw", {"action": "accept"})
            else:
                api(resigner, f"/api/games/{game}/resign", {})
        # the player page: the rating (provisional, so with "?"), its plot, the results, the games
        a.goto(base + "/@/alice")
        assert a.locator("#player-name").inner_text() == "alice"
        chess = a.locator(".rating-card[data-variant=chess] .rating.big").inner_text()
        assert chess.endswith("?") and 1000 < int(chess[:-1]) < 2000
        assert a.locator(".rating-card[data-variant=chess] svg.rating-plot circle.dot").count() == 3
        assert a.locator("#results").inner_text().replace("\n", " ") == "2 W · 1 D · 1 L"
        assert a.locator("#finished-games li").count() == 4
        a.select_option("select[name=result]", "loss")
        a.click("#game-filters button")
        a.wait_for_url("**result=loss**")
        assert a.locator("#finished-games li").count() == 1
        a.locator("#finished-games li a.open").click()  # each game opens
        a.wait_for_url(f"**/game/{game_id}")
        a.wait_for_function("() => window.hordesGame && window.hordesGame.state.status === 'over'")
        assert "?" in a.locator("#player-top .rating").inner_text()  # the rating beside the name
        # the screenshots: desktop, then a phone (no horizontal overflow at 390 px)
        a.goto(base + "/@/alice")
        a.screenshot(path=str(shots / "player-desktop.png"), full_page=True)
        phone = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=1)
        problems += watch(phone)
        p = phone.new_page()
        p.goto(base + "/@/alice")
        assert p.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        p.screenshot(path=str(shots / "player-phone.png"), full_page=True)
        for url in ("/login", "/signup"):  # (the lobby's width is issue 14 point 13, another part)
            p.goto(base + url)
            assert p.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"), url
        settle(phone)
        phone.close()
        # logging out in the header ends the session
        b.goto(base + "/")
        b.click("#account form.logout button")
        b.wait_for_url(base + "/")
        assert b.locator("#account a[href='/login']").count() == 1
        settle(first)
        settle(second)
    finally:
        first.close()
        second.close()
    assert not problems, problems
