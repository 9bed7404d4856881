"""Issue 14 point 7 in a real browser (Debian's Chromium): a rematch offered in one browser context
and accepted in another takes both to the new game with colours swapped; a takeback asked in one is
declined, then another accepted, and the board goes back in both.

Screenshots of a game page with an incoming takeback request (offer-desktop.png at 1280x800,
offer-phone.png at 390x844) go to $HORDES_SCREENSHOTS (docs/images to refresh the documentation's)
or a temporary directory.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.live_server import server

# test_browser's guard decides: its import skips this module, or fails it in CI, without the browser.
from tests.web.test_browser import browser, click, settle, shots, wait_ply, watch
from tests.web.test_browser_clocks import api_post

__all__ = ["browser", "shots"]  # the shared fixtures, used by name

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with server(tmp_path_factory.mktemp("offer-data")) as url:
        yield url


def seated_pair(
    browser: Any, base: str, second_viewport: dict[str, int]
) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
    """Two contexts in one friend game: White (desktop) from its seat link, Black from the invitation."""
    game = api_post(base, "/api/games", {"variant": "chess", "opponent": "friend"})
    first = browser.new_context(viewport=DESKTOP)
    second = browser.new_context(viewport=second_viewport, is_mobile=second_viewport == PHONE, has_touch=True)
    a = first.new_page()
    a.goto(game["url"])
    a.wait_for_function("() => window.hordesGame && window.hordesGame.state.seat === 'white'")
    b = second.new_page()
    b.goto(game["invite_url"])
    b.click("#join-game")
    b.wait_for_function("() => window.hordesGame && window.hordesGame.state.seat === 'black'")
    a.wait_for_function("() => window.hordesGame.state.status === 'playing'")
    return first, second, a, b, game


def play(mover: Any, watcher: Any, frm: str, to: str) -> None:
    """A move made on `mover`'s board, once both pages have it."""
    ply = mover.evaluate("window.hordesGame.state.ply")
    mover.wait_for_function("() => window.hordesGame.synced && window.hordesGame.board.movable")
    click(mover, frm)
    click(mover, to)
    wait_ply(watcher, ply + 1)
    wait_ply(mover, ply + 1)


def test_p7_rematch_takes_both_browsers_to_the_new_game_with_colours_swapped(browser: Any, base: str) -> None:
    first, second, a, b, game = seated_pair(browser, base, DESKTOP)
    problems = watch(first) + watch(second)
    try:
        assert a.locator("#abort").is_visible() and not a.locator("#resign").is_visible()
        a.click("#abort")  # before both sides have moved
        for pg in (a, b):
            pg.wait_for_function("() => window.hordesGame.state.status === 'aborted'")
            assert "Game aborted by White" in pg.locator("#status").inner_text()
            assert pg.locator("#rematch").is_visible()
        a.click("#rematch")
        b.wait_for_function("() => !document.querySelector('#offer-prompt').hidden")
        assert b.locator("#offer-text").inner_text() == "Your opponent offers a rematch."
        a.wait_for_function("() => document.querySelector('#rematch').textContent === 'Cancel rematch'")
        assert a.locator("#offer-line").inner_text() == "You offered a rematch."
        b.click("#offer-accept")
        old = game["id"]
        for pg, seat in ((a, "black"), (b, "white")):
            pg.wait_for_function(
                f"() => window.hordesGame && window.hordesGame.state.id !== '{old}'"
                f" && window.hordesGame.state.seat === '{seat}'"
            )
            state = pg.evaluate("window.hordesGame.state")
            assert state["rematch_of"] == old and state["status"] == "playing" and state["ply"] == 0
            assert pg.url.endswith(f"/game/{state['id']}")
            assert pg.evaluate("() => window.hordesGame.board.cg.state.orientation") == seat
        assert a.evaluate("window.hordesGame.state.id") == b.evaluate("window.hordesGame.state.id")
        settle(first)
        settle(second)
    finally:
        first.close()
        second.close()
    assert not problems, problems


def test_p7_takeback_asked_in_one_browser_is_answered_in_the_other(
    browser: Any, base: str, shots: Path
) -> None:
    first, second, a, b, _game = seated_pair(browser, base, PHONE)
    problems = watch(first) + watch(second)
    try:
        play(a, b, "e2", "e4")
        assert b.locator("#abort").is_visible() and a.locator("#takeback").is_visible()
        assert b.locator("#takeback").is_hidden()  # Black has no move to take back yet
        play(b, a, "e7", "e5")
        for pg in (a, b):  # both sides have moved: no abort any more, resign instead
            pg.wait_for_function("() => document.querySelector('#abort').hidden")
            assert pg.locator("#resign").is_visible()
        a.click("#takeback")  # White's e4 and Black's reply would go back: Black declines
        b.wait_for_function("() => !document.querySelector('#offer-prompt').hidden")
        assert b.locator("#offer-text").inner_text() == "Your opponent asks to take back a move."
        b.evaluate("() => window.scrollTo(0, 0)")
        b.wait_for_timeout(300)  # the last move's animation
        b.screenshot(path=str(shots / "offer-phone.png"))
        b.click("#offer-decline")
        a.wait_for_function("() => document.querySelector('#offer-line').textContent.includes('declined')")
        assert a.locator("#offer-line").inner_text() == "Your opponent declined the takeback."
        assert a.locator("#takeback").is_disabled()  # until the next move
        play(a, b, "g1", "f3")
        b.click("#takeback")  # Black's e5 and White's Nf3 go back: White accepts
        a.wait_for_function("() => !document.querySelector('#offer-prompt').hidden")
        a.wait_for_timeout(300)
        a.screenshot(path=str(shots / "offer-desktop.png"))
        a.click("#offer-accept")
        after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"
        for pg, said in ((a, "You accepted"), (b, "Your opponent accepted")):
            pg.wait_for_function("() => window.hordesGame.state.ply === 1")
            assert pg.evaluate("window.hordesGame.state.moves.length") == 1
            pg.wait_for_function(f"() => window.hordesGame.board.cg.getFen().startsWith('{after_e4}')")
            assert pg.locator("#offer-line").inner_text() == f"{said} the takeback (2 moves taken back)."
            assert pg.locator("#moves").inner_text().count("e5") == 0
        play(b, a, "d7", "d5")  # the game goes on from there
        assert [m["san"] for m in a.evaluate("window.hordesGame.state.moves")] == ["e4", "d5"]
        # against the engine there is no draw offer to make
        engine = api_post(base, "/api/games", {"variant": "chess", "opponent": "engine", "level": 1})
        a.goto(engine["url"])
        a.wait_for_function("() => window.hordesGame && window.hordesGame.state.seat === 'white'")
        assert a.locator("#offer-draw").is_hidden() and a.locator("#abort").is_visible()
        settle(first)
        settle(second)
    finally:
        first.close()
        second.close()
    assert not problems, problems
