"""What the browser needs to know about a position: legal destinations, choices and marks.

The rules live only on the server. The board component is told, for the side to move, which squares
each piece may go to (`dests`), which of those moves need a choice of piece (`promotions`), which
pieces may change shape in place (`transforms`) and which pieces a magnet can pull (`pulls`), so that
the browser never has to know a variant's rules — a variant document added to the server works in
the browser unchanged.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from hordes import Board, Color, Outcome, Termination, Variant
from hordes.core import movegen
from hordes.core.geometry import FILE_LETTERS, Geometry
from hordes.core.movegen import PROMO_SHIFT, SQ_MASK, TO_SHIFT
from hordes.core.rules import side_index
from hordes.web import marks

# Sentence fragments for the end of a game: "White wins by checkmate", "Draw by stalemate".
REASONS: dict[str, str] = {
    Termination.CHECKMATE.value: "checkmate",
    Termination.STALEMATE.value: "stalemate",
    Termination.CAMPMATE.value: "campmate",
    Termination.INSUFFICIENT_MATERIAL.value: "insufficient material",
    Termination.THREEFOLD_REPETITION.value: "threefold repetition",
    Termination.REPETITION_LOSS.value: "repetition (the repeating side loses)",
    Termination.N_MOVE_RULE.value: "the move-count rule",
    Termination.VARIANT_WIN.value: "the variant's rules",
    Termination.VARIANT_LOSS.value: "the variant's rules",
    "resignation": "resignation",
    "agreement": "agreement",
    # the clock (clocks.py): a flag, or a flag the other side could not have won
    "time forfeit": "time forfeit",
    "timeout vs insufficient material": "timeout vs insufficient material",
}


def color_name(color: Color | None) -> str | None:
    """ "white" or "black" for a colour (WHITE is True), None for none."""
    if color is None:
        return None
    if not isinstance(color, bool):  # a stored side number would silently read the wrong way round
        raise TypeError(f"a colour is a bool, not {color!r}: use side_name for a stored side")
    return "white" if color else "black"


def side_name(side: int | None) -> str | None:
    """ "white" or "black" for a side number as the games table stores it (0 = White, since 0.1)."""
    return None if side is None else ("white" if side == 0 else "black")


def describe_end(termination: str | None, winner: int | None) -> str:
    """A sentence for the end of a game, e.g. 'Black wins by campmate' or 'Draw by agreement'."""
    if termination is None:
        return ""
    if termination == "aborted":
        return "Game aborted (a side did not make its first move in time)"
    if termination.startswith("aborted by "):  # a player's abort, before both sides moved (offers.py)
        return f"Game aborted by {termination.removeprefix('aborted by ').capitalize()}"
    if termination in ("abandoned", "time forfeit") and winner is not None:
        side, loser = ("White", "Black") if winner == 0 else ("Black", "White")
        what = "left the game" if termination == "abandoned" else "ran out of time"
        return f"{loser} {what} — {side} wins"
    if termination == "abandoned":  # claimed as a draw after the other player left (games.claim)
        return "Draw: a player left the game"
    if termination == "timeout vs insufficient material":
        return "Draw: time ran out, but the other side could not have won (insufficient material)"
    how = REASONS.get(termination, termination)
    if winner is None:
        return f"Draw by {how}"
    side = "White" if winner == 0 else "Black"
    if termination == "resignation":
        loser = "Black" if winner == 0 else "White"
        return f"{loser} resigned — {side} wins"
    return f"{side} wins by {how}"


def outcome_fields(outcome: Outcome | None) -> tuple[str, str | None, int | None]:
    """(result, termination, winner) of a rules outcome, for storing: the winner as the games table
    keeps it, a side number (0 = White)."""
    if outcome is None:
        return "*", None, None
    winner = None if outcome.winner is None else side_index(outcome.winner)
    return outcome.result(), outcome.termination.value, winner


def variant_info(variant: Variant) -> dict[str, Any]:
    """Static facts about a variant that the board page needs once: size, pieces, marked ranks."""
    geo = variant.geometry
    camp = variant.rules.campmate
    return {
        "slug": variant.slug,
        "title": variant.title,
        "rows": geo.rows,
        "cols": geo.cols,
        "files": FILE_LETTERS[: geo.cols],
        "start_fen": variant.start_fen,
        "pieces": [
            {"letter": p.letter, "name": p.name, "royal": p.royal, "role": role_of(p.letter)}
            for p in variant.pieces
        ],
        # 0-based ranks where a royal piece of that colour wins by campmate
        "campmate": {"white": list(camp.ranks[0]), "black": list(camp.ranks[1])} if camp else None,
        "royal_roles": sorted({role_of(p.letter) for p in variant.pieces if p.royal}),
        "movement": marks.movement(variant),  # for premoves (static/premove.js)
    }


def role_of(letter: str) -> str:
    """The chessgroundx role of a piece letter: 'L' -> 'l-piece', '+R' -> 'pr-piece' (promoted kinds)."""
    return letter.lower().replace("+", "p") + "-piece"


def position_view(board: Board, generated: list[int] | None = None) -> dict[str, Any]:
    """The side to move's legal moves in the board component's terms, check marks and the outcome.
    `generated`: the position's `movegen.generate_legal` list, where the caller has it already."""
    name = _square_names(board.geometry).__getitem__
    dests: dict[str, list[str]] = {}
    promotions: dict[str, list[str]] = {}
    transforms: dict[str, str] = {}
    legal: set[tuple[int, int]] = set()  # only what _pulls needs, in a variant with pulls
    pulls = any(board.compiled.pull_rays)
    if generated is None:
        generated = movegen.generate_legal(board)
    outcome = board.outcome(legal=generated)
    ints = [] if outcome is not None else generated
    kinds = board.variant.pieces
    # The generator's ints are read directly: a Move object per legal move cost more than the rest.
    for m in ints:
        f, t = m & SQ_MASK, m >> TO_SHIFT & SQ_MASK
        frm = name(f)
        if f == t:
            target = _transform_target(board, f)
            if target:
                transforms[frm] = target
            continue
        if pulls:
            legal.add((f, t))
        to = name(t)
        targets = dests.get(frm)
        if targets is None:
            dests[frm] = [to]
        elif to not in targets:
            targets.append(to)
        promo = (m >> PROMO_SHIFT & 63) - 1
        if promo >= 0:
            promotions.setdefault(frm + to, []).append(kinds[promo].letter)
    # A move without promotion beside promoting ones with the same squares: promotion is optional.
    if promotions:
        for m in ints:
            key = name(m & SQ_MASK) + name(m >> TO_SHIFT & SQ_MASK)
            if not m >> PROMO_SHIFT & 63 and key in promotions and "" not in promotions[key]:
                promotions[key].append("")
    result, termination, winner = outcome_fields(outcome)
    losing, winning = marks.immediate_results(board, ints)
    return {
        "fen": board.fen(),
        "turn": color_name(board.turn),
        "dests": dests,
        "promotions": promotions,
        "transforms": transforms,
        "pulls": _pulls(board, legal),
        "repetition_losing": losing,  # moves that would lose at once by repetition (to confirm)
        "campmate_wins": winning,  # {from: [to]}: steps that win at once by campmate
        "held": marks.held_pieces(board),  # pieces held by an enemy magnet, their closed directions
        "last_move_facts": marks.last_move(board),  # capture? did the capturer change sides?
        # marked at checkmate too: the final position of a mated game shows its king in check
        "check": royal_squares(board) if board.is_check() else [],
        "result": result,
        "termination": termination,
        "winner": side_name(winner),
        "reason": describe_end(termination, winner),
    }


@cache
def _square_names(geo: Geometry) -> tuple[str, ...]:
    """Every square's name, by index: the view names each legal move's two squares."""
    return tuple(geo.square_name(sq) for sq in range(geo.size))


def no_moves() -> dict[str, Any]:
    """The keys of a position view that offer moves, empty: for a game nobody may move in (not
    started yet, or over), as view.update(no_moves())."""
    return {
        "dests": {}, "promotions": {}, "transforms": {}, "pulls": [],
        "repetition_losing": [], "campmate_wins": {},
    }  # fmt: skip


def royal_squares(board: Board) -> list[str]:
    """Squares of the side to move's royal pieces (to mark check; with two royals both are marked)."""
    out = []
    for sq in range(board.geometry.size):
        found = board.piece_at(sq)
        if found and found.color == board.turn and found.kind is not None and found.kind.royal:
            out.append(board.geometry.square_name(sq))
    return out


def _transform_target(board: Board, sq: int) -> str | None:
    found = board.piece_at(sq)
    if not found:
        return None
    return found.kind.transforms_to if found.kind is not None else None


def _pulls(board: Board, legal: set[tuple[int, int]]) -> list[dict[str, str]]:
    """Legal pulls as (magnet, pulled piece's from, to), so a click on a magnet can show what it pulls.

    A pull is written as the pulled piece's move; the magnet is found the way the move generator
    finds pulls: along each of its pull rays, the first piece beyond the adjacent square.
    """
    comp = board.compiled
    if not any(comp.pull_rays):
        return []
    name = board.geometry.square_name
    occupied = board.occ[0] | board.occ[1]
    out = []
    for sq in range(board.geometry.size):
        code = board.mailbox[sq]
        if code < 0 or code & 1 != board.side:
            continue
        rays = comp.pull_rays[code >> 1]
        if not rays:
            continue
        for ray in rays[sq]:
            for i, s in enumerate(ray):
                if occupied >> s & 1:
                    if i and (s, ray[0]) in legal:
                        out.append({"magnet": name(sq), "from": name(s), "to": name(ray[0])})
                    break
    return out
