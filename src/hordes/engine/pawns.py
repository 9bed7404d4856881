"""Pawn structure: the evaluation terms `passed_pawn`, `isolated_pawn` and `doubled_pawn`
(docs/engine.md).

A pawn is passed when no enemy pawn stands ahead of it on its own file or a neighbouring one, so
that no pawn can stop or take it on its way. Its worth grows with the square of the ranks it has
come: a passer on the seventh rank is worth far more than one on the third. A pawn is isolated when
no pawn of its own side stands on a neighbouring file, so no pawn can ever guard it; it is doubled
when a pawn of its own side stands ahead of it on its file (a pair of doubled pawns counts once).
Everything is taken from the document: the promoting pieces of each side that are pawn-flagged count
as pawns, their promotion ranks give the progress, and the enemy's pawn-flagged pieces are the ones
that block.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, final

if TYPE_CHECKING:
    from hordes.core.position import Board
    from hordes.core.rules import Variant

# The names `PawnStructure.lines` gives its three counts, in the order of `counts`.
COUNTS: Final = ("passed", "isolated", "doubled")


@final
class PawnStructure:
    """The tables of one variant: for each side, its pawn kinds, each square's span ahead (own and
    neighbouring files), the part of it on its own file, and each square's worth as a passer (the
    ranks come, minus one, squared); for every square, the neighbouring files."""

    def __init__(
        self, variant: Variant, promo_kinds: tuple[frozenset[int], frozenset[int]], *, structure: bool = True
    ) -> None:
        geo = variant.geometry
        # Are isolated and doubled pawns counted? Where neither is weighed, only passers are: the two
        # tests per pawn would cost every node for nothing.
        self.structure = structure
        rules = variant.rules
        pawns = [k for k, p in enumerate(variant.pieces) if p.pawn]
        self.kinds: list[list[int]] = [sorted(set(pawns) & promo_kinds[c]) for c in (0, 1)]
        self.blockers: list[int] = pawns  # either side's pawn-flagged pieces stop the other's
        files = [sum(1 << geo.square(f, r) for r in range(geo.rows)) for f in range(geo.cols)]
        self.adjacent: list[int] = [
            sum(files[f] for f in (geo.file_of(sq) - 1, geo.file_of(sq) + 1) if 0 <= f < geo.cols)
            for sq in range(geo.size)
        ]
        self.span: list[list[int]] = []
        self.ahead: list[list[int]] = []
        self.worth: list[list[int]] = []
        for color in (0, 1):
            goals = rules.promotion[color].ranks
            up = 1 if color == 0 else -1  # White's pawns go up the ranks
            spans: list[int] = []
            aheads: list[int] = []
            worths: list[int] = []
            for sq in range(geo.size):
                f, r = geo.file_of(sq), geo.rank_of(sq)
                span = 0
                rank = r + up
                while 0 <= rank < geo.rows:
                    for file in (f - 1, f, f + 1):
                        if 0 <= file < geo.cols:
                            span |= 1 << geo.square(file, rank)
                    rank += up
                spans.append(span)
                aheads.append(span & files[f])
                come = geo.rows - 1 - min(abs(r - g) for g in goals) if goals else 0
                worths.append(max(0, come - 1) ** 2)
            self.span.append(spans)
            self.ahead.append(aheads)
            self.worth.append(worths)
        self.active = bool(self.kinds[0] or self.kinds[1])

    def score(self, board: Board) -> int:
        """White's passed pawns' worth minus Black's."""
        return self.counts(board)[0]

    def counts(self, board: Board) -> tuple[int, int, int]:
        """(passed pawns' worth, isolated pawns, doubled pawns), each White's minus Black's."""
        kinds = board.kind_bb
        occ = board.occ
        blockers = 0
        for k in self.blockers:
            blockers |= kinds[k]
        passed = isolated = doubled = 0
        adjacent = self.adjacent
        structure = self.structure
        for color in (0, 1):
            mine = 0
            for k in self.kinds[color]:
                mine |= kinds[k]
            bb = mine & occ[color]
            if not bb:
                continue
            own = bb
            theirs = blockers & occ[color ^ 1]
            span = self.span[color]
            ahead = self.ahead[color]
            worth = self.worth[color]
            p = i = d = 0
            while bb:
                low = bb & -bb
                bb ^= low
                sq = low.bit_length() - 1
                if not span[sq] & theirs:
                    p += worth[sq]
                if structure:
                    if not adjacent[sq] & own:
                        i += 1
                    if ahead[sq] & own:
                        d += 1
            if color == 0:
                passed, isolated, doubled = p, i, d
            else:
                passed, isolated, doubled = passed - p, isolated - i, doubled - d
        return passed, isolated, doubled

    def tables(self) -> dict[str, list[int]]:
        """The tables that `lines` reads, by the names it gives them."""
        named: dict[str, list[int]] = {"padjacent": self.adjacent}
        for c in (0, 1):
            named[f"pspan{c}"] = self.span[c]
            named[f"pahead{c}"] = self.ahead[c]
            named[f"pworth{c}"] = self.worth[c]
        return named

    def lines(self) -> list[str]:
        """Source lines that set `passed`, `isolated` and `doubled` (as `counts`) from `board`, for
        the pure build's written-out node function (Evaluator._node_static_source)."""
        blockers = " | ".join(f"kinds[{k}]" for k in self.blockers) or "0"
        lines = [
            "    kinds = board.kind_bb",
            "    white, black = board.occ",
            f"    blockers = {blockers}",
            "    passed = isolated = doubled = 0",
        ]
        for color, own, other, sign in ((0, "white", "black", "+"), (1, "black", "white", "-")):
            if not self.kinds[color]:
                continue
            mine = " | ".join(f"kinds[{k}]" for k in self.kinds[color])
            lines += [
                f"    bb = own = ({mine}) & {own}",
                f"    theirs = blockers & {other}",
                "    while bb:",
                "        low = bb & -bb",
                "        bb ^= low",
                "        sq = low.bit_length() - 1",
                f"        if not pspan{color}[sq] & theirs:",
                f"            passed {sign}= pworth{color}[sq]",
            ]
            if self.structure:
                lines += [
                    "        if not padjacent[sq] & own:",
                    f"            isolated {sign}= 1",
                    f"        if pahead{color}[sq] & own:",
                    f"            doubled {sign}= 1",
                ]
        return lines
