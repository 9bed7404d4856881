"""Issue 19 point 3: the workshop in Debian's Chromium, as a person uses it (test_browser.py's fixtures).

Start from Orda, turn its setup into Orda Mirror (both sides Horde) by typing in the editor, see the
problems marked while the line is broken and the diagram follow once it is fixed, run a small quick
balance and read its result, then press "play against the engine" and make moves. No page reports a
CSP violation (the editor's import map and styles included). Screenshots: workshop-desktop.png at
1280x800 and workshop-phone.png at 390x844, to a temporary directory or $HORDES_SCREENSHOTS.
"""

from __future__ import annotations

import os
import re
from typing import Any

import pytest

from hordes import load_variant
from hordes.web.editor import WORKSHOP_CSP, installed
from hordes.web.workshop import EXAMPLES_DIR
from tests.web.test_browser import base, browser, click, settle, shots, wait_ply, watch
from tests.web.test_browser_layout import fits, resize

__all__ = ["base", "browser", "shots"]  # fixtures used by name
# As test_browser.py does for chessgroundx: in CI (make test runs npm ci) a missing editor fails.
if not installed():
    _WHY = "CodeMirror is not installed (make frontend runs npm ci in src/hordes/web/frontend)"
    if os.environ.get("CI"):
        pytest.fail(_WHY, pytrace=False)
    pytest.skip(_WHY, allow_module_level=True)
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
MIRROR_FEN = "lhaykahl/8/pppppppp/8/8/PPPPPPPP/8/LHAYKAHL w - - 0 1"

# Where a piece of the document's text is drawn, once the editor has scrolled it into view: the left
# edge of its first character, mid-line (resolves after a frame is drawn; null: not in the document).
TEXT_AT = """async (text) => { const view = window.hordesWorkshop.view;
  const at = view.state.doc.toString().indexOf(text);
  if (at < 0) return null;
  view.dispatch({effects: view.constructor.scrollIntoView(at, {y: 'center'})});
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  const c = view.coordsAtPos(at, 1);
  return {x: c.left + 1, y: (c.top + c.bottom) / 2}; }"""


# Scroll the page to its top and the editor to the line holding `text`; resolves after a frame is drawn.
SHOW_LINE = """(text) => { window.scrollTo(0, 0); const view = window.hordesWorkshop.view;
  const at = view.state.doc.toString().indexOf(text);
  view.dispatch({effects: view.constructor.scrollIntoView(at, {y: 'center'})});
  return new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(true)))); }"""


def retype(page: Any, old: str, new: str) -> None:
    """Select `old` in the editor as a person does (click before it, shift+arrows over it) and type
    `new` in its place."""
    where = page.evaluate(TEXT_AT, old)
    assert where is not None, f"{old!r} is not in the document"
    page.mouse.click(where["x"], where["y"])
    for _ in old:
        page.keyboard.press("Shift+ArrowRight")
    page.keyboard.type(new)


# The check's verdict under the editor and the editor's own marks agree (CodeMirror applies the marks
# just after the check has answered): ok with no marker, invalid with some.
CHECKED = """([state, title]) => { const status = document.getElementById('ws-status');
  const marks = document.getElementById('ws-code').shadowRoot.querySelectorAll('.cm-lint-marker-error').length;
  return status.dataset.state === state && (state === 'ok' ? marks === 0 : marks > 0)
    && document.getElementById('ws-title').textContent.startsWith(title); }"""


def wait_status(page: Any, state: str, title: str = "") -> None:
    page.wait_for_function(CHECKED, arg=[state, title])


def test_p3_workshop_from_orda_to_orda_mirror_balance_and_play(browser: Any, base: str, shots: Any) -> None:
    context = browser.new_context(viewport=DESKTOP, device_scale_factor=1)
    problems = watch(context)
    try:
        page = context.new_page()
        response = page.goto(base + "/workshop")
        assert response.headers["content-security-policy"] == WORKSHOP_CSP
        # "New from parent": a document of its own that changes nothing yet, drawn as its parent.
        page.select_option("#ws-parent", "khans")
        page.click("#ws-new")
        wait_status(page, "ok", "My khans variant")
        assert page.inner_text("#ws-fen") == load_variant("khans").start_fen
        # Start from Orda.
        page.select_option("#ws-start", label="Orda Chess")
        page.click("#ws-load")
        wait_status(page, "ok")
        orda_board = page.inner_html("#ws-board")
        assert page.locator("#ws-pieces figure").count() >= 10  # the Horde's and the Kingdom's pieces

        # A broken line: a letter that is no piece. Marked in the gutter, underlined and listed.
        retype(page, "RNBQKBNR w KQ", "LHAYKAHLX w -")
        wait_status(page, "invalid")
        assert page.locator(".cm-gutter-lint .cm-lint-marker-error").count() == 1
        assert page.locator(".cm-lintRange-error").first.inner_text().strip().startswith("setup:")
        listed = page.inner_text("#ws-problems")
        assert "line 15, engine.setup" in listed and "'X' is not a piece" in listed
        assert page.locator(".ws-preview.stale").count() == 1
        page.hover(".cm-lintRange-error")  # the message also shows over the marked line
        page.wait_for_selector(".cm-tooltip-lint:has-text(\"'X' is not a piece\")")
        # The phone's screenshot shows the broken line with its marks (the editor scrolled to it).
        resize(page, PHONE)
        assert fits(page), "the workshop is wider than a phone"
        page.evaluate(SHOW_LINE, "setup:")
        page.screenshot(path=str(shots / "workshop-phone.png"))
        resize(page, DESKTOP)

        # Fixed: both armies are the Horde, and the diagram follows.
        retype(page, "8/8/8/PPPPPPPP/LHAYKAHLX", "8/8/PPPPPPPP/8/LHAYKAHL")
        retype(page, "title: Orda Chess", "title: Orda Mirror")
        retype(page, "slug: orda", "slug: ordamirror")
        retype(page, '[orda-chess, "Orda Chess", ordachess]', "[]")
        wait_status(page, "ok", "Orda Mirror")
        assert page.inner_text("#ws-fen") == MIRROR_FEN
        assert page.inner_html("#ws-board") != orda_board
        assert (
            page.locator(".cm-lint-marker-error").count() == 0
            and page.locator(".ws-preview.stale").count() == 0
        )

        # Quick balance, small: four games, then the split and the lengths.
        page.fill("#ws-balance-games", "4")
        page.click("#ws-balance")
        page.wait_for_selector("#ws-balance-result[data-status=done]")
        result = page.inner_text("#ws-balance-result")
        assert "4 / 4 games" in result and "Orda Mirror" in result
        split = page.eval_on_selector_all(
            "table.ws-split td", "(cells) => cells.slice(0, 3).map((c) => parseInt(c.textContent, 10))"
        )
        assert sum(split) == 4
        assert "median" in result and "shortest" in result
        page.evaluate(SHOW_LINE, "setup:")
        page.screenshot(path=str(shots / "workshop-desktop.png"))

        # Play it against the engine: saved first, then the game page under the stored name.
        page.click("#ws-play-engine")
        page.wait_for_url("**/game/*")
        page.wait_for_function(
            "() => window.hordesGame && window.hordesGame.synced && window.hordesGame.board.movable"
        )
        state = page.evaluate("window.hordesGame.state")
        assert state["start_fen"] == MIRROR_FEN
        click(page, "e3")
        click(page, "e4")
        state = wait_ply(page, 2)
        assert state["moves"][0]["uci"] == "e3e4" and state["turn"] == "white"

        # The package's own Orda Mirror, when it has one (issue 19 point 5), is a starting point too.
        example = EXAMPLES_DIR / "ordamirror.md"
        if example.is_file():
            page.goto(base + "/workshop")
            wait_status(page, "ok", "Orda Chess")
            page.select_option("#ws-start", label="Orda Mirror")
            page.click("#ws-load")
            wait_status(page, "ok", "Orda Mirror")
            setup = re.search(r'^  setup: "([^"]+)"', example.read_text("utf-8"), re.M)
            assert setup is not None and page.inner_text("#ws-fen") == setup.group(1)

        # Back in the workshop (a fresh page: Orda again), "open in analysis" saves it and opens the board.
        page.goto(base + "/workshop")
        wait_status(page, "ok", "Orda Chess")
        page.click("#ws-analysis")
        page.wait_for_url("**/analysis?variant=*")
        page.wait_for_function("() => window.hordesAnalysis && window.hordesAnalysis.board")
        assert page.evaluate("window.hordesAnalysis.board.variant.title") == "Orda Chess"
        settle(context)
    finally:
        context.close()
    assert not problems, problems
