"""Issue 14 point 12 (the analysis board) on the server: the move tree through PGN import and export,
the engine's MultiPV lines, and the judged moves (?!, ?, ??) of evaluated lines and finished games."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from hordes.notation.pgn import Game, GameNode, parse_game, write_game
from hordes.web.analysis import MAX_MULTIPV
from hordes.web.analysis_tree import MAX_VARIATION_DEPTH
from hordes.web.judgement import judge, judge_line, win_probability
from tests.web.conftest import WINS, friend_game

TREE_PGN = """[Event "Club night"]
[White "Ann"]
[Black "Bob"]
[Result "*"]

{ An opening tree } 1. e4 { the king's pawn } (1. d4 d5 (1... Nf6 { Indian } 2. c4 e6) 2. c4 $1
{ the Queen's Gambit }) (1. c4 $5) 1... e5 2. Nf3 (2. f4 { a gambit } 2... exf4 (2... d5 $2)
3. Nf3) 2... Nc6 $6 { slower: } (2... d6 { Philidor }) 3. Bb5 *
"""
DERIVED = ("Variant", "FEN", "SetUp")


def shape(node: GameNode) -> list[Any]:
    """The whole tree below a node: each continuation with its move, comments, NAGs and subtree."""
    return [
        (child.uci(), child.comment, child.starting_comment, sorted(child.nags), shape(child))
        for child in node.variations
    ]


def json_shape(line: list[dict[str, Any]]) -> list[Any]:
    """The same for the API's tree: continuations of each position, in the library's order."""
    if not line:
        return []
    first, rest = line[0], line[1:]
    out = [
        (first["uci"], first["comment"], first.get("starting_comment", ""), first["nags"], json_shape(rest))
    ]
    for alt in first["variations"]:
        out.append(
            (
                alt[0]["uci"],
                alt[0]["comment"],
                alt[0].get("starting_comment", ""),
                alt[0]["nags"],
                json_shape(alt[1:]),
            )
        )
    return out


def export_body(imported: dict[str, Any]) -> dict[str, Any]:
    """What the analysis board sends back: the imported tree and tags (less those the line decides)."""
    return {
        "variant": imported["variant"],
        "fen": imported["start_fen"],
        "headers": {k: v for k, v in imported["headers"].items() if k not in DERIVED},
        "comment": imported["comment"],
        "moves": imported["moves"],
    }


def test_p12_pgn_tree_import_export_keeps_variations_and_comments(client: TestClient) -> None:
    original = parse_game(TREE_PGN)
    r = client.post("/api/pgn/import", json={"pgn": TREE_PGN})
    assert r.status_code == 200, r.text
    imported = r.json()
    # the JSON tree: the main line, and each move's alternatives as lines of their own
    main = imported["moves"]
    assert [m["san"] for m in main] == ["e4", "e5", "Nf3", "Nc6", "Bb5"]
    assert [[m["san"] for m in alt] for alt in main[0]["variations"]] == [["d4", "d5", "c4"], ["c4"]]
    assert [m["san"] for m in main[0]["variations"][0][1]["variations"][0]] == ["Nf6", "c4", "e6"]
    assert (
        main[0]["comment"] == "the king's pawn"
        and main[3]["nags"] == [6]
        and imported["comment"] == "An opening tree"
    )
    assert main[2]["variations"][0][1]["variations"][0][0]["nags"] == [2]  # 2... d5? inside 2. f4
    assert json_shape(main) == shape(original)
    # export, and read the export back: the same tree, the same tags
    out = client.post("/api/pgn/export", json=export_body(imported))
    assert out.status_code == 200, out.text
    pgn = out.json()["pgn"]
    assert "(1. d4 d5 (1... Nf6 { Indian } 2. c4 e6) 2. c4 $1 { the Queen's Gambit })" in " ".join(
        pgn.split()
    )
    assert '[White "Ann"]' in pgn and '[Event "Club night"]' in pgn
    back = parse_game(pgn)
    assert shape(back) == shape(original) and back.comment == original.comment
    again = client.post("/api/pgn/import", json={"pgn": pgn}).json()
    assert again["moves"] == imported["moves"]


def test_p12_tree_of_another_variant_from_a_position(client: TestClient) -> None:
    fen = WINS["orda"][0]
    body = {
        "variant": "orda",
        "fen": fen,
        "moves": [{"uci": "e7e6", "comment": "slow", "variations": [[{"uci": "e7e8", "nags": [3]}]]}],
    }
    pgn = client.post("/api/pgn/export", json=body).json()["pgn"]
    assert '[Variant "Orda"]' in pgn and f'[FEN "{fen}"]' in pgn
    game = parse_game(pgn)
    assert [[c.uci(), sorted(c.nags)] for c in game.variations] == [["e7e6", []], ["e7e8", [3]]]
    # the old single-line format still works
    line = client.post("/api/pgn/export", json={"variant": "orda", "moves": ["e2e4", "g6g5"]}).json()["pgn"]
    assert "1. e4 g5" in line


@pytest.mark.parametrize(
    ("moves", "status", "where"),
    [
        (
            [{"uci": "e2e4", "variations": [[{"uci": "d2d4"}, {"uci": "d7d9"}]]}],
            422,
            "moves[0].variations[0][1].uci",
        ),
        (["e2e4", {"uci": "e7e5", "nags": [256]}], 400, "moves[1].nags"),
        (["e2e4", {"uci": "e7e5", "nags": [True]}], 400, "moves[1].nags"),
        ([{"uci": "e2e4", "variations": [[]]}], 400, "moves[0].variations[0]"),
        ([{"uci": "e2e4", "variations": "d2d4"}], 400, "moves[0].variations"),
        ([{"uci": "e2e4", "comment": 5}], 400, "moves[0].comment"),
        ([{"san": "e4"}], 400, "moves[0].uci"),
        ([{"uci": "e2e4", "clock": 3}], 400, "moves[0]: unknown field 'clock'"),
        ([7], 400, "moves[0] must be"),
    ],
)
def test_p12_malformed_tree_is_refused_naming_where(
    client: TestClient, moves: list[Any], status: int, where: str
) -> None:
    r = client.post("/api/pgn/export", json={"variant": "chess", "moves": moves})
    assert r.status_code == status and where in r.json()["message"], r.text


def test_p12_tree_nesting_is_bounded(client: TestClient) -> None:
    line: list[Any] = [{"uci": "e2e4"}]
    for _ in range(MAX_VARIATION_DEPTH + 1):  # a variation of the first move, inside one, and so on
        line = [{"uci": "d2d4", "variations": [line]}]
    r = client.post("/api/pgn/export", json={"variant": "chess", "moves": line})
    assert r.status_code == 400 and r.json()["error"] == "tree_too_large", r.text
    game = Game()
    node: GameNode = game
    for _ in range(MAX_VARIATION_DEPTH + 1):  # each side line holds the next one, a move further on
        first, second = list(node.board().legal_moves)[:2]
        node.add_variation(first)
        node = node.add_variation(second)
    deep = write_game(game)
    r = client.post("/api/pgn/import", json={"pgn": deep})
    assert r.status_code == 400 and "nested deeper" in r.json()["message"], r.text


def test_p12_multipv_lines_and_bounds(client: TestClient, app: Any) -> None:
    for bad in (0, MAX_MULTIPV + 1, "three", True):
        r = client.post("/api/analysis", json={"variant": "chess", "multipv": bad, "movetime": 0.1})
        assert r.status_code == 400 and "'multipv'" in r.json()["message"], r.text
    assert client.post("/api/analysis", json={"multipv": 2, "depth": 0}).status_code == 400
    assert app.state.pool.queue.started.count("analysis") == 0  # refused before any search
    r = client.post("/api/analysis", json={"variant": "orda", "multipv": 3, "movetime": 0.3, "depth": 3})
    assert r.status_code == 200, r.text
    ev = r.json()
    lines = ev["lines"]
    assert len(lines) == 3 and len({line["best"] for line in lines}) == 3
    assert ev["best"] == lines[0]["best"] and ev["depth"] <= 3
    for line in lines:
        assert line["pv"] and len(line["pv_sans"]) == len(line["pv"]) and line["cp"] is not None
    scores = [line["cp"] for line in lines]  # White to move: best first
    assert scores == sorted(scores, reverse=True)
    assert list(app.state.pool.queue.started) == ["analysis"]  # the analysis class of the queue


# ----- judgements ----------------------------------------------------------------------------------------
def ev(cp: int | None = None, mate: int | None = None) -> dict[str, Any]:
    return {"cp": cp, "mate": mate}


def test_p12_judgement_thresholds_in_win_probability() -> None:
    assert win_probability(0) == 0.5 and win_probability(5000) == win_probability(1000)
    # White moves from an equal position: a 5 / 10 / 15 point drop of White's win probability
    assert judge(ev(0), ev(-50), True) is None  # 4.6 points
    assert judge(ev(0), ev(-60), True) == "inaccuracy"  # 5.5
    assert judge(ev(0), ev(-120), True) == "mistake"  # 10.8
    assert judge(ev(0), ev(-200), True) == "blunder"  # 17.6
    assert judge(ev(0), ev(-200), False) is None  # the same swing is good for Black
    assert judge(ev(0), ev(60), False) == "inaccuracy"
    assert judge(ev(2000), ev(1100), True) is None  # both past the cap: still winning
    assert judge(ev(None), ev(-900), True) is None  # no score: no verdict
    # forced mates, as lichess judges them
    assert judge(ev(50), ev(mate=-3), True) == "blunder"  # lets Black force mate
    assert judge(ev(-800), ev(mate=-3), True) == "mistake"  # ... from a lost position
    assert judge(ev(-1200), ev(mate=-2), True) == "inaccuracy"  # ... from a hopeless one
    assert judge(ev(mate=2), ev(300), True) == "blunder"  # lets a forced mate go
    assert judge(ev(mate=2), ev(800), True) == "mistake"
    assert judge(ev(mate=2), ev(1500), True) == "inaccuracy"
    assert judge(ev(mate=2), ev(mate=-4), True) == "blunder"
    assert judge(ev(mate=2), ev(mate=1), True) is None
    assert judge(ev(mate=1), ev(10_000), True) is None  # the mate itself: a won final position
    assert judge(ev(mate=-1), ev(-10_000), False) is None


def test_p12_judgements_of_a_line_follow_the_side_to_move() -> None:
    line = [ev(20), ev(30), ev(-150), ev(-140), ev(mate=-2), ev(-300)]
    # White first: each swing is the mover's gain (Black's 30 -> -150, White's -140 -> mate... for Black)
    assert judge_line(line, white_first=True) == [None] * 6
    # the same scores with Black moving first: White drops 30 -> -150, walks into a mate, Black lets it go
    assert judge_line(line, white_first=False) == [None, None, "blunder", None, "blunder", "blunder"]
    plies = [{"ply": 0, **ev(0)}, {"ply": 2, **ev(-900)}]  # a gap: nothing is judged across it
    assert judge_line(plies, white_first=True) == [None, None]


def test_p12_finished_game_and_line_evaluations_carry_judgements(client: TestClient) -> None:
    fen = WINS["chess"][0]  # Black mates with Qh4; playing a6 instead lets the mate go
    game_id, white, black = friend_game(client, "chess", fen)
    assert client.post(f"/api/games/{game_id}/moves", json={"uci": "a7a6", "token": black}).status_code == 200
    assert client.post(f"/api/games/{game_id}/resign", json={"token": white}).status_code == 200
    evals = client.get(f"/api/games/{game_id}/evaluations").json()["evaluations"]
    assert evals[0]["mate"] == -1 and evals[0]["judgement"] is None
    assert evals[1]["judgement"] in ("blunder", "mistake", "inaccuracy")  # a lost mate is always judged
    r = client.post("/api/analysis/line", json={"variant": "chess", "moves": ["e2e4"], "movetime": 0.05})
    line = r.json()["evaluations"]
    assert len(line) == 2 and line[0]["judgement"] is None and "judgement" in line[1]
