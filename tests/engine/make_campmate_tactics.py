"""Build and verify tests/engine/data/tactics_campmate.txt: Orda positions of campmate races.

    python -m tests.engine.make_campmate_tactics generate --count 30   # new candidates, verified
    python -m tests.engine.make_campmate_tactics verify                # re-check every line

Two kinds of position, both about a royal piece walking to its camp (rules.campmate):
- race: the side to move wins by campmate, and only the listed moves do (every other move lets the
  opponent stop the king, or lose the race);
- stop: the opponent's royal piece threatens to reach its camp, and only the listed moves keep the
  game from being lost (every other move loses by force).
Which moves those are is decided by Fairy-Stockfish alone: Debian's fairy-stockfish 11.1, taught Orda by
our export in 11.1's keys (which keeps the campmate rule: `whiteFlag`/`blackFlag`; the export's Orda is
perft-verified by tests/engine/test_client.py), searching every legal move (MultiPV = all) to depth 16.
A move is winning when it scores a mate for the mover, losing when it scores a mate against it; the
PV of a winning move (race) or of a losing one (stop) must end in a campmate on our board.
Candidates are sparse positions drawn at random with a royal piece a few steps from its camp.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from hordes import Board, Termination
from hordes.engine.client import UciClient, fairy_stockfish
from hordes.variants import load_variant
from tests.engine.fen_cells import placement
from tests.engine.make_tactics import debian_ini_id

DATA = Path(__file__).parent / "data"
PATH = DATA / "tactics_campmate.txt"
VARIANT = "orda"
DEPTH = 16
MAX_SOLUTIONS = 3
MIN_OTHERS = 3  # moves that fail, so that a random choice rarely passes
HEADER = """# variant: orda
# Campmate races in Orda: the side to move wins the race (race) or stops the enemy royal (stop).
# Columns: FEN | kind N | solutions (UCI). race N: these moves, and no others, win (by campmate, in N
#   moves with best play); stop N: these moves, and no others, avoid a forced loss (N: the quickest
#   loss after another move).
# Verified by Debian fairy-stockfish 11.1 at depth {depth}, MultiPV = every legal move, taught Orda by
#   our export ({ini}, campmate kept as whiteFlag/blackFlag):
#   .venv/bin/python -m tests.engine.make_campmate_tactics verify
"""

Score = tuple[str, int]  # ("mate", moves) or ("cp", centipawns), for the side to move


def all_scores(client: UciClient, board: Board, depth: int = DEPTH) -> dict[str, tuple[Score, list[str]]]:
    """Every legal move's score and PV at `depth` (MultiPV over all of them)."""
    legal = len(board.legal_moves)
    client.new_game()  # a fresh table: the same position always gets the same answer
    client.set_option("MultiPV", legal)
    client.position(board)
    client.send(f"go depth {depth}")
    found: dict[int, tuple[int, Score, list[str]]] = {}
    while True:
        line = client.recv(300)
        if line.startswith("bestmove"):
            break
        tokens = line.split()
        if not tokens or tokens[0] != "info" or "multipv" not in tokens or "pv" not in tokens:
            continue
        if "score" not in tokens or "depth" not in tokens:
            continue
        d = int(tokens[tokens.index("depth") + 1])
        k = int(tokens[tokens.index("multipv") + 1])
        s = tokens.index("score")
        score: Score = (tokens[s + 1], int(tokens[s + 2]))
        if "lowerbound" in tokens or "upperbound" in tokens:
            continue
        if k not in found or d >= found[k][0]:
            found[k] = (d, score, tokens[tokens.index("pv") + 1 :])
    return {pv[0]: (score, pv) for d, score, pv in found.values() if d >= depth and pv}


def ends_in_campmate(board: Board, pv: list[str]) -> bool:
    b = board.copy()
    for text in pv:
        if b.outcome() is not None:
            break
        b.push(b.parse_uci(text))
    out = b.outcome()
    return out is not None and out.termination == Termination.CAMPMATE


def classify(client: UciClient, board: Board) -> tuple[str, int, list[str]] | None:
    """(kind, N, solutions) if the position is a race or a stop by the rules in the module's doc."""
    scores = all_scores(client, board)
    if len(scores) != len(board.legal_moves) or len(scores) < MAX_SOLUTIONS + MIN_OTHERS:
        return None
    wins = {m: (s, pv) for m, (s, pv) in scores.items() if s[0] == "mate" and s[1] > 0}
    losses = {m: (s, pv) for m, (s, pv) in scores.items() if s[0] == "mate" and s[1] <= 0}
    if wins:
        if len(wins) > MAX_SOLUTIONS or len(scores) - len(wins) < MIN_OTHERS:
            return None
        best = min(wins, key=lambda m: wins[m][0][1])
        if not ends_in_campmate(board, wins[best][1]):
            return None
        # the others must not win clearly either: the race is the point
        if any(s[0] == "cp" and s[1] > 300 for m, (s, _) in scores.items() if m not in wins):
            return None
        return "race", wins[best][0][1], sorted(wins)
    saves = [m for m in scores if m not in losses]
    if not saves or len(saves) > MAX_SOLUTIONS or len(losses) < MIN_OTHERS:
        return None
    quickest = min(losses, key=lambda m: losses[m][0][1] if losses[m][0][1] < 0 else -1000)
    if not ends_in_campmate(board, losses[quickest][1]):
        return None
    return "stop", -losses[quickest][0][1], sorted(saves)


def candidate(rng: random.Random, stops: bool = False) -> Board | None:
    """A sparse Orda position with at least one royal piece two to four steps from its camp (the
    opponent's royal, with `stops`)."""
    turn = rng.randrange(2)
    # the side whose royal is racing: the mover or its opponent
    runner = turn ^ 1 if stops else rng.choice([turn, turn ^ 1])
    cells: dict[int, str] = {}
    steps = rng.choice([2, 2, 3, 3, 4])
    rank = 7 - steps if runner == 0 else steps
    cells[rank * 8 + rng.randrange(8)] = "K" if runner == 0 else "k"
    # the other royal: anywhere, sometimes racing too
    while True:
        if rng.random() < 0.4:
            other = rng.choice([2, 3, 4])
            sq = (other if runner == 0 else 7 - other) * 8 + rng.randrange(8)
        else:
            sq = rng.randrange(64)
        if sq not in cells:
            cells[sq] = "k" if runner == 0 else "K"
            break
    armies = ("QRBNP", "LAHYP")
    for color in (0, 1):
        for _ in range(rng.randrange(1, 4)):
            sq = rng.randrange(8, 56)
            if sq not in cells:
                letter = rng.choice(armies[color])
                cells[sq] = letter if color == 0 else letter.lower()
    fen = placement(cells) + (" w " if turn == 0 else " b ") + "- - 0 1"
    try:
        board = Board(VARIANT, fen)
    except Exception:
        return None
    if board.outcome() is not None or board.is_check():
        return None
    return board


UNSOLVED = "#unsolved "  # verified positions the engine does not solve yet: the test skips them


def read(unsolved: bool = False) -> list[tuple[str, str, int, list[str]]]:
    out = []
    for raw in PATH.read_text().splitlines():
        line = raw.strip()
        if unsolved and line.startswith(UNSOLVED):
            line = line.removeprefix(UNSOLVED)
        if not line or line.startswith("#"):
            continue
        fen, kind_n, solutions = (part.strip() for part in line.split("|"))
        kind, n = kind_n.split()
        out.append((fen, kind, int(n), solutions.split()))
    return out


def generate(count: int, seed: int, tries: int, stops: bool = False) -> list[str]:
    rng = random.Random(seed)
    lines: list[str] = []
    # how many of each kind are wanted: half and half, or only stops
    wanted = {"race": 0, "stop": count} if stops else {"race": count - count // 2, "stop": count // 2}
    kinds = {"race": 0, "stop": 0}
    with fairy_stockfish(load_variant(VARIANT)) as client:
        for _ in range(tries):
            if all(kinds[k] >= wanted[k] for k in kinds):
                break
            board = candidate(rng, stops)
            if board is None:
                continue
            found = classify(client, board)
            if found is None:
                continue
            kind, n, solutions = found
            if kinds[kind] >= wanted[kind]:
                continue
            kinds[kind] += 1
            lines.append(f"{board.fen()} | {kind} {n} | {' '.join(solutions)}")
            print(lines[-1], file=sys.stderr, flush=True)
    return lines


def verify() -> int:
    problems = 0
    entries = read(unsolved=True)
    with fairy_stockfish(load_variant(VARIANT)) as client:
        for fen, kind, n, solutions in entries:
            found = classify(client, Board(VARIANT, fen))
            if found != (kind, n, sorted(solutions)):
                problems += 1
                print(f"MISMATCH {fen}: file {kind} {n} {solutions}, Fairy-Stockfish {found}")
        used = client.ini_id
    print(
        f"{len(entries)} positions, {problems} problems (Debian fairy-stockfish, ini {used}, depth {DEPTH})"
    )
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("generate")
    g.add_argument("--count", type=int, default=30)
    g.add_argument("--seed", type=int, default=18)
    g.add_argument("--tries", type=int, default=5000)
    g.add_argument("--stops", action="store_true", help="only positions where the opponent races")
    g.add_argument("--append", action="store_true", help="add to the file instead of rewriting it")
    sub.add_parser("verify")
    args = parser.parse_args()
    if args.cmd == "generate":
        lines = generate(args.count, args.seed, args.tries, args.stops)
        if args.append:
            with PATH.open("a") as out:
                out.write("\n".join(lines) + "\n")
        else:
            PATH.write_text(HEADER.format(depth=DEPTH, ini=debian_ini_id(VARIANT)) + "\n".join(lines) + "\n")
        print(f"wrote {len(lines)} positions to {PATH}")
        return 0
    return 1 if verify() else 0


if __name__ == "__main__":
    sys.exit(main())
