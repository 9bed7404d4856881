"""Issue 14 points 8 and 10: the facts the board marks (web/marks.py), checked against the core.

Held pieces and their closed directions are compared with the move generator's own destinations
with and without the restriction; repetition losses and campmate wins with `Board.outcome` after
each legal move; a change of sides with the pieces before and after the move; premove movement with
the core's move patterns on an empty board.
"""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from hordes import Board, Termination, builtin_variants, load_variant
from hordes.core import movegen
from hordes.core.compiled import compiled
from hordes.web.marks import held_pieces, immediate_results, last_move, movement
from hordes.web.positions import position_view
from tests.web.conftest import friend_game

# Positions with magnets (Hordes of Change): the rules document's examples and crowded ones.
HELD_FENS = [
    "7k/8/8/4R3/4+r3/8/8/K7 w - - 0 1",  # Rook beside a Rook Magnet: not north
    "7k/8/8/4B3/4+r3/8/8/K7 w - - 0 1",  # Bishop beside a Rook Magnet: not north-east, north-west
    "7k/8/8/4R3/3+b4/8/8/K7 w - - 0 1",  # Rook beside a Bishop Magnet: not north, east
    "7k/8/8/4B3/3+b4/8/8/K7 w - - 0 1",  # Bishop beside a Bishop Magnet: not north-east
    "k7/8/3r4/2+R1B3/3+b4/2R5/8/7K b - - 0 1",  # several magnets, both sides held
    "bbrkkrbb/rbbrrbbr/brbrrbrb/8/3+r4/BRBRRBRB/RBBRRBBR/BBRKKRBB w - - 0 1",  # held, nothing to lose
    "bbrkkrbb/rbbr1bbr/brb+rrbrb/3R4/8/BRB1RBRB/RBBRRBBR/BBRKKRBB b - - 0 1",
]


def _unrestricted(board: Board, sq: int) -> int:
    """The piece's pseudo-legal destinations as its pattern gives them, the restriction left out."""
    code = board.mailbox[sq]
    kind, color = code >> 1, code & 1
    g = board.compiled.gens[color][kind]
    occupied = board.occ[0] | board.occ[1]
    if g.same:
        return g.quiet.attacks(sq, occupied) & ~board.occ[color]
    return (g.quiet.attacks(sq, occupied) & ~occupied) | (
        g.capture.attacks(sq, occupied) & board.occ[color ^ 1]
    )


def _squares(board: Board, bb: int) -> set[str]:
    return {board.geometry.square_name(s) for s in range(board.geometry.size) if bb >> s & 1}


@pytest.mark.parametrize("fen", HELD_FENS)
def test_p10_held_pieces_lose_exactly_what_the_move_generator_takes_away(fen: str) -> None:
    board = Board("hordes", fen)
    held = {h["square"]: h for h in held_pieces(board)}
    assert held, "each of these positions holds a piece"
    name = board.geometry.square_name
    occupied = board.occ[0] | board.occ[1]
    view = position_view(board)
    assert {h["square"] for h in view["held"]} == set(held)
    for sq in range(board.geometry.size):
        code = board.mailbox[sq]
        if code < 0 or not board.compiled.restrictable[code >> 1]:
            assert name(sq) not in held
            continue
        free = _unrestricted(board, sq)
        kept = movegen.pseudo_targets(board, sq, code >> 1, code & 1, occupied)
        lost = _squares(board, free & ~kept)
        entry = held.get(name(sq))
        if entry is None:
            assert not lost, (fen, name(sq))
            continue
        marked = {s for c in entry["closed"] for s in c["squares"]}
        assert marked == lost, (fen, name(sq))
        # a closed direction really is one: no legal move of the piece goes that way
        assert not marked & set(view["dests"].get(name(sq), []))
        for c in entry["closed"]:
            assert not c["squares"] or c["toward"] == c["squares"][0]
        # each restrictor named is an enemy piece beside it
        for magnet in entry["by"]:
            piece = board.piece_at(board.geometry.parse_square(magnet))
            assert piece is not None and piece.color != board.piece_at(sq).color  # type: ignore[union-attr]
            assert piece.kind is not None and piece.kind.restricts


def test_p10_the_rules_examples_close_the_documented_directions() -> None:
    expected = {
        HELD_FENS[0]: [[0, 1]],
        HELD_FENS[1]: [[1, 1], [-1, 1]],
        HELD_FENS[2]: [[1, 0], [0, 1]],
        HELD_FENS[3]: [[1, 1]],
    }
    for fen, steps in expected.items():
        (entry,) = held_pieces(Board("hordes", fen))
        assert entry["square"] == "e5"
        assert sorted(c["step"] for c in entry["closed"]) == sorted(steps), fen


def test_p10_no_held_pieces_without_restricting_pieces() -> None:
    for variant in builtin_variants():
        if not compiled(variant).restrictions:
            assert held_pieces(Board(variant)) == []


def _judged(board: Board) -> tuple[list[str], dict[str, list[str]]]:
    """What `Board.outcome` says after each legal move: (repetition losses, campmate wins)."""
    losing, winning = [], {}
    mover = board.turn
    for move in list(board.legal_moves):
        board.push(move)
        outcome = board.outcome()
        board.pop()
        if outcome is None:
            continue
        if outcome.termination is Termination.REPETITION_LOSS:
            losing.append(board.uci(move))
        if outcome.termination is Termination.CAMPMATE and outcome.winner is mover:
            name = board.geometry.square_name
            winning.setdefault(name(move.from_square), []).append(name(move.to_square))
    return losing, winning


def test_p10_moves_that_lose_by_repetition_are_the_rules_verdict() -> None:
    board = Board("hordes", "k7/8/8/8/8/8/1B6/K7 w - - 0 1")
    shuffle = ["a1a1", "a8a8", "a1a1", "a8a8", "a1a1", "a8a8", "a1a1"]
    for i, uci in enumerate(shuffle):
        losing, _ = immediate_results(board, [m for m in movegen.generate_legal(board)])
        assert losing == _judged(board)[0], i
        board.push_uci(uci)
    view = position_view(board)
    assert view["repetition_losing"] == _judged(board)[0] == ["a8a8"]


def test_p10_repetition_losing_moves_reach_the_game_json(client: TestClient) -> None:
    game_id, white, black = friend_game(client, "hordes", "k7/8/8/8/8/8/1B6/K7 w - - 0 1")
    tokens = [white, black]
    event: dict[str, Any] = {}
    for ply, uci in enumerate(["a1a1", "a8a8", "a1a1", "a8a8", "a1a1", "a8a8", "a1a1"]):
        r = client.post(
            f"/api/games/{game_id}/moves", json={"uci": uci, "token": tokens[ply % 2], "ply": ply}
        )
        assert r.status_code == 200, r.text
        event = r.json()
    assert event["repetition_losing"] == ["a8a8"]
    assert client.get(f"/api/games/{game_id}").json()["repetition_losing"] == ["a8a8"]


@pytest.mark.parametrize(
    "fen",
    [
        "3r4/4K3/8/8/8/k7/8/8 w - - 0 1",  # only the capture on d8 is safe
        "8/4K3/8/8/8/k7/8/8 w - - 0 1",  # three winning steps
        "8/8/8/8/3K4/8/4k3/8 b - - 0 1",  # Black's king, towards rank 1
        "4r3/3K4/8/8/8/8/8/1k6 w - - 0 1",  # over already (Black's king is in its camp): no moves
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",  # far from the camp
    ],
)
def test_p10_campmate_wins_are_the_rules_verdict(fen: str) -> None:
    board = Board("orda", fen) if "/pppp" not in fen else Board("orda")
    view = position_view(board)
    assert view["campmate_wins"] == (_judged(board)[1] if board.outcome() is None else {})


def test_p10_campmate_wins_in_orda() -> None:
    view = position_view(Board("orda", "8/4K3/8/8/8/k7/8/8 w - - 0 1"))
    assert {k: sorted(v) for k, v in view["campmate_wins"].items()} == {"e7": ["d8", "e8", "f8"]}
    assert position_view(Board("chess"))["campmate_wins"] == {}


def test_p10_a_capturer_that_changes_sides_is_reported() -> None:
    board = Board("hordes", "7k/8/8/4r3/8/8/8/K3R3 w - - 0 1")
    assert last_move(board) is None
    board.push_uci("e1e5")  # the Rook captures and becomes Black's (H5)
    facts = last_move(board)
    assert facts == {"capture": True, "changed_sides": {"square": "e5", "piece": "R", "color": "black"}}
    piece = board.piece_at(board.geometry.parse_square("e5"))
    assert piece is not None and piece.color is False
    # a King's capture keeps its owner, a quiet move captures nothing
    board = Board("hordes", "7k/8/8/8/8/8/1r6/K7 w - - 0 1")
    board.push_uci("a1b2")
    assert last_move(board) == {"capture": True, "changed_sides": None}
    board.push_uci("h8g8")
    assert last_move(board) == {"capture": False, "changed_sides": None}
    # a magnet pulling an enemy piece moves it without changing its side
    board = Board("hordes", "7k/R7/8/8/4b3/8/8/K3+R3 w - - 0 1")
    board.push_uci("e4e2")
    assert last_move(board) == {"capture": False, "changed_sides": None}


def test_p10_the_move_event_says_the_capturer_changed_sides(client: TestClient) -> None:
    game_id, white, _ = friend_game(client, "hordes", "7k/8/8/4r3/8/8/8/K3R3 w - - 0 1")
    r = client.post(f"/api/games/{game_id}/moves", json={"uci": "e1e5", "token": white, "ply": 0})
    assert r.status_code == 200, r.text
    assert r.json()["last_move_facts"]["changed_sides"] == {"square": "e5", "piece": "R", "color": "black"}


@pytest.mark.parametrize("slug", ["chess", "orda", "hordes"])
def test_p8_premove_movement_is_the_cores_pattern_on_an_empty_board(slug: str) -> None:
    """Walking `movement`'s steps on an empty board (as static/premove.js does) gives the squares the
    core's own patterns reach on an empty board, for every kind, colour and square."""
    variant = load_variant(slug)
    comp = compiled(variant)
    geo = variant.geometry
    data = movement(variant)
    for kind, piece in enumerate(variant.pieces):
        for side, color in ((0, "white"), (1, "black")):
            g = comp.gens[side][kind]
            for sq in range(geo.size):
                expected = _squares_of(geo, g.quiet.attacks(sq, 0) | g.capture.attacks(sq, 0))
                walked = set()
                f0, r0 = geo.file_of(sq), geo.rank_of(sq)
                for dx, dy, most, _moves, _captures in data["pieces"][piece.letter][color]:
                    f, r, n = f0 + dx, r0 + dy, 1
                    while geo.on_board(f, r) and (not most or n <= most):
                        walked.add(geo.square_name(geo.square(f, r)))
                        f, r, n = f + dx, r + dy, n + 1
                assert walked == expected, (slug, piece.letter, color, geo.square_name(sq))
    assert data["double_step"] == {
        "white": list(variant.rules.double_step_ranks[0]),
        "black": list(variant.rules.double_step_ranks[1]),
    }


def _squares_of(geo: Any, bb: int) -> set[str]:
    return {geo.square_name(s) for s in range(geo.size) if bb >> s & 1}
