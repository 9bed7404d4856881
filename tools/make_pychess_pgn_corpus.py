"""Write the pychess-variants PGN corpus used by tests/notation/test_pgn_pychess.py.

Usage::

    python tools/make_pychess_pgn_corpus.py [--out tests/notation/data/pychess]

Nothing here comes from hordes. The moves are random legal moves chosen among ``pyffish.legal_moves``
and their SAN is ``pyffish.get_san_moves``, which is what pychess-variants itself calls to export
(server/fairy/fairy_board.py ``get_san_moves``). The layout of each file reproduces one of
pychess-variants' exporters, as read in their repository (github.com/gbtami/pychess-variants):

- ``server_export.pgn``: ``pgn(doc)`` in server/utils.py, what the /games/export streams send, and
  ``_stream_pgn_cursor`` in server/game_api.py, which writes the games one after the other with no
  blank line between them;
- ``game_property.pgn``: the ``Game.pgn`` property in server/game.py (the PGN of a finished game,
  sent to the game page), with ``TimeControl "-"`` for a game without a clock;
- ``analysis_board.pgn``: ``getPgn`` in client/analysis/analysisCtrl.ts (the analysis board's PGN
  panel), plain move list (``1.e4``) and tree mode with variations (renderFullTreePgnMoveText in
  client/analysis/analysisTree.ts).

See tests/notation/data/pychess/README.md for the details each file exercises and where they come
from. The seed makes the files reproducible for a given pyffish version (0.0.90).
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import pyffish as sf

REPO = Path(__file__).resolve().parent.parent
CONFIG = REPO / "tests" / "data" / "orda.ini"  # Orda and Khan's Chess for the PyPI pyffish
DEFAULT_OUT = REPO / "tests" / "notation" / "data" / "pychess"
STANDARD_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
VARIANTS = ("chess", "orda", "khans")


def occupied(fen: str) -> set[str]:
    out = set()
    for i, row in enumerate(fen.split()[0].split("/")):
        file = 0
        for ch in row:
            if ch.isdigit():
                file += int(ch)
            else:
                out.add("abcdefgh"[file] + str(8 - i))
                file += 1
    return out


def play(rng: random.Random, variant: str, start: str, max_plies: int) -> tuple[list[str], str]:
    """Random legal moves (captures preferred half of the time) and the result (`*` at the cap)."""
    fen = start
    moves: list[str] = []
    for _ in range(max_plies):
        legal = sf.legal_moves(variant, fen, [])
        if not legal:
            value = sf.game_result(variant, fen, [])
            if value == 0:
                return moves, "1/2-1/2"
            white_to_move = fen.split()[1] == "w"
            return moves, "1-0" if (value > 0) == white_to_move else "0-1"
        ended, value = sf.is_immediate_game_end(variant, fen, [])
        if ended:
            white_to_move = fen.split()[1] == "w"
            return moves, "1/2-1/2" if value == 0 else ("1-0" if (value > 0) == white_to_move else "0-1")
        taken = occupied(fen)
        captures = [m for m in legal if m[2:4] in taken]
        move = rng.choice(captures) if captures and rng.random() < 0.5 else rng.choice(legal)
        moves.append(move)
        fen = sf.get_fen(variant, fen, [move])
    return moves, "*"


def server_moves(sans: list[str]) -> str:
    """The move list as server/utils.py pgn() and server/game.py Game.pgn join it: a number before
    every other move counted from 1, whatever the start position's move number or side to move."""
    return " ".join(san if i % 2 == 1 else f"{(i + 1) // 2 + 1}. {san}" for i, san in enumerate(sans))


def server_pgn(
    event: str,
    game_id: str,
    date: str,
    white: str,
    black: str,
    result: str,
    tc: str,
    welo: str,
    belo: str,
    variant: str,
    fen: str,
    sans: list[str],
) -> str:
    """server/utils.py pgn(doc) and server/game.py Game.pgn: the same layout, FEN and SetUp unless the
    game starts from chess's standard position."""
    setup = "" if fen == STANDARD_FEN else f'[FEN "{fen}"]\n[SetUp "1"]\n'
    return (
        f'[Event "{event}"]\n[Site "https://www.pychess.org/{game_id}"]\n[Date "{date}"]\n[Round "-"]\n'
        f'[White "{white}"]\n[Black "{black}"]\n[Result "{result}"]\n[TimeControl "{tc}"]\n'
        f'[WhiteElo "{welo}"]\n[BlackElo "{belo}"]\n[Variant "{variant.capitalize()}"]\n{setup}\n'
        f"{server_moves(sans)} {result}\n"
    )


def title_case(words: str) -> str:
    """titleCase in client/analysis/analysisCtrl.ts."""
    return " ".join(w[:1].upper() + w[1:].lower() for w in words.split(" "))


def analysis_pgn(variant: str, date: str, fen: str, movetext: str) -> str:
    """getPgn in client/analysis/analysisCtrl.ts: no Round, FEN and SetUp always, result `*`."""
    return (
        f'[Event "?"]\n[Site "https://www.pychess.org/analysis/{variant}"]\n[Date "{date}"]\n'
        f'[White "?"]\n[Black "?"]\n[Result "*"]\n[Variant "{title_case(variant)}"]\n[FEN "{fen}"]\n'
        f'[SetUp "1"]\n\n{movetext} *\n'
    )


def plain_moves(fen: str, sans: list[str]) -> str:
    """getPgn's list without a tree: `1.e4 e5 2.Nf3`, numbers glued to White's moves, `1...e5` when
    Black starts (counted from 1 as the client counts plies)."""
    black_starts = fen.split()[1] == "b"
    out = []
    for ply, san in enumerate(sans, 1):
        if black_starts and ply == 1:
            counter = "1..."
        else:
            white_move = (ply % 2 == 1) != black_starts
            counter = f"{(ply + 1 + black_starts) // 2}." if white_move else ""
        out.append(counter + san)
    return " ".join(out)


def tree_moves(rng: random.Random, variant: str, fen: str, moves: list[str]) -> str:
    """renderPgnSequence in client/analysis/analysisTree.ts: `1. e4` with a space, each alternative in
    parentheses after the main move, its first move numbered `2...` when Black plays it."""
    sans = sf.get_san_moves(variant, fen, moves)
    tokens: list[str] = []
    pos = fen
    for ply, (move, san) in enumerate(zip(moves, sans, strict=True), 1):
        white = ply % 2 == 1
        number = (ply + 1) // 2
        tokens.append(f"{number}. {san}" if white else san)
        others = [m for m in sf.legal_moves(variant, pos, []) if m != move]
        if others and rng.random() < 0.25:
            alt = rng.choice(others)
            line = [alt]
            after = sf.get_fen(variant, pos, [alt])
            for _ in range(rng.randrange(0, 3)):
                legal = sf.legal_moves(variant, after, [])
                if not legal:
                    break
                line.append(rng.choice(legal))
                after = sf.get_fen(variant, after, [line[-1]])
            alt_sans = sf.get_san_moves(variant, pos, line)
            words = []
            for i, s in enumerate(alt_sans):
                p = ply + i
                if p % 2 == 1:
                    words.append(f"{(p + 1) // 2}. {s}")
                elif i == 0:
                    words.append(f"{(p + 1) // 2}... {s}")
                else:
                    words.append(s)
            tokens.append("(" + " ".join(words) + ")")
        pos = sf.get_fen(variant, pos, [move])
    return " ".join(tokens)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    sf.load_variant_config(CONFIG.read_text())
    rng = random.Random(args.seed)
    args.out.mkdir(parents=True, exist_ok=True)

    server: list[str] = []
    for n in range(24):
        variant = VARIANTS[n % 3]
        start = sf.start_fen(variant)
        moves, result = play(rng, variant, start, rng.choice((20, 60, 200)))
        sans = sf.get_san_moves(variant, start, moves)
        tc = f"{rng.choice((1, 3, 5, 15)) * 60}+{rng.choice((0, 2, 3))}"
        elo = (str(rng.randrange(1200, 2200)), rng.choice(("?", str(rng.randrange(1200, 2200)), "1500?")))
        event = "PyChess " + rng.choice(("rated", "casual")) + " game"
        server.append(
            server_pgn(
                event,
                f"g{n:07d}",
                f"2026.0{n % 9 + 1}.1{n % 10}",
                f"player{n}",
                f"rival{n}",
                result,
                tc,
                elo[0],
                elo[1],
                variant,
                start,
                sans,
            )
        )
    (args.out / "server_export.pgn").write_text("".join(server), encoding="utf-8")

    games: list[str] = []
    for n in range(9):
        variant = VARIANTS[n % 3]
        start = sf.start_fen(variant)
        if n >= 6:  # a game from a set-up position (a few random plies in), Black to move or not
            for _ in range(rng.randrange(1, 6)):
                start = sf.get_fen(variant, start, [rng.choice(sf.legal_moves(variant, start, []))])
        moves, result = play(rng, variant, start, 80)
        sans = sf.get_san_moves(variant, start, moves)
        tc = "-" if n % 2 else "180+2"  # "-": base + inc == 0, a game without a clock
        event = "PyChess " + ("imported" if n % 4 == 3 else "casual") + " game"
        games.append(
            server_pgn(
                event,
                f"p{n:07d}",
                "2026.11.30",
                f"white{n}",
                f"black{n}",
                result,
                tc,
                "1500?",
                "1500?",
                variant,
                start,
                sans,
            )
            + "\n"
        )
    (args.out / "game_property.pgn").write_text("".join(games), encoding="utf-8")

    boards: list[str] = []
    for n in range(9):
        variant = VARIANTS[n % 3]
        start = sf.start_fen(variant)
        if n in (2, 4):  # the plain list from a set-up position (Black to move or not)
            for _ in range(rng.randrange(1, 6)):
                start = sf.get_fen(variant, start, [rng.choice(sf.legal_moves(variant, start, []))])
        moves, _ = play(rng, variant, start, 30)
        if n < 5:
            text = plain_moves(start, sf.get_san_moves(variant, start, moves))
        else:
            text = tree_moves(rng, variant, start, moves)
        boards.append(analysis_pgn(variant, "2026.12.01", start, text) + "\n")
    (args.out / "analysis_board.pgn").write_text("".join(boards), encoding="utf-8")


if __name__ == "__main__":
    main()
