"""Passed pawns: the evaluation term `passed_pawn` (docs/engine.md).

A pawn is passed when no enemy pawn stands ahead of it on its own file or a neighbouring one, so
that no pawn can stop or take it on its way. Its worth grows with the square of the ranks it has
come: a passer on the seventh rank is worth far more than one on the third. Everything is taken
from the document: the promoting pieces of each side that are pawn-flagged count as pawns, their
promotion ranks give the progress, and the enemy's pawn-flagged pieces are the ones that block.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, final

if TYPE_CHECKING:
    from hordes.core.position import Board
    from hordes.core.rules import Variant


@final
class PassedPawns:
    """The tables of one variant: for each side, its pawn kinds, each square's span ahead (own and
    neighbouring files) and each square's worth (the ranks come, minus one, squared)."""

    def __init__(self, variant: Variant, promo_kinds: tuple[frozenset[int], frozenset[int]]) -> None:
        geo = variant.geometry
        rules = variant.rules
        pawns = [k for k, p in enumerate(variant.pieces) if p.pawn]
        self.kinds: list[list[int]] = [sorted(set(pawns) & promo_kinds[c]) for c in (0, 1)]
        self.blockers: list[int] = pawns  # either side's pawn-flagged pieces stop the other's
        self.span: list[list[int]] = []
        self.worth: list[list[int]] = []
        for color in (0, 1):
            goals = rules.promotion[color].ranks
            up = 1 if color == 0 else -1  # White's pawns go up the ranks
            spans: list[int] = []
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
                come = geo.rows - 1 - min(abs(r - g) for g in goals) if goals else 0
                worths.append(max(0, come - 1) ** 2)
            self.span.append(spans)
            self.worth.append(worths)
        self.active = bool(self.kinds[0] or self.kinds[1])

    def score(self, board: Board) -> int:
        """White's passed pawns' worth minus Black's."""
        kinds = board.kind_bb
        occ = board.occ
        blockers = 0
        for k in self.blockers:
            blockers |= kinds[k]
        total = 0
        for color in (0, 1):
            mine = 0
            for k in self.kinds[color]:
                mine |= kinds[k]
            bb = mine & occ[color]
            if not bb:
                continue
            theirs = blockers & occ[color ^ 1]
            span = self.span[color]
            worth = self.worth[color]
            sum_ = 0
            while bb:
                low = bb & -bb
                bb ^= low
                sq = low.bit_length() - 1
                if not span[sq] & theirs:
                    sum_ += worth[sq]
            total += sum_ if color == 0 else -sum_
        return total
