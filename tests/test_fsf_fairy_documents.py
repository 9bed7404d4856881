"""Issue 16 point 6: Fairy-Stockfish's built-in variants that hordes ships as documents
(src/hordes/variants/fairy), checked against pyffish's built-in of the same name."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import pyffish
import pytest

from hordes import WHITE, Board
from hordes.cli import main
from hordes.fsf.importer import _Resolver, builtin_names
from hordes.uci import UciEngine
from hordes.variants import REGISTRY, builtin_variants, fairy_variants, load_variant
from tests.pyffish_perft import compare_perft, fsf_perft

ROOT = Path(__file__).resolve().parent.parent
FAIRY = sorted(p.stem for p in REGISTRY.fairy_paths())


def test_p6_ships_at_least_twenty_fairy_stockfish_variants() -> None:
    known = set(pyffish.variants())
    assert len(FAIRY) >= 20
    assert set(FAIRY) <= known, "every shipped document has a Fairy-Stockfish name"
    assert load_variant("normal").slug == "chess"  # Fairy-Stockfish's second name for chess


@pytest.mark.parametrize("name", FAIRY)
def test_p6_fairy_document_perft_matches_pyffish(name: str) -> None:
    board = Board(name)
    assert board.fen().split()[:4] == pyffish.start_fen(name).split()[:4]
    for what, ours, theirs in compare_perft(pyffish, name, board):
        assert ours == theirs, f"{name}: {what}: hordes {ours}, pyffish {theirs}"


def test_p6_builtin_definitions_give_pyffish_start_positions() -> None:
    """Each of the 121 built-ins, as builtins.ini describes it, starts where pyffish starts: a check
    that the definitions the importer inherits from are Fairy-Stockfish's own."""
    # pyffish lists 121 in a fresh process; sections loaded by other tests add to its list
    assert len(builtin_names()) == 121 and set(builtin_names()) <= set(pyffish.variants())
    resolver = _Resolver([])
    for name in builtin_names():
        rules, _ = resolver.rules(name, builtin=True)
        ours = rules.start_fen.split()
        theirs = pyffish.start_fen(name).split()
        assert ours[0] == theirs[0], name
        assert (rules.max_file, rules.max_rank) == _board_size(theirs[0]), name


def _board_size(placement: str) -> tuple[int, int]:
    ranks = placement.split("[")[0].split("/")
    width = 0
    number = ""
    for ch in ranks[0] + " ":
        if ch.isdigit():
            number += ch
            continue
        width += int(number) if number else 0
        number = ""
        width += ch.isalpha() or ch == "*"
    return width, len(ranks)


def test_p6_fairy_documents_load_by_name_everywhere(capsys: pytest.CaptureFixture[str]) -> None:
    assert Board("shatranj" if "shatranj" in FAIRY else "amazon").variant.slug in FAIRY
    assert load_variant("Capablanca Chess").slug == "capablanca"  # by title too
    assert main(["perft", "gardner", "2"]) == 0
    assert "perft 2: 53 " in capsys.readouterr().out
    out = io.StringIO()
    engine = UciEngine(out)
    engine.handle("setoption name UCI_Variant value knightmate")
    assert engine.variant.slug == "knightmate"
    # listed apart from the built-ins, so that the suites over every built-in do not grow
    assert {v.slug for v in fairy_variants()} == set(FAIRY)
    assert not {v.slug for v in builtin_variants()} & set(FAIRY)


def test_p6_coverage_tool_output_is_up_to_date() -> None:
    """The shipped documents and docs/fairy-stockfish.md are what tools/fsf_coverage.py writes."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "fsf_coverage.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"},
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


CASTLING = [name for name in FAIRY if load_variant(name).rules.castling]


def _cleared_back_ranks(board: Board) -> str:
    """The starting position with every piece but the royal one and the rooks taken off both back
    ranks, so that both sides may castle at once."""
    keep = {p.letter for p in board.variant.pieces if p.royal} | {"R"}
    placement, *fields = board.fen().split()
    ranks = placement.split("/")
    for i in (0, len(ranks) - 1):
        squares = "".join("." * int(n) if n.isdigit() else n for n in re.findall(r"\d+|.", ranks[i]))
        kept = "".join(ch if ch.upper() in keep else "." for ch in squares)
        ranks[i] = re.sub(r"\.+", lambda m: str(len(m.group())), kept)
    return " ".join(["/".join(ranks), *fields])


@pytest.mark.parametrize("name", CASTLING)
def test_p6_fairy_document_castling_matches_pyffish(name: str) -> None:
    """From the start with the back ranks cleared, castling both ways (on the variant's own files)
    is legal: the moves agree as sets, and perft 2 agrees (the rook's landing square included)."""
    fen = _cleared_back_ranks(Board(name))
    board = Board(name, fen)
    ours = sorted(m.uci() for m in board.legal_moves)
    theirs = sorted(pyffish.legal_moves(name, fen, []))
    assert ours == theirs, f"{name}: {set(ours) ^ set(theirs)}"
    assert board.perft(2) == fsf_perft(pyffish, name, fen, [], 2)


def test_p6_king_of_the_hill_centre_wins_as_in_pyffish() -> None:
    """The campmate rule by squares: a king that reaches d4, e4, d5 or e5 wins at once."""
    fen = "8/8/8/8/8/3K4/8/7k w - - 0 1"
    board = Board("kingofthehill", fen)
    assert board.perft(2) == fsf_perft(pyffish, "kingofthehill", fen, [], 2)
    for move, wins in (("d3d4", True), ("d3c4", False)):
        board.push_uci(move)
        over, value = pyffish.is_immediate_game_end("kingofthehill", fen, [move])
        outcome = board.outcome()
        assert over == wins == (outcome is not None)
        if wins:
            assert outcome is not None and outcome.winner == WHITE and value == -pyffish.VALUE_MATE
        board.pop()


def _grid(board: Board, keep_royals: bool = True) -> list[list[str]]:
    """The starting placement as rows of squares (top rank first), with only the royal pieces."""
    royal = {p.letter for p in board.variant.pieces if p.royal}
    rows = []
    for rank in board.board_fen().split("/"):
        squares = "".join("." * int(n) if n.isdigit() else n for n in re.findall(r"\d+|.", rank))
        rows.append([ch if ch.upper() in royal and keep_royals else "." for ch in squares])
    return rows


def _placement(grid: list[list[str]]) -> str:
    return "/".join(re.sub(r"\.+", lambda m: str(len(m.group())), "".join(row)) for row in grid)


def _put(grid: list[list[str]], file: int, rank: int, piece: str) -> bool:
    """Place a piece (rank 0-based from White's side) if the square is free."""
    row = grid[len(grid) - 1 - rank]
    if row[file] != ".":
        return False
    row[file] = piece
    return True


PROMOTING = [n for n in FAIRY if all(p.ranks for p in load_variant(n).rules.promotion)]
PROMOTING_ON_SQUARES = {"legan": "k7/8/8/1P6/8/6p1/8/7K w - - 0 1"}  # zones that are not whole ranks
EN_PASSANT = [n for n in FAIRY if load_variant(n).rules.en_passant]


@pytest.mark.parametrize("name", PROMOTING)
def test_p6_fairy_document_promotion_matches_pyffish(name: str) -> None:
    """Kings and one pawn of each side a step from promotion: the promotion choices agree."""
    board = Board(name)
    white, black = board.variant.rules.promotion
    grid = _grid(board)
    assert _put(grid, 0, min(white.ranks) - 1, white.pieces[0])
    assert _put(grid, 1, max(black.ranks) + 1, black.pieces[0].lower())
    fen = f"{_placement(grid)} w - - 0 1"
    board = Board(name, fen)
    ours = sorted(m.uci() for m in board.legal_moves)
    assert any(len(m) > 4 and m[-1].isalpha() for m in ours), "a promotion is among the moves"
    assert ours == sorted(pyffish.legal_moves(name, fen, []))
    assert board.perft(2) == fsf_perft(pyffish, name, fen, [], 2)


@pytest.mark.parametrize("name", EN_PASSANT)
def test_p6_fairy_document_en_passant_matches_pyffish(name: str) -> None:
    """A pawn's double step past an enemy pawn: the capture en passant agrees."""
    board = Board(name)
    rank = board.variant.rules.double_step_ranks[0][0]
    grid = _grid(board)
    pawn = next(p.letter for p in board.variant.pieces if p.pawn)
    assert _put(grid, 2, rank, pawn) and _put(grid, 3, rank + 2, pawn.lower())
    fen = f"{_placement(grid)} w - - 0 1"
    board = Board(name, fen)
    geo = board.geometry
    step = f"{geo.square_name(geo.square(2, rank))}{geo.square_name(geo.square(2, rank + 2))}"
    board.push_uci(step)
    ours = sorted(m.uci() for m in board.legal_moves)
    capture = f"{geo.square_name(geo.square(3, rank + 2))}{geo.square_name(geo.square(2, rank + 1))}"
    assert capture in ours
    assert ours == sorted(pyffish.legal_moves(name, fen, [step]))


@pytest.mark.parametrize(("name", "fen"), sorted(PROMOTING_ON_SQUARES.items()))
def test_p6_fairy_document_promotion_on_squares_matches_pyffish(name: str, fen: str) -> None:
    """Legan chess promotes on a corner's squares (a5-a8, b8-d8 for White): the loader's promotion
    squares, as campmate squares are for King of the Hill."""
    board = Board(name, fen)
    ours = sorted(m.uci() for m in board.legal_moves)
    assert "b5a6q" in ours
    assert ours == sorted(pyffish.legal_moves(name, fen, []))
    assert board.perft(2) == fsf_perft(pyffish, name, fen, [], 2)
