"""Issue 14 point 12 in a real browser (Debian's Chromium): the analysis board's move tree keeps the
old line when another move starts a variation, the evaluation bar and three engine lines show, and a
finished game's judged moves are marked in the move list and on the graph.

Screenshots (analysis-desktop.png at 1280x800, analysis-phone.png at 390x844) go to
$HORDES_SCREENSHOTS (docs/images to refresh the documentation's) or a temporary directory.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import WINS
from tests.web.live_server import server

# test_browser's guard decides: its import skips this module, or fails it in CI, without the browser.
from tests.web.test_browser import api_post, browser, click, settle, shots, watch

__all__ = ["browser", "shots"]  # the shared fixtures, used by name

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
STILL = "() => !window.hordesAnalysis.board.cg.state.animation.current"  # no piece moving (for a picture)


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with server(tmp_path_factory.mktemp("analysis-data")) as url:
        yield url


def mainline(page: Any) -> list[str]:
    sans: list[str] = page.evaluate("() => window.hordesAnalysis.line.moves.map((m) => m.san)")
    return sans


def current(page: Any) -> str | None:
    san: str | None = page.evaluate("() => window.hordesAnalysis.current.san")
    return san


def play(page: Any, frm: str, to: str, count: int) -> None:
    """Play a move on the board and wait until the tree has `count` moves in all."""
    click(page, frm)
    click(page, to)
    page.wait_for_function(f"() => window.hordesAnalysis.tree.nodes.size === {count + 1}")


def test_p12_a_variation_keeps_the_old_line_with_bar_and_three_lines(
    browser: Any, base: str, shots: Path
) -> None:
    context = browser.new_context(viewport=DESKTOP)
    problems = watch(context)
    try:
        page = context.new_page()
        page.goto(base + "/analysis?variant=chess")
        page.wait_for_function("() => window.hordesAnalysis && window.hordesAnalysis.board.view")
        play(page, "e2", "e4", 1)
        play(page, "e7", "e5", 2)
        play(page, "g1", "f3", 3)
        assert mainline(page) == ["e4", "e5", "Nf3"]
        page.click("[data-nav=prev]")
        page.click("[data-nav=prev]")
        page.wait_for_function("() => window.hordesAnalysis.current.san === 'e4'")
        play(page, "c7", "c5", 4)  # another answer to e4: a variation, the old line stays
        assert mainline(page) == ["e4", "e5", "Nf3"] and current(page) == "c5"
        variation = page.locator("#moves li.interrupt .line")
        assert variation.count() == 1 and "1… c5" in variation.inner_text()
        assert page.locator("#moves button.move.current").inner_text() == "1… c5"
        # the old line is still there to click
        page.click("#moves button.move:text-is('Nf3')")
        page.wait_for_function("() => window.hordesAnalysis.current.san === 'Nf3'")
        # the evaluation bar and the engine's three lines, for this position
        page.wait_for_function("() => document.querySelectorAll('#engine-lines li.pv-line').length === 3")
        page.wait_for_function("() => document.getElementById('eval-text').textContent !== ''")
        assert "unknown" not in page.get_attribute("#eval-bar", "class")
        height = page.evaluate("() => document.getElementById('eval-fill').style.height")
        assert height.endswith("%") and 0 < float(height[:-1]) < 100
        # an engine line clicked is played into the tree (its first two moves here)
        before = page.evaluate("() => window.hordesAnalysis.tree.nodes.size")
        page.locator("#engine-lines li.pv-line").nth(1).locator("button.pv-move").nth(1).click()
        page.wait_for_function(f"() => window.hordesAnalysis.tree.nodes.size >= {before + 1}")
        assert page.evaluate("() => window.hordesAnalysis.current.ply") == 5
        # back to the variation: promote it, then delete it again
        page.click("#moves button.move:text-is('1… c5')")
        page.wait_for_function("() => window.hordesAnalysis.current.san === 'c5'")
        page.wait_for_function("() => document.querySelectorAll('#engine-lines li.pv-line').length === 3")
        page.click("#graph-run")
        page.wait_for_selector("#eval-graph svg")
        page.evaluate("() => window.scrollTo(0, 0)")
        page.wait_for_function(STILL)
        page.screenshot(path=str(shots / "analysis-desktop.png"))
        page.click("#tree-promote")
        page.wait_for_function(
            "() => window.hordesAnalysis.line.moves.map((m) => m.san).join(' ') === 'e4 c5'"
        )
        page.click("#tree-delete")
        # (the engine's line played from Nf3 continues the main line)
        page.wait_for_function("() => window.hordesAnalysis.line.moves.length === 5")
        assert mainline(page)[:3] == ["e4", "e5", "Nf3"] and current(page) == "e4"
        assert page.locator("#moves li.interrupt").count() == 0
        # PGN export keeps the variations the board holds
        play(page, "d7", "d5", page.evaluate("() => window.hordesAnalysis.tree.nodes.size"))
        page.click("#pgn-export")
        page.wait_for_function("() => document.getElementById('pgn').value.includes('(1... d5)')")
        settle(context)
    finally:
        context.close()
    assert not problems, problems


def test_p12_phone_layout_and_a_finished_games_judged_moves(browser: Any, base: str, shots: Path) -> None:
    fen = WINS["chess"][0]  # Black can mate with Qh4 and plays a6 instead: a judged move
    game = api_post(base, "/api/games", {"variant": "chess", "opponent": "friend", "fen": fen})
    joined = api_post(base, f"/api/games/{game['id']}/join", {"invite": game["invite_token"]})
    api_post(base, f"/api/games/{game['id']}/moves", {"uci": "a7a6", "token": joined["token"]})
    api_post(base, f"/api/games/{game['id']}/resign", {"token": game["token"]})
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    problems = watch(context)
    try:
        page = context.new_page()
        page.goto(f"{base}/analysis?game={game['id']}")
        page.wait_for_selector("#moves button.move.judged")
        assert page.locator("#moves button.move.judged .glyph").inner_text() in ("?!", "?", "??")
        page.wait_for_selector("#eval-graph circle.eval-mark")
        # a variation from the start and the engine's lines, then the picture
        page.click("[data-nav=first]")
        page.wait_for_function("() => window.hordesAnalysis.current.ply === 0")
        page.wait_for_function("() => document.querySelectorAll('#engine-lines li.pv-line').length === 3")
        page.locator("#engine-lines li.pv-line").first.locator("button.pv-move").first.click()  # Qh4#
        page.wait_for_selector("#moves li.interrupt .line")
        page.click("[data-nav=first]")  # the start's lines are kept: no new search
        page.wait_for_function("() => document.querySelectorAll('#engine-lines li.pv-line').length === 3")
        width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], width
        page.wait_for_function(STILL)
        page.screenshot(path=str(shots / "analysis-phone.png"), full_page=True)
        settle(context)
    finally:
        context.close()
    assert not problems, problems
