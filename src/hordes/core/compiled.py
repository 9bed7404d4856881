"""A variant compiled for move generation: per kind and colour patterns, attack groups, Zobrist keys.

Built once per Variant object and cached, so every Board of that variant shares it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from weakref import WeakKeyDictionary

from hordes.core.betza import Component, Vector
from hordes.core.fastgen import PieceMoves, build_piece_moves
from hordes.core.geometry import Geometry
from hordes.core.rules import Variant
from hordes.core.tables import (
    TABLE_BUDGET,
    AnyRider,
    Leap,
    Pattern,
    TableBudget,
    between_table,
    build_pattern,
    leap_table,
)
from hordes.core.words import Words, build_words, use_words
from hordes.core.words_tested import Tested, build_tested


def ray_squares(geo: Geometry, sq: int, d: Vector) -> list[int]:
    """The squares from sq outward in direction d, nearest first."""
    out = []
    f, r = geo.file_of(sq) + d[0], geo.rank_of(sq) + d[1]
    while geo.on_board(f, r):
        out.append(geo.square(f, r))
        f, r = f + d[0], r + d[1]
    return out


ZOBRIST_SEED = 0x5EED_0F_40DE5


@dataclass(slots=True)
class KindGen:
    """How one piece kind of one colour moves: quiet and capture patterns (shared object when equal)."""

    kind: int
    quiet: Pattern
    capture: Pattern
    same: bool  # quiet and capture patterns are identical: one lookup serves both
    pawn: bool
    royal: bool
    promotes: bool
    reach: list[int]  # [square] capture destinations on an empty board: a cheap filter before the lookup


# attacked(kind_bb, their_occupancy, square, occupied) -> could one of those pieces capture on square?
AttackTest = Callable[[list[int], int, int, int], bool]
# attackers(kind_bb, their_occupancy, square, occupied) -> the pieces that could (restrictions ignored)
AttackSet = Callable[[list[int], int, int, int], int]
# snipers(kind_bb, their_occupancy, square) -> their riders that would capture on square on an empty board
SniperSet = Callable[[list[int], int, int], int]


@dataclass(slots=True)
class Compiled:
    variant: Variant
    size: int
    cols: int
    gens: list[list[KindGen]]  # [color][kind]
    leap_groups: list[list[tuple[Leap, tuple[int, ...]]]]  # [attacker color]
    rider_groups: list[list[tuple[AnyRider, tuple[int, ...]]]]  # [attacker color]
    between: dict[int, int]
    royal_kinds: tuple[int, ...]
    royal_kind: int  # the one royal kind, or -1 when there are none or several
    pawn_kinds: tuple[int, ...]
    forward: tuple[int, int]
    double_step: tuple[int, int]  # bitboards of squares a pawn may double-step from
    promo_zone: tuple[int, int]
    promo_kinds: tuple[frozenset[int], frozenset[int]]
    promo_choices: tuple[tuple[int, ...], tuple[int, ...]]
    camp_kinds: tuple[int, ...]
    camp_zone: tuple[int, int]
    back_rank: tuple[int, int]
    castle_landing: tuple[int, int]  # back-rank squares a castling king lands on (files c and g in chess)
    castle_files: tuple[int, int]  # the files of those squares, queenside and kingside
    # [square] on either back rank, where castling rights live: only a move from or to one, or a
    # royal move, can change them (push_int skips the test on a 64-bit bitboard for the others).
    on_back_rank: list[bool]
    reset_kinds: tuple[frozenset[int], frozenset[int]]
    z_piece: list[list[int]]  # [code][square]
    z_turn: int
    z_castle: list[int]  # [square]
    z_ep: list[int]  # [file]
    simple: bool  # no special mechanism, lines_unique: the fast pin/check legal generator applies
    # No rider direction is a multiple of another (as W and D, or F and A are), so the squares
    # between two aligned squares are one path, whichever rider stands on the far one.
    lines_unique: bool
    rook_kind: int
    # Mechanisms (Hordes of Change and any document that switches them on):
    transform_code: list[int]  # [code] -> code after transforming in place, or -1
    owner_change: list[bool]  # [kind] a capture by this kind hands it to the opponent
    pull_rays: list[list[list[list[int]]]]  # [kind][square] -> rays (squares outward) it pulls along
    restrictable: list[bool]  # [kind]
    restrictors: list[tuple[int, list[int], tuple[Vector, ...]]]  # (kind, reverse step table, step vectors)
    restrictions: bool  # some piece restricts others
    royal_or_restrictor: list[bool]  # [kind] moves of these are always made and tested
    restrict_reach: list[Leap | None]  # [kind] squares a restricting piece holds, from its square
    rider_reach: tuple[list[int], list[int]]  # [attacker color][square] squares riders could capture from
    # En passant (Board._ep_capturable), by capturing colour: each pawn kind whose capture pattern only
    # leaps, with the squares it captures on each square from; the pawn kinds whose pattern rides.
    ep_leapers: tuple[list[tuple[int, Leap]], list[tuple[int, Leap]]]
    ep_riders: tuple[tuple[int, ...], tuple[int, ...]]
    attacked: tuple[AttackTest, AttackTest]  # [attacker color], restrictions ignored
    attackers: tuple[AttackSet, AttackSet]  # [attacker color]
    snipers: tuple[SniperSet, SniperSet]  # [attacker color]
    piece_moves: tuple[list[PieceMoves], list[PieceMoves]] = ([], [])  # [noisy][color], see fastgen
    unpinned_captures: tuple[PieceMoves, ...] = ()  # [color]: noisy, for a side not in check (fastgen)
    # The fast path on 64-bit words (hordes.core.words: its generators, attack test and gives_check):
    # boards of at most 64 squares, in the compiled build; None elsewhere (fastgen's code serves).
    words: Words | None = None
    # The make-and-test generator on words (hordes.core.words_tested), where the fast path does not
    # serve: mechanisms or several royal pieces; the same builds and boards, None elsewhere.
    tested: Tested | None = None


def _oriented(components: tuple[Component, ...], color: int) -> list[Component]:
    return [c if color == 0 else c.for_black() for c in components]


def _reversed(leap: Leap) -> Leap:
    """[square] the squares whose leap table holds that square."""
    out = [0] * len(leap)
    for frm, targets in enumerate(leap):
        while targets:
            low = targets & -targets
            out[low.bit_length() - 1] |= 1 << frm
            targets ^= low
    return out


def _signed64(z: int) -> int:
    """A random 64-bit key as the signed value with the same bits. Keys XORed together stay signed
    64-bit values, which the compiled Board keeps in a native i64 (Board.zobrist_hash gives the
    unsigned one)."""
    return z - (1 << 64) if z >> 63 else z


def compile_variant(variant: Variant) -> Compiled:
    geo = variant.geometry
    rules = variant.rules
    gens: list[list[KindGen]] = [[], []]
    leap_groups: list[list[tuple[Leap, tuple[int, ...]]]] = [[], []]
    rider_groups: list[list[tuple[AnyRider, tuple[int, ...]]]] = [[], []]
    rider_dirs: set[Vector] = set()
    # One for all the patterns, so the variant's tables stay bounded (tighter for some: limit_tables).
    budget = TableBudget(_TABLE_LIMITS.get(variant, TABLE_BUDGET))
    promo_kinds = tuple(frozenset(variant.kind_of(x) for x in rules.promotion[c].pieces) for c in (0, 1))
    for color in (0, 1):
        leap_map: dict[int, tuple[Leap, list[int]]] = {}
        rider_map: dict[int, tuple[AnyRider, list[int]]] = {}
        for kind, piece in enumerate(variant.pieces):
            comps = _oriented(piece.mobile_components, color)
            quiet = build_pattern(geo, [c for c in comps if c.move], budget)
            capture = build_pattern(geo, [c for c in comps if c.capture], budget)
            same = all(c.move and c.capture for c in comps)
            gens[color].append(
                KindGen(
                    kind,
                    quiet,
                    quiet if same else capture,
                    same,
                    piece.pawn,
                    piece.royal,
                    kind in promo_kinds[color],
                    (quiet if same else capture).empty_board(geo.size),
                )
            )
            # Where must a piece of this kind stand to capture on a square? The reversed capture vectors.
            reverse = build_pattern(geo, [c.reversed() for c in comps if c.capture], budget)
            if reverse.leap is not None:
                leap_map.setdefault(id(reverse.leap), (reverse.leap, []))[1].append(kind)
            for rider in reverse.all_riders:
                rider_map.setdefault(id(rider), (rider, []))[1].append(kind)
                rider_dirs.update(rider.directions)
        leap_groups[color] = [(t, tuple(k)) for t, k in leap_map.values()]
        rider_groups[color] = [(r, tuple(k)) for r, k in rider_map.values()]
    rng = random.Random(ZOBRIST_SEED ^ geo.size)
    ncodes = 2 * len(variant.pieces)
    z_piece = [[_signed64(rng.getrandbits(64)) for _ in range(geo.size)] for _ in range(ncodes)]
    rows = geo.rows
    promo_zone = tuple(
        geo.parse_rank_list([r + 1 for r in rules.promotion[c].ranks]) | _squares(rules.promotion[c].squares)
        for c in (0, 1)
    )
    camp = rules.campmate
    pawn_kinds = tuple(i for i, p in enumerate(variant.pieces) if p.pawn)
    resets = []
    for color in (0, 1):
        letters = rules.n_move_reset[color]
        resets.append(frozenset(variant.kind_of(x) for x in letters) if letters else frozenset(pawn_kinds))
    mechanisms = any(
        p.changes_owner_on_capture or p.transforms_to or p.pull_components or p.restricts
        for p in variant.pieces
    )
    longest = max(geo.rows, geo.cols)
    lines_unique = not any((k * dx, k * dy) in rider_dirs for dx, dy in rider_dirs for k in range(2, longest))
    simple = not mechanisms and lines_unique
    transform_code = [-1] * ncodes
    for kind, piece in enumerate(variant.pieces):
        if piece.transforms_to is not None:
            target = variant.kind_of(piece.transforms_to)
            transform_code[kind * 2] = target * 2
            transform_code[kind * 2 + 1] = target * 2 + 1
    pull_rays: list[list[list[list[int]]]] = []
    for piece in variant.pieces:
        dirs = [v for c in piece.pull_components for v in c.vectors]
        pull_rays.append([[ray_squares(geo, sq, d) for d in dirs] for sq in range(geo.size)] if dirs else [])
    restrictors = []
    for kind, piece in enumerate(variant.pieces):
        if piece.restrict_components:
            steps = tuple(v for c in piece.restrict_components for v in c.vectors)
            # A restrictor on m holds the piece on m + a; seen from that piece, it stands at -a.
            restrictors.append((kind, leap_table(geo, tuple(sorted((-dx, -dy) for dx, dy in steps))), steps))
    royal_kinds = [i for i, p in enumerate(variant.pieces) if p.royal]
    rider_reach = ([0] * geo.size, [0] * geo.size)
    castle_files = rules.castling_files or (2, geo.cols - 2)
    for color in (0, 1):
        for rider, _ in rider_groups[color]:
            for sq in range(geo.size):
                rider_reach[color][sq] |= rider.empty[sq]
    ep_leapers: tuple[list[tuple[int, Leap]], list[tuple[int, Leap]]] = ([], [])
    ep_riders: list[tuple[int, ...]] = []
    for color in (0, 1):
        for kind in pawn_kinds:
            capture = gens[color][kind].capture
            if capture.leap is not None and not capture.rides:
                ep_leapers[color].append((kind, _reversed(capture.leap)))
        ep_riders.append(tuple(k for k in pawn_kinds if gens[color][k].capture.rides))
    comp = Compiled(
        variant=variant,
        size=geo.size,
        cols=geo.cols,
        gens=gens,
        leap_groups=leap_groups,
        rider_groups=rider_groups,
        between=between_table(geo, frozenset(rider_dirs)),
        royal_kinds=tuple(i for i, p in enumerate(variant.pieces) if p.royal),
        royal_kind=royal_kinds[0] if len(royal_kinds) == 1 else -1,
        pawn_kinds=pawn_kinds,
        forward=(geo.cols, -geo.cols),
        double_step=(
            geo.parse_rank_list([r + 1 for r in rules.double_step_ranks[0]]),
            geo.parse_rank_list([r + 1 for r in rules.double_step_ranks[1]]),
        ),
        promo_zone=(promo_zone[0], promo_zone[1]),
        promo_kinds=(promo_kinds[0], promo_kinds[1]),
        promo_choices=(
            tuple(variant.kind_of(x) for x in rules.promotion[0].choices),
            tuple(variant.kind_of(x) for x in rules.promotion[1].choices),
        ),
        camp_kinds=tuple(variant.kind_of(x) for x in camp.pieces) if camp else (),
        camp_zone=(
            (
                geo.parse_rank_list([r + 1 for r in camp.ranks[0]]) | _squares(camp.squares[0]),
                geo.parse_rank_list([r + 1 for r in camp.ranks[1]]) | _squares(camp.squares[1]),
            )
            if camp
            else (0, 0)
        ),
        back_rank=(geo.rank_masks[0], geo.rank_masks[rows - 1]),
        castle_landing=(
            1 << castle_files[0] | 1 << castle_files[1],
            1 << ((rows - 1) * geo.cols + castle_files[0]) | 1 << ((rows - 1) * geo.cols + castle_files[1]),
        ),
        castle_files=castle_files,
        on_back_rank=[
            bool((geo.rank_masks[0] | geo.rank_masks[rows - 1]) >> sq & 1) for sq in range(geo.size)
        ],
        reset_kinds=(resets[0], resets[1]),
        z_piece=z_piece,
        z_turn=_signed64(rng.getrandbits(64)),
        z_castle=[_signed64(rng.getrandbits(64)) for _ in range(geo.size)],
        z_ep=[_signed64(rng.getrandbits(64)) for _ in range(geo.cols)],
        simple=simple,
        lines_unique=lines_unique,
        rook_kind=variant.kind_of("R") if variant.has_letter("R") else -1,
        transform_code=transform_code,
        owner_change=[p.changes_owner_on_capture for p in variant.pieces],
        pull_rays=pull_rays,
        restrictable=[p.restrictable for p in variant.pieces],
        restrictors=restrictors,
        restrictions=bool(restrictors),
        royal_or_restrictor=[p.royal or p.restricts for p in variant.pieces],
        restrict_reach=[
            leap_table(geo, tuple(sorted(v for c in p.restrict_components for v in c.vectors)))
            if p.restrict_components
            else None
            for p in variant.pieces
        ],
        rider_reach=rider_reach,
        ep_leapers=ep_leapers,
        ep_riders=(ep_riders[0], ep_riders[1]),
        attacked=(
            _attack_test(leap_groups[0], rider_groups[0]),
            _attack_test(leap_groups[1], rider_groups[1]),
        ),
        attackers=(
            _attack_set(leap_groups[0], rider_groups[0]),
            _attack_set(leap_groups[1], rider_groups[1]),
        ),
        snipers=(_sniper_set(rider_groups[0]), _sniper_set(rider_groups[1])),
    )
    comp.piece_moves = (
        [build_piece_moves(comp, 0, False), build_piece_moves(comp, 1, False)],
        [build_piece_moves(comp, 0, True), build_piece_moves(comp, 1, True)],
    )
    comp.unpinned_captures = (build_piece_moves(comp, 0, True, True), build_piece_moves(comp, 1, True, True))
    if use_words():
        comp.words = build_words(comp)
        comp.tested = build_tested(comp)
    return comp


def _squares(squares: tuple[int, ...]) -> int:
    bb = 0
    for sq in squares:
        bb |= 1 << sq
    return bb


def _compile(name: str, args: str, body: list[str], env: dict[str, object]) -> object:
    """Build a function from straight-line source; the tables become default arguments (local
    lookups, not global dict hits). Loops over pattern groups cost CPython more than the lookups
    themselves, and these are the hottest calls of the core."""
    names = "".join(f", {k}={k}" for k in env)
    source = "\n".join([f"def {name}({args}{names}):", *body])
    scope: dict[str, object] = dict(env)
    exec(source, scope)
    return scope[name]


def _kinds_expr(group: tuple[int, ...]) -> str:
    return "(" + " | ".join(f"kinds[{k}]" for k in group) + ")"


def _attack_test(
    leaps: list[tuple[Leap, tuple[int, ...]]], riders: list[tuple[AnyRider, tuple[int, ...]]]
) -> AttackTest:
    env: dict[str, object] = {}
    body = []
    for i, (leap, group) in enumerate(leaps):
        env[f"L{i}"] = leap
        body.append(f"    if L{i}[sq] & {_kinds_expr(group)} & theirs: return True")
    for i, (rider, group) in enumerate(riders):
        # The table lookup only when one of these riders stands on a line through sq at all (its
        # empty-board attacks): most squares a king might step to have none on most lines.
        env[f"E{i}"] = rider.empty
        body.append(f"    pcs = {_kinds_expr(group)} & theirs")
        body.append(f"    if pcs & E{i}[sq] and {rider.expr(f'R{i}', env)} & pcs: return True")
    body.append("    return False")
    return _compile("attacked", "kinds, theirs, sq, occupied", body, env)  # type: ignore[return-value]


def _attack_set(
    leaps: list[tuple[Leap, tuple[int, ...]]], riders: list[tuple[AnyRider, tuple[int, ...]]]
) -> AttackSet:
    env: dict[str, object] = {}
    terms = ["0"]
    for i, (leap, group) in enumerate(leaps):
        env[f"L{i}"] = leap
        terms.append(f"L{i}[sq] & {_kinds_expr(group)}")
    for i, (rider, group) in enumerate(riders):
        terms.append(f"{rider.expr(f'R{i}', env)} & {_kinds_expr(group)}")
    body = ["    return (" + " | ".join(f"({t})" for t in terms) + ") & theirs"]
    return _compile("attackers", "kinds, theirs, sq, occupied", body, env)  # type: ignore[return-value]


def _sniper_set(riders: list[tuple[AnyRider, tuple[int, ...]]]) -> SniperSet:
    env: dict[str, object] = {}
    terms = ["0"]
    for i, (rider, group) in enumerate(riders):
        env[f"E{i}"] = rider.empty  # attacks from each square, empty board
        terms.append(f"E{i}[sq] & {_kinds_expr(group)}")
    body = ["    return (" + " | ".join(f"({t})" for t in terms) + ") & theirs"]
    return _compile("snipers", "kinds, theirs, sq", body, env)  # type: ignore[return-value]


_CACHE: WeakKeyDictionary[Variant, Compiled] = WeakKeyDictionary()


_TABLE_LIMITS: WeakKeyDictionary[Variant, int] = WeakKeyDictionary()


def limit_tables(variant: Variant, limit: int) -> None:
    """Hold this variant's subset tables to `limit` bytes (estimated) instead of TABLE_BUDGET: past
    it, lines are scanned ray by ray, a little slower and linear in memory. A server limits the
    documents its users send (hordes.web.variant_limits); set before the variant's first Board."""
    _TABLE_LIMITS[variant] = limit


def forget_compiled(variant: Variant) -> None:
    """Drop a variant's tables (a web app's cache of stored variants lets go of one). The cache is
    weak only in name: the tables refer to their variant, so without this they stay."""
    _CACHE.pop(variant, None)


def compiled(variant: Variant) -> Compiled:
    c = _CACHE.get(variant)
    if c is None:
        c = _CACHE[variant] = compile_variant(variant)
    return c
