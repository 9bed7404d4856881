"""Legal move generation on bitboards.

Moves inside the generator are small ints: from | to << 10 | (promotion kind + 1) << 20 | flags << 26.
The fast path (one royal piece per side, no special mechanisms) computes checkers and pinned pieces
once and filters; anything unusual (en passant, several royals, variant mechanisms) is made and tested.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from hordes.core import words, words_tested
from hordes.core.fastgen import emit_promotions

if TYPE_CHECKING:
    from hordes.core.compiled import Compiled
    from hordes.core.position import Board

SQ_MASK: Final = 1023
TO_SHIFT: Final = 10
PROMO_SHIFT: Final = 20
FLAG_SHIFT: Final = 26
FLAG_CASTLE: Final = 1
FLAG_EP: Final = 2
FLAG_DOUBLE: Final = 4


def encode(frm: int, to: int, promo_kind: int = -1, flags: int = 0) -> int:
    return frm | to << TO_SHIFT | (promo_kind + 1) << PROMO_SHIFT | flags << FLAG_SHIFT


def attacked_by(board: Board, color: int, sq: int, occupied: int) -> bool:
    """Could a piece of `color` capture on `sq` (pseudo-legally), with this occupancy?"""
    comp = board.compiled
    if comp.words is not None:
        return words.attacked(comp.words, board.kind_bb, board.occ[color], color, sq, occupied)
    if comp.restrictions:
        return bool(attackers(board, color, sq, occupied))
    return comp.attacked[color](board.kind_bb, board.occ[color], sq, occupied)


def attackers(board: Board, color: int, sq: int, occupied: int) -> int:
    """Bitboard of the pieces of `color` that could capture on `sq`."""
    comp = board.compiled
    out = comp.attackers[color](board.kind_bb, board.occ[color], sq, occupied)
    if comp.restrictions and out:
        out = _drop_restricted_attackers(board, out, sq)
    return out


def restriction_steps(board: Board, sq: int) -> list[tuple[int, int]]:
    """For the piece on sq: the steps a from each adjacent enemy restrictor to it. A direction v of
    the piece is closed when v . a > 0, i.e. when it leads away from that restrictor."""
    comp = board.compiled
    code = board.mailbox[sq]
    if code < 0 or not comp.restrictable[code >> 1]:
        return []
    enemy = board.occ[(code & 1) ^ 1]
    cols = comp.cols
    out = []
    for kind, table, _ in comp.restrictors:
        found = table[sq] & board.kind_bb[kind] & enemy
        while found:
            low = found & -found
            found ^= low
            m = low.bit_length() - 1
            out.append((sq % cols - m % cols, sq // cols - m // cols))
    return out


def _closed(steps: list[tuple[int, int]], dx: int, dy: int) -> bool:
    return any(dx * ax + dy * ay > 0 for ax, ay in steps)


def _drop_restricted_attackers(board: Board, candidates: int, target: int) -> int:
    cols = board.compiled.cols
    tf, tr = target % cols, target // cols
    bb = candidates
    while bb:
        low = bb & -bb
        bb ^= low
        s = low.bit_length() - 1
        steps = restriction_steps(board, s)
        if steps and _closed(steps, tf - s % cols, tr - s // cols):
            candidates ^= low
    return candidates


def restricted_targets(board: Board, sq: int, steps: list[tuple[int, int]], occupied: int) -> int:
    """Destinations of a restricted piece, walking its Betza components direction by direction."""
    code = board.mailbox[sq]
    color = code & 1
    variant = board.variant
    geo = variant.geometry
    own = board.occ[color]
    enemy = board.occ[color ^ 1]
    f0, r0 = geo.file_of(sq), geo.rank_of(sq)
    out = 0
    for comp in variant.pieces[code >> 1].mobile_components:
        c = comp if color == 0 else comp.for_black()
        for dx, dy in c.vectors:
            if _closed(steps, dx, dy):
                continue
            f, r, n = f0, r0, 0
            while True:
                f, r, n = f + dx, r + dy, n + 1
                if not geo.on_board(f, r) or (c.max_steps and n > c.max_steps):
                    break
                bit = 1 << geo.square(f, r)
                if bit & occupied:
                    if c.capture and bit & enemy:
                        out |= bit
                    break
                if c.move:
                    out |= bit
            out &= ~own
    return out


def royal_squares(board: Board, color: int) -> int:
    bb = 0
    kinds = board.kind_bb
    for k in board.compiled.royal_kinds:
        bb |= kinds[k]
    return bb & board.occ[color]


def in_check(board: Board, color: int) -> bool:
    """Is any royal piece of `color` attacked?"""
    comp = board.compiled
    kinds = board.kind_bb
    occ = board.occ
    royals = 0
    for k in comp.royal_kinds:
        royals |= kinds[k]
    royals &= occ[color]
    occupied = occ[0] | occ[1]
    them = color ^ 1
    if comp.restrictions:
        while royals:
            low = royals & -royals
            if attackers(board, them, low.bit_length() - 1, occupied):
                return True
            royals ^= low
        return False
    theirs = occ[them]
    table = comp.words
    if table is not None:
        while royals:
            low = royals & -royals
            if words.attacked(table, kinds, theirs, them, low.bit_length() - 1, occupied):
                return True
            royals ^= low
        return False
    test = comp.attacked[them]
    while royals:
        low = royals & -royals
        if test(kinds, theirs, low.bit_length() - 1, occupied):
            return True
        royals ^= low
    return False


def held_squares(board: Board, color: int) -> int:
    """Squares where pieces of the other side stand next to a restricting piece of `color`."""
    comp = board.compiled
    out = 0
    theirs = board.occ[color]
    for kind, _, _ in comp.restrictors:
        reach = comp.restrict_reach[kind]
        bb = board.kind_bb[kind] & theirs
        while bb and reach is not None:
            low = bb & -bb
            bb ^= low
            out |= reach[low.bit_length() - 1]
    return out & board.occ[color ^ 1]


def pseudo_targets(board: Board, sq: int, kind: int, color: int, occupied: int) -> int:
    comp = board.compiled
    if comp.restrictions and comp.restrictable[kind]:
        steps = restriction_steps(board, sq)
        if steps:
            return restricted_targets(board, sq, steps, occupied)
    g = comp.gens[color][kind]
    own = board.occ[color]
    if g.same:
        return g.quiet.attacks(sq, occupied) & ~own
    return (g.quiet.attacks(sq, occupied) & ~occupied) | (
        g.capture.attacks(sq, occupied) & board.occ[color ^ 1]
    )


def campmate_reached(board: Board) -> bool:
    comp = board.compiled
    bb = 0
    for k in comp.camp_kinds:
        bb |= board.kind_bb[k]
    occ = board.occ
    return bool(bb & ((occ[0] & comp.camp_zone[0]) | (occ[1] & comp.camp_zone[1])))


def pins(board: Board, royal: int, us: int, occupied: int) -> dict[int, int]:
    """Our pieces that alone stand between the royal square and an enemy rider that could capture
    along that line: {blocker bit: squares it may still move to (the line and the rider)}."""
    comp = board.compiled
    out: dict[int, int] = {}
    snipers = comp.snipers[us ^ 1](board.kind_bb, board.occ[us ^ 1], royal)
    if not snipers:
        return out
    own = board.occ[us]
    between = comp.between
    base = royal * comp.size
    while snipers:
        low = snipers & -snipers
        snipers ^= low
        line = between[base + low.bit_length() - 1]
        blockers = line & occupied
        if blockers and not blockers & (blockers - 1) and blockers & own:
            out[blockers] = line | low
    return out


_NO_PINS: Final[dict[int, int]] = {}


def lines_to(comp: Compiled, square: int, aligned: int) -> int:
    """The squares strictly between `square` and each piece of `aligned` (riders on lines through it)."""
    lines = 0
    between = comp.between
    base = square * comp.size
    while aligned:
        low = aligned & -aligned
        aligned ^= low
        lines |= between[base + low.bit_length() - 1]
    return lines


def _royal_moves(
    comp: Compiled, kinds: list[int], us: int, ksq: int, own: int, enemy: int, noisy: bool, moves: list[int]
) -> None:
    """Append the single royal piece's moves (with `noisy`, its captures and camp steps), each to a
    square that is safe once the piece has left its own."""
    rk = comp.royal_kind
    occupied = own | enemy
    kg = comp.gens[us][rk]
    camp_zone = comp.camp_zone[us] if rk in comp.camp_kinds else 0
    if noisy and not camp_zone:
        t = kg.capture.attacks(ksq, occupied) & enemy
    elif kg.same:
        t = kg.quiet.attacks(ksq, occupied) & ~own
    else:
        t = (kg.quiet.attacks(ksq, occupied) & ~occupied) | (kg.capture.attacks(ksq, occupied) & enemy)
    if noisy:
        t &= enemy | camp_zone
    without_king = occupied ^ 1 << ksq
    test = comp.attacked[us ^ 1]
    while t:
        low = t & -t
        t ^= low
        to = low.bit_length() - 1
        if not test(kinds, enemy, to, without_king):
            moves.append(ksq | to << TO_SHIFT)


def generate_legal(board: Board) -> list[int]:
    """Every legal move; none once the game is won by reaching a camp (as Fairy-Stockfish counts)."""
    return _legal(board, False)


def generate_legal_captures(board: Board) -> list[int]:
    """The legal moves quiescence searches (`is_noisy`): captures, promotions, en passant and moves of
    campmate pieces into their camp. Equal to filtering generate_legal, without generating the rest."""
    return _legal(board, True)


def captures_not_in_check(board: Board) -> list[int]:
    """generate_legal_captures for a caller that knows the side to move is not in check and the game
    is not over by campmate (the search has tested both). Pins are not computed: of the few captures
    found, only those whose piece stands between the royal square and an aligned enemy rider are
    tested, by looking along that line after the capture."""
    comp = board.compiled
    us = board.side
    occ = board.occ
    kinds = board.kind_bb
    rk = comp.royal_kind
    royals = kinds[rk] & occ[us] if rk >= 0 else 0
    if not comp.simple or royals & (royals - 1) or not royals or board.castling & comp.castle_landing[us]:
        return _legal(board, True)
    them = us ^ 1
    own = occ[us]
    enemy = occ[them]
    occupied = own | enemy
    ksq = royals.bit_length() - 1
    moves: list[int] = []
    if comp.words is not None:
        words.captures_not_in_check(comp.words, kinds, own, enemy, us, ksq, moves)
        if board.ep_square >= 0:
            _ep_moves(board, moves, us, occupied)
        return moves
    comp.unpinned_captures[us](kinds, own, enemy, -1, 0, _NO_PINS, moves)
    test = comp.attacked[them]
    # Only a piece between the royal square and an aligned enemy rider can be pinned.
    lines = lines_to(comp, ksq, comp.snipers[them](kinds, enemy, ksq)) & own if moves else 0
    if lines:
        kept = []
        for m in moves:
            frm = m & SQ_MASK
            if lines >> frm & 1:
                to_bb = 1 << (m >> TO_SHIFT & SQ_MASK)
                if test(kinds, enemy & ~to_bb, ksq, occupied ^ 1 << frm | to_bb):
                    continue  # the piece was pinned
            kept.append(m)
        moves = kept
    _royal_moves(comp, kinds, us, ksq, own, enemy, True, moves)
    if board.ep_square >= 0:
        _ep_moves(board, moves, us, occupied)
    return moves


def is_noisy(board: Board, m: int) -> bool:
    """A capture (not a transformation in place), a promotion, en passant, or a campmate piece
    stepping into its camp: the moves quiescence looks at."""
    frm = m & SQ_MASK
    to = m >> TO_SHIFT & SQ_MASK
    if board.mailbox[to] >= 0 and frm != to:
        return True
    if m >> PROMO_SHIFT & 63 or m >> FLAG_SHIFT & FLAG_EP:
        return True
    comp = board.compiled
    return bool(comp.camp_zone[board.side] >> to & 1 and board.mailbox[frm] >> 1 in comp.camp_kinds)


def _legal(board: Board, noisy: bool) -> list[int]:
    comp = board.compiled
    table = comp.words
    if table is None and comp.camp_kinds and campmate_reached(board):
        return []
    us = board.side
    occ = board.occ
    kinds = board.kind_bb
    rk = comp.royal_kind
    royals = kinds[rk] & occ[us] if rk >= 0 else 0
    if not comp.simple or royals & (royals - 1) or not royals:
        if table is not None and comp.camp_kinds and campmate_reached(board):
            return []
        return _generate_by_testing(board, noisy)
    them = us ^ 1
    own = occ[us]
    enemy = occ[them]
    occupied = own | enemy
    ksq = royals.bit_length() - 1
    moves: list[int] = []
    castling = board.castling
    if table is not None:
        # The word generator tests campmate and adds castling but the noisy kind (below): on words,
        # at a fraction of the cost of doing either here on Python ints (a rank-8 bitboard is boxed).
        found = words.legal_moves(
            table, kinds, own, enemy, us, ksq, board.mailbox, noisy, 0 if noisy else castling, moves
        )
        if found == words.CAMP_REACHED:
            return []
        checked = found == 1
        if not noisy:
            castling = 0
    else:
        checked = _fast_moves(board, comp, noisy, ksq, moves)
    if castling and not checked:
        if not noisy:
            _castling_moves(board, moves, ksq, us, occupied)
        elif board.castling & comp.castle_landing[us]:
            # Castling is noisy only where the king lands on its rook's square (odd geometries).
            castles: list[int] = []
            _castling_moves(board, castles, ksq, us, occupied)
            moves += [m for m in castles if is_noisy(board, m)]
    if board.ep_square >= 0:
        _ep_moves(board, moves, us, occupied)
    return moves


def _fast_moves(board: Board, comp: Compiled, noisy: bool, ksq: int, moves: list[int]) -> bool:
    """The fast path's moves but castling and en passant, by fastgen's generated code; returns
    whether the royal piece on ksq is in check (hordes.core.words does the same on 64-bit words)."""
    us = board.side
    them = us ^ 1
    occ = board.occ
    kinds = board.kind_bb
    own = occ[us]
    enemy = occ[them]
    occupied = own | enemy
    size = comp.size
    between = comp.between
    checkers = comp.attackers[them](kinds, enemy, ksq, occupied)  # simple: no restrictions

    pin_masks = pins(board, ksq, us, occupied)
    pinned = 0
    for blocker in pin_masks:
        pinned |= blocker

    if checkers:
        if checkers & (checkers - 1):
            target_mask = 0
        else:
            csq = checkers.bit_length() - 1
            ck = board.mailbox[csq] >> 1
            leap = comp.gens[them][ck].capture.leap
            if leap is not None and leap[csq] >> ksq & 1:
                target_mask = checkers
            else:
                target_mask = checkers | between.get(ksq * size + csq, 0)
    else:
        target_mask = -1

    if target_mask:
        comp.piece_moves[noisy][us](kinds, own, enemy, target_mask, pinned, pin_masks, moves)
    _royal_moves(comp, kinds, us, ksq, own, enemy, noisy, moves)
    return bool(checkers)


def has_legal_move(board: Board) -> bool:
    """Is there any legal move? Usually answered by the first unpinned piece with a destination, so
    quiescence can tell a quiet position from a stalemate without generating every move."""
    comp = board.compiled
    us = board.side
    if comp.camp_kinds and campmate_reached(board):
        return False
    royals = royal_squares(board, us)
    if not comp.simple or royals & (royals - 1) or not royals:
        return bool(_generate_by_testing(board, any_move=True))
    them = us ^ 1
    occ = board.occ
    own = occ[us]
    occupied = own | occ[them]
    kinds = board.kind_bb
    ksq = royals.bit_length() - 1
    if comp.attacked[them](kinds, occ[them], ksq, occupied):
        return bool(generate_legal(board))  # in check: rare here, let the full generator judge
    pin_masks = pins(board, ksq, us, occupied)
    for g in comp.gens[us]:
        if g.royal:
            continue
        bb = kinds[g.kind] & own
        while bb:
            low = bb & -bb
            bb ^= low
            t = pseudo_targets(board, low.bit_length() - 1, g.kind, us, occupied)
            if low in pin_masks:
                t &= pin_masks[low]
            if t:
                return True
    return bool(generate_legal(board))


def has_move_not_in_check(board: Board) -> bool:
    """has_legal_move for a caller that knows the side to move is not in check and the game is not
    over by campmate (quiescence, asking whether a position without captures is a stalemate; the
    search has tested both). A piece off every line from the royal square to an enemy rider cannot
    be pinned, so the first such piece with a destination answers, without the check test or the pin
    search. (The opening lines repeat captures_not_in_check's: a shared helper would cost a call in
    two of the search's hottest functions.)"""
    comp = board.compiled
    us = board.side
    occ = board.occ
    kinds = board.kind_bb
    rk = comp.royal_kind
    royals = kinds[rk] & occ[us] if rk >= 0 else 0
    if not comp.simple or royals & (royals - 1) or not royals:
        return has_legal_move(board)
    own = occ[us]
    enemy = occ[us ^ 1]
    occupied = own | enemy
    ksq = royals.bit_length() - 1
    free = own & ~lines_to(comp, ksq, comp.snipers[us ^ 1](kinds, enemy, ksq))
    for g in comp.gens[us]:
        bb = kinds[g.kind] & free
        if g.royal or not bb:
            continue
        quiet = g.quiet
        capture = g.capture
        while bb:
            low = bb & -bb
            bb ^= low
            sq = low.bit_length() - 1
            if g.same:
                if quiet.attacks(sq, occupied) & ~own:
                    return True
            elif quiet.attacks(sq, occupied) & ~occupied or capture.attacks(sq, occupied) & enemy:
                return True
    return bool(generate_legal(board))


def gives_check(board: Board, m: int) -> bool:
    """Would the legal move m leave a royal piece of the opponent attacked? Equal to pushing m and
    asking in_check, but in the common case only the moved piece and the lines through its origin
    are looked at (the opponent cannot be in check before our move)."""
    comp = board.compiled
    us = board.side
    kinds = board.kind_bb
    occ = board.occ
    rk = comp.royal_kind
    royals = kinds[rk] & occ[us ^ 1] if rk >= 0 else 0
    if rk < 0 or not comp.simple or royals & (royals - 1) or m >> FLAG_SHIFT & (FLAG_CASTLE | FLAG_EP):
        board.push_int(m)
        checked = in_check(board, us ^ 1)
        board.pop_int()
        return checked
    if not royals:
        return False
    ksq = royals.bit_length() - 1
    frm = m & SQ_MASK
    to = m >> TO_SHIFT & SQ_MASK
    promo = m >> PROMO_SHIFT & 63
    g = comp.gens[us][promo - 1 if promo else board.mailbox[frm] >> 1]
    # The moved piece itself (the empty-board reach filters out most moves before the lookup).
    if g.reach[to] >> ksq & 1 and g.capture.attacks(to, (occ[0] | occ[1] | 1 << to) ^ 1 << frm) >> ksq & 1:
        return True
    if comp.rider_reach[us][ksq] >> frm & 1:
        # A line through the origin may have opened: our other pieces, with the new occupancy.
        frm_bb = 1 << frm
        return comp.attacked[us](kinds, occ[us] ^ frm_bb, ksq, (occ[0] | occ[1] | 1 << to) ^ frm_bb)
    return False


_SPECIAL_BITS: Final = (FLAG_CASTLE | FLAG_EP) << FLAG_SHIFT


def gives_check_on_words(board: Board, table: words.Words, m: int) -> bool:
    """gives_check for a variant that the word tables serve (`table` is board.compiled.words, and the
    variant is simple with one royal kind): the search calls it by name in the compiled build."""
    if m & _SPECIAL_BITS:
        return gives_check(board, m)
    found = words.gives_check(table, board.kind_bb, board.occ, board.side, m, board.mailbox)
    return gives_check(board, m) if found < 0 else found == 1


def gives_check_fn(board: Board) -> Callable[[int], bool]:
    """`gives_check` bound to one board, with the compiled tables looked up once (the search asks
    it for nearly every move it considers)."""
    comp = board.compiled
    rk = comp.royal_kind
    if rk < 0 or not comp.simple:
        return lambda m: gives_check(board, m)
    table = comp.words
    if table is not None:
        return lambda m: gives_check_on_words(board, table, m)
    gens = comp.gens
    rider_reach = comp.rider_reach
    attacked = comp.attacked
    snipers = comp.snipers
    mailbox = board.mailbox  # changed in place by push/pop; kind_bb and occ are replaced, so read each time
    special = FLAG_CASTLE | FLAG_EP
    # Squares between the enemy royal and our riders aligned with it, for the position last asked
    # about: only a piece leaving one of them can give a discovered check.
    memo = [-1, 0]

    def gives(m: int) -> bool:
        us = board.side
        kinds = board.kind_bb
        occ = board.occ
        royals = kinds[rk] & occ[us ^ 1]
        if not royals:
            return False
        if royals & (royals - 1) or m >> FLAG_SHIFT & special:
            return gives_check(board, m)
        ksq = royals.bit_length() - 1
        frm = m & SQ_MASK
        to = m >> TO_SHIFT & SQ_MASK
        promo = m >> PROMO_SHIFT & 63
        g = gens[us][promo - 1 if promo else mailbox[frm] >> 1]
        if (
            g.reach[to] >> ksq & 1
            and g.capture.attacks(to, (occ[0] | occ[1] | 1 << to) ^ 1 << frm) >> ksq & 1
        ):
            return True
        if rider_reach[us][ksq] >> frm & 1:
            if memo[0] != board._hash:
                memo[0] = board._hash
                memo[1] = lines_to(comp, ksq, snipers[us](kinds, occ[us], ksq))
            if memo[1] >> frm & 1:
                frm_bb = 1 << frm
                return attacked[us](kinds, occ[us] ^ frm_bb, ksq, (occ[0] | occ[1] | 1 << to) ^ frm_bb)
        return False

    return gives


def _castling_moves(board: Board, moves: list[int], ksq: int, us: int, occupied: int) -> None:
    comp = board.compiled
    rights = board.castling & comp.back_rank[us]
    cols = comp.cols
    them = us ^ 1
    while rights:
        low = rights & -rights
        rights ^= low
        rook = low.bit_length() - 1
        if rook // cols != ksq // cols:
            continue
        k_to, span, path = words.castle_geometry(comp, ksq, rook)
        if span & occupied:
            continue
        step = 1 if k_to > ksq else -1
        occ_wo = occupied ^ (1 << ksq) ^ low
        if comp.words is not None:
            safe = not words.any_attacked(comp.words, board.kind_bb, board.occ[them], them, path, occ_wo)
        else:
            safe = True
            for sq in range(ksq, k_to + step, step):
                if attacked_by(board, them, sq, occ_wo):
                    safe = False
                    break
        if safe:
            moves.append(ksq | k_to << TO_SHIFT | FLAG_CASTLE << FLAG_SHIFT)


def _ep_moves(board: Board, moves: list[int], us: int, occupied: int, *, tested: bool = True) -> None:
    """En passant captures; made and tested unless the caller tests every move itself."""
    comp = board.compiled
    ep = board.ep_square
    kinds = board.kind_bb
    own = board.occ[us]
    for k in comp.pawn_kinds:
        g = comp.gens[us][k]
        bb = kinds[k] & own
        while bb:
            low = bb & -bb
            bb ^= low
            sq = low.bit_length() - 1
            if g.capture.attacks(sq, occupied) >> ep & 1:
                m = sq | ep << TO_SHIFT | FLAG_EP << FLAG_SHIFT
                if not tested or board.is_safe_after(m):
                    moves.append(m)


def generate_pseudo(board: Board, noisy: bool = False) -> list[int]:
    """Every move ignoring royal safety (used by the make-and-test path). With `noisy`, ordinary moves
    only to squares where they could be noisy (a superset of is_noisy: the caller filters)."""
    comp = board.compiled
    us = board.side
    occ = board.occ
    own = occ[us]
    occupied = own | occ[us ^ 1]
    empty = ~occupied
    kinds = board.kind_bb
    moves: list[int] = []
    zone_all = comp.promo_zone[us]
    choices = comp.promo_choices[us]
    enemy = occ[us ^ 1]
    held = held_squares(board, us ^ 1) if comp.restrictions else 0
    for g in comp.gens[us]:
        bb = kinds[g.kind] & own
        if not bb or (g.quiet.empty and g.capture.empty):
            continue
        quiet, capture, same = g.quiet, g.capture, g.same
        wanted = -1
        if noisy:
            wanted = enemy | (zone_all if g.promotes else 0)
            if g.kind in comp.camp_kinds:
                wanted |= comp.camp_zone[us]
        while bb:
            low = bb & -bb
            bb ^= low
            sq = low.bit_length() - 1
            if held & low:
                t = pseudo_targets(board, sq, g.kind, us, occupied)
            elif same:
                t = quiet.attacks(sq, occupied) & ~own
            else:
                t = (quiet.attacks(sq, occupied) & empty) | (capture.attacks(sq, occupied) & enemy)
            if g.pawn and comp.double_step[us] & low:
                one = sq + comp.forward[us]
                two = one + comp.forward[us]
                if empty >> one & 1 and 0 <= two < comp.size and empty >> two & 1:
                    moves.append(sq | two << TO_SHIFT | FLAG_DOUBLE << FLAG_SHIFT)
            t &= wanted
            if t:
                emit_promotions(moves, sq, t, zone_all if g.promotes else 0, choices)
    if not comp.simple:
        _mechanism_moves(board, moves, us, occupied)
    royals = royal_squares(board, us)
    if board.castling and royals and not royals & (royals - 1) and not in_check(board, us):
        _castling_moves(board, moves, royals.bit_length() - 1, us, occupied)
    if board.ep_square >= 0:
        _ep_moves(board, moves, us, occupied, tested=False)
    return moves


def _mechanism_moves(board: Board, moves: list[int], us: int, occupied: int) -> None:
    """Transformations in place (from == to) and pulls by magnets (the pulled piece's from and to)."""
    comp = board.compiled
    mailbox = board.mailbox
    bb = board.occ[us]
    while bb:
        low = bb & -bb
        bb ^= low
        sq = low.bit_length() - 1
        code = mailbox[sq]
        if comp.transform_code[code] >= 0:
            moves.append(sq | sq << TO_SHIFT)
        rays = comp.pull_rays[code >> 1]
        if rays:
            for ray in rays[sq]:
                for i, s in enumerate(ray):
                    if occupied >> s & 1:
                        if i:
                            moves.append(s | ray[0] << TO_SHIFT)
                        break


def _generate_by_testing(board: Board, noisy: bool = False, any_move: bool = False) -> list[int]:
    """Pseudo-legal moves, made and tested only where they could endanger a royal piece. `noisy`: only
    is_noisy moves; `any_move`: stop at the first legal move (a list of at most one)."""
    comp = board.compiled
    if comp.tested is not None and not board.castling and board.ep_square < 0:
        return words_tested.legal_moves(
            comp.tested, board.kind_bb, board.occ, board.side, board.mailbox, noisy, any_move
        )
    moves = generate_pseudo(board, noisy)
    if not comp.simple:
        moves = list(dict.fromkeys(moves))  # a pull and an ordinary move with the same squares are one move
    if noisy:
        moves = [m for m in moves if is_noisy(board, m)]
    us = board.side
    if in_check(board, us):
        if any_move:
            return next(([m] for m in moves if board.is_safe_after(m)), [])
        return [m for m in moves if board.is_safe_after(m)]
    # Our pieces that alone stand between a royal and an enemy rider: only moves that take one of them
    # away can open a line (restrictions are ignored here, which only means testing a few moves more).
    # Leaper attacks never depend on what moves.
    mailbox = board.mailbox
    enemy = board.occ[us ^ 1]
    own = board.occ[us]
    occupied = own | enemy
    lines = 0
    royals = royal_squares(board, us)
    while royals:
        low = royals & -royals
        royals ^= low
        if comp.lines_unique:
            for blocker in pins(board, low.bit_length() - 1, us, occupied):
                lines |= blocker
        else:  # a sniper's path is not known from the squares alone: every piece on one may be pinned
            sq = low.bit_length() - 1
            lines |= lines_to(comp, sq, comp.snipers[us ^ 1](board.kind_bb, enemy, sq)) & own
    our_royals = royal_squares(board, us)
    restrictable = 0
    for kind, flag in enumerate(comp.restrictable):
        if flag:
            restrictable |= board.kind_bb[kind]
    restrictable &= enemy
    out = []
    for m in moves:
        frm = m & SQ_MASK
        to = m >> TO_SHIFT & SQ_MASK
        code = mailbox[frm]
        kind = code >> 1
        if lines >> frm & 1 or code & 1 != us or m >> FLAG_SHIFT:
            risky = True  # a line may open, an enemy piece moves (a pull), or a special move
        elif frm == to:
            # Changing shape in place: a royal stays where it is; a restrictor that stops being one
            # frees the enemy pieces it was holding.
            reach = comp.restrict_reach[kind]
            risky = bool(reach and reach[frm] & restrictable)
        elif comp.royal_or_restrictor[kind]:
            risky = True
        elif comp.owner_change[kind] and enemy >> to & 1:
            # The capturer becomes the enemy's on `to`: only dangerous if it then attacks a royal.
            risky = bool(comp.gens[us ^ 1][kind].capture.attacks(to, occupied ^ (1 << frm)) & our_royals)
        else:
            risky = False
        if not risky or board.is_safe_after(m):
            out.append(m)
            if any_move:
                break
    return out
