"""The colour pair: the evaluation term `colour_pair` (docs/engine.md).

A colour-bound piece (chess's Bishop) never leaves the colour of the square it stands on, so one of
them reaches half of the board; a side with one on each colour reaches all of it, which is the
bishop pair of chess lore. Which kinds are colour-bound is read from their moves on an empty board,
never from a letter or a name, so a fairy piece such as the Ferz or the Alfil counts in the same way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, final

if TYPE_CHECKING:
    from hordes.core.compiled import Compiled
    from hordes.core.position import Board
    from hordes.core.rules import Variant


@final
class ColourPairs:
    """The colour-bound kinds of a variant and the mask of its light squares."""

    def __init__(self, variant: Variant, comp: Compiled) -> None:
        geo = variant.geometry
        size = geo.size
        self.light = sum(1 << sq for sq in range(size) if (geo.file_of(sq) + geo.rank_of(sq)) % 2)
        self.kinds: list[int] = []
        for kind, piece in enumerate(variant.pieces):
            if piece.royal or piece.immobile:
                continue
            bound = True
            moves = False
            for color in (0, 1):
                gen = comp.gens[color][kind]
                empty = zip(gen.quiet.empty_board(size), gen.capture.empty_board(size), strict=True)
                for sq, (quiet, capture) in enumerate(empty):
                    reach = quiet | capture
                    moves = moves or bool(reach)
                    same = self.light if self.light >> sq & 1 else ~self.light
                    bound = bound and not (reach & ~same)
            if bound and moves:
                self.kinds.append(kind)
        self.active = bool(self.kinds)

    def count(self, board: Board) -> int:
        """1 for each kind of which White holds one on a light and one on a dark square, less the same
        for Black."""
        kinds = board.kind_bb
        occ = board.occ
        light = self.light
        total = 0
        for k in self.kinds:
            for color, sign in ((0, 1), (1, -1)):
                bb = kinds[k] & occ[color]
                if bb & light and bb & ~light:
                    total += sign
        return total

    def lines(self) -> list[str]:
        """Source lines that set `pairs` (as `count`) from `board`, for the pure build's written-out
        node function (Evaluator._node_static_source)."""
        lines = ["    kinds = board.kind_bb", "    white, black = board.occ", "    pairs = 0"]
        for k in self.kinds:
            for own, sign in (("white", "+"), ("black", "-")):
                lines += [
                    f"    bb = kinds[{k}] & {own}",
                    f"    if bb & {self.light} and bb & ~{self.light}:",
                    f"        pairs {sign}= 1",
                ]
        return lines
