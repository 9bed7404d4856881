"""What the board marks beyond the legal moves: facts the browser cannot work out, since it knows no rules.

- `held`: pieces an enemy restricting piece (a Hordes of Change magnet) stands beside, with the
  directions it closes and the squares the piece loses by it;
- `repetition_losing`: the side to move's moves that would lose at once by repetition;
- `campmate_wins`: the side to move's moves that win at once by campmate;
- `last_move`: whether the last move captured, and whether the capturer changed sides (Andernach);
- `movement`: each piece kind's steps on an empty board, per colour, for premoves.

Each fact is switched on by the variant document's mechanisms (restricting pieces, `repetition: loss`,
`campmate`, `changes_owner_on_capture`), never by a variant's name, and is read from the core's own
tables and move generator, so the marks say what the rules do.
"""

from __future__ import annotations

from typing import Any

from hordes import Board, Variant
from hordes.core import movegen
from hordes.core.compiled import compiled
from hordes.core.movegen import SQ_MASK, TO_SHIFT
from hordes.core.position import Termination
from hordes.core.rules import side_color


def held_pieces(board: Board) -> list[dict[str, Any]]:
    """The pieces (of either side) held by an enemy restrictor: their square, the restrictors' squares
    and each closed direction as {"step": [dx, dy], "toward": first square that way, "squares": the
    squares the piece would reach that way if it were open}."""
    comp = board.compiled
    if not comp.restrictions:
        return []
    geo = board.geometry
    name = geo.square_name
    occupied = board.occ[0] | board.occ[1]
    out = []
    for sq in range(geo.size):
        code = board.mailbox[sq]
        if code < 0 or not comp.restrictable[code >> 1]:
            continue
        steps = movegen.restriction_steps(board, sq)
        if not steps:
            continue
        f0, r0 = geo.file_of(sq), geo.rank_of(sq)
        color = code & 1
        closed: dict[tuple[int, int], dict[str, Any]] = {}
        for component in board.variant.pieces[code >> 1].mobile_components:
            c = component if color == 0 else component.for_black()
            for dx, dy in c.vectors:
                # closed when the step leads away from a restrictor (movegen's rule: v . a > 0)
                if not any(dx * ax + dy * ay > 0 for ax, ay in steps) or not geo.on_board(f0 + dx, r0 + dy):
                    continue
                entry = closed.setdefault(
                    (dx, dy), {"step": [dx, dy], "toward": name(geo.square(f0 + dx, r0 + dy)), "squares": []}
                )
                lost = entry["squares"]
                f, r, n = f0, r0, 0
                while True:
                    f, r, n = f + dx, r + dy, n + 1
                    if not geo.on_board(f, r) or (c.max_steps and n > c.max_steps):
                        break
                    s = geo.square(f, r)
                    if occupied >> s & 1:
                        if c.capture and board.occ[color ^ 1] >> s & 1 and name(s) not in lost:
                            lost.append(name(s))
                        break
                    if c.move and name(s) not in lost:
                        lost.append(name(s))
        if not closed:
            continue
        by = [name(geo.square(f0 - ax, r0 - ay)) for ax, ay in steps]
        out.append({"square": name(sq), "by": sorted(set(by)), "closed": list(closed.values())})
    return out


def immediate_results(board: Board, moves: list[int]) -> tuple[list[str], dict[str, list[str]]]:
    """(moves that lose at once by repetition, as UCI; {from: [to]} of moves that win at once by
    campmate) among the side to move's legal `moves` (the generator's ints). Each candidate is
    played on the board and judged by `Board.outcome`, the rules' own verdict, and taken back."""
    variant = board.variant
    rules = variant.rules
    comp = board.compiled
    repetition = rules.repetition_result == "loss"
    camp = set(comp.camp_kinds)
    if not (repetition or camp) or not moves:
        return [], {}
    mover = side_color(board.side)
    name = board.geometry.square_name
    losing: list[str] = []
    winning: dict[str, list[str]] = {}
    for m in moves:
        frm, to = m & SQ_MASK, m >> TO_SHIFT & SQ_MASK
        camp_step = bool(camp) and frm != to and board.mailbox[frm] >> 1 in camp
        board.push_int(m)
        try:
            # cheap filters first: outcome() generates the next side's moves
            if camp_step and board.campmate_winner() is mover:
                outcome = board.outcome()
                if outcome is not None and outcome.termination is Termination.CAMPMATE:
                    winning.setdefault(name(frm), []).append(name(to))
            elif repetition and board.repetitions() >= rules.repetition_count:
                outcome = board.outcome()
                if outcome is not None and outcome.termination is Termination.REPETITION_LOSS:
                    losing.append(board.uci(board.peek()))
        finally:
            board.pop_int()
    return losing, winning


def last_move(board: Board) -> dict[str, Any] | None:
    """The last move's capture and change of sides: {"capture": bool, "changed_sides": None or
    {"square", "piece", "color"} (the capturer's square, letter and new colour)}. None before any move."""
    if not board.moves_played():
        return None
    move = board.peek()
    count = bin(board.occ[0] | board.occ[1]).count("1")
    now = board.piece_at(move.to_square)
    # Taken back and played again rather than copied: a copy carries the whole move stack.
    m = board.pop_int()
    try:
        capture = count < bin(board.occ[0] | board.occ[1]).count("1")
        was = board.piece_at(move.from_square)
    finally:
        board.push_int(m)
    changed = None
    if move.from_square != move.to_square and was is not None and now is not None and was.color != now.color:
        changed = {
            "square": board.geometry.square_name(move.to_square),
            "piece": now.piece_type,
            "color": "white" if now.color else "black",
        }
    return {"capture": capture, "changed_sides": changed}


def movement(variant: Variant) -> dict[str, Any]:
    """How each piece kind steps on an empty board, per colour, for premove destinations: its move
    and capture components ([dx, dy, max steps (0: unlimited), moves?, captures?]), the pawns'
    double-step ranks and the castling king's landing files."""
    comp = compiled(variant)
    pieces = {}
    for p in variant.pieces:
        pieces[p.letter] = {
            color: [
                [dx, dy, c.max_steps, c.move, c.capture]
                for c in (p.mobile_components if side == 0 else [x.for_black() for x in p.mobile_components])
                for dx, dy in c.vectors
            ]
            for side, color in ((0, "white"), (1, "black"))
        }
    rules = variant.rules
    pawns = [p.letter for p in variant.pieces if p.pawn]
    return {
        "pieces": pieces,
        "pawns": pawns,
        # 0-based ranks a pawn may step two squares forward from (forward: up for White)
        "double_step": {"white": list(rules.double_step_ranks[0]), "black": list(rules.double_step_ranks[1])},
        "castle_files": list(comp.castle_files) if rules.castling else None,
    }
