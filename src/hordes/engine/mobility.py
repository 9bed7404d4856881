"""Piece mobility: the evaluation term `mobility` (docs/engine.md).

A piece counts the squares it could move to now: empty squares its move pattern reaches and enemy
pieces its capture pattern reaches, with the board's blockers in the way, less the squares an enemy
pawn attacks (a piece that goes there is lost for a pawn). The count is set against the piece's
average on an empty board, so that a piece of average reach scores nothing and the material values
keep their meaning; the share is what is weighed, so a Knight's one square counts for about what a
Queen's four do. Everything is read from the document's move patterns: which pieces count (neither
pawn-flagged, nor royal, nor immobile) and what their averages are.

The term is pseudo-legal: pins, restrictions by magnets and other mechanisms are not looked at.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, final

if TYPE_CHECKING:
    from hordes.core.compiled import Compiled
    from hordes.core.position import Board

# A piece's count is scaled by ONE / its empty-board average (rounded), then ONE is taken off: the
# term's unit is one ONE-th of a piece's average reach.
ONE: Final = 256


@final
class Mobility:
    """The kinds that count, each one's scale by code (kind * 2 + colour), and the pawn kinds whose
    attacks close squares."""

    def __init__(self, comp: Compiled) -> None:
        self.comp = comp  # its patterns (and, in the compiled build, their word tables) serve the node
        variant = comp.variant
        size = variant.geometry.size
        self.kinds: list[int] = []
        self.scale: list[int] = [0] * (2 * len(variant.pieces))
        for kind, piece in enumerate(variant.pieces):
            if piece.pawn or piece.royal or piece.immobile:
                continue
            scales = []
            for color in (0, 1):
                gen = comp.gens[color][kind]
                empty = zip(gen.quiet.empty_board(size), gen.capture.empty_board(size), strict=True)
                total = sum((quiet | capture).bit_count() for quiet, capture in empty)
                scales.append(round(ONE * size / total) if total else 0)
            if all(scales):
                self.kinds.append(kind)
                self.scale[kind * 2] = scales[0]
                self.scale[kind * 2 + 1] = scales[1]
        self.guards: list[int] = [k for k, p in enumerate(variant.pieces) if p.pawn]
        self.active = bool(self.kinds)

    def count(self, board: Board) -> int:
        """White's mobility minus Black's, in units of ONE-th of a piece's average reach."""
        kinds = board.kind_bb
        occ = board.occ
        occupied = occ[0] | occ[1]
        gens = board.compiled.gens
        scale = self.scale
        total = 0
        for color in (0, 1):
            own = occ[color]
            enemy = occ[color ^ 1]
            guarded = 0
            for k in self.guards:
                bb = kinds[k] & enemy
                pattern = gens[color ^ 1][k].capture
                while bb:
                    low = bb & -bb
                    bb ^= low
                    guarded |= pattern.attacks(low.bit_length() - 1, occupied)
            side = 0
            for k in self.kinds:
                bb = kinds[k] & own
                if not bb:
                    continue
                gen = gens[color][k]
                f = scale[k * 2 + color]
                while bb:
                    low = bb & -bb
                    bb ^= low
                    sq = low.bit_length() - 1
                    if gen.same:
                        targets = gen.quiet.attacks(sq, occupied) & ~own
                    else:
                        targets = (gen.quiet.attacks(sq, occupied) & ~occupied) | (
                            gen.capture.attacks(sq, occupied) & enemy
                        )
                    side += (targets & ~guarded).bit_count() * f - ONE
            total += side if color == 0 else -side
        return total
