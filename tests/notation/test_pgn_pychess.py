"""Issue 16 point 9: pychess-variants' game records, both ways.

Our reader on their format: the files of tests/notation/data/pychess (made by
tools/make_pychess_pgn_corpus.py in the layout of their exporters, see the README there), their other
spellings of the variant names, and the annotations other tools add (clock comments, Termination,
a closing comment). Our writer for their import: what we write goes through `pychess_import`, a
rewrite of their import's rules from their sources (tests/notation/pychess_import.py), and comes out
as the same game.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from hordes import Board
from hordes.core import movegen
from hordes.notation import Game, parse_game, read_game, read_games, write_game
from tests.notation.pychess_import import ImportRejected, pychess_import, read_tags_and_sans

CORPUS = Path(__file__).parent / "data" / "pychess"
FILES = ["server_export.pgn", "game_property.pgn", "analysis_board.pgn"]
SLUGS = {"Chess": "chess", "Orda": "orda", "Khans": "khans"}


def _chunks(text: str) -> list[str]:
    """The games of one of their files, cut where each game's tags begin."""
    starts = [m.start() for m in re.finditer(r'^\[Event "', text, re.MULTILINE)]
    return [text[a:b] for a, b in zip(starts, [*starts[1:], len(text)], strict=True)]


@pytest.fixture(scope="module")
def their_games() -> dict[str, list[str]]:
    return {name: _chunks((CORPUS / name).read_text(encoding="utf-8")) for name in FILES}


@pytest.mark.parametrize("name", FILES)
def test_p9_reads_their_exports(their_games: dict[str, list[str]], name: str) -> None:
    chunks = their_games[name]
    with (CORPUS / name).open(encoding="utf-8") as handle:
        games = []
        while (game := read_game(handle)) is not None:
            games.append(game)
    assert len(games) == len(chunks) >= 9
    assert {g.variant.slug for g in games} == {"chess", "orda", "khans"}
    for game, chunk in zip(games, chunks, strict=True):
        assert game.error is None, game.error
        theirs = pychess_import(chunk, [m.uci() for m in game.mainline_moves()])  # as they read it
        assert SLUGS[game.headers["Variant"]] == game.variant.slug == theirs.variant
        assert [m.uci() for m in game.mainline_moves()] == theirs.moves
        assert [n.san() for n in game.mainline()] == theirs.sans
        assert {k: game.headers[k] for k in theirs.tags} == theirs.tags
        assert game.result == theirs.tags["Result"]
        if "FEN" in theirs.tags:
            assert theirs.tags["SetUp"] == "1"
            assert Board(game.variant, game.start_fen).fen() == Board(game.variant, theirs.tags["FEN"]).fen()
    if name == "analysis_board.pgn":
        assert sum(len(n.variations) > 1 for g in games for n in [g, *_all_nodes(g)]) >= 5
    else:
        assert {g.headers["TimeControl"] for g in games} >= {"-"} if name == "game_property.pgn" else True


def _all_nodes(node: Game) -> list[object]:
    out: list[object] = []
    stack = list(node.variations)
    while stack:
        n = stack.pop()
        out.append(n)
        stack.extend(n.variations)
    return out


def test_p9_their_bulk_export_has_no_blank_line_between_games() -> None:
    """server/game_api.py _stream_pgn_cursor writes pgn(doc) texts one after the other."""
    text = (CORPUS / "server_export.pgn").read_text(encoding="utf-8")
    assert "1-0\n[Event" in text or "0-1\n[Event" in text or "*\n[Event" in text
    assert [g.error for g in read_games(text)] == [None] * 24


@pytest.mark.parametrize(
    ("spelling", "slug"),
    [
        ("orda", "orda"),  # their import lowercases the tag: any casing reaches them
        ("ORDA", "orda"),
        ("Orda Chess", "orda"),  # the display names of server/variants.py
        ("Khan's Chess", "khans"),
        ("khans", "khans"),
        ("KHANS", "khans"),
        ("chess", "chess"),
        ("Chess", "chess"),
    ],
)
def test_p9_other_spellings_of_their_variant_names(
    their_games: dict[str, list[str]], spelling: str, slug: str
) -> None:
    chunk = next(c for c in their_games["server_export.pgn"] if f'[Variant "{slug.capitalize()}"]' in c)
    text = re.sub(r'\[Variant "[^"]*"\]', f'[Variant "{spelling}"]', chunk)
    game = parse_game(text)
    assert game.variant.slug == slug
    assert list(game.mainline_moves()) == list(parse_game(chunk).mainline_moves())


def test_p9_clock_comments_termination_and_closing_comment(their_games: dict[str, list[str]]) -> None:
    """What other tools add to such a record: `{[%clk h:mm:ss]}` after the moves (their importer
    skips comments, ffishjs.cpp skip_comment), a Termination tag (read by paste.ts getStatus) and a
    comment before the result."""
    chunk = next(c for c in their_games["game_property.pgn"] if '[Variant "Orda"]' in c)
    head, moves = chunk.split("\n\n", 1)
    sans = read_tags_and_sans(chunk)[1]
    words = []
    clock = 600
    for word in moves.split():
        words.append(word)
        if word in sans:
            clock -= 7
            words.append(
                f"{{[%clk 0:{clock // 60:02d}:{clock % 60:02d}]}}"
                if clock % 2
                else f"{{ [%clk 0:{clock // 60:02d}:{clock % 60:02d}] }}"
            )
    words.insert(-1, "{ White wins by campmate }")
    text = head + '\n[Termination "campmate"]\n\n' + " ".join(words) + "\n"
    game = parse_game(text)
    nodes = list(game.mainline())
    assert [n.clock() for n in nodes] == [600 - 7 * i for i in range(1, len(nodes) + 1)]
    assert nodes[-1].comment.endswith("White wins by campmate")
    assert game.headers["Termination"] == "campmate" and game.result == parse_game(chunk).result
    theirs = pychess_import(text, [m.uci() for m in game.mainline_moves()])
    assert theirs.moves == [m.uci() for m in game.mainline_moves()] and theirs.status == 11


def _game_with_everything(variant: str, seed: int) -> Game:
    """A game with variations, comments, NAGs and clocks, from a set-up position with Black to move."""
    import random

    rng = random.Random(seed)
    board = Board(variant)
    board.push_int(rng.choice(movegen.generate_legal(board)))
    game = Game(variant=variant, fen=board.fen())
    game.headers.update({"White": "ann", "Black": "bob", "TimeControl": "300+3", "Termination": "normal"})
    node = game
    for ply in range(40):
        legal = movegen.generate_legal(board)
        if not legal or board.outcome() is not None:
            break
        if ply % 7 == 3 and len(legal) > 1:
            side = node.add_variation(board.int_to_move(legal[-1]), comment="an idea (or not)", nags=[6])
            side.starting_comment = "instead"
        move = board.int_to_move(rng.choice(legal))
        child = node.add_main_variation(move, nags=[1, 14] if ply % 5 == 0 else [])
        child.set_clock(300 - 3 * ply)
        if ply % 4 == 1:
            child.comment += " a\ncomment on two lines"
        board.push(move)
        node = child
    game.result = board.result() if board.outcome() else "*"
    return game


@pytest.mark.parametrize("variant", ["chess", "orda", "khans"])
def test_p9_their_import_takes_what_we_write(their_games: dict[str, list[str]], variant: str) -> None:
    written = [_game_with_everything(variant, seed) for seed in range(3)]
    for name in FILES:
        written += [g for g in map(parse_game, their_games[name]) if g.variant.slug == variant]
    for game in written:
        text = write_game(game)
        theirs = pychess_import(text, [m.uci() for m in game.mainline_moves()])
        assert theirs.variant == variant
        assert theirs.moves == [m.uci() for m in game.mainline_moves()]
        assert theirs.sans == [n.san() for n in game.mainline()]
        assert theirs.result == game.result
        assert theirs.tags == {k: v for k, v in game.headers.items() if k in theirs.tags}
        assert set(theirs.tags) >= {"Event", "Site", "Date", "Round", "White", "Black", "Result"}
        if game.start_fen != Board(variant).fen():
            assert Board(variant, theirs.initial_fen).fen() == game.start_fen
        if "TimeControl" in game.headers and game.headers["TimeControl"] not in ("-", "?"):
            base = int(game.headers["TimeControl"].split("+")[0])
            assert theirs.base == (base // 60 if base > 60 else base)


def test_p9_their_import_refuses_a_variant_they_do_not_have() -> None:
    game = Game(variant="hordes")
    text = write_game(game)
    assert '[Variant "Hordes"]' in text
    with pytest.raises(ImportRejected, match="Unsupported PGN Variant tag: Hordes"):
        pychess_import(text)


def test_p9_the_check_is_strict_where_ffish_is_silent() -> None:
    """ffish drops a SAN it cannot play; the check refuses it, so it can catch a writer bug."""
    with pytest.raises(ImportRejected, match="'Hf6'"):
        pychess_import('[Variant "Orda"]\n\n1. e4 Hf6 *\n')
    assert pychess_import(io.StringIO('[Variant "Orda"]\n\n1. e4 Hf7 *\n').read()).moves == ["e2e4", "g8f7"]
