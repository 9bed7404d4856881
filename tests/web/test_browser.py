"""The web app in a real browser: Debian's Chromium driven by Playwright (never a downloaded browser).

One server (a `hordes serve` subprocess) and one browser serve the whole module. Screenshots go to a
temporary directory, or to $HORDES_SCREENSHOTS (e.g. docs/images) to refresh the documentation's.
"""

from __future__ import annotations

import json
import os
import shutil
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hordes import builtin_variants
from hordes.web.routes import CHESSGROUNDX_DIR
from hordes.web.security import CSP
from tests.web.live_server import server

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
VIEWPORT = {"width": 1280, "height": 820}

# Outside CI a machine without the browser or the board component skips these tests; in CI (which
# installs both through `make test`) their absence is a failure, so a skip can never pass for a check.
_MISSING = (
    "Debian's chromium is not installed (make test installs it)"
    if not shutil.which(CHROMIUM)
    else "chessgroundx is not installed (make test runs npm ci)"
    if not (CHESSGROUNDX_DIR / "chessground.js").exists()
    else None
)
if _MISSING and os.environ.get("CI"):
    pytest.fail(_MISSING, pytrace=False)
if _MISSING:
    pytest.skip(_MISSING, allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with server(tmp_path_factory.mktemp("web-data")) as url:
        yield url


# Every wait in the browser tests is for a state; this bound is only the safety net that ends a
# wait that will never be met. Playwright's own 30 s is too short for a search-backed state on a
# loaded 2-core machine (an analysis test once waited longer for its three engine lines).
WAIT_LIMIT_MS = 90_000


class _Browser:
    """The launched browser, whose new contexts wait up to WAIT_LIMIT_MS."""

    def __init__(self, browser: Any) -> None:
        self._browser = browser

    def new_context(self, **options: Any) -> Any:
        context = self._browser.new_context(**options)
        context.set_default_timeout(WAIT_LIMIT_MS)
        return context

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield _Browser(b)
        b.close()


# Every page of a watched context reports Content-Security-Policy violations to the test (the init
# script runs before the page's own and, as Playwright injects it, is not itself subject to the CSP).
REPORT_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', (e) => {
  const text = `${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} in ${e.sourceFile}:${e.lineNumber}`;
  window.__cspViolations.push(text);
  window.__hordesViolation(text);
});
"""


# Conditions for wait_for_function are written as functions ("() => ..."): Playwright evaluates a
# bare expression with eval() when it polls again, which the page's CSP (no 'unsafe-eval') refuses.


def watch(context: Any) -> list[str]:
    """The problems the context's pages report: uncaught errors and CSP violations, from the event
    and from the console (Chromium logs each refusal there too)."""
    problems: list[str] = []
    context.expose_binding("__hordesViolation", lambda source, text: problems.append(f"CSP: {text}"))
    context.add_init_script(REPORT_VIOLATIONS)

    def console(msg: Any) -> None:
        if "Content Security Policy" in msg.text or "Content-Security-Policy" in msg.text:
            problems.append(f"console: {msg.text}")

    context.on("console", console)
    context.on("weberror", lambda e: problems.append(f"error: {e.error.stack or e.error}"))
    return problems


def watched_context(browser: Any) -> tuple[Any, list[str]]:
    context = browser.new_context(viewport=VIEWPORT)
    return context, watch(context)


def settle(context: Any) -> None:
    """Let the pages' last reports arrive (a round trip through each page)."""
    for pg in context.pages:
        if not pg.is_closed():
            pg.evaluate("() => new Promise((r) => setTimeout(r, 0))")


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context, problems = watched_context(browser)
    pg = context.new_page()
    yield pg
    settle(context)
    context.close()
    assert not problems, problems


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = os.environ.get("HORDES_SCREENSHOTS")
    path = Path(target) if target else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


def square_center(page: Any, square: str) -> tuple[float, float]:
    """The centre of a square on the page's board, whichever way the board is turned."""
    box = page.locator("#board").bounding_box()
    geo = page.evaluate(
        "() => { const b = (window.hordesGame || window.hordesAnalysis).board;"
        " return {o: b.cg.state.orientation, cols: b.variant.cols, rows: b.variant.rows}; }"
    )
    file, rank = ord(square[0]) - 97, int(square[1:]) - 1
    size = box["width"] / geo["cols"]
    col = file if geo["o"] == "white" else geo["cols"] - 1 - file
    row = geo["rows"] - 1 - rank if geo["o"] == "white" else rank
    return box["x"] + (col + 0.5) * size, box["y"] + (row + 0.5) * size


def click(page: Any, square: str) -> None:
    page.mouse.click(*square_center(page, square))
    page.wait_for_timeout(60)


def drag(page: Any, frm: str, to: str) -> None:
    page.mouse.move(*square_center(page, frm))
    page.mouse.down()
    page.mouse.move(*square_center(page, to), steps=8)
    page.mouse.up()


def wait_ply(page: Any, ply: int, timeout: float = 20_000) -> dict[str, Any]:
    page.wait_for_function(
        f"() => window.hordesGame && window.hordesGame.state.ply >= {ply}", timeout=timeout
    )
    state: dict[str, Any] = page.evaluate("window.hordesGame.state")
    return state


def start_game(
    page: Any, base: str, variant: str, opponent: str, fen: str = "", color: str = "white"
) -> None:
    page.goto(base + "/")
    page.click(f"label.variant-choice:has(input[value={variant}])")  # the card is the radio button
    page.check(f"input[name=color][value={color}]")
    page.check(f"input[name=opponent][value={opponent}]")
    page.select_option("select[name=level]", "1")
    if fen:
        page.click("details summary")
        page.fill("input[name=fen]", fen)
    page.click("button.primary")
    page.wait_for_url("**/game/*")
    if opponent == "friend":  # nobody moves until the friend has joined
        page.wait_for_function("() => window.hordesGame && window.hordesGame.state.status === 'waiting'")
    else:
        page.wait_for_function(
            "() => window.hordesGame && window.hordesGame.synced && window.hordesGame.board.movable"
        )


def friend_joins(page: Any, base: str) -> str:
    """The friend claims the invitation shown on the creator's page (through the API, as a script
    would); returns the friend's seat token once the creator's page may move."""
    game_id = page.evaluate("window.hordesGame.state.id")
    invite = page.locator("#invite-link").input_value().split("invite=")[1]
    req = urllib.request.Request(
        f"{base}/api/games/{game_id}/join",
        data=json.dumps({"invite": invite}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        token: str = json.loads(r.read())["token"]
    page.wait_for_function("() => window.hordesGame.state.status === 'playing'")
    assert page.locator("#invite").is_hidden()  # the invitation disappears once it is claimed
    return token


def wait_movable(page: Any) -> None:
    """Until the page is in step with the server and its player may move: a click before that
    races the board's next update (a selection made on the old position, then replaced)."""
    page.wait_for_function("() => window.hordesGame.synced && window.hordesGame.board.movable")


def api_move(base: str, game_id: str, token: str, uci: str) -> None:
    req = urllib.request.Request(
        f"{base}/api/games/{game_id}/moves",
        data=json.dumps({"uci": uci, "token": token}).encode(),
        headers={"Content-Type": "application/json"},
    )
    urllib.request.urlopen(req, timeout=10).read()


def test_lobby_and_an_orda_game_against_the_engine(page: Any, base: str, shots: Path) -> None:
    page.goto(base + "/")
    page.click("label.variant-choice:has(input[value=orda])")
    assert page.is_checked("input[name=variant][value=orda]")
    page.screenshot(path=str(shots / "lobby.png"), full_page=True)
    start_game(page, base, "orda", "engine")
    click(page, "e2")
    click(page, "e4")
    state = wait_ply(page, 2)
    assert state["moves"][0]["san"] == "e4" and state["turn"] == "white"
    drag(page, "d2", "d4")  # dragging works as well as clicking
    state = wait_ply(page, 4)
    assert state["moves"][2]["uci"] == "d2d4"
    assert page.locator("#moves .move").count() == 4
    assert "Your move" in page.locator("#status").inner_text()
    page.wait_for_timeout(400)  # let the last move's animation finish
    page.screenshot(path=str(shots / "orda-game.png"))


def test_orda_promotion_to_a_kheshig(page: Any, base: str) -> None:
    start_game(page, base, "orda", "engine", fen="4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    click(page, "a7")
    click(page, "a8")
    chooser = page.locator("#chooser .choice")
    chooser.first.wait_for()
    assert sorted(chooser.evaluate_all("els => els.map(e => e.dataset.letter)")) == ["H", "Q"]
    page.locator("#chooser .choice[data-letter=H]").click()
    state = wait_ply(page, 2)  # our promotion and the engine's answer
    assert state["moves"][0]["san"].startswith("a8=H")
    kheshig = page.locator("cg-board piece.h-piece.white")
    kheshig.first.wait_for(timeout=10_000)  # the board redraws after the engine's answer animates
    assert kheshig.count() == 1


def test_hordes_transform_and_pull(page: Any, base: str, shots: Path) -> None:
    start_game(page, base, "hordes", "friend")
    game_id = page.evaluate("window.hordesGame.state.id")
    black = friend_joins(page, base)
    wait_movable(page)
    # change the Rook on e3 into a Rook Magnet: click it, click it again, confirm in the chooser
    click(page, "e3")
    click(page, "e3")
    page.locator("#chooser .choice[data-letter='+R']").click()
    state = wait_ply(page, 1)
    assert state["moves"][0]["uci"] == "e3e3"
    assert page.locator("cg-board piece.pr-piece.white").count() == 1
    api_move(base, game_id, black, "a8a8")  # Black changes a Bishop into a magnet, far away
    wait_ply(page, 2)
    wait_movable(page)
    # select the magnet: the black Rook on e6 is circled; clicking it pulls it to e4
    click(page, "e3")
    assert "pull" in page.locator("#hint").inner_text()
    page.wait_for_timeout(300)
    page.screenshot(path=str(shots / "hordes-game.png"))
    click(page, "e6")
    state = wait_ply(page, 3)
    assert state["moves"][2]["uci"] == "e6e4"
    assert state["fen"].split()[0].split("/")[4] == "4r3"  # rank 4: the pulled black Rook


def test_hordes_a_slow_click_on_a_pulled_piece_pulls_it_without_a_page_error(page: Any, base: str) -> None:
    """A person's click holds the button for a while: the pull is made on the press (the magnet was
    selected, the circled piece is pressed), and the board must not go on dragging the piece that
    has just left its square (chessgroundx would throw on the next animation frame). The `page`
    fixture fails the test on any uncaught page error."""
    start_game(page, base, "hordes", "friend", fen="7k/R7/8/8/4b3/8/8/K3+R3 w - - 0 1")
    friend_joins(page, base)
    wait_movable(page)
    click(page, "e1")  # the Rook Magnet: the Bishop on e4 is circled
    page.mouse.move(*square_center(page, "e4"))
    page.mouse.down()
    # the pull is made while the button is still down, and frames are drawn after it
    page.wait_for_function("() => window.hordesGame.state.ply >= 1")
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    page.mouse.up()
    state = wait_ply(page, 1)
    assert state["moves"][0]["uci"] == "e4e2"


def test_hordes_a_piece_held_for_a_premove_and_pulled_away_by_the_opponent_ends_the_drag(
    page: Any, base: str
) -> None:
    """White presses on its Bishop to premove it while Black is to move, and Black's magnet pulls
    that Bishop away: the new position ends the drag instead of leaving chessgroundx dragging a
    piece whose square is empty (it threw on the next frame)."""
    start_game(page, base, "hordes", "friend", fen="k3+r3/8/8/4B3/8/8/8/K7 w - - 0 1")
    game_id = page.evaluate("window.hordesGame.state.id")
    black = friend_joins(page, base)
    wait_movable(page)
    click(page, "a1")
    click(page, "a2")
    wait_ply(page, 1)
    page.mouse.move(*square_center(page, "e5"))
    page.mouse.down()
    api_move(base, game_id, black, "e5e7")  # the Rook Magnet on e8 pulls the Bishop to e7
    wait_ply(page, 2)
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    page.mouse.up()
    assert page.evaluate("window.hordesGame.board.cg.state.draggable.current") is None
    assert page.evaluate("window.hordesGame.state.fen").split()[0].split("/")[1] == "4B3"


def test_hordes_drag_an_enemy_piece_to_its_pull_square(page: Any, base: str) -> None:
    start_game(page, base, "hordes", "friend", fen="7k/R7/8/8/4b3/8/8/K3+R3 w - - 0 1")
    friend_joins(page, base)
    wait_movable(page)
    drag(page, "e4", "e2")
    state = wait_ply(page, 1)
    assert state["moves"][0]["uci"] == "e4e2"


def test_a_second_browser_sees_the_first_ones_moves(browser: Any, base: str) -> None:
    first, problems = watched_context(browser)
    second = browser.new_context(viewport=VIEWPORT)
    problems += watch(second)
    try:
        a = first.new_page()
        start_game(a, base, "khans", "friend")
        invite = a.locator("#invite-link").input_value()
        assert "Waiting for your opponent" in a.locator("#status").inner_text()
        b = second.new_page()
        b.goto(invite)
        b.click("#join-game")  # the first visitor of the invitation claims the seat
        b.wait_for_function("() => window.hordesGame && window.hordesGame.state.seat === 'black'")
        assert "invite=" not in b.url
        a.wait_for_function(
            "() => window.hordesGame.state.status === 'playing' && window.hordesGame.synced && window.hordesGame.board.movable"
        )
        assert a.locator("#invite").is_hidden()
        # a later visitor of the same invitation watches, and is told that the seat is taken
        late = browser.new_context(viewport=VIEWPORT)
        problems += watch(late)
        c = late.new_page()
        c.goto(invite)
        c.wait_for_function("() => window.hordesGame && window.hordesGame.state.status === 'playing'")
        assert "seat of this invitation has been taken" in c.locator("#link-notice").inner_text()
        assert c.locator("#join-game").count() == 0 and c.evaluate("window.hordesGame.state.seat") is None
        late.close()
        click(a, "e2")
        click(a, "e4")
        assert wait_ply(b, 1)["moves"][0]["san"] == "e4"
        b.wait_for_function("() => window.hordesGame.synced && window.hordesGame.board.movable")
        click(b, "e7")  # a Scout leaps forward (orientation: Black at the bottom)
        click(b, "g6")
        assert wait_ply(a, 2)["moves"][1]["uci"] == "e7g6"
        # a spectator in a third context sees the game but cannot move
        watcher = browser.new_context(viewport=VIEWPORT)
        w = watcher.new_page()
        w.goto(base + "/game/" + a.evaluate("window.hordesGame.state.id"))
        assert wait_ply(w, 2)["seat"] is None
        assert w.evaluate("window.hordesGame.board.movable") is False
        watcher.close()
        settle(first)
        settle(second)
    finally:
        first.close()
        second.close()
    assert not problems, problems


def test_analysis_board(page: Any, base: str, shots: Path) -> None:
    page.goto(base + "/analysis?variant=orda")
    page.wait_for_function("() => window.hordesAnalysis && window.hordesAnalysis.board.view")
    click(page, "e2")
    click(page, "e4")
    page.wait_for_function("() => window.hordesAnalysis.line.moves.length === 1")
    page.wait_for_function(
        "() => !['…', 'off', ''].includes(document.getElementById('engine-score').textContent)"
    )
    assert page.locator(".cg-shapes g path, .cg-shapes g line").count() >= 1  # the best move's arrow
    page.click("#graph-run")
    page.wait_for_selector("#eval-graph svg")
    page.click("#pgn-export")
    page.wait_for_function("() => document.getElementById('pgn').value.includes('1. e4')")
    page.screenshot(path=str(shots / "analysis.png"))


def api_post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    data: dict[str, Any] = json.loads(urllib.request.urlopen(req, timeout=10).read())
    return data


def test_p6_the_browser_reports_csp_violations(browser: Any, base: str) -> None:
    """The watch that every browser test relies on does see a violation (and the policy is enforced)."""
    context, problems = watched_context(browser)
    try:
        pg = context.new_page()
        assert pg.goto(base + "/").headers["content-security-policy"] == CSP
        pg.evaluate("document.body.insertAdjacentHTML('beforeend', '<p style=\"color: red\">styled</p>')")
        pg.evaluate(
            "() => { const s = document.createElement('script'); s.textContent = 'window.ran = 1';"
            " document.body.append(s); }"
        )
        pg.wait_for_function("() => window.__cspViolations.length >= 2")
        assert pg.evaluate("window.ran") is None  # the inline script did not run
        settle(context)
        assert any("style-src" in p for p in problems) and any("script-src" in p for p in problems), problems
    finally:
        context.close()


def test_p6_every_page_kind_keeps_to_the_csp(page: Any, base: str) -> None:
    game = api_post(base, "/api/games", {"variant": "hordes", "opponent": "friend"})
    api_post(base, f"/api/games/{game['id']}/join", {"invite": game["invite_token"]})
    boards = [f"/game/{game['id']}", "/analysis?variant=orda", f"/analysis?game={game['id']}"]
    others = ["/", "/games", "/variants", "/api/docs", "/nope"]
    others += [f"/variants/{v.slug}" for v in builtin_variants()]
    for url in boards + others:
        response = page.goto(base + url)
        assert response.headers["content-security-policy"] == CSP, url
        assert response.headers["x-content-type-options"] == "nosniff", url
        page.wait_for_load_state("load")
        if url in boards:  # the pieces are drawn with this origin's pictures
            page.wait_for_function("() => document.querySelectorAll('cg-board piece').length > 0")
            picture = page.evaluate(
                "getComputedStyle(document.querySelector('cg-board piece')).backgroundImage"
            )
            assert "/pieces/" in picture, picture
    page.goto(base + f"/game/{game['id']}")  # the live game's websocket is allowed (connect-src 'self')
    page.wait_for_function("() => window.hordesGame")
    api_move(base, game["id"], game["token"], "e3e3")
    wait_ply(page, 1)
