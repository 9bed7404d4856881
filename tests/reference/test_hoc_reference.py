"""Tests of the Hordes of Change reference generator itself (rules H1-H19)."""

from __future__ import annotations

import random
import re
import time
from collections import Counter

import pytest

from tests.reference.hoc_cases import CASES, Case
from tests.reference.hoc_reference import (
    ROYAL_KINDS,
    START_FEN,
    Board,
    RefPosition,
    other,
    perft,
    pseudo_legal_moves,
)

VALID_CASES = [case for case in CASES if case.fen_valid]
INVALID_CASES = [case for case in CASES if not case.fen_valid]


def _case_id(case: Case) -> str:
    return f"{case.rule.lower()}_{case.name}"


# ----------------------------------------------------------------------------------------------- cases


def test_case_names_are_unique_and_snake_case() -> None:
    ids = [_case_id(case) for case in CASES]
    assert len(ids) == len(set(ids))
    for case in CASES:
        assert re.fullmatch(r"[a-z0-9_]+", case.name), case.name
        assert re.fullmatch(r"H([1-9]|1[0-9])", case.rule), case.rule


def test_every_rule_h1_to_h19_has_a_case() -> None:
    rules = Counter(case.rule for case in CASES)
    for number in range(1, 20):
        assert rules[f"H{number}"] >= 1, f"no case for H{number}"
    for rule in ("H5", "H8", "H9", "H12", "H15"):
        assert rules[rule] >= 2, f"want several cases for {rule}"


def test_the_six_rules_examples_are_cases() -> None:
    names = {case.name for case in CASES}
    for name in (
        "example_rook_beside_enemy_rook_magnet_cannot_move_away",
        "example_bishop_beside_enemy_rook_magnet_cannot_move_diagonally_away",
        "example_rook_diagonal_to_enemy_bishop_magnet_cannot_move_north_or_east",
        "example_bishop_diagonal_to_enemy_bishop_magnet_cannot_move_straight_away",
        "example_rook_magnet_pulls_black_king",
        "example_capture_illegal_when_changed_rook_attacks_own_king",
    ):
        assert name in names


@pytest.mark.parametrize("case", VALID_CASES, ids=_case_id)
def test_case(case: Case) -> None:
    pos = RefPosition.from_fen(case.fen)
    assert pos.fen() == case.fen, "case FENs are written canonically"
    for uci in case.moves:
        pos.push(uci)
    moves = pos.legal_moves()
    assert case.legal <= moves, f"missing legal moves: {sorted(case.legal - moves)}"
    assert not case.illegal & moves, f"illegal moves generated: {sorted(case.illegal & moves)}"
    if case.exact:
        assert moves == case.legal, f"extra moves: {sorted(moves - case.legal)}"
    if case.check is not None:
        assert pos.is_check() == case.check
    if case.outcome == "ongoing":
        assert pos.outcome() is None
    elif case.outcome is not None:
        assert pos.outcome() == case.outcome
    before = pos.fen()
    for uci, expected in case.after:
        pos.push(uci)
        assert pos.fen() == expected, uci
        pos.pop()
        assert pos.fen() == before


@pytest.mark.parametrize("case", INVALID_CASES, ids=_case_id)
def test_invalid_fen_case(case: Case) -> None:
    with pytest.raises(ValueError):
        RefPosition.from_fen(case.fen)


# ----------------------------------------------------------------------------------------------- FEN


def test_h2_start_piece_counts() -> None:
    pos = RefPosition.from_fen(START_FEN)
    counts = Counter((piece.color, piece.kind) for piece in pos.board if piece is not None)
    for color in ("white", "black"):
        assert counts[(color, "K")] == 2
        assert counts[(color, "R")] == 10
        assert counts[(color, "B")] == 12
    assert sum(counts.values()) == 48
    # H2: each army fills its own first three ranks.
    for sq, piece in enumerate(pos.board):
        rank = sq // 8
        if rank < 3:
            assert piece is not None and piece.color == "white"
        elif rank > 4:
            assert piece is not None and piece.color == "black"
        else:
            assert piece is None


def test_h3_start_bishops_split_and_black_mirrors_white() -> None:
    pos = RefPosition.from_fen(START_FEN)
    for color in ("white", "black"):
        light = sum(
            1
            for sq, p in enumerate(pos.board)
            if p is not None and p.color == color and p.kind == "B" and (sq % 8 + sq // 8) % 2 == 1
        )
        assert light == 6
    for sq, piece in enumerate(pos.board):
        mirror = pos.board[(7 - sq // 8) * 8 + sq % 8]
        assert (piece is None) == (mirror is None)
        if piece is not None and mirror is not None:
            assert piece.kind == mirror.kind and piece.color != mirror.color
    assert pos.turn == "white"


def test_start_fen_round_trip() -> None:
    assert RefPosition.from_fen(START_FEN).fen() == START_FEN


@pytest.mark.parametrize(
    "fen",
    [
        "",
        "7k/8/8/8/8/8/8/K7",
        "7k/8/8/8/8/8/K7 w - - 0 1",
        "7k/8/8/8/8/8/8/K8 w - - 0 1",
        "7k/8/8/8/8/8/8/K6 w - - 0 1",
        "7k/8/8/8/8/8/8/Q6K w - - 0 1",
        "7k/8/8/8/8/8/8/K6+ w - - 0 1",
        "7k/8/8/8/8/8/8/K6+N w - - 0 1",
        "7k/8/8/8/8/8/8/K7 x - - 0 1",
        "7k/8/8/8/8/8/8/K7 w - e3 0 1",
        "7k/8/8/8/8/8/8/K7 w - - x 1",
        "7k/8/8/8/8/8/8/K7 w - - 0 0",
        "8/8/8/8/8/8/8/8 w - - 0 1",
    ],
)
def test_bad_fen_raises_value_error(fen: str) -> None:
    with pytest.raises(ValueError):
        RefPosition.from_fen(fen)


def test_four_field_fen_gets_default_clocks() -> None:
    assert RefPosition.from_fen("7k/8/8/8/8/8/8/K7 b - -").fen() == "7k/8/8/8/8/8/8/K7 b - - 0 1"


def test_push_illegal_raises_and_pop_empty_raises() -> None:
    pos = RefPosition.from_fen(START_FEN)
    for uci in ("a1a2", "b3b7", "e9e9", "", "a6b5"):
        with pytest.raises(ValueError):
            pos.push(uci)
    assert pos.fen() == START_FEN
    with pytest.raises(IndexError):
        pos.pop()


# ----------------------------------------------------------------------------------------------- perft

START_PERFT = {1: 52, 2: 2686, 3: 143086}


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_start_perft(depth: int) -> None:
    pos = RefPosition.from_fen(START_FEN)
    begin = time.perf_counter()
    nodes = perft(pos, depth)
    print(f"reference perft({depth}) of the start position = {nodes} ({time.perf_counter() - begin:.2f} s)")
    assert nodes == START_PERFT[depth]
    assert pos.fen() == START_FEN


# ----------------------------------------------------------------------------------------------- random games


def _play_random_game(seed: int, ply_cap: int) -> tuple[RefPosition, list[str]]:
    rng = random.Random(seed)
    pos = RefPosition.from_fen(START_FEN)
    fens = [pos.fen()]
    while len(fens) <= ply_cap and pos.outcome() is None:
        moves = sorted(pos.legal_moves())
        assert moves, "a position without legal moves must have an outcome"
        before = pos.fen()
        before_moves = pos.legal_moves()
        # push/pop of every tenth move restores the position exactly.
        for uci in moves[::10]:
            pos.push(uci)
            pos.pop()
            assert pos.fen() == before
        assert pos.legal_moves() == before_moves
        pos.push(rng.choice(moves))
        fens.append(pos.fen())
    return pos, fens


@pytest.mark.parametrize("seed", range(4))
def test_random_game(seed: int) -> None:
    pos, fens = _play_random_game(seed, ply_cap=120)
    outcome = pos.outcome()
    print(f"seed {seed}: {len(fens) - 1} plies, outcome {outcome}")
    if outcome is not None:
        assert outcome[0] in ("white", "black")
        assert outcome[1] in ("repetition", "no_legal_moves")
    # FEN round trip of the positions reached, and the same moves from the re-read position.
    for fen in fens[::7]:
        again = RefPosition.from_fen(fen)
        assert again.fen() == fen
    last = RefPosition.from_fen(pos.fen())
    assert last.legal_moves() == pos.legal_moves()
    assert last.is_check() == pos.is_check()
    # Unwinding the whole game gives back every FEN on the way.
    for fen in reversed(fens):
        assert pos.fen() == fen
        if fen != fens[0]:
            pos.pop()
    assert pos.fen() == START_FEN


def test_random_games_reach_some_game_ends() -> None:
    """Games from a simple position with few pieces end quickly; check the end states are consistent."""
    ends: Counter[str] = Counter()
    for seed in range(30):
        rng = random.Random(1000 + seed)
        pos = RefPosition.from_fen("3k4/1r4b1/8/8/8/8/1R4B1/3K4 w - - 0 1")
        plies = 0
        while pos.outcome() is None and plies < 200:
            pos.push(rng.choice(sorted(pos.legal_moves())))
            plies += 1
        outcome = pos.outcome()
        if outcome is None:
            ends["ply_cap"] += 1
            continue
        ends[outcome[1]] += 1
        if outcome[1] == "no_legal_moves":
            assert not pos.legal_moves()
            assert outcome[0] != pos.turn
    print(dict(ends))
    assert sum(ends.values()) == 30


# ----------------------------------------------------------------------------------------------- cross-checks


def _sample_positions(seeds: range, plies: int, every: int) -> list[str]:
    fens: list[str] = []
    for seed in seeds:
        rng = random.Random(seed)
        pos = RefPosition.from_fen(START_FEN)
        for ply in range(plies):
            if pos.outcome() is not None:
                break
            if ply % every == 0:
                fens.append(pos.fen())
            pos.push(rng.choice(sorted(pos.legal_moves())))
    return fens


def _royal_count(board: Board, color: str) -> int:
    return sum(1 for p in board if p is not None and p.color == color and p.kind in ROYAL_KINDS)


@pytest.mark.parametrize("fen", _sample_positions(range(100, 102), plies=90, every=15))
def test_h12_legality_by_brute_force(fen: str) -> None:
    """A move is legal iff no opponent reply (from the move generator itself) takes a royal of the mover.

    This checks the attack test used by H12 against the move generator: two separate code paths.
    """
    pos = RefPosition.from_fen(fen)
    mover = pos.turn
    legal = pos.legal_moves()
    expected: set[str] = set()
    for uci, board, _capture in pseudo_legal_moves(pos.board, mover):
        royals = _royal_count(board, mover)
        replies = pseudo_legal_moves(board, other(mover))
        if all(_royal_count(reply, mover) == royals for _, reply, _ in replies):
            expected.add(uci)
    assert legal == expected


def _mirror_fen(fen: str) -> str:
    """Swap colours and flip the board vertically (rank 1 <-> rank 8)."""
    placement, side, *rest = fen.split()
    rows = [row.swapcase() for row in reversed(placement.split("/"))]
    return " ".join(["/".join(rows), "b" if side == "w" else "w", *rest])


def _mirror_uci(uci: str) -> str:
    return "".join(ch if ch.isalpha() else str(9 - int(ch)) for ch in uci)


@pytest.mark.parametrize("fen", _sample_positions(range(200, 203), plies=100, every=10))
def test_colour_mirror_symmetry(fen: str) -> None:
    pos = RefPosition.from_fen(fen)
    mirrored = RefPosition.from_fen(_mirror_fen(fen))
    assert mirrored.legal_moves() == {_mirror_uci(uci) for uci in pos.legal_moves()}
    assert mirrored.is_check() == pos.is_check()
