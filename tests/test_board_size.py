"""Issue 13 point 10: every board size the documents allow (up to 26×26) loads in bounded memory.

Rider attacks on long lines are scanned ray by ray instead of looked up in subset tables that grow
as 2**(line length); these tests build the largest boards with every kind of rider the Betza parser
accepts, check the moves against a slow ray walk written here, and drive the library, `hordes
check` and `hordes uci` on a 20×20 board.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from hordes import Board
from hordes.cli import main as cli_main
from hordes.core import movegen
from hordes.core.betza import Component, Vector, parse_betza
from hordes.core.compiled import compiled
from hordes.core.geometry import Geometry
from hordes.core.tables import rider_table, slider_table
from hordes.engine.client import HORDES_COMMAND, UciClient
from hordes.variants import parse_variant

# Every rider the Betza parser accepts: the unlimited rider of each atom, limited ranges, riders that
# move and capture differently or only some ways, compounds of leapers and riders of several ranges.
RIDERS = {
    "R": "R",
    "B": "B",
    "Q": "Q",
    "N": "NN",
    "D": "DD",
    "A": "AA",
    "H": "HH",
    "C": "CC",
    "Z": "ZZ",
    "G": "GG",
    "E": "R4",
    "F": "B3",
    "I": "N2",
    "J": "K3",
    "L": "fR",
    "M": "mRcB",
    "O": "fsNNbW5",
    "S": "QN",
    "T": "NNCCZZ",
    "U": "vRsW2",
    "V": "lhBrhW9",
}


# Without the riders whose steps are multiples of others' (D of W, A of F ...): each line between two
# squares is then one path, and the fast pin and check generator runs (compiled.simple).
ONE_PATH_RIDERS = {k: v for k, v in RIDERS.items() if k not in "DAHG"}


def every_rider_document(n: int, riders: dict[str, str] = RIDERS) -> str:
    """An n×n game: each side's back rank holds every rider and the king, a rank of pawns before it."""
    letters = "".join(riders)
    back = (letters * n)[: n // 2 - 1] + "K" + (letters * n)[n // 2 - 1 : n - 1]
    ranks = [back.lower(), "p" * n, *[str(n)] * (n - 4), "P" * n, back]
    pieces = "\n".join(f"    {k}: {{betza: {v}, value: 500}}" for k, v in riders.items())
    return f"""---
title: Riders {n}x{n}
slug: riders{n}
engine:
  topology: {{type: grid, rows: {n}, cols: {n}}}
  setup: "{"/".join(ranks)} w - - 0 1"
  pieces:
    K: {{betza: K, royal: true}}
    P: {{betza: fmWfcF, pawn: true, value: 100}}
{pieces}
  rules:
    double_step: {{white: [2], black: [{n - 1}]}}
    promotion:
      white: {{pieces: [P], ranks: [{n}], choices: [Q, N]}}
      black: {{pieces: [P], ranks: [1], choices: [Q, N]}}
---
"""


# The build runs in a child process: alone there, nothing built by another test hides its cost,
# and an address-space limit makes exponential tables fail fast instead of swapping the machine.
# tracemalloc follows the document's load and compilation; the engine's evaluator (small tables,
# but slow under tracemalloc) is held to the whole process's resident peak.
_BUILD = """
import json, resource, sys, tracemalloc
resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))
from hordes import Board
from hordes.engine.evaluate import evaluator
from hordes.variants import load_variant
tracemalloc.start()
variant = load_variant(sys.argv[1])
board = Board(variant)
peak = tracemalloc.get_traced_memory()[1]
tracemalloc.stop()
evaluator(variant).evaluate(board)
# VmHWM, not ru_maxrss: Linux carries ru_maxrss over from the parent through fork and exec, so a
# large pytest worker's size showed up here as this child's (423 MB once, for a 156 MB build).
hwm = next(line for line in open("/proc/self/status") if line.startswith("VmHWM:"))
print(json.dumps({"peak": peak, "moves": board.legal_moves.count(), "rss": int(hwm.split()[1]) * 1024}))
"""


def test_p10_every_rider_26x26_builds_in_bounded_memory(tmp_path: Path) -> None:
    doc = tmp_path / "riders26.md"
    doc.write_text(every_rider_document(26), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", _BUILD, str(doc)], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout)
    assert result["peak"] < 200 * 2**20, f"tracemalloc peak {result['peak'] / 2**20:.0f} MB"
    assert result["rss"] < 400 * 2**20, f"resident peak {result['rss'] / 2**20:.0f} MB"
    assert result["moves"] > 0


@pytest.mark.parametrize(("rows", "cols"), [(26, 26), (7, 12), (26, 3), (1, 26), (26, 1)])
def test_p10_ray_scan_matches_a_step_by_step_walk(rows: int, cols: int) -> None:
    """The bit tricks of the ray scan, on square and narrow boards, for every atom and range (the
    subset tables too, where they are small enough to build)."""
    geo = Geometry(rows, cols)
    rng = random.Random(rows * 100 + cols)
    directions = tuple(sorted({v for c in parse_betza("WFDNAHCZG") for v in c.vectors}))
    for steps in (0, 1, 2, 5):
        slider = slider_table(geo, directions, steps)
        small = max(rows, cols) <= 12 or steps
        tables = (
            [rider_table(geo, group, steps) for group in (((-1, 0), (1, 0)), ((1, 1), (2, 1)))]
            if small
            else []
        )
        for _ in range(300):
            sq = rng.randrange(geo.size)
            occupied = rng.getrandbits(geo.size) & rng.getrandbits(geo.size)
            assert slider.attacks(sq, occupied) == _walked(geo, sq, occupied, directions, steps)
            for table in tables:
                expected = _walked(geo, sq, occupied, table.directions, steps)
                assert table.attacks[sq][occupied & table.masks[sq]] == expected


def _walked(geo: Geometry, sq: int, occupied: int, directions: tuple[Vector, ...], steps: int) -> int:
    out = 0
    for dx, dy in directions:
        f, r, n = geo.file_of(sq) + dx, geo.rank_of(sq) + dy, 1
        while geo.on_board(f, r) and (not steps or n <= steps):
            out |= 1 << geo.square(f, r)
            if occupied >> geo.square(f, r) & 1:
                break
            f, r, n = f + dx, r + dy, n + 1
    return out


# ----- a slow reference: walk every ray of every Betza component --------------------------------


def _components(betza: str, color: int) -> list[Component]:
    comps = parse_betza(betza)
    return comps if color == 0 else [c.for_black() for c in comps]


def _walk(
    geo: Geometry, cells: dict[int, tuple[str, int]], sq: int, comp: Component
) -> list[tuple[int, bool]]:
    """(square, is a capture) for each destination of one component, stepping square by square."""
    out = []
    for dx, dy in comp.vectors:
        f, r, steps = geo.file_of(sq), geo.rank_of(sq), 0
        while True:
            f, r, steps = f + dx, r + dy, steps + 1
            if not geo.on_board(f, r) or (comp.max_steps and steps > comp.max_steps):
                break
            to = geo.square(f, r)
            if to in cells:
                out.append((to, True))
                break
            out.append((to, False))
    return out


def _betza_of(letter: str) -> str:
    return {"K": "K", "P": "fmWfcF"}.get(letter) or RIDERS[letter]


def _attacked(geo: Geometry, cells: dict[int, tuple[str, int]], sq: int, by: int) -> bool:
    for frm, (letter, color) in cells.items():
        if color == by:
            for comp in _components(_betza_of(letter), color):
                if comp.capture and (sq, True) in _walk(geo, cells, frm, comp):
                    return True
    return False


def _king(cells: dict[int, tuple[str, int]], color: int) -> int:
    return next(sq for sq, (letter, c) in cells.items() if letter == "K" and c == color)


def reference_moves(geo: Geometry, cells: dict[int, tuple[str, int]], us: int) -> set[str]:
    """Legal moves by brute force: every pseudo-legal move, kept if our king is not attacked after."""
    out = set()
    for frm, (letter, color) in list(cells.items()):
        if color != us:
            continue
        for comp in _components(_betza_of(letter), us):
            for to, capture in _walk(geo, cells, frm, comp):
                if (capture and not comp.capture) or (not capture and not comp.move):
                    continue
                if capture and cells[to][1] == us:
                    continue
                after = dict(cells)
                del after[frm]
                after[to] = (letter, us)
                if not _attacked(geo, after, _king(after, us), us ^ 1):
                    out.add(geo.square_name(frm) + geo.square_name(to))
    return out


def _fen(geo: Geometry, cells: dict[int, tuple[str, int]], us: int) -> str:
    ranks = []
    for r in reversed(range(geo.rows)):
        text, gap = "", 0
        for f in range(geo.cols):
            cell = cells.get(geo.square(f, r))
            if cell is None:
                gap += 1
                continue
            text += (str(gap) if gap else "") + (cell[0] if cell[1] == 0 else cell[0].lower())
            gap = 0
        ranks.append(text + (str(gap) if gap else ""))
    return "/".join(ranks) + (" w" if us == 0 else " b") + " - - 0 1"


def _free_square(
    geo: Geometry, rng: random.Random, cells: dict[int, tuple[str, int]], span: int, ranks: range
) -> int:
    while True:
        sq = geo.square(rng.randrange(span), rng.choice([r for r in ranks if r < span]))
        if sq not in cells:
            return sq


def _random_position(
    geo: Geometry, rng: random.Random, riders: dict[str, str]
) -> tuple[dict[int, tuple[str, int]], int]:
    """Kings, a few pawns (off the double-step and promotion ranks) and riders, crowded into one
    corner of the board now and then so that lines are short and blocked as well as long and open."""
    while True:
        span = rng.choice((geo.cols, 9))
        cells: dict[int, tuple[str, int]] = {}
        for color in (0, 1):
            cells[_free_square(geo, rng, cells, span, range(geo.rows))] = ("K", color)
            for _ in range(2):
                cells[_free_square(geo, rng, cells, span, range(2, geo.rows - 2))] = ("P", color)
            for letter in rng.sample(sorted(riders), 6):
                cells[_free_square(geo, rng, cells, span, range(geo.rows))] = (letter, color)
        us = rng.randrange(2)
        if not _attacked(geo, cells, _king(cells, us ^ 1), us):
            return cells, us


@pytest.mark.parametrize("riders", [RIDERS, ONE_PATH_RIDERS], ids=["every rider", "one path"])
def test_p10_every_rider_26x26_moves_match_a_ray_walk(riders: dict[str, str]) -> None:
    variant = parse_variant(every_rider_document(26, riders))
    assert compiled(variant).simple == (riders is ONE_PATH_RIDERS)
    geo = variant.geometry
    rng = random.Random(1310)
    checks = 0
    for _ in range(20):
        cells, us = _random_position(geo, rng, riders)
        board = Board(variant, _fen(geo, cells, us))
        expected = reference_moves(geo, cells, us)
        assert {m.uci() for m in board.legal_moves} == expected, board.fen()
        checks += board.is_check()
        assert board.is_check() == _attacked(geo, cells, _king(cells, us), us ^ 1)
        # The generators and tests the search uses, against the full list.
        legal = movegen.generate_legal(board)
        noisy = {m for m in legal if movegen.is_noisy(board, m)}
        assert set(movegen.generate_legal_captures(board)) == noisy
        if not board.is_check():
            assert set(movegen.captures_not_in_check(board)) == noisy
            assert movegen.has_move_not_in_check(board) == bool(legal)
        gives = movegen.gives_check_fn(board)
        for m in legal:
            board.push_int(m)
            checked = board.is_check()
            board.pop_int()
            assert gives(m) == checked, board.int_to_move(m).uci()
    assert checks  # the positions include checks (and with them blocks and pins)


@pytest.mark.parametrize(
    "fen",
    [
        "8/8/8/8/8/1RR5/8/K3d2k w - - 0 1",  # a D-rider checks: only c1 blocks it, not b1
        "8/8/8/8/8/1RRR4/8/K3r2k w - - 0 1",  # a rook checks: b1, c1 and d1 all block it
        "8/8/8/8/8/8/8/KNR1d2k w - - 0 1",  # c1 is pinned by the D-rider though b1 stands on the rank too
        "8/8/8/8/8/8/3R4/KNR1d2k w - - 0 1",  # the same pin, with moves that are not on the line
    ],
)
def test_p10_rook_and_dabbaba_rider_share_a_line(fen: str) -> None:
    """Two riders along one rank, one stepping W and one D (every-rider documents have both): the
    squares between a royal and a checker or pinner depend on which of them it is."""
    variant = parse_variant(every_rider_document(8))
    board = Board(variant, fen)
    cells = {sq: (letter.upper(), 0 if letter.isupper() else 1) for sq in range(64)
             if (letter := _letter_at(board, sq))}  # fmt: skip
    assert {m.uci() for m in board.legal_moves} == reference_moves(variant.geometry, cells, 0)


def _letter_at(board: Board, sq: int) -> str:
    piece = board.piece_at(sq)
    if piece is None:
        return ""
    return piece.symbol()


# ----- 20×20 through the library, `hordes check` and `hordes uci` ---------------------------------


@pytest.fixture(scope="module")
def doc20(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("board20") / "riders20.md"
    path.write_text(every_rider_document(20), encoding="utf-8")
    return path


def test_p10_20x20_in_the_library(doc20: Path) -> None:
    board = Board(parse_variant(doc20.read_text(encoding="utf-8"), str(doc20)))
    moves = list(board.legal_moves)
    assert len(moves) > 20
    board.push(moves[0])
    assert board.legal_moves.count() > 20


def test_p10_20x20_hordes_check(doc20: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["check", str(doc20)]) == 0
    out = capsys.readouterr().out
    assert "ok" in out and "20x20" in out


def test_p10_20x20_uci_position_and_go(doc20: Path) -> None:
    with UciClient(HORDES_COMMAND, name="hordes", timeout=60) as engine:
        engine.send(f"setoption name VariantPath value {doc20}")
        engine.send("setoption name UCI_Variant value riders20")
        engine.send("position startpos moves j2j4")
        engine.send("go depth 1")
        lines = engine._until("bestmove", 60)
    assert not [line for line in lines if "error" in line or "unknown" in line]
    board = Board(parse_variant(doc20.read_text(encoding="utf-8")))
    board.push_uci("j2j4")
    board.parse_uci(lines[-1].split()[1])  # a legal move, or this raises
