"""The search's fast core calls equal their slow definitions, in every built-in variant:
generate_legal_captures is generate_legal filtered by is_noisy, has_legal_move (and, out of check,
has_move_not_in_check) is bool(generate_legal),
gives_check is push + in_check + pop, and push_null/pop_null restore the position and its hash."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hordes import Board
from hordes.core import movegen

VARIANTS = ["chess", "orda", "khans", "hordes", "andernach"]
TACTICS = Path(__file__).parent / "engine" / "data"

# Positions random play rarely reaches: stalemates, en passant that would expose the king,
# discovered and double checks, promotions with check, castling through attacks, campmate steps.
SPECIAL = [
    ("chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"),
    ("chess", "k7/P7/K7/8/8/8/8/8 b - - 0 1"),
    ("chess", "k7/1pQ5/8/1N6/4B3/8/8/K7 b - - 0 1"),  # stalemate: the only pawn move breaks a pin
    ("chess", "8/8/3k4/8/2pP4/8/8/K1B5 b - d3 0 1"),
    ("chess", "8/8/8/K1pP3r/8/8/8/7k w - c6 0 1"),
    ("chess", "4k3/8/8/8/8/4N3/8/4R1K1 w - - 0 1"),
    ("chess", "4k3/8/8/8/7b/8/5N2/4K2R w - - 0 1"),
    ("chess", "3k4/1P6/8/8/8/8/8/4K2R w K - 0 1"),
    ("chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"),
    ("chess", "r3k2r/8/8/8/8/5q2/8/R3K2R w KQkq - 0 1"),
    ("chess", "5k2/8/8/8/8/8/8/4K2R w K - 0 1"),
    ("chess", "4k3/4r3/8/8/8/8/3P4/4K3 w - - 0 1"),
    ("chess", "kb4R1/7Q/8/8/8/8/4K3/8 b - - 0 1"),  # stalemate: the bishop is pinned along a rank
    ("chess", "7k/5Q2/8/7b/8/8/8/1K5R b - - 0 1"),  # stalemate: the bishop is pinned along a file
    ("orda", "8/3ay3/1p1k4/p2pl1pQ/4h2P/2P5/PP2P3/1R2KB1R b K - 2 32"),
    ("orda", "8/3a4/1p1ky1Q1/3p2P1/pK6/1PP5/P3P3/5l2 b - - 0 41"),
    ("orda", "4k3/8/8/8/8/8/1K6/8 w - - 0 1"),
]


def _tactics() -> list[tuple[str, str]]:
    out = []
    for path in sorted(TACTICS.glob("tactics_*.txt")):
        variant = path.stem.removeprefix("tactics_")
        for line in path.read_text().splitlines():
            if line.startswith("# variant:"):  # a file named after its theme, not its variant
                variant = line.split(":", 1)[1].strip()
            if line.strip() and not line.startswith("#"):
                out.append((variant, line.split("|")[0].strip()))
    return out


def _check_position(board: Board) -> None:
    fen, h = board.fen(), board.zobrist_hash()
    legal = movegen.generate_legal(board)
    captures = movegen.generate_legal_captures(board)
    assert len(captures) == len(set(captures)), board.fen()
    assert set(captures) == {m for m in legal if movegen.is_noisy(board, m)}, board.fen()
    assert movegen.has_legal_move(board) == bool(legal), board.fen()
    if not movegen.in_check(board, board.side) and not movegen.campmate_reached(board):
        unchecked = movegen.captures_not_in_check(board)
        assert sorted(unchecked) == sorted(captures), board.fen()
        assert movegen.has_move_not_in_check(board) == bool(legal), board.fen()
    mover = board.side
    bound = movegen.gives_check_fn(board)
    for m in legal:
        board.push_int(m)
        expected = movegen.in_check(board, mover ^ 1)
        board.pop_int()
        assert movegen.gives_check(board, m) == expected, (board.fen(), board.uci(board.int_to_move(m)))
        assert bound(m) == expected, (board.fen(), board.uci(board.int_to_move(m)))
    assert board.fen() == fen and board.zobrist_hash() == h


def _check_null(board: Board) -> None:
    fen, h, reps = board.fen(), board.zobrist_hash(), board.repetitions()
    stack = board.move_stack
    board.push_null()
    assert board.turn != Board(board.variant, fen).turn
    if not movegen.in_check(board, board.side ^ 1):
        # The hash after passing is the hash of the position set up from scratch.
        assert board.zobrist_hash() == Board(board.variant, board.fen()).zobrist_hash()
    assert board.repetitions() == 1
    board.pop_null()
    assert (board.fen(), board.zobrist_hash(), board.repetitions()) == (fen, h, reps)
    assert board.move_stack == stack


def _walk(variant: str, seed: int, plies: int) -> list[Board]:
    """Boards along a random game, preferring captures and checks (what quiescence meets)."""
    rng = random.Random(seed)
    board = Board(variant)
    out = []
    for _ in range(plies):
        moves = movegen.generate_legal(board)
        if not moves or board.outcome() is not None:
            break
        out.append(board.copy())
        noisy = movegen.generate_legal_captures(board)
        board.push_int(rng.choice(noisy if noisy and rng.random() < 0.5 else moves))
    out.append(board)
    return out


@pytest.mark.parametrize(("variant", "fen"), SPECIAL + _tactics())
def test_fast_calls_on_special_and_tactical_positions(variant: str, fen: str) -> None:
    board = Board(variant, fen)
    _check_position(board)
    _check_null(board)


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(min_value=0, max_value=10**6))
def test_fast_calls_along_random_games(variant: str, seed: int) -> None:
    for board in _walk(variant, seed, 80 if variant != "hordes" else 30):
        _check_position(board)


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(min_value=0, max_value=10**6))
def test_null_move_restores_position_and_hash(variant: str, seed: int) -> None:
    boards = _walk(variant, seed, 40)
    board = boards[len(boards) // 2]
    _check_null(board)
    # A null move in the middle of a line: moves after it are taken back first.
    moves = movegen.generate_legal(board)
    board.push_null()
    reply = movegen.generate_legal(board)
    if reply:
        board.push_int(reply[0])
        board.pop_int()
    board.pop_null()
    assert movegen.generate_legal(board) == moves


def test_a_pass_resets_the_reversible_count_and_clears_en_passant() -> None:
    board = Board("chess", "4k3/8/8/8/2pP4/8/8/4K3 b - d3 0 1")
    assert board.ep_square >= 0
    board.push_null()
    assert board.ep_square == -1 and board.halfmove == 0
    assert board.zobrist_hash() == Board("chess", "4k3/8/8/8/2pP4/8/8/4K3 w - - 0 1").zobrist_hash()
    board.pop_null()
    assert board.fen() == "4k3/8/8/8/2pP4/8/8/4K3 b - d3 0 1"


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(min_value=0, max_value=10**6))
def test_per_node_evaluation_terms_equal_the_generic_ones(variant: str, seed: int) -> None:
    """The search's `node_extras` (straight-line shelter and danger where those are the only per-node
    terms) scores every position and phase exactly as `Evaluator.extras`, and `node_static` (the
    whole score in one call) exactly as tapered + extras, signed, plus tempo (= `evaluate`)."""
    from hordes.engine.evaluate import BITS, evaluator, unpack

    rng = random.Random(seed)
    for board in _walk(variant, seed, 40):
        ev = evaluator(board.variant)
        packed = ev.packed(board)
        # The position's own phase, and phases across the middlegame-endgame blend.
        for ph in (None, ev.phase_lo, ev.phase_hi, rng.randint(ev.phase_lo - 50, ev.phase_hi + 50)):
            p = packed if ph is None else packed + ((ph - unpack(packed)[0]) << 2 * BITS)
            assert ev.node_extras(board, p) == ev.extras(board, p), board.fen()
            if ev.node_static is not None:
                white = ev.tapered(p) + ev.extras(board, p)
                expected = (white if board.side == 0 else -white) + ev.tempo
                assert ev.node_static(board, p) == expected, board.fen()
        if ev.node_static is not None:
            assert ev.node_static(board, packed) == ev.evaluate(board), board.fen()


@pytest.mark.parametrize(
    ("variant", "fen"),
    [
        ("chess", "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1"),
        ("chess", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"),
        ("chess", "4k3/8/8/8/8/8/8/R3K3 b - - 90 1"),  # the count reaches back before the first position
        ("orda", "4k3/8/8/8/8/8/1K6/8 w - - 0 1"),
        ("hordes", "k5r1/8/8/8/8/n7/7r/K7 b - - 0 1"),
    ],
)
def test_repetitions_counts_earlier_equal_positions(variant: str, fen: str | None) -> None:
    """Board.repetitions() (a slice of the hash history) equals a count of equal FEN position fields
    since the last irreversible move, over random games with long reversible stretches."""
    rng = random.Random(7)
    repeated = 0
    for _ in range(6):
        board = Board(variant, fen) if fen else Board(variant)
        seen: list[tuple[str, int]] = []  # (position fields, ply) since the setup
        for ply in range(160):
            moves = movegen.generate_legal(board)
            if not moves:
                break
            board.push_int(rng.choice(sorted(moves)))
            fields = " ".join(board.fen().split()[:4])
            seen.append((fields, ply))
            first = ply - board.halfmove
            expected = sum(1 for f, p in seen if f == fields and p >= first)
            assert board.repetitions() == expected, board.fen()
            repeated += expected > 1
    assert repeated > 0  # the sample does reach repeated positions


@pytest.mark.parametrize("variant", [*VARIANTS, "capablanca", "tencubed"])
def test_p17_native_target_loop_gives_the_same_moves(variant: str) -> None:
    """The compiled build hands each piece's targets to fastgen.emit_targets, which splits a bitboard
    at bit 62 to loop on machine words; the interpreted generator loops inline. Both give the same
    moves in the same order, on squares past bit 62 too (Capablanca's 10x8 board has 80, Tencubed's 100)."""
    from hordes.core.fastgen import build_piece_moves

    rng = random.Random(17)
    board = Board(variant)
    comp = board.compiled
    shapes = [
        (us, noisy, unpinned)
        for us in (0, 1)
        for noisy, unpinned in ((False, False), (True, False), (True, True))
    ]
    gens = {
        (*shape, call): build_piece_moves(comp, *shape, call_targets=call)
        for shape in shapes
        for call in (False, True)
    }
    for _ in range(60):
        moves = movegen.generate_legal(board)
        if not moves:
            break
        us = board.side
        occ = board.occ
        for shape in shapes:
            if shape[0] != us:
                continue
            out = []
            for call in (False, True):
                got: list[int] = []
                gens[(*shape, call)](board.kind_bb, occ[us], occ[us ^ 1], -1, 0, {}, got)
                out.append(got)
            assert out[0] == out[1]
        board.push_int(rng.choice(moves))
