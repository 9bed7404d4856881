"""Static evaluation built from the variant document: piece values and named, generic terms.

Nothing here knows a variant by name. The numbers come from two places in the document:
`engine.pieces.X.value` (middlegame/endgame material) and `engine.evaluation` (the weights of the
terms below; see docs/engine.md for the schema). Every term is either a piece-square term — so the
search can update it incrementally from the squares a move touches — or cheap to compute per node.

Scores are in the document's internal units (Fairy-Stockfish's scale in the built-in documents:
pawn 120/213), from White's point of view inside this module and from the side to move's outside.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Final
from weakref import WeakKeyDictionary

from hordes.core import movegen
from hordes.core.compiled import AttackTest, compiled
from hordes.core.rules import Variant
from hordes.engine.eval_params import parse_params
from hordes.engine.mobility import ONE, Mobility
from hordes.engine.node_static import MobilityWords, NodeStatic, use_compiled_static
from hordes.engine.pairs import ColourPairs
from hordes.engine.pawns import COUNTS, PawnStructure
from hordes.engine.plan import PlanTerms

if TYPE_CHECKING:
    from hordes.core.position import Board

# Packed scores: phase << 2*BITS | mg << BITS | eg, each field signed with |value| < 2**(BITS-1).
BITS: Final = 24
_HALF: Final = 1 << (BITS - 1)
_MASK: Final = (1 << BITS) - 1


def pack(ph: int, mg: int, eg: int) -> int:
    return (ph << (2 * BITS)) + (mg << BITS) + eg


def unpack(packed: int) -> tuple[int, int, int]:
    eg = ((packed + _HALF) & _MASK) - _HALF
    rest = (packed - eg) >> BITS
    mg = ((rest + _HALF) & _MASK) - _HALF
    return (rest - mg) >> BITS, mg, eg


class Evaluator:
    """Per-variant tables: packed (phase, mg, eg) piece-square values, White-positive.

    `table[code][sq]` for code = kind * 2 + colour; `table[-1]` (the empty square) is all zeros, so a
    move's effect is `sum(table[after][sq] - table[before][sq])` over the squares it touched.
    """

    def __init__(self, variant: Variant, overrides: Mapping[str, Any] | None = None) -> None:
        self.variant = variant
        self._steps: list[list[int]] | None = None  # see `steps`
        self.params = params = parse_params(variant, overrides)
        comp = compiled(variant)
        geo = variant.geometry
        size = geo.size
        pieces = variant.pieces
        rules = variant.rules
        self.pawn_unit = params.pawn_unit
        self.tempo = params.tempo
        camp_kinds = set(comp.camp_kinds)
        promoting = (comp.promo_kinds[0], comp.promo_kinds[1])
        tables: list[list[int]] = []
        # The phase weight of a piece is its middlegame value; pawns and royals do not count.
        self.phase_weight = [0] * (2 * len(pieces))
        for kind, piece in enumerate(pieces):
            for color in (0, 1):
                sign = 1 if color == 0 else -1
                gen = comp.gens[color][kind]
                mobility = [
                    (q | c).bit_count()
                    for q, c in zip(gen.quiet.empty_board(size), gen.capture.empty_board(size), strict=True)
                ]
                mean = sum(mobility) / size
                row = []
                ph = 0 if piece.pawn or piece.royal else max(piece.value_mg, 0)
                self.phase_weight[kind * 2 + color] = ph
                for sq in range(size):
                    file, rank = geo.file_of(sq), geo.rank_of(sq)
                    mg, eg = piece.value_mg, piece.value_eg
                    if piece.royal:
                        w = params.royal_centre
                        mg += round(w[0] * (mobility[sq] - mean))
                        eg += round(w[1] * (mobility[sq] - mean))
                        if kind in camp_kinds:
                            adv = _progress(
                                rank, rules.campmate.ranks[color] if rules.campmate else (), geo.rows
                            )
                            mg += params.campmate[0] * adv
                            eg += params.campmate[1] * adv
                    elif piece.pawn:
                        central = min(file, geo.cols - 1 - file)
                        mg += params.centre[0] * central
                        eg += params.centre[1] * central
                    else:
                        mg += round(params.centre[0] * (mobility[sq] - mean))
                        eg += round(params.centre[1] * (mobility[sq] - mean))
                    if kind in promoting[color]:
                        adv = _progress(rank, rules.promotion[color].ranks, geo.rows)
                        mg += params.pawn_advance[0] * adv
                        eg += params.pawn_advance[1] * adv
                    # phase is positive for both colours: it measures the material on the board
                    row.append(pack(ph, sign * mg, sign * eg))
                tables.append(row)
        tables.append([0] * size)  # index -1: empty square
        self.table = tables
        start = _start_phase(variant)
        # Full middlegame weight above 85 % of the starting material, full endgame below 20 %.
        self.phase_hi = max(1, start * 85 // 100)
        self.phase_lo = start * 20 // 100
        # Royal safety: squares next to each square (a king's step), for the shelter term.
        self.ring = [
            sum(
                1 << geo.square(f, r)
                for f in range(geo.file_of(sq) - 1, geo.file_of(sq) + 2)
                for r in range(geo.rank_of(sq) - 1, geo.rank_of(sq) + 2)
                if geo.on_board(f, r) and (f, r) != (geo.file_of(sq), geo.rank_of(sq))
            )
            for sq in range(size)
        ]
        self.royal_kinds = comp.royal_kinds
        self.shelter = params.royal_shelter
        self.danger = params.royal_danger
        self.use_shelter = params.royal_shelter != (0, 0) or params.royal_danger != (0, 0)
        # Campmate threats: from which squares a camp-winning royal of each side reaches its camp.
        self.camp_threat = params.campmate_threat if comp.camp_kinds else 0
        self.camp_kinds: list[int] = list(comp.camp_kinds)  # a list for `_union`
        self.camp_zone = comp.camp_zone
        self.camp_near = [0, 0]
        # ... and the squares from which one step reaches such a square (the search's king steps)
        self.camp_approach = [0, 0]
        for color in (0, 1):
            for k in comp.camp_kinds:
                gen = comp.gens[color][k]
                for sq in range(size):
                    if (gen.quiet.attacks(sq, 0) | gen.capture.attacks(sq, 0)) & comp.camp_zone[color]:
                        self.camp_near[color] |= 1 << sq
            for k in comp.camp_kinds:
                gen = comp.gens[color][k]
                for sq in range(size):
                    if (gen.quiet.attacks(sq, 0) | gen.capture.attacks(sq, 0)) & self.camp_near[color]:
                        self.camp_approach[color] |= 1 << sq
        # Campmate race: for each camp-winning royal (by code), its steps on an empty board and, per
        # number of steps j, the squares from which its camp is at most j steps away.
        self.race_weight = params.campmate_race
        # (no road is longer than the board has squares)
        reach = min(params.campmate_reach, size)
        self.reach = reach if comp.camp_kinds and params.campmate_race != (0, 0) else 0
        self.use_race = self.reach > 0
        self.delay = params.campmate_delay
        # worth of a road by its steps (index 0: no road), in units of race_weight
        curve = params.campmate_race_curve[:reach] or tuple(range(reach, 0, -1))
        self.race_curve = [0, *curve]
        self.race_steps: dict[int, list[int]] = {}
        self.race_within: dict[int, list[int]] = {}
        self.race_zone = [0, 0]  # squares within reach of the camp, per colour
        for color in (0, 1):
            for k in comp.camp_kinds:
                gen = comp.gens[color][k]
                moves = [gen.quiet.attacks(sq, 0) | gen.capture.attacks(sq, 0) for sq in range(size)]
                within = [comp.camp_zone[color]]
                for _ in range(self.reach):
                    last = within[-1]
                    within.append(last | sum(1 << sq for sq in range(size) if moves[sq] & last))
                self.race_steps[k * 2 + color] = moves
                self.race_within[k * 2 + color] = within
                self.race_zone[color] |= within[-1]
        # Royal mobility: the squares each royal piece (by code) reaches from each square on an empty
        # board. A leaper that moves as it captures needs one table (`royal_same`: its destinations
        # are those not held by its own side); other royals keep quiet and capture tables, or None
        # when they ride (then looked up with the occupancy).
        self.royal_mob = params.royal_mobility
        self.royal_same: list[list[int] | None] = [None] * (2 * len(pieces) + 1)
        self.royal_reach: dict[int, tuple[list[int], list[int]] | None] = {}
        for color in (0, 1):
            for k in comp.royal_kinds:
                gen = comp.gens[color][k]
                if gen.quiet.rides or gen.capture.rides:
                    self.royal_reach[k * 2 + color] = None
                elif gen.same:
                    self.royal_same[k * 2 + color] = [gen.quiet.attacks(sq, 0) for sq in range(size)]
                else:
                    self.royal_reach[k * 2 + color] = (
                        [gen.quiet.attacks(sq, 0) for sq in range(size)],
                        [gen.capture.attacks(sq, 0) for sq in range(size)],
                    )
        self.use_royal_mob = params.royal_mobility != (0, 0) and bool(comp.royal_kinds)
        self.use_royal_loop = self.use_shelter or self.use_royal_mob
        # Restriction: pieces of the other side held by our restricting pieces.
        self.restriction = params.restriction
        self.use_restriction = params.restriction != (0, 0) and comp.restrictions
        self.restrictable_kinds = [k for k, flag in enumerate(comp.restrictable) if flag]
        # Royal pull: enemy royals that our pulling pieces see first along one of their pull rays.
        self.royal_pull = params.royal_pull
        self.pull_kinds = [k for k, rays in enumerate(comp.pull_rays) if rays]
        self.pull_rays = comp.pull_rays
        self.use_pull = params.royal_pull != (0, 0) and bool(self.pull_kinds) and bool(comp.royal_kinds)
        # Mop-up: steps from the centre (files plus ranks, 0 on the central squares) and king steps
        # between two squares, for the side that is ahead.
        self.mop_up = params.mop_up
        self.mop_up_margin = params.mop_up_margin
        self.use_mop_up = params.mop_up != (0, 0) and bool(comp.royal_kinds)
        self.siege = params.siege
        self.use_siege = params.siege != (0, 0) and bool(comp.royal_kinds)
        cols, rows = geo.cols, geo.rows
        self.centre_distance = [
            max(0, abs(2 * geo.file_of(sq) - (cols - 1)) - 1) // 2
            + max(0, abs(2 * geo.rank_of(sq) - (rows - 1)) - 1) // 2
            for sq in range(size)
        ]
        self.far = max(cols, rows) - 1
        # Restriction and pull need a restricting or pulling piece on the board: one test skips both.
        self.use_magnets = self.use_restriction or self.use_pull
        # The pull-trap-capture plan's terms (plan.py), where the document weighs them.
        plan = PlanTerms(variant, params)
        self.plan: PlanTerms | None = plan if plan.active else None
        self.magnet_kinds = sorted({k for k, _, _ in comp.restrictors} | set(self.pull_kinds))
        # Pawn structure: the tables are built only where the document weighs one of its terms.
        self.pawn_weights = (params.passed_pawn, params.isolated_pawn, params.doubled_pawn)
        weighed = any(w != (0, 0) for w in self.pawn_weights)
        structure = params.isolated_pawn != (0, 0) or params.doubled_pawn != (0, 0)
        pawns = PawnStructure(variant, comp.promo_kinds, structure=structure) if weighed else None
        self.pawns: PawnStructure | None = pawns if pawns is not None and pawns.active else None
        # The colour pair: the colour-bound kinds, found only where the document weighs the term.
        self.colour_pair = params.colour_pair
        pairs = ColourPairs(variant, comp) if params.colour_pair != (0, 0) else None
        self.pairs: ColourPairs | None = pairs if pairs is not None and pairs.active else None
        # Piece mobility: the kinds that count and their scales, only where the document weighs it.
        self.mobility_weight = params.mobility
        moving = Mobility(comp) if params.mobility != (0, 0) else None
        self.mobility: Mobility | None = moving if moving is not None and moving.active else None
        # What counts it in `extras`: compiled code on words where the build has it (the interpreted
        # Mobility.count cost Hordes of Change more than half its speed), else Mobility.count.
        # The compiled node function counts with the same MobilityWords.
        self.mobility_words = MobilityWords(self.mobility) if self.mobility is not None else None
        self.mobility_count: Callable[[Board], int] | None = None
        if self.mobility is not None and self.mobility_words is not None:
            on_words = use_compiled_static(size)
            self.mobility_count = self.mobility_words.count if on_words else self.mobility.count
        self.use_extras = (
            self.use_shelter
            or self.pawns is not None
            or self.pairs is not None
            or self.mobility is not None
            or bool(self.camp_threat)
            or self.use_race
            or self.use_royal_mob
            or self.use_restriction
            or self.use_pull
            or self.use_mop_up
            or self.use_siege
            or self.plan is not None
        )
        # Squares within two king steps of each square, for the danger term.
        self.zone = [
            sum(
                1 << geo.square(f, r)
                for f in range(geo.file_of(sq) - 2, geo.file_of(sq) + 3)
                for r in range(geo.rank_of(sq) - 2, geo.rank_of(sq) + 3)
                if geo.on_board(f, r)
            )
            for sq in range(size)
        ]
        # Kinds that count as attackers for the danger term: neither pawns nor royal nor immobile.
        self.attacker_kinds = [k for k, p in enumerate(pieces) if not (p.pawn or p.royal or p.immobile)]
        # What the search calls per node: `extras`, or the same sum written out for the usual case.
        self.node_extras: Callable[[Board, int], int] = self.extras
        others = (
            self.camp_threat
            or self.use_royal_mob
            or self.use_magnets
            or self.use_mop_up
            or self.use_siege
            or self.plan
        )
        # Every extra is one the written-out functions below compute: royal shelter and danger (with
        # royal pieces to count around), pawn structure, the colour pair, mobility (and perhaps the
        # race, added around them).
        written = self.pawns is not None or self.pairs is not None or self.mobility is not None
        writable = not others and (self.use_shelter or written)
        writable = writable and (bool(self.royal_kinds) or not self.use_shelter)
        shelter_only = writable and not written
        shelter_race = shelter_only and self.use_race
        if shelter_race:
            # the written-out shelter terms, plus the race (usually a mask test that finds no royal near)
            self.node_extras = _plus_race(self._shelter_extras(), self.race_score)
        elif shelter_only:
            self.node_extras = self._shelter_extras()
        # The whole static score for the side to move, evaluate() from a packed sum, as one call
        # where the extras are written out (or absent); None where the search composes it.
        self.node_static: Callable[[Board, int], int] | None = None
        self.written_out = writable or not self.use_extras  # (the race is added around it)
        if self.written_out:
            self.node_static = self.node_static_on(use_compiled_static(geo.size))
        # Values for move ordering and pruning (middlegame material of a kind, by code).
        self.value = [
            max(pieces[code >> 1].value_mg, pieces[code >> 1].value_eg, 0) for code in range(2 * len(pieces))
        ]
        self.value.append(0)
        # Royal pieces are worth "everything" for ordering: capturing one ends the game.
        for code in range(2 * len(pieces)):
            if pieces[code >> 1].royal:
                self.value[code] = 50 * max(self.pawn_unit, 1)

    def packed(self, board: Board) -> int:
        """The packed piece-square sum of a position, from scratch."""
        table = self.table
        total = 0
        for sq, code in enumerate(board.mailbox):
            if code >= 0:
                total += table[code][sq]
        return total

    def tapered(self, packed: int) -> int:
        """Blend middlegame and endgame by the material left (White's point of view)."""
        ph, mg, eg = unpack(packed)
        hi, lo = self.phase_hi, self.phase_lo
        if ph >= hi:
            return mg
        if ph <= lo:
            return eg
        return (mg * (ph - lo) + eg * (hi - ph)) // (hi - lo)

    def extras(self, board: Board, packed: int) -> int:
        """Terms that are not piece-square terms (White's point of view): royal shelter and danger,
        royal mobility, restriction, royal pull and mop-up, and the campmate threat against the side
        to move. Each is computed only when its weight is not zero; the royal terms share one loop."""
        score = self.threat(board) if self.camp_threat else 0
        if self.use_race:
            score += self.race_score(board, packed)
        mg = eg = 0
        if self.use_royal_loop:
            kinds = board.kind_bb
            occ = board.occ
            royals = 0
            for k in self.royal_kinds:
                royals |= kinds[k]
            shelter = danger = mob = 0
            use_shelter = self.use_shelter
            use_mob = self.use_royal_mob
            if use_shelter:
                attackers = 0
                for k in self.attacker_kinds:
                    attackers |= kinds[k]
                ring = self.ring
                zone = self.zone
            if use_mob:
                occupied = occ[0] | occ[1]
                mailbox = board.mailbox
                same = self.royal_same
            for color, sign in ((0, 1), (1, -1)):
                own = occ[color]
                bb = royals & own
                if use_shelter:
                    enemy_attackers = attackers & occ[color ^ 1]
                if use_mob:
                    enemy = occ[color ^ 1]
                while bb:
                    low = bb & -bb
                    bb ^= low
                    sq = low.bit_length() - 1
                    if use_shelter:
                        shelter += sign * (ring[sq] & own).bit_count()
                        danger += sign * (zone[sq] & enemy_attackers).bit_count()
                    if use_mob:
                        table = same[mailbox[sq]]
                        if table is not None:
                            mob += sign * (table[sq] & ~own).bit_count()
                            continue
                        tables = self.royal_reach[mailbox[sq]]
                        if tables is None:
                            gen = board.compiled.gens[color][mailbox[sq] >> 1]
                            quiet = gen.quiet.attacks(sq, occupied)
                            capture = gen.capture.attacks(sq, occupied)
                        else:
                            quiet, capture = tables[0][sq], tables[1][sq]
                        mob += sign * ((quiet & ~occupied) | (capture & enemy)).bit_count()
            if use_shelter:
                mg += shelter * self.shelter[0] + danger * self.danger[0]
                eg += shelter * self.shelter[1] + danger * self.danger[1]
            if use_mob:
                mg += mob * self.royal_mob[0]
                eg += mob * self.royal_mob[1]
        if self.use_magnets:
            kinds = board.kind_bb
            magnets = 0
            for k in self.magnet_kinds:
                magnets |= kinds[k]
            if magnets:
                if self.use_restriction:
                    n = self.restricted(board)
                    mg += n * self.restriction[0]
                    eg += n * self.restriction[1]
                if self.use_pull:
                    n = self.pullable_royals(board)
                    mg += n * self.royal_pull[0]
                    eg += n * self.royal_pull[1]
        if self.pawns is not None:
            for n, (w_mg, w_eg) in zip(self.pawns.counts(board), self.pawn_weights, strict=True):
                mg += n * w_mg
                eg += n * w_eg
        if self.pairs is not None:
            n = self.pairs.count(board)
            mg += n * self.colour_pair[0]
            eg += n * self.colour_pair[1]
        if self.mobility_count is not None:
            n = self.mobility_count(board)
            mg += n * self.mobility_weight[0] // ONE
            eg += n * self.mobility_weight[1] // ONE
        if self.plan is not None:
            p_mg, p_eg = self.plan.score(board)
            mg += p_mg
            eg += p_eg
        ph, _, lead = unpack(packed)
        if self.use_mop_up and abs(lead) >= self.mop_up_margin:
            n = self.mop_up_steps(board, 0 if lead > 0 else 1)
            mg += n * self.mop_up[0]
            eg += n * self.mop_up[1]
        if self.use_siege and abs(lead) >= self.mop_up_margin:
            n = self.siege_count(board, 0 if lead > 0 else 1)
            mg += n * self.siege[0]
            eg += n * self.siege[1]
        hi, lo = self.phase_hi, self.phase_lo
        if ph >= hi:
            return score + mg
        if ph <= lo:
            return score + eg
        return score + (mg * (ph - lo) + eg * (hi - ph)) // (hi - lo)

    def _shelter_lines(self) -> list[str]:
        """Source lines that set `shelter` and `danger` (White's minus Black's) from `board`, shared
        by the two generated evaluation functions below."""
        royals = " | ".join(f"kinds[{k}]" for k in self.royal_kinds)
        attackers = " | ".join(f"kinds[{k}]" for k in self.attacker_kinds) or "0"
        lines = [
            "    kinds = board.kind_bb",
            "    white, black = board.occ",
            f"    royals = {royals}",
            f"    attackers = {attackers}",
            "    shelter = danger = 0",
        ]
        for own, other, sign in (("white", "black", "+"), ("black", "white", "-")):
            lines += [
                f"    bb = royals & {own}",
                f"    enemy = attackers & {other}",
                "    while bb:",
                "        low = bb & -bb",
                "        bb ^= low",
                "        sq = low.bit_length() - 1",
                f"        shelter {sign}= (ring[sq] & {own}).bit_count()",
                f"        danger {sign}= (zone[sq] & enemy).bit_count()",
            ]
        return lines

    def _compile(self, name: str, lines: list[str]) -> Callable[[Board, int], int]:
        scope: dict[str, Any] = {"ring": self.ring, "zone": self.zone}
        if self.pawns is not None:
            scope.update(self.pawns.tables())
        if self.mobility is not None:
            scope["mobility_count"] = self.mobility.count
        exec("\n".join(lines), scope)
        fn: Callable[[Board, int], int] = scope[name]
        return fn

    def _shelter_extras(self) -> Callable[[Board, int], int]:
        """`extras` when royal shelter and danger are its only terms, as straight-line source: the
        loops over kinds and colours and the weight tests cost CPython more than the popcounts."""
        (s_mg, s_eg), (d_mg, d_eg) = self.shelter, self.danger
        hi, lo = self.phase_hi, self.phase_lo
        # The phase field of a packed sum, whatever the signs of the two fields below it.
        offset = _HALF + (_HALF << BITS)
        return self._compile(
            "shelter_extras",
            [
                "def shelter_extras(board, packed, ring=ring, zone=zone):",
                *self._shelter_lines(),
                f"    ph = (packed + {offset}) >> {2 * BITS}",
                f"    if ph >= {hi}:",
                f"        return shelter * {s_mg} + danger * {d_mg}",
                f"    if ph <= {lo}:",
                f"        return shelter * {s_eg} + danger * {d_eg}",
                f"    return ((shelter * {s_mg} + danger * {d_mg}) * (ph - {lo})",
                f"            + (shelter * {s_eg} + danger * {d_eg}) * ({hi} - ph)) // {hi - lo}",
            ],
        )

    def node_static_on(self, words: bool) -> Callable[[Board, int], int]:
        """tapered(packed) + extras (shelter and danger, pawn structure, the colour pair, or none, and
        the campmate race), signed
        for the side to move, plus tempo: equal to `evaluate`, in one call where `written_out`. With
        `words`, compiled code on 64-bit words (engine/node_static.py: the compiled build on boards of
        at most 64 squares), else source written out for this document."""
        shelter = self.use_shelter  # where written out, shelter, danger, pawn structure and the colour
        # pair are the only extras but the race
        static = self._compiled_node_static(shelter).score if words else self._node_static_source(shelter)
        return self._static_plus_race(static) if self.use_race else static

    def _compiled_node_static(self, shelter: bool) -> NodeStatic:
        (s_mg, s_eg), (d_mg, d_eg) = self.shelter, self.danger
        return NodeStatic(
            phase=(self.phase_hi, self.phase_lo),
            tempo=self.tempo,
            shelter=(s_mg, s_eg, d_mg, d_eg) if shelter else None,
            royal_kinds=list(self.royal_kinds),
            attacker_kinds=self.attacker_kinds,
            ring=self.ring,
            zone=self.zone,
            pawns=self.pawns,
            pawn_weights=self.pawn_weights,
            pairs=self.pairs,
            pair_weight=self.colour_pair,
            mobility=self.mobility_words,
            mobility_weight=self.mobility_weight,
        )

    def _node_static_source(self, shelter: bool) -> Callable[[Board, int], int]:
        """The same as one straight-line function, its constants written in, run with `exec`."""
        hi, lo = self.phase_hi, self.phase_lo
        span = max(1, hi - lo)
        tables = "".join(f", {t}={t}" for t in self.pawns.tables()) if self.pawns else ""
        if self.mobility is not None:
            tables += ", mobility_count=mobility_count"
        lines = [
            f"def node_static(board, packed, ring=ring, zone=zone{tables}):",
            f"    t = packed + {_HALF + (_HALF << BITS)}",  # fields made non-negative: plain bit slices
            f"    eg = (t & {_MASK}) - {_HALF}",
            f"    mg = (t >> {BITS} & {_MASK}) - {_HALF}",
            f"    ph = t >> {2 * BITS}",
        ]
        if shelter or self.pawns is not None or self.pairs is not None or self.mobility is not None:
            mids: list[str] = []
            ends: list[str] = []
            if shelter:
                (s_mg, s_eg), (d_mg, d_eg) = self.shelter, self.danger
                lines += self._shelter_lines()
                mids.append(f"shelter * {s_mg} + danger * {d_mg}")
                ends.append(f"shelter * {s_eg} + danger * {d_eg}")
            if self.pawns is not None:
                lines += self.pawns.lines()
                for name, (w_mg, w_eg) in zip(COUNTS, self.pawn_weights, strict=True):
                    mids.append(f"{name} * {w_mg}")
                    ends.append(f"{name} * {w_eg}")
            if self.pairs is not None:
                lines += self.pairs.lines()
                mids.append(f"pairs * {self.colour_pair[0]}")
                ends.append(f"pairs * {self.colour_pair[1]}")
            if self.mobility is not None:
                lines.append("    mobility = mobility_count(board)")
                mids.append(f"mobility * {self.mobility_weight[0]} // {ONE}")
                ends.append(f"mobility * {self.mobility_weight[1]} // {ONE}")
            mid = " + ".join(mids)
            end = " + ".join(ends)
            lines += [
                f"    if ph >= {hi}:",
                f"        score = mg + {mid}",
                f"    elif ph <= {lo}:",
                f"        score = eg + {end}",
                "    else:",
                f"        score = (mg * (ph - {lo}) + eg * ({hi} - ph)) // {span}",
                f"        score += (({mid}) * (ph - {lo}) + ({end}) * ({hi} - ph)) // {span}",
            ]
        else:
            lines += [
                f"    if ph >= {hi}:",
                "        score = mg",
                f"    elif ph <= {lo}:",
                "        score = eg",
                "    else:",
                f"        score = (mg * (ph - {lo}) + eg * ({hi} - ph)) // {span}",
            ]
        lines.append(f"    return (score if board.side == 0 else -score) + {self.tempo}")
        return self._compile("node_static", lines)

    def _royals(self, board: Board) -> int:
        kinds = board.kind_bb
        royals = 0
        for k in self.royal_kinds:
            royals |= kinds[k]
        return royals

    def restricted(self, board: Board) -> int:
        """White minus Black: (restricting piece, restricted enemy piece) pairs."""
        comp = board.compiled
        kinds = board.kind_bb
        occ = board.occ
        held = 0
        for k in self.restrictable_kinds:
            held |= kinds[k]
        n = 0
        for kind, _, _ in comp.restrictors:
            reach = comp.restrict_reach[kind]
            if reach is None:
                continue
            for color, sign in ((0, 1), (1, -1)):
                victims = held & occ[color ^ 1]
                bb = kinds[kind] & occ[color]
                while bb:
                    low = bb & -bb
                    bb ^= low
                    n += sign * (reach[low.bit_length() - 1] & victims).bit_count()
        return n

    def pullable_royals(self, board: Board) -> int:
        """White minus Black: enemy royal pieces that one of our pulling pieces sees first along a
        pull ray and not already next to it (so a pull would move them)."""
        kinds = board.kind_bb
        occ = board.occ
        occupied = occ[0] | occ[1]
        royals = self._royals(board)
        rays_of = self.pull_rays
        n = 0
        for color, sign in ((0, 1), (1, -1)):
            targets = royals & occ[color ^ 1]
            if not targets:
                continue
            for kind in self.pull_kinds:
                bb = kinds[kind] & occ[color]
                while bb:
                    low = bb & -bb
                    bb ^= low
                    for ray in rays_of[kind][low.bit_length() - 1]:
                        for i, t in enumerate(ray):
                            if occupied >> t & 1:
                                if i and targets >> t & 1:
                                    n += sign
                                break
        return n

    @property
    def steps(self) -> list[list[int]]:
        """[a][b] king steps between two squares; built when mop-up first asks (size² entries: a
        moment on 8×8, most of a second on 26×26, where most games never need it). Kept by hand,
        not with functools.cached_property: mypyc compiles that as a plain property, which built
        the table again at every call and made the compiled search slower than the pure one."""
        if self._steps is None:
            self._steps = self._king_steps()
        return self._steps

    def _king_steps(self) -> list[list[int]]:
        geo = self.variant.geometry
        files = [geo.file_of(sq) for sq in range(geo.size)]
        ranks = [geo.rank_of(sq) for sq in range(geo.size)]
        return [
            [max(abs(fa - fb), abs(ra - rb)) for fb, rb in zip(files, ranks, strict=True)]
            for fa, ra in zip(files, ranks, strict=True)
        ]

    def mop_up_parts(self, board: Board) -> tuple[tuple[int, int], tuple[int, int]]:
        """The ungated (mop-up steps, siege count), White-positive, if White were the side ahead,
        and if Black were: `extras` adds those of the side whose lead (the endgame field of the
        packed sum) reaches mop_up_margin, times the mop_up and siege weights. For the tuner, which
        moves the lead."""
        return (
            (self.mop_up_steps(board, 0), self.siege_count(board, 0)),
            (self.mop_up_steps(board, 1), self.siege_count(board, 1)),
        )

    def mop_up_steps(self, board: Board, winner: int) -> int:
        """White-positive when White is `winner`: how far the loser's royals stand from the centre,
        plus how close each of the winner's royals stands to the nearest royal of the loser."""
        occ = board.occ
        royals = self._royals(board)
        centre = self.centre_distance
        steps = self.steps
        far = self.far
        losers = []
        n = 0
        bb = royals & occ[winner ^ 1]
        while bb:
            low = bb & -bb
            bb ^= low
            sq = low.bit_length() - 1
            n += centre[sq]
            losers.append(steps[sq])
        if losers:
            bb = royals & occ[winner]
            while bb:
                low = bb & -bb
                bb ^= low
                sq = low.bit_length() - 1
                n += far - min([row[sq] for row in losers])
        return n if winner == 0 else -n

    def siege_count(self, board: Board, winner: int) -> int:
        """White-positive when White is `winner`: the winner's attackers (not pawns, royal or
        immobile) within two squares of each royal piece of the loser."""
        occ = board.occ
        attackers = _union(board.kind_bb, self.attacker_kinds) & occ[winner]
        zone = self.zone
        n = 0
        bb = self._royals(board) & occ[winner ^ 1]
        while bb:
            low = bb & -bb
            bb ^= low
            n += (zone[low.bit_length() - 1] & attackers).bit_count()
        return n if winner == 0 else -n

    def threat(self, board: Board) -> int:
        """-campmate_threat (White's view) if the side not to move has a royal one step from a camp
        square that the side to move does not attack."""
        if not self.camp_threatened(board):
            return 0
        return self.camp_threat if board.side == 1 else -self.camp_threat

    def camp_threatened(self, board: Board) -> bool:
        """Can the side not to move win by campmate next move (a royal one step from a camp square
        that it may enter: empty or an enemy piece, not attacked by the side to move)?"""
        return self.camp_open(board, board.side ^ 1)

    def camp_open(self, board: Board, them: int) -> bool:
        """Has `them` a royal one step from a camp square that it may enter (empty or an enemy
        piece, not attacked by the other side)? With `them` to move, that is a campmate in one."""
        kinds = board.kind_bb
        occ = board.occ
        near = self.camp_near[them] & occ[them]
        if not near:
            return False
        occupied = occ[0] | occ[1]
        for k in self.camp_kinds:
            bb = kinds[k] & near
            while bb:
                low = bb & -bb
                bb ^= low
                targets = movegen.pseudo_targets(board, low.bit_length() - 1, k, them, occupied)
                targets &= self.camp_zone[them]
                while targets:
                    t = targets & -targets
                    targets ^= t
                    if not movegen.attacked_by(board, them ^ 1, t.bit_length() - 1, occupied ^ low):
                        return True
        return False

    def road(self, board: Board, color: int) -> int:
        """Steps of the shortest free road of `color`'s camp-winning royals to their camp, within
        campmate_reach; 0 when there is none. A free road goes through squares its own pieces do not
        hold and the opponent does not attack (an enemy piece on it must be undefended), never
        farther from the camp than campmate_reach allows. Under campmate_delay, `_delayed_road`."""
        kinds = board.kind_bb
        occ = board.occ
        own = occ[color]
        bb = _union(kinds, self.camp_kinds) & own & self.race_zone[color]
        if not bb:
            return 0
        them = color ^ 1
        comp = board.compiled
        occupied = occ[0] | occ[1]
        royals = self._royals(board) & occ[them]
        theirs = occ[them]
        attacked = comp.attacked[them]
        exact = comp.restrictions  # restricted attackers: ask movegen, which knows the mechanism
        if self.delay:
            return self._delayed_road(board, bb, them, royals, attacked, exact)
        reach = self.reach
        best = 0
        while bb:
            low = bb & -bb
            bb ^= low
            sq = low.bit_length() - 1
            code = board.mailbox[sq]
            moves = self.race_steps[code]
            within = self.race_within[code]
            camp = within[0]
            clear = occupied ^ low  # the royal leaves its square: it does not shield squares behind it
            seen = low | own | royals
            frontier = low
            for step in range(1, reach + 1):
                if best and step >= best:
                    break
                nxt = 0
                while frontier:
                    f = frontier & -frontier
                    frontier ^= f
                    nxt |= moves[f.bit_length() - 1]
                nxt &= within[reach - step] & ~seen
                seen |= nxt
                if nxt & camp:
                    # A camp square ends the road: the others of this step cannot shorten it. (A road
                    # through a square of this step to a camp square behind would be longer.)
                    rest = nxt & ~camp
                    nxt &= camp
                else:
                    rest = 0
                free = 0
                while nxt:
                    t = nxt & -nxt
                    nxt ^= t
                    tsq = t.bit_length() - 1
                    hit = (
                        movegen.attacked_by(board, them, tsq, clear)
                        if exact
                        else attacked(kinds, theirs, tsq, clear)
                    )
                    if not hit:
                        free |= t
                        if t & camp:
                            break
                if free & camp:
                    best = step
                    break
                if rest:  # no camp square was free: the others of this step carry the road on
                    while rest:
                        t = rest & -rest
                        rest ^= t
                        tsq = t.bit_length() - 1
                        if not (
                            movegen.attacked_by(board, them, tsq, clear)
                            if exact
                            else attacked(kinds, theirs, tsq, clear)
                        ):
                            free |= t
                if not free:
                    break
                frontier = free
        return best

    def _delayed_road(
        self, board: Board, bb: int, them: int, royals: int, attacked: AttackTest, exact: bool
    ) -> int:
        """`road` under campmate_delay, for the royals `bb` against the side `them` (with `road`'s
        enemy royals, attack test and restriction flag): steps to the camp, where a square the
        opponent attacks or our own piece holds costs one step more (the royal waits there a step)
        instead of closing the road; within campmate_reach, 0 when there is none. Enemy royal
        pieces still close it."""
        kinds = board.kind_bb
        occupied = board.occ[0] | board.occ[1]
        own = board.occ[them ^ 1]
        theirs = board.occ[them]
        reach = self.reach
        best = 0
        while bb:
            low = bb & -bb
            bb ^= low
            code = board.mailbox[low.bit_length() - 1]
            moves = self.race_steps[code]
            within = self.race_within[code]
            camp = within[0]
            clear = occupied ^ low
            seen = low | royals
            frontier = low
            held = 0  # squares reached a step ago that cost one more: the royal stands there now
            for step in range(1, reach + 1):
                if best and step >= best:
                    break
                if held & camp:
                    best = step
                    break
                nxt = 0
                while frontier:
                    f = frontier & -frontier
                    frontier ^= f
                    nxt |= moves[f.bit_length() - 1]
                nxt &= within[reach - step] & ~seen
                seen |= nxt
                free = 0
                slow = nxt & own
                nxt &= ~own
                while nxt:
                    t = nxt & -nxt
                    nxt ^= t
                    tsq = t.bit_length() - 1
                    if (
                        movegen.attacked_by(board, them, tsq, clear)
                        if exact
                        else attacked(kinds, theirs, tsq, clear)
                    ):
                        slow |= t
                    else:
                        free |= t
                if free & camp:
                    best = step
                    break
                # the squares held up a step ago join the walk now, if the camp is still in reach
                frontier = free | (held & within[reach - step])
                held = slow & within[reach - step - 1] if step < reach else 0
                if not frontier and not held:
                    break
        return best

    def race(self, board: Board) -> int:
        """White minus Black: the worth (campmate_race_curve; by default campmate_reach + 1 minus the
        steps) of each side's free road (`road`), for the side whose royal arrives first (the side
        to move arrives first when the roads are equal)."""
        occ = board.occ
        kinds = board.kind_bb
        zone = self.race_zone
        near = _union(kinds, self.camp_kinds)
        if not near & ((occ[0] & zone[0]) | (occ[1] & zone[1])):
            return 0  # no royal within reach of its camp: the usual case, one test
        white = self.road(board, 0)
        black = self.road(board, 1)
        if not white and not black:
            return 0
        if white and black:
            # plies to arrive: 2 per step, one fewer for the side to move
            if 2 * white - (board.side == 0) < 2 * black - (board.side == 1):
                black = 0
            else:
                white = 0
        curve = self.race_curve  # curve[0] is 0: no road
        return curve[white] - curve[black]

    def _static_plus_race(self, static: Callable[[Board, int], int]) -> Callable[[Board, int], int]:
        """`static` plus the race term, signed for the side to move. The race's first test (is any
        camp-winning royal within reach of its camp?) is made here for the usual single camp kind,
        so most nodes pay one mask test."""
        race = self.race_score
        white_zone, black_zone = self.race_zone
        kind = self.camp_kinds[0] if len(self.camp_kinds) == 1 else -1

        def with_race(board: Board, packed: int) -> int:
            if kind >= 0:
                occ = board.occ
                if not board.kind_bb[kind] & ((occ[0] & white_zone) | (occ[1] & black_zone)):
                    return static(board, packed)
            r = race(board, packed)
            return static(board, packed) + (r if board.side == 0 else -r)

        return with_race

    def race_score(self, board: Board, packed: int) -> int:
        """The race term alone, tapered by the phase of `packed` (White's point of view)."""
        n = self.race(board)
        if not n:
            return 0
        ph = unpack(packed)[0]
        mg, eg = n * self.race_weight[0], n * self.race_weight[1]
        hi, lo = self.phase_hi, self.phase_lo
        if ph >= hi:
            return mg
        if ph <= lo:
            return eg
        return (mg * (ph - lo) + eg * (hi - ph)) // (hi - lo)

    def evaluate(self, board: Board) -> int:
        """The static score from the side to move's point of view (no search)."""
        packed = self.packed(board)
        white = self.tapered(packed) + self.extras(board, packed)
        return (white if board.side == 0 else -white) + self.tempo


def _plus_race(
    extras: Callable[[Board, int], int], race: Callable[[Board, int], int]
) -> Callable[[Board, int], int]:
    def with_race(board: Board, packed: int) -> int:
        return extras(board, packed) + race(board, packed)

    return with_race


def _union(kind_bb: list[int], kinds: list[int]) -> int:
    """The squares of every piece of these kinds, of either colour."""
    out = 0
    for k in kinds:
        out |= kind_bb[k]
    return out


def _progress(rank: int, goal_ranks: tuple[int, ...], rows: int) -> int:
    """How far a piece on `rank` has come towards the nearest goal rank: 0 farthest, rows-1 on it."""
    if not goal_ranks:
        return 0
    return rows - 1 - min(abs(rank - g) for g in goal_ranks)


def _start_phase(variant: Variant) -> int:
    from hordes.core.fen import parse_fen

    setup = parse_fen(variant, variant.start_fen)
    total = 0
    for code in setup.board:
        if code >= 0:
            piece = variant.pieces[code >> 1]
            if not piece.pawn and not piece.royal:
                total += max(piece.value_mg, 0)
    return total


_EVALUATORS: WeakKeyDictionary[Variant, Evaluator] = WeakKeyDictionary()


def evaluator(variant: Variant) -> Evaluator:
    """The Evaluator of a variant, built once (validating `engine.evaluation`)."""
    ev = _EVALUATORS.get(variant)
    if ev is None:
        ev = _EVALUATORS[variant] = Evaluator(variant)
    return ev
