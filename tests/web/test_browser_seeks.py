"""Issue 14 point 6 in a real browser: a seek made in one browser context is accepted from another,
and both land on the same game in opposite seats (Debian's Chromium, as in test_browser.py).

Screenshots of the lobby with two seeks (1280x800 and 390x844) go to a temporary directory, or to
$HORDES_SCREENSHOTS (docs/images) to refresh the documentation's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.test_browser import base, browser, settle, shots, watch  # fixtures and helpers
from tests.web.test_browser_accounts import sign_up

__all__ = ["base", "browser", "shots"]  # fixtures used by name

SEAT = (
    "() => window.hordesGame && window.hordesGame.state.seat && window.hordesGame.state.status === 'playing'"
)


def seek_rows(page: Any, count: int) -> None:
    page.wait_for_function(f"() => document.querySelectorAll('#seek-list li.seek').length === {count}")


def create_seek(page: Any, variant: str, clock: str, color: str) -> None:
    page.select_option("#seek-form select[name=seek_variant]", variant)
    page.select_option("#seek-form select[name=seek_clock]", clock)
    page.select_option("#seek-form select[name=seek_color]", color)
    page.click("#seek-submit")


def fits(page: Any) -> bool:
    result: bool = page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    return result


def test_p6_a_seek_from_one_browser_is_accepted_from_another(browser: Any, base: str, shots: Path) -> None:
    contexts = [browser.new_context(viewport={"width": 1280, "height": 800}) for _ in range(4)]
    phone = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=1)
    problems = [p for c in [*contexts, phone] for p in watch(c)]
    try:
        creator, accepter, carol, dan = (c.new_page() for c in contexts)
        creator.goto(base + "/")
        accepter.goto(base + "/")
        create_seek(creator, "orda", "3+2", "white")
        seek_rows(creator, 1)
        assert creator.locator("#seek-list li.seek.mine button").inner_text() == "Cancel"
        seek_rows(accepter, 1)  # over the lobby socket, without a reload
        row = accepter.locator("#seek-list li.seek")
        assert "Orda" in row.inner_text() and "3+2" in row.inner_text()
        row.locator("button", has_text="Accept").click()
        accepter.wait_for_url("**/game/*")
        creator.wait_for_url("**/game/*")  # told over the socket; its seat comes with GET /api/seeks/{id}
        accepter.wait_for_function(SEAT)
        creator.wait_for_function(SEAT)
        game = [
            p.evaluate("() => [window.hordesGame.state.id, window.hordesGame.state.seat]")
            for p in (creator, accepter)
        ]
        assert game[0][0] == game[1][0]
        assert (game[0][1], game[1][1]) == ("white", "black")
        assert creator.evaluate("() => window.hordesGame.state.clock.control.label") == "3+2"

        # Two seeks in the lobby, one by an account (with its provisional rating) and one anonymous.
        sign_up(carol, base, "carol")
        carol.check("#seek-form input[name=seek_rated]")
        create_seek(carol, "chess", "5+3", "random")
        seek_rows(carol, 1)
        dan.goto(base + "/")
        create_seek(dan, "hordes", "10+5", "black")
        seek_rows(dan, 2)
        viewer = accepter
        viewer.goto(base + "/")
        seek_rows(viewer, 2)
        assert "carol" in viewer.locator("#seek-list").inner_text()
        assert "1500?" in viewer.locator("#seek-list").inner_text()
        viewer.screenshot(path=str(shots / "lobby-seeks-desktop.png"))
        small = phone.new_page()
        small.goto(base + "/")
        seek_rows(small, 2)
        assert fits(small)
        small.screenshot(path=str(shots / "lobby-seeks-phone.png"))
        small.set_viewport_size({"width": 360, "height": 740})
        assert fits(small)
        # Cancelling one's own seek takes it off everyone's list.
        dan.locator("#seek-list li.seek.mine button", has_text="Cancel").click()
        seek_rows(small, 1)
        for c in [*contexts, phone]:
            settle(c)
    finally:
        for c in [*contexts, phone]:
            c.close()
    assert not problems, problems
