"""Build and verify the tactics files in tests/engine/data (positions where the side to move wins by force).

    python -m tests.engine.make_tactics generate orda        # new candidates, verified, written to the file
    python -m tests.engine.make_tactics verify chess orda khans

Candidates come from the ends of decisive games (the engine against a random mover): the position one
move before the end is a win in one, three plies before it may be a win in two. Whether they are, and
which moves win, is decided by Fairy-Stockfish alone:
- mate/camp entries: an exhaustive search of every line of N moves with pyffish 0.0.90 (taught Orda
  and Khan's Chess by our export, tests.fsf), so the solution set is complete;
- win entries (chess and Orda): Debian's fairy-stockfish 11.1 taught the variant by our export in 11.1's
  keys, MultiPV 2: the best move is at least 3 pawns up and every other move at least 3 pawns worse.
Both write or print which ini they used (sha256 and dialect).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

from hordes import Board, Termination
from hordes.core import movegen
from hordes.engine.client import UciClient, fairy_stockfish
from hordes.engine.limits import Limits
from hordes.engine.search import Searcher
from hordes.fsf.export import DEBIAN, export_variant
from hordes.variants import load_variant
from tests.engine.fen_cells import placement
from tests.fsf import oracle, oracle_id

DATA = Path(__file__).parent / "data"
HEADER = """# Tactics for {variant}: positions where the side to move wins by force.
# Columns: FEN | kind N | solutions (every move that wins within N moves, UCI coordinates)
# kind: mate = checkmate in N moves; camp = campmate (a royal piece reaching the far rank) in N;
#       win = wins material (best move >= +3 pawns, every other move at least 3 pawns worse).
# Verified with Fairy-Stockfish: .venv/bin/python -m tests.engine.make_tactics verify {variant}
#   mate/camp: exhaustive search of every line of N moves with pyffish 0.0.90 (complete solution set),
#     ini {oracle_ini} (our export of orda and khans);
#   win: Debian fairy-stockfish 11.1, MultiPV 2, depth 12, {debian_ini}.
"""


def debian_ini_id(variant: str) -> str:
    return export_variant(load_variant(variant), DEBIAN).ini_id


def header(variant: str) -> str:
    try:
        debian = f"ini {debian_ini_id(variant)} (our export)"
    except ValueError:  # Khan's Chess: 11.1 cannot express it, and its file has no win entries
        debian = "not used (11.1 cannot express the variant)"
    return HEADER.format(variant=variant, oracle_ini=oracle_id(), debian_ini=debian)


# ----- exhaustive verification with pyffish --------------------------------------------------------
def _end(sf: Any, variant: str, fen: str, moves: list[str]) -> int | None:
    """The game's value for the side to move after `moves` if it is over (<0 lost, 0 draw, >0 won)."""
    legal = sf.legal_moves(variant, fen, moves)
    if not legal:
        return int(sf.game_result(variant, fen, moves))
    ended, value = sf.is_immediate_game_end(variant, fen, moves)
    return int(value) if ended else None


def _won_after(sf: Any, variant: str, fen: str, moves: list[str], n: int, flag_only: bool = False) -> bool:
    """Has the player who made the last move won, or can they force a win within n - 1 more moves?
    With `flag_only`, only a win by reaching the camp (an immediate game end) counts."""
    if flag_only:
        ended, value = sf.is_immediate_game_end(variant, fen, moves)
        if ended:
            return int(value) < 0
        if not sf.legal_moves(variant, fen, moves):
            return False
    else:
        end = _end(sf, variant, fen, moves)
        if end is not None:
            return end < 0
    if n <= 1:
        return False
    for reply in sf.legal_moves(variant, fen, moves):
        if not any(
            _won_after(sf, variant, fen, [*moves, reply, m], n - 1, flag_only)
            for m in sf.legal_moves(variant, fen, [*moves, reply])
        ):
            return False
    return True


def winning_moves(variant: str, fen: str, n: int, flag_only: bool = False) -> list[str]:
    sf = oracle()
    return sorted(
        m
        for m in sf.legal_moves(variant, fen, [])  # type: ignore[attr-defined]
        if _won_after(sf, variant, fen, [m], n, flag_only)
    )


def classify(variant: str, fen: str) -> tuple[int, list[str]] | None:
    """(N, every move that wins within N) for the smallest N <= 2, or None."""
    for n in (1, 2):
        wins = winning_moves(variant, fen, n)
        if wins:
            return n, wins
    return None


# ----- Debian fairy-stockfish for material wins -----------------------------------------------------
def fsf_client(variant: str) -> UciClient:
    """Debian's engine taught the variant by our export (chess too: the same rules, one source)."""
    return fairy_stockfish(load_variant(variant), MultiPV=2)


def fsf_material_win(client: UciClient, board: Board, depth: int = 12) -> str | None:
    """The single winning move, if Fairy-Stockfish sees one clearly better than all others."""
    client.position(board)
    client.send(f"go depth {depth}")
    best: dict[int, tuple[str, int | None, int | None]] = {}
    while True:
        line = client.recv(60)
        if line.startswith("bestmove"):
            break
        tokens = line.split()
        if "multipv" not in tokens or "pv" not in tokens or "score" not in tokens:
            continue
        k = int(tokens[tokens.index("multipv") + 1])
        s = tokens.index("score")
        cp = int(tokens[s + 2]) if tokens[s + 1] == "cp" else None
        mate = int(tokens[s + 2]) if tokens[s + 1] == "mate" else None
        best[k] = (tokens[tokens.index("pv") + 1], cp, mate)
    if 1 not in best or 2 not in best:
        return None
    move, cp1, mate1 = best[1]
    _, cp2, mate2 = best[2]
    if mate1 is not None or mate2 is not None or cp1 is None or cp2 is None:
        return None
    return move if cp1 >= 300 and cp1 - cp2 >= 300 else None


# ----- candidates ----------------------------------------------------------------------------------
def game_endings(variant: str, seed: int) -> tuple[list[Board], Termination | None]:
    """A game of the engine (depth 2) against a random mover; the positions before each move."""
    rng = random.Random(seed)
    searcher = Searcher(4)
    board = Board(variant)
    history: list[Board] = []
    engine_color = seed % 2
    for _ in range(300):
        if board.outcome() is not None:
            break
        history.append(board.copy(stack=False))
        if board.side == engine_color:
            info = list(searcher.search(board, Limits(depth=2)))[-1]
            move = info.best_move
            assert move is not None
            board.push(move)
        else:
            board.push_int(rng.choice(movegen.generate_legal(board)))
    out = board.outcome()
    return history, out.termination if out else None


def generate(variant: str, games: int, want_win: int) -> list[str]:
    lines: list[str] = []
    seen: set[str] = set()
    client = fsf_client(variant) if variant in ("chess", "orda") and want_win else None
    wins = 0
    for seed in range(games):
        history, term = game_endings(variant, seed)
        if term not in (Termination.CHECKMATE, Termination.CAMPMATE) or len(history) < 4:
            continue
        kind = "camp" if term == Termination.CAMPMATE else "mate"
        for back in (1, 3):
            board = history[-back]
            fen = board.fen()
            key = fen.rsplit(" ", 2)[0]
            if key in seen:
                continue
            seen.add(key)
            found = classify(variant, fen)
            if found is None:
                continue
            n, moves = found
            lines.append(f"{fen} | {kind} {n} | {' '.join(moves)}")
            print(lines[-1], file=sys.stderr)
        if client is not None and wins < want_win and len(history) > 12:
            board = history[len(history) // 2]
            move = fsf_material_win(client, board)
            if move is not None:
                wins += 1
                lines.append(f"{board.fen()} | win 1 | {move}")
                print(lines[-1], file=sys.stderr)
    if client is not None:
        client.quit()
    return lines


def campmates(variant: str, count: int, seed: int) -> list[str]:
    """Sparse positions with a royal near its camp, kept when a campmate in 1 or 2 can be forced."""
    rng = random.Random(seed)
    board = Board(variant)
    variant_obj = board.variant
    start = variant_obj.start_fen.split()[0]
    # each side's own army, as the start position has it (without the royal piece)
    armies = [
        sorted({ch for ch in start if ch.isupper() and ch != "K"}),
        sorted({ch.upper() for ch in start if ch.islower() and ch != "k"}),
    ]
    lines: list[str] = []
    per_n = {1: 0, 2: 0}
    tries = 0
    while min(per_n.values()) < count // 2 and tries < 20000:
        tries += 1
        turn = rng.randrange(2)
        cells: dict[int, str] = {}
        # the mover's royal one or two ranks from its camp (White's camp is rank 8, Black's rank 1)
        rank = rng.choice([5, 6]) if turn == 0 else rng.choice([1, 2])
        cells[rank * 8 + rng.randrange(8)] = "K" if turn == 0 else "k"
        while True:
            sq = rng.randrange(64)
            if sq not in cells:
                cells[sq] = "k" if turn == 0 else "K"
                break
        for color in (0, 1):
            for _ in range(rng.randrange(1, 4)):
                sq = rng.randrange(64)
                if sq not in cells and 8 <= sq < 56:
                    letter = rng.choice(armies[color])
                    cells[sq] = letter if color == 0 else letter.lower()
        fen = placement(cells) + (" w " if turn == 0 else " b ") + "- - 0 1"
        try:
            b = Board(variant, fen)
        except Exception:
            continue
        if b.outcome() is not None or b.is_check():
            continue
        found = classify(variant, fen)
        if found is None:
            continue
        n, moves = found
        if per_n[n] >= count // 2 or not winning_moves(variant, fen, n, flag_only=True):
            continue
        per_n[n] += 1
        lines.append(f"{fen} | camp {n} | {' '.join(moves)}")
        print(lines[-1], file=sys.stderr)
    return lines


# ----- the files -----------------------------------------------------------------------------------
def read(variant: str) -> list[tuple[str, str, int, list[str]]]:
    out = []
    for raw in (DATA / f"tactics_{variant}.txt").read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        fen, kind_n, solutions = (part.strip() for part in line.split("|"))
        kind, n = kind_n.split()
        out.append((fen, kind, int(n), solutions.split()))
    return out


def verify(variant: str) -> int:
    problems = 0
    client = None
    for fen, kind, n, solutions in read(variant):
        if kind in ("mate", "camp"):
            got = winning_moves(variant, fen, n)
            shorter = winning_moves(variant, fen, n - 1) if n > 1 else []
            if got != sorted(solutions) or shorter:
                problems += 1
                print(f"MISMATCH {fen}: file {solutions}, Fairy-Stockfish {got} (shorter: {shorter})")
        else:
            client = client or fsf_client(variant)
            move = fsf_material_win(client, Board(variant, fen))
            if move not in solutions:
                problems += 1
                print(f"MISMATCH {fen}: file {solutions}, Fairy-Stockfish {move}")
    used = f"pyffish ini {oracle_id()}"
    if client is not None:
        used += f", Debian fairy-stockfish ini {client.ini_id}"
        client.quit()
    print(f"{variant}: {len(read(variant))} positions, {problems} problems ({used})")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("generate")
    g.add_argument("variant")
    g.add_argument("--games", type=int, default=60)
    g.add_argument("--wins", type=int, default=8, help="material-win positions wanted (chess, orda)")
    c = sub.add_parser("camps", help="append constructed campmate-in-1/2 positions to the file")
    c.add_argument("variant")
    c.add_argument("--count", type=int, default=10)
    v = sub.add_parser("verify")
    v.add_argument("variants", nargs="+")
    args = parser.parse_args()
    if args.cmd == "generate":
        lines = generate(args.variant, args.games, args.wins)
        path = DATA / f"tactics_{args.variant}.txt"
        path.write_text(header(args.variant) + "\n".join(lines) + "\n")
        print(f"wrote {len(lines)} positions to {path}")
        return 0
    if args.cmd == "camps":
        lines = campmates(args.variant, args.count, seed=len(args.variant))
        path = DATA / f"tactics_{args.variant}.txt"
        with path.open("a") as out:
            out.write("# constructed endgames: a royal piece one or two ranks from its camp\n")
            out.write("\n".join(lines) + "\n")
        print(f"appended {len(lines)} positions to {path}")
        return 0
    return 1 if sum(verify(name) for name in args.variants) else 0


if __name__ == "__main__":
    sys.exit(main())
