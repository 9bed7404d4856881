"""The non-royal part of the fast legal generator, written out as straight-line Python per variant.

A loop over piece kinds that asks each kind's pattern "leaper? riders? same for captures?" costs
CPython more than the table lookups themselves. So for each colour (and for the full and the
captures-only generator) the loop is unrolled here into source with the tables as default arguments
and the answers to those questions decided once. Pawns (leaper-only kinds marked `pawn`) are generated
set-wise: one shift per step vector moves every unpinned pawn at once, so a position with eight
pawns and nothing to capture costs two shifts instead of eight loop turns. Pinned pawns go through
the per-square loop. Moves come kind by kind; within a pawn kind, by vector.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from hordes.buildinfo import is_compiled

if TYPE_CHECKING:
    from hordes.core.compiled import Compiled, KindGen

# pieces(kind_bb, own, enemy, target_mask, pinned, pin_masks, moves) appends the non-royal moves.
PieceMoves = Callable[[list[int], int, int, int, int, dict[int, int], list[int]], None]

TO_SHIFT: Final = 10
PROMO_SHIFT: Final = 20
DOUBLE: Final = 4 << 26  # FLAG_DOUBLE << FLAG_SHIFT (movegen's encoding)
# The bits a compiled int holds unboxed: mypyc keeps ints below 2**62 as machine words and computes
# with them natively, while a chess bitboard with a piece on g8 or h8 is a boxed Python int, whose
# every operation allocates. The bit loops below split a bitboard at bit 62 to stay native.
NATIVE_BITS: Final = 62
NATIVE_MASK: Final = (1 << NATIVE_BITS) - 1


def emit_targets(moves: list[int], frm: int, targets: int) -> None:
    """One move from `frm` to each target (a non-negative bitboard). The generated code of the
    compiled build calls this instead of looping itself: compiled, the loop costs a quarter as
    much (docs/benchmarks.md, issue 17)."""
    low_part = targets & NATIVE_MASK
    while low_part:
        b = low_part & -low_part
        moves.append(frm | (b.bit_length() - 1) << TO_SHIFT)
        low_part ^= b
    high = targets >> NATIVE_BITS
    while high:
        b = high & -high
        moves.append(frm | (b.bit_length() + NATIVE_BITS - 1) << TO_SHIFT)
        high ^= b


def emit_promotions(moves: list[int], frm: int, targets: int, zone: int, choices: tuple[int, ...]) -> None:
    """Targets in the promotion zone become one move per choice; the others plain moves."""
    promo = targets & zone
    targets ^= promo
    while promo:
        low = promo & -promo
        to = low.bit_length() - 1
        for c in choices:
            moves.append(frm | to << TO_SHIFT | (c + 1) << PROMO_SHIFT)
        promo ^= low
    emit_targets(moves, frm, targets)


def emit_shifted(moves: list[int], targets: int, delta: int, zone: int, choices: tuple[int, ...]) -> None:
    """Moves to each target from the square `delta` behind it; in the zone, one per promotion choice."""
    if zone and targets & zone:
        promo = targets & zone
        targets ^= promo
        while promo:
            low = promo & -promo
            to = low.bit_length() - 1
            for c in choices:
                moves.append(to - delta | to << TO_SHIFT | (c + 1) << PROMO_SHIFT)
            promo ^= low
    low_part = targets & NATIVE_MASK
    while low_part:
        low = low_part & -low_part
        to = low.bit_length() - 1
        moves.append(to - delta | to << TO_SHIFT)
        low_part ^= low
    high = targets >> NATIVE_BITS
    while high:
        low = high & -high
        to = low.bit_length() + NATIVE_BITS - 1
        moves.append(to - delta | to << TO_SHIFT)
        high ^= low


def leap_vectors(leap: list[int], cols: int) -> list[tuple[int, int]]:
    """The square deltas of a leaper table, each with the squares it can leave from:
    [(delta, origin mask)], delta = target - origin (a fixed number on a rectangular board)."""
    origins: dict[tuple[int, int], int] = {}
    for sq, bb in enumerate(leap):
        while bb:
            low = bb & -bb
            bb ^= low
            to = low.bit_length() - 1
            v = (to % cols - sq % cols, to // cols - sq // cols)
            origins[v] = origins.get(v, 0) | 1 << sq
    return [(dx + dy * cols, mask) for (dx, dy), mask in sorted(origins.items())]


def _shift(expr: str, delta: int) -> str:
    return f"({expr} << {delta})" if delta >= 0 else f"({expr} >> {-delta})"


def _setwise_pawns(
    comp: Compiled, g: KindGen, us: int, noisy: bool, zone: int, camp: int, unpinned: bool
) -> list[str]:
    """Source lines that emit the moves of every unpinned pawn of kind g.kind with shifts, then
    leave the pinned ones in `bb` for the per-square loop."""
    assert g.quiet.leap is not None and g.capture.leap is not None
    k = g.kind
    lines = ["        free = bb" if unpinned else "        free = bb & ~pinned", "        if free:"]
    if not noisy or zone | camp:
        for delta, origin in leap_vectors(g.quiet.leap, comp.cols):
            lines.append(f"            t = {_shift(f'(free & {origin})', delta)} & empty & wanted")
            lines.append(f"            if t: shifted(moves, t, {delta}, {zone}, CH{k})")
    if g.pawn and comp.double_step[us] and (not noisy or camp):
        fwd = comp.forward[us]
        full = (1 << comp.size) - 1
        one = _shift(f"(free & {comp.double_step[us]})", fwd)
        lines += [
            f"            t = {_shift(f'({one} & empty)', fwd)} & empty & wanted & {full}",
            "            while t:",
            "                low = t & -t",
            "                to = low.bit_length() - 1",
            f"                append(to - {2 * fwd} | to << {TO_SHIFT} | {DOUBLE})",
            "                t ^= low",
        ]
    for delta, origin in leap_vectors(g.capture.leap, comp.cols):
        lines.append(f"            t = {_shift(f'(free & {origin})', delta)} & enemy & wanted")
        lines.append(f"            if t: shifted(moves, t, {delta}, {zone}, CH{k})")
    lines.append("        bb = 0" if unpinned else "        bb &= pinned")
    return lines


def build_piece_moves(
    comp: Compiled, us: int, noisy: bool, unpinned: bool = False, call_targets: bool | None = None
) -> PieceMoves:
    """The non-royal moves of side `us` (with `noisy`, only what quiescence plays). With `unpinned`
    (noisy only), the function ignores target_mask, pinned and pin_masks: it is for a side not in
    check whose pins are tested afterwards, and saves their per-piece tests. `call_targets`: hand
    each piece's targets to emit_targets (the default in the compiled build) or loop inline (the
    default in the pure one, where the call costs more than the loop)."""
    env: dict[str, object] = {"emit": emit_promotions, "shifted": emit_shifted, "targets": emit_targets}
    if call_targets is None:
        call_targets = is_compiled(sys.modules[__name__])
    body = [
        "    occupied = own | enemy",
        "    empty = ~occupied",
        "    not_own = ~own",
        "    append = moves.append",
    ]
    for g in comp.gens[us]:
        if g.royal or (g.quiet.empty and g.capture.empty):
            continue
        k = g.kind
        zone = comp.promo_zone[us] if g.promotes else 0
        camp = comp.camp_zone[us] if k in comp.camp_kinds else 0
        env[f"CH{k}"] = comp.promo_choices[us]
        quiet = g.quiet.expr(f"Q{k}", env)
        capture = g.capture.expr(f"C{k}", env)
        double = g.pawn and comp.double_step[us] and (not noisy or camp)
        body.append(f"    bb = kinds[{k}] & own")
        body.append("    if bb:")
        if unpinned:
            body.append(f"        wanted = enemy | {zone | camp}")
        elif noisy:
            # Only captures, promotions and steps into the camp.
            body.append(f"        wanted = target_mask & (enemy | {zone | camp})")
        else:
            body.append("        wanted = target_mask")
        setwise = (
            g.pawn and not g.same and not g.quiet.rides and not g.capture.rides
            and g.quiet.leap is not None and g.capture.leap is not None
        )  # fmt: skip
        if setwise:
            body += _setwise_pawns(comp, g, us, noisy, zone, camp, unpinned)
        body.append("        while bb and wanted:")
        body.append("            low = bb & -bb")
        body.append("            bb ^= low")
        body.append("            sq = low.bit_length() - 1")
        if unpinned and g.same:
            body.append(f"            t = {quiet} & not_own & wanted")
        elif unpinned and not zone | camp:
            body.append(f"            t = {capture} & enemy")
        elif unpinned:
            body.append(f"            t = (({quiet} & empty) | ({capture} & enemy)) & wanted")
        elif g.same:
            body.append(f"            t = {quiet} & not_own")
        elif noisy and not zone | camp:
            body.append(f"            t = {capture} & enemy")
        else:
            body.append(f"            t = ({quiet} & empty) | ({capture} & enemy)")
        if double:
            fwd = comp.forward[us]
            body += [
                f"            if {comp.double_step[us]} & low:",
                f"                one = sq + {fwd}",
                "                if empty >> one & 1:",
                f"                    two = one + {fwd}",
                f"                    if 0 <= two < {comp.size} and empty >> two & 1 and wanted >> two & 1:",
                "                        if not pinned & low or pin_masks[low] >> two & 1:",
                f"                            append(sq | two << {TO_SHIFT} | {DOUBLE})",
            ]
        if not unpinned:
            body.append("            t &= wanted")
            body.append("            if pinned & low:")
            body.append("                t &= pin_masks[low]")
        indent = "            "
        if zone:
            body.append(f"            if t & {zone}:")
            body.append(f"                emit(moves, sq, t, {zone}, CH{k})")
            body.append("                continue")
        if call_targets:
            body.append(f"{indent}if t: targets(moves, sq, t)")
        else:
            body += [
                f"{indent}while t:",
                f"{indent}    b = t & -t",
                f"{indent}    append(sq | (b.bit_length() - 1) << {TO_SHIFT})",
                f"{indent}    t ^= b",
            ]
    names = "".join(f", {n}={n}" for n in env)
    args = "kinds, own, enemy, target_mask, pinned, pin_masks, moves"
    source = "\n".join([f"def pieces({args}{names}):", *body, "    return None"])
    scope: dict[str, object] = dict(env)
    exec(source, scope)
    fn: PieceMoves = scope["pieces"]  # type: ignore[assignment]
    return fn
