"""Issue 16 point 6: Fairy-Stockfish's built-in variants that hordes ships as documents
(src/hordes/variants/fairy), checked against pyffish's built-in of the same name."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pyffish
import pytest

from hordes import Board
from hordes.cli import main
from hordes.fsf.importer import _Resolver, builtin_names
from hordes.uci import UciEngine
from hordes.variants import REGISTRY, builtin_variants, fairy_variants, load_variant
from tests.pyffish_perft import compare_perft

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
    assert sorted(builtin_names()) == sorted(pyffish.variants())
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
