"""One search's tree: the main search (`negamax`) and quiescence (`qsearch`) with the state they
share, as methods of one class (engine/search.py runs the root and the iterations).

Why a class and not closures: in the compiled build a method of a final native class is called as a
C function with native ints, where a closure is a callable object, called through Python's generic
protocol with every argument boxed; a node makes several such calls (docs/benchmarks.md, issue 17).
The hot methods copy the attributes they read often into locals first.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Final, final

from hordes.core import movegen
from hordes.core.position import Board
from hordes.engine.evaluate import BITS, Evaluator
from hordes.engine.limits import INF, MATE, MATE_BOUND, Limits
from hordes.engine.plan import see
from hordes.engine.plan_search import PlanSearch
from hordes.engine.tt import EXACT, LOWER, UPPER

if TYPE_CHECKING:
    from hordes.engine.search import Searcher

MAX_PLY: Final = 100
MAX_DEPTH: Final = 64
POLL_NODES: Final = 128  # how often the clock, the node limit and the stop signal are checked
QS_EVASION_PLIES: Final = 4  # quiescence answers a check with every evasion only this close to its start
QS_CAMP_STEP_PLIES: Final = 2  # quiescence tries royal steps towards the camp only this close to its start
# Under a campmate threat, a move that leaves the camp open is scored lost without a search
# (`Tree.camp_left_open`). Exact, so always on; tests and benchmarks/campmate_cut.py switch it off to
# compare. Not Final: it is read once per search, and a test may set it.
CAMP_CUT = True

SQ: Final = movegen.SQ_MASK
TO: Final = movegen.TO_SHIFT
PROMO: Final = movegen.PROMO_SHIFT
FLAGS: Final = movegen.FLAG_SHIFT
SPECIAL: Final = movegen.FLAG_CASTLE | movegen.FLAG_EP  # moves that touch more than their two squares
FLAG_EP: Final = movegen.FLAG_EP

# Late-move reductions by depth and move number (the usual logarithmic formula).
_LMR: Final = [[0] * 64 for _ in range(MAX_DEPTH + 1)]


def _fill_lmr() -> None:
    import math

    for d in range(1, MAX_DEPTH + 1):
        for i in range(1, 64):
            _LMR[d][i] = int(0.75 + math.log(d) * math.log(i) / 2.25)


_fill_lmr()

MoveCache = list[list[int] | None]  # [legal moves, captures generator's, noisy best first, the others]


class Abort(Exception):
    """A limit or the stop signal ended the search mid-iteration."""


def table_score(score: int, ply: int) -> int:
    """A score as the table keeps it: mates counted from the stored position, not the root."""
    if score > MATE_BOUND:
        return score + ply
    if score < -MATE_BOUND:
        return score - ply
    return score


@final
class Tree:
    """The state of one search of `b` (a copy the search owns) and the recursive searches over it."""

    def __init__(
        self,
        owner: Searcher,
        b: Board,
        ev: Evaluator,
        limits: Limits,
        noise: int,
        seed: int | None,
        clock: Callable[[], float],
    ) -> None:
        variant = b.variant
        rules = variant.rules
        comp = b.compiled
        params = ev.params
        self.owner = owner
        self.b = b
        self.ev = ev
        self.limits = limits
        self.clock = clock
        self.table = ev.table
        self.value = ev.value
        self.pawn_unit = ev.pawn_unit
        self.tempo = ev.tempo
        self.phase_hi = ev.phase_hi
        self.phase_lo = ev.phase_lo
        self.phase_span = max(1, ev.phase_hi - ev.phase_lo)
        self.use_extras = ev.use_extras
        self.extras = ev.node_extras
        self.half = 1 << (BITS - 1)
        self.offset = self.half + (self.half << BITS)
        self.mask = (1 << BITS) - 1
        pieces = variant.pieces
        # Owner-changing captures give the capturer to the opponent: a swing of twice its value.
        owner_cost = [
            2 * ev.value[c] if pieces[c >> 1].changes_owner_on_capture else 0 for c in range(2 * len(pieces))
        ]
        owner_cost.append(0)
        self.owner_cost = owner_cost
        self.camp = bool(comp.camp_kinds)
        self.camp_kinds = frozenset(comp.camp_kinds)
        self.camp_zone = comp.camp_zone
        # campmate_reached written out for the usual single camp kind (a call costs more than the test).
        self.camp_kind = comp.camp_kinds[0] if len(comp.camp_kinds) == 1 else -1
        self.camp_white, self.camp_black = comp.camp_zone
        # Campmate threats: a royal one step from a camp square it may enter is answered like a check
        # (every move searched, an extension in the main search); quiescence tries the royal steps
        # that make such a threat, so a race that cannot be stopped in time is seen past the horizon.
        self.camp_near = ev.camp_near
        self.camp_approach = ev.camp_approach
        # With one royal kind, a royal's step onto a square the opponent does not attack is legal,
        # so `camp_open` is exact and the threat's answers can be cut (`camp_left_open`).
        self.camp_cut = self.camp and comp.royal_kind >= 0 and CAMP_CUT
        self.royal_kind = comp.royal_kind
        # gives_check before the move lets futility pruning skip the push; where it would itself make
        # and unmake the move (variant mechanisms, several royals) the search asks in_check after it.
        self.check_first = comp.simple and comp.royal_kind >= 0
        self.gives_check = movegen.gives_check_fn(b)
        # The same test, called by name, where the word tables serve the variant (see `gives`).
        self.gives_words = comp.words if self.check_first else None
        self.mailbox = b.mailbox  # changed in place by push/pop; kind_bb and occ are replaced
        self.tt = owner.tt
        self.history = owner.history
        self.killers = [[0, 0] for _ in range(MAX_PLY + 2)]
        self.pv_table: list[list[int]] = [[] for _ in range(MAX_PLY + 2)]
        # Rules of the game's end, as scores for the side to move (sign times MATE - ply, or 0).
        if rules.no_legal_moves == "loss" or rules.stalemate == "loss":
            self.stalemate_sign = -1
        elif rules.stalemate == "win":
            self.stalemate_sign = 1
        else:
            self.stalemate_sign = 0
        self.rep_loss = rules.repetition_result == "loss"
        self.rep_count = rules.repetition_count
        self.n_move = 2 * rules.n_move_rule
        self.dead_check = rules.insufficient_material
        # Material changes only by a capture or a promotion. Where every promoting kind resets the
        # n-move counter (pawns do, unless a document says otherwise), a position reached with the
        # counter running has its parent's material, which was not a dead position.
        self.dead_after_reset = all(
            g.kind in comp.reset_kinds[color] for color in (0, 1) for g in comp.gens[color] if g.promotes
        )
        self.use_null = params.null_move
        # The plan's part (plan_search.py): no shuffling where repetition loses, plan quiescence.
        self.plan = PlanSearch(b, ev, MAX_PLY)
        self.shuffle = self.plan.shuffle
        # Static scores shrink with the plies since the last capture (docs/engine.md): the side ahead
        # is drawn to lines that take something rather than to a lead that is never cashed.
        self.halfmove_decay = params.halfmove_decay
        self.line = self.plan.line
        self.plan_q = self.plan.quiescence
        self.owner_change = self.plan.owner_change
        self.use_lmr = params.late_move_reductions
        self.use_lmp = params.late_move_pruning
        self.futility_margin = 2 * ev.pawn_unit
        # Reverse futility, null-move reduction and the extra reduction off the principal variation
        # (the document switch deep_pruning; docs/benchmarks.md has its matches).
        deep = params.deep_pruning
        self.rfp_depth = 6 if deep else 2
        self.rfp_margin = ev.pawn_unit if deep else 2 * ev.pawn_unit
        self.null_base = 3 if deep else 2
        self.null_divisor = 3 if deep else 6
        self.lmr_off_pv = 1 if deep else 0
        self.known_win = 20 * ev.pawn_unit
        self.delta_margin = 2 * ev.pawn_unit
        # Kinds whose presence makes zugzwang unlikely (null-move pruning is only tried with one of them).
        self.nonpawn_kinds = [k for k, p in enumerate(pieces) if not (p.pawn or p.royal or p.immobile)]
        self.noise = noise
        self.noise_seed = seed if seed is not None else random.getrandbits(32)
        self.noise_span = 2 * noise + 1
        # The static score in one call where the document allows (see Evaluator.node_static).
        self.node_static = ev.node_static if not noise else None
        # Static scores by Zobrist hash (Searcher.statics): iterative deepening and transpositions
        # score the same position again (a sixth of Hordes of Change's evaluations at depth 4, a
        # quarter of Orda's), and there the evaluation's extra terms cost about half of a node;
        # chess's royal shelter gains a little. Where the score is the tables alone, the lookup would
        # cost about what it saves. Evaluation noise differs from search to search, so a search with
        # noise, and the one after it, start empty. A capacity of 0 switches it off
        # (benchmarks/static_cache.py).
        self.statics = owner.statics
        self.statics_capacity = owner.statics_capacity
        self.use_statics = ev.use_extras and owner.statics_capacity > 0
        if self.use_statics:
            if noise or owner.statics_noise:
                self.statics.clear()
            owner.statics_noise = noise != 0
        # The limits and the counters the root reads.
        self.start = clock()
        soft, hard = limits.budget(b.turn, params.moves_to_go)
        self.soft = soft
        self.hard_deadline = self.start + hard if hard is not None else None
        self.node_limit = limits.nodes
        self.nodes = 0
        self.next_poll = POLL_NODES if limits.nodes is None else max(1, min(POLL_NODES, limits.nodes))
        self.seldepth = 0
        self.root_depth = 1

    # ----- move lists ---------------------------------------------------------------------------
    def move_cache(self, key: int) -> MoveCache:
        """The move-list cache entry of a position (see Searcher.pos_new), made if missing."""
        owner = self.owner
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

    def legal_moves(self, e: MoveCache) -> list[int]:
        moves = e[0]
        if moves is None:
            moves = e[0] = movegen.generate_legal(self.b)
        return moves

    def ordered_noisy(self, e: MoveCache, checked: bool) -> list[int]:
        """Campmate steps (they win at once), then captures, promotions and en passant by order_key,
        best first. From the legal list when known, else from the captures generator, which skips
        the pin search when `checked` is False (the side to move is not in check)."""
        moves = e[2]
        if moves is None:
            b = self.b
            source = e[0]
            if source is None:
                source = e[1]
                if source is None:
                    source = e[1] = (
                        movegen.generate_legal_captures(b) if checked else movegen.captures_not_in_check(b)
                    )
                if not self.camp:  # every move of the captures generator is noisy: only sort them
                    moves = e[2] = (
                        sorted(source, key=self.order_key, reverse=True) if len(source) > 1 else source
                    )
                    return moves
            zone = self.camp_zone[b.side] if self.camp else 0
            mailbox = self.mailbox
            camp_kinds = self.camp_kinds
            first = []
            moves = []
            for m in source:
                to = m >> TO & SQ
                if (mailbox[to] >= 0 and m & SQ != to) or m >> PROMO & 63 or m >> FLAGS & FLAG_EP:
                    moves.append(m)
                elif zone >> to & 1 and mailbox[m & SQ] >> 1 in camp_kinds:
                    first.append(m)
            moves.sort(key=self.order_key, reverse=True)
            if first:
                moves = first + moves
            e[2] = moves
        return moves

    def quiet_moves(self, e: MoveCache) -> list[int]:
        """The legal moves ordered_noisy leaves out (e[0] must be filled): a copy of the legal list
        with those few removed, which list.remove does in C."""
        moves = e[3]
        if moves is None:
            moves = list(e[0] or ())
            for m in self.ordered_noisy(e, False):  # from e[0], so the flag is not used
                moves.remove(m)
            e[3] = moves
        return moves

    def order_key(self, m: int) -> int:
        """Captures by value gained (most valuable victim, least valuable attacker), promotions."""
        mailbox = self.mailbox
        value = self.value
        frm = m & SQ
        to = m >> TO & SQ
        victim = mailbox[to]
        key = 0
        if victim >= 0 and frm != to:
            attacker = mailbox[frm]
            key = (value[victim] - self.owner_cost[attacker]) * 16 - (value[attacker] >> 6) + (1 << 24)
        elif m >> FLAGS & FLAG_EP:
            key = (1 << 24) + 16 * self.pawn_unit
        promo = m >> PROMO & 63
        if promo:
            key += (1 << 24) + 16 * value[(promo - 1) * 2]
        return key

    def camp_steps(self, e: MoveCache) -> list[int]:
        """Quiet legal steps of the side to move's camp-winning royals onto a square next to its camp
        (the search then sees whether the threat they make can be stopped)."""
        side = self.b.side
        near = self.camp_near[side] & ~self.camp_zone[side]
        mailbox = self.mailbox
        camp_kinds = self.camp_kinds
        return [
            m
            for m in self.legal_moves(e)
            if near >> (m >> TO & SQ) & 1 and mailbox[m >> TO & SQ] < 0 and mailbox[m & SQ] >> 1 in camp_kinds
        ]

    def gives(self, m: int) -> bool:
        """Does move m give check? (Only where `check_first`: simple variants with one royal kind.)"""
        table = self.gives_words
        if table is not None:
            return movegen.gives_check_on_words(self.b, table, m)
        return self.gives_check(m)

    # ----- limits -------------------------------------------------------------------------------
    def poll(self) -> None:
        """Check the limits. Polls come every few milliseconds: at most POLL_NODES nodes apart, fewer
        where nodes are slow (Hordes of Change's move generation, a loaded machine)."""
        now = self.clock()
        nodes = self.nodes
        interval = POLL_NODES
        if now > self.start:
            interval = max(4, min(POLL_NODES, int(nodes / (now - self.start) * 0.004)))
        node_limit = self.node_limit
        self.next_poll = nodes + interval
        if node_limit is not None:
            self.next_poll = min(self.next_poll, node_limit)
        if node_limit is not None and nodes >= node_limit:
            raise Abort
        if self.hard_deadline is not None and now >= self.hard_deadline:
            raise Abort
        if self.limits.stopped():
            raise Abort

    # ----- scores -------------------------------------------------------------------------------
    def static(self, packed: int) -> int:
        """Evaluation for the side to move from the packed piece-square sum."""
        b = self.b
        half = self.half
        mask = self.mask
        t = packed + self.offset  # fields made non-negative: each one is then a plain bit slice
        eg = (t & mask) - half
        mg = (t >> BITS & mask) - half
        ph = t >> 2 * BITS
        if ph >= self.phase_hi:
            score = mg
        elif ph <= self.phase_lo:
            score = eg
        else:
            score = (mg * (ph - self.phase_lo) + eg * (self.phase_hi - ph)) // self.phase_span
        if self.use_extras:
            score += self.extras(b, packed)
        noise = self.noise
        if noise:
            score += (
                (b.zobrist_hash() ^ self.noise_seed) * 0x9E3779B97F4A7C15 >> 40
            ) % self.noise_span - noise
        return (score if b.side == 0 else -score) + self.tempo

    def static_of(self, packed: int) -> int:
        """The static score of the position on the board, from the cache of static scores if kept,
        shrunk by the halfmove clock where the document asks (halfmove_decay)."""
        if self.use_statics:
            statics = self.statics
            key = self.b._hash
            score = statics.get(key)
            if score is None:
                score = self.raw_static(packed)
                if len(statics) >= self.statics_capacity:
                    statics.clear()
                statics[key] = score
        else:
            score = self.raw_static(packed)
        decay = self.halfmove_decay
        if decay:
            # The cache keeps the whole score: the hash does not hold the clock. Rounded toward 0,
            # the same for either side.
            clock = self.b.halfmove
            if clock:
                if score >= 0:
                    return score * decay // (decay + clock)
                return -(-score * decay // (decay + clock))
        return score

    def raw_static(self, packed: int) -> int:
        node_static = self.node_static
        if node_static is not None:
            return node_static(self.b, packed)
        return self.static(packed)

    def child_packed(self, m: int, packed: int, before_from: int, before_to: int) -> int:
        table = self.table
        mailbox = self.mailbox
        frm = m & SQ
        to = m >> TO & SQ
        if m >> FLAGS & SPECIAL:
            return self.ev.packed(self.b)
        if frm == to:
            return packed + table[mailbox[to]][to] - table[before_to][to]
        return (
            packed
            + table[mailbox[frm]][frm]
            + table[mailbox[to]][to]
            - table[before_from][frm]
            - table[before_to][to]
        )

    def no_moves_score(self, ply: int, checked: bool) -> int:
        if checked:
            return ply - MATE
        return self.stalemate_sign * (MATE - ply)

    def camp_left_open(self) -> bool:
        """Just after a move that gave no check, at a node under a campmate threat: can the side now
        to move still step into its camp, with nothing ending the game first? Then that move loses
        next ply, and the search scores it so without searching it (exact, like a mate in one). Not
        when the move itself won the camp, repeated a position or reached the n-move rule, nor where
        a dead position may end the game; with one royal of the kind, whose step is then legal."""
        b = self.b
        if self.campmate_score(0) is not None:
            return False
        halfmove = b.halfmove
        if halfmove >= 4 and (b.repetitions() >= 2 or (self.n_move and halfmove >= self.n_move)):
            return False
        side = b.side
        if self.dead_check or (b.kind_bb[self.royal_kind] & b.occ[side]).bit_count() != 1:
            return False
        return self.ev.camp_open(b, side)

    def campmate_score(self, ply: int) -> int | None:
        """The score of a won camp (MATE - ply for the side to move if it is its own), or None."""
        b = self.b
        camp_kind = self.camp_kind
        if (
            b.kind_bb[camp_kind] & ((b.occ[0] & self.camp_white) | (b.occ[1] & self.camp_black))
            if camp_kind >= 0
            else movegen.campmate_reached(b)
        ):
            return MATE - ply if b.campmate_side() == b.side else ply - MATE
        return None

    # ----- quiescence ---------------------------------------------------------------------------
    def qsearch(self, alpha: int, beta: int, ply: int, packed: int, checked: bool, qply: int = 0) -> int:
        b = self.b
        self.nodes += 1
        if self.nodes >= self.next_poll:
            self.poll()
        if ply > self.seldepth:
            self.seldepth = ply
        camp = self.camp
        # (At qply 0 negamax has just made the campmate test.)
        if camp and qply:
            won = self.campmate_score(ply)
            if won is not None:
                return won
        if ply >= MAX_PLY:
            return self.static_of(packed)
        mailbox = self.mailbox
        table = self.table
        value = self.value
        owner_cost = self.owner_cost
        tt = self.tt
        us = b.side
        camp_kind = self.camp_kind
        in_check_now = checked
        if checked and qply >= QS_EVASION_PLIES:
            # Deep in quiescence a check is answered by the static score: with royal pieces that give
            # check (Hordes of Change's Kings and Knights), check-evasion-check chains never end.
            checked = False
        threatened = (
            camp
            and not checked
            and qply < QS_EVASION_PLIES
            and (camp_kind < 0 or b.kind_bb[camp_kind] & b.occ[us ^ 1] & self.camp_near[us ^ 1] != 0)
            and self.ev.camp_threatened(b)
        )
        entry = None
        key = 0
        alpha0 = alpha
        stand = -INF
        occupied = -1
        them = us ^ 1
        if checked or threatened:
            moves = self.legal_moves(self.move_cache(b._hash))
            if not moves:
                return self.no_moves_score(ply, in_check_now)
            best = -INF
            moves = sorted(moves, key=self.order_key, reverse=True)
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
            stand = self.static_of(packed)
            if stand >= beta:
                return stand
            # Only the leaves of the main search keep their lists (the next iteration searches them
            # as inner nodes); deeper quiescence nodes are seldom met again.
            e: MoveCache = self.move_cache(key) if not qply else [None, None, None, None]
            moves = self.ordered_noisy(e, in_check_now)
            if (
                camp
                and qply < QS_CAMP_STEP_PLIES
                and (camp_kind < 0 or b.kind_bb[camp_kind] & b.occ[us] & self.camp_approach[us])
            ):
                steps = self.camp_steps(e)
                if steps:
                    moves = moves + steps
            if self.plan_q and not qply and not in_check_now:
                pulls = self.plan.winning_pulls(b, lambda: self.legal_moves(e))
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
                    return self.no_moves_score(ply, in_check_now)
                return stand
            if stand > alpha:
                alpha = stand
            best = stand
            pruning = True
        check_first = self.check_first
        for m in moves:
            frm = m & SQ
            to = m >> TO & SQ
            bf = mailbox[frm]
            bt = mailbox[to]
            if pruning and bt >= 0 and frm != to:
                gain = value[bt] - owner_cost[bf]
                if self.plan_q and owner_cost[bf]:
                    gain = see(b, frm, to, value, self.owner_change)
                if not m >> PROMO & 63 and stand + gain + self.delta_margin <= alpha:
                    continue  # even winning the piece cannot lift the score to alpha
                if not owner_cost[bf] and value[bt] < value[bf]:
                    # A capture that loses material if the square is defended: skip it then.
                    if occupied < 0:
                        occupied = b.occ[0] | b.occ[1]
                    if movegen.attacked_by(b, them, to, occupied):
                        continue
            if check_first:
                gives = self.gives(m)
                b.push_int(m)
            else:
                b.push_int(m)
                gives = movegen.in_check(b, b.side)
            if threatened and not gives and self.camp_cut and self.camp_left_open():
                score = ply + 2 - MATE  # the camp stays open: lost next ply
            else:
                if m >> FLAGS & SPECIAL:  # child_packed, written out as in negamax
                    child = self.ev.packed(b)
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
                score = -self.qsearch(-beta, -alpha, ply + 1, child, gives, qply + 1)
            b.pop_int()
            if score > best:
                best = score
                if score > alpha:
                    if score >= beta:
                        return score
                    alpha = score
        if pruning and (entry is None or entry[0] <= 0):
            tt.put(key, (0, EXACT if best > alpha0 else UPPER, table_score(best, ply), 0))
        return best

    # ----- the main search ----------------------------------------------------------------------
    def negamax(
        self, depth: int, alpha: int, beta: int, ply: int, packed: int, checked: bool, null_ok: bool
    ) -> int:
        b = self.b
        pv_node = beta - alpha > 1
        if pv_node:
            self.pv_table[ply] = []
        # ----- the end of the game by rule ------------------------------------------------------
        camp = self.camp
        if camp:
            won = self.campmate_score(ply)
            if won is not None:
                self.nodes += 1
                return won
        halfmove = b.halfmove
        if halfmove >= 4:
            reps = b.repetitions()
            if self.rep_loss:
                if reps >= self.rep_count:
                    self.nodes += 1
                    return MATE - ply  # the opponent completed the repetition and loses
            elif reps >= 2:
                self.nodes += 1
                return 0  # a repetition inside the search is as good as the draw it leads to
            n_move = self.n_move
            if n_move and halfmove >= n_move:
                self.nodes += 1
                if checked and not movegen.generate_legal(b):
                    return ply - MATE
                return 0
        if (
            self.dead_check
            and (not halfmove or not self.dead_after_reset)
            and (b.occ[0] | b.occ[1]).bit_count() <= 4
            and b.side_has_insufficient_material(0)
            and b.side_has_insufficient_material(1)
        ):
            self.nodes += 1
            return 0
        # A campmate threat against the side to move is answered like a check: extended, not pruned.
        camp_kind = self.camp_kind
        threatened = (
            camp
            and not checked
            and (camp_kind < 0 or b.kind_bb[camp_kind] & b.occ[b.side ^ 1] & self.camp_near[b.side ^ 1] != 0)
            and self.ev.camp_threatened(b)
        )
        root_depth = self.root_depth
        if threatened and ply <= 2 * root_depth:
            depth += 1
        if depth <= 0 or ply >= MAX_PLY:
            return self.qsearch(alpha, beta, ply, packed, checked)
        self.nodes += 1
        if self.nodes >= self.next_poll:
            self.poll()
        if ply > self.seldepth:
            self.seldepth = ply
        # Mate-distance pruning: no line from here can beat a mate already found nearer the root.
        if alpha < ply - MATE:
            alpha = ply - MATE
        if beta > MATE - ply - 1:
            beta = MATE - ply - 1
        if alpha >= beta:
            return alpha
        # ----- transposition table --------------------------------------------------------------
        tt = self.tt
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
        futility_margin = self.futility_margin
        if not checked and not threatened and not pv_node:
            stand = self.static_of(packed)
            # Reverse futility: far above beta at shallow depth, a quiet move will not bring it back.
            # Past depth 2 only while neither side is 20 pawns up: in a decided position the losing
            # side's node would be cut while the winner's mate threat is still unseen (a mate in two
            # was missed that way at depth 4, tests/engine/test_tactics.py).
            if (
                depth <= self.rfp_depth
                and stand - self.rfp_margin * depth >= beta
                and abs(beta) < MATE_BOUND
                and (depth <= 2 or abs(stand) < self.known_win)
            ):
                return stand
            # Null move: if passing still holds beta, a real move will too (not in check, and only
            # with pieces besides pawns and royals, where zugzwang is rare; documents can switch it off).
            if self.use_null and null_ok and depth >= 3 and stand >= beta and abs(beta) < MATE_BOUND:
                own = b.occ[us]
                kind_bb = b.kind_bb
                if any(kind_bb[k] & own for k in self.nonpawn_kinds):
                    r = self.null_base + depth // self.null_divisor
                    self.line[ply + 2] = 0
                    b.push_null()
                    score = -self.negamax(depth - 1 - r, -beta, -beta + 1, ply + 1, packed, False, False)
                    b.pop_null()
                    if score >= beta:
                        return beta if score < MATE_BOUND else score
        # ----- move loop ------------------------------------------------------------------------
        # The hash move is tried before the moves are generated: at most nodes it causes the cut-off,
        # and generating the legal moves is the most expensive thing a node does. (A table entry is
        # only used for the exact 64-bit key; the table is cleared when the variant changes.)
        mailbox = self.mailbox
        table = self.table
        pv_table = self.pv_table
        hist = self.history[us]
        killers = self.killers[ply]
        k1, k2 = killers
        order = [hash_move] if hash_move else []
        # Moves come in stages: the hash move; the noisy moves from the captures generator (enough at
        # most cut nodes); then killers and the other moves by history. With the legal list cached,
        # the noisy moves come from it instead. The lists are cached per position, the noisy ones
        # already in order; only the quiet moves are sorted here, by the history of this search.
        stage = 0
        best = -INF
        best_move = 0
        bound = UPPER
        # Quiet moves that give no check are skipped after the first move when the node is futile,
        # and after the first `late` quiet ones searched otherwise (late-move pruning: at a shallow
        # node off the principal variation, not in check or under a campmate threat, after 3 + depth²
        # of them; history puts the promising ones first). Late-move pruning takes 1.9-2.8x fewer
        # nodes to depth 10 from the start in chess and Orda; its matches are in docs/benchmarks.md.
        futile = (
            not pv_node
            and not checked
            and not threatened
            and depth <= 2
            and abs(alpha) < MATE_BOUND
            and stand + futility_margin * depth <= alpha
        )
        if futile:
            late = 0
        elif self.use_lmp and not pv_node and not checked and not threatened and depth <= 3:
            late = 3 + depth * depth
        else:
            late = 1 << 30
        zone = self.camp_zone[us] if camp else 0
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
                and not (zone >> to & 1 and mailbox[frm] >> 1 in self.camp_kinds)
            )
        quiets_tried: list[int] = []
        noisy_done = False
        e: MoveCache = []
        check_first = self.check_first
        shuffle = self.shuffle
        use_lmr = self.use_lmr
        lmr_off_pv = self.lmr_off_pv
        i = -1
        while True:
            i += 1
            if i == len(order):
                if stage == 0:
                    stage = 1
                    e = self.move_cache(key)
                    if e[0] is None:
                        noisy_done = True
                        noisy = self.ordered_noisy(e, checked)
                        order += [m for m in noisy if m != hash_move] if hash_move else noisy
                if i == len(order) and stage == 1:
                    stage = 2
                    moves = self.legal_moves(e)
                    if not moves:
                        return self.no_moves_score(ply, checked)
                    if not noisy_done:
                        noisy = self.ordered_noisy(e, checked)
                        order += [m for m in noisy if m != hash_move] if hash_move else noisy
                    quiet_from = len(order)
                    # The quiet moves but the hash move and the killers, which go first if legal
                    # here (one pass of native int tests: `in` and list.remove compare objects).
                    rest = []
                    has_k1 = has_k2 = False
                    for q in self.quiet_moves(e):
                        if q == hash_move:
                            continue
                        if q == k1:
                            has_k1 = True
                        elif q == k2:
                            has_k2 = True
                        else:
                            rest.append(q)
                    if has_k1:
                        order.append(k1)
                    if has_k2:
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
                gives = self.gives(m)
                if quiet and len(quiets_tried) >= late and not gives and i > 0 and best > -MATE_BOUND:
                    continue
                b.push_int(m)
            else:
                b.push_int(m)
                gives = movegen.in_check(b, b.side)
                if quiet and len(quiets_tried) >= late and not gives and i > 0 and best > -MATE_BOUND:
                    b.pop_int()
                    continue
            if pv_node:
                pv_table[ply + 1] = []
            if threatened and not gives and self.camp_cut and self.camp_left_open():
                score = ply + 2 - MATE  # the camp stays open: lost next ply
            else:
                # child_packed(m, packed, bf, bt), written out: this runs for every move played.
                if m >> FLAGS & SPECIAL:
                    child = self.ev.packed(b)
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
                new_depth = depth - 1
                if gives and ply < 2 * root_depth:
                    new_depth += 1  # check extension
                pen = 0
                if shuffle:
                    pen = self.plan.penalty(b, ply, m)
                lo_, hi_ = alpha + pen, beta + pen  # the window for the score before the penalty
                if i == 0:
                    score = -self.negamax(new_depth, -hi_, -lo_, ply + 1, child, gives, True)
                else:
                    reduction = 0
                    if use_lmr and quiet and depth >= 3 and not checked and not gives and i >= 3:
                        reduction = _LMR[depth][min(i, 63)]
                        if pv_node:
                            reduction -= 1
                        else:
                            reduction += lmr_off_pv
                        reduction = max(0, min(reduction, new_depth - 1))
                    score = -self.negamax(new_depth - reduction, -lo_ - 1, -lo_, ply + 1, child, gives, True)
                    if score > lo_ and (reduction or score < hi_):
                        score = -self.negamax(new_depth, -hi_, -lo_, ply + 1, child, gives, True)
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
                                killers[1] = k1
                                killers[0] = m
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
