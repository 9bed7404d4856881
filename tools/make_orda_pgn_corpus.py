"""Write the Orda PGN corpus used by tests/notation: random games played and written by Fairy-Stockfish.

Usage::

    python tools/make_orda_pgn_corpus.py [--games 240] [--out tests/notation/data/orda_corpus.pgn]

Everything in the file comes from pyffish, nothing from hordes, so the corpus tests our reader against
an independent writer: the moves are chosen among ``pyffish.legal_moves``, the SAN is
``pyffish.get_san_moves`` (what pychess exports), the result comes from ``pyffish.game_result`` when
the game ends by checkmate, stalemate or campmate (``*`` when the ply cap is reached first), and each
game carries Fairy-Stockfish's final position in a ``[FinalFEN "..."]`` tag. Games look like pychess
exports: ``[Variant "Orda"]``, a TimeControl, and for every other game ``FEN``/``SetUp`` tags; some
start from a position reached after a few random plies, and some carry ``{[%clk ...]}`` comments.

Random moves prefer captures half of the time, so games reach promotions, checkmates and campmates
within the ply cap. The seed makes the file reproducible for a given pyffish version (0.0.90).
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import pyffish as sf

REPO = Path(__file__).resolve().parent.parent
CONFIG = REPO / "tests" / "data" / "orda.ini"
DEFAULT_OUT = REPO / "tests" / "notation" / "data" / "orda_corpus.pgn"
VARIANT = "orda"
MAX_PLIES = 160


def load_config() -> None:
    """Teach pyffish Orda before naming it (pyffish crashes on an unknown variant)."""
    sf.load_variant_config(CONFIG.read_text())


def occupied(fen: str) -> set[str]:
    """Names of the occupied squares of a FEN's placement field."""
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


def play(rng: random.Random, start: str) -> tuple[list[str], str, str, str]:
    """A random game from `start`: (UCI moves, result, termination, final FEN)."""
    fen = start
    moves: list[str] = []
    for _ in range(MAX_PLIES):
        legal = sf.legal_moves(VARIANT, fen, [])
        if not legal:
            value = sf.game_result(VARIANT, fen, [])
            stm_white = fen.split()[1] == "w"
            if value == 0:
                return moves, "1/2-1/2", "stalemate", fen
            white_wins = (value > 0) == stm_white
            ended, _ = sf.is_immediate_game_end(VARIANT, fen, [])
            how = "campmate" if ended else "checkmate"
            return moves, "1-0" if white_wins else "0-1", how, fen
        taken = occupied(fen)
        captures = [m for m in legal if m[2:4] in taken]
        move = rng.choice(captures) if captures and rng.random() < 0.5 else rng.choice(legal)
        moves.append(move)
        fen = sf.get_fen(VARIANT, fen, [move])
    return moves, "*", "unterminated", fen


def movetext(rng: random.Random, start: str, sans: list[str], result: str, clocks: bool) -> str:
    words: list[str] = []
    number = int(start.split()[5])
    black = start.split()[1] == "b"
    for i, san in enumerate(sans):
        if not black:
            words.append(f"{number}.")
        elif i == 0:
            words.append(f"{number}...")
        words.append(san)
        if clocks:  # pychess-style clock comments; Black's move then needs its number again
            words.append(f"{{[%clk 0:{rng.randrange(5):02d}:{rng.randrange(60):02d}]}}")
            if not black and i + 1 < len(sans):
                words.append(f"{number}...")
        if black:
            number += 1
        black = not black
    words.append(result)
    lines: list[str] = []
    line = ""
    for w in words:
        if line and len(line) + 1 + len(w) > 80:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}" if line else w
    lines.append(line)
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=240)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    load_config()
    rng = random.Random(args.seed)
    initial = sf.start_fen(VARIANT)
    chunks: list[str] = []
    for n in range(1, args.games + 1):
        start = initial
        if n % 10 == 0:  # a set-up position: a few random plies from the start
            for _ in range(rng.randrange(2, 12)):
                start = sf.get_fen(VARIANT, start, [rng.choice(sf.legal_moves(VARIANT, start, []))])
        moves, result, how, final = play(rng, start)
        sans = sf.get_san_moves(VARIANT, start, moves)
        tags = [
            ("Event", "Corpus game"),
            ("Site", "hordes tools/make_orda_pgn_corpus.py"),
            ("Date", f"2024.01.{n % 28 + 1:02d}"),
            ("Round", "-"),
            ("White", f"Random-{rng.randrange(100)}"),
            ("Black", f"Random-{rng.randrange(100)}"),
            ("Result", result),
            ("TimeControl", "300+3"),
            ("Variant", "Orda"),
        ]
        if start != initial or n % 2:
            tags += [("FEN", start), ("SetUp", "1")]
        if how != "unterminated":
            tags.append(("Termination", how))
        tags.append(("FinalFEN", final))
        head = "\n".join(f'[{k} "{v}"]' for k, v in tags)
        chunks.append(head + "\n\n" + movetext(rng, start, sans, result, n % 7 == 3) + "\n")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(chunks), encoding="utf-8")
    print(f"wrote {args.games} games to {args.out} ({args.out.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
