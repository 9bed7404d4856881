"""Issue 19, points 1, 2 and 4: variant documents stored through the API, their limits, and the
stored variants played like built-ins."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

import hordes
from hordes.web import db
from tests.web.conftest import create, friend_game

PASSWORD = "correct horse battery"

# Orda Mirror: both sides play the Horde (the parent's pieces; only the setup changes).
MIRROR = """---
title: Mirror Test
slug: mirrortest
parent: orda
engine:
  setup: lhaykahl/8/pppppppp/8/8/PPPPPPPP/8/LHAYKAHL w - - 0 1
---
Both sides play the Horde.
"""


def count_documents(client: TestClient) -> int:
    with client.app.state.db.connect() as conn:  # type: ignore[attr-defined]
        return int(conn.execute(sa.select(sa.func.count()).select_from(db.variant_documents)).scalar_one())


def store(client: TestClient, document: str, **extra: Any) -> dict[str, Any]:
    r = client.post("/api/variants", json={"document": document, **extra})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def signup(client: TestClient, name: str) -> None:
    r = client.post("/api/account/signup", json={"username": name, "password": PASSWORD})
    assert r.status_code == 201, r.text


def problems(r: Any) -> list[dict[str, Any]]:
    body = r.json()
    assert body["error"] in ("invalid_variant", "over_limit"), body
    found: list[dict[str, Any]] = body["problems"]
    return found


# ----- point 1: the API ------------------------------------------------------------------------------
def test_p1_check_describes_a_valid_document_and_stores_nothing(client: TestClient) -> None:
    r = client.post("/api/variants/check", json={"document": MIRROR})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["ok"] is True and body["name"] == "mirrortest" and body["title"] == "Mirror Test"
    assert body["fen"].startswith("lhaykahl/8/pppppppp/8/8/PPPPPPPP/8/LHAYKAHL w")
    assert (body["width"], body["height"]) == (8, 8)
    assert {"letter": "H", "name": "Kheshig", "betza": "KN"} in body["pieces"]  # Orda's, inherited
    assert count_documents(client) == 0


def test_p1_store_gives_a_play_name_that_no_builtin_has(client: TestClient) -> None:
    out = store(client, MIRROR)
    assert out["version"] == 1 and out["id"]
    assert out["name"].startswith("mirrortest~") and out["name"].endswith("@1")
    listing = client.get("/api/variants").json()["variants"]
    builtins = [v for v in listing if v["builtin"]]
    assert {v["name"] for v in builtins} >= {"chess", "orda", "khans", "hordes"}
    mine = [v for v in listing if v["name"] == out["name"]]
    assert mine and mine[0]["builtin"] is False and mine[0]["author"] is None and mine[0]["created"]
    one = client.get(f"/api/variants/{out['name']}").json()
    assert one["document"] == MIRROR and one["version"] == 1


@pytest.mark.parametrize(
    ("broken", "path", "line"),
    [
        ("title: Mirror Test\nslug: [mirrortest", "", 4),  # bad YAML, found on the next line
        ("title: Mirror Test\ncolour: red", "colour", 3),  # an unknown key
        ("  setup:", "engine.pieces.Q.betza", 7),  # a bad Betza string
        ("  setup: lhaykahl", "engine.setup", 6),  # a bad FEN
        ("title: Mirror Test\nparent: nosuchgame", "parent", 3),  # a missing parent
    ],
    ids=["yaml", "unknown-key", "betza", "fen", "missing-parent"],
)
def test_p1_every_refusal_names_its_line_and_stores_nothing(
    client: TestClient, broken: str, path: str, line: int
) -> None:
    document = MIRROR.replace("title: Mirror Test", broken)
    if broken == "  setup:":
        document = MIRROR.replace(broken, "  pieces:\n    Q: {betza: 'Zz!'}\n  setup:")
    elif "setup:" in broken:
        document = MIRROR.replace("8/LHAYKAHL w", "8/LHAYKAHLX w")
    if "parent: nosuchgame" in broken:
        document = document.replace("parent: orda\n", "")
    for url in ("/api/variants/check", "/api/variants"):
        r = client.post(url, json={"document": document})
        assert r.status_code == 422, r.text
        found = problems(r)
        assert any(p["path"] == path and p["line"] == line for p in found), found
    assert count_documents(client) == 0


def test_p1_every_problem_is_listed_at_once(client: TestClient) -> None:
    document = MIRROR.replace("title: Mirror Test", "title: Mirror Test\ncolour: red\nflavour: 2").replace(
        "  setup:", "  rules: {castling: maybe}\n  setup:"
    )
    found = problems(client.post("/api/variants", json={"document": document}))
    assert {(p["path"], p["line"]) for p in found} >= {
        ("colour", 3),
        ("flavour", 4),
        ("engine.rules.castling", 8),
    }


def test_p1_parent_may_be_a_stored_version_never_a_path(client: TestClient) -> None:
    first = store(client, MIRROR)
    child = MIRROR.replace("slug: mirrortest", "slug: mirrorchild").replace(
        "parent: orda", f"parent: {first['name']}"
    )
    child = child.replace("  setup: lhaykahl/8/pppppppp/8/8/PPPPPPPP/8/LHAYKAHL w - - 0 1\n", "")
    out = store(client, child + "\n")
    flat = client.get(f"/api/variants/{out['name']}?format=md")
    assert flat.status_code == 200 and "parent:" not in flat.text and "LHAYKAHL" in flat.text
    for parent, why in (
        (first["name"].split("@")[0], "exact version"),  # a series alone would change under its child
        ("../../etc/passwd", "unknown parent"),
        (str(Path(hordes.__file__).parent / "variants" / "orda.md"), "unknown parent"),  # a real file
    ):
        bad = MIRROR.replace("parent: orda", f"parent: {parent}")
        found = problems(client.post("/api/variants/check", json={"document": bad}))
        assert found[0]["path"] == "parent" and found[0]["line"] == 4 and why in found[0]["message"], found


def test_p1_a_cycle_of_parents_is_a_problem_with_its_line(client: TestClient) -> None:
    signup(client, "alice")
    first = store(client, MIRROR)
    own_next = first["series"] + "@2"  # the version this save would become
    cyclic = MIRROR.replace("parent: orda", f"parent: {own_next}")
    r = client.post("/api/variants", json={"document": cyclic})
    assert r.status_code == 422, r.text
    found = problems(r)
    assert found[0]["path"] == "parent" and found[0]["line"] == 4 and "cycle" in found[0]["message"]
    assert count_documents(client) == 1


def test_p1_versions_belong_to_their_author(client: TestClient) -> None:
    signup(client, "alice")
    v1 = store(client, MIRROR)
    v2 = store(client, MIRROR.replace("Both sides", "Each side"), visibility="unlisted")
    assert (v1["author"], v2["author"]) == ("alice", "alice")
    assert v2["series"] == v1["series"] and v2["version"] == 2
    assert client.get(f"/api/variants/{v1['name']}").json()["document"] == MIRROR  # unchanged
    listed = [v for v in client.get("/api/variants").json()["variants"] if not v["builtin"]]
    assert [v["name"] for v in listed] == [v1["name"]]  # v2 is unlisted: reachable by name only
    assert client.get(f"/api/variants/{v2['name']}").status_code == 200
    client.cookies.clear()  # anonymous now: the same slug starts a series of its own
    other = store(client, MIRROR)
    assert other["series"] != v1["series"] and other["version"] == 1 and other["author"] is None
    signup(client, "bob")  # another author: his own series, never a version of alice's
    bobs = store(client, MIRROR)
    assert (bobs["author"], bobs["version"]) == ("bob", 1) and bobs["series"] not in (
        v1["series"],
        other["series"],
    )


def test_p1_a_game_keeps_its_version_after_an_edit(client: TestClient) -> None:
    signup(client, "alice")
    v1 = store(client, MIRROR)
    game_id, white, _ = friend_game(client, variant=v1["series"])  # the series: its latest version
    client.post("/api/account/login", json={"username": "alice", "password": PASSWORD})
    edited = MIRROR.replace("lhaykahl/8/pppppppp", "lhaykahl/pppppppp/8")
    v2 = store(client, edited)
    assert v2["version"] == 2
    state = client.get(f"/api/games/{game_id}").json()
    assert state["variant"]["slug"] == v1["name"]
    assert state["fen"].startswith("lhaykahl/8/pppppppp")
    r = client.post(f"/api/games/{game_id}/moves", json={"uci": "e3e4", "token": white})
    assert r.status_code == 200, r.text
    newer = create(client, variant=v2["series"], opponent="friend")
    assert newer["game"]["fen"].startswith("lhaykahl/pppppppp/8")


def test_p1_two_saves_at_once_get_two_versions(client: TestClient) -> None:
    signup(client, "alice")
    cookies = dict(client.cookies)
    service = client.app.state.variant_store  # type: ignore[attr-defined]
    user = client.get("/api/account").json()
    assert user["username"] == "alice" and cookies
    author = client.app.state.accounts.session_user(cookies["hordes_session"]).id  # type: ignore[attr-defined]
    results: list[Any] = []
    start = threading.Barrier(4)

    def save(i: int) -> None:
        start.wait(timeout=30)
        try:
            results.append(service.save(MIRROR.replace("Both", f"Both ({i})"), "public", author))
        except Exception as exc:  # the test reports whatever a save raised
            results.append(exc)

    threads = [threading.Thread(target=save, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert all(not isinstance(r, Exception) for r in results), results
    assert sorted(r.version for r in results) == [1, 2, 3, 4]
    assert len({r.series for r in results}) == 1
    assert count_documents(client) == 4


# ----- point 4: a stored variant plays everywhere a built-in does -----------------------------------------
def wait_for_ply(client: TestClient, game_id: str, ply: int, deadline: float = 60.0) -> dict[str, Any]:
    """The game once it has `ply` moves (the engine's turn); the deadline is only a safety net."""
    import time

    end = time.monotonic() + deadline
    while True:
        state: dict[str, Any] = client.get(f"/api/games/{game_id}").json()
        if state["ply"] >= ply or time.monotonic() > end:
            return state
        time.sleep(0.05)


def test_p4_the_engine_plays_and_analyses_a_stored_variant(client: TestClient) -> None:
    name = store(client, MIRROR)["name"]
    game = create(client, variant=name, color="black", level=1)  # the engine has the first move
    state = wait_for_ply(client, game["id"], 1)
    assert state["ply"] == 1 and state["variant"]["slug"] == name, state
    from hordes import Board
    from hordes.web.variants import web_variant

    board = Board(web_variant(name))
    assert state["moves"][0]["uci"] in {board.uci(m) for m in board.legal_moves}  # a Horde move
    r = client.post("/api/analysis", json={"variant": name, "movetime": 0.1, "depth": 2})
    assert r.status_code == 200, r.text
    assert r.json()["best"]


def test_p4_seeks_rules_page_pieces_and_lobby(client: TestClient) -> None:
    public = store(client, MIRROR)["name"]
    hidden = store(client, MIRROR.replace("slug: mirrortest", "slug: hiddenmirror"), visibility="unlisted")
    r = client.post("/api/seeks", json={"variant": public, "clock": {"base": 300, "increment": 3}})
    assert r.status_code == 201, r.text
    seeks = client.get("/api/seeks").json()["seeks"]
    assert [s["variant"] for s in seeks] == [{"slug": public, "title": "Mirror Test"}]
    page = client.get(f"/variants/{public}")
    assert page.status_code == 200 and "Mirror Test" in page.text and "<svg" in page.text
    css = client.get(f"/pieces/{public}.css")
    escaped = public.replace("~", "\\~").replace("@", "\\@")
    assert css.status_code == 200 and f".cg-wrap.v-{escaped} piece" in css.text
    picture = client.get(f"/pieces/{public}/l-piece.white.svg")
    assert picture.status_code == 200 and picture.headers["content-type"].startswith("image/svg")
    lobby = client.get("/").text
    assert f'value="{public}"' in lobby and hidden["name"] not in lobby  # unlisted: not offered
    assert f'value="{hidden["name"]}"' in client.get(f"/?variant={hidden['name']}").text  # but by link
    analysis = client.get(f"/analysis?variant={public}")
    assert analysis.status_code == 200 and f'href="/pieces/{public}.css"' in analysis.text


def test_p4_pgn_carries_the_document_and_imports_through_the_store(client: TestClient) -> None:
    from hordes.errors import HordesError
    from hordes.notation.pgn import parse_game

    name = store(client, MIRROR)["name"]
    game_id, white, _ = friend_game(client, variant=name)
    client.post(f"/api/games/{game_id}/moves", json={"uci": "e3e4", "token": white})
    page = client.get(f"/game/{game_id}")
    assert page.status_code == 200 and f'href="/pieces/{name}.css"' in page.text
    assert "Mirror Test" in client.get("/games").text
    pgn = client.get(f"/api/games/{game_id}/pgn").text
    assert f'[VariantDocument "/api/variants/{name}"]' in pgn and '[Variant "Mirror Test"]' in pgn
    r = client.post("/api/pgn/import", json={"pgn": pgn})
    assert r.status_code == 200, r.text
    assert r.json()["variant"] == name and r.json()["moves"][0]["uci"] == "e3e4"
    with pytest.raises(HordesError, match="Mirror Test"):  # the library alone fetches nothing
        parse_game(pgn)
    elsewhere = pgn.replace(f"/api/variants/{name}", "https://elsewhere.example/api/variants/x~abcdefgh@1")
    r = client.post("/api/pgn/import", json={"pgn": elsewhere})
    assert r.status_code == 400 and "x~abcdefgh@1" in r.json()["message"], r.text
    exported = client.post("/api/pgn/export", json={"variant": name, "moves": ["e3e4"]}).json()["pgn"]
    assert f'[VariantDocument "/api/variants/{name}"]' in exported


def test_p4_hordes_uci_loads_the_exported_document(client: TestClient, tmp_path: Any) -> None:
    import io

    from hordes import Board
    from hordes.uci import UciEngine
    from hordes.web.variants import web_variant

    parent = store(client, MIRROR)["name"]
    child = MIRROR.replace("slug: mirrortest", "slug: mirrorchild").replace(
        "parent: orda", f"parent: {parent}"
    )
    name = store(client, child)["name"]
    path = tmp_path / "mirrorchild.md"
    path.write_text(client.get(f"/api/variants/{name}?format=md").text, encoding="utf-8")
    out = io.StringIO()
    UciEngine(out).run(
        [f"setoption name VariantPath value {path}", f"setoption name UCI_Variant value {name}",
         "position startpos", "go perft 2"]
    )  # fmt: skip
    text = out.getvalue()
    assert "unknown" not in text and "loaded variant mirrorchild" in text, text
    expected = Board(web_variant(name)).perft(2)
    assert f"Nodes searched: {expected}" in text, text


# ----- point 2: limits, checked before anything is built ------------------------------------------------
def big_board(rows: int, cols: int) -> str:
    return f"""---
title: Big
slug: bigboard
engine:
  topology: {{type: grid, rows: {rows}, cols: {cols}}}
  pieces:
    K: {{name: King, betza: K, royal: true}}
  setup: k{cols - 1}/{"/".join([str(cols)] * (rows - 2))}/K{cols - 1} w - - 0 1
---
"""


def test_p2_a_document_over_64_kb_is_refused_by_its_size(client: TestClient) -> None:
    from hordes.web.variant_limits import MAX_STORED_BYTES

    document = MIRROR + "x" * MAX_STORED_BYTES
    for url in ("/api/variants/check", "/api/variants"):
        r = client.post(url, json={"document": document})
        assert r.status_code == 413, r.text
        assert r.json()["error"] == "document_too_large" and "65536 bytes" in r.json()["message"]
    assert count_documents(client) == 0


def test_p2_board_and_piece_kinds_over_their_limits(client: TestClient, monkeypatch: Any) -> None:
    from hordes.web import variant_store

    built: list[Any] = []
    monkeypatch.setattr(variant_store.Resolved, "build", lambda self: built.append(self))  # never reached
    r = client.post("/api/variants", json={"document": big_board(17, 20)})
    assert r.status_code == 422 and r.json()["error"] == "over_limit", r.text
    found = {p["path"]: p for p in problems(r)}
    assert (
        found["engine.topology.rows"]["line"] == 5
        and "limit of 16" in found["engine.topology.rows"]["message"]
    )
    assert "20 files is over the limit of 16" in found["engine.topology.cols"]["message"]
    letters = [chr(c) for c in range(ord("A"), ord("Z") + 1) if chr(c) != "K"]
    many = big_board(8, 8).replace(
        "  setup:", "".join(f"    {x}: {{name: {x}, betza: W}}\n" for x in letters) + "  setup:"
    )
    r = client.post("/api/variants/check", json={"document": many})
    assert r.status_code == 422, r.text
    assert [p["message"] for p in problems(r)] == ["26 piece kinds is over the limit of 24"]
    assert problems(r)[0]["line"] == 6  # engine.pieces
    assert built == [] and count_documents(client) == 0
    monkeypatch.undo()
    assert client.post("/api/variants/check", json={"document": big_board(16, 16)}).status_code == 200


def test_p2_generations_of_parents_over_the_limit(client: TestClient) -> None:
    from hordes.web.variant_limits import MAX_STORED_ANCESTORS

    parent = "khans"  # khans -> orda -> chess: three generations already
    inherited = MIRROR.replace("  setup: lhaykahl/8/pppppppp/8/8/PPPPPPPP/8/LHAYKAHL w - - 0 1\n", "  {}\n")
    for i in range(MAX_STORED_ANCESTORS - 2):
        doc = inherited.replace("slug: mirrortest", f"slug: gen{i}").replace(
            "parent: orda", f"parent: {parent}"
        )
        parent = store(client, doc)["name"]
    too_deep = inherited.replace("parent: orda", f"parent: {parent}")
    r = client.post("/api/variants", json={"document": too_deep})
    assert r.status_code == 422, r.text
    first = problems(r)[0]
    assert first["path"] == "parent" and first["line"] == 4, first
    assert f"more than {MAX_STORED_ANCESTORS} generations of parents (the limit)" in first["message"]
    assert count_documents(client) == MAX_STORED_ANCESTORS - 2


def test_p2_the_table_estimate_bounds_the_build(client: TestClient, monkeypatch: Any) -> None:
    """The estimate is an upper bound of what the build takes, and a document over it is refused."""
    import tracemalloc

    from hordes.core.compiled import compile_variant, limit_tables
    from hordes.variants import parse_variant
    from hordes.web import variant_limits

    riders = ["R", "B", "NN", "AA", "DD", "ZZ", "CC", "GG"]
    pieces = "".join(
        f"    {x}: {{name: {x}, betza: {riders[i % 8]}{riders[(i + 3) % 8]}}}\n" for i, x in enumerate("ABCD")
    )
    document = big_board(12, 12).replace("  setup:", pieces + "  setup:")
    variant = parse_variant(document)
    limit_tables(variant, variant_limits.STORED_TABLE_BUDGET)
    tracemalloc.start()
    compile_variant(variant)
    used = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    engine = {"K": {"betza": "K"}} | {
        x: {"betza": riders[i % 8] + riders[(i + 3) % 8]} for i, x in enumerate("ABCD")
    }
    directions = [variant_limits.rider_directions(spec) for spec in engine.values()]
    assert directions[0] == 0 and min(directions[1:]) >= 8
    estimate = variant_limits.estimate_table_bytes(12, 12, directions)
    assert used <= estimate, (used, estimate)
    monkeypatch.setattr(variant_limits, "MAX_TABLE_BYTES", estimate - 1)
    r = client.post("/api/variants/check", json={"document": document})
    assert r.status_code == 422, r.text
    assert "move tables would take about" in problems(r)[0]["message"]


# ----- the library's hooks: parents by name, variants of PGN tags ---------------------------------------
def test_p1_the_loader_looks_parents_up_by_name_alone() -> None:
    from hordes.errors import UnknownVariantError, VariantError
    from hordes.variants import parse_variant

    asked: list[str] = []
    documents = {
        "first": "---\ntitle: First\nslug: first\nparent: second\n---\n",
        "second": "---\ntitle: Second\nslug: second\nparent: first\n---\n",
    }

    def lookup(name: str) -> tuple[str, str]:
        asked.append(name)
        if name not in documents:
            raise UnknownVariantError(f"no document {name!r}")
        return documents[name], name

    with pytest.raises(VariantError) as cycle:
        parse_variant("---\ntitle: Mine\nslug: mine\nparent: first\n---\n", parents=lookup)
    assert "inheritance cycle through 'first'" in str(cycle.value) and cycle.value.key == "parent"
    with pytest.raises(VariantError) as missing:
        parse_variant("---\ntitle: Mine\nslug: mine\n\nparent: chess.md\n---\n", parents=lookup)
    assert missing.value.line == 5 and "no document 'chess.md'" in missing.value.problem
    assert asked == ["first", "second", "chess.md"]  # a path is a name like any other, never read


def test_p4_the_pgn_reader_asks_its_resolver() -> None:
    from hordes import load_variant
    from hordes.notation.pgn import parse_game

    orda = load_variant("orda")
    seen: list[dict[str, str]] = []

    def resolver(tags: Any) -> Any:
        seen.append(dict(tags))
        return orda if tags.get("VariantDocument") == "/api/variants/x~abcdefgh@1" else None

    text = '[Variant "Somewhere"]\n[VariantDocument "/api/variants/x~abcdefgh@1"]\n\n1. e4 *\n'
    game = parse_game(text, resolver)
    assert game.variant is orda and seen[0]["Variant"] == "Somewhere"
    assert parse_game("1. e4 *", resolver).variant.slug == "chess"  # None: the tags as usual


def test_p1_checks_are_rate_limited_per_client_by_size(tmp_path: Any) -> None:
    from hordes.web.app import create_app
    from hordes.web.ratelimit import RateLimiter

    app = create_app(data_dir=tmp_path, engine_workers=1, rate_limits=RateLimiter(clock=lambda: 0.0))
    with TestClient(app) as c:
        long_document = MIRROR + "x" * 40_000  # 10 units of the 30 a client has at once
        answers = [
            c.post("/api/variants/check", json={"document": long_document}).status_code for _ in range(4)
        ]
        assert answers == [200, 200, 200, 429]
        r = c.post("/api/variants/check", json={"document": MIRROR})
        assert r.status_code == 429 and "variant document checks" in r.json()["message"]
        assert r.headers["Retry-After"]


def test_p1_built_variants_are_cached_per_version_and_bounded(client: TestClient, monkeypatch: Any) -> None:
    from hordes import Board
    from hordes.core import compiled
    from hordes.web import variant_store

    monkeypatch.setattr(variant_store, "CACHE_SIZE", 2)
    service = client.app.state.variant_store  # type: ignore[attr-defined]
    names = [store(client, MIRROR.replace("Both sides", f"Side {i}"))["name"] for i in range(3)]
    first = service.variant(names[0])
    assert service.variant(names[0]) is first  # built once
    Board(first)  # its tables are built
    assert first in compiled._CACHE
    service.variant(names[1])
    service.variant(names[2])
    assert list(service._cache) == names[1:]  # the least recently used left
    assert first not in compiled._CACHE  # and its tables with it
    assert service.variant(names[0]) is not first and service.variant(names[0]).slug == names[0]


def test_p2_tables_are_built_before_a_document_is_stored(client: TestClient, monkeypatch: Any) -> None:
    from hordes.web import variant_store

    built: list[Any] = []
    monkeypatch.setattr(variant_store, "compiled", built.append)
    store(client, MIRROR)
    assert len(built) == 1 and built[0].slug == "mirrortest"  # with the stored budget, then let go

    def broken(variant: Any) -> None:
        raise IndexError("a core bug")

    monkeypatch.setattr(variant_store, "compiled", broken)
    r = client.post("/api/variants", json={"document": MIRROR})
    assert r.status_code == 422 and "the move tables cannot be built: a core bug" in r.text
    assert count_documents(client) == 1
