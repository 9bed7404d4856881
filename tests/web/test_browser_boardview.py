"""Issue 14 points 8 and 10 in a real browser (Debian's Chromium): a Hordes of Change magnet-held
piece wears its marker and shows its closed directions, a capturer that changes sides is announced,
a premove is played when the turn comes (and dropped when it is no longer legal), and the sounds'
mute switch is remembered.

Screenshots (hoc-marks-desktop.png at 1280x800, hoc-marks-phone.png at 390x844) go to
$HORDES_SCREENSHOTS (docs/images to refresh the documentation's) or a temporary directory.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hordes import load_variant
from hordes.core.compiled import compiled
from tests.web.live_server import server

# test_browser's guard decides: its import skips this module, or fails it in CI, without the browser.
from tests.web.test_browser import (
    api_move,
    api_post,
    browser,
    click,
    drag,
    settle,
    shots,
    square_center,
    wait_ply,
    watch,
)

__all__ = ["browser", "shots"]  # the shared fixtures, used by name

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
# Black has turned the Rook on d4 into a magnet beside White's Rook on e4: that Rook may not go east.
HELD = "bbrkkrbb/rbbrrbbr/brb1rbrb/8/3+rR3/BRB2BRB/RBBRRBBR/BBRKKRBB w - - 0 1"


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with server(tmp_path_factory.mktemp("boardview-data")) as url:
        yield url


def seated(
    browser: Any, base: str, variant: str, fen: str = ""
) -> tuple[Any, Any, list[str], dict[str, Any]]:
    """A friend game whose White plays in a new browser page (from the seat link) and whose Black
    moves through the API: (context, page, problems, the created game with Black's token)."""
    body = {"variant": variant, "opponent": "friend", "color": "white"}
    if fen:
        body["fen"] = fen
    game = api_post(base, "/api/games", body)
    game["black"] = api_post(base, f"/api/games/{game['id']}/join", {"invite": game["invite_token"]})["token"]
    context = browser.new_context(viewport=DESKTOP)
    problems = watch(context)
    page = context.new_page()
    page.goto(game["url"])
    page.wait_for_function("() => window.hordesGame && window.hordesGame.state.seat === 'white'")
    page.wait_for_function(
        "() => window.hordesGame.synced && (window.hordesGame.board.movable || window.hordesGame.state.turn === 'black')"
    )
    return context, page, problems, game


def test_p10_a_magnet_held_piece_shows_its_marker(browser: Any, base: str, shots: Path) -> None:
    context, page, problems, _game = seated(browser, base, "hordes", HELD)
    try:
        marker = page.locator(".board-marks .mark.magnet-held")
        assert marker.count() == 1 and marker.get_attribute("data-square") == "e4"
        # the marker sits over the held piece's square
        box = marker.bounding_box()
        x, y = square_center(page, "e4")
        assert box["x"] < x < box["x"] + box["width"] and box["y"] < y < box["y"] + box["height"]
        click(page, "e4")  # selecting it shows the closed direction: an arrow and the squares lost
        closed = page.locator(".board-marks .mark.closed-square")
        assert sorted(closed.evaluate_all("els => els.map(e => e.dataset.square)")) == ["f4", "g4", "h4"]
        assert page.locator(".cg-shapes g line, .cg-shapes g path").count() >= 1
        hint = page.locator("#hint").inner_text()
        assert "magnet on d4" in hint and "f4" in hint
        page.wait_for_timeout(300)
        page.screenshot(path=str(shots / "hoc-marks-desktop.png"))
        page.set_viewport_size(PHONE)
        page.wait_for_timeout(300)
        page.locator("#board").scroll_into_view_if_needed()
        page.screenshot(path=str(shots / "hoc-marks-phone.png"))
        page.set_viewport_size(DESKTOP)
        # chessgroundx maps a click through board bounds that its ResizeObserver refreshes after the
        # resize: wait for two frames so the click lands on e6, not on the phone layout's square.
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        # the Rook (still selected) captures on e6 and becomes Black's (Andernach): the page says so
        click(page, "e6")
        wait_ply(page, 1)
        page.wait_for_function("() => document.getElementById('flash').textContent.includes('changed sides')")
        assert "Rook that captured on e6" in page.locator("#flash").inner_text()
        assert page.locator(".board-marks .mark.changed-sides[data-square=e6]").count() == 1
        settle(context)
    finally:
        context.close()
    assert not problems, problems


def test_p8_a_premove_is_played_when_the_turn_comes(browser: Any, base: str) -> None:
    context, page, problems, game = seated(browser, base, "chess")
    try:
        sounds = "() => import('/static/sounds.js').then((m) => m.played.map((p) => p.kind + (p.sounded ? '' : '-muted')))"
        assert page.evaluate(sounds) == []  # nothing sounds for the game as loaded
        # the premove squares of every piece are the core's moves on an empty board
        comp = compiled(load_variant("chess"))
        geo = comp.variant.geometry
        for letter, square in (("N", "g1"), ("B", "c1"), ("Q", "d1"), ("R", "a1")):
            kind = comp.variant.kind_of(letter)
            g = comp.gens[0][kind]
            sq = geo.parse_square(square)
            bb = g.quiet.attacks(sq, 0) | g.capture.attacks(sq, 0)
            expected = sorted(geo.square_name(s) for s in range(geo.size) if bb >> s & 1)
            role = letter.lower() + "-piece"
            dests = page.evaluate(
                f"() => window.hordesGame.board.premoves.dests({{role: '{role}', color: 'white'}}, '{square}')"
            )
            assert sorted(dests) == expected, letter
        pawn = page.evaluate(
            "() => window.hordesGame.board.premoves.dests({role: 'p-piece', color: 'white'}, 'd2')"
        )
        assert sorted(pawn) == ["c3", "d3", "d4", "e3"]  # the double step too
        click(page, "e2")
        click(page, "e4")
        wait_ply(page, 1)
        drag(page, "d2", "d4")  # Black to move: this is a premove
        page.wait_for_function("() => !!window.hordesGame.board.cg.state.premovable.current")
        assert page.evaluate("window.hordesGame.state.ply") == 1
        api_move(base, game["id"], game["black"], "e7e5")
        state = wait_ply(page, 3)  # Black's move arrived, and the premove went at once
        assert state["moves"][2]["uci"] == "d2d4"
        # a premove that is no longer legal when the turn comes is dropped
        drag(page, "d4", "e5")
        page.wait_for_function("() => !!window.hordesGame.board.cg.state.premovable.current")
        api_move(base, game["id"], game["black"], "e5d4")  # the pawn it meant to take moved away
        wait_ply(page, 4)
        page.wait_for_function("() => document.getElementById('flash').textContent.includes('dropped')")
        assert page.evaluate("window.hordesGame.state.ply") == 4
        assert page.evaluate("window.hordesGame.board.cg.state.premovable.current") is None
        # a right click cancels a premove
        click(page, "g1")
        click(page, "f3")
        wait_ply(page, 5)
        drag(page, "f1", "c4")
        page.wait_for_function("() => !!window.hordesGame.board.cg.state.premovable.current")
        page.mouse.click(*square_center(page, "h5"), button="right")
        page.wait_for_function("() => !window.hordesGame.board.cg.state.premovable.current")
        drag(page, "f1", "c4")  # and so does a click on an empty square
        page.wait_for_function("() => !!window.hordesGame.board.cg.state.premovable.current")
        click(page, "h5")
        page.wait_for_function("() => !window.hordesGame.board.cg.state.premovable.current")
        assert page.evaluate("window.hordesGame.state.ply") == 5
        played = page.evaluate(sounds)
        assert "move" in played and "capture" in played, played  # e5xd4 was a capture
        settle(context)
    finally:
        context.close()
    assert not problems, problems


def test_p8_the_mute_switch_is_remembered(browser: Any, base: str) -> None:
    context, page, problems, game = seated(browser, base, "chess")
    try:
        sounds = "() => import('/static/sounds.js').then((m) => m.played.map((p) => p.kind + (p.sounded ? '' : '-muted')))"
        assert page.locator("#mute").inner_text() == "Sound on"
        page.click("#mute")
        assert page.evaluate("localStorage.getItem('hordes-muted')") == "1"
        page.reload()
        page.wait_for_function(
            "() => window.hordesGame && window.hordesGame.synced && window.hordesGame.board.movable"
        )
        assert page.locator("#mute").inner_text() == "Sound off"
        assert page.locator("#mute").get_attribute("aria-pressed") == "true"
        click(page, "e2")
        click(page, "e4")
        wait_ply(page, 1)
        page.wait_for_function("() => import('/static/sounds.js').then((m) => m.played.length > 0)")
        assert page.evaluate(sounds) == ["move-muted"]  # asked for, and silent
        page.click("#mute")
        api_move(base, game["id"], game["black"], "e7e5")
        wait_ply(page, 2)
        page.wait_for_function("() => import('/static/sounds.js').then((m) => m.played.length > 1)")
        assert page.evaluate(sounds) == ["move-muted", "move"]
        settle(context)
    finally:
        context.close()
    assert not problems, problems


def test_p10_a_move_that_loses_by_repetition_asks_first(browser: Any, base: str) -> None:
    context, page, problems, game = seated(browser, base, "hordes", "k7/8/8/8/8/8/1B6/K7 b - - 0 1")
    try:
        tokens = [game["black"], game["token"]]
        for ply in range(7):  # both sides change shape back and forth: White's next change repeats
            api_move(base, game["id"], tokens[ply % 2], "a8a8" if ply % 2 == 0 else "a1a1")
        wait_ply(page, 7)
        page.wait_for_function("() => window.hordesGame.synced && window.hordesGame.board.movable")
        assert page.evaluate("window.hordesGame.state.repetition_losing") == ["a1a1"]
        questions: list[str] = []

        def answer(dialog: Any, accept: bool) -> None:
            questions.append(dialog.message)
            dialog.accept() if accept else dialog.dismiss()

        page.once("dialog", lambda d: answer(d, False))
        click(page, "a1")
        click(page, "a1")
        page.locator("#chooser .choice").click()
        page.wait_for_function(
            "() => window.hordesGame.synced && window.hordesGame.board.movable"
        )  # declined: still our move
        assert "loses" in questions[0] and page.evaluate("window.hordesGame.state.ply") == 7
        page.once("dialog", lambda d: answer(d, True))
        click(page, "b2")  # start a fresh selection, then change shape again
        click(page, "a1")
        click(page, "a1")
        page.locator("#chooser .choice").click()
        state = wait_ply(page, 8)
        assert (
            len(questions) == 2 and state["termination"] == "repetition loss" and state["winner"] == "black"
        )
        settle(context)
    finally:
        context.close()
    assert not problems, problems
