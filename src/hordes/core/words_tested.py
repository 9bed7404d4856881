"""The make-and-test generator on 64-bit words, for the variants movegen cannot serve by pins and
checks: pieces that pull, restrict, change shape or change owner, or several royal pieces (Hordes of
Change). It gives movegen._generate_by_testing's moves, in the same order, so the search sees the
same tree in either build.

movegen makes each risky move on the Board and asks whether a royal piece is attacked: a push, a
test through the attack functions written out per variant and run with `exec`, and a pop, all on
Python ints. Here the move is made on the words of a scratch vector and the test runs on the tables
of hordes.core.words; the pure build keeps movegen's code (tests/test_words_tested.py holds them
equal). Served: boards of at most 64 squares without pawns, promotions or a campmate rule; a
position with castling rights or an en-passant square goes to movegen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, final

from librt.vecs import vec
from mypy_extensions import i64

from hordes.core.tables import _ray_masks
from hordes.core.words import (
    MAX_SQUARES,
    POSITIVE,
    TO_SHIFT,
    TOP,
    Reach,
    Words,
    _attackers,
    _set_groups,
    _snipers,
    _words,
    drop_low,
    low_square,
    pattern_reach,
    reach,
    top_square,
    word,
)

if TYPE_CHECKING:
    from hordes.core.compiled import Compiled
    from hordes.core.geometry import Geometry


@final
class Walks:
    """Vectors walked square by square from each square, as movegen.restricted_targets and the pulls
    walk them: a ray table per vector (the nearest blocker is its lowest bit when `up`, else its
    highest), with the vector and whether it moves or captures."""

    def __init__(self, geo: Geometry, vectors: list[tuple[int, int, int, bool, bool]]) -> None:
        size = geo.size
        self.n: i64 = len(vectors)
        rays: list[int] = []
        for dx, dy, steps, _, _ in vectors:
            rays += _ray_masks(geo, (dx, dy), steps)
        self.rays: vec[i64] = _words(rays)
        self.dx: vec[i64] = vec[i64]([v[0] for v in vectors])
        self.dy: vec[i64] = vec[i64]([v[1] for v in vectors])
        self.up: vec[bool] = vec[bool]([v[1] * geo.cols + v[0] > 0 for v in vectors])
        self.move: vec[bool] = vec[bool]([v[3] for v in vectors])
        self.capture: vec[bool] = vec[bool]([v[4] for v in vectors])
        # The first square of each ray, or -1 (where a pull puts the piece it draws).
        first = [-1] * (len(vectors) * size)
        for j, (dx, dy, _, _, _) in enumerate(vectors):
            for sq in range(size):
                f, r = geo.file_of(sq) + dx, geo.rank_of(sq) + dy
                if geo.on_board(f, r):
                    first[j * size + sq] = geo.square(f, r)
        self.first: vec[i64] = vec[i64](first)


@final
class Tested:
    """A variant's tables for this generator; the attack groups are those of a Words built for it."""

    def __init__(self, comp: Compiled, geo: Geometry) -> None:
        variant = comp.variant
        size = comp.size
        nkinds = len(comp.gens[0])
        self.w = Words(comp, geo)
        self.size: i64 = size
        self.nkinds: i64 = nkinds
        self.file: vec[i64] = vec[i64]([sq % comp.cols for sq in range(size)])
        self.rank: vec[i64] = vec[i64]([sq // comp.cols for sq in range(size)])
        # By colour, the kinds that move, in movegen's order; by [colour * nkinds + kind], their
        # patterns as word tables and, for a restricted piece, their vectors one by one.
        self.moving: list[vec[i64]] = []
        self.quiet: list[Reach] = []
        self.capture: list[Reach] = []
        same: list[bool] = []
        self.walks: list[Walks] = []
        for color in (0, 1):
            self.moving.append(
                vec[i64]([g.kind for g in comp.gens[color] if not (g.quiet.empty and g.capture.empty)])
            )
            for g in comp.gens[color]:
                self.quiet.append(pattern_reach(geo, g.quiet))
                self.capture.append(pattern_reach(geo, g.capture))
                same.append(g.same)
                vectors: list[tuple[int, int, int, bool, bool]] = []
                for c in variant.pieces[g.kind].mobile_components:
                    o = c if color == 0 else c.for_black()
                    vectors += [(dx, dy, o.max_steps, c.move, c.capture) for dx, dy in o.vectors]
                self.walks.append(Walks(geo, vectors))
        self.same: vec[bool] = vec[bool](same)
        self.transform: vec[i64] = vec[i64](comp.transform_code)
        self.pulls: list[Walks] = [
            Walks(geo, [(dx, dy, 0, False, False) for c in p.pull_components for dx, dy in c.vectors])
            for p in variant.pieces
        ]
        # Two pulls are one move only where pull vectors can share a line: not for king steps.
        steps = {(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)} - {(0, 0)}
        self.pulls_unique: bool = all(
            v in steps for p in variant.pieces for c in p.pull_components for v in c.vectors
        )
        self.restrictable: vec[bool] = vec[bool](comp.restrictable)
        self.restrictor_kinds: vec[i64] = vec[i64]([kind for kind, _, _ in comp.restrictors])
        # [restrictor][square]: where a restrictor would stand to hold that square; what it holds.
        self.held_from: list[vec[i64]] = [_words(table) for _, table, _ in comp.restrictors]
        self.holds_by_kind: list[vec[i64]] = [_words(reach or []) for reach in comp.restrict_reach]
        self.holds: list[vec[i64]] = [self.holds_by_kind[kind] for kind, _, _ in comp.restrictors]
        self.royal_kinds: vec[i64] = vec[i64](list(comp.royal_kinds))
        self.royal_or_restrictor: vec[bool] = vec[bool](comp.royal_or_restrictor)
        self.owner_change: vec[bool] = vec[bool](comp.owner_change)
        self.lines_unique: bool = comp.lines_unique
        # Scratch beyond Words' layout: the kinds saved while a move is tried, then the steps from
        # the restrictors next to one piece.
        self.saved: i64 = self.w.pin_base
        self.offsets: i64 = self.saved + nkinds
        most = sum(len(s) for _, _, s in comp.restrictors)
        self.blank: vec[i64] = vec[i64]([0] * (self.offsets + 2 * most + 2))


def build_tested(comp: Compiled) -> Tested | None:
    """The tables of a variant movegen generates by making and testing moves, or None where this
    generator does not serve it (see the module docstring)."""
    if comp.size > MAX_SQUARES or (comp.simple and comp.royal_kind >= 0):
        return None  # too large, or the fast path's (hordes.core.words)
    if comp.pawn_kinds or comp.promo_kinds[0] or comp.promo_kinds[1] or comp.camp_kinds:
        return None
    return Tested(comp, comp.variant.geometry)


def legal_moves(
    t: Tested, kinds: list[int], occ_bb: list[int], us: i64, mailbox: list[int], noisy: bool, any_move: bool
) -> list[int]:
    """movegen._generate_by_testing(board, noisy, any_move) for a position without castling rights
    or an en-passant square: the legal moves of side `us`, in its order."""
    w = t.w
    s = t.blank[:]
    k: i64 = 0
    while k < t.nkinds:
        s[k] = word(kinds[k])
        k += 1
    them = us ^ 1
    own = word(occ_bb[us])
    enemy = word(occ_bb[them])
    occ = own | enemy
    # Our pieces next to an enemy restrictor (movegen.held_squares).
    held: i64 = 0
    j: i64 = 0
    while j < len(t.restrictor_kinds):
        bb = s[t.restrictor_kinds[j]] & enemy
        holds = t.holds[j]
        while bb != 0:
            held |= holds[low_square(bb)]
            bb = drop_low(bb)
        j += 1
    held &= own
    royals = _royals(t, s, own)
    checked = _any_attacked(t, s, them, royals, enemy, own, occ)
    # Out of check, only a piece that alone stands between a royal piece and an enemy rider, or a
    # piece of the mechanisms, can expose one.
    lines: i64 = 0
    if not checked:
        r = royals
        while r != 0:
            sq = low_square(r)
            r = drop_low(r)
            snipers = _snipers(w, s, them, sq)
            base = sq * t.size
            while snipers != 0:
                line = w.between[base + low_square(snipers)]
                snipers = drop_low(snipers)
                if t.lines_unique:
                    blockers = line & occ
                    if blockers != 0 and drop_low(blockers) == 0 and blockers & own != 0:
                        lines |= blockers
                else:
                    lines |= line & own
    restrictable: i64 = 0
    k = 0
    while k < t.nkinds:
        if t.restrictable[k]:
            restrictable |= s[k]
        k += 1
    restrictable &= enemy
    state = _State(t, s, mailbox, us, own, enemy, held, royals, lines, restrictable, checked)
    moves: list[int] = []
    for kind in t.moving[us]:
        bb = s[kind] & own
        while bb != 0:
            frm = low_square(bb)
            bb = drop_low(bb)
            targets = _targets(state, us, kind, frm)
            if noisy:
                targets &= enemy
            code: i64 = kind * 2 + us
            while targets != 0:
                to = low_square(targets)
                targets = drop_low(targets)
                if _legal(state, frm, to, code):
                    moves.append(int(frm | to << TO_SHIFT))
                    if any_move:
                        return moves
    if noisy:
        return moves  # a shape change or a pull never captures
    first_mechanism = len(moves)
    bb = own
    while bb != 0:
        sq = low_square(bb)
        bb = drop_low(bb)
        code = mailbox[sq]
        if t.transform[code] >= 0 and _legal(state, sq, sq, code):
            moves.append(int(sq | sq << TO_SHIFT))
            if any_move:
                return moves
        pulls = t.pulls[code >> 1]
        j = 0
        while j < pulls.n:
            at = j * t.size + sq
            j += 1
            ray = pulls.rays[at]
            found = occ & ray
            if found == 0:
                continue
            pulled = low_square(found) if pulls.up[j - 1] else top_square(found)
            to = pulls.first[at]
            if pulled == to:
                continue  # already beside the magnet
            pcode: i64 = mailbox[pulled]
            if pcode & 1 == us and _targets(state, us, pcode >> 1, pulled) & w.bit[to] != 0:
                continue  # the piece's own move to that square, already there
            m = int(pulled | to << TO_SHIFT)
            if not t.pulls_unique and m in moves[first_mechanism:]:
                continue
            if _legal(state, pulled, to, pcode):
                moves.append(m)
                if any_move:
                    return moves
    return moves


@final
class _State:
    """One call's position and what it knows of it."""

    def __init__(
        self,
        t: Tested,
        s: vec[i64],
        mailbox: list[int],
        us: i64,
        own: i64,
        enemy: i64,
        held: i64,
        royals: i64,
        lines: i64,
        restrictable: i64,
        checked: bool,
    ) -> None:
        self.t = t
        self.s = s
        self.mailbox = mailbox
        self.us = us
        self.own = own
        self.enemy = enemy
        self.held = held
        self.royals = royals
        self.lines = lines
        self.restrictable = restrictable
        self.checked = checked


def _royals(t: Tested, s: vec[i64], side: i64) -> i64:
    out: i64 = 0
    for k in t.royal_kinds:
        out |= s[k]
    return out & side


def _targets(st: _State, color: i64, kind: i64, sq: i64) -> i64:
    """The squares the piece of ours on sq may go to, ignoring royal safety (movegen.generate_pseudo
    and pseudo_targets)."""
    t = st.t
    own = st.own
    enemy = st.enemy
    occ = own | enemy
    at = color * t.nkinds + kind
    if st.held & t.w.bit[sq] != 0 and t.restrictable[kind]:
        n = _restrictors_beside(t, st.s, sq, enemy)
        if n > 0:
            return _walked(t, st.s, t.walks[at], n, sq, enemy, occ) & ~own
    if t.same[at]:
        return reach(t.quiet[at], sq, occ) & ~own
    return (reach(t.quiet[at], sq, occ) & ~occ) | (reach(t.capture[at], sq, occ) & enemy)


def _restrictors_beside(t: Tested, s: vec[i64], sq: i64, restricting: i64) -> i64:
    """Writes to the scratch the step from each restrictor of `restricting` (that side's pieces)
    that holds the piece on sq, to it; returns their number (movegen.restriction_steps)."""
    n: i64 = 0
    base = t.offsets
    j: i64 = 0
    while j < len(t.restrictor_kinds):
        found = t.held_from[j][sq] & s[t.restrictor_kinds[j]] & restricting
        while found != 0:
            m = low_square(found)
            found = drop_low(found)
            s[base + 2 * n] = t.file[sq] - t.file[m]
            s[base + 2 * n + 1] = t.rank[sq] - t.rank[m]
            n += 1
        j += 1
    return n


def _closed(t: Tested, s: vec[i64], n: i64, dx: i64, dy: i64) -> bool:
    """Does the direction (dx, dy) lead away from one of the n restrictors written by
    _restrictors_beside?"""
    base = t.offsets
    i: i64 = 0
    while i < n:
        if dx * s[base + 2 * i] + dy * s[base + 2 * i + 1] > 0:
            return True
        i += 1
    return False


def _walked(t: Tested, s: vec[i64], walks: Walks, n: i64, sq: i64, enemy: i64, occ: i64) -> i64:
    """The destinations of a restricted piece, vector by vector, its closed directions left out
    (movegen.restricted_targets)."""
    out: i64 = 0
    j: i64 = 0
    while j < walks.n:
        if _closed(t, s, n, walks.dx[j], walks.dy[j]):
            j += 1
            continue
        r = walks.rays[j * t.size + sq]
        b = occ & r
        if b == 0:
            if walks.move[j]:
                out |= r
        else:
            if walks.up[j]:
                if b == TOP:  # bit 63 alone: b & -b would overflow
                    nearest = TOP
                    before = r & POSITIVE
                else:
                    nearest = b & -b
                    before = r & (nearest - 1)
            else:
                top = top_square(b)  # a ray running down never holds bit 63
                nearest = t.w.bit[top]
                before = r >> (top + 1) << (top + 1)
            if walks.move[j]:
                out |= before
            if walks.capture[j] and nearest & enemy != 0:
                out |= nearest
        j += 1
    return out


def _legal(st: _State, frm: i64, to: i64, code: i64) -> bool:
    """Is the move frm-to of the piece `code` (ours, or an enemy piece a magnet pulls) legal? Made
    and tested only where it could expose a royal piece (movegen._generate_by_testing's rules)."""
    t = st.t
    us = st.us
    kind = code >> 1
    if st.checked or st.lines & t.w.bit[frm] != 0 or code & 1 != us:
        return _safe_after(st, frm, to, code)
    if frm == to:
        # A restrictor that changes shape frees the enemy pieces it held.
        holds = t.holds_by_kind[kind]
        if len(holds) > 0 and holds[frm] & st.restrictable != 0:
            return _safe_after(st, frm, to, code)
        return True
    if t.royal_or_restrictor[kind]:
        return _safe_after(st, frm, to, code)
    if t.owner_change[kind] and st.enemy & t.w.bit[to] != 0:
        # The capturer becomes the enemy's on `to`: dangerous only if it then attacks a royal piece.
        occ = (st.own | st.enemy) ^ t.w.bit[frm]
        if reach(t.capture[(us ^ 1) * t.nkinds + kind], to, occ) & st.royals != 0:
            return _safe_after(st, frm, to, code)
    return True


def _safe_after(st: _State, frm: i64, to: i64, code: i64) -> bool:
    """Make the move on the scratch's words, test that no royal piece of ours is attacked, restore."""
    t = st.t
    s = st.s
    us = st.us
    nkinds = t.nkinds
    saved = t.saved
    k: i64 = 0
    while k < nkinds:
        s[saved + k] = s[k]
        k += 1
    bit = t.w.bit
    own = st.own
    enemy = st.enemy
    kind = code >> 1
    if frm == to:  # a change of shape in place: the occupancy stays
        s[kind] ^= bit[frm]
        s[t.transform[code] >> 1] |= bit[frm]
    else:
        if code & 1 == us:
            own ^= bit[frm]
        else:
            enemy ^= bit[frm]
        s[kind] ^= bit[frm]
        placed = code
        captured: i64 = st.mailbox[to]
        if captured >= 0:
            s[captured >> 1] ^= bit[to]
            if captured & 1 == us:
                own ^= bit[to]
            else:
                enemy ^= bit[to]
            if t.owner_change[kind]:
                placed ^= 1  # Andernach: the capturer changes sides
        s[placed >> 1] |= bit[to]
        if placed & 1 == us:
            own |= bit[to]
        else:
            enemy |= bit[to]
    attacked = _any_attacked(t, s, us ^ 1, _royals(t, s, own), enemy, own, own | enemy)
    k = 0
    while k < nkinds:
        s[k] = s[saved + k]
        k += 1
    return not attacked


def _any_attacked(t: Tested, s: vec[i64], color: i64, squares: i64, theirs: i64, ours: i64, occ: i64) -> bool:
    """Could a piece of `color` (theirs: its pieces) capture on any of the squares, restrictions by
    our pieces applied (movegen.in_check)?"""
    if squares == 0:
        return False
    w = t.w
    _set_groups(w, s, color, theirs)
    while squares != 0:
        sq = low_square(squares)
        squares = drop_low(squares)
        found = _attackers(w, s, color, sq, occ)
        if found != 0 and len(t.restrictor_kinds) > 0:
            found = _unrestricted(t, s, found, sq, ours)
        if found != 0:
            return True
    return False


def _unrestricted(t: Tested, s: vec[i64], attackers: i64, target: i64, restricting: i64) -> i64:
    """The attackers of `target` left once those whose way to it a restrictor closes are dropped
    (movegen._drop_restricted_attackers)."""
    restrictable: i64 = 0
    k: i64 = 0
    while k < t.nkinds:
        if t.restrictable[k]:
            restrictable |= s[k]
        k += 1
    bb = attackers & restrictable
    while bb != 0:
        sq = low_square(bb)
        bb = drop_low(bb)
        n = _restrictors_beside(t, s, sq, restricting)
        if n > 0 and _closed(t, s, n, t.file[target] - t.file[sq], t.rank[target] - t.rank[sq]):
            attackers &= ~t.w.bit[sq]
    return attackers
