"""The fast legal generator on native 64-bit words, for boards of at most 64 squares.

The core keeps bitboards as Python ints, which any board size needs. Compiled by mypyc, an int stays
a machine word only below 2**62, so on 8×8 every operation on a bitboard with a piece on g8 or h8
allocates, and the generator written out per variant with `exec` (fastgen) stays interpreted. Here
the same generator is a compiled loop over tables, on mypyc's signed 64-bit `i64`: bit 63 (h8 on
8×8) is the sign bit, so a word with it set is negative. The tables are `librt.vecs.vec[i64]`, which
mypyc reads as unboxed words (a `list` boxes each item).

It covers movegen's fast path (one royal piece, no special mechanism): the full generator,
quiescence's and its shortcut for a side not in check, the attack test and gives_check. Castling and
en passant stay with movegen. The moves come out in the order of fastgen's generated code, kind by
kind, set-wise pawns vector by vector, so the search sees the same tree in either build. The pure
build keeps fastgen's code, which CPython runs faster than these loops; the tests run both.

Two traps of signed words are handled where they arise: a right shift copies the sign bit (masked
with `low_bits`), and the lowest bit of a word with only bit 63 set cannot be isolated with `b & -b`
(the negation overflows). mypyc 2.4.1 also folds `i64(1) << n` wrongly for n >= 32, so single bits
come from the table `bit`.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Final, final

from librt.vecs import vec
from mypy_extensions import i64

from hordes.buildinfo import is_compiled
from hordes.core.fastgen import leap_vectors
from hordes.core.geometry import Geometry
from hordes.core.tables import AnyRider, Pattern, slider_table

if TYPE_CHECKING:
    from hordes.core.compiled import Compiled

MAX_SQUARES: Final = 64
# Constants beyond mypyc's tagged ints (|n| >= 2**62) are written as i64(...) calls: mypy folds a
# literal, or an expression of literals, into the name's value, and mypyc then loads a boxed int and
# converts it at every use (CPyLong_AsInt64, about 80 instructions: a third of drop_low's cost, measured
# with callgrind); a call is not folded, so the value lives in a native static.
TOP: Final[i64] = i64(-9223372036854775807) - 1  # bit 63, the sign bit
TWO64: Final = 1 << 64
TO_SHIFT: Final = 10
PROMO_SHIFT: Final = 20
DOUBLE: Final = 4 << 26  # movegen's FLAG_DOUBLE << FLAG_SHIFT
CASTLE: Final = 1 << 26  # movegen's FLAG_CASTLE << FLAG_SHIFT
CAMP_REACHED: Final[i64] = 2  # legal_moves: a campmate piece stands in its camp, the game is over


def castle_geometry(comp: Compiled, ksq: int, rook: int) -> tuple[int, int, int]:
    """Castling of the royal piece on ksq with the rook on `rook` (same rank): the king's landing
    square, the squares that must be empty but for the king and the rook, and the king's path with
    its own square and the landing one, which no enemy piece may attack (movegen and Words share it)."""
    cols = comp.cols
    rank_base = ksq - ksq % cols
    kingside = rook > ksq
    k_to = rank_base + comp.castle_files[1 if kingside else 0]
    r_to = rank_base + (cols - 3 if kingside else 3)
    lo = min(ksq, k_to, rook, r_to)
    hi = max(ksq, k_to, rook, r_to)
    span = ((1 << (hi + 1)) - 1) ^ ((1 << lo) - 1)
    step = 1 if k_to > ksq else -1
    path = 0
    for sq in range(ksq, k_to + step, step):
        path |= 1 << sq
    return k_to, span & ~(1 << ksq) & ~(1 << rook), path


def word(bb: int) -> i64:
    """A bitboard of at most 64 squares as the signed word with the same bits (-1 stays all bits)."""
    # bit_length is a compiled primitive; a shift or a comparison of an int of 62 bits or more is a
    # generic (boxed) operation, which costs twice as much here (measured on mypyc 2.4.1)
    if bb.bit_length() == 64:
        return i64(bb - TWO64)
    return i64(bb)


def bitboard(w: i64) -> int:
    """The bitboard (a non-negative int) of a word."""
    return int(w) + TWO64 if w < 0 else int(w)


def top_square(b: i64) -> i64:
    """The index of the highest set bit of a non-zero word."""
    # By halving, all in native words: int(b).bit_length() went through a Python int and cost 2-3
    # times as much (perf, the compiled search).
    if b < 0:
        return 63
    n: i64 = 0
    if b >= 4294967296:  # 1 << 32
        b >>= 32
        n = 32
    if b >= 65536:
        b >>= 16
        n += 16
    if b >= 256:
        b >>= 8
        n += 8
    if b >= 16:
        b >>= 4
        n += 4
    if b >= 4:
        b >>= 2
        n += 2
    if b >= 2:
        n += 1
    return n


def low_square(b: i64) -> i64:
    """The index of the lowest set bit of a non-zero word."""
    if b == TOP:
        return 63
    return top_square(b & -b)


def drop_low(b: i64) -> i64:
    """The word without its lowest set bit."""
    if b == TOP:
        return 0
    return b & (b - 1)


POSITIVE: Final[i64] = i64(9223372036854775807)  # bits 0-62 (i64(...): see TOP)
M1: Final[i64] = i64(0x5555555555555555)
M2: Final[i64] = 0x3333333333333333
M4: Final[i64] = 0x0F0F0F0F0F0F0F0F


def popcount(b: i64) -> i64:
    """The number of set bits of a word. Bit 63 is counted apart and the rest summed by halves, so no
    step overflows (signed overflow is undefined in the C that mypyc writes)."""
    top: i64 = 1 if b < 0 else 0
    x = b & POSITIVE
    x = x - ((x >> 1) & M1)
    x = (x & M2) + ((x >> 2) & M2)
    x = (x + (x >> 4)) & M4
    x = x + (x >> 8)
    x = x + (x >> 16)
    x = x + (x >> 32)
    return (x & 127) + top


def _words(values: list[int]) -> vec[i64]:
    return vec[i64]([word(v) for v in values])


@final
class Reach:
    """What one pattern attacks from each square: a leaper table and the rays of its riders, each ray
    a table of squares running towards higher (`up`) or lower (`down`) square numbers."""

    def __init__(self, size: int, leap: list[int], up: list[list[int]], down: list[list[int]]) -> None:
        self.size: i64 = size
        self.leap: vec[i64] = _words(leap)
        self.up: vec[i64] = _words([bb for ray in up for bb in ray])
        self.down: vec[i64] = _words([bb for ray in down for bb in ray])
        self.nup: i64 = len(up)
        self.ndown: i64 = len(down)


def pattern_reach(geo: Geometry, pattern: Pattern) -> Reach:
    """What `pattern` attacks, as a Reach (the engine's mobility term reads it too)."""
    up: list[list[int]] = []
    down: list[list[int]] = []
    for rider in pattern.all_riders:
        rays = slider_table(geo, rider.directions, rider.max_steps)
        up += rays.up
        down += rays.down
    return Reach(geo.size, pattern.leap if pattern.leap is not None else [0] * geo.size, up, down)


def _rider_reach(geo: Geometry, rider: AnyRider) -> Reach:
    rays = slider_table(geo, rider.directions, rider.max_steps)
    return Reach(geo.size, [0] * geo.size, rays.up, rays.down)


def reach(p: Reach, sq: i64, occ: i64) -> i64:
    """The squares attacked from sq with this occupancy (the nearest blocker included)."""
    att = p.leap[sq]
    size = p.size
    i: i64 = 0
    while i < p.nup:
        r = p.up[i * size + sq]
        b = occ & r
        if b == 0 or b == TOP:
            att |= r
        else:
            low = b & -b
            att |= r & (low | (low - 1))  # the ray up to its nearest (lowest) blocker
        i += 1
    i = 0
    while i < p.ndown:
        r = p.down[i * size + sq]
        b = occ & r
        if b == 0:
            att |= r
        else:
            s = top_square(b)  # the nearest blocker is the highest; a down ray never holds bit 63
            att |= r >> s << s
        i += 1
    return att


@final
class Gen:
    """The moves of one non-royal kind of one colour (fastgen's per-kind block)."""

    def __init__(self, comp: Compiled, color: int, kind: int, quiet: Reach, capture: Reach) -> None:
        g = comp.gens[color][kind]
        cols = comp.cols
        self.kind: i64 = kind
        self.quiet = quiet
        self.capture = capture
        self.same: bool = g.same
        self.zone: i64 = word(comp.promo_zone[color]) if g.promotes else 0
        self.choices: vec[i64] = vec[i64]([c + 1 for c in comp.promo_choices[color]])
        self.double: bool = g.pawn and comp.double_step[color] != 0
        # Where a step is noisy for this kind: a campmate piece's camp.
        camp = comp.camp_zone[color] if kind in comp.camp_kinds else 0
        self.camp: i64 = word(camp)
        self.setwise: bool = (
            g.pawn and not g.same and not g.quiet.rides and not g.capture.rides
            and g.quiet.leap is not None and g.capture.leap is not None
        )  # fmt: skip
        quiet_vectors: list[int] = []
        capture_vectors: list[int] = []
        if self.setwise:
            assert g.quiet.leap is not None and g.capture.leap is not None
            for delta, origin in leap_vectors(g.quiet.leap, cols):
                quiet_vectors += [delta, origin]
            for delta, origin in leap_vectors(g.capture.leap, cols):
                capture_vectors += [delta, origin]
        self.quiet_vectors = _words(quiet_vectors)
        self.capture_vectors = _words(capture_vectors)


@final
class Words:
    """A variant's tables as words, and the scratch space of one generator call."""

    def __init__(self, comp: Compiled, geo: Geometry) -> None:
        size = comp.size
        self.size: i64 = size
        self.full: i64 = word((1 << size) - 1)
        self.nkinds: i64 = len(comp.gens[0])
        self.royal_kind: i64 = comp.royal_kind
        bits = [1 << s for s in range(MAX_SQUARES)]
        self.bit: vec[i64] = _words(bits)
        # low_bits[k]: the bits a right shift by k leaves (it copies the sign bit into the others).
        self.low_bits: vec[i64] = _words([(1 << (64 - k)) - 1 for k in range(MAX_SQUARES + 1)])
        self.forward: vec[i64] = vec[i64]([comp.forward[0], comp.forward[1]])
        self.double_step: vec[i64] = vec[i64]([word(comp.double_step[0]), word(comp.double_step[1])])
        # One Reach per pattern object: a kind's quiet and capture patterns are often one (and the
        # capture patterns serve the generator, the checker test and gives_check alike).
        made: dict[int, Reach] = {}

        def reach_of(pattern: Pattern) -> Reach:
            if id(pattern) not in made:
                made[id(pattern)] = pattern_reach(geo, pattern)
            return made[id(pattern)]

        self.gens: list[list[Gen]] = [
            [
                Gen(comp, color, g.kind, reach_of(g.quiet), reach_of(g.capture))
                for g in comp.gens[color]
                if not g.royal and not (g.quiet.empty and g.capture.empty)
            ]
            for color in (0, 1)
        ]
        rk = max(comp.royal_kind, 0)
        self.royal: list[Reach] = [
            reach_of(comp.gens[c][rk].quiet if q else comp.gens[c][rk].capture)
            for c in (0, 1)
            for q in (True, False)
        ]  # [2 * colour + (0 quiet, 1 capture)]
        self.royal_same: vec[bool] = vec[bool]([comp.gens[0][rk].same, comp.gens[1][rk].same])
        camps = comp.camp_zone if rk in comp.camp_kinds else (0, 0)
        self.royal_camp: vec[i64] = vec[i64]([word(camps[0]), word(camps[1])])
        # By [colour * nkinds + kind]: the capture pattern (does a checker leap, so that it cannot be
        # blocked? would a moved piece give check?), and its reach on an empty board (a cheap filter
        # before the pattern's lookup); by [colour * size + square]: the squares from which that
        # colour's riders could capture on the square.
        self.capture: list[Reach] = [reach_of(g.capture) for c in (0, 1) for g in comp.gens[c]]
        self.capture_empty: vec[i64] = _words([bb for c in (0, 1) for g in comp.gens[c] for bb in g.reach])
        self.rider_lines: vec[i64] = _words(comp.rider_reach[0] + comp.rider_reach[1])
        # Attack groups by attacker colour: leaper tables and riders, each with the kinds it serves.
        self.leap_tables: list[vec[i64]] = []
        self.leap_kinds: list[list[vec[i64]]] = []
        self.rider_reach: list[list[Reach]] = []
        self.rider_empty: list[vec[i64]] = []  # [colour][group * size + square]
        self.rider_kinds: list[list[vec[i64]]] = []
        for c in (0, 1):
            table: list[int] = []
            for leap, _ in comp.leap_groups[c]:
                table += leap
            self.leap_tables.append(_words(table))
            self.leap_kinds.append([vec[i64](list(group)) for _, group in comp.leap_groups[c]])
            empty: list[int] = []
            reaches: list[Reach] = []
            for rider, _ in comp.rider_groups[c]:
                reaches.append(_rider_reach(geo, rider))
                empty += rider.empty
            self.rider_reach.append(reaches)
            self.rider_empty.append(_words(empty))
            self.rider_kinds.append([vec[i64](list(group)) for _, group in comp.rider_groups[c]])
        between = [0] * (size * size)
        for key, bb in comp.between.items():
            between[key] = bb
        self.between: vec[i64] = _words(between)
        # Castling by [king square * size + rook square] (movegen._castling_moves' geometry): where the
        # king lands (-1: the rook is not on its rank), the squares that must be empty but for the
        # king and the rook, and the king's path, its own square and the landing one included, which
        # no enemy piece may attack. The rights of each side are on its back rank.
        castle_to = [-1] * (size * size)
        castle_span = [0] * (size * size)
        castle_path = [0] * (size * size)
        cols = comp.cols
        for ksq in range(size):
            rank_base = ksq - ksq % cols
            for rook in range(rank_base, rank_base + cols):
                k_to, span, path = castle_geometry(comp, ksq, rook)
                castle_to[ksq * size + rook] = k_to
                castle_span[ksq * size + rook] = span
                castle_path[ksq * size + rook] = path
        self.castle_to: vec[i64] = vec[i64](castle_to)
        self.castle_span: vec[i64] = _words(castle_span)
        self.castle_path: vec[i64] = _words(castle_path)
        self.back_rank: vec[i64] = vec[i64]([word(comp.back_rank[0]), word(comp.back_rank[1])])
        # Campmate: the kinds that win by reaching a camp, and each colour's camp.
        self.camp_kinds: vec[i64] = vec[i64](list(comp.camp_kinds))
        self.camp_zone: vec[i64] = vec[i64]([word(comp.camp_zone[0]), word(comp.camp_zone[1])])
        # The layout of one call's scratch (see _load): the kinds as words, the attack groups' pieces,
        # the pin masks. One is kept for the calls; a call that finds it in use (by another thread,
        # all Boards of a variant sharing these tables) takes a copy of `blank` instead.
        self.leap_base: i64 = self.nkinds
        self.rider_base: i64 = self.leap_base + max(len(comp.leap_groups[0]), len(comp.leap_groups[1]))
        self.pin_base: i64 = self.rider_base + max(len(comp.rider_groups[0]), len(comp.rider_groups[1]))
        self.blank: vec[i64] = vec[i64]([0] * (self.pin_base + MAX_SQUARES))
        self.scratch: vec[i64] = self.blank[:]
        self.busy = False
        # The kinds list whose words the scratch holds, and the occupancy list whose two words
        # `occ_words` holds. Board.push_int replaces both lists (the old ones, kept for pop_int, are
        # never changed again), so the same object means the same bitboards: the many calls at one
        # node (the move list, then gives_check for each move) convert them once. Held here, a list
        # cannot be freed and its identity taken by another.
        self.loaded: list[int] = []
        self.loaded_occ: list[int] = []
        self.occ_words: vec[i64] = vec[i64]([0, 0])


def use_words() -> bool:
    """Does the fast path use this generator? In the compiled build; the pure one keeps fastgen's
    generated code, which CPython runs faster than these loops (the tests run both in either)."""
    return is_compiled(sys.modules[__name__])


def build_words(comp: Compiled) -> Words | None:
    """The word tables of a variant that the fast path serves, or None (a board of more than 64
    squares, or a variant movegen generates by making and testing moves)."""
    if comp.size > MAX_SQUARES or not comp.simple or comp.royal_kind < 0:
        return None
    return Words(comp, comp.variant.geometry)


def _set_groups(w: Words, s: vec[i64], color: i64, theirs: i64) -> None:
    """The pieces of each attack group of `color` (theirs: that side's pieces) into the scratch."""
    _group_pieces(s, w.leap_kinds[color], theirs, w.leap_base)
    _group_pieces(s, w.rider_kinds[color], theirs, w.rider_base)


def _group_pieces(s: vec[i64], groups: list[vec[i64]], theirs: i64, base: i64) -> None:
    j: i64 = 0
    n: i64 = len(groups)
    while j < n:
        pcs: i64 = 0
        for k in groups[j]:
            pcs |= s[k]
        s[base + j] = pcs & theirs
        j += 1


def _attacked(w: Words, s: vec[i64], color: i64, sq: i64, occ: i64, keep: i64) -> bool:
    """Could a piece of `color` capture on sq (the groups set by _set_groups, less the pieces not in
    `keep`: one just captured)?"""
    size = w.size
    tables = w.leap_tables[color]
    n: i64 = len(w.leap_kinds[color])
    j: i64 = 0
    while j < n:
        if tables[j * size + sq] & s[w.leap_base + j] & keep != 0:
            return True
        j += 1
    empty = w.rider_empty[color]
    riders = w.rider_reach[color]
    n = len(riders)
    j = 0
    while j < n:
        pcs = s[w.rider_base + j] & keep
        if pcs & empty[j * size + sq] != 0 and reach(riders[j], sq, occ) & pcs != 0:
            return True
        j += 1
    return False


def _attackers(w: Words, s: vec[i64], color: i64, sq: i64, occ: i64) -> i64:
    """The pieces of `color` that could capture on sq (the groups set by _set_groups)."""
    out = _group_hits(w, s, w.leap_tables[color], w.leap_base, len(w.leap_kinds[color]), sq)
    riders = w.rider_reach[color]
    n: i64 = len(riders)
    j: i64 = 0
    while j < n:
        pcs = s[w.rider_base + j]
        if pcs != 0:
            out |= reach(riders[j], sq, occ) & pcs
        j += 1
    return out


def _snipers(w: Words, s: vec[i64], color: i64, sq: i64) -> i64:
    """The riders of `color` that would capture on sq on an empty board."""
    return _group_hits(w, s, w.rider_empty[color], w.rider_base, len(w.rider_kinds[color]), sq)


def _group_hits(w: Words, s: vec[i64], tables: vec[i64], base: i64, n: i64, sq: i64) -> i64:
    """The pieces of the n groups (their pieces at s[base + group]) whose table, one per group of
    `size` squares, holds sq."""
    size = w.size
    out: i64 = 0
    j: i64 = 0
    while j < n:
        out |= tables[j * size + sq] & s[base + j]
        j += 1
    return out


def _emit(moves: list[int], frm: i64, targets: i64) -> None:
    while targets != 0:
        to = low_square(targets)
        moves.append(int(frm | to << TO_SHIFT))
        targets = drop_low(targets)


def _emit_promotions(moves: list[int], frm: i64, targets: i64, zone: i64, choices: vec[i64]) -> None:
    promo = targets & zone
    targets ^= promo
    while promo != 0:
        to = low_square(promo)
        for c in choices:
            moves.append(int(frm | to << TO_SHIFT | c << PROMO_SHIFT))
        promo = drop_low(promo)
    _emit(moves, frm, targets)


def _emit_shifted(moves: list[int], targets: i64, delta: i64, zone: i64, choices: vec[i64]) -> None:
    """Moves to each target from the square `delta` behind it; in the zone, one per promotion choice."""
    if zone != 0 and targets & zone != 0:
        promo = targets & zone
        targets ^= promo
        while promo != 0:
            to = low_square(promo)
            for c in choices:
                moves.append(int(to - delta | to << TO_SHIFT | c << PROMO_SHIFT))
            promo = drop_low(promo)
    while targets != 0:
        to = low_square(targets)
        moves.append(int(to - delta | to << TO_SHIFT))
        targets = drop_low(targets)


def _shift(w: Words, x: i64, delta: i64) -> i64:
    """Every bit of x moved by delta squares; those moved off the word are lost."""
    if delta >= 0:
        # The bit that lands on bit 63 is set as the sign, not shifted there: the same word in C,
        # and the right one in the pure build too, where a shift does not wrap.
        out = (x & w.low_bits[delta + 1]) << delta
        if x & w.bit[63 - delta] != 0:
            out |= TOP
        return out
    return x >> -delta & w.low_bits[-delta]


def _setwise_pawns(
    w: Words,
    g: Gen,
    us: i64,
    free: i64,
    empty: i64,
    enemy: i64,
    wanted: i64,
    quiet: bool,
    double: bool,
    moves: list[int],
) -> None:
    """Every unpinned pawn of g's kind at once, one shift per step vector (fastgen's order)."""
    vectors = g.quiet_vectors
    n: i64 = len(vectors) if quiet else 0
    i: i64 = 0
    while i < n:
        delta = vectors[i]
        t = _shift(w, free & vectors[i + 1], delta) & empty & wanted
        if t != 0:
            _emit_shifted(moves, t, delta, g.zone, g.choices)
        i += 2
    if double:
        fwd = w.forward[us]
        one = _shift(w, free & w.double_step[us], fwd)
        t = _shift(w, one & empty, fwd) & empty & wanted & w.full
        while t != 0:
            to = low_square(t)
            moves.append(int(to - 2 * fwd | to << TO_SHIFT | DOUBLE))
            t = drop_low(t)
    vectors = g.capture_vectors
    n = len(vectors)
    i = 0
    while i < n:
        delta = vectors[i]
        t = _shift(w, free & vectors[i + 1], delta) & enemy & wanted
        if t != 0:
            _emit_shifted(moves, t, delta, g.zone, g.choices)
        i += 2


def _claim(w: Words) -> bool:
    """Take the variant's scratch for this call, if no other call (on another thread: all Boards of
    a variant share its tables) has it; a call that cannot uses a copy of `blank`. The caller gives
    it back in a `finally` when this said True. No Python code runs between the test and the set,
    so no other thread can come between them."""
    if w.busy:
        return False
    w.busy = True
    return True


def _load(w: Words, owned: bool, kinds: list[int]) -> vec[i64]:
    """A call's scratch (laid out by Words) with the kinds' bitboards in it as words: the variant's
    own (`owned`, see _claim), which may hold them already, or a copy of `blank`."""
    if owned:
        s = w.scratch
        if kinds is w.loaded:
            return s
    else:
        s = w.blank[:]
    k: i64 = 0
    while k < w.nkinds:
        s[k] = word(kinds[k])
        k += 1
    if owned:
        w.loaded = kinds
    return s


def _occupancy(w: Words, owned: bool, occ: list[int], color: i64) -> i64:
    """occ[color] (a Board's occupancy by colour) as a word, through the cache when `owned`."""
    if not owned:
        return word(occ[color])
    if occ is not w.loaded_occ:
        w.occ_words[0] = word(occ[0])
        w.occ_words[1] = word(occ[1])
        w.loaded_occ = occ
    return w.occ_words[color]


def legal_moves(
    w: Words,
    kinds: list[int],
    own_bb: int,
    enemy_bb: int,
    us: i64,
    ksq: i64,
    mailbox: list[int],
    noisy: bool,
    castling_bb: int,
    moves: list[int],
) -> i64:
    """Append the legal moves of side `us`, whose one royal piece stands on ksq, but for en passant
    (movegen adds it); with `noisy`, only what quiescence plays (movegen.is_noisy). Castling with the
    rights in castling_bb comes last, after the royal piece's moves (movegen passes no rights with
    `noisy`: it adds the few noisy castling moves itself). Returns CAMP_REACHED, and appends nothing,
    where a campmate piece of either side stands in its camp (the game is over); else whether the
    royal piece is in check (1) or not (0)."""
    owned = _claim(w)
    try:
        s = _load(w, owned, kinds)
        them = us ^ 1
        size = w.size
        own = word(own_bb)
        enemy = word(enemy_bb)
        if len(w.camp_kinds) != 0 and _camp_reached(w, s, own, enemy, us):
            return CAMP_REACHED
        occ = own | enemy
        _set_groups(w, s, them, enemy)
        checkers = _attackers(w, s, them, ksq, occ)

        # Our pieces that alone stand between the royal square and an enemy rider aimed at it.
        pinned: i64 = 0
        snipers = _snipers(w, s, them, ksq)
        base = ksq * size
        while snipers != 0:
            sniper = low_square(snipers)
            snipers = drop_low(snipers)
            line = w.between[base + sniper]
            blockers = line & occ
            if blockers != 0 and drop_low(blockers) == 0 and blockers & own != 0:
                pinned |= blockers
                s[w.pin_base + low_square(blockers)] = line | w.bit[sniper]

        target: i64 = -1
        if checkers != 0:
            if drop_low(checkers) != 0:
                target = 0
            else:
                csq = low_square(checkers)
                ck: i64 = mailbox[csq] >> 1
                if w.capture[them * w.nkinds + ck].leap[csq] & w.bit[ksq] != 0:
                    target = checkers
                else:
                    target = checkers | w.between[base + csq]
        if target != 0:
            _piece_moves(w, s, us, own, enemy, target, pinned, noisy, False, moves)
        _royal_moves(w, s, us, ksq, own, enemy, noisy, moves)
        if checkers != 0:
            return 1
        if castling_bb != 0:
            rights = word(castling_bb) & w.back_rank[us]
            if rights != 0:
                _castling_moves(w, s, us, ksq, occ, rights, moves)
        return 0
    finally:
        if owned:
            w.busy = False


def _camp_reached(w: Words, s: vec[i64], own: i64, enemy: i64, us: i64) -> bool:
    """movegen.campmate_reached on the loaded kinds: does a campmate piece of either side stand in
    its camp?"""
    pcs: i64 = 0
    for k in w.camp_kinds:
        pcs |= s[k]
    return pcs & ((own & w.camp_zone[us]) | (enemy & w.camp_zone[us ^ 1])) != 0


def _castling_moves(
    w: Words, s: vec[i64], us: i64, ksq: i64, occ: i64, rights: i64, moves: list[int]
) -> None:
    """movegen._castling_moves for a side not in check, whose rights (rook squares) are on its back
    rank, on the tables of Words (the attack groups of the other side set)."""
    them = us ^ 1
    base = ksq * w.size
    king = w.bit[ksq]
    while rights != 0:
        rook = low_square(rights)
        rights = drop_low(rights)
        k_to = w.castle_to[base + rook]
        if k_to < 0 or w.castle_span[base + rook] & occ != 0:
            continue
        without = occ ^ king ^ w.bit[rook]
        path = w.castle_path[base + rook]
        safe = True
        while path != 0:
            if _attacked(w, s, them, low_square(path), without, -1):
                safe = False
                break
            path = drop_low(path)
        if safe:
            moves.append(int(ksq | k_to << TO_SHIFT | CASTLE))


def captures_not_in_check(
    w: Words, kinds: list[int], own_bb: int, enemy_bb: int, us: i64, ksq: i64, moves: list[int]
) -> None:
    """movegen.captures_not_in_check but for en passant: the noisy moves of a side that is not in
    check, pins tested only for the pieces on a line from the royal square to an enemy rider."""
    owned = _claim(w)
    try:
        s = _load(w, owned, kinds)
        them = us ^ 1
        own = word(own_bb)
        enemy = word(enemy_bb)
        occ = own | enemy
        _piece_moves(w, s, us, own, enemy, -1, 0, True, True, moves)
        _set_groups(w, s, them, enemy)
        if moves:
            lines = _lines_to(w, ksq, _snipers(w, s, them, ksq)) & own
            if lines != 0:
                kept: list[int] = []
                for m in moves:
                    frm: i64 = m & 1023
                    if lines >> frm & 1 != 0:
                        to_bit = w.bit[m >> TO_SHIFT & 1023]
                        if _attacked(w, s, them, ksq, occ ^ w.bit[frm] | to_bit, ~to_bit):
                            continue  # the piece was pinned
                    kept.append(m)
                moves[:] = kept
        _royal_moves(w, s, us, ksq, own, enemy, True, moves)
    finally:
        if owned:
            w.busy = False


def _lines_to(w: Words, sq: i64, aligned: i64) -> i64:
    """The squares strictly between sq and each piece of `aligned`."""
    lines: i64 = 0
    base = sq * w.size
    while aligned != 0:
        lines |= w.between[base + low_square(aligned)]
        aligned = drop_low(aligned)
    return lines


def _piece_moves(
    w: Words,
    s: vec[i64],
    us: i64,
    own: i64,
    enemy: i64,
    target: i64,
    pinned: i64,
    noisy: bool,
    unpinned: bool,
    moves: list[int],
) -> None:
    """fastgen's generated `pieces`, as a loop: the non-royal moves to `target` (with `noisy`, only
    captures, promotions and steps into the camp; with `unpinned`, for a side not in check whose pins
    the caller tests, so target and pinned are not used)."""
    occ = own | enemy
    empty = ~occ
    size = w.size
    for g in w.gens[us]:
        bb = s[g.kind] & own
        if bb == 0:
            continue
        special = g.zone | g.camp
        if unpinned:
            wanted = enemy | special
        elif noisy:
            wanted = target & (enemy | special)
        else:
            wanted = target
        double = g.double and (not noisy or g.camp != 0)
        if g.setwise:
            free = bb if unpinned else bb & ~pinned
            if free != 0:
                _setwise_pawns(w, g, us, free, empty, enemy, wanted, not noisy or special != 0, double, moves)
            bb = 0 if unpinned else bb & pinned
        while bb != 0 and wanted != 0:
            sq = low_square(bb)
            bb = drop_low(bb)
            low = w.bit[sq]
            if g.same:
                t = reach(g.quiet, sq, occ) & ~own
            elif noisy and special == 0:
                t = reach(g.capture, sq, occ) & enemy
            else:
                t = (reach(g.quiet, sq, occ) & empty) | (reach(g.capture, sq, occ) & enemy)
            if unpinned and (g.same or special != 0):
                t &= wanted
            if double and w.double_step[us] & low != 0:
                one = sq + w.forward[us]
                if empty >> one & 1 != 0:
                    two = one + w.forward[us]
                    free_path = 0 <= two < size and empty >> two & 1 != 0 and wanted >> two & 1 != 0
                    if free_path and (pinned & low == 0 or s[w.pin_base + sq] >> two & 1 != 0):
                        moves.append(int(sq | two << TO_SHIFT | DOUBLE))
            if not unpinned:
                t &= wanted
                if pinned & low != 0:
                    t &= s[w.pin_base + sq]
            if g.zone != 0 and t & g.zone != 0:
                _emit_promotions(moves, sq, t, g.zone, g.choices)
            elif t != 0:
                _emit(moves, sq, t)


def _royal_moves(
    w: Words, s: vec[i64], us: i64, ksq: i64, own: i64, enemy: i64, noisy: bool, moves: list[int]
) -> None:
    """The royal piece's moves (with `noisy`, its captures and camp steps), each to a square that is
    safe once it has left its own (the attack groups of the other side set)."""
    occ = own | enemy
    rq = w.royal[2 * us]
    camp = w.royal_camp[us]
    if noisy and camp == 0:
        t = reach(w.royal[2 * us + 1], ksq, occ) & enemy
    elif w.royal_same[us]:
        t = reach(rq, ksq, occ) & ~own
    else:
        t = (reach(rq, ksq, occ) & ~occ) | (reach(w.royal[2 * us + 1], ksq, occ) & enemy)
    if noisy:
        t &= enemy | camp
    without_king = occ ^ w.bit[ksq]
    them = us ^ 1
    while t != 0:
        to = low_square(t)
        t = drop_low(t)
        if not _attacked(w, s, them, to, without_king, -1):
            moves.append(int(ksq | to << TO_SHIFT))


def attacked(w: Words, kinds: list[int], theirs_bb: int, color: i64, sq: i64, occ_bb: int) -> bool:
    """movegen's attack test: could a piece of `color` (theirs_bb: its pieces) capture on sq, with
    this occupancy?"""
    return _any_attacked(w, kinds, theirs_bb, color, w.bit[sq], occ_bb)


def any_attacked(
    w: Words, kinds: list[int], theirs_bb: int, color: i64, squares_bb: int, occ_bb: int
) -> bool:
    """Is any of the squares attacked (the test above, the tables loaded once: a castling king's
    path)?"""
    return _any_attacked(w, kinds, theirs_bb, color, word(squares_bb), occ_bb)


def _any_attacked(w: Words, kinds: list[int], theirs_bb: int, color: i64, squares: i64, occ_bb: int) -> bool:
    owned = _claim(w)
    try:
        s = _load(w, owned, kinds)
        _set_groups(w, s, color, word(theirs_bb))
        occ = word(occ_bb)
        while squares != 0:
            if _attacked(w, s, color, low_square(squares), occ, -1):
                return True
            squares = drop_low(squares)
        return False
    finally:
        if owned:
            w.busy = False


def gives_check(w: Words, kinds: list[int], occ: list[int], us: i64, m: i64, mailbox: list[int]) -> i64:
    """Would the legal move m (not castling, not en passant) leave the opponent's one royal piece
    attacked? 1 or 0; -1 where the opponent has several royal pieces (the caller makes the move
    and looks). kinds and occ are the Board's lists. The moved piece is tested first, through its
    empty-board reach; a line through its origin only where one of our riders could capture on the
    royal square from there."""
    owned = _claim(w)
    try:
        s = _load(w, owned, kinds)
        own = _occupancy(w, owned, occ, us)
        enemy = _occupancy(w, owned, occ, us ^ 1)
        royals = s[w.royal_kind] & enemy
        if royals == 0:
            return 0
        if drop_low(royals) != 0:
            return -1
        ksq = low_square(royals)
        frm: i64 = m & 1023
        to: i64 = m >> TO_SHIFT & 1023
        promo: i64 = m >> PROMO_SHIFT & 63
        kind: i64 = promo - 1 if promo != 0 else mailbox[frm] >> 1
        both = (own | enemy | w.bit[to]) ^ w.bit[frm]
        size = w.size
        at = (us * w.nkinds + kind) * size
        if (
            w.capture_empty[at + to] & w.bit[ksq] != 0
            and reach(w.capture[us * w.nkinds + kind], to, both) & w.bit[ksq] != 0
        ):
            return 1
        if w.rider_lines[us * size + ksq] & w.bit[frm] == 0:
            return 0
        # A line through the origin may have opened: our other pieces, with the new occupancy.
        return 1 if _discovers(w, s, own, us, ksq, frm, both) else 0
    finally:
        if owned:
            w.busy = False


def _discovers(w: Words, s: vec[i64], own: i64, us: i64, ksq: i64, frm: i64, occ: i64) -> bool:
    _set_groups(w, s, us, own ^ w.bit[frm])
    return _attacked(w, s, us, ksq, occ, -1)
