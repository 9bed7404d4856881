"""Evaluation terms for the pull-trap-capture plan (issue 18, point 2), and an exchange evaluator that
knows captures which change the capturer's owner.

The plan, in the inventor's words: pull a piece into your territory, stop it from going back, block its
guards and take it with a King or Knight. Every term is switched on by a mechanism of the document
(pulling pieces, restricting pieces, royal pieces that capture without changing sides, several royal
pieces) and by its weight in `engine.evaluation`; all weights are off by default, so the games whose
documents do not name them score exactly as before. Scores are (middlegame, endgame) pairs from
White's point of view, as in evaluate.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hordes.core import movegen
from hordes.core.compiled import compiled

if TYPE_CHECKING:
    from hordes.core.position import Board
    from hordes.core.rules import Variant
    from hordes.engine.eval_params import EvalParams


class PlanTerms:
    """The plan's terms for one variant: tables built once, `score` per node."""

    def __init__(self, variant: Variant, params: EvalParams) -> None:
        comp = compiled(variant)
        geo = variant.geometry
        size = geo.size
        pieces = variant.pieces
        half = geo.rows // 2
        # Each side's own half of the board: the territory a pulled piece is trapped in.
        self.half = (
            sum(1 << sq for sq in range(size) if geo.rank_of(sq) < half),
            sum(1 << sq for sq in range(size) if geo.rank_of(sq) >= geo.rows - half),
        )
        # Royal pieces that leap and capture as they move (King, Knight): their squares, by code, and
        # those of the kind they change into. Other royal pieces take no part in these terms.
        self.royal_step: dict[int, list[int]] = {}
        self.turned_step: dict[int, list[int]] = {}
        for color in (0, 1):
            for k in comp.royal_kinds:
                gen = comp.gens[color][k]
                if gen.same and not gen.quiet.rides and not pieces[k].changes_owner_on_capture:
                    self.royal_step[k * 2 + color] = [gen.quiet.attacks(sq, 0) for sq in range(size)]
        for code in list(self.royal_step):
            turned = comp.transform_code[code]
            if turned in self.royal_step:
                self.turned_step[code] = self.royal_step[turned]
        # Squares a royal piece attacks within one move of its own (a step, or a change of shape):
        # a fork of two royal pieces needs both in there, which is rarely so (one test per piece).
        self.royal_two: dict[int, list[int]] = {}
        for code, table in self.royal_step.items():
            turned_table = self.turned_step.get(code)
            two = []
            for sq in range(size):
                bb = turned_table[sq] if turned_table is not None else 0
                steps = table[sq]
                while steps:
                    low = steps & -steps
                    steps ^= low
                    bb |= table[low.bit_length() - 1]
                two.append(bb)
            self.royal_two[code] = two
        self.gens = comp.gens
        self.restrictor_kinds = [kind for kind, _, _ in comp.restrictors]
        self.restrict_reach = comp.restrict_reach
        self.royal_kinds = [k for k in comp.royal_kinds if k * 2 in self.royal_step]
        # Pieces that move and can be won: neither royal nor immobile.
        self.mobile_kinds = [k for k, p in enumerate(pieces) if not (p.royal or p.immobile)]
        self.target_kinds = [k for k, p in enumerate(pieces) if not p.royal]
        self.pull_kinds = [k for k, rays in enumerate(comp.pull_rays) if rays]
        self.pull_rays = comp.pull_rays
        self.restrictable = [k for k, flag in enumerate(comp.restrictable) if flag]
        # Directions a restrictable piece loses to one enemy restricting piece next to it, by
        # (restricting kind, restricted kind): H9's "directions leading away", counted on the first
        # step of the restricting piece (its steps are symmetric, so every step closes as many).
        self.closes: list[tuple[int, int, int]] = []
        for kind, _, restrict_steps in comp.restrictors:
            if not restrict_steps or comp.restrict_reach[kind] is None:
                continue
            ax, ay = restrict_steps[0]
            for k in self.restrictable:
                vectors = {v for c in pieces[k].mobile_components for v in c.vectors}
                # a step (ax, ay) from the restrictor to the piece closes v when v leads away: v . a > 0
                n = sum(1 for dx, dy in vectors if dx * ax + dy * ay > 0)
                if n:
                    self.closes.append((kind, k, n))
        by_kind: dict[int, list[tuple[int, int]]] = {}
        for kind, victim, closed in self.closes:
            by_kind.setdefault(kind, []).append((victim, closed))
        self.closes_by_kind = sorted(by_kind.items())
        mechanisms = bool(self.pull_kinds) or comp.restrictions
        has_royals = bool(self.royal_kinds)
        self.trapped = params.trapped if mechanisms and has_royals else (0, 0)
        self.royal_reach = params.royal_reach if has_royals else (0, 0)
        self.pull_reach = params.pull_reach if self.pull_kinds and has_royals else (0, 0)
        self.royal_fork = params.royal_fork if has_royals else (0, 0)
        self.restricted_mobility = params.restricted_mobility if comp.restrictions else (0, 0)
        self.use_trapped = self.trapped != (0, 0)
        self.use_royal_reach = self.royal_reach != (0, 0)
        self.use_pull_reach = self.pull_reach != (0, 0)
        self.use_royal_fork = self.royal_fork != (0, 0)
        self.use_restricted_mobility = self.restricted_mobility != (0, 0)
        self.active = any(
            w != (0, 0)
            for w in (
                self.trapped,
                self.royal_reach,
                self.pull_reach,
                self.royal_fork,
                self.restricted_mobility,
            )
        )

    # ----- the terms -----------------------------------------------------------------------------

    def reach(self, board: Board, color: int, royals: int = -1) -> int:
        """Squares `color`'s leaping royal pieces could capture on (their steps, own pieces aside);
        `royals`: their squares, when the caller has them."""
        out = 0
        mailbox = board.mailbox
        step = self.royal_step
        bb = movegen.royal_squares(board, color) if royals < 0 else royals
        while bb:
            low = bb & -bb
            bb ^= low
            sq = low.bit_length() - 1
            table = step.get(mailbox[sq])
            if table is not None:
                out |= table[sq]
        return out & ~board.occ[color]

    def counts(self, board: Board) -> tuple[int, int, int, int, int]:
        """White minus Black: (trapped, royal_reach, pull_reach, royal_fork, restricted_mobility)."""
        occ = board.occ
        occupied = occ[0] | occ[1]
        kinds = board.kind_bb
        all_royals = 0
        for k in self.royal_kinds:
            all_royals |= kinds[k]
        royals = (all_royals & occ[0], all_royals & occ[1])
        trapped = hanging = pulls = forks = closed = 0
        for color, sign in ((0, 1), (1, -1)):
            them = color ^ 1
            ours = self.reach(board, color, royals[color])
            if self.use_trapped and occ[them] & self.half[color]:
                trapped += sign * self._trapped(board, color, ours, occupied)
            if self.use_royal_reach and ours & occ[them]:
                hanging += sign * self._hanging(board, color, ours, occupied)
            if self.use_pull_reach and ours:
                pulls += sign * self._pullable(board, color, ours, occupied)
            if self.use_royal_fork and royals[color] & (royals[color] - 1):
                forks -= sign * self.fork_threats(board, color, royals[color], royals[them])
            if self.use_restricted_mobility:
                closed -= sign * self.closed_directions(board, color)
        return trapped, hanging, pulls, forks, closed

    def _trapped(self, board: Board, color: int, ours: int, occupied: int) -> int:
        """Enemy pieces in `color`'s half that cannot leave it: every square they could move to is in
        that half or covered by `color`'s royal pieces (restrictions and blockers are in the moves)."""
        them = color ^ 1
        kinds = board.kind_bb
        inside = 0
        for k in self.mobile_kinds:
            inside |= kinds[k]
        inside &= board.occ[them] & self.half[color]
        if not inside:
            return 0
        n = 0
        way_out = ~self.half[color] & ~ours
        mailbox = board.mailbox
        gens = self.gens[them]
        held = movegen.held_squares(board, color) if self.restrictable else 0
        while inside:
            low = inside & -inside
            inside ^= low
            sq = low.bit_length() - 1
            kind = mailbox[sq] >> 1
            # its quiet moves (a capture would change its owner); restrictions only close some, so
            # movegen's slower walk is asked only when the open board would let it out
            targets = gens[kind].quiet.attacks(sq, occupied) & ~occupied
            if targets & way_out and low & held:
                targets = movegen.pseudo_targets(board, sq, kind, them, occupied) & ~occupied
            if not targets & way_out:
                n += 1
        return n

    def _hanging(self, board: Board, color: int, ours: int, occupied: int) -> int:
        """Enemy pieces (not royal) that `color`'s royal pieces could take on a square the enemy does
        not defend: a royal capture keeps its owner, so it wins the piece outright."""
        kinds = board.kind_bb
        them = color ^ 1
        targets = 0
        for k in self.target_kinds:
            targets |= kinds[k]
        targets &= board.occ[them] & ours
        n = 0
        while targets:
            low = targets & -targets
            targets ^= low
            if not movegen.attacked_by(board, them, low.bit_length() - 1, occupied):
                n += 1
        return n

    def _pullable(self, board: Board, color: int, ours: int, occupied: int) -> int:
        """Enemy pieces (not royal) that one of `color`'s pulling pieces could pull onto a square its
        royal pieces reach (the first piece along a pull ray, not already next to the magnet)."""
        kinds = board.kind_bb
        occ = board.occ
        mailbox = board.mailbox
        them = occ[color ^ 1]
        n = 0
        for kind in self.pull_kinds:
            bb = kinds[kind] & occ[color]
            while bb:
                low = bb & -bb
                bb ^= low
                for ray in self.pull_rays[kind][low.bit_length() - 1]:
                    if not ray or not ours >> ray[0] & 1:
                        continue
                    for i, t in enumerate(ray):
                        if occupied >> t & 1:
                            if i and them >> t & 1 and mailbox[t] >> 1 in self.target_kinds:
                                n += 1
                            break
        return n

    def fork_threats(self, board: Board, color: int, royals: int = -1, enemy: int = -1) -> int:
        """Enemy royal pieces that could, in one move (a step or a change of shape), attack two of
        `color`'s royal pieces at once: both cannot be saved, and losing one loses the game.
        `royals` and `enemy`: the two sides' royal squares, when the caller has them."""
        if royals < 0:
            royals = movegen.royal_squares(board, color)
            enemy = movegen.royal_squares(board, color ^ 1)
        if royals & (royals - 1) == 0:
            return 0  # a single royal piece cannot be forked this way
        mailbox = board.mailbox
        two = self.royal_two
        n = 0
        squares: list[int] = []
        while enemy:
            low = enemy & -enemy
            enemy ^= low
            sq = low.bit_length() - 1
            code = mailbox[sq]
            near = two.get(code)
            if near is None or (near[sq] & royals).bit_count() < 2:
                continue  # not within one move of attacking two of them: the usual case
            table = self.royal_step[code]
            if not squares:
                bb = royals
                while bb:
                    bit = bb & -bb
                    bb ^= bit
                    squares.append(bit.bit_length() - 1)
            own_them = board.occ[color ^ 1]
            forks = 0
            for i, a in enumerate(squares):
                for b in squares[i + 1 :]:
                    forks |= table[a] & table[b]  # squares from which this kind attacks both
            threat = bool(table[sq] & forks & ~own_them)
            turned = self.turned_step.get(code)
            if not threat and turned is not None:
                threat = sum(1 for a in squares if turned[sq] >> a & 1) >= 2
            n += threat
        return n

    def closed_directions(self, board: Board, color: int) -> int:
        """Directions of `color`'s restrictable pieces closed by enemy restricting pieces next to
        them: the mobility they lose to restrictions (two magnets closing one direction count twice)."""
        kinds = board.kind_bb
        own = board.occ[color]
        enemy = board.occ[color ^ 1]
        victims = 0
        for k in self.restrictable:
            victims |= kinds[k]
        victims &= own
        if not victims:
            return 0
        n = 0
        for kind, closes in self.closes_by_kind:
            reach = self.restrict_reach[kind]
            assert reach is not None
            bb = kinds[kind] & enemy
            while bb:
                low = bb & -bb
                bb ^= low
                held = reach[low.bit_length() - 1] & victims
                if held:
                    for victim, closed in closes:
                        n += closed * (held & kinds[victim]).bit_count()
        return n

    def pulls_into_reach(self, board: Board) -> list[int]:
        """Pull moves (as move ints, not tested for legality) of the side to move that bring an enemy
        piece (not royal) onto a square its royal pieces reach and the enemy does not defend: unless
        the piece can run, a royal piece takes it next. Quiescence plays them (plan_quiescence)."""
        us = board.side
        kinds = board.kind_bb
        occ = board.occ
        magnets = 0
        for k in self.pull_kinds:
            magnets |= kinds[k]
        magnets &= occ[us]
        if not magnets:
            return []
        reach = self.reach(board, us)
        if not reach:
            return []
        occupied = occ[0] | occ[1]
        theirs = occ[us ^ 1]
        mailbox = board.mailbox
        found = []
        while magnets:
            low = magnets & -magnets
            magnets ^= low
            sq = low.bit_length() - 1
            for ray in self.pull_rays[mailbox[sq] >> 1][sq]:
                if not ray or not reach >> ray[0] & 1:
                    continue
                for i, t in enumerate(ray):
                    if occupied >> t & 1:
                        if (
                            i
                            and theirs >> t & 1
                            and mailbox[t] >> 1 in self.target_kinds
                            and not movegen.attacked_by(board, us ^ 1, ray[0], occupied ^ (1 << t))
                        ):
                            found.append(t | ray[0] << movegen.TO_SHIFT)
                        break
        return found

    def score(self, board: Board) -> tuple[int, int]:
        """(middlegame, endgame), White-positive."""
        counts = self.counts(board)
        weights = (self.trapped, self.royal_reach, self.pull_reach, self.royal_fork, self.restricted_mobility)
        mg = eg = 0
        for n, (w_mg, w_eg) in zip(counts, weights, strict=True):
            mg += n * w_mg
            eg += n * w_eg
        return mg, eg


def see(board: Board, frm: int, to: int, value: list[int], owner_change: list[bool]) -> int:
    """The material the side to move wins by the capture frm -> to and the exchange that follows on
    `to`, each side stopping when it pays to (a static exchange evaluation).

    A capturer that changes owner (H5 in Hordes of Change) turns into the opponent's piece on `to`,
    so the side that captured may take it back next and it changes again: a capture by such a piece
    costs the capturer twice its value, and the next capture on `to` is again the capturer's side's.
    Such a retake is only counted when it is made by a piece that keeps its owner (a royal piece:
    legal only where the square is not defended), and then at half the piece's value, since the
    opponent has a move first to take it away. A capture by a piece that keeps its owner is answered
    by the opponent's cheapest attacker, as in chess."""
    mailbox = board.mailbox
    side = board.side
    occupied = (board.occ[0] | board.occ[1]) & ~(1 << frm)
    attacker = mailbox[frm]
    victim = mailbox[to]
    if victim < 0 or attacker < 0:
        return 0
    gain = value[victim]
    if owner_change[attacker >> 1]:
        gain -= 2 * value[attacker]
        # the piece on `to` is now the opponent's: can a royal piece of ours take it back?
        retakers = movegen.attackers(board, side, to, occupied) & movegen.royal_squares(board, side)
        defended = movegen.attackers(board, side ^ 1, to, occupied) & ~(1 << to)
        if retakers and not defended:
            gain += value[attacker] // 2
        return gain
    royal = movegen.royal_squares(board, side) >> frm & 1
    if royal:
        return gain  # a legal royal capture cannot be answered on the square
    # the opponent's cheapest attacker answers, if that pays for it
    defenders = movegen.attackers(board, side ^ 1, to, occupied)
    best = 0
    while defenders:
        low = defenders & -defenders
        defenders ^= low
        code = mailbox[low.bit_length() - 1]
        cost = 2 * value[code] if owner_change[code >> 1] else 0
        reply = value[attacker] - cost
        if movegen.royal_squares(board, side ^ 1) & low:
            reply = value[attacker] if not movegen.attacked_by(board, side, to, occupied & ~low) else 0
        best = max(best, reply)
    return gain - best
