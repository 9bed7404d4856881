"""Issue 13 point 8: a game read while moves are being made is one snapshot, never two plies mixed."""

from __future__ import annotations

import random
import sys
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from hordes import Board, load_variant
from hordes.web.positions import color_name, position_view
from tests.web.conftest import friend_game

PLIES = 40  # moves made in each game while the readers read
READS = 120  # reads by each reader thread


@pytest.fixture
def busy_switching() -> Iterator[None]:
    """Threads switch as often as the interpreter can: a race shows up in a few hundred reads."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(old)


def random_line(variant: str, plies: int, seed: int) -> list[str]:
    board = Board(load_variant(variant))
    rng = random.Random(seed)
    line = []
    for _ in range(plies):
        moves = [m for m in board.legal_moves]
        if not moves or board.outcome() is not None:
            break
        move = rng.choice(moves)
        line.append(board.uci(move))
        board.push(move)
    return line


def mismatches(read: dict[str, Any]) -> list[str]:
    """What in one read disagrees with the rest of it (empty when it is one snapshot)."""
    wrong = []
    moves = read["moves"]
    if read["ply"] != len(moves):
        wrong.append(f"ply {read['ply']} with {len(moves)} moves")
    last_fen = moves[-1]["fen"] if moves else read["start_fen"]
    if read["fen"] != last_fen:
        wrong.append(f"fen {read['fen']} after a move list ending in {last_fen}")
    board = Board(load_variant(read["variant"]["slug"]), read["start_fen"])
    for m in moves:
        board.push_uci(m["uci"])
    if read["turn"] != color_name(board.turn):
        wrong.append(f"{read['turn']} to move after {len(moves)} moves")
    if read["dests"] != position_view(board)["dests"]:
        wrong.append(f"legal moves of another position than the one after {len(moves)} moves")
    if moves and read["last_move"] != [moves[-1]["uci"][:2], moves[-1]["uci"][2:4]]:
        wrong.append(f"last move {read['last_move']} but the list ends in {moves[-1]['uci']}")
    return wrong


def test_snapshot_agrees_with_itself(client: TestClient, busy_switching: None) -> None:
    service = client.app.state.games  # type: ignore[attr-defined]
    games = [friend_game(client) for _ in range(2)]
    lines = [random_line("chess", PLIES, seed) for seed in range(len(games))]
    reads: list[dict[str, Any]] = []
    errors: list[BaseException] = []

    def writer(game: tuple[str, str, str], line: list[str]) -> None:
        game_id, white, black = game
        try:
            for i, uci in enumerate(line):
                service.move(game_id, white if i % 2 == 0 else black, uci)
        except BaseException as exc:  # reported below: a failing writer must fail the test
            errors.append(exc)

    def reader(n: int) -> None:
        try:
            for i in range(READS):
                game_id = games[i % len(games)][0]
                if n % 2:  # half the readers through the API, half through the service
                    r = client.get(f"/api/games/{game_id}")
                    assert r.status_code == 200, r.text
                    reads.append(r.json())
                else:
                    reads.append(service.state(game_id))
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(g, line)) for g, line in zip(games, lines, strict=True)]
    threads += [threading.Thread(target=reader, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors, errors
    assert len(reads) == 4 * READS
    bad = [(r["ply"], wrong) for r in reads if (wrong := mismatches(r))]
    assert bad == [], f"{len(bad)} of {len(reads)} reads mixed two plies: {bad[:3]}"
    # the games did go on while they were read
    for (game_id, _, _), line in zip(games, lines, strict=True):
        assert service.state(game_id)["ply"] == len(line)
