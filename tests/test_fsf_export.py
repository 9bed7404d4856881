"""Issue 16 points 5 and 7: our documents exported as Fairy-Stockfish variants.ini sections.

The exports are checked by the two Fairy-Stockfish builds the project has: pyffish 0.0.90 (current
keys) and Debian's /usr/games/fairy-stockfish 11.1 (old keys). Each loads the exported file and must
count the same perft as hordes. Documents Fairy-Stockfish cannot express are refused with the
mechanism named, and print nothing.
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from hordes import BLACK, WHITE, Board
from hordes.cli import main
from hordes.engine.client import FAIRY_STOCKFISH, UciClient
from hordes.engine.match import GameJob, GameResult, Opening, game_pgn, play_game
from hordes.engine.players import Clock, UciPlayer, parse_player
from hordes.fsf.export import BUILTIN_NAMES, CURRENT, DEBIAN, ExportError, dialect_of, export_variant
from hordes.variants import load_variant, parse_variant
from tests.fsf import HANDWRITTEN_DEBIAN_INI, HANDWRITTEN_PREFIX, oracle

needs_fsf = pytest.mark.skipif(
    not os.access(FAIRY_STOCKFISH, os.X_OK),
    reason=f"Debian fairy-stockfish not installed at {FAIRY_STOCKFISH} (apt-get install fairy-stockfish)",
)

# A user's document on a 10x8 board, with a piece no named Fairy-Stockfish kind moves like (a custom
# piece in the current keys) and castling to the i and c files.
USER_DOCUMENT = """---
title: Test Ten
slug: testten
parent: chess
engine:
  topology: {type: grid, rows: 8, cols: 10}
  setup: "rnbqkcabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQKCABNR w KQkq - 0 1"
  pieces:
    C: {name: Dabbaba-Fers, betza: FD, value: [600, 600]}
    A: {name: Archbishop, betza: BN, value: [2000, 2000]}
  rules:
    promotion:
      white: {pieces: [P], ranks: [8], choices: [Q, C, A]}
      black: {pieces: [P], ranks: [1], choices: [Q, C, A]}
---
A test game.
"""


@functools.cache  # the point 7 test compares the hand-written files with the same counts
def pyffish_perft(name: str, depth: int) -> int:
    """Perft in pyffish by recursion over legal_moves, counting the last ply in bulk."""
    sf = oracle()
    fen = sf.start_fen(name)  # type: ignore[attr-defined]

    def count(moves: list[str], depth: int) -> int:
        legal = sf.legal_moves(name, fen, moves)  # type: ignore[attr-defined]
        if depth == 1:
            return len(legal)
        return sum(count([*moves, m], depth - 1) for m in legal)

    return count([], depth)


def debian_perft(ini: str, name: str, depth: int) -> int:
    """Perft of Debian's engine from its own start position (`position startpos`) of section `name`."""
    fd, path = tempfile.mkstemp(suffix=".ini")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(ini)
        with UciClient([FAIRY_STOCKFISH], options={"VariantPath": path}, timeout=10) as fsf:
            fsf.set_variant(name)
            fsf.send("position startpos")
            fsf.send(f"go perft {depth}")
            while True:
                line = fsf.recv(60)
                if line.startswith("Nodes searched:"):
                    return int(line.split(":")[1])
    finally:
        os.unlink(path)


@dataclass
class Done:
    returncode: int
    stdout: str
    stderr: str


def hordes_export(capsys: pytest.CaptureFixture[str], *args: str) -> Done:
    """`hordes export fairy-stockfish ARGS…` through the command line's own entry point."""
    code = main(["export", "fairy-stockfish", *args])
    out, err = capsys.readouterr()
    return Done(code, out, err)


# ----- point 5: the export, checked by perft -----------------------------------------------------------
@pytest.mark.parametrize("slug", ["chess", "orda", "khans"])
def test_p5_export_perft_matches_pyffish(slug: str) -> None:
    """tests.fsf's oracle loads our export (current keys): its perft from its own start position.
    Depth 3: pyffish spends about 4 ms on each legal_moves call, so depth 4 would cost some 40 s a
    variant; Debian's engine counts depth 4 below, and the differential suites, which play from this
    same export, compare the legal moves of every position of their games."""
    depth = 3
    variant = load_variant(slug)
    exported = export_variant(variant, CURRENT)
    assert oracle().start_fen(exported.name) == variant.start_fen  # type: ignore[attr-defined]
    assert pyffish_perft(exported.name, depth) == Board(variant).perft(depth)


@needs_fsf
@pytest.mark.parametrize("slug", ["chess", "orda"])
def test_p5_export_perft_matches_debian_fairy_stockfish(slug: str) -> None:
    variant = load_variant(slug)
    exported = export_variant(variant, DEBIAN)
    assert debian_perft(exported.text, exported.name, 4) == Board(variant).perft(4)


def test_p5_a_users_document_exports_and_agrees(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "testten.md"
    path.write_text(USER_DOCUMENT)
    done = hordes_export(capsys, str(path))
    assert done.returncode == 0, done.stderr
    assert "[testten:chess]" in done.stdout and "customPiece1 = c:FD" in done.stdout
    assert "archbishop = a" in done.stdout  # a named kind where one moves the same
    sf = oracle()
    sf.load_variant_config(done.stdout)  # type: ignore[attr-defined]
    try:
        assert pyffish_perft("testten", 3) == Board(parse_variant(USER_DOCUMENT)).perft(3)
    finally:
        import tests.fsf

        tests.fsf._loaded = False  # the next oracle() loads the suite's configuration again


NO_EN_PASSANT = """---
title: No En Passant
slug: noep
parent: chess
engine:
  setup: "rnbqkbnr/ppp1pppp/8/8/3p4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
  rules:
    en_passant: false
---
"""


def test_p5_en_passant_off_is_off_on_both_sides() -> None:
    """`en_passant: false`: after e2e4 the d4 pawn may not take on e3, for hordes and for the export
    (enPassantRegion = -); 11.1 cannot switch it off and refuses the document."""
    variant = parse_variant(NO_EN_PASSANT)
    exported = export_variant(variant)
    oracle().load_variant_config(exported.text)  # type: ignore[attr-defined]
    assert "enPassantRegion = -" in exported.text
    assert pyffish_perft(exported.name, 2) == Board(variant).perft(2) == 552  # 554 with en passant
    with pytest.raises(ExportError, match="without en passant"):
        export_variant(variant, DEBIAN)


GAME_END = """---
title: Repetition Loses
slug: reploss
parent: chess
engine:
  rules:
    repetition: {count: 3, result: loss}
    stalemate: win
---
"""


def test_p5_game_end_values_agree() -> None:
    """Who wins a repetition (its completer loses) and a stalemate (the stalemated side wins), as our
    rules and as Fairy-Stockfish reading the export see it (values are for the side to move)."""
    variant = parse_variant(GAME_END)
    exported = export_variant(variant)
    sf = oracle()
    sf.load_variant_config(exported.text)  # type: ignore[attr-defined]
    moves = ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"]
    board = Board(variant)
    for move in moves:
        board.push_uci(move)
    outcome = board.outcome()
    assert outcome is not None and outcome.winner == WHITE and board.turn == WHITE
    ended, value = sf.is_optional_game_end(exported.name, variant.start_fen, moves)  # type: ignore[attr-defined]
    assert ended and value > 0  # White, to move, wins
    stalemate = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
    outcome = Board(variant, stalemate).outcome()
    assert outcome is not None and outcome.winner == BLACK
    assert sf.legal_moves(exported.name, stalemate, []) == []  # type: ignore[attr-defined]
    assert sf.game_result(exported.name, stalemate, []) > 0  # type: ignore[attr-defined]


def test_p5_khans_needs_the_current_keys(capsys: pytest.CaptureFixture[str]) -> None:
    """11.1 has no custom pieces and one promotion rule for both sides: Khan's Chess is refused."""
    done = hordes_export(capsys, "khans", "--dialect", "11.1")
    assert done.returncode == 2 and done.stdout == ""
    assert "Fairy-Stockfish 11.1" in done.stderr and "piece T (Khatun)" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("name", "mechanisms"),
    [
        ("hordes", ["change of owner on capture (piece R, B)", "magnet pulls (piece +R, +B)",
                    "restrictions", "shape change (piece K, N, R, B, +R, +B)"]),
        ("andernach", ["change of owner on capture (piece P, N, B, R, Q)"]),
    ],
)  # fmt: skip
def test_p5_mechanisms_fairy_stockfish_lacks_are_named(
    name: str, mechanisms: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    done = hordes_export(capsys, "orda", name)  # one refused document: nothing at all is printed
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("hordes: error: cannot export")
    for mechanism in mechanisms:
        assert mechanism in done.stderr


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ('  topology: {type: grid, rows: 8, cols: 14}\n  setup: "14/14/14/14/14/14/14/K12k w - - 0 1"\n',
         "14 files"),
        ('  setup: "8/8/8/8/8/8/8/KK5k w - - 0 1"\n', "White 2 royal pieces"),
        ("  pieces:\n    X: {betza: W, royal: true}\n", "2 royal piece kinds (K, X)"),
    ],
)  # fmt: skip
def test_p5_documents_beyond_fairy_stockfish_are_refused(change: str, problem: str) -> None:
    text = f"---\ntitle: T\nslug: t\nparent: chess\nengine:\n{change}---\n"
    if "setup" not in change:
        text = text.replace("engine:\n", 'engine:\n  setup: "4k3/8/8/8/8/8/8/4K3 w - - 0 1"\n')
    with pytest.raises(ExportError, match=re.escape(problem)):
        export_variant(parse_variant(text))


def test_p5_section_names_avoid_the_builtin_variants() -> None:
    """A section named like a built-in variant is refused by Fairy-Stockfish ("already exists"):
    chess is exported as hordes-chess. The lists of built-in names are those of the real programs."""
    assert export_variant(load_variant("chess")).name == "hordes-chess"
    assert export_variant(load_variant("orda")).name == "orda"
    # pyffish's own list, in a fresh process: this one has loaded sections of ours
    code = "import pyffish; print(' '.join(pyffish.variants()))"
    listed = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert set(listed.stdout.split()) == BUILTIN_NAMES[CURRENT]


@needs_fsf
def test_p5_debian_builtin_names_and_dialect() -> None:
    with UciClient([FAIRY_STOCKFISH], timeout=10) as fsf:
        assert fsf.variants == BUILTIN_NAMES[DEBIAN]
        assert dialect_of(fsf.id_name) == DEBIAN
    assert dialect_of("Fairy-Stockfish 14.0.1 LB") == CURRENT


# ----- point 7: everything that drives Fairy-Stockfish uses the export ---------------------------------
@needs_fsf
def test_p7_handwritten_inis_agree_with_the_export() -> None:
    """The hand-written ini files stay as an independent reading of the rules: they must count the
    same perft as the exports that the differential suites now play from."""
    for slug in ("orda", "khans"):
        name = export_variant(load_variant(slug)).name
        assert pyffish_perft(HANDWRITTEN_PREFIX + slug, 3) == pyffish_perft(name, 3)
    exported = export_variant(load_variant("orda"), DEBIAN)
    ours = debian_perft(exported.text, exported.name, 3)
    assert debian_perft(HANDWRITTEN_DEBIAN_INI.read_text(), "orda", 3) == ours


@needs_fsf
def test_p7_a_fairy_stockfish_player_needs_no_variant_path(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`fairy-stockfish` as a player spec: taught Orda from a private temporary file, gone at once."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    player = parse_player("fairy-stockfish:Skill Level=0")
    assert isinstance(player, UciPlayer)
    board = Board("orda")
    try:
        player.new_game(board)
        assert list(tmp_path.iterdir()) == []  # the engine has read the file, and it is removed
        assert player.ini == export_variant(load_variant("orda"), DEBIAN).ini_id
        assert player.client is not None and player.client.perft(board, 2) == Board("orda").perft(2)
        move = player.move(board, Clock())
        assert board.is_legal(move)
    finally:
        player.close()


@needs_fsf
def test_p7_match_records_the_ini() -> None:
    job = GameJob(
        1, "random", "fairy-stockfish:Skill Level=0", True, "orda", Opening(None, (), "-"), None, 6, 1.0, 7
    )
    game = play_game(job)
    assert game.inis == ("", export_variant(load_variant("orda"), DEBIAN).ini_id)
    assert f'[BlackIni "{game.inis[1]}"]' in game_pgn(game)
    assert "WhiteIni" not in game_pgn(game)


def test_p7_selfplay_records_and_balance_reports_the_ini(tmp_path: Path) -> None:
    """A self-play record carries the ini tags, and `hordes balance` names the inis of its games."""
    from hordes.balance.collect import collect
    from hordes.balance.report import render_text, summarise
    from hordes.selfplay.store import game_record

    ini = export_variant(load_variant("orda"), DEBIAN).ini_id
    game = GameResult(1, "hordes", "fairy-stockfish", "1-0", "checkmate", Board("orda").fen(), ["e2e4"], "orda",
                      True, inis=("", ini))  # fmt: skip
    path = tmp_path / "games.pgn"
    path.write_bytes(game_record(game, 1, 0))
    assert f'[BlackIni "{ini}"]' in path.read_text()
    assert f"Fairy-Stockfish played from ini {ini}." in render_text(summarise(collect([str(path)])))
