"""The rules page's "How to make these moves on this site": one short entry per gesture the variant needs.

Which entries a variant gets follows from its document's mechanisms (pulls, change of owner, change of
shape, promotion, campmate, restrictions, repetition that loses), never from its name. The gestures
are those of static/board.js; the markers are those the game page draws.
"""

from __future__ import annotations

from dataclasses import dataclass

from hordes import Variant


@dataclass(frozen=True, slots=True)
class HowTo:
    title: str
    text: str


def _names(variant: Variant, letters: tuple[str, ...]) -> str:
    names = [variant.pieces[variant.kind_of(x)].name if variant.has_letter(x) else x for x in letters]
    unique = list(dict.fromkeys(names))
    return unique[0] if len(unique) == 1 else ", ".join(unique[:-1]) + " or " + unique[-1]


def how_to(variant: Variant) -> list[HowTo]:
    """The entries for this variant, in the order a new player meets them."""
    pieces = variant.pieces
    rules = variant.rules
    out = [
        HowTo(
            "Moving and capturing",
            "Drag a piece to its square, or click it and then click the square. When you pick a piece "
            "up, the squares it may go to are dotted; the server only offers legal moves, so a square "
            "without a dot is not allowed. The last move stays highlighted and a royal piece in check "
            "glows red.",
        )
    ]
    if rules.castling:
        out.append(HowTo("Castling", "Move the king two squares towards the rook; the rook follows."))
    choices = tuple(dict.fromkeys(c for p in rules.promotion for c in p.choices))
    if choices:
        out.append(
            HowTo(
                "Promotion",
                "Move the pawn onto the last rank: a box opens over the square with the pieces it may "
                f"become ({_names(variant, choices)}). Click one; a click beside the box takes the move "
                "back.",
            )
        )
    if any(p.pull_components for p in pieces):
        out.append(
            HowTo(
                "A pull",
                "Click one of your magnets: every piece it can pull gets a blue ring, with a pale arrow to "
                "the square where it would land. Click a ringed piece to pull it. You can also drag the "
                "pulled piece itself, yours or the opponent's, onto its landing square: the game writes a "
                "pull as the pulled piece's move.",
            )
        )
    if any(p.changes_owner_on_capture for p in pieces):
        owners = _names(variant, tuple(p.letter for p in pieces if p.changes_owner_on_capture))
        out.append(
            HowTo(
                "A capture that changes sides",
                f"Capture as usual. A capturing {owners} is redrawn at once in the opponent's colour on the "
                "square where it captured, and a short notice under the board says that it changed sides. "
                "The board refuses a capture that would hand the opponent a piece attacking your royals.",
            )
        )
    if any(p.transforms_to for p in pieces):
        out.append(
            HowTo(
                "A change of shape",
                "Click the piece, then click it again (or press Change shape in the hint under the board). "
                "A box shows the new shape: click it to confirm, or click beside it to cancel. The move is "
                "written as the square twice, for example d1d1.",
            )
        )
    if rules.campmate is not None:
        out.append(
            HowTo(
                "Campmate",
                "The dashed bands on the board are the ranks where a king wins by arriving, each with a "
                "small flag in the colours of the side that wants to get there. Move your king there with "
                "an ordinary legal step and the game ends at once. On the game board the squares where a "
                "step of your king would win right now are marked.",
            )
        )
    if any(p.restrict_components for p in pieces):
        out.append(
            HowTo(
                "Magnet markers",
                "On the game board, pieces held by an enemy magnet carry a marker; select one to see "
                "which of its directions are closed.",
            )
        )
    if rules.repetition_result == "loss":
        out.append(
            HowTo(
                "Repetition warning",
                f"Bringing about the same position for the {_ordinal(rules.repetition_count)} time loses. "
                "Before such a move the page asks you to confirm it, so it is never played by accident.",
            )
        )
    return out


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}.get(n, f"{n}th")
