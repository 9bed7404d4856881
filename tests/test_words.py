"""The generator on 64-bit words (hordes.core.words) gives the moves of fastgen's generated code, in
the same order, in every variant whose board it serves (the full generator, quiescence's, and its
shortcut for a side not in check); its attack test and gives_check agree with the generated test and
with making the move; its word helpers are right at bit 63.

Both generators run in either build: the words one is built here even where movegen would not use
it (the pure build), and fastgen's is what movegen uses once a variant's `words` is None.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from hordes import Board, build_kind
from hordes.core import movegen, words
from hordes.core.compiled import Compiled
from hordes.core.rules import Variant
from hordes.variants import builtin_variants, example_variants, fairy_variants
from tests.test_movegen_fast import SPECIAL

TOP = 1 << 63
FULL = (1 << 64) - 1


ALL = {v.slug: v for v in [*builtin_variants(), *fairy_variants(), *example_variants()]}
SERVED = sorted(slug for slug, v in ALL.items() if words.build_words(Board(v).compiled) is not None)


@contextmanager
def _using(comp: Compiled, table: words.Words | None) -> Iterator[None]:
    saved = comp.words
    comp.words = table
    try:
        yield
    finally:
        comp.words = saved


def _generators(board: Board) -> list[list[int]]:
    """The full generator, quiescence's, and (out of check, before a campmate) quiescence's shortcut."""
    out = [movegen.generate_legal(board), movegen.generate_legal_captures(board)]
    comp = board.compiled
    if not movegen.in_check(board, board.side) and not (comp.camp_kinds and movegen.campmate_reached(board)):
        out.append(movegen.captures_not_in_check(board))
    return out


def _attack_tests_agree(board: Board, table: words.Words) -> None:
    """The attack test on words against fastgen's generated one, on every square, for both sides;
    gives_check on words against making the move and looking."""
    comp = board.compiled
    occupied = board.occ[0] | board.occ[1]
    for color in (0, 1):
        theirs = board.occ[color]
        for sq in range(comp.size):
            expected = comp.attacked[color](board.kind_bb, theirs, sq, occupied)
            assert words.attacked(table, board.kind_bb, theirs, color, sq, occupied) == expected, (
                board.fen(),
                sq,
            )
    with _using(comp, table):
        gives = movegen.gives_check_fn(board)
        for m in movegen.generate_legal(board):
            board.push_int(m)
            expected = movegen.in_check(board, board.side)
            board.pop_int()
            assert gives(m) == expected, (board.fen(), board.int_to_move(m).uci())


def _both(board: Board, table: words.Words) -> tuple[list[list[int]], list[list[int]]]:
    comp = board.compiled
    with _using(comp, table):
        by_words = _generators(board)
    with _using(comp, None):
        by_fastgen = _generators(board)
    return by_words, by_fastgen


def test_the_word_helpers_keep_every_bit() -> None:
    rng = random.Random(5)
    samples = [0, 1, TOP, FULL, TOP | 1, (1 << 62) | TOP, 1 << 62, (1 << 62) - 1]
    samples += [rng.getrandbits(64) for _ in range(200)]
    samples += [rng.getrandbits(k) | 1 << (k - 1) for k in range(1, 65) for _ in range(3)]  # every top bit
    for bb in samples:
        w = words.word(bb)
        assert -(1 << 63) <= w < 1 << 63
        assert words.bitboard(w) == bb
        if bb:
            assert words.low_square(w) == (bb & -bb).bit_length() - 1
            assert words.top_square(w) == bb.bit_length() - 1
            assert words.bitboard(words.drop_low(w)) == bb & (bb - 1)
        assert words.popcount(w) == bb.bit_count()
    assert words.word(-1) == -1  # "every square", as movegen writes it


def test_the_served_variants_are_the_simple_ones_of_at_most_64_squares() -> None:
    assert {"chess", "orda", "khans"} <= set(SERVED)
    for slug, variant in ALL.items():
        comp = Board(variant).compiled
        expected = comp.size <= 64 and comp.simple and comp.royal_kind >= 0
        assert (slug in SERVED) == expected, slug
    assert "hordes" not in SERVED  # magnets and shape-shifting: made and tested by movegen
    assert any(ALL[s].geometry.size < 64 for s in SERVED)  # smaller boards too
    assert any(ALL[s].geometry.size > 64 for s in ALL)  # and bigger ones left to fastgen


def test_the_compiled_build_generates_on_words_and_the_pure_one_with_fastgen() -> None:
    """A silent fallback to fastgen in the compiled build would keep every other test green (and
    tests/test_build.py checks which build is loaded)."""
    compiled = build_kind() == "compiled"
    assert words.use_words() == compiled
    for name in ("chess", "orda", "khans"):
        assert (Board(name).compiled.words is not None) == compiled


@pytest.mark.parametrize("name", SERVED)
def test_words_and_fastgen_give_the_same_moves_in_random_games(name: str) -> None:
    rng = random.Random(name)
    variant: Variant = ALL[name]
    table = words.build_words(Board(variant).compiled)
    assert table is not None
    for _ in range(6):
        board = Board(variant)
        for _ply in range(120):
            by_words, by_fastgen = _both(board, table)
            assert by_words == by_fastgen, board.fen()
            if _ply % 10 == 0:
                _attack_tests_agree(board, table)
            if not by_words[0]:
                break
            board.push_int(rng.choice(by_words[0]))


PERFT_POSITIONS = [
    ("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    ("chess", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
    ("chess", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"),
    ("chess", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"),
    ("orda", "l1a1ka1l/3h1h2/p1ppyp1p/1p2p1p1/3PP3/2N2N2/PPP1BPPP/R1BQK2R w KQ - 0 8"),
    ("orda", "2a1k2l/3h4/p2p1p2/1p2p1p1/3PP1y1/2N5/PPP2PPP/R3K2R w KQ - 0 14"),
    ("khans", "lhatkahl/ssssssss/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1"),
    *SPECIAL,
]


@pytest.mark.parametrize(("name", "fen"), PERFT_POSITIONS)
def test_words_and_fastgen_agree_two_plies_deep(name: str, fen: str) -> None:
    """Pins, checks, promotions, en passant and castling from positions chosen for them."""
    board = Board(name, fen)
    table = words.build_words(board.compiled)
    assert table is not None
    by_words, by_fastgen = _both(board, table)
    assert by_words == by_fastgen, fen
    _attack_tests_agree(board, table)
    for m in by_words[0]:
        board.push_int(m)
        below_words, below_fastgen = _both(board, table)
        assert below_words == below_fastgen, (fen, board.fen())
        board.pop_int()


def test_a_call_that_finds_the_scratch_in_use_takes_its_own() -> None:
    """All Boards of a variant share its tables; a call made while another thread's is under way
    must neither clobber that call's scratch nor read from it."""
    board = Board("chess", PERFT_POSITIONS[0][1])
    comp = board.compiled
    table = words.build_words(comp)
    assert table is not None
    with _using(comp, table):
        expected = _generators(board)
        for i in range(len(table.scratch)):
            table.scratch[i] = -7  # what the other call would be in the middle of
        table.loaded = [-7] * len(board.kind_bb)  # that call's Board's kinds, whose words it loaded
        table.busy = True  # as if another thread were inside legal_moves
        assert _generators(board) == expected
        assert table.busy and set(table.scratch) == {-7}
        table.busy = False
        assert _generators(board) == expected
        assert not table.busy


def test_boards_that_share_the_tables_take_turns() -> None:
    """The tables keep the words of the last kinds and occupancy lists they converted, by identity.
    Two Boards of one variant calling in turn, each pushing and popping, must never read the other's
    (or an earlier position's) words: every answer equals fastgen's, and gives_check equals making
    the move and looking."""
    first = Board("chess", PERFT_POSITIONS[0][1])
    second = Board("chess", PERFT_POSITIONS[2][1])
    table = words.build_words(first.compiled)
    assert table is not None
    comp = first.compiled
    assert second.compiled is comp
    rng = random.Random(7)
    with _using(comp, table):
        gives = {id(b): movegen.gives_check_fn(b) for b in (first, second)}
        for step in range(60):
            board = first if step % 2 else second
            by_words = _generators(board)
            with _using(comp, None):
                assert by_words == _generators(board), board.fen()
            for m in by_words[0]:
                board.push_int(m)
                looked = movegen.in_check(board, board.side)
                board.pop_int()
                assert gives[id(board)](m) == looked, (board.fen(), board.uci(board.int_to_move(m)))
            if not by_words[0] or (step % 7 == 3 and board.moves_played()):
                board.pop_int()
            else:
                board.push_int(rng.choice(by_words[0]))
