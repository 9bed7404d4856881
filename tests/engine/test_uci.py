"""`hordes uci` driven through a pipe, as cutechess and fairyfishnet drive it."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from hordes import Board
from hordes.engine.client import HORDES_COMMAND, EngineError, UciClient

TIMEOUT = 20.0


@pytest.fixture
def engine() -> Iterator[UciClient]:
    client = UciClient(HORDES_COMMAND, name="hordes", timeout=TIMEOUT)
    yield client
    client.kill()


def _collect(client: UciClient, until: str, timeout: float = TIMEOUT) -> list[str]:
    return client._until(until, timeout)


def test_handshake_lists_every_variant_and_options(engine: UciClient) -> None:
    assert engine.id_name.startswith("hordes")
    assert {"chess", "orda", "khans", "hordes"} <= engine.variants
    assert {"uci_variant", "variantpath", "skill level", "hash"} <= engine.option_names


def test_cutechess_sequence(engine: UciClient) -> None:
    engine.send("setoption name UCI_Variant value orda")
    engine.is_ready()
    engine.send("ucinewgame")
    engine.is_ready()
    engine.send("position startpos moves e2e4 e6e5 g1f3")
    engine.send("go wtime 3000 btime 3000 winc 100 binc 100")
    lines = _collect(engine, "bestmove")
    assert any(line.startswith("info depth") and " score " in line and " pv " in line for line in lines)
    board = Board("orda")
    for text in ("e2e4", "e6e5", "g1f3"):
        board.push_uci(text)
    board.parse_uci(lines[-1].split()[1])  # legal, or this raises


def test_fairyfishnet_sequence(engine: UciClient) -> None:
    for line in (
        "setoption name threads value 1",
        "setoption name hash value 32",
        "setoption name UCI_Chess960 value false",
        "setoption name UCI_Variant value khans",
        "setoption name Skill Level value 20",
        "setoption name UCI_AnalyseMode value false",
        "ucinewgame",
    ):
        engine.send(line)
    engine.is_ready()
    fen = Board("khans").fen()
    engine.send(f"position fen {fen} moves ")
    engine.send("go movetime 300 depth 3 wtime 10000 btime 10000 winc 0 binc 0")
    lines = _collect(engine, "bestmove")
    Board("khans").parse_uci(lines[-1].split()[1])
    engine.send("d")
    engine.send("isready")
    lines = _collect(engine, "readyok")
    assert f"Fen: {fen}" in lines


def test_malformed_input_is_answered_and_survived(engine: UciClient) -> None:
    bad = [
        "hello world",
        "position",
        "position fen not/a/fen w - - 0 1",
        "position startpos moves e2e4 e2e4",
        "position banana",
        "setoption",
        "setoption name NoSuchOption value 3",
        "setoption name Hash value lots",
        "setoption name UCI_Variant value nosuchgame",
        "setoption name Skill Level value 99",
        "go depth",
        "go nodes many",
        "go frobnicate 3 depth 1",
    ]
    for line in bad:
        engine.send(line)
        engine.send("isready")
        lines = _collect(engine, "readyok")
        if not line.startswith("go"):
            assert any(x.startswith("info string") for x in lines), f"no complaint about {line!r}: {lines}"
    # After all that, the engine still plays a legal move from the last good position.
    engine.send("position startpos moves e2e4")
    engine.send("go depth 2")
    lines = _collect(engine, "bestmove")
    board = Board("chess")
    board.push_uci("e2e4")
    board.parse_uci(lines[-1].split()[1])


def test_p8_illegal_move_refuses_the_whole_position(engine: UciClient) -> None:
    """An illegal move in `position ... moves` refuses the command: the engine names the move and
    answers `go` with bestmove 0000 rather than play from the moves before it (once the rule)."""
    engine.send("position startpos moves e2e4 e7e5 e1e3 g1f3")
    engine.send("isready")
    lines = _collect(engine, "readyok")
    assert any("e1e3" in line and "move 3" in line and line.startswith("info string") for line in lines)
    engine.send("go depth 2")
    lines = _collect(engine, "bestmove")
    assert lines[-1] == "bestmove 0000" and any("no valid position" in line for line in lines)


def test_p8_a_refused_position_is_never_played_from(engine: UciClient) -> None:
    """Once the engine played from the previous position after refusing a FEN. Now a refused
    position (here a Chess960 one in Shredder-FEN) leaves `go` answering bestmove 0000, `go perft`
    counting nothing, until a valid position arrives."""
    engine.send("position startpos moves e2e4")
    engine.send("position fen bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1")
    engine.send("isready")
    lines = _collect(engine, "readyok")
    assert any(line.startswith("info string position refused") and "castling" in line for line in lines)
    for _ in range(2):  # it stays refused
        engine.send("go depth 2")
        assert _collect(engine, "bestmove")[-1] == "bestmove 0000"
    engine.send("go perft 2")
    engine.send("isready")
    lines = _collect(engine, "readyok")
    assert any(line.startswith("info string go perft: no valid position") for line in lines)
    assert not any(line.startswith("Nodes searched") for line in lines)
    engine.send("position startpos moves d2d4")
    engine.send("go depth 1")
    board = Board("chess")
    board.push_uci("d2d4")
    board.parse_uci(_collect(engine, "bestmove")[-1].split()[1])
    # The same Chess960 position in X-FEN (KQkq): the rights would name the rooks on f1 and h1,
    # and with a king on f1 castling short would read as the king's step f1g1.
    for fen, what in (
        ("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1", "rook on f1"),
        ("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4K1R w KQkq - 0 1", "king off e1"),
    ):
        engine.send(f"position fen {fen}")
        engine.send("go depth 1")
        lines = _collect(engine, "bestmove")
        assert lines[-1] == "bestmove 0000"
        assert any(line.startswith("info string position refused") and what in line for line in lines), lines


def test_p8_chess960_is_not_offered_and_turning_it_on_is_an_error(engine: UciClient) -> None:
    assert "uci_chess960" not in engine.option_names
    engine.send("setoption name UCI_Chess960 value false")  # fairyfishnet sends this: accepted quietly
    engine.send("setoption name UCI_Chess960 value true")
    engine.send("isready")
    lines = _collect(engine, "readyok")
    assert len([line for line in lines if line.startswith("info string")]) == 1
    assert any(line.startswith("info string error: UCI_Chess960 is not supported") for line in lines)


def _multipv_lines(lines: list[str], depth: int) -> dict[int, list[str]]:
    """rank -> tokens of the `info depth <depth> ... multipv <rank>` lines."""
    out = {}
    for line in lines:
        tokens = line.split()
        if tokens[:3] == ["info", "depth", str(depth)] and "multipv" in tokens:
            out[int(tokens[tokens.index("multipv") + 1])] = tokens
    return out


def test_p8_multipv_in_a_variant(engine: UciClient) -> None:
    """MultiPV 3 in Orda: at each depth three lines with distinct first moves, best score first;
    the move played is line 1. Back to MultiPV 1, a single line per depth."""
    engine.send("setoption name UCI_Variant value orda")
    engine.send("setoption name MultiPV value 3")
    engine.send("position startpos moves e2e4")
    engine.send("go depth 3")
    lines = _collect(engine, "bestmove")
    board = Board("orda")
    board.push_uci("e2e4")
    for depth in (1, 2, 3):
        ranked = _multipv_lines(lines, depth)
        assert sorted(ranked) == [1, 2, 3], lines
        firsts = [ranked[k][ranked[k].index("pv") + 1] for k in (1, 2, 3)]
        assert len(set(firsts)) == 3 and all(board.parse_uci(m) for m in firsts)
        scores = [int(ranked[k][ranked[k].index("cp") + 1]) for k in (1, 2, 3)]
        assert scores == sorted(scores, reverse=True), lines
    assert lines[-1].split()[1] == _multipv_lines(lines, 3)[1][_multipv_lines(lines, 3)[1].index("pv") + 1]
    engine.send("setoption name MultiPV value 1")
    engine.send("go depth 2")
    lines = _collect(engine, "bestmove")
    assert sorted(_multipv_lines(lines, 2)) == [1]
    engine.send("setoption name MultiPV value 500")
    engine.send("isready")
    assert any("MultiPV 500 is outside 1..32" in line for line in _collect(engine, "readyok"))


def test_p8_show_wdl_adds_wdl_to_the_info_lines(engine: UciClient) -> None:
    engine.send("setoption name UCI_ShowWDL value true")
    engine.send("position startpos")
    engine.send("go depth 2")
    infos = [line.split() for line in _collect(engine, "bestmove") if line.startswith("info depth")]
    assert infos
    for tokens in infos:
        at = tokens.index("wdl")
        assert sum(int(x) for x in tokens[at + 1 : at + 4]) == 1000


def test_stop_during_go_infinite(engine: UciClient) -> None:
    engine.send("position startpos")
    engine.send("go infinite")
    engine.send("isready")  # answered while the search runs
    lines = _collect(engine, "readyok")
    assert not any(line.startswith("bestmove") for line in lines)  # infinite: no move before stop
    engine.send("stop")  # an infinite search answers only now, so the bestmove proves that stop ended it
    lines = _collect(engine, "bestmove")
    Board("chess").parse_uci(lines[-1].split()[1])


def test_game_over_position_answers_none(engine: UciClient) -> None:
    engine.send("position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")
    engine.send("go depth 3")
    lines = _collect(engine, "bestmove")
    assert lines[-1] == "bestmove (none)"


def test_variant_path_loads_a_document(engine: UciClient, tmp_path: Path) -> None:
    doc = tmp_path / "pawnless.md"
    doc.write_text(
        "---\ntitle: Pawnless Test\nslug: pawnlesstest\nparent: chess\n"
        'engine:\n  setup: "rnbqkbnr/8/8/8/8/8/8/RNBQKBNR w KQkq - 0 1"\n---\n\nA test game.\n'
    )
    engine.send(f"setoption name VariantPath value {doc}")
    engine.send("setoption name UCI_Variant value pawnlesstest")
    engine.send("position startpos")
    engine.send("go depth 1")
    lines = _collect(engine, "bestmove")
    assert any("var pawnlesstest" in line for line in lines)  # the combo is announced again
    assert any("startpos rnbqkbnr/8/8/8/8/8/8/RNBQKBNR" in line for line in lines)


def test_go_perft(engine: UciClient) -> None:
    engine.send("setoption name UCI_Variant value orda")
    assert engine.perft(Board("orda"), 2) == 560


def test_p12_go_perft_answers_isready_and_stop_while_it_counts(engine: UciClient) -> None:
    """`go perft` runs in the worker thread like a search. Orda's perft 6 (some 300 million leaves)
    takes minutes, so `readyok` comes before it could end, and `stop` ends it without a total."""
    engine.send("setoption name UCI_Variant value orda")
    engine.send("position startpos")
    engine.send("go perft 6")
    engine.send("isready")
    lines = _collect(engine, "readyok")
    assert not any(line.startswith("Nodes searched") for line in lines)
    engine.send("stop")
    engine.send("isready")
    lines = _collect(engine, "readyok")
    assert any(line.startswith("info string perft 6 stopped after") for line in lines), lines
    assert not any(line.startswith("Nodes searched") for line in lines)  # a partial count is no answer
    engine.send("go perft 7")  # the stopped perft is over: a new one starts (and is stopped)
    engine.send("stop")
    engine.send("isready")
    assert any(line.startswith("info string perft 7 stopped") for line in _collect(engine, "readyok"))


def test_p12_go_perft_prints_stockfish_divide_lines(engine: UciClient) -> None:
    """A completed perft: `move: count` for each of the 20 moves, then the published total, chess
    perft 3 = 8902; a `go` sent the moment the total is read starts a search."""
    engine.send("position startpos")
    engine.send("go perft 3")
    lines = _collect(engine, "Nodes searched:")
    assert lines[-1] == "Nodes searched: 8902"
    divide = [line.split(": ") for line in lines if ": " in line and not line.startswith("info")]
    board = Board("chess")
    assert {board.parse_uci(move) for move, _ in divide[:-1]} == set(board.legal_moves)
    assert sum(int(count) for _, count in divide[:-1]) == 8902
    engine.send("go depth 1")
    board.parse_uci(_collect(engine, "bestmove")[-1].split()[1])


def test_quit_ends_the_process() -> None:
    proc = subprocess.run(
        HORDES_COMMAND, input="uci\nisready\nquit\n", capture_output=True, text=True, timeout=TIMEOUT
    )
    assert proc.returncode == 0
    assert "uciok" in proc.stdout and "readyok" in proc.stdout


def test_end_of_input_ends_the_process_after_the_search() -> None:
    proc = subprocess.run(
        HORDES_COMMAND,
        input="position startpos\ngo depth 2\n",
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert proc.returncode == 0
    assert "bestmove" in proc.stdout


def test_p12_end_of_input_lets_a_perft_finish() -> None:
    """`printf 'go perft 3' | hordes uci` prints the total, as Stockfish does (a search would be stopped)."""
    proc = subprocess.run(
        HORDES_COMMAND,
        input="position startpos\ngo perft 3\n",
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert proc.returncode == 0
    assert "Nodes searched: 8902" in proc.stdout.splitlines()


def test_client_reports_a_dead_engine() -> None:
    with pytest.raises(EngineError):
        UciClient(["/bin/false"], timeout=5)


def test_go_right_after_bestmove_is_never_ignored(engine: UciClient) -> None:
    """A GUI sends the next `go` the moment it reads `bestmove`, while the search thread is still
    returning: that `go` must start a search (a race once made the engine ignore it)."""
    board = Board("chess")
    for _ in range(30):
        move = engine.play(board, nodes=40, timeout=10)
        board.push(move)
        if board.outcome() is not None:
            break
