"""Issue 19 point 3: the workshop's preview and quick balance endpoints (workshop.py, balance.py).

Every refusal is a 4xx JSON error that names what is wrong (a document's problems with their key
paths and lines) and stores nothing; quick balance plays real games on a real engine worker.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from hordes import load_variant
from hordes.variants import REGISTRY
from hordes.web import balance, db, editor, workshop
from hordes.web.app import create_app
from hordes.web.ratelimit import RateLimiter, Rule
from hordes.web.security import CSP
from hordes.web.variant_views import CHECK_UNIT

ORDA = (Path(REGISTRY.directory) / "orda.md").read_text("utf-8")
ORDA_SETUP = 'setup: "lhaykahl/8/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1"'
MIRROR_FEN = "lhaykahl/8/pppppppp/8/8/PPPPPPPP/8/LHAYKAHL w - - 0 1"
ORDA_MIRROR = ORDA.replace(ORDA_SETUP, f'setup: "{MIRROR_FEN}"')
WAIT_LIMIT = 120.0  # seconds: only the safety net of a wait for a state


def line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


def listed(client: TestClient) -> tuple[Any, int]:
    """What the server lists, and how many documents it stores (public or not): nothing here may
    change either."""
    app: Any = client.app
    with app.state.db.connect() as conn:
        count = conn.execute(sa.select(sa.func.count()).select_from(db.variant_documents)).scalar_one()
    return client.get("/api/variants").json(), count


def problems(response: Any) -> list[dict[str, Any]]:
    assert response.status_code == 422, response.text
    error = response.json()
    assert error["error"] == "invalid_variant" and error["message"]
    found: list[dict[str, Any]] = error["problems"]
    return found


def test_p3_preview_draws_the_document(client: TestClient) -> None:
    r = client.post("/api/workshop/preview", json={"document": ORDA_MIRROR})
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["ok"] and data["name"] == "orda" and data["fen"] == MIRROR_FEN
    assert (data["width"], data["height"]) == (8, 8)
    assert (
        data["board"].startswith("<svg")
        and data["board"] != client.post("/api/workshop/preview", json={"document": ORDA}).json()["board"]
    )  # the picture follows the setup
    orda = load_variant("orda")
    assert [p["letter"] for p in data["pieces"]] == [p.letter for p in orda.pieces]
    assert all(p["diagram"].startswith("<svg") and p["betza"] for p in data["pieces"])
    assert data["rules"].startswith('<article class="variant"') and "Lancer" in data["rules"]


def test_p3_preview_refuses_each_broken_line_and_stores_nothing(client: TestClient) -> None:
    before = listed(client)
    bad_fen = ORDA.replace(ORDA_SETUP, 'setup: "lhaykahl/8/pppppppp/8/8/PPPPPPPP/8/LHAYKAHLX w - - 0 1"')
    found = problems(client.post("/api/workshop/preview", json={"document": bad_fen}))
    assert found[0]["path"] == "engine.setup" and found[0]["line"] == line_of(bad_fen, "setup:")
    assert "'X' is not a piece" in found[0]["message"]

    two = ORDA.replace("betza: FfW", "betza: Fz!W").replace(
        "players: [white, black]", "players: [white, black]\n  colour: red"
    )
    found = problems(client.post("/api/workshop/preview", json={"document": two}))
    paths = {p["path"]: p["line"] for p in found}
    assert paths["engine.pieces.Y.betza"] == line_of(two, "betza: Fz!W")
    assert any("colour" in p["path"] or "colour" in p["message"] for p in found), found

    found = problems(client.post("/api/workshop/preview", json={"document": "---\ntitle: [\n---\n"}))
    assert found[0]["line"] and "YAML" in found[0]["message"]

    for parent in ("/etc/hostname.md", "../orda.md"):
        doc = f"---\ntitle: T\nslug: t\nparent: {parent}\n---\n"
        found = problems(client.post("/api/workshop/preview", json={"document": doc}))
        assert (
            found[0]["path"] == "parent" and found[0]["line"] == 4 and "unknown parent" in found[0]["message"]
        )

    for body, code in (
        ({}, "bad_document"),
        ({"document": 5}, "bad_document"),
        ({"document": "x" * 70_000}, "document_too_large"),
    ):
        r = client.post("/api/workshop/preview", json=body)
        assert 400 <= r.status_code < 500 and r.json()["error"] == code, r.text
    assert listed(client) == before


def test_p3_preview_shows_a_documents_html_as_text(client: TestClient) -> None:
    doc = (
        '---\ntitle: "<b>Bold</b> Orda"\nslug: evil\nparent: orda\n---\n\n'
        "<script>alert(1)</script>\n\n<img src=x onerror=alert(2)>\n\n[link](javascript:alert(3))\n"
    )
    r = client.post("/api/workshop/preview", json={"document": doc})
    assert r.status_code == 200, r.text
    data = r.json()
    pictures = [data["board"], data["rules"], *(p["diagram"] for p in data["pieces"])]
    for markup in pictures:
        assert "<script" not in markup and "<img" not in markup and "javascript:" not in markup
        assert "<b>" not in markup
    assert "&lt;script&gt;" in data["rules"]


def wait_for_run(client: TestClient, run_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + WAIT_LIMIT
    while True:
        run: dict[str, Any] = client.get(f"/api/workshop/balance/{run_id}").json()
        if run["status"] != "running" or time.monotonic() > deadline:
            return run
        time.sleep(0.05)  # a poll of the run's state, not a wait for a result


def test_p3_quick_balance_plays_one_run_at_a_time_and_reports_the_split(client: TestClient) -> None:
    before = listed(client)
    r = client.post("/api/workshop/balance", json={"document": ORDA_MIRROR, "games": 2})
    assert r.status_code == 202, r.text
    run = r.json()
    assert run["status"] == "running" and run["games"] == 2 and run["played"] == 0
    # A second run while the first plays: refused with a Retry-After (the first has a worker to start
    # and two games to play, far more than this request's round trip).
    again = client.post("/api/workshop/balance", json={"document": ORDA, "games": 2})
    assert again.status_code == 429 and again.json()["error"] == "balance_running"
    assert int(again.headers["Retry-After"]) >= 1
    done = wait_for_run(client, run["id"])
    assert done["status"] == "done", done
    assert done["played"] == 2 and done["white"] + done["black"] + done["draws"] == 2
    lengths = done["lengths"]
    assert 1 <= lengths["min"] <= lengths["median"] <= lengths["max"] <= balance.MAX_PLIES
    assert sum(done["terminations"].values()) == 2
    assert done["settings"]["clock"] == "1+0.01"
    assert listed(client) == before  # quick balance stores nothing


def test_p3_quick_balance_refusals_are_4xx_and_start_nothing(client: TestClient) -> None:
    app_runs = client.app.state.balance  # type: ignore[attr-defined]
    for body, status, code in (
        ({"document": ORDA, "games": 1}, 400, "bad_games"),
        ({"document": ORDA, "games": balance.MAX_GAMES + 1}, 400, "bad_games"),
        ({"document": ORDA, "games": "many"}, 400, "bad_games"),
        ({"games": 4}, 400, "bad_document"),
    ):
        r = client.post("/api/workshop/balance", json=body)
        assert r.status_code == status and r.json()["error"] == code, r.text
    broken = ORDA.replace("betza: FfW", "betza: Fz!W")
    found = problems(client.post("/api/workshop/balance", json={"document": broken}))
    assert found[0]["path"] == "engine.pieces.Y.betza"
    assert client.get("/api/workshop/balance/nosuchrun").status_code == 404
    assert client.get("/api/workshop/balance/bad%20id").status_code == 404
    assert app_runs.active() == []


def test_p3_workshop_page_allows_its_import_map_by_hash_and_serves_only_codemirror(
    client: TestClient,
) -> None:
    page = client.get("/workshop")
    assert page.status_code == 200
    csp = page.headers["content-security-policy"]
    assert csp == editor.WORKSHOP_CSP and csp != CSP
    found = re.search(r'<script type="importmap">(.*?)</script>', page.text, re.S)
    assert found is not None
    digest = base64.b64encode(hashlib.sha256(found.group(1).encode()).digest()).decode()
    assert f"'sha256-{digest}'" in csp  # the very text the page carries, and no other inline script
    assert page.text.count("<script") == 3  # the map, the starting points (JSON data) and the module
    assert client.get("/").headers["content-security-policy"] == CSP  # other pages keep the plain CSP
    # Every module the map names is served; nothing else of node_modules is.
    if editor.installed():
        for url in json.loads(found.group(1))["imports"].values():
            r = client.get(url)
            assert r.status_code == 200 and r.headers["content-type"].startswith("text/javascript"), url
    for path in ("@codemirror/view/package.json", "chessgroundx/package.json", "../../../pyproject.toml"):
        assert client.get(editor.URL_PREFIX + path).status_code == 404, path


def test_p3_starting_points_are_the_builtins_then_the_examples(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "mirror.md").write_text("---\ntitle: Mirror Test\nslug: mirror-test\nparent: orda\n---\n")
    monkeypatch.setattr(workshop, "EXAMPLES_DIR", tmp_path)
    workshop.starting_points.cache_clear()
    try:
        starts = workshop.starting_points()
    finally:
        workshop.starting_points.cache_clear()
    builtins = [s["name"] for s in starts if s["group"] == "built-in"]
    assert builtins == [p.stem for p in REGISTRY.builtin_paths()]
    assert [(s["title"], s["group"]) for s in starts[len(builtins) :]] == [("Mirror Test", "example")]
    assert all(s["document"].startswith("---") for s in starts)


def test_p3_previews_are_rate_limited_per_client_by_document_size(tmp_path: Path) -> None:
    # A preview costs a unit per CHECK_UNIT characters (Orda's document: about 1.4): room for three.
    units = max(1.0, len(ORDA) / CHECK_UNIT)
    assert units > 1.0  # so the cost follows the size, not the one-unit floor
    rule = Rule(3.5 * units, 1 / 600, "previews", "workshop previews")
    limiter = RateLimiter({"preview": rule}, clock=lambda: 0.0)
    with TestClient(create_app(data_dir=tmp_path, engine_workers=0, rate_limits=limiter)) as client:
        for _ in range(3):
            assert client.post("/api/workshop/preview", json={"document": ORDA}).status_code == 200
        refused = client.post("/api/workshop/preview", json={"document": ORDA})
        assert refused.status_code == 429 and refused.json()["error"] == "rate_limited"
        assert int(refused.headers["Retry-After"]) >= 1
        # No engine on this server: quick balance is refused at once, with nothing started.
        r = client.post("/api/workshop/balance", json={"document": ORDA})
        assert r.status_code == 503 and r.json()["error"] == "engine_busy"
        assert client.app.state.balance.active() == []  # type: ignore[attr-defined]
