"""Issue 19 point 5: the example variant documents (src/hordes/variants/examples, docs/examples).

Orda Mirror, Khan's Chess with a Chancellor and Orda 10x8 are checked against pyffish loading the
sections `hordes export fairy-stockfish` writes from them: perft at the start, and the legal moves of
every position of a few seeded random games with perft 2 at some of them. Orda Mirror is also checked
against Fairy-Stockfish's own definition of the game, written out by hand (tests/data/ordamirror.ini).
Lodestone Chess uses the Hordes of Change mechanisms, which Fairy-Stockfish lacks: its perft is
recorded in tests/perft/lodestone.perft (from the pure build, checked against the compiled build)
and on its page.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hordes import Board, Variant, buildinfo
from hordes.examples import check, examples
from hordes.fsf.export import CURRENT, ExportError, export_variant
from hordes.variants import (
    REGISTRY,
    builtin_variants,
    example_documents,
    example_variants,
    fairy_variants,
    load_variant,
    normalise_name,
    parse_variant,
)
from hordes.variants.loader import EXAMPLES_DIR
from tests.perft_files import PERFT_DIR, read_perft_file
from tests.pyffish_perft import fsf_perft

ROOT = Path(__file__).resolve().parent.parent
DOCS_EXAMPLES = ROOT / "docs" / "examples"
HANDWRITTEN_ORDAMIRROR = Path(__file__).resolve().parent / "data" / "ordamirror.ini"
EXPECTED = {"ordamirror", "khanschancellor", "orda10x8", "lodestone"}
CHECKED_BY_PYFFISH = ("ordamirror", "khanschancellor", "orda10x8")
LODESTONE_PERFT = PERFT_DIR / "lodestone.perft"
RANDOM_GAMES = 2  # per variant; the legal moves of every position are compared, perft 2 at four
RANDOM_PLIES = 100


def names_of(variant: Variant) -> set[str]:
    return {normalise_name(n) for n in (variant.slug, variant.title, *variant.aliases)}


@pytest.fixture(scope="module")
def sf() -> Iterator[Any]:
    """pyffish with our three exports and the hand-written Orda Mirror loaded (and nothing else)."""
    import pyffish

    import tests.fsf

    ini = "\n".join(export_variant(load_variant(s), CURRENT).text for s in CHECKED_BY_PYFFISH)
    pyffish.load_variant_config(ini + "\n" + HANDWRITTEN_ORDAMIRROR.read_text())
    try:
        yield pyffish
    finally:
        tests.fsf._loaded = False  # the next oracle() loads the suite's configuration again


# ----- the documents ---------------------------------------------------------------------------------
def test_p5_examples_load_apart_from_the_builtins() -> None:
    found = {v.slug for v in example_variants()}
    assert found == EXPECTED
    assert not found & {v.slug for v in builtin_variants()}
    documents = example_documents()
    assert set(documents) == EXPECTED
    for slug, text in documents.items():  # the text alone builds the game, as in the workshop
        assert parse_variant(text, f"<{slug}>").slug == slug
        assert load_variant(slug).slug == slug


def test_p5_example_names_do_not_collide_with_builtin_names() -> None:
    taken: dict[str, str] = {}
    for v in builtin_variants() + fairy_variants():
        for name in names_of(v) | {normalise_name(Path(v.source).stem)}:
            taken.setdefault(name, v.slug)
    for v in example_variants():
        clash = {n: taken[n] for n in names_of(v) if n in taken}
        assert not clash, f"{v.slug}: names already used by {clash}"
        for name in (v.title, *v.aliases):
            assert REGISTRY.find(name) == Path(v.source)


@pytest.mark.parametrize("variant", example_variants(), ids=lambda v: v.slug)
def test_p5_each_teaching_example_plays_and_its_claims_hold(variant: Variant) -> None:
    found = examples(variant)
    assert found, f"{variant.slug} has no teaching example"
    for ex in found:
        assert check(variant, ex) == [], ex.name
        assert f"{{{{example:{ex.name}}}}}" in variant.body, f"{ex.name} is not shown on the page"


def test_p5_docs_examples_are_relative_symlinks_into_the_package() -> None:
    links = sorted(p for p in DOCS_EXAMPLES.iterdir() if p.suffix == ".md" and p.name != "README.md")
    assert {p.stem for p in links} == EXPECTED
    for link in links:
        assert link.is_symlink(), f"{link.name} is not a symlink"
        target = os.readlink(link)
        assert not os.path.isabs(target), f"{link.name} -> {target}: must be relative"
        assert link.resolve() == (EXAMPLES_DIR / link.name).resolve()
    readme = (DOCS_EXAMPLES / "README.md").read_text(encoding="utf-8")
    for v in example_variants():
        assert f"({Path(v.source).name})" in readme, f"README.md does not link {v.slug}"


def test_p5_package_data_ships_the_examples() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    data = re.search(r"\[tool\.setuptools\.package-data\]\nhordes = \[(.*)\]", text)
    assert data is not None and '"variants/examples/*.md"' in data.group(1)


# ----- points 1-3: perft against pyffish ---------------------------------------------------------------
def random_game(variant: Variant, seed: int) -> Iterator[tuple[Board, list[str]]]:
    """The positions of a seeded random game and the moves that led to each, from the start."""
    rng = random.Random(seed)
    board = Board(variant)
    moves: list[str] = []
    for _ in range(RANDOM_PLIES):
        yield board, moves
        legal = sorted(m.uci() for m in board.legal_moves)
        if not legal or board.is_game_over():
            return
        move = rng.choice(legal)
        board.push_uci(move)
        moves = [*moves, move]


@pytest.mark.parametrize("slug", CHECKED_BY_PYFFISH)
def test_p5_example_perft_matches_pyffish_from_the_export(sf: Any, slug: str) -> None:
    variant = load_variant(slug)
    name = export_variant(variant, CURRENT).name
    fen = sf.start_fen(name)
    assert fen == variant.start_fen
    assert fsf_perft(sf, name, fen, [], 3) == Board(variant).perft(3)
    for game in range(RANDOM_GAMES):
        for board, moves in random_game(variant, seed=1900 + game):
            ours = sorted(m.uci() for m in board.legal_moves)
            assert ours == sorted(sf.legal_moves(name, fen, moves)), f"{slug} after {' '.join(moves)}"
            if len(moves) % 25 == 5:
                assert board.perft(2) == fsf_perft(sf, name, fen, moves, 2), f"{slug} after {moves}"


def test_p5_ordamirror_export_counts_as_fairy_stockfishs_own_definition(sf: Any) -> None:
    fen = sf.start_fen("handwritten-ordamirror")
    assert fen == load_variant("ordamirror").start_fen
    assert fsf_perft(sf, "handwritten-ordamirror", fen, [], 2) == Board(load_variant("ordamirror")).perft(2)
    for game in range(RANDOM_GAMES):
        for board, moves in random_game(load_variant("ordamirror"), seed=1950 + game):
            theirs = sorted(sf.legal_moves("handwritten-ordamirror", fen, moves))
            assert sorted(m.uci() for m in board.legal_moves) == theirs, " ".join(moves)


# ----- point 4: Lodestone Chess --------------------------------------------------------------------------
MAX_CHECKED_NODES = 400_000  # the start's depth 4 (about 2 s of CPU in the pure build) and all below


def lodestone_counts(max_nodes: int) -> list[list[int]]:
    """Each record's counts, recomputed by the build loaded here, up to max_nodes per count."""
    variant = load_variant("lodestone")
    out = []
    for case in read_perft_file(LODESTONE_PERFT):
        board = Board(variant, case.epd)
        out.append([board.perft(d) for d, n in sorted(case.counts.items()) if n <= max_nodes])
    return out


def test_p5_lodestone_perft_matches_the_record() -> None:
    cases = read_perft_file(LODESTONE_PERFT)
    assert cases[0].epd.split()[0] == load_variant("lodestone").start_fen.split()[0]
    assert sorted(cases[0].counts) == [1, 2, 3, 4]
    recorded = [[n for _, n in sorted(c.counts.items()) if n <= MAX_CHECKED_NODES] for c in cases]
    assert lodestone_counts(MAX_CHECKED_NODES) == recorded


def test_p5_lodestone_page_shows_the_recorded_perft_and_a_balance_run() -> None:
    body = load_variant("lodestone").body
    start = read_perft_file(LODESTONE_PERFT)[0]
    for depth, nodes in start.counts.items():
        assert re.search(rf"\|\s*{depth}\s*\|\s*{nodes:,}\s*\|", body), f"perft {depth} is not on the page"
    assert "hordes selfplay lodestone" in body and re.search(r"White \d+ / Black \d+ / draws \d+", body)


def test_p5_lodestone_uses_what_fairy_stockfish_lacks() -> None:
    with pytest.raises(ExportError, match="magnet pulls"):
        export_variant(load_variant("lodestone"), CURRENT)


def test_p5_lodestone_pure_and_compiled_builds_count_the_same() -> None:
    """The reference generator (tests/reference) knows only Hordes of Change's fixed army, so the
    independent check is the other build: the same counts from the compiled modules and the source."""
    here = buildinfo.build_kind()
    if here == "pure" and not buildinfo.compiled_record():
        if os.environ.get("HORDES_EXPECT_BUILD") == "compiled":
            pytest.fail("no compiled build to compare with")
        pytest.skip("no compiled build installed to compare with")
    env = {**os.environ, "HORDES_PURE": "1" if here == "compiled" else "0"}
    code = (
        "import json, tests.test_example_variants as t; "
        f"print(json.dumps(t.lodestone_counts({MAX_CHECKED_NODES})))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == lodestone_counts(MAX_CHECKED_NODES)
