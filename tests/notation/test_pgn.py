"""PGN reading and writing: tags, comments, NAGs, variations, variants, broken games, round trips."""

from __future__ import annotations

import io
import itertools
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hordes import Board, HordesError
from hordes.core import movegen
from hordes.notation import Game, PgnError, read_game, read_games, write_game
from hordes.notation.pgn import GameNode, parse_game, pgn_variant_name, resolve_variant

DATA = Path(__file__).parent / "data"

SAMPLE = r"""[Event "Casual \"blitz\" game"]
[Site "https://www.pychess.org/abc123"]
[Date "2024.05.01"]
[Round "-"]
[White "Temujin"]
[Black "Subutai \\ the swift"]
[Result "0-1"]
[TimeControl "300+3"]
[WhiteElo "1500"]
[Variant "Orda"]
[FEN "lhaykahl/8/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1"]
[SetUp "1"]
[Termination "campmate"]
[Annotator "nobody"]

{A short game} 1. e4 {[%clk 0:05:00]} 1... Hf7 2. Nf3!? (2. d4 {the
  other plan} Lc7 $2 (2... Hd7 3. Qh5) 3. d5) 2... Hd7 $14 ; a rest-of-line comment
3. d3?! ! Hc5 0-1
"""


def test_sample_tags_and_tree() -> None:
    game = parse_game(SAMPLE)
    assert game.variant.slug == "orda"
    assert game.headers["Event"] == 'Casual "blitz" game'
    assert game.headers["Black"] == "Subutai \\ the swift"
    assert list(game.headers)[:7] == ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
    assert game.headers["Annotator"] == "nobody"
    assert game.result == "0-1"
    assert game.comment == "A short game"
    nodes = list(game.mainline())
    assert [n.san() for n in nodes] == ["e4", "Hf7", "Nf3", "Hd7", "d3", "Hc5"]
    assert nodes[0].comment == "[%clk 0:05:00]"
    assert nodes[2].nags == {5}
    assert nodes[3].nags == {14} and nodes[3].comment == "a rest-of-line comment"
    assert nodes[4].nags == {6, 1}  # "?!" suffix, then a lone "!"
    side = nodes[1].variations[1]
    assert side.san() == "d4" and side.comment == "the\n  other plan"  # as written, as python-chess reads it
    assert [n.san() for n in side.mainline()] == ["Lc7", "d5"]
    lc7, hd7 = side.variations
    assert lc7.nags == {2}
    assert hd7.san() == "Hd7" and not hd7.is_mainline()
    assert [n.san() for n in hd7.mainline()] == ["Qh5"]
    final = Board("orda")
    for uci in ("e2e4", "g8f7", "g1f3", "b8d7", "d2d3", "d7c5"):
        final.push_uci(uci)
    assert game.end().board().fen() == final.fen()
    assert nodes[-1].board().fen() == final.fen()
    assert game.board().fen() == game.start_board().fen() == Board("orda").fen()


def test_write_sample() -> None:
    text = str(parse_game(SAMPLE))
    assert all(len(line) <= 80 for line in text.splitlines())
    assert '[Event "Casual \\"blitz\\" game"]' in text
    assert '[Black "Subutai \\\\ the swift"]' in text
    assert (
        "2. Nf3 $5 (2. d4 { the other plan } 2... Lc7 $2 (2... Hd7 3. Qh5) 3. d5) 2... Hd7 $14"
        in " ".join(text.split())
    )
    assert text.rstrip().endswith("0-1")
    again = parse_game(text)
    assert str(again) == text


@pytest.mark.parametrize("name", ["Orda", "orda", "ORDA", "Orda Chess", "orda-chess", "OrdaChess"])
def test_variant_names(name: str) -> None:
    game = parse_game(f'[Variant "{name}"]\n\n1. e4 Hf7 *\n')
    assert game.variant.slug == "orda"


@pytest.mark.parametrize("name", ["Khans", "khans", "Khan's Chess", "KHANS-CHESS"])
def test_khans_names(name: str) -> None:
    assert resolve_variant(name).slug == "khans"


@pytest.mark.parametrize("name", ["Standard", "chess", "From Position", ""])
def test_chess_names(name: str) -> None:
    assert resolve_variant(name).slug == "chess"


def test_variant_tag_never_opens_files(tmp_path: Path) -> None:
    doc = tmp_path / "x.md"
    doc.write_text("---\n---\n")
    game = next(read_games(f'[Variant "{doc}"]\n\n1. e4 *\n'))
    assert game is not None and game.error is not None
    assert "not a file" in str(game.error)
    with pytest.raises(PgnError):
        game.variant  # noqa: B018 - the property raises the game's error


def test_p2_game_takes_tags_first_like_python_chess() -> None:
    game = Game({"White": "a", "Variant": "Orda"})
    assert dict(game.headers) == {"White": "a", "Variant": "Orda"} and game.variant.slug == "orda"
    assert dict(Game().headers) == {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?",
                                    "White": "?", "Black": "?", "Result": "*"}  # fmt: skip
    assert len(Game.without_tag_roster().headers) == 0
    with pytest.raises(TypeError, match="variant='orda'"):
        Game("orda")  # type: ignore[arg-type]


def test_pychess_variant_names_written() -> None:
    assert pgn_variant_name(resolve_variant("orda")) == "Orda"
    assert pgn_variant_name(resolve_variant("khans")) == "Khans"
    orda = write_game(Game(variant="orda"))
    assert '[Variant "Orda"]' in orda and "FEN" not in orda
    chess = write_game(Game(variant="chess"))
    assert "Variant" not in chess


def test_fen_and_setup_written_for_a_set_up_position() -> None:
    fen = "8/4K3/8/8/8/8/k7/8 w - - 0 1"
    game = Game(variant="orda", fen=fen)
    game.add_line([Board("orda", fen).parse_uci("e7d8")])
    game.result = "1-0"
    text = write_game(game)
    assert f'[FEN "{fen}"]' in text and '[SetUp "1"]' in text
    assert "1. Kd8 1-0" in text
    back = parse_game(text)
    assert back.start_fen == fen
    assert back.end().board().outcome() is not None


def test_black_to_move_start_and_numbering() -> None:
    board = Board("chess")
    board.push_uci("e2e4")
    game = Game(variant="chess", fen=board.fen())
    game.add_line(
        [
            board.parse_uci("e7e5"),
            Board("chess", "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2").parse_uci("g1f3"),
        ]
    )
    assert "1... e5 2. Nf3 *" in write_game(game)


def test_several_games_and_sources(tmp_path: Path) -> None:
    text = SAMPLE + "\n" + '[Event "second"]\n\n1. d4 d5 1/2-1/2\n\n1. c4 *\n'
    path = tmp_path / "games.pgn"
    path.write_text(text)
    for source in (text, path, io.StringIO(text)):
        games = list(read_games(source))  # type: ignore[arg-type]
        assert [g.number for g in games] == [1, 2, 3]
        assert [g.error for g in games] == [None, None, None]
        assert [g.result for g in games] == ["0-1", "1/2-1/2", "*"]
        assert games[2].headers["Event"] == "?" if "Event" in games[2].headers else True


def test_empty_input() -> None:
    assert list(read_games("")) == []
    assert list(read_games("\n\n  ; just a comment\n% escape line\n")) == []
    assert read_game(io.StringIO("")) is None
    with pytest.raises(TypeError, match="parse_game"):
        read_game("1. e4 *")  # type: ignore[arg-type]
    with pytest.raises(PgnError):
        parse_game("")


def test_game_without_tags_and_escape_lines() -> None:
    games = list(read_games("% exported by something\n1. e4 e5 *\n1. d4 *\n"))
    assert [len(g.mainline_moves()) for g in games] == [2, 1]


def test_from_board_and_result() -> None:
    board = Board("chess")
    for uci in ("f2f3", "e7e5", "g2g4", "d8h4"):
        board.push_uci(uci)
    game = Game.from_board(board, {"White": "a"})
    assert game.result == "0-1"
    assert game.headers["White"] == "a"
    assert "2. g4 Qh4# 0-1" in str(game)
    assert game.end().board().fen() == board.fen()
    assert game.board().fen() == Board("chess").fen()


def test_node_api() -> None:
    game = Game(variant="orda")
    board = Board("orda")
    e4 = game.add_variation(board.parse_uci("e2e4"))
    d4 = game.add_variation(board.parse_uci("d2d4"), comment="also good", nags=[5])
    assert game.next() is e4 and d4.ply() == 1 and not d4.is_mainline()
    game.add_main_variation(board.parse_uci("c2c4"))
    assert game.next() is not e4
    assert game.variations[0].move == board.parse_uci("c2c4")
    with pytest.raises(HordesError):
        e4.add_variation(board.parse_uci("e2e4"))  # not legal after 1. e4
    with pytest.raises(ValueError):
        game.san()
    assert "(1. e4) (1. d4 $5 { also good })" in str(game).replace("\n", " ")
    assert isinstance(e4, GameNode) and e4.game() is game and e4.end() is e4


def test_long_and_multi_line_comments_read_back_as_written() -> None:
    game = Game()
    node = game.add_variation(Board("chess").parse_uci("e2e4"))
    node.comment = " ".join(["word"] * 60)
    reply = node.add_variation(Board("chess", node.board().fen()).parse_uci("e7e5"))
    reply.comment = "two\n  lines "
    text = str(game)
    assert all(len(line) <= 80 for line in text.splitlines() if "{" not in line)
    back = parse_game(text)
    assert [n.comment for n in back.mainline()] == [node.comment, reply.comment]


def test_comment_close_brace_is_replaced_on_write() -> None:
    game = Game()
    node = game.add_variation(Board("chess").parse_uci("e2e4"))
    node.comment = "a } b"
    assert parse_game(str(game)).next().comment == "a ) b"  # type: ignore[union-attr]


# ----- broken files: each holds a good game, the broken one, and a good game after it ---------------------
BROKEN = [
    # (file, move number, token, words in the message)
    ("bad_token", "2...", "@@", "not a move"),
    ("illegal_move", "2...", "Lxe4", "illegal move 'Lxe4'"),
    ("ambiguous_move", "3.", "Nd2", "candidates: Nbd2, Nfd2"),
    ("unknown_variant", None, "Shogi", "unknown variant 'Shogi'"),
    ("bad_fen", None, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "bad FEN tag"),
    ("unterminated_comment", "1...", "{", "unterminated comment"),
    ("unterminated_variation", "3.", "*", "unterminated variation"),
    ("missing_result", "3.", None, "missing result"),
    ("malformed_tag", None, '[Event "malformed tag]', "malformed tag pair"),
    ("null_move", "1...", "--", "null move"),
    ("result_mismatch", "2.", "0-1", "differs from the Result tag"),
    ("unbalanced_paren", "2.", ")", "without a variation"),
    ("move_after_campmate", "1...", "Kb2", "the game is over by campmate"),
    ("variation_first", "1.", "(", "before any move"),
]


@pytest.mark.parametrize(("name", "move", "token", "words"), BROKEN)
def test_broken_game_is_reported_and_reading_goes_on(
    name: str, move: str | None, token: str | None, words: str
) -> None:
    games = list(read_games(DATA / "broken" / f"{name}.pgn"))
    assert len(games) == 3
    first, broken, after = games
    assert first.error is None and len(first.mainline_moves()) == 4
    assert after.error is None and after.result == "0-1" and after.end().board().is_check()
    err = broken.error
    assert isinstance(err, PgnError)
    assert (err.game, err.move, err.token) == (2, move, token)
    assert words in str(err)
    assert str(err).startswith("game 2")
    assert err.line > 6


def test_broken_game_keeps_its_tags_and_legal_moves() -> None:
    games = list(read_games(DATA / "broken" / "illegal_move.pgn"))
    broken = games[1]
    assert broken.headers["Event"] == "illegal move"
    assert len(broken.mainline_moves()) == 3  # e4 Hf7 Nf3, then Lxe4 is illegal


def test_parse_game_raises_the_error() -> None:
    with pytest.raises(PgnError, match="ambiguous"):
        parse_game("1. Nf3 d5 2. d3 e5 3. Nd2 *")


# ----- round trip (hypothesis) ------------------------------------------------------------------------
def _random_game(variant: str, seed: int, plies: int, extras: bool) -> Game:
    """A random game with, if `extras`, comments, NAGs and side variations sprinkled in."""
    rng = random.Random(seed)
    board = Board(variant)
    if rng.random() < 0.3:  # sometimes from a set-up position
        for _ in range(rng.randrange(1, 6)):
            legal = movegen.generate_legal(board)
            if not legal:
                break
            board.push_int(rng.choice(legal))
        board = Board(variant, board.fen())
    game = Game(variant=variant, fen=board.fen() if board.fen() != board.variant.start_fen else None)
    node: GameNode = game
    for _ in range(plies):
        legal = movegen.generate_legal(board)
        if not legal or board.outcome() is not None:
            break
        if extras and len(legal) > 1 and rng.random() < 0.1:
            alt = node.add_variation(board.int_to_move(rng.choice(legal)))
            alt.comment = rng.choice(["", "an idea", "{not} this"])
            alt.starting_comment = rng.choice(["", "or", "  spaced\nout "])
        m = rng.choice(legal)
        child = node.add_variation(board.int_to_move(m))
        if child is not node.variations[0]:
            node.variations.insert(0, node.variations.pop())
        if extras and rng.random() < 0.2:
            child.comment = rng.choice(
                ["good", "a [%clk 0:01:02] clock", "long " * 30, " padded ", "two\nlines"]
            )
        if extras and rng.random() < 0.15:
            child.nags = {rng.randrange(1, 20), rng.randrange(1, 20)}
        board.push_int(m)
        node = child
    game.result = board.result() if board.outcome() else rng.choice(["*", "1-0", "0-1", "1/2-1/2"])
    return game


def _shape(node: GameNode) -> list[object]:
    return [
        (
            child.move,
            child.comment.replace("}", ")"),
            child.nags,
            child.starting_comment,
            _shape(child),
        )
        for child in node.variations
    ]


tag_text = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc")),  # no surrogates or control characters
    max_size=30,
).map(lambda s: " ".join(s.split()))


@settings(max_examples=60, deadline=None)
@given(
    variant=st.sampled_from(["chess", "orda", "khans"]),
    seed=st.integers(0, 10**6),
    plies=st.integers(0, 120),
    extras=st.booleans(),
    tags=st.dictionaries(st.from_regex(r"[A-Z][A-Za-z0-9_]{0,10}", fullmatch=True), tag_text, max_size=4),
)
def test_round_trip(variant: str, seed: int, plies: int, extras: bool, tags: dict[str, str]) -> None:
    game = _random_game(variant, seed, plies, extras)
    for key, value in tags.items():
        if key not in ("Variant", "FEN", "SetUp", "Result"):
            game.headers[key] = value
    text = write_game(game)
    assert all(len(line) <= 80 for line in text.splitlines() if not line.startswith("[") and "{" not in line)
    back = list(read_games(text))
    assert len(back) == 1
    again = back[0]
    assert again.error is None, again.error
    assert again.variant is game.variant
    assert again.mainline_moves() == game.mainline_moves()
    assert again.result == game.result
    expected = {k: v for k, v in game.headers.items()}
    assert {k: again.headers[k] for k in expected} == expected
    assert again.start_fen == game.start_fen
    assert _shape(again) == _shape(game)
    assert write_game(again) == text


# ----- round trip over the test corpus -----------------------------------------------------------------
CORPUS_FILES = sorted(p.relative_to(DATA).as_posix() for p in DATA.rglob("*.pgn"))


def _tree(node: GameNode) -> list[object]:
    """Everything the writer must keep: moves, variations, comments, starting comments, NAGs, clocks."""
    return [
        (c.move.uci(), c.comment, c.starting_comment, sorted(c.nags), c.clock(), _tree(c))
        for c in node.variations
    ]


@pytest.mark.parametrize("name", CORPUS_FILES)
def test_p2_read_write_read_gives_the_same_tree(name: str) -> None:
    games = [g for g in itertools.islice(read_games(DATA / name), 50) if g.error is None]  # 50: time
    assert games
    for game in games:
        text = write_game(game)
        back = parse_game(text)
        assert dict(back.headers) == dict(game.headers), f"{name} game {game.number}"
        assert back.variant is game.variant and back.start_fen == game.start_fen
        assert back.comment == game.comment
        assert _tree(back) == _tree(game), f"{name} game {game.number}"
        assert write_game(back) == text


def test_p2_the_corpus_holds_what_the_round_trip_checks() -> None:
    nodes = []
    for name in CORPUS_FILES:
        for game in itertools.islice(read_games(DATA / name), 50):
            stack = list(game.variations)
            while stack:
                node = stack.pop()
                nodes.append(node)
                stack.extend(node.variations)
    assert len(CORPUS_FILES) >= 18
    assert any(len(n.variations) > 2 for n in nodes) and any(n.starting_comment for n in nodes)
    assert any(len(n.nags) > 1 for n in nodes) and any("\n" in n.comment for n in nodes)
    assert sum(n.clock() is not None for n in nodes) > 100


@pytest.mark.parametrize("name", [n for n in CORPUS_FILES if n != "orda_corpus.pgn"])
def test_p2_a_stream_reads_like_the_whole_text(name: str) -> None:
    """Line by line (read_game on a stream) and all at once (read_games on a str) give the same
    games, errors and error lines, broken files included."""
    text = (DATA / name).read_text(encoding="utf-8")
    whole = list(read_games(text))
    handle = io.StringIO(text)
    streamed = []
    while (game := read_game(handle)) is not None:
        streamed.append(game)
    assert [str(g.error) for g in streamed] == [str(g.error) for g in whole]
    assert [dict(g.headers) for g in streamed] == [dict(g.headers) for g in whole]
    assert [_tree(g) for g in streamed] == [_tree(g) for g in whole]


def test_p2_a_comment_line_that_looks_like_a_tag_is_joined_on_write() -> None:
    game = Game()
    node = game.add_variation(Board("chess").parse_uci("e2e4"))
    node.comment = 'see\n[Event "x"] there'
    games = list(read_games(write_game(game)))
    assert len(games) == 1 and games[0].error is None
    assert games[0].next().comment == 'see [Event "x"] there'  # type: ignore[union-attr]
