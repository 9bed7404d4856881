"""Alpha-beta search over the Board API, for every variant the rules core plays.

Iterative deepening with principal-variation search, a transposition table (looked up in quiescence
too), quiescence on captures, promotions and camp-reaching moves, null-move pruning, late-move
reductions, futility pruning and check extensions. Move ordering: hash move, captures by value
gained (an owner-changing capture costs the capturer twice its value), killers, history.
MultiPV (`Limits.multipv`) searches the root once per line, each time without the moves of the
lines before it.

The game's end is judged the way `Board.outcome()` judges it, generically: campmate, no legal move
(checkmate, or the document's stalemate rule), repetition (a draw, or a loss for the player who
completes it), the n-move rule and dead positions. So the search has no variant-specific code.

This module runs the root and the iterations; the recursive searches and the state they share are
the methods of one class, engine/tree.py's Tree.

Speed: the hot path works on move ints, keeps the evaluation incrementally as a packed
(phase, middlegame, endgame) int, and creates no Move objects. The searches are methods of a final
class, not closures: mypyc calls a method as a C function with native arguments and a closure through
Python's generic call protocol. Compiled functions and methods are called by name
(`movegen.in_check(...)`, `b.push_int(...)`), not through a local alias, for the same reason. Module
constants are `Final`: mypyc reads any other module global from a dict at every use. The cyclic
garbage collector is paused while an iteration runs (see `_gc_paused`).
"""

from __future__ import annotations

import gc
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, Final

from hordes.core import movegen
from hordes.core.position import Board, Move
from hordes.core.rules import Variant
from hordes.engine.evaluate import Evaluator, evaluator
from hordes.engine.limits import INF, MATE, MATE_BOUND, Info, Limits
from hordes.engine.search_info import cp, ranked, report
from hordes.engine.tree import MAX_DEPTH, Abort, Tree
from hordes.engine.tt import EXACT, TranspositionTable
from hordes.errors import HordesError

# The clock the search reads. A module-level name is looked up at each use, in the compiled build too,
# so tests can hand the search a clock of their own (tests/engine/conftest.py); the compiled module
# binds `time` itself at import, and replacing the module's `time` reaches only the pure build. Each
# search reads it once, when it starts, and its tree keeps it.
clock: Callable[[], float] = time.perf_counter

SQ: Final = movegen.SQ_MASK
TO: Final = movegen.TO_SHIFT


class Searcher:
    """A search with its memory (transposition table, history) kept between moves of a game."""

    def __init__(
        self,
        hash_mb: int = 16,
        evaluation: Mapping[str, Any] | None = None,
        eval_variant: Variant | None = None,
    ) -> None:
        """`evaluation` overrides terms of the documents' `engine.evaluation` (for experiments);
        `eval_variant` takes piece values and weights from another document with the same pieces
        (a tuned child of the game's document) while the game's own document keeps the rules."""
        self.evaluation = dict(evaluation or {})
        self.eval_variant = eval_variant
        self._evaluator: Evaluator | None = None
        self.tt = TranspositionTable(hash_mb)
        # History scores of quiet moves, per side to move, keyed by the move int.
        self.history: tuple[defaultdict[int, int], defaultdict[int, int]] = (
            defaultdict(int),
            defaultdict(int),
        )
        self._variant: object = None
        # Move lists by Zobrist hash: iterative deepening visits most positions again, and generating
        # and ordering the moves is the costliest step of a node. Each entry holds [legal moves,
        # captures generator's moves, noisy moves best first, the other moves], each filled when
        # first needed. Two generations, like the table.
        self.pos_new: dict[int, list[list[int] | None]] = {}
        self.pos_old: dict[int, list[list[int] | None]] = {}
        # An entry with its lists of boxed ints costs about 1.5-2 KB (measured), so this keeps both
        # generations near the Hash budget again; at //400 a 16 MB Hash let them grow to ~70 MB.
        self.moves_capacity = max(1024, hash_mb * 1024 * 1024 // 4096)
        # Static scores by Zobrist hash, where the evaluation has terms beyond its tables (see _run);
        # an entry (two ints in a dict) costs about 100 bytes: 32 k entries, about 3 MB, at Hash 16.
        self.statics: dict[int, int] = {}
        self.statics_capacity = max(1024, hash_mb * 1024 * 1024 // 512)
        self.statics_noise = False  # whether the scores held were made with evaluation noise

    def new_game(self) -> None:
        self.tt.clear()
        for side in self.history:
            side.clear()
        self.pos_new = {}
        self.pos_old = {}
        self.statics = {}

    def search(
        self, board: Board, limits: Limits | None = None, *, noise: int = 0, seed: int | None = None
    ) -> Iterator[Info]:
        """Yield an Info after each completed depth, and a final one if a limit cut an iteration short.

        The board is not changed (the search works on a copy). `noise` (internal units) adds a
        deterministic pseudo-random term of at most that size to every evaluation, for weaker levels;
        `seed` varies it between games.
        """
        if board.variant is not self._variant:
            # Zobrist keys depend on the board size, not the variant: never mix two games' entries.
            self.new_game()
            self._variant = board.variant
            self._evaluator = None
            if self.evaluation or self.eval_variant is not None:
                source = self.eval_variant or board.variant
                if [p.letter for p in source.pieces] != [p.letter for p in board.variant.pieces]:
                    raise HordesError(
                        f"evaluation document {source.source}: its pieces differ from {board.variant.slug}'s"
                    )
                self._evaluator = Evaluator(source, self.evaluation)
        return _run(self, board.copy(), limits or Limits(), noise, seed)


def search(board: Board, limits: Limits | None = None, *, hash_mb: int = 16) -> Iterator[Info]:
    """Search a position with a fresh table: `for info in search(board, Limits(depth=4)): ...`."""
    return Searcher(hash_mb).search(board, limits)


def best_move(board: Board, limits: Limits | None = None) -> Move | None:
    """The move a search within `limits` chooses (None when the game is over)."""
    last = None
    for info in search(board, limits):
        last = info
    return last.best_move if last else None


def _run(owner: Searcher, b: Board, limits: Limits, noise: int, seed: int | None) -> Iterator[Info]:
    ev = owner._evaluator or evaluator(b.variant)
    tree = Tree(owner, b, ev, limits, noise, seed, clock)
    pawn_unit = ev.pawn_unit
    camp = tree.camp
    camp_kinds = tree.camp_kinds
    mailbox = b.mailbox
    tt = owner.tt
    pv_table = tree.pv_table
    start = tree.start
    soft = tree.soft
    node_limit = tree.node_limit
    max_depth = min(limits.depth or MAX_DEPTH, MAX_DEPTH)
    # After an abort the board is left mid-line (unwinding pops nothing): PVs are read on this copy.
    pristine = b.copy()

    # ----- the root -------------------------------------------------------------------------------
    root_packed = ev.packed(b)
    root_moves = movegen.generate_legal(b)
    if limits.searchmoves:
        wanted = {(m.from_square, m.to_square, m.promotion) for m in limits.searchmoves}
        picked = [m for m in root_moves if _key(b, m) in wanted]
        root_moves = picked or root_moves
    if not root_moves or b.outcome() is not None:
        # The game is over: report the verdict, no move.
        score = 0
        out = b.outcome()
        if out is not None and out.winner is not None:
            score = MATE if out.winner is b.turn else -MATE
        yield Info(0, 0, score, cp(score, pawn_unit), 0, 0.0, (), True, tt.hashfull())
        return
    entry = tt.get(b._hash)
    if entry is not None and entry[3] in root_moves:
        root_moves.remove(entry[3])
        root_moves.insert(0, entry[3])
    rest = sorted(root_moves[1:], key=tree.order_key, reverse=True)
    root_moves = [root_moves[0], *rest]
    if camp:
        # A move that wins by campmate is searched first: at any level, the first move searched
        # decides when a node limit or the clock stops the first iteration.
        zone = tree.camp_zone[b.side]
        wins = [m for m in root_moves if zone >> (m >> TO & SQ) & 1 and mailbox[m & SQ] >> 1 in camp_kinds]
        if wins:
            root_moves = wins + [m for m in root_moves if m not in wins]
    best_pv: list[int] = [root_moves[0]]
    best_score = -INF
    last_info: Info | None = None
    window = max(1, pawn_unit // 3)
    # MultiPV: line k is the best of the root moves left after lines 1..k-1 (Stockfish's way); one
    # line is the plain search. `lines` holds the last completed depth's (score, pv), best first;
    # after each depth root_moves starts with those lines' moves in that order.
    pv_count = max(1, min(limits.multipv, len(root_moves)))
    lines: list[tuple[int, list[int]]] = []
    for depth in range(1, max_depth + 1):
        tree.seldepth = 0
        tree.root_depth = depth
        done: list[tuple[int, list[int]]] = []  # the lines this depth has finished, in search order
        iter_best = 0
        iter_score = -INF
        iter_pv: list[int] = []
        try:
            with _gc_paused():
                for first in range(pv_count):
                    expected = lines[first][0] if first < len(lines) else -INF
                    # Aspiration: expect a score near the last one; widen the window on the side that failed.
                    if depth >= 4 and abs(expected) < MATE_BOUND:
                        lo, hi = expected - window, expected + window
                    else:
                        lo, hi = -INF, INF
                    iter_best = 0
                    iter_score = -INF
                    iter_pv = []
                    while True:
                        alpha, beta = lo, hi
                        found = False
                        for i in range(first, len(root_moves)):
                            m = root_moves[i]
                            frm = m & SQ
                            to = m >> TO & SQ
                            bf = mailbox[frm]
                            bt = mailbox[to]
                            b.push_int(m)
                            gives = movegen.in_check(b, b.side)
                            child = tree.child_packed(m, root_packed, bf, bt)
                            nd = depth - 1 + (1 if gives else 0)
                            pv_table[1] = []
                            pen = 0
                            if tree.shuffle:
                                pen = tree.plan.penalty(b, 0, m)
                            lo_, hi_ = alpha + pen, beta + pen
                            if i == first:
                                score = -tree.negamax(nd, -hi_, -lo_, 1, child, gives, True)
                            else:
                                score = -tree.negamax(nd, -lo_ - 1, -lo_, 1, child, gives, True)
                                if lo_ < score < hi_:
                                    score = -tree.negamax(nd, -hi_, -lo_, 1, child, gives, True)
                            if pen and abs(score) < MATE_BOUND:
                                score -= pen
                            b.pop_int()
                            if score > alpha:
                                alpha = score
                                iter_best, iter_score, found = m, score, True
                                iter_pv = [m, *pv_table[1]]
                                if score >= beta:
                                    break
                        if not found:  # failed low: every move is worse than expected
                            lo = -INF if lo - 4 * window < expected - 12 * window else lo - 4 * window
                            continue
                        if iter_score >= hi:  # failed high: this move is better than expected
                            hi = INF if hi + 4 * window > expected + 12 * window else hi + 4 * window
                            root_moves.remove(iter_best)
                            root_moves.insert(first, iter_best)
                            continue
                        break
                    root_moves.remove(iter_best)
                    root_moves.insert(first, iter_best)
                    done.append((iter_score, iter_pv))
                    iter_best = 0
        except Abort:
            # Keep what the unfinished depth proved: the lines it finished, and the best move of the
            # line it was searching, if it found one; the other lines stay as the last depth left them.
            fresh = ranked(done + ([(iter_score, iter_pv)] if iter_best else []))
            if fresh:
                best_score, best_pv = fresh[0]
            elif last_info is None:
                # Stopped before any move was searched to the end: play the best-ordered move.
                best_pv, best_score = [root_moves[0]], tree.static(root_packed)
            elapsed = clock() - start
            if last_info is None or fresh:
                taken = {pv[0] for _, pv in fresh}
                older = [line for line in lines if line[1][0] not in taken]
                reported = fresh or [(best_score, best_pv)]
                yield report(
                    pristine,
                    [(depth, s, pv) for s, pv in reported] + [(depth - 1, s, pv) for s, pv in older],
                    tree.seldepth,
                    tree.nodes,
                    elapsed,
                    False,
                    pawn_unit,
                    tt,
                    pv_count,
                )
            return
        if pv_count > 1:
            # Line k's search cannot see the moves of lines 1..k-1, so a later line may score higher;
            # rank them by score (a stable sort keeps the search's order between equals).
            done = ranked(done)
            root_moves[:pv_count] = [pv[0] for _, pv in done]
        lines = done
        best_score, best_pv = lines[0]
        tt.put(b._hash, (depth, EXACT, best_score, best_pv[0]))
        elapsed = clock() - start
        last_info = report(
            b,
            [(depth, s, pv) for s, pv in lines],
            tree.seldepth,
            tree.nodes,
            elapsed,
            True,
            pawn_unit,
            tt,
            pv_count,
        )
        yield last_info
        if limits.stopped() or (node_limit is not None and tree.nodes >= node_limit):
            return
        if soft is not None and elapsed >= soft:
            return  # a clock's share is (nearly) spent, or a movetime is used up
        if abs(best_score) > MATE_BOUND and depth >= MATE - abs(best_score) + 2 and not limits.infinite:
            return  # a forced result is proved; deeper search will not change it
        if len(root_moves) == 1 and soft is not None and depth >= 4:
            return  # the only legal move: no need to think


_gc_lock = threading.Lock()
_gc_pauses = 0  # iterations running now, in any thread
_gc_was_enabled = False


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector for the block; the first to enter pauses it, the last to
    leave restores it. A search allocates lists and tuples at every node (push snapshots, table
    entries), and every few hundred of them CPython scans the young objects for cycles, more and more
    of them as the table fills; the search makes no cycles of its own (reference counting frees its
    garbage), so the scans find nothing and cost 3-7 % of the time. The pause covers the work between
    two results only, so the caller never runs with the collector off because of a search it holds."""
    global _gc_pauses, _gc_was_enabled
    with _gc_lock:
        if _gc_pauses == 0:
            _gc_was_enabled = gc.isenabled()
            gc.disable()
        _gc_pauses += 1
    try:
        yield
    finally:
        with _gc_lock:
            _gc_pauses -= 1
            if _gc_pauses == 0 and _gc_was_enabled:
                gc.enable()


def _key(b: Board, m: int) -> tuple[int, int, str | None]:
    mv = b.int_to_move(m)
    return mv.from_square, mv.to_square, mv.promotion
