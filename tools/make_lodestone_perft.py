"""Write tests/perft/lodestone.perft: perft of Lodestone Chess (an example document of issue 19).

    .venv/bin/python tools/make_lodestone_perft.py

No independent generator knows this game (Fairy-Stockfish has no magnets, and tests/reference knows
only Hordes of Change's fixed army), so the counts come from hordes itself; the file records which
build counted them, and tests/test_example_variants.py checks them against the other build. The
positions are the start and three from seeded random games, each with pawns and a magnet on the board.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from hordes import Board, build_kind  # noqa: E402
from hordes.variants import load_variant  # noqa: E402

OUT = ROOT / "tests" / "perft" / "lodestone.perft"
SEED = 19
PLIES = (14, 26, 38)  # where positions are taken from the random games


def random_positions(count: int) -> list[str]:
    """FENs from seeded random games, each holding a magnet and pawns of both sides."""
    variant = load_variant("lodestone")
    rng = random.Random(SEED)
    found: list[str] = []
    while len(found) < count:
        board = Board(variant)
        for ply in range(1, max(PLIES) + 1):
            legal = sorted(m.uci() for m in board.legal_moves)
            if not legal or board.is_game_over():
                break
            board.push_uci(rng.choice(legal))
            placement = board.fen().split()[0]
            if ply in PLIES and "+" in placement and "p" in placement and "P" in placement:
                found.append(board.fen())
                break
    return found


def main() -> None:
    variant = load_variant("lodestone")
    cases = [("start", variant.start_fen, 4)]
    cases += [(f"random-{i + 1}", fen, 3) for i, fen in enumerate(random_positions(3))]
    out = [
        "# Lodestone Chess perft counts (src/hordes/variants/examples/lodestone.md), counted by the",
        f"# {build_kind()} build of hordes; random positions from seed {SEED}",
        "# written by: .venv/bin/python tools/make_lodestone_perft.py",
        "",
    ]
    for name, fen, depth in cases:
        board = Board(variant, fen)
        out += [f"id {name}", f"epd {fen}"]
        out += [f"perft {d} {board.perft(d)}" for d in range(1, depth + 1)]
        out.append("")
    OUT.write_text("\n".join(out))
    print(OUT.read_text())


if __name__ == "__main__":
    main()
