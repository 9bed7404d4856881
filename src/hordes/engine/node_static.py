"""The search's static score of a node as compiled code on 64-bit words (compiled build, boards of at
most 64 squares).

The score is the tapered piece-square sum plus, where the document's only extra terms are royal
shelter and danger, pawn structure (engine/pawns.py), the colour pair (engine/pairs.py) and
mobility (engine/mobility.py), those terms; signed for the side to move, plus the tempo. The pure build
writes the same sum out as source per document and runs it with `exec` (Evaluator._node_static),
which is what CPython runs fastest. In the compiled build that source would stay interpreted, so
this class does the same arithmetic compiled, with the bitboards as mypyc's `i64` words and the
king-step tables as `vec[i64]` (hordes.core.words). The tests hold the two equal.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Final, final

from librt.vecs import vec
from mypy_extensions import i64

from hordes.buildinfo import is_compiled
from hordes.core.words import MAX_SQUARES, Reach, drop_low, low_square, pattern_reach, popcount, reach, word
from hordes.engine.mobility import ONE

if TYPE_CHECKING:
    from hordes.core.position import Board
    from hordes.engine.mobility import Mobility
    from hordes.engine.pairs import ColourPairs
    from hordes.engine.pawns import PawnStructure

# The packed score's layout (evaluate.pack): phase << 2*BITS | mg << BITS | eg, fields signed.
BITS: Final = 24
HALF: Final = 1 << (BITS - 1)
MASK: Final = (1 << BITS) - 1
OFFSET: Final = HALF + (HALF << BITS)  # added, it makes both lower fields non-negative


def _mobility_patterns(mobility: Mobility) -> tuple[list[bool], list[Reach], list[Reach]]:
    """By code (kind * 2 + colour): whether one pattern serves moves and captures, and the move and
    capture patterns as words, an empty pattern where the kind neither counts nor guards. They are
    the core's own word tables where it has them (hordes.core.words), else made here."""
    comp = mobility.comp
    geo = comp.variant.geometry
    words = comp.words
    none = Reach(geo.size, [0] * geo.size, [], [])
    same: list[bool] = []
    quiet: list[Reach] = []
    capture: list[Reach] = []
    nkinds = len(comp.gens[0])
    for kind in range(nkinds):
        for color in (0, 1):
            gen = comp.gens[color][kind]
            same.append(gen.same)
            if kind not in mobility.kinds and kind not in mobility.guards:
                quiet.append(none)
                capture.append(none)
                continue
            made: Reach | None = None
            if words is not None:
                made = next((g.quiet for g in words.gens[color] if g.kind == kind), None)
            quiet.append(made if made is not None else pattern_reach(geo, gen.quiet))
            if words is not None:
                capture.append(words.capture[color * nkinds + kind])
            else:
                capture.append(pattern_reach(geo, gen.capture))
    return same, quiet, capture


def use_compiled_static(size: int) -> bool:
    """Does the evaluator use this class? In the compiled build, for boards of at most 64 squares; the
    pure build keeps the source written out per document, which CPython runs faster."""
    return size <= MAX_SQUARES and is_compiled(sys.modules[__name__])


@final
class MobilityWords:
    """Mobility.count on 64-bit words: the kinds that count and the pawn kinds that guard; by code
    (kind * 2 + colour) the scale, whether one pattern serves moves and captures, and the move and
    capture patterns as words (an empty pattern where the code is neither). NodeStatic counts with
    it, and so does `Evaluator.extras` in the compiled build, where Mobility.count would run
    interpreted (Hordes of Change weighs mobility beside terms that are not written out)."""

    def __init__(self, mobility: Mobility) -> None:
        self.kinds: list[int] = list(mobility.kinds)
        self.guards: list[int] = list(mobility.guards)
        self.scale: vec[i64] = vec[i64](list(mobility.scale))
        self.same, self.quiet, self.capture = _mobility_patterns(mobility)

    def count(self, board: Board) -> int:
        """White's mobility minus Black's, as Mobility.count."""
        return self.on_words(board, word(board.occ[0]), word(board.occ[1]))

    def on_words(self, board: Board, white: i64, black: i64) -> int:
        """Mobility.count, given the two sides' pieces as words."""
        kinds = board.kind_bb
        occupied = white | black
        total: i64 = 0
        for color in (0, 1):
            own = white if color == 0 else black
            enemy = black if color == 0 else white
            guarded: i64 = 0
            for k in self.guards:
                bb = word(kinds[k]) & enemy
                pattern = self.capture[k * 2 + (color ^ 1)]
                while bb != 0:
                    guarded |= reach(pattern, low_square(bb), occupied)
                    bb = drop_low(bb)
            side: i64 = 0
            for k in self.kinds:
                bb = word(kinds[k]) & own
                if bb == 0:
                    continue
                code = k * 2 + color
                f = self.scale[code]
                same = self.same[code]
                quiet = self.quiet[code]
                capture = self.capture[code]
                while bb != 0:
                    sq = low_square(bb)
                    bb = drop_low(bb)
                    if same:
                        targets = reach(quiet, sq, occupied) & ~own
                    else:
                        targets = (reach(quiet, sq, occupied) & ~occupied) | (
                            reach(capture, sq, occupied) & enemy
                        )
                    side += popcount(targets & ~guarded) * f - ONE
            total += side if color == 0 else -side
        return int(total)


@final
class NodeStatic:
    """`Evaluator.evaluate` from a packed piece-square sum, with royal shelter and danger, pawn
    structure, the colour pair and mobility, each where weighed."""

    def __init__(
        self,
        *,
        phase: tuple[int, int],
        tempo: int,
        shelter: tuple[int, int, int, int] | None,
        royal_kinds: list[int],
        attacker_kinds: list[int],
        ring: list[int],
        zone: list[int],
        pawns: PawnStructure | None = None,
        pawn_weights: tuple[tuple[int, int], ...] = ((0, 0), (0, 0), (0, 0)),
        pairs: ColourPairs | None = None,
        pair_weight: tuple[int, int] = (0, 0),
        mobility: MobilityWords | None = None,
        mobility_weight: tuple[int, int] = (0, 0),
    ) -> None:
        self.hi = phase[0]
        self.lo = phase[1]
        self.span = max(1, phase[0] - phase[1])
        self.tempo = tempo
        self.use_shelter = shelter is not None
        s = shelter or (0, 0, 0, 0)
        self.s_mg, self.s_eg, self.d_mg, self.d_eg = s  # shelter and danger, middlegame and endgame
        self.royal_kinds = list(royal_kinds)
        self.attacker_kinds = list(attacker_kinds)
        self.ring: vec[i64] = vec[i64]([word(bb) for bb in ring])
        self.zone: vec[i64] = vec[i64]([word(bb) for bb in zone])
        # Pawn structure (engine/pawns.py), on words: each side's pawn kinds, the pawn kinds that
        # block, by [colour * 64 + square] the span ahead, the file ahead and the worth as a passer, and
        # by square the neighbouring files; the weights of passed, isolated and doubled pawns.
        self.use_pawns = pawns is not None
        self.use_structure = pawns is not None and pawns.structure  # isolated and doubled counted
        (self.p_mg, self.p_eg), (self.i_mg, self.i_eg), (self.d2_mg, self.d2_eg) = pawn_weights
        self.pawn_kinds: list[list[int]] = [list(pawns.kinds[c]) for c in (0, 1)] if pawns else [[], []]
        self.blocker_kinds: list[int] = list(pawns.blockers) if pawns else []
        spans = [0] * (2 * MAX_SQUARES)
        aheads = [0] * (2 * MAX_SQUARES)
        worths = [0] * (2 * MAX_SQUARES)
        adjacent = [0] * MAX_SQUARES
        if pawns is not None:
            for c in (0, 1):
                rows = zip(pawns.span[c], pawns.ahead[c], pawns.worth[c], strict=True)
                for sq, (bb, file_ahead, value) in enumerate(rows):
                    spans[c * MAX_SQUARES + sq] = bb
                    aheads[c * MAX_SQUARES + sq] = file_ahead
                    worths[c * MAX_SQUARES + sq] = value
            adjacent[: len(pawns.adjacent)] = pawns.adjacent
        self.span_ahead: vec[i64] = vec[i64]([word(bb) for bb in spans])
        self.file_ahead: vec[i64] = vec[i64]([word(bb) for bb in aheads])
        self.worth: vec[i64] = vec[i64](worths)
        self.adjacent: vec[i64] = vec[i64]([word(bb) for bb in adjacent])
        # The colour pair (engine/pairs.py): the colour-bound kinds and the light squares.
        self.use_pairs = pairs is not None
        self.pair_mg, self.pair_eg = pair_weight
        self.pair_kinds: list[int] = list(pairs.kinds) if pairs else []
        self.light: i64 = word(pairs.light) if pairs else 0
        # Mobility (engine/mobility.py), counted on words by the evaluator's MobilityWords.
        self.mob_mg, self.mob_eg = mobility_weight
        self.mobility = mobility

    def score(self, board: Board, packed: int) -> int:
        t = packed + OFFSET
        eg = (t & MASK) - HALF
        mg = (t >> BITS & MASK) - HALF
        ph = t >> (2 * BITS)
        hi, lo, span = self.hi, self.lo, self.span
        if ph >= hi:
            score = mg
        elif ph <= lo:
            score = eg
        else:
            score = (mg * (ph - lo) + eg * (hi - ph)) // span
        if self.use_shelter or self.use_pawns or self.use_pairs or self.mobility is not None:
            mid = end = 0
            white = word(board.occ[0])
            black = word(board.occ[1])
            if self.use_shelter:
                shelter, danger = self._counts(board, white, black)
                mid = shelter * self.s_mg + danger * self.d_mg
                end = shelter * self.s_eg + danger * self.d_eg
            if self.use_pawns:
                passed, isolated, doubled = self._pawns(board, white, black)
                mid += passed * self.p_mg + isolated * self.i_mg + doubled * self.d2_mg
                end += passed * self.p_eg + isolated * self.i_eg + doubled * self.d2_eg
            if self.use_pairs:
                n = self._pairs(board, white, black)
                mid += n * self.pair_mg
                end += n * self.pair_eg
            mobility = self.mobility
            if mobility is not None:
                n = mobility.on_words(board, white, black)
                mid += n * self.mob_mg // ONE
                end += n * self.mob_eg // ONE
            if ph >= hi:
                score += mid
            elif ph <= lo:
                score += end
            else:
                score += (mid * (ph - lo) + end * (hi - ph)) // span
        return (score if board.side == 0 else -score) + self.tempo

    def _pairs(self, board: Board, white: i64, black: i64) -> int:
        """ColourPairs.count on words."""
        kinds = board.kind_bb
        light = self.light
        total = 0
        for k in self.pair_kinds:
            bb = word(kinds[k])
            mine = bb & white
            if mine & light != 0 and mine & ~light != 0:
                total += 1
            mine = bb & black
            if mine & light != 0 and mine & ~light != 0:
                total -= 1
        return total

    def _pawns(self, board: Board, white: i64, black: i64) -> tuple[int, int, int]:
        """PawnStructure.counts on words: (passed pawns' worth, isolated, doubled), White's minus
        Black's."""
        kinds = board.kind_bb
        blockers: i64 = 0
        for k in self.blocker_kinds:
            blockers |= word(kinds[k])
        structure = self.use_structure
        passed: i64 = 0
        isolated: i64 = 0
        doubled: i64 = 0
        for color in (0, 1):
            mine: i64 = 0
            for k in self.pawn_kinds[color]:
                mine |= word(kinds[k])
            own = mine & (white if color == 0 else black)
            if own == 0:
                continue
            bb = own
            theirs = blockers & (black if color == 0 else white)
            base: i64 = color * MAX_SQUARES
            p: i64 = 0
            i: i64 = 0
            d: i64 = 0
            while bb != 0:
                sq = low_square(bb)
                bb = drop_low(bb)
                if self.span_ahead[base + sq] & theirs == 0:
                    p += self.worth[base + sq]
                if structure:
                    if self.adjacent[sq] & own == 0:
                        i += 1
                    if self.file_ahead[base + sq] & own != 0:
                        d += 1
            if color == 0:
                passed, isolated, doubled = p, i, d
            else:
                passed, isolated, doubled = passed - p, isolated - i, doubled - d
        return int(passed), int(isolated), int(doubled)

    def _counts(self, board: Board, white: i64, black: i64) -> tuple[int, int]:
        """(shelter, danger), White's minus Black's: own pieces next to each royal piece, and enemy
        attackers within two steps of it."""
        kinds = board.kind_bb
        royals: i64 = 0
        for k in self.royal_kinds:
            royals |= word(kinds[k])
        attackers: i64 = 0
        for k in self.attacker_kinds:
            attackers |= word(kinds[k])
        ring = self.ring
        zone = self.zone
        shelter: i64 = 0
        danger: i64 = 0
        bb = royals & white
        enemy = attackers & black
        while bb != 0:
            sq = low_square(bb)
            bb = drop_low(bb)
            shelter += popcount(ring[sq] & white)
            danger += popcount(zone[sq] & enemy)
        bb = royals & black
        enemy = attackers & white
        while bb != 0:
            sq = low_square(bb)
            bb = drop_low(bb)
            shelter -= popcount(ring[sq] & black)
            danger -= popcount(zone[sq] & enemy)
        return int(shelter), int(danger)
