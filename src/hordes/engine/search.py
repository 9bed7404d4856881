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

Speed: the hot path works on move ints and closures over local variables (cell access is the
cheapest variable access CPython has), keeps the evaluation incrementally as a packed
(phase, middlegame, endgame) int, and creates no Move objects. Compiled functions and methods are
called by name (`movegen.in_check(...)`, `b.push_int(...)`), not through a local alias: mypyc makes a
direct C call of the first and a generic Python call of a callable value. Module constants are
`Final` for the same reason: mypyc reads any other module global from a dict at every use. The
cyclic garbage collector is paused while an iteration runs (see `_gc_paused`).
"""

from __future__ import annotations

import gc
import math
import random
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, Final

from hordes.core import movegen
from hordes.core.position import Board, Move
from hordes.core.rules import Variant
from hordes.engine.evaluate import BITS, Evaluator, evaluator
from hordes.engine.limits import INF, MATE, MATE_BOUND, Info, Limits
from hordes.engine.plan import see
from hordes.engine.plan_search import PlanSearch
from hordes.engine.search_info import cp, ranked, report
from hordes.engine.tt import EXACT, LOWER, UPPER, TranspositionTable
from hordes.errors import HordesError

MAX_PLY: Final = 100
MAX_DEPTH: Final = 64
# The clock the search reads. A module-level name is looked up at each use, in the compiled build too,
# so tests can hand the search a clock of their own (tests/engine/conftest.py); the compiled module
# binds `time` itself at import, and replacing the module's `time` reaches only the pure build.
clock: Callable[[], float] = time.perf_counter
POLL_NODES: Final = 128  # how often the clock, the node limit and the stop signal are checked
QS_EVASION_PLIES: Final = 4  # quiescence answers a check with every evasion only this close to its start
QS_CAMP_STEP_PLIES: Final = 2  # quiescence tries royal steps towards the camp only this close to its start

SQ: Final = movegen.SQ_MASK
TO: Final = movegen.TO_SHIFT
PROMO: Final = movegen.PROMO_SHIFT
FLAGS: Final = movegen.FLAG_SHIFT
SPECIAL: Final = movegen.FLAG_CASTLE | movegen.FLAG_EP  # moves that touch more than their two squares
FLAG_EP: Final = movegen.FLAG_EP

# Late-move reductions by depth and move number (the usual logarithmic formula).
_LMR: Final = [[0] * 64 for _ in range(MAX_DEPTH + 1)]
for _d in range(1, MAX_DEPTH + 1):
    for _i in range(1, 64):
        _LMR[_d][_i] = int(0.75 + math.log(_d) * math.log(_i) / 2.25)


class _Abort(Exception):
    """A limit or the stop signal ended the search mid-iteration."""


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
    variant = b.variant
    rules = variant.rules
    comp = b.compiled
    ev = owner._evaluator or evaluator(variant)
    params = ev.params
    table = ev.table
    value = ev.value
    tempo = ev.tempo
    pawn_unit = ev.pawn_unit
    phase_hi, phase_lo = ev.phase_hi, ev.phase_lo
    phase_span = max(1, phase_hi - phase_lo)
    use_extras = ev.use_extras
    extras = ev.node_extras
    half = 1 << (BITS - 1)
    offset = half + (half << BITS)
    mask = (1 << BITS) - 1
    pieces = variant.pieces
    # Owner-changing captures give the capturer to the opponent: a swing of twice its value.
    owner_cost = [
        2 * value[c] if pieces[c >> 1].changes_owner_on_capture else 0 for c in range(2 * len(pieces))
    ]
    owner_cost.append(0)
    camp = bool(comp.camp_kinds)
    camp_kinds = frozenset(comp.camp_kinds)
    camp_zone = comp.camp_zone
    camp_reached = movegen.campmate_reached
    # campmate_reached written out for the usual single camp kind (a call costs more than the test).
    camp_kind = comp.camp_kinds[0] if len(comp.camp_kinds) == 1 else -1
    camp_white, camp_black = camp_zone
    # Campmate threats: a royal one step from a camp square it may enter is answered like a check
    # (every move searched, an extension in the main search); quiescence tries the royal steps that
    # make such a threat, so a race that cannot be stopped in time is seen past the horizon.
    camp_near = ev.camp_near
    camp_approach = ev.camp_approach
    camp_threatened = ev.camp_threatened
    # gives_check before the move lets futility pruning skip the push; where it would itself make and
    # unmake the move (variant mechanisms, several royals) the search asks in_check after pushing.
    check_first = comp.simple and comp.royal_kind >= 0
    gives_check = movegen.gives_check_fn(b)
    mailbox = b.mailbox  # changed in place by push/pop; kind_bb and occ lists are replaced, so not cached
    tt = owner.tt
    history = owner.history
    killers = [[0, 0] for _ in range(MAX_PLY + 2)]
    pv_table: list[list[int]] = [[] for _ in range(MAX_PLY + 2)]
    # Rules of the game's end, as scores for the side to move (sign times MATE - ply, or 0).
    if rules.no_legal_moves == "loss" or rules.stalemate == "loss":
        stalemate_sign = -1
    elif rules.stalemate == "win":
        stalemate_sign = 1
    else:
        stalemate_sign = 0
    rep_loss = rules.repetition_result == "loss"
    rep_count = rules.repetition_count
    n_move = 2 * rules.n_move_rule
    dead_check = rules.insufficient_material
    # Material changes only by a capture or a promotion. Where every promoting kind resets the n-move
    # counter (pawns do, unless a document says otherwise), a position reached with the counter
    # running has its parent's material, which was not a dead position.
    dead_after_reset = all(
        g.kind in comp.reset_kinds[color] for color in (0, 1) for g in comp.gens[color] if g.promotes
    )
    use_null = params.null_move
    # The plan's part (plan_search.py): no shuffling where repetition loses, plan quiescence.
    plan_search = PlanSearch(b, ev, MAX_PLY)
    shuffle, shuffle_penalty, line = plan_search.shuffle, plan_search.penalty, plan_search.line
    plan_q, owner_change = plan_search.quiescence, plan_search.owner_change
    winning_pulls = plan_search.winning_pulls
    use_lmr = params.late_move_reductions
    futility_margin = 2 * pawn_unit
    delta_margin = 2 * pawn_unit
    # Kinds whose presence makes zugzwang unlikely (null-move pruning is only tried with one of them).
    nonpawn_kinds = [k for k, p in enumerate(pieces) if not (p.pawn or p.royal or p.immobile)]
    noise_seed = seed if seed is not None else random.getrandbits(32)
    noise_span = 2 * noise + 1

    start = clock()
    soft, hard = limits.budget(b.turn)
    hard_deadline = start + hard if hard is not None else None
    node_limit = limits.nodes
    max_depth = min(limits.depth or MAX_DEPTH, MAX_DEPTH)
    nodes = 0
    next_poll = POLL_NODES if node_limit is None else max(1, min(POLL_NODES, node_limit))
    seldepth = 0
    root_depth = 1
    # After an abort the board is left mid-line (unwinding pops nothing): PVs are read on this copy.
    pristine = b.copy()

    def move_cache(key: int) -> list[list[int] | None]:
        """The move-list cache entry of a position (see Searcher.pos_new), made if missing."""
        e = owner.pos_new.get(key)
        if e is None:
            e = owner.pos_old.get(key)
            if e is None:
                e = [None, None, None, None]
            cache = owner.pos_new
            cache[key] = e
            if len(cache) >= owner.moves_capacity:
                owner.pos_old = cache
                owner.pos_new = {}
        return e

    def legal_moves(e: list[list[int] | None]) -> list[int]:
        moves = e[0]
        if moves is None:
            moves = e[0] = movegen.generate_legal(b)
        return moves

    def ordered_noisy(e: list[list[int] | None], checked: bool) -> list[int]:
        """Campmate steps (they win at once), then captures, promotions and en passant by order_key,
        best first. From the legal list when known, else from the captures generator, which skips
        the pin search when `checked` is False (the side to move is not in check)."""
        moves = e[2]
        if moves is None:
            source = e[0]
            if source is None:
                source = e[1]
                if source is None:
                    source = e[1] = (
                        movegen.generate_legal_captures(b) if checked else movegen.captures_not_in_check(b)
                    )
                if not camp:  # every move of the captures generator is noisy: only sort them
                    moves = e[2] = sorted(source, key=order_key, reverse=True) if len(source) > 1 else source
                    return moves
            zone = camp_zone[b.side] if camp else 0
            first = []
            moves = []
            for m in source:
                to = m >> TO & SQ
                if (mailbox[to] >= 0 and m & SQ != to) or m >> PROMO & 63 or m >> FLAGS & FLAG_EP:
                    moves.append(m)
                elif zone >> to & 1 and mailbox[m & SQ] >> 1 in camp_kinds:
                    first.append(m)
            moves.sort(key=order_key, reverse=True)
            if first:
                moves = first + moves
            e[2] = moves
        return moves

    def quiet_moves(e: list[list[int] | None]) -> list[int]:
        """The legal moves ordered_noisy leaves out (e[0] must be filled): a copy of the legal list
        with those few removed, which list.remove does in C."""
        moves = e[3]
        if moves is None:
            moves = list(e[0] or ())
            for m in ordered_noisy(e, False):  # from e[0], so the flag is not used
                moves.remove(m)
            e[3] = moves
        return moves

    def poll() -> None:
        """Check the limits. Polls come every few milliseconds: at most POLL_NODES nodes apart, fewer
        where nodes are slow (Hordes of Change's move generation, a loaded machine)."""
        nonlocal next_poll
        now = clock()
        interval = POLL_NODES
        if now > start:
            interval = max(4, min(POLL_NODES, int(nodes / (now - start) * 0.004)))
        next_poll = nodes + interval
        if node_limit is not None:
            next_poll = min(next_poll, node_limit)
        if node_limit is not None and nodes >= node_limit:
            raise _Abort
        if hard_deadline is not None and now >= hard_deadline:
            raise _Abort
        if limits.stopped():
            raise _Abort

    def static(packed: int) -> int:
        """Evaluation for the side to move from the packed piece-square sum."""
        t = packed + offset  # fields made non-negative: each one is then a plain bit slice
        eg = (t & mask) - half
        mg = (t >> BITS & mask) - half
        ph = t >> 2 * BITS
        if ph >= phase_hi:
            score = mg
        elif ph <= phase_lo:
            score = eg
        else:
            score = (mg * (ph - phase_lo) + eg * (phase_hi - ph)) // phase_span
        if use_extras:
            score += extras(b, packed)
        if noise:
            score += ((b.zobrist_hash() ^ noise_seed) * 0x9E3779B97F4A7C15 >> 40) % noise_span - noise
        return (score if b.side == 0 else -score) + tempo

    # The static score in one call where the document allows (see Evaluator.node_static).
    fast_static = ev.node_static
    raw_static: Callable[[Board, int], int] = (
        fast_static if fast_static is not None and not noise else lambda _b, packed: static(packed)
    )
    static_of = raw_static
    # Static scores by Zobrist hash (Searcher.statics): iterative deepening and transpositions score
    # the same position again (a sixth of Hordes of Change's evaluations at depth 4, a quarter of
    # Orda's), and there the evaluation's extra terms cost about half of a node; chess's royal
    # shelter gains a little. Where the score is the tables alone, the lookup would cost about what
    # it saves. Evaluation noise differs from search to search, so a search with noise, and the one
    # after it, start empty.
    # A capacity of 0 switches it off (benchmarks/static_cache.py).
    if use_extras and owner.statics_capacity > 0:
        statics = owner.statics
        if noise or owner.statics_noise:
            statics.clear()
        owner.statics_noise = noise != 0
        statics_capacity = owner.statics_capacity

        def cached_static(bd: Board, packed: int) -> int:
            key = bd._hash
            score = statics.get(key)
            if score is None:
                score = raw_static(bd, packed)
                if len(statics) >= statics_capacity:
                    statics.clear()
                statics[key] = score
            return score

        static_of = cached_static

    def child_packed(m: int, packed: int, before_from: int, before_to: int) -> int:
        frm = m & SQ
        to = m >> TO & SQ
        if m >> FLAGS & SPECIAL:
            return ev.packed(b)
        if frm == to:
            return packed + table[mailbox[to]][to] - table[before_to][to]
        return (
            packed
            + table[mailbox[frm]][frm]
            + table[mailbox[to]][to]
            - table[before_from][frm]
            - table[before_to][to]
        )

    def no_moves_score(ply: int, checked: bool) -> int:
        if checked:
            return ply - MATE
        return stalemate_sign * (MATE - ply)

    def order_key(m: int) -> int:
        """Captures by value gained (most valuable victim, least valuable attacker), promotions."""
        frm = m & SQ
        to = m >> TO & SQ
        victim = mailbox[to]
        key = 0
        if victim >= 0 and frm != to:
            attacker = mailbox[frm]
            key = (value[victim] - owner_cost[attacker]) * 16 - (value[attacker] >> 6) + (1 << 24)
        elif m >> FLAGS & FLAG_EP:
            key = (1 << 24) + 16 * pawn_unit
        promo = m >> PROMO & 63
        if promo:
            key += (1 << 24) + 16 * value[(promo - 1) * 2]
        return key

    def camp_steps(e: list[list[int] | None]) -> list[int]:
        """Quiet legal steps of the side to move's camp-winning royals onto a square next to its camp
        (the search then sees whether the threat they make can be stopped)."""
        near = camp_near[b.side] & ~camp_zone[b.side]
        moves = legal_moves(e)
        return [
            m
            for m in moves
            if near >> (m >> TO & SQ) & 1 and mailbox[m >> TO & SQ] < 0 and mailbox[m & SQ] >> 1 in camp_kinds
        ]

    def qsearch(alpha: int, beta: int, ply: int, packed: int, checked: bool, qply: int = 0) -> int:
        nonlocal nodes, seldepth
        nodes += 1
        if nodes >= next_poll:
            poll()
        if ply > seldepth:
            seldepth = ply
        # (At qply 0 negamax has just made the campmate test.)
        if (
            camp
            and qply
            and (
                b.kind_bb[camp_kind] & ((b.occ[0] & camp_white) | (b.occ[1] & camp_black))
                if camp_kind >= 0
                else camp_reached(b)
            )
        ):
            return MATE - ply if b.campmate_side() == b.side else ply - MATE
        if ply >= MAX_PLY:
            return static_of(b, packed)
        us = b.side
        in_check_now = checked
        if checked and qply >= QS_EVASION_PLIES:
            # Deep in quiescence a check is answered by the static score: with royal pieces that give
            # check (Hordes of Change's Kings and Knights), check-evasion-check chains never end.
            checked = False
        threatened = (
            camp
            and not checked
            and qply < QS_EVASION_PLIES
            and (camp_kind < 0 or b.kind_bb[camp_kind] & b.occ[us ^ 1] & camp_near[us ^ 1] != 0)
            and camp_threatened(b)
        )
        if checked or threatened:
            moves = legal_moves(move_cache(b._hash))
            if not moves:
                return no_moves_score(ply, in_check_now)
            best = -INF
            moves = sorted(moves, key=order_key, reverse=True)
            pruning = False
        else:
            # The table: capture sequences transpose often, and any stored depth covers quiescence.
            # Nodes in check are neither looked up nor stored (deep ones are scored statically).
            key = b._hash
            entry = None if in_check_now else tt.new.get(key) or tt.old.get(key)
            if entry is not None:
                e_score = entry[2]
                if e_score > MATE_BOUND:
                    e_score -= ply
                elif e_score < -MATE_BOUND:
                    e_score += ply
                e_bound = entry[1]
                if (
                    e_bound == EXACT
                    or (e_bound == LOWER and e_score >= beta)
                    or (e_bound == UPPER and e_score <= alpha)
                ):
                    return e_score
            stand = static_of(b, packed)
            if stand >= beta:
                return stand
            # Only the leaves of the main search keep their lists (the next iteration searches them
            # as inner nodes); deeper quiescence nodes are seldom met again.
            e: list[list[int] | None] = move_cache(key) if not qply else [None, None, None, None]
            moves = ordered_noisy(e, in_check_now)
            if (
                camp
                and qply < QS_CAMP_STEP_PLIES
                and (camp_kind < 0 or b.kind_bb[camp_kind] & b.occ[us] & camp_approach[us])
            ):
                steps = camp_steps(e)
                if steps:
                    moves = moves + steps
            if plan_q and not qply and not in_check_now:
                pulls = winning_pulls(b, lambda: legal_moves(e))
                if pulls:
                    moves = moves + pulls
            if not moves:
                # Nothing to play here; it is a stalemate only if no quiet move exists either.
                full = e[0]
                if full is not None:
                    any_move = bool(full)
                else:
                    any_move = movegen.has_legal_move(b) if in_check_now else movegen.has_move_not_in_check(b)
                if not any_move:
                    return no_moves_score(ply, in_check_now)
                return stand
            alpha0 = alpha
            if stand > alpha:
                alpha = stand
            best = stand
            pruning = True
            occupied = -1
            them = us ^ 1
        for m in moves:
            frm = m & SQ
            to = m >> TO & SQ
            bf = mailbox[frm]
            bt = mailbox[to]
            if pruning and bt >= 0 and frm != to:
                gain = value[bt] - owner_cost[bf]
                if plan_q and owner_cost[bf]:
                    gain = see(b, frm, to, value, owner_change)
                if not m >> PROMO & 63 and stand + gain + delta_margin <= alpha:
                    continue  # even winning the piece cannot lift the score to alpha
                if not owner_cost[bf] and value[bt] < value[bf]:
                    # A capture that loses material if the square is defended: skip it then.
                    if occupied < 0:
                        occupied = b.occ[0] | b.occ[1]
                    if movegen.attacked_by(b, them, to, occupied):
                        continue
            if check_first:
                gives = gives_check(m)
                b.push_int(m)
            else:
                b.push_int(m)
                gives = movegen.in_check(b, b.side)
            if m >> FLAGS & SPECIAL:  # child_packed, written out as in negamax
                child = ev.packed(b)
            elif frm == to:
                child = packed + table[mailbox[to]][to] - table[bt][to]
            else:
                child = (
                    packed
                    + table[mailbox[frm]][frm]
                    + table[mailbox[to]][to]
                    - table[bf][frm]
                    - table[bt][to]
                )
            score = -qsearch(-beta, -alpha, ply + 1, child, gives, qply + 1)
            b.pop_int()
            if score > best:
                best = score
                if score > alpha:
                    if score >= beta:
                        return score
                    alpha = score
        if pruning and (entry is None or entry[0] <= 0):
            tt.put(key, (0, EXACT if best > alpha0 else UPPER, _table_score(best, ply), 0))
        return best

    def negamax(
        depth: int, alpha: int, beta: int, ply: int, packed: int, checked: bool, null_ok: bool
    ) -> int:
        nonlocal nodes, seldepth
        pv_node = beta - alpha > 1
        if pv_node:
            pv_table[ply] = []
        # ----- the end of the game by rule ------------------------------------------------------
        if camp and (
            b.kind_bb[camp_kind] & ((b.occ[0] & camp_white) | (b.occ[1] & camp_black))
            if camp_kind >= 0
            else camp_reached(b)
        ):
            nodes += 1
            return MATE - ply if b.campmate_side() == b.side else ply - MATE
        halfmove = b.halfmove
        if halfmove >= 4:
            reps = b.repetitions()
            if rep_loss:
                if reps >= rep_count:
                    nodes += 1
                    return MATE - ply  # the opponent completed the repetition and loses
            elif reps >= 2:
                nodes += 1
                return 0  # a repetition inside the search is as good as the draw it leads to
            if n_move and halfmove >= n_move:
                nodes += 1
                if checked and not movegen.generate_legal(b):
                    return ply - MATE
                return 0
        if (
            dead_check
            and (not halfmove or not dead_after_reset)
            and (b.occ[0] | b.occ[1]).bit_count() <= 4
            and b.side_has_insufficient_material(0)
            and b.side_has_insufficient_material(1)
        ):
            nodes += 1
            return 0
        # A campmate threat against the side to move is answered like a check: extended, not pruned.
        threatened = (
            camp
            and not checked
            and (camp_kind < 0 or b.kind_bb[camp_kind] & b.occ[b.side ^ 1] & camp_near[b.side ^ 1] != 0)
            and camp_threatened(b)
        )
        if threatened and ply <= 2 * root_depth:
            depth += 1
        if depth <= 0 or ply >= MAX_PLY:
            return qsearch(alpha, beta, ply, packed, checked)
        nodes += 1
        if nodes >= next_poll:
            poll()
        if ply > seldepth:
            seldepth = ply
        # Mate-distance pruning: no line from here can beat a mate already found nearer the root.
        if alpha < ply - MATE:
            alpha = ply - MATE
        if beta > MATE - ply - 1:
            beta = MATE - ply - 1
        if alpha >= beta:
            return alpha
        # ----- transposition table --------------------------------------------------------------
        key = b._hash
        entry = tt.new.get(key)
        if entry is None:
            entry = tt.old.get(key)
        hash_move = 0
        if entry is not None:
            e_depth, e_bound, e_score, hash_move = entry
            if e_depth >= depth and not pv_node:
                if e_score > MATE_BOUND:
                    e_score -= ply
                elif e_score < -MATE_BOUND:
                    e_score += ply
                if (
                    e_bound == EXACT
                    or (e_bound == LOWER and e_score >= beta)
                    or (e_bound == UPPER and e_score <= alpha)
                ):
                    return e_score
        # ----- pruning before the moves ---------------------------------------------------------
        us = b.side
        stand = -INF
        if not checked and not threatened and not pv_node:
            stand = static_of(b, packed)
            # Reverse futility: far above beta at shallow depth, a quiet move will not bring it back.
            if depth <= 2 and stand - futility_margin * depth >= beta and abs(beta) < MATE_BOUND:
                return stand
            # Null move: if passing still holds beta, a real move will too (not in check, and only with
            # pieces besides pawns and royals, where zugzwang is rare; documents can switch it off).
            if use_null and null_ok and depth >= 3 and stand >= beta and abs(beta) < MATE_BOUND:
                own = b.occ[us]
                kind_bb = b.kind_bb
                if any(kind_bb[k] & own for k in nonpawn_kinds):
                    r = 2 + depth // 6
                    line[ply + 2] = 0
                    b.push_null()
                    score = -negamax(depth - 1 - r, -beta, -beta + 1, ply + 1, packed, False, False)
                    b.pop_null()
                    if score >= beta:
                        return beta if score < MATE_BOUND else score
        # ----- move loop ------------------------------------------------------------------------
        # The hash move is tried before the moves are generated: at most nodes it causes the cut-off,
        # and generating the legal moves is the most expensive thing a node does. (A table entry is
        # only used for the exact 64-bit key; the table is cleared when the variant changes.)
        hist = history[us]
        k1, k2 = killers[ply]
        order = [hash_move] if hash_move else []
        # Moves come in stages: the hash move; the noisy moves from the captures generator (enough at
        # most cut nodes); then killers and the other moves by history. With the legal list cached,
        # the noisy moves come from it instead. The lists are cached per position, the noisy ones
        # already in order; only the quiet moves are sorted here, by the history of this search.
        stage = 0
        best = -INF
        best_move = 0
        bound = UPPER
        futile = (
            not pv_node
            and not checked
            and not threatened
            and depth <= 2
            and abs(alpha) < MATE_BOUND
            and stand + futility_margin * depth <= alpha
        )
        zone = camp_zone[us] if camp else 0
        # Quiet: no capture, promotion or en passant, and not a royal step into its camp (a win).
        # The noisy moves all come before `quiet_from` and the quiet ones after it; only the hash
        # move, first, is tested.
        quiet_from = 1 << 30
        hash_quiet = False
        if hash_move:
            frm = hash_move & SQ
            to = hash_move >> TO & SQ
            hash_quiet = (
                (mailbox[to] < 0 or frm == to)
                and not hash_move >> PROMO & 63
                and not hash_move >> FLAGS & FLAG_EP
                and not (zone >> to & 1 and mailbox[frm] >> 1 in camp_kinds)
            )
        quiets_tried: list[int] = []
        noisy_done = False
        e: list[list[int] | None] = []
        i = -1
        while True:
            i += 1
            if i == len(order):
                if stage == 0:
                    stage = 1
                    e = move_cache(key)
                    if e[0] is None:
                        noisy_done = True
                        noisy = ordered_noisy(e, checked)
                        order += [m for m in noisy if m != hash_move] if hash_move else noisy
                if i == len(order) and stage == 1:
                    stage = 2
                    moves = legal_moves(e)
                    if not moves:
                        return no_moves_score(ply, checked)
                    if not noisy_done:
                        noisy = ordered_noisy(e, checked)
                        order += [m for m in noisy if m != hash_move] if hash_move else noisy
                    quiet_from = len(order)
                    rest = quiet_moves(e).copy()
                    if hash_move in rest:
                        rest.remove(hash_move)
                    if k1 in rest:
                        rest.remove(k1)
                        order.append(k1)
                    if k2 in rest:
                        rest.remove(k2)
                        order.append(k2)
                    rest.sort(key=hist.__getitem__, reverse=True)
                    order += rest
                if i == len(order):
                    break
            m = order[i]
            frm = m & SQ
            to = m >> TO & SQ
            bf = mailbox[frm]
            bt = mailbox[to]
            quiet = i >= quiet_from if i or not hash_move else hash_quiet
            if check_first:
                gives = gives_check(m)
                if futile and quiet and not gives and i > 0 and best > -MATE_BOUND:
                    continue
                b.push_int(m)
            else:
                b.push_int(m)
                gives = movegen.in_check(b, b.side)
                if futile and quiet and not gives and i > 0 and best > -MATE_BOUND:
                    b.pop_int()
                    continue
            # child_packed(m, packed, bf, bt), written out: this runs for every move played.
            if m >> FLAGS & SPECIAL:
                child = ev.packed(b)
            elif frm == to:
                child = packed + table[mailbox[to]][to] - table[bt][to]
            else:
                child = (
                    packed
                    + table[mailbox[frm]][frm]
                    + table[mailbox[to]][to]
                    - table[bf][frm]
                    - table[bt][to]
                )
            if pv_node:
                pv_table[ply + 1] = []
            new_depth = depth - 1
            if gives and ply < 2 * root_depth:
                new_depth += 1  # check extension
            pen = 0
            if shuffle:
                pen = shuffle_penalty(b, ply, m)
            lo_, hi_ = alpha + pen, beta + pen  # the window for the score before the penalty
            if i == 0:
                score = -negamax(new_depth, -hi_, -lo_, ply + 1, child, gives, True)
            else:
                reduction = 0
                if use_lmr and quiet and depth >= 3 and not checked and not gives and i >= 3:
                    reduction = _LMR[depth][min(i, 63)]
                    if pv_node:
                        reduction -= 1
                    reduction = max(0, min(reduction, new_depth - 1))
                score = -negamax(new_depth - reduction, -lo_ - 1, -lo_, ply + 1, child, gives, True)
                if score > lo_ and (reduction or score < hi_):
                    score = -negamax(new_depth, -hi_, -lo_, ply + 1, child, gives, True)
            if pen and abs(score) < MATE_BOUND:
                score -= pen
            b.pop_int()
            if score > best:
                best = score
                if score > alpha:
                    best_move = m
                    if pv_node:
                        pv_table[ply] = [m, *pv_table[ply + 1]]
                    if score >= beta:
                        bound = LOWER
                        if quiet:
                            if m != k1:
                                killers[ply][1] = k1
                                killers[ply][0] = m
                            hist[m] = min(hist[m] + depth * depth, 1 << 30)
                            for q in quiets_tried:
                                hist[q] = max(0, hist[q] - depth)
                        break
                    bound = EXACT
                    alpha = score
            if quiet:
                quiets_tried.append(m)
        stored = best
        if stored > MATE_BOUND:
            stored += ply
        elif stored < -MATE_BOUND:
            stored -= ply
        tt.put(key, (depth, bound, stored, best_move or hash_move))
        return best

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
    rest = sorted(root_moves[1:], key=order_key, reverse=True)
    root_moves = [root_moves[0], *rest]
    if camp:
        # A move that wins by campmate is searched first: at any level, the first move searched
        # decides when a node limit or the clock stops the first iteration.
        zone = camp_zone[b.side]
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
        seldepth = 0
        root_depth = depth
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
                            child = child_packed(m, root_packed, bf, bt)
                            nd = depth - 1 + (1 if gives else 0)
                            pv_table[1] = []
                            pen = 0
                            if shuffle:
                                pen = shuffle_penalty(b, 0, m)
                            lo_, hi_ = alpha + pen, beta + pen
                            if i == first:
                                score = -negamax(nd, -hi_, -lo_, 1, child, gives, True)
                            else:
                                score = -negamax(nd, -lo_ - 1, -lo_, 1, child, gives, True)
                                if lo_ < score < hi_:
                                    score = -negamax(nd, -hi_, -lo_, 1, child, gives, True)
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
        except _Abort:
            # Keep what the unfinished depth proved: the lines it finished, and the best move of the
            # line it was searching, if it found one; the other lines stay as the last depth left them.
            fresh = ranked(done + ([(iter_score, iter_pv)] if iter_best else []))
            if fresh:
                best_score, best_pv = fresh[0]
            elif last_info is None:
                # Stopped before any move was searched to the end: play the best-ordered move.
                best_pv, best_score = [root_moves[0]], static(root_packed)
            elapsed = clock() - start
            if last_info is None or fresh:
                taken = {pv[0] for _, pv in fresh}
                older = [line for line in lines if line[1][0] not in taken]
                reported = fresh or [(best_score, best_pv)]
                yield report(
                    pristine,
                    [(depth, s, pv) for s, pv in reported] + [(depth - 1, s, pv) for s, pv in older],
                    seldepth,
                    nodes,
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
            b, [(depth, s, pv) for s, pv in lines], seldepth, nodes, elapsed, True, pawn_unit, tt, pv_count
        )
        yield last_info
        if limits.stopped() or (node_limit is not None and nodes >= node_limit):
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


def _table_score(score: int, ply: int) -> int:
    """A score as the table keeps it: mates counted from the stored position, not the root."""
    if score > MATE_BOUND:
        return score + ply
    if score < -MATE_BOUND:
        return score - ply
    return score


def _key(b: Board, m: int) -> tuple[int, int, str | None]:
    mv = b.int_to_move(m)
    return mv.from_square, mv.to_square, mv.promotion
