"""The Hordes of Change plan suite (issue 18, point 3): tests/engine/data/tactics_hoc_plan.txt.

Run through tests/engine/make_hoc_tactics.py (`plan-generate`, `plan-verify`). Every position is
proved by exhaustive search with the reference generator (tests/reference/hoc_reference.py, written
from the rules text), never by our engine.

What "the plan wins within N moves" means here (N = 2: our moves at plies 1 and 3, so every line
ends within 5 plies):
- the side to move (the attacker) has a strategy such that, against every defence, after one of its
  own moves (the first, ..., the N-th) either the defender has no legal move (a win, H14), or the
  attacker is at least PLAN_GAIN points of material up on the starting position and stays so
  after every reply (a recapture cannot win it back and no reply leaves the attacker without a move);
- the solutions are exactly the first moves of such strategies, and no strategy of N - 1 moves exists
  (the gain is not just a capture there for the taking).
Repetition (H15) cannot decide anything this short: a position can occur at most twice in 4 plies.

The theme of an entry is read from its solutions: `pull` when one of them pulls an enemy piece
(a magnet's move that moves the opponent's piece), else `fork` when one of them is a King or Knight
move or shape change after which that royal piece attacks two enemy pieces or more. Positions of
neither theme are not kept.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from tests.engine.fen_cells import placement
from tests.reference.hoc_reference import (
    BISHOP,
    BISHOP_MAGNET,
    DIAGONAL,
    KING,
    KNIGHT,
    KNIGHT_JUMPS,
    ORTHOGONAL,
    ROOK,
    ROOK_MAGNET,
    ROYAL_KINDS,
    WHITE,
    Board,
    RefPosition,
    legal_move_boards,
    other,
    parse_square,
    royal_in_danger,
    step,
)

DATA = Path(__file__).parent / "data" / "tactics_hoc_plan.txt"
# Material of the plan, in the points of the variant document's middlegame values (stated here again
# so the proof does not read our engine's document).
VALUES = {ROOK: 500, BISHOP: 330, ROOK_MAGNET: 450, BISHOP_MAGNET: 300, KING: 0, KNIGHT: 0}
PLAN_GAIN = 300  # at least a Bishop Magnet, net
PLAN_MOVES = 2
HEADER = f"""# variant: hordes
# The Hordes of Change plan (issue 18, point 3): pull an enemy piece into reach and take it with a
# King or Knight, or fork with a royal piece. Positions placed at random around the two themes and
# kept when the reference generator (tests/reference/hoc_reference.py) proves them by exhaustive search.
# Columns: FEN | theme N | solutions (UCI)
# theme N: within N moves of the side to move (plies 1 and 3 for N = 2), against every defence, the
#   opponent is left without a legal move or the side to move is {PLAN_GAIN} points of material up (Rook 500,
#   Bishop 330, Rook Magnet 450, Bishop Magnet 300) and stays so after every reply; not within N - 1
#   moves. The solutions are every first move that does it (tests/engine/hoc_plan.py has the details).
#   pull = a solution pulls an enemy piece; fork = a solution is a royal move that attacks two pieces.
# Verified with: .venv/bin/python -m tests.engine.make_hoc_tactics plan-verify
"""


def material(board: Board, color: str) -> int:
    return sum((VALUES[p.kind] if p.color == color else -VALUES[p.kind]) for p in board if p is not None)


class PlanProof:
    """The exhaustive AND-OR search of one position, with its positions remembered."""

    def __init__(self, fen: str) -> None:
        pos = RefPosition.from_fen(fen)
        self.root = pos.board
        self.attacker = pos.turn
        self.defender = other(pos.turn)
        self.base = material(self.root, self.attacker)
        self._legal: dict[tuple[tuple[object, ...], str], dict[str, tuple[Board, bool]]] = {}
        self._won: dict[tuple[tuple[object, ...], int], bool] = {}

    def legal(self, board: Board, color: str) -> dict[str, tuple[Board, bool]]:
        key = (tuple(board), color)
        moves = self._legal.get(key)
        if moves is None:
            moves = self._legal[key] = legal_move_boards(board, color)
        return moves

    def _ahead(self, board: Board) -> bool:
        return material(board, self.attacker) - self.base >= PLAN_GAIN

    def won_after(self, board: Board, k: int) -> bool:
        """After an attacker's move (defender to move), with k attacker moves in hand counting it:
        is the plan achieved now, or forced with the k - 1 moves left?"""
        key = (tuple(board), k)
        known = self._won.get(key)
        if known is None:
            known = self._won[key] = self._search(board, k)
        return known

    def _search(self, board: Board, k: int) -> bool:
        if k == 1 and not self._ahead(board) and not royal_in_danger(board, self.defender):
            # A side not in check always has a move (a royal piece's shape change leaves every attack
            # as it was), so nothing is won here: no need to list the replies.
            return False
        replies = self.legal(board, self.defender)
        if not replies:
            return True  # H14: the defender has no legal move
        if self._ahead(board) and all(
            self._ahead(after)
            and (not royal_in_danger(after, self.attacker) or self.legal(after, self.attacker))
            for after, _ in replies.values()
        ):
            return True
        if k == 1:
            return False
        for _, (after, _) in sorted(replies.items()):
            ours = self.legal(after, self.attacker)
            if not ours:
                return False  # the defence leaves us without a move
            if not any(self.won_after(b, k - 1) for b in _ordered(ours)):
                return False
        return True

    def solutions(self, n: int) -> list[str]:
        moves = self.legal(self.root, self.attacker)
        return sorted(m for m, (after, _) in moves.items() if self.won_after(after, n))


def _ordered(moves: dict[str, tuple[Board, bool]]) -> list[Board]:
    """Captures first (a royal's capture is the usual way to win material): cheaper proofs."""
    return [b for _, (b, cap) in sorted(moves.items(), key=lambda item: (not item[1][1], item[0]))]


def plan_moves(fen: str, n: int = PLAN_MOVES) -> tuple[list[str], list[str]]:
    """(the first moves that win within n moves, those that win within n - 1)."""
    proof = PlanProof(fen)
    return proof.solutions(n), proof.solutions(n - 1) if n > 1 else []


def theme(fen: str, solutions: list[str]) -> str | None:
    pos = RefPosition.from_fen(fen)
    board, us = pos.board, pos.turn
    legal = legal_move_boards(board, us)
    forks = False
    for uci in solutions:
        frm, to = parse_square(uci[:2]), parse_square(uci[2:])
        piece = board[frm]
        if piece is None:
            continue
        if piece.color != us:
            return "pull"  # only a magnet moves the opponent's piece
        if piece.kind in ROYAL_KINDS:
            after = legal[uci][0]
            moved = after[to]
            if moved is not None and _royal_targets(after, to, moved.kind, us) >= 2:
                forks = True
    return "fork" if forks else None


def _royal_targets(board: Board, sq: int, kind: str, us: str) -> int:
    offsets = KNIGHT_JUMPS if kind == KNIGHT else ORTHOGONAL + DIAGONAL
    n = 0
    for offset in offsets:
        t = step(sq, offset)
        if t is not None and board[t] is not None and board[t].color != us:  # type: ignore[union-attr]
            n += 1
    return n


# ----- positions around the two themes --------------------------------------------------------------


def _line_square(rng: random.Random, sq: int, direction: tuple[int, int], distance: int) -> int | None:
    for _ in range(distance):
        nxt = step(sq, direction)
        if nxt is None:
            return None
        sq = nxt
    return sq


def candidate(rng: random.Random) -> str | None:
    """A sparse position around a pull or a fork, with the side to move's letters upper case; the
    colours are swapped at random afterwards."""
    cells: dict[int, str] = {}

    def free(sq: int | None) -> bool:
        return sq is not None and sq not in cells

    def put(letter: str, sq: int | None = None) -> int:
        while sq is None or sq in cells:
            sq = rng.randrange(64)
        cells[sq] = letter
        return sq

    enemy = ["r", "b", "+r", "+b", "r", "b"]
    if rng.random() < 0.6:
        # A magnet of ours, an enemy piece on one of its lines, our royal near the square it lands on.
        magnet = rng.choice(["+R", "+B"])
        msq = put(magnet)
        direction = rng.choice(ORTHOGONAL if magnet == "+R" else DIAGONAL)
        landing = step(msq, direction)
        target = _line_square(rng, msq, direction, rng.randint(2, 5))
        if landing is None or target is None:
            return None
        path = [landing]
        while path[-1] != target:
            nxt = step(path[-1], direction)
            assert nxt is not None
            path.append(nxt)
        if any(not free(sq) for sq in path):
            return None
        put(rng.choice(enemy), target)
        for sq in path[:-1]:
            cells[sq] = "."  # kept empty while the rest is placed
        royal = rng.choice("KN")
        offsets = KNIGHT_JUMPS if royal == "N" else ORTHOGONAL + DIAGONAL
        near = [s for o in offsets for s in [_line_square(rng, landing, o, 1)] if free(s)]
        spots = [s for s in near if s is not None]
        if not spots:
            return None
        put(royal, rng.choice(spots))
    else:
        # Our royal one step from a square that attacks two enemy pieces.
        royal = rng.choice("KNN")
        fork_sq = rng.randrange(64)
        cells[fork_sq] = "."
        offsets = KNIGHT_JUMPS if royal == "N" else ORTHOGONAL + DIAGONAL
        hits = [s for o in offsets for s in [step(fork_sq, o)] if free(s)]
        if len(hits) < 2:
            return None
        for sq in rng.sample(hits, 2):
            put(rng.choice([*enemy, "k", "n"]), sq)
        moves = KNIGHT_JUMPS if royal == "N" else ORTHOGONAL + DIAGONAL
        starts = [s for o in moves for s in [step(fork_sq, o)] if free(s)]
        if not starts:
            return None
        put(royal, rng.choice(starts))
    if not any(v in ("k", "n") for v in cells.values()):
        put(rng.choice("kn"))
    if rng.random() < 0.4:
        put(rng.choice("KN"))
    for _ in range(rng.randint(0, 2)):
        put(rng.choice([*enemy, "k", "n"]))
    for _ in range(rng.randint(0, 2)):
        put(rng.choice(["R", "B", "+R", "+B"]))
    cells = {sq: v for sq, v in cells.items() if v != "."}
    side = "w"
    if rng.random() < 0.5:  # the same position with the colours swapped and mirrored
        cells = {(7 - sq // 8) * 8 + sq % 8: v.swapcase() for sq, v in cells.items()}
        side = "b"
    return placement(cells) + f" {side} - - 0 1"


def usable(fen: str) -> bool:
    from hordes import Board as FastBoard

    try:
        FastBoard("hordes", fen)
        pos = RefPosition.from_fen(fen)
    except Exception:
        return False
    # neither side in check: the defender's royals are safe, the attacker is not answering a threat
    return not royal_in_danger(pos.board, pos.turn) and not royal_in_danger(pos.board, other(pos.turn))


def entry(fen: str) -> str | None:
    wins, faster = plan_moves(fen)
    if not wins or faster:
        return None
    legal = RefPosition.from_fen(fen).legal_moves()
    if len(legal) - len(wins) < 5 or len(wins) * 3 > len(legal):
        return None  # most moves win: not a test of finding the plan
    kind = theme(fen, wins)
    if kind is None:
        return None
    return f"{fen} | {kind} {PLAN_MOVES} | {' '.join(wins)}"


def generate(seed: int, want: int) -> list[str]:
    rng = random.Random(seed)
    lines: list[str] = []
    counts = {"pull": 0, "fork": 0}
    tries = 0
    while len(lines) < want and tries < 20000:
        tries += 1
        fen = candidate(rng)
        if fen is None or not usable(fen):
            continue
        line = entry(fen)
        if line is None:
            continue
        kind = line.split("|")[1].split()[0]
        if counts[kind] >= want * 2 // 3:
            continue  # keep both themes
        counts[kind] += 1
        lines.append(line)
        print(f"[{tries}] {line}", file=sys.stderr, flush=True)
    return lines


def write(seed: int, want: int = 48) -> int:
    lines = generate(seed, want)
    DATA.write_text(HEADER + "\n".join(lines) + "\n")
    print(f"wrote {len(lines)} positions to {DATA}")
    return 0


def read(path: Path = DATA) -> list[tuple[str, str, int, list[str]]]:
    out = []
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if line and not line.startswith("#"):
            fen, kind_n, solutions = (part.strip() for part in line.split("|"))
            kind, n = kind_n.split()
            out.append((fen, kind, int(n), solutions.split()))
    return out


def verify(path: Path = DATA) -> int:
    problems = 0
    entries = read(path)
    for fen, kind, n, solutions in entries:
        wins, faster = plan_moves(fen, n)
        if wins != sorted(solutions) or faster or theme(fen, wins) != kind:
            problems += 1
            print(f"MISMATCH {fen} {kind} {n}: file {solutions}, reference {wins}, faster {faster}")
    print(f"hoc plan: {len(entries)} positions, {problems} problems")
    return problems


__all__ = ["PLAN_GAIN", "WHITE", "entry", "plan_moves", "read", "theme", "verify"]
