"""Fuzzing the library's parsers (issue 13): nothing but a HordesError may come out of any of them.

Surfaces: variant documents (valid documents mutated as text, the same documents with one value
replaced by random YAML, random YAML, random bytes from a file), variant names, FEN for every built-in
variant, PGN, SAN, UCI move strings and Betza strings, plus `hordes check` and `hordes pgn` on random
files. Every reproducer listed in the issue is an explicit `@example`.

Each error must be a HordesError whose message says something and is of bounded length (an error
names the problem; it does not echo a megabyte of input). Inputs that parse are used a little (a
Board built, its legal moves generated, a game written back) so that an accepted input which breaks
later counts too.

Runs are reproducible: `derandomize=True` fixes the inputs, and there is no example database. The
minimum number of examples per test is EXAMPLES[surface] (a test may run more: the explicit examples
come on top). The whole file takes about 20 s of CPU on one core (measured with
`time pytest -p no:xdist tests/fuzz/test_fuzz_parsers.py`: user 20 s, 31 s wall on a shared
machine; the budget is 60 s); the counts of inputs tried are
printed in the terminal summary (`fuzz: <surface>: N inputs tried, M failures`).
"""

from __future__ import annotations

import contextlib
import copy
import io
import operator
import random
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from hordes import Board, HordesError, Move, builtin_variants, load_variant, parse_variant
from hordes.cli import main
from hordes.core.betza import parse_betza
from hordes.core.rules import Variant
from hordes.engine.eval_params import parse_params
from hordes.notation.pgn import Game, PgnError, read_games, resolve_variant, write_game
from hordes.notation.san import parse_san, san
from hordes.variants.loader import BUILTIN_DIR
from tests.fuzz.counting import COUNTER

# Minimum examples per test (the explicit @examples come on top).
EXAMPLES = {
    "variant document": 500,
    "variant document (yaml)": 500,
    "variant file": 100,
    "variant name": 200,
    "fen": 200,  # per built-in variant
    "pgn": 500,
    "san": 600,
    "uci": 400,
    "betza": 600,
    "cli": 80,
}
MAX_MESSAGE = 2000  # characters: a message names the problem, it does not quote the input at length

LONG_NAME = "x" * 5000
HUGE = "1" * 5000  # int() refuses strings of more than 4300 digits
CHESS_END = "8/8/8/8/8/8/8/K6k"
DEEP_YAML = "---\ntitle: T\nslug: t\nengine: " + "[" * 5000 + "]" * 5000 + "\n---\n"
PARENT_CHAIN = 1200  # the chain of 1,200 parent documents, made by the chain_dir fixture
CHAIN_DOC = f"---\ntitle: T\nslug: t\nparent: p{PARENT_CHAIN - 1}.md\n---\n"
WEIRD = ["²", "٣", "\x00", "\n", "\t", "\r", " ", "'", '"', "\\", "{", "}", "[", "]", "(", ")", "é", "\ufeff"]


def _settings(surface: str) -> Any:
    return settings(
        max_examples=EXAMPLES[surface],
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    )


def _only_hordes_errors(surface: str, run: Callable[[], object]) -> None:
    """Run one input: it parses, or raises a HordesError with a short message that says something."""
    with COUNTER.case(surface):
        try:
            run()
        except HordesError as exc:
            message = str(exc)
            assert message.strip(), f"{type(exc).__name__} with an empty message"
            assert len(message) <= MAX_MESSAGE, f"{len(message)}-character message: {message[:200]}…"


# ----- text mutation ----------------------------------------------------------------------------------
def _chars(special: str) -> st.SearchStrategy[str]:
    return st.one_of(st.sampled_from(list(special) + WEIRD), st.characters(codec="utf-8"))


@st.composite
def _mutated(draw: st.DrawFn, seeds: list[str], special: str) -> str:
    """A seed text with a few edits: inserted, deleted, replaced or repeated spans, long digit runs."""
    text = draw(st.sampled_from(seeds))
    chars = _chars(special)
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(text)))
        j = draw(st.integers(i, min(len(text), i + 24)))
        op = draw(st.sampled_from(("insert", "delete", "replace", "repeat", "digits")))
        if op == "insert":
            text = text[:i] + draw(st.text(chars, min_size=1, max_size=12)) + text[i:]
        elif op == "delete":
            text = text[:i] + text[j:]
        elif op == "replace":
            text = text[:i] + draw(st.text(chars, min_size=1, max_size=8)) + text[j:]
        elif op == "repeat":
            text = text[:i] + text[i:j] * draw(st.integers(2, 60)) + text[j:]
        else:
            text = text[:i] + draw(st.sampled_from("0123456789")) * draw(st.integers(1, 6000)) + text[i:]
    return text


def _texts(seeds: list[str], special: str) -> st.SearchStrategy[str]:
    return st.one_of(_mutated(seeds, special), st.text(_chars(special), max_size=80))


# ----- variant documents ------------------------------------------------------------------------------
DOCUMENTS = [p.read_text(encoding="utf-8") for p in sorted(BUILTIN_DIR.glob("*.md"))]
DOC_DATA = [yaml.safe_load(text.split("---\n")[1]) for text in DOCUMENTS]
YAML_SPECIAL = "-:{}[],#&*!|>'\"%@`?\n KQRBNPW+0123456789.~"
KEYS = sorted(
    {"title", "slug", "parent", "engine", "topology", "rows", "cols", "setup", "pieces", "rules",
     "betza", "royal", "pawn", "value", "promotion", "white", "black", "ranks", "choices", "campmate",
     "evaluation", "transforms_to", "pull", "restricts", "immobile", "n_move_rule", "moves", "reset_by",
     "repetition", "count", "result", "stalemate", "double_step", "castling", "en_passant", "K", "P", "+R"}
)  # fmt: skip
_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(-30, 30),
    st.floats(),
    st.text(max_size=12),
    st.sampled_from(
        ["W", "K", "pQ", "R4", "W²", "chess", "orda", "p1.md", "draw", "loss", "P", "+R", "Q", "8/8"]
    ),
)
_yaml_values = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(
            st.one_of(st.sampled_from(KEYS), st.text(max_size=6), st.integers()), inner, max_size=4
        ),
    ),
    max_leaves=12,
)


_INNER = ("engine", "pieces", "rules", "promotion", "topology", "white", "black", "campmate", "evaluation")


@st.composite
def _replaced_value(draw: st.DrawFn) -> str:
    """A built-in document's front matter with values replaced (or keys added or dropped), most
    often inside `engine`, where the checks are."""
    data = copy.deepcopy(draw(st.sampled_from(DOC_DATA)))
    for _ in range(draw(st.integers(1, 3))):
        _replace_one(draw, data)
    return "---\n" + yaml.safe_dump(data, allow_unicode=True, sort_keys=False) + "---\nbody\n"


def _replace_one(draw: st.DrawFn, data: dict[str, Any]) -> None:
    node: Any = data
    while True:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            return
        inner = [k for k in keys if k in _INNER or (isinstance(node, dict) and isinstance(node[k], dict))]
        key = (
            draw(st.sampled_from(inner)) if inner and draw(st.integers(0, 3)) else draw(st.sampled_from(keys))
        )
        child = node[key]
        if isinstance(child, dict | list) and child and draw(st.integers(0, 3)):
            node = child
            continue
        action = draw(st.sampled_from(("replace", "drop", "add")))
        if action == "replace":
            node[key] = draw(_yaml_values)
        elif action == "drop" and isinstance(node, dict):
            del node[key]
        elif isinstance(node, dict):
            node[draw(st.sampled_from(KEYS))] = draw(_yaml_values)
        return


@st.composite
def _random_yaml(draw: st.DrawFn) -> str:
    """A random mapping, often with a parent so that the engine checks see a whole game."""
    data = draw(st.dictionaries(st.sampled_from(KEYS), _yaml_values, max_size=6))
    if draw(st.booleans()):
        data = {
            "title": "T",
            "slug": "t",
            "parent": draw(st.sampled_from(["chess", "orda", "p3.md"])),
            **data,
        }
    return "---\n" + yaml.safe_dump(data, allow_unicode=True) + "---\n"


def _document_texts() -> st.SearchStrategy[str]:
    """Built-in documents mutated as text, or random text as front matter."""
    framed = st.text(_chars(YAML_SPECIAL), max_size=80).map(lambda t: f"---\n{t}\n---\n")
    return st.one_of(_mutated(DOCUMENTS, YAML_SPECIAL), framed)


@pytest.fixture(scope="session")
def chain_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory of PARENT_CHAIN documents, each the parent of the next (p0's parent is chess);
    fuzzed documents are read with it as their base, so `parent: pN.md` finds them."""
    base = tmp_path_factory.mktemp("chain")
    (base / "p0.md").write_text("---\ntitle: T\nslug: t\nparent: chess\n---\n")
    for i in range(1, PARENT_CHAIN):
        (base / f"p{i}.md").write_text(f"---\ntitle: T\nslug: t\nparent: p{i - 1}.md\n---\n")
    (base / "latin.md").write_bytes(b"---\ntitle: Caf\xe9\n---\n")
    return base


def _use_variant(variant: Variant) -> None:
    board = Board(variant)
    board.legal_moves.count()
    parse_params(variant)


def _document(text: str, base: Path) -> None:
    _use_variant(parse_variant(text, "fuzz.md", base))


@_settings("variant document")
@given(text=_document_texts())
@example(text=DEEP_YAML)
@example(text=CHAIN_DOC)
@example(text=f"---\ntitle: T\nslug: t\nparent: {LONG_NAME}.md\n---\n")
@example(text="---\ntitle: T\nslug: t\nparent: latin.md\n---\n")
@example(text=f"---\ntitle: T\nslug: t\nparent: chess\nengine:\n  topology: {{rows: {HUGE}}}\n---\n")
@example(text="---\ntitle: T\nslug: t\nparent: chess\nengine:\n  setup: 2024-13-45\n---\n")
@example(text="---\ntitle: T\nslug: t\nparent: chess\nengine:\n  pieces: {X: {betza: W²}}\n---\n")
@example(text=f"---\ntitle: T\nslug: t\nparent: chess\nengine:\n  pieces: {{X: {{betza: R{HUGE}}}}}\n---\n")
@example(text=f'---\ntitle: T\nslug: t\nparent: chess\nengine:\n  setup: "{CHESS_END} w - - ² 1"\n---\n')
@example(
    text="---\na: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
    "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
    "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n---\n"
)
@example(text="---\nengine: &e [*e]\n---\n")
@example(text="---\n1: one\ncolour: red\n---\n")
@example(text="---\n" + "k" * 1000 + ": 1\n---\n")
def test_fuzz_variant_documents(text: str, chain_dir: Path) -> None:
    _only_hordes_errors("variant document", lambda: _document(text, chain_dir))


@_settings("variant document (yaml)")
@given(text=st.one_of(_replaced_value(), _random_yaml()))
def test_fuzz_variant_documents_with_random_values(text: str, chain_dir: Path) -> None:
    _only_hordes_errors("variant document", lambda: _document(text, chain_dir))


@_settings("variant file")
@given(
    data=st.one_of(
        _texts(DOCUMENTS, YAML_SPECIAL).map(lambda t: t.encode("utf-8", "surrogatepass")), st.binary()
    )
)
@example(data=b"---\ntitle: Caf\xe9\n---\n")
@example(data=b"\xff\xfe---\n")
def test_fuzz_variant_files(data: bytes, tmp_path_factory: pytest.TempPathFactory) -> None:
    path = tmp_path_factory.mktemp("doc", numbered=True) / "fuzz.md"
    path.write_bytes(data)
    _only_hordes_errors("variant document", lambda: _use_variant(load_variant(str(path))))


@_settings("variant name")
@given(
    name=st.one_of(
        st.text(_chars("./-_ .md"), max_size=30), st.sampled_from([v.title for v in builtin_variants()])
    )
)
@example(name=LONG_NAME)
@example(name=LONG_NAME + ".md")
@example(name="a\x00b.md")
@example(name=".md")
@example(name="/")
@example(name="../../../../etc/passwd")
def test_fuzz_variant_names(name: str) -> None:
    _only_hordes_errors("variant name", lambda: load_variant(name))
    _only_hordes_errors("variant name", lambda: resolve_variant(name))


# ----- positions: FEN, SAN, UCI ---------------------------------------------------------------------
VARIANTS = sorted(builtin_variants(), key=lambda v: v.slug)
FEN_SPECIAL = "/ -+wbKQkqRrNnBbPp0123456789abcdefgh"


def _playout_fens(variant: Variant, seed: int, games: int = 4, plies: int = 40) -> list[str]:
    rng = random.Random(seed)
    fens = []
    for _ in range(games):
        board = Board(variant)
        for ply in range(plies):
            moves = list(board.legal_moves)
            if not moves or board.outcome() is not None:
                break
            board.push(rng.choice(moves))
            if ply % 8 == 3:
                fens.append(board.fen())
    return fens


@cache
def _positions(slug: str) -> list[str]:
    variant = load_variant(slug)
    return [variant.start_fen, *_playout_fens(variant, 13)]


@pytest.mark.parametrize("slug", [v.slug for v in VARIANTS])
def test_fuzz_fen(slug: str) -> None:
    variant = load_variant(slug)
    seeds = _positions(slug)

    @_settings("fen")
    @given(fen=st.one_of(_texts(seeds, FEN_SPECIAL), _shaped_fen(variant), _edited_position(variant, seeds)))
    @example(fen=f"{CHESS_END} w - - ² 1")
    @example(fen=f"{CHESS_END} w - - 0 {HUGE}")
    @example(fen=f"8/8/8/8/8/8/8/K{HUGE}k w - - 0 1")
    @example(fen="8/8/8/8/8/8/8/K²5k w - - 0 1")
    @example(fen=f"{CHESS_END} w - e² 0 1")
    def run(fen: str) -> None:
        _only_hordes_errors("fen", lambda: _use_fen(variant, fen))

    run()


@st.composite
def _shaped_fen(draw: st.DrawFn, variant: Variant) -> str:
    """Up to six fields of the right shape with random contents: most get past the rank count."""
    geo = variant.geometry
    letters = [p.letter for p in variant.pieces]
    cell = st.sampled_from([*letters, *(x.lower() for x in letters), "1", "2", "3", str(geo.cols)])
    ranks = [
        "".join(draw(st.lists(cell, min_size=1, max_size=geo.cols)))
        for _ in range(draw(st.sampled_from([geo.rows, geo.rows, geo.rows - 1])))
    ]
    square = st.builds(
        operator.add, st.sampled_from("abcdefghz"), st.sampled_from(["1", "3", "6", "8", "9", "0"])
    )
    fields = [
        "/".join(ranks),
        draw(st.sampled_from(["w", "b", "W", "-"])),
        draw(st.sampled_from(["-", "KQkq", "K", "q", "KQkqKQkq", "A"])),
        draw(st.one_of(st.just("-"), square)),
        draw(st.sampled_from(["0", "1", "99", "-1", "²", HUGE[:10]])),
        draw(st.sampled_from(["1", "0", "40", "²", "1.5"])),
    ]
    return " ".join(fields[: draw(st.integers(1, 6))])


def _cells(row: str) -> list[str]:
    """A FEN rank as one token per square ('.' for empty)."""
    out: list[str] = []
    digits = ""
    for ch in row:
        if ch.isdigit():
            digits += ch
            continue
        out.extend("." * int(digits or "0"))
        digits = ""
        if out and out[-1] == "+":
            out[-1] += ch
        else:
            out.append(ch)
    out.extend("." * int(digits or "0"))
    return out


def _row(cells: list[str]) -> str:
    text = "".join(cells)
    return re.sub(r"\.+", lambda m: str(len(m.group())), text)


@st.composite
def _edited_position(draw: st.DrawFn, variant: Variant, seeds: list[str]) -> str:
    """A real position with pieces added, removed or moved and its other fields changed: many are
    positions no game reaches (pawns on the back rank, kings in check) and still valid FENs."""
    fields = draw(st.sampled_from(seeds)).split()
    grid = [_cells(row) for row in fields[0].split("/")]
    tokens = [p.letter for p in variant.pieces] + [p.letter.lower() for p in variant.pieces] + ["."] * 4
    for _ in range(draw(st.integers(1, 6))):
        r = draw(st.integers(0, len(grid) - 1))
        f = draw(st.integers(0, len(grid[r]) - 1))
        grid[r][f] = draw(st.sampled_from(tokens))
    fields[0] = "/".join(_row(row) for row in grid)
    if draw(st.booleans()):
        fields[1] = draw(st.sampled_from(["w", "b"]))
    if len(fields) > 2 and draw(st.booleans()):
        fields[2] = draw(st.sampled_from(["-", "KQkq", "Kq", "k"]))
    if len(fields) > 3 and draw(st.booleans()):
        fields[3] = draw(st.sampled_from(["-", "e3", "d6", "a3", "h6", "e4"]))
    return " ".join(fields)


def _use_fen(variant: Variant, fen: str) -> None:
    board = Board(variant, fen)
    for move in board.legal_moves:
        san(board, move)
    again = Board(variant, board.fen())
    assert again.fen() == board.fen(), (fen, board.fen(), again.fen())
    board.outcome()


@cache
def _board_and_sans(slug: str, index: int) -> tuple[str, list[str], list[str]]:
    fen = _positions(slug)[index]
    board = Board(slug, fen)
    legal = list(board.legal_moves)
    return fen, [san(board, m) for m in legal] or ["e4"], [m.uci() for m in legal] or ["e2e4"]


@st.composite
def _position_and_move(draw: st.DrawFn, notation: str) -> tuple[str, str, str]:
    variant = draw(st.sampled_from(VARIANTS))
    index = draw(st.integers(0, len(_positions(variant.slug)) - 1))
    fen, sans, ucis = _board_and_sans(variant.slug, index)
    seeds = sans if notation == "san" else ucis
    if notation == "san":
        shaped = st.from_regex(
            r"\+?[A-Z]?[a-z]?[0-9]{0,3}[-x:]?[a-z][0-9]{1,4}(=\+?[A-Za-z])?[+#!?]{0,2}", fullmatch=True
        )
    else:
        shaped = st.from_regex(r"[a-z][0-9]{1,4}[a-z][0-9]{1,4}[a-z+]?", fullmatch=True)
    text = draw(st.one_of(st.sampled_from(seeds), _texts(seeds, "+#=x:-O0abcdefgh12345678KQRBNP"), shaped))
    return variant.slug, fen, text


@_settings("san")
@given(case=_position_and_move("san"))
@example(case=("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e" + HUGE))
@example(case=("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e²"))
@example(case=("hordes", load_variant("hordes").start_fen, "e" + HUGE))
@example(case=("hordes", load_variant("hordes").start_fen, "Ke1:e" + HUGE))
def test_fuzz_san(case: tuple[str, str, str]) -> None:
    slug, fen, text = case

    def run() -> None:
        board = Board(slug, fen)
        move = parse_san(board, text)
        assert board.is_legal(move), (fen, text, move)

    _only_hordes_errors("san", run)


@_settings("uci")
@given(case=_position_and_move("uci"))
@example(case=("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e2e" + HUGE))
@example(case=("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e٢e٤"))
@example(case=("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e²e4"))
def test_fuzz_uci(case: tuple[str, str, str]) -> None:
    slug, fen, text = case

    def run() -> None:
        board = Board(slug, fen)
        move = board.parse_uci(text)
        assert board.is_legal(move)
        board.push(move)

    _only_hordes_errors("uci", run)
    _only_hordes_errors("uci", lambda: Move.from_uci(text, load_variant(slug).geometry))


# ----- Betza --------------------------------------------------------------------------------------------
BETZA_SEEDS = sorted(
    {p.betza for v in VARIANTS for p in v.pieces if p.betza} | {"fmWfcF", "mNcR", "R4", "fhN"}
)


@_settings("betza")
@given(
    text=st.one_of(
        _texts(BETZA_SEEDS, "WFDNAHCZGKRBQmcfblrvsh0123456789"),
        st.text("WFDNRBQKmcfblrvsh0123456789²", max_size=16),
    )
)
@example(text="W²")
@example(text="R" + HUGE)
@example(text="R0")
def test_fuzz_betza(text: str) -> None:
    def run() -> None:
        assert parse_betza(text)

    _only_hordes_errors("betza", run)


# ----- PGN ---------------------------------------------------------------------------------------------
PGN_DIR = Path(__file__).parent.parent / "notation" / "data"


def _pgn_seeds() -> list[str]:
    seeds = [p.read_text(encoding="utf-8") for p in sorted((PGN_DIR / "broken").glob("*.pgn"))]
    rng = random.Random(7)
    for variant in VARIANTS:
        board = Board(variant)
        for _ in range(16):
            moves = list(board.legal_moves)
            if not moves or board.outcome() is not None:
                break
            board.push(rng.choice(moves))
        game = Game.from_board(board, {"Event": f"fuzz {variant.slug}"})
        game.next().comment = "a comment"  # type: ignore[union-attr]
        seeds.append(write_game(game))
    return seeds


PGN_SEEDS = _pgn_seeds()
PGN_SPECIAL = '[]"{}();$!?.*-/+#=x 0123456789\nabcdefghKQRBN\\%'
NEXT_GAME = '\n[Event "next"]\n\n1. e4 e5 *\n'


def _read_pgn(text: str) -> None:
    for game in read_games(text):
        assert game.error is None or isinstance(game.error, PgnError)
        if game.error is None:
            write_game(game)


@_settings("pgn")
@given(text=_texts(PGN_SEEDS, PGN_SPECIAL))
@example(text=f'[FEN "{CHESS_END} w - - ² 1"]\n\n*\n{NEXT_GAME}')
@example(text=f"1. e4 ${HUGE} *\n{NEXT_GAME}")
@example(text=f'[FEN "{CHESS_END} w - - {HUGE} 1"]\n\n*\n{NEXT_GAME}')
@example(text=f"1. e{HUGE} *\n{NEXT_GAME}")
@example(text=f'[Variant "{LONG_NAME}.md"]\n\n*\n{NEXT_GAME}')
@example(text="(" * 5000 + " *\n" + NEXT_GAME)
def test_fuzz_pgn(text: str) -> None:
    _only_hordes_errors("pgn", lambda: _read_pgn(text))


def test_p11_pgn_examples_keep_the_next_game() -> None:
    """The issue's PGN reproducers: the broken game is reported and the next one is read."""
    for text in (
        f'[FEN "{CHESS_END} w - - ² 1"]\n\n*\n{NEXT_GAME}',
        f"1. e4 ${HUGE} *\n{NEXT_GAME}",
        f"1. e{HUGE} *\n{NEXT_GAME}",
    ):
        games = list(read_games(text))
        assert [g.error is not None for g in games] == [True, False]
        assert games[1].headers["Event"] == "next" and len(games[1].mainline_moves()) == 2


# ----- the command line ----------------------------------------------------------------------------
@_settings("cli")
@given(
    data=st.one_of(
        _texts(PGN_SEEDS + DOCUMENTS, PGN_SPECIAL).map(lambda t: t.encode("utf-8", "surrogatepass")),
        st.binary(max_size=200),
    ),
    command=st.sampled_from(["check", "pgn"]),
)
@example(data=b"---\ntitle: Caf\xe9\n---\n", command="check")
@example(data=b'[White "Caf\xe9"]\n\n*\n', command="pgn")
@example(data=DEEP_YAML.encode(), command="check")
def test_fuzz_cli_check_and_pgn(data: bytes, command: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    """`hordes check` and `hordes pgn` never print a traceback: status 0 or 1, or 2 with one line per
    error on standard error, each starting `hordes: error:`."""
    path = tmp_path_factory.mktemp("cli", numbered=True) / ("fuzz.md" if command == "check" else "fuzz.pgn")
    path.write_bytes(data)
    with COUNTER.case("cli"):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main([command, str(path)])
        allowed = {0, 2} if command == "check" else {0, 1, 2}
        assert status in allowed, (status, err.getvalue())
        if status == 2:
            lines = err.getvalue().splitlines()
            assert lines and all(line.startswith("hordes: error: ") for line in lines), err.getvalue()
            assert command == "check" or len(lines) == 1, err.getvalue()


@pytest.mark.parametrize("name", [LONG_NAME, LONG_NAME + ".md"])
@pytest.mark.parametrize("command", ["check", "pgn"])
def test_p11_cli_long_names(name: str, command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with COUNTER.case("cli"):
        assert main([command, name]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("hordes: error: ") and len(err) < 400
