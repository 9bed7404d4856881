"""Build and verify the Hordes of Change tactics files with the reference generator.

    python -m tests.engine.make_hoc_tactics generate      # tactics_hordes.txt: hand-built + random
    python -m tests.engine.make_hoc_tactics verify
    python -m tests.engine.make_hoc_tactics plan-generate # tactics_hoc_plan.txt (issue 18, point 3)
    python -m tests.engine.make_hoc_tactics plan-verify

No other program plays Hordes of Change, so the judge is tests/reference/hoc_reference.py, the slow
generator written from the rules text alone. Every entry is checked by exhaustive search with it:
- `mate N`: the side to move wins within N moves (the opponent is left without a legal move: H14),
  and the solutions are every move that does so;
- `safe 1`: the position offers an owner-changing capture after which the opponent wins at once;
  the solutions are every move after which the opponent has no immediate win;
- `pull N` / `fork N` (tactics_hoc_plan.txt, the game's own plan): see `hoc_plan`.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from tests.engine import hoc_plan
from tests.engine.fen_cells import placement
from tests.reference.hoc_reference import RefPosition

DATA = Path(__file__).parent / "data" / "tactics_hordes.txt"
HEADER = """# Tactics for hordes (Hordes of Change): positions built by hand or placed at random and kept when
# the reference generator (tests/reference/hoc_reference.py, written from the rules text) proves them.
# Columns: FEN | kind N | solutions (UCI; a transformation is the square twice, e.g. d1d1)
# kind: mate = the opponent is left without a legal move (H14) within N moves, every winning move listed;
#       safe = an owner-changing capture here loses at once; the solutions are every move that does not.
# Verified with: .venv/bin/python -m tests.engine.make_hoc_tactics verify
"""

# Positions set up by hand (White to move unless the FEN says otherwise).
HAND_BUILT = [
    # A rook mate: rank 8 and rank 7 are covered; turning the King into a Knight on a8 does not help.
    "k7/7R/8/8/8/8/8/K5R1 w - - 0 1",
    # The same net, Black to move, with the colours swapped and a second black royal piece far away.
    "k5r1/8/8/8/8/n7/7r/K7 b - - 0 1",
]


def _wins_after(pos: RefPosition, n: int) -> bool:
    """Has the player who just moved won, or can they force it within n - 1 more moves?"""
    out = pos.outcome()
    if out is not None:
        return out[0] != pos.turn
    if n <= 1:
        return False
    for reply in sorted(pos.legal_moves()):
        pos.push(reply)
        ok = any(_try(pos, m, n - 1) for m in sorted(pos.legal_moves()))
        pos.pop()
        if not ok:
            return False
    return True


def _try(pos: RefPosition, move: str, n: int) -> bool:
    pos.push(move)
    won = _wins_after(pos, n)
    pos.pop()
    return won


def winning_moves(fen: str, n: int) -> list[str]:
    pos = RefPosition.from_fen(fen)
    return sorted(m for m in pos.legal_moves() if _try(pos, m, n))


def safe_moves(fen: str) -> tuple[list[str], list[str]]:
    """(moves after which the opponent cannot win at once, the captures after which they can)."""
    pos = RefPosition.from_fen(fen)
    safe, losing = [], []
    for m in sorted(pos.legal_moves()):
        capture = pos._legal()[m][1]
        pos.push(m)
        lost = pos.outcome() is None and any(_try(pos, r, 1) for r in sorted(pos.legal_moves()))
        pos.pop()
        if not lost:
            safe.append(m)
        elif capture:
            losing.append(m)
    return safe, losing


def _random_fen(rng: random.Random) -> str:
    cells: dict[int, str] = {}

    def put(letter: str) -> None:
        while True:
            sq = rng.randrange(64)
            if sq not in cells:
                cells[sq] = letter
                return

    for color in (0, 1):
        for _ in range(rng.choice([1, 1, 2])):
            put(rng.choice("KN") if color == 0 else rng.choice("kn"))
        for _ in range(rng.randrange(1, 4)):
            letter = rng.choice(["R", "B", "R", "B", "+R", "+B"])
            put(letter if color == 0 else letter.lower())
    return placement(cells) + f" {rng.choice('wb')} - - 0 1"


def _usable(fen: str) -> bool:
    from hordes import Board

    try:
        board = Board("hordes", fen)
        ref = RefPosition.from_fen(fen)
    except Exception:
        return False
    return board.outcome() is None and ref.outcome() is None and not ref.is_check()


def generate(seed: int, want: dict[str, int]) -> list[str]:
    rng = random.Random(seed)
    lines: list[str] = []
    counts = dict.fromkeys(want, 0)
    for fen in HAND_BUILT:
        lines.extend(_entries(fen, counts, want, force=True))
    tries = 0
    while any(counts[k] < want[k] for k in want) and tries < 40000:
        tries += 1
        fen = _random_fen(rng)
        if _usable(fen):
            lines.extend(_entries(fen, counts, want))
    return lines


def _entries(fen: str, counts: dict[str, int], want: dict[str, int], force: bool = False) -> list[str]:
    out = []
    for n in (1, 2):
        key = f"mate{n}"
        if counts[key] >= want[key] and not force:
            continue
        wins = winning_moves(fen, n)
        if wins:
            if n == 2 and winning_moves(fen, 1):
                break
            counts[key] += 1
            out.append(f"{fen} | mate {n} | {' '.join(wins)}")
            break
    if counts["safe1"] < want["safe1"] or force:
        safe, losing = safe_moves(fen)
        if safe and losing:
            counts["safe1"] += 1
            out.append(f"{fen} | safe 1 | {' '.join(safe)}")
    for line in out:
        print(line, file=sys.stderr)
    return out


def read() -> list[tuple[str, str, int, list[str]]]:
    return hoc_plan.read(DATA)  # the two files share one line format


def verify() -> int:
    problems = 0
    entries = read()
    for fen, kind, n, solutions in entries:
        if kind == "mate":
            got = winning_moves(fen, n)
            faster = winning_moves(fen, n - 1) if n > 1 else []
        else:
            got, losing = safe_moves(fen)
            faster = [] if losing else ["(no losing capture)"]
        if got != sorted(solutions) or faster:
            problems += 1
            print(f"MISMATCH {fen} {kind} {n}: file {solutions}, reference {got} {faster}")
    print(f"hordes: {len(entries)} positions, {problems} problems")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("cmd", choices=["generate", "verify", "plan-generate", "plan-verify"])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.cmd == "plan-generate":
        return hoc_plan.write(args.seed)
    if args.cmd == "plan-verify":
        return 1 if hoc_plan.verify() else 0
    if args.cmd == "generate":
        lines = generate(args.seed, {"mate1": 14, "mate2": 10, "safe1": 10})
        DATA.write_text(HEADER + "\n".join(lines) + "\n")
        print(f"wrote {len(lines)} positions to {DATA}")
        return 0
    return 1 if verify() else 0


if __name__ == "__main__":
    sys.exit(main())
