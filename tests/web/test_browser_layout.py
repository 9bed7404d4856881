"""Issue 14 points 9 and 13 in a real browser (Debian's Chromium, as in test_browser.py): every page
fits a phone's width, the rules pages' diagrams leave no blank under them, the campmate shading
survives a resize, and check is marked on reviewed positions and on the final mate.

The phone screenshots (390x844: phone-lobby.png, phone-rules.png, phone-games.png, phone-game.png) go
to a temporary directory, or to $HORDES_SCREENSHOTS (docs/images) to refresh the documentation's.
"""

from __future__ import annotations

from typing import Any

from hordes import builtin_variants
from tests.web.test_browser import (  # the module's fixtures and helpers (no tests are imported)
    api_move,
    api_post,
    base,
    browser,
    settle,
    shots,
    wait_ply,
    watch,
)
from tests.web.test_browser_accounts import api, sign_up

__all__ = ["base", "browser", "shots"]  # fixtures used by name
PHONES = ({"width": 390, "height": 844}, {"width": 360, "height": 740})
LONG_NAME = "Longest_name-of-20ch"  # usernames are at most 20 characters


def friend_game(base: str, variant: str, moves: list[str]) -> str:
    """A game between two anonymous seats, played through the API; returns its id."""
    game = api_post(base, "/api/games", {"variant": variant, "opponent": "friend"})
    black = api_post(base, f"/api/games/{game['id']}/join", {"invite": game["invite_token"]})
    for i, uci in enumerate(moves):
        api_move(base, game["id"], black["token"] if i % 2 else game["token"], uci)
    return str(game["id"])


def fits(page: Any) -> bool:
    result: bool = page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    return result


# Resolves once a resize event has reached the page's own handlers (added before this one) and a frame
# has been drawn after it (chessgroundx's ResizeObserver runs before that frame's paint).
ARM_RESIZE = """() => { window.resized = new Promise((done) => addEventListener('resize',
  () => requestAnimationFrame(() => requestAnimationFrame(() => done(true))), { once: true })); }"""


def resize(page: Any, size: dict[str, int]) -> None:
    """Change the viewport and wait until the page has handled it."""
    if page.viewport_size == size:
        return
    page.evaluate(ARM_RESIZE)
    page.set_viewport_size(size)
    page.evaluate("() => window.resized")


def wait_check(page: Any, keys: list[str]) -> None:
    """Until the board marks exactly these squares as in check."""
    page.wait_for_function(
        "(keys) => JSON.stringify([...document.querySelectorAll('#board cg-board square.check')]"
        ".map((s) => s.cgKey).sort()) === JSON.stringify(keys)",
        arg=sorted(keys),
        timeout=10_000,
    )


def test_p9_check_is_marked_on_reviewed_plies_and_on_the_final_mate(browser: Any, base: str) -> None:
    # 1. f3 e5 2. Kf2 Qh4+ (check at ply 4) 3. Ke3 Qd4# (mate at ply 6)
    game_id = friend_game(base, "chess", ["f2f3", "e7e5", "e1f2", "d8h4", "f2e3", "h4d4"])
    context = browser.new_context(viewport=PHONES[0])
    problems = watch(context)
    try:
        page = context.new_page()
        page.goto(f"{base}/game/{game_id}")
        assert wait_ply(page, 6)["status"] == "over"
        wait_check(page, ["e3"])  # the final mate
        page.click("#moves .move[data-ply='4']")
        wait_check(page, ["f2"])  # an earlier check, reviewed
        page.click("#moves .move[data-ply='3']")
        wait_check(page, [])
        page.click("[data-nav=last]")
        wait_check(page, ["e3"])
        # the analysis board of the same game
        page.goto(f"{base}/analysis?game={game_id}")
        page.wait_for_function("() => window.hordesAnalysis && window.hordesAnalysis.line.moves.length === 6")
        wait_check(page, ["e3"])
        page.click("#moves .move[data-ply='4']")
        wait_check(page, ["f2"])
        settle(context)
    finally:
        context.close()
    assert not problems, problems


def test_p13_phone_pages_fit_the_screen(browser: Any, base: str, shots: Any) -> None:
    context = browser.new_context(viewport=PHONES[0], device_scale_factor=1)
    problems = watch(context)
    try:
        page = context.new_page()
        page.goto(base + "/signup")
        assert fits(page)
        sign_up(page, base, LONG_NAME)  # a long name in the recent games' rows and the header
        own = api(page, "/api/games", {"variant": "orda", "opponent": "friend"})
        black = api_post(base, f"/api/games/{own['id']}/join", {"invite": own["invite_token"]})
        api(page, f"/api/games/{own['id']}/moves", {"uci": "e2e4"})  # White: the account's seat cookie
        api_move(base, own["id"], black["token"], "e6e5")
        api(page, f"/api/games/{own['id']}/moves", {"uci": "d2d4"})
        for variant in ("hordes", "khans", "andernach"):
            friend_game(base, variant, [])
        board_pages = [f"/game/{own['id']}", f"/analysis?game={own['id']}"]
        pages = ["/", "/games", "/variants", f"/@/{LONG_NAME}", "/login", "/api/docs"]
        pages += [f"/variants/{v.slug}" for v in builtin_variants()]
        for url in board_pages + pages:
            page.set_viewport_size(PHONES[0])
            page.goto(base + url)
            page.wait_for_load_state("load")
            if url in board_pages:
                page.wait_for_function("() => document.querySelectorAll('cg-board piece').length > 0")
            for size in PHONES:
                resize(page, size)
                width = page.evaluate("() => document.documentElement.scrollWidth")
                assert fits(page), f"{url} is {width} px wide at {size['width']} px"
        page.set_viewport_size(PHONES[0])
        for name, url, full in (
            ("phone-lobby", "/", True),
            ("phone-games", "/games", True),
            ("phone-game", f"/game/{own['id']}", False),
        ):
            page.goto(base + url)
            page.wait_for_load_state("load")
            if not full:
                page.wait_for_function(
                    "() => document.querySelectorAll('#board .campmate-rank').length === 2"
                )
            page.screenshot(path=str(shots / f"{name}.png"), full_page=full)
        page.goto(base + "/variants/orda")
        clip = {"x": 0, "y": 0, "width": 390, "height": 1400}  # the facts, the start diagram, the first table
        page.screenshot(path=str(shots / "phone-rules.png"), full_page=True, clip=clip)
        settle(context)
    finally:
        context.close()
    assert not problems, problems


# The figure's height beyond its picture and caption (the blank under a start diagram, 0 when none).
BLANK_UNDER_DIAGRAM = """() => [...document.querySelectorAll('article figure.board')].map((f) => {
  const parts = [...f.children].reduce((h, c) => h + c.getBoundingClientRect().height, 0);
  return f.getBoundingClientRect().height - parts;
})"""


def test_p13_no_blank_under_the_rules_diagrams(browser: Any, base: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    problems = watch(context)
    try:
        page = context.new_page()
        for v in builtin_variants():
            page.goto(f"{base}/variants/{v.slug}")
            page.wait_for_load_state("load")
            for size in ({"width": 1280, "height": 800}, PHONES[1]):
                resize(page, size)
                blanks = page.evaluate(BLANK_UNDER_DIAGRAM)
                assert blanks and max(blanks) < 8, (v.slug, size, blanks)  # a few px: the SVG's baseline
        settle(context)
    finally:
        context.close()
    assert not problems, problems


# The campmate bands of the board, as fractions of the board: (top, height) each.
BANDS = """() => { const b = document.querySelector('#board cg-board').getBoundingClientRect();
  return [...document.querySelectorAll('#board .campmate-rank')].map((n) => {
    const r = n.getBoundingClientRect();
    return [Math.round(8 * (r.top - b.top) / b.height), Math.round(8 * r.height / b.height), Math.round(b.width)];
  }).sort(); }"""


def test_p13_the_campmate_shading_survives_a_resize(browser: Any, base: str) -> None:
    game_id = friend_game(base, "orda", [])
    context = browser.new_context(viewport=PHONES[0])
    problems = watch(context)
    try:
        page = context.new_page()
        page.goto(f"{base}/game/{game_id}")
        page.wait_for_function("() => document.querySelectorAll('#board .campmate-rank').length === 2")
        before = page.evaluate(BANDS)
        assert [band[:2] for band in before] == [[0, 1], [7, 1]]  # ranks 8 and 1, one rank high each
        for size in ({"width": 1280, "height": 800}, PHONES[1]):
            resize(page, size)
            after = page.evaluate(BANDS)
            assert [band[:2] for band in after] == [[0, 1], [7, 1]], (size, after)
            assert after[0][2] != before[0][2]  # the board did change size
            before = after
        settle(context)
    finally:
        context.close()
    assert not problems, problems
