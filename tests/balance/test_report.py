"""`collect` and `summarise` on the hand-made games of tests/balance/data, every count known in advance.

data/chess.pgn (10 games):
  1 fool's mate 0-1, tagged checkmate, 4 plies         6 knight shuffle 1/2, untagged: repetition, 8 plies
  2 scholar's mate 1-0, untagged: checkmate, 7 plies   7 Loyd's stalemate 1/2, untagged: stalemate, 19 plies
  3 Ruy Lopez 1/2, tagged ply limit, 6 plies           8 1. d4 d5 2. c4 e6 0-1, tagged illegal move, 4 plies
  4 Italian 1-0, tagged time forfeit, 6 plies          9 1. d4 d5, Result "*": unfinished
  5 Four Knights 0-1, untagged, not over: unknown      10 an illegal 2. Ke3: broken
data/more/orda.pgn (7 games, Variant tags "Orda", "orda" and "Orda Chess"):
  1 Black mates, tagged, 16 plies                      5 1. e4 e5 2. d4 exd4 3. Nf3 Lc7 0-1, engine failure
  2 White mates, untagged: checkmate, 29 plies         6 1. e4 e5 2. d4 exd4 1-0, tagged "Time  forfeit"
  3 campmate from a FEN, 1 ply, 1-0                    7 1. d4 Lf7 2. Qd3 Ye7 3. Qf3 1/2, untagged: unknown
  4 1. e4 e5 2. d4 exd4 3. Qxd4 Ke7 1/2, ply limit
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from hordes.balance.collect import collect, pgn_files
from hordes.balance.report import Report, VariantReport, render_text, summarise
from hordes.errors import HordesError, UnknownVariantError

DATA = Path(__file__).parent / "data"
CHESS = DATA / "chess.pgn"
ORDA = DATA / "more" / "orda.pgn"


@pytest.fixture(scope="module")
def report() -> Report:
    return summarise(collect([DATA]))


def section(report: Report, slug: str) -> VariantReport:
    return next(s for s in report.variants if s.slug == slug)


def test_files_are_found_recursively_in_order() -> None:
    assert pgn_files(DATA) == [CHESS, ORDA]  # more/README.txt is not a PGN file
    assert pgn_files(CHESS) == [CHESS]


def test_broken_and_unfinished_games_are_counted_apart(report: Report) -> None:
    assert [(b.source, b.number) for b in report.broken] == [(str(CHESS), 10)]
    assert "illegal move 'Ke3'" in report.broken[0].reason
    assert [(s.slug, s.games, s.unfinished) for s in report.variants] == [("chess", 8, 1), ("orda", 7, 0)]
    assert report.games == 16


def test_chess_results(report: Report) -> None:
    chess = section(report, "chess")
    assert (chess.white.count, chess.black.count, chess.draws.count) == (2, 3, 3)
    assert chess.white.total == chess.black.total == chess.draws.total == 8
    assert chess.white.value == 0.25
    # Wilson interval of 2 of 8, by hand in test_stats: [0.071479, 0.590725]
    assert (chess.white.ci.low, chess.white.ci.high) == pytest.approx((0.071479, 0.590725), abs=1e-6)
    assert chess.score == 3.5 / 8
    assert (chess.score_ci.low, chess.score_ci.high) == pytest.approx((0.234543, 0.681008), abs=1e-6)
    assert chess.elo == pytest.approx(-400 * math.log10(4.5 / 3.5))  # -43.7
    assert chess.elo_ci.low < chess.elo < chess.elo_ci.high


def test_chess_terminations(report: Report) -> None:
    chess = section(report, "chess")
    rows = {t.name: (t.white, t.black, t.draws, t.inferred) for t in chess.terminations}
    assert rows == {
        "checkmate": (1, 1, 0, 1),
        "adjudication: ply limit": (0, 0, 1, 0),
        "time forfeit": (1, 0, 0, 0),
        "unknown": (0, 1, 0, 0),
        "threefold repetition": (0, 0, 1, 1),
        "stalemate": (0, 0, 1, 1),
        "illegal move": (0, 1, 0, 0),
    }
    assert chess.terminations[0].name == "checkmate"  # most games first
    assert chess.inferred_terminations == 3


def test_chess_lengths(report: Report) -> None:
    chess = section(report, "chess")
    assert sorted(chess.plies["all"]) == [4, 4, 6, 6, 6, 7, 8, 19]
    assert sorted(chess.plies["1-0"]) == [6, 7]
    assert sorted(chess.plies["0-1"]) == [4, 4, 6]
    assert sorted(chess.plies["1/2-1/2"]) == [6, 8, 19]
    every = chess.lengths["all"]
    assert every is not None
    assert (every.minimum, every.q1, every.median, every.q3, every.mean, every.maximum) == (
        4, 5.5, 6, 7.25, 7.5, 19,
    )  # fmt: skip
    draws = chess.lengths["1/2-1/2"]
    assert draws is not None
    assert (draws.minimum, draws.q1, draws.median, draws.q3, draws.maximum) == (6, 7, 8, 13.5, 19)


def test_chess_openings(report: Report) -> None:
    chess = section(report, "chess")
    rows = [(o.line, o.games, o.white, o.draws, o.black, o.score) for o in chess.openings]
    assert rows == [
        ("1. e4 e5 2. Nf3 Nc6", 3, 1, 1, 1, 0.5),
        ("1. e4 e5 2. Bc4 Nc6", 1, 1, 0, 0, 1.0),
        ("1. Nf3 Nf6 2. Ng1 Ng8", 1, 0, 1, 0, 0.5),
        ("1. e3 a5 2. Qh5 Ra6", 1, 0, 1, 0, 0.5),
        ("1. d4 d5 2. c4 e6", 1, 0, 0, 1, 0.0),
        ("1. f3 e5 2. g4 Qh4#", 1, 0, 0, 1, 0.0),
    ]
    assert chess.distinct_openings == 6


def test_orda(report: Report) -> None:
    orda = section(report, "orda")
    assert orda.title == "Orda Chess"
    assert (orda.white.count, orda.black.count, orda.draws.count) == (3, 2, 2)
    rows = {t.name: (t.white, t.black, t.draws, t.inferred) for t in orda.terminations}
    assert rows == {
        "checkmate": (1, 1, 0, 1),
        "campmate": (1, 0, 0, 0),
        "adjudication: ply limit": (0, 0, 1, 0),
        "engine failure": (0, 1, 0, 0),
        "time forfeit": (1, 0, 0, 0),  # the tag's spacing and capitals do not split a row
        "unknown": (0, 0, 1, 0),
    }
    every = orda.lengths["all"]
    assert every is not None
    assert (every.minimum, every.q1, every.median, every.q3, every.maximum) == (1, 4.5, 6, 11, 29)
    assert every.mean == pytest.approx(67 / 7)
    rows2 = [(o.label, o.games, o.score) for o in orda.openings]
    assert rows2 == [
        ("1. e4 e5 2. d4 exd4", 3, 0.5),
        ("1. d4 Lf7 2. Qd3 Ye7", 2, 0.75),
        ("[7k/4K3/8/8/8/8/8/l7 w - - 0 40] 40. Kd8", 1, 1.0),  # its own start, named
        ("1. b3 Lc7 2. g4 Ad7", 1, 0.0),
    ]


def test_top_and_opening_plies() -> None:
    data = collect([CHESS], opening_plies=2)
    chess = summarise(data, top=2).variants[0]
    # 1. e4 e5 in games 2-5; then four lines of one game each, ordered by White's score (0.5 for
    # 1. Nf3 Nf6 and 1. e3 a5, 0 for the others), then by text: "N" sorts before "e".
    assert [(o.line, o.games, o.score) for o in chess.openings] == [
        ("1. e4 e5", 4, 0.625),
        ("1. Nf3 Nf6", 1, 0.5),
    ]
    assert chess.distinct_openings == 5


def test_variant_filter() -> None:
    data = collect([DATA], variant="Orda")
    assert [g.variant for g in data.games] == ["orda"] * 7
    assert data.other_variants == {"chess": 9}
    assert len(data.broken) == 1  # broken games are reported whatever their variant
    with pytest.raises(UnknownVariantError, match="nosuchvariant"):
        collect([DATA], variant="nosuchvariant")
    with pytest.raises(HordesError, match=r"no khans games .* \(found: chess 9\)"):
        collect([CHESS], variant="khans")


def test_user_errors(tmp_path: Path) -> None:
    with pytest.raises(HordesError, match="no such file or directory"):
        collect([tmp_path / "missing.pgn"])
    with pytest.raises(HordesError, match=r"no \.pgn files"):
        collect([tmp_path])
    only_broken = tmp_path / "broken.pgn"
    only_broken.write_text('[Result "1-0"]\n\n1. e4 e5 2. Ke3 1-0\n')
    with pytest.raises(HordesError, match="no readable games"):
        collect([only_broken])
    empty = tmp_path / "empty.pgn"
    empty.write_text("")
    with pytest.raises(HordesError, match="no readable games"):
        collect([empty])


def test_undecodable_file_is_reported_not_fatal(tmp_path: Path) -> None:
    (tmp_path / "a.pgn").write_bytes(b"\xff\xfe[Event \x81]")
    (tmp_path / "b.pgn").write_text('[Result "0-1"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n')
    data = collect([tmp_path])
    assert [(b.number, b.reason.split(" (")[0]) for b in data.broken] == [(0, "not UTF-8 text")]
    assert [g.termination for g in data.games] == ["checkmate"]


def test_text_rendering(report: Report) -> None:
    text = render_text(report)
    lines = [" ".join(line.split()) for line in text.splitlines()]
    assert "Chess: 8 games (and 1 unfinished, not counted)" in lines
    assert "Orda Chess: 7 games" in lines
    assert "White wins 2 25.0 % 7.1–59.1 %" in lines
    assert "Black wins 3 37.5 % 13.7–69.4 %" in lines
    assert "checkmate* 2 1 1 0" in lines
    assert "All games 8 4 5.5 6 7.25 7.5 19" in lines
    assert "1. e4 e5 2. Nf3 Nc6 3 50.0 % 19.4–80.6 % 1/1/1" in lines  # the interval: score_interval(1, 1, 1)
    assert "1 game could not be read and is left out." in lines
    assert any("Wilson" in line for line in lines)
    assert any(line.startswith("No significant first-move advantage: White scores 43.8 %") for line in lines)
