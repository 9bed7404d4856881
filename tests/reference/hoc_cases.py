"""Rule cases for Hordes of Change (rules H1-H19 of the numbered rules text the variant was specified
from, whose content and decisions src/hordes/variants/hordes.md states for players), as plain data.

Every expected value was worked out by hand from the rules text and is checked against the reference
generator by ``test_hoc_reference.py``; the fast generator's tests can run the same cases.

How to read a case:

* ``fen`` is the starting position; ``moves`` (UCI) are played from it first. "The position" below means
  the position after ``moves``.
* ``legal`` must all be legal moves in the position; ``illegal`` must all be absent. With ``exact=True``
  ``legal`` is the complete set of legal moves.
* ``check`` is the expected ``is_check()`` of the position (None: not asserted).
* ``outcome`` is the expected ``outcome()`` (winner, reason); the string "ongoing" means it must be None;
  None means not asserted.
* ``after`` holds (uci, fen) pairs: playing ``uci`` from the position must give exactly ``fen``.
* ``fen_valid=False`` marks a FEN that must be rejected with ValueError (nothing else is asserted).

The six example positions at the end of the rules file are the cases named ``example_*``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Case:
    rule: str
    name: str
    fen: str
    moves: tuple[str, ...] = ()
    legal: frozenset[str] = frozenset()
    illegal: frozenset[str] = frozenset()
    check: bool | None = None
    outcome: tuple[str, str] | str | None = None
    after: tuple[tuple[str, str], ...] = ()
    note: str = ""
    exact: bool = False
    fen_valid: bool = True


def _set(text: str) -> frozenset[str]:
    return frozenset(text.split())


START = "bbrkkrbb/rbbrrbbr/brbrrbrb/8/8/BRBRRBRB/RBBRRBBR/BBRKKRBB w - - 0 1"

CASES: list[Case] = [
    # ---------------------------------------------------------------------------------- H1-H3: start
    Case(
        rule="H1",
        name="white_moves_first_in_the_start_position",
        fen=START,
        legal=_set("b3b4 a3b4 e3e3"),
        illegal=_set("b6b5 a6b5 e6e6"),
        check=False,
        outcome="ongoing",
        after=(("b3b4", "bbrkkrbb/rbbrrbbr/brbrrbrb/8/1R6/B1BRRBRB/RBBRRBBR/BBRKKRBB b - - 1 1"),),
        note="White moves first; Black's pieces cannot move on White's turn. No pawns on the 8x8 board.",
    ),
    Case(
        rule="H2",
        name="start_back_ranks_are_blocked",
        fen=START,
        legal=_set("d1d1 e1e1 b2b2"),
        illegal=_set("d1c2 b2a3 a2a4 c1c2 d2d4"),
        note=(
            "24 pieces per side (2 K, 10 R, 12 B) on the first three ranks; the pieces on ranks 1 and 2 can "
            "only transform. The piece counts themselves are asserted by test_h2_start_piece_counts."
        ),
    ),
    Case(
        rule="H3",
        name="start_position_has_52_legal_moves",
        fen=START,
        legal=_set(
            "a1a1 b1b1 c1c1 d1d1 e1e1 f1f1 g1g1 h1h1 a2a2 b2b2 c2c2 d2d2 e2e2 f2f2 g2g2 h2h2 "
            "a3a3 b3b3 c3c3 d3d3 e3e3 f3f3 g3g3 h3h3 "
            "b3b4 b3b5 b3b6 d3d4 d3d5 d3d6 e3e4 e3e5 e3e6 g3g4 g3g5 g3g6 "
            "a3b4 a3c5 a3d6 c3b4 c3a5 c3d4 c3e5 c3f6 f3e4 f3d5 f3c6 f3g4 f3h5 h3g4 h3f5 h3e6"
        ),
        exact=True,
        check=False,
        after=(("c3f6", "bbrkkrbb/rbbrrbbr/brbrrbrb/8/8/BR1RRBRB/RBBRRBBR/BBRKKRBB b - - 0 1"),),
        note=(
            "24 transformations, 12 rook moves (b/d/e/g rooks: two quiet moves and the capture on rank 6), "
            "16 bishop moves (a3 and h3: 3 each, c3 and f3: 5 each). All captures are legal: the changed "
            "pieces attack no White royal piece."
        ),
    ),
    # ---------------------------------------------------------------------------------- H4: R and B
    Case(
        rule="H4",
        name="rook_and_bishop_slide_as_in_chess",
        fen="7k/8/3B4/8/3R4/8/8/K7 w - - 0 1",
        legal=_set(
            "d4d5 d4d3 d4d2 d4d1 d4c4 d4b4 d4a4 d4e4 d4f4 d4g4 d4h4 d4d4 "
            "d6c7 d6b8 d6e7 d6f8 d6c5 d6b4 d6a3 d6e5 d6f4 d6g3 d6h2 d6d6 "
            "a1a2 a1b1 a1b2 a1a1"
        ),
        illegal=_set("d4d6 d4d7 d4e5 d6d7 d6d5 a1a3"),
        exact=True,
        check=False,
        note="Rook d4 is blocked northwards by its own Bishop d6; no jumping, no capture of own pieces.",
    ),
    # ---------------------------------------------------------------------------------- H5: Andernach
    Case(
        rule="H5",
        name="rook_capture_changes_owner",
        fen="7k/3b4/8/8/3R4/8/8/K7 w - - 0 1",
        legal=_set("d4d7 d4d5 d4d6"),
        illegal=_set("d4d8"),
        after=(("d4d7", "7k/3r4/8/8/8/8/8/K7 b - - 0 1"),),
        note="The White Rook captures on d7 and becomes a Black Rook on d7.",
    ),
    Case(
        rule="H5",
        name="bishop_capture_changes_owner",
        fen="K7/8/5r2/8/8/2B5/8/7k w - - 0 1",
        legal=_set("c3f6 c3e5 c3a1"),
        illegal=_set("c3g7"),
        after=(("c3f6", "K7/8/5b2/8/8/8/8/7k b - - 0 1"),),
        note="The White Bishop captures the Black Rook on f6 and becomes a Black Bishop on f6.",
    ),
    Case(
        rule="H5",
        name="changed_piece_is_moved_by_its_new_owner",
        fen="7k/3b4/8/8/3R4/8/8/K7 w - - 0 1",
        moves=("d4d7",),
        legal=_set("d7d1 d7a7 d7d2 d7d7 h8g8"),
        illegal=_set("d7e6 d7c8"),
        check=False,
        after=(("d7d1", "7k/8/8/8/8/8/8/K2r4 w - - 1 2"),),
        note="After d4xd7 the Rook is Black's; Black moves it (d7d1 even gives check along rank 1).",
    ),
    Case(
        rule="H5",
        name="capture_by_changed_piece_changes_it_back",
        fen="7k/3b4/8/8/3R4/8/3R4/K7 w - - 0 1",
        moves=("d4d7",),
        legal=_set("d7d2"),
        after=(("d7d2", "7k/8/8/8/8/8/3R4/K7 w - - 0 2"),),
        note=(
            "After d4xd7 the Black Rook d7 captures the White Rook d2 and becomes White again: the board "
            "then has one White Rook on d2."
        ),
    ),
    # ---------------------------------------------------------------------------------- H6: transformation
    Case(
        rule="H6",
        name="white_transformations",
        fen="7k/8/8/8/2R1B3/8/8/K2+R+B3 w - - 0 1",
        legal=_set("c4c4 e4e4 d1d1 e1e1 a1a1 a1c1"),
        after=(
            ("c4c4", "7k/8/8/8/2+R1B3/8/8/K2+R+B3 b - - 1 1"),
            ("e4e4", "7k/8/8/8/2R1+B3/8/8/K2+R+B3 b - - 1 1"),
            ("d1d1", "7k/8/8/8/2R1B3/8/8/K2R+B3 b - - 1 1"),
            ("e1e1", "7k/8/8/8/2R1B3/8/8/K2+RB3 b - - 1 1"),
            ("a1a1", "7k/8/8/8/2R1B3/8/8/N2+R+B3 b - - 1 1"),
        ),
        note=(
            "R->+R, B->+B, +R->R, +B->B, K->N; the piece stays on its square. (a1c1 is the Rook Magnet d1 "
            "pulling its own King.)"
        ),
    ),
    Case(
        rule="H6",
        name="black_transformations",
        fen="7n/8/8/8/2r1b3/8/8/K2+r+b3 b - - 3 7",
        legal=_set("h8h8 c4c4 e4e4 d1d1 e1e1"),
        after=(
            ("h8h8", "7k/8/8/8/2r1b3/8/8/K2+r+b3 w - - 4 8"),
            ("c4c4", "7n/8/8/8/2+r1b3/8/8/K2+r+b3 w - - 4 8"),
            ("d1d1", "7n/8/8/8/2r1b3/8/8/K2r+b3 w - - 4 8"),
            ("e1e1", "7n/8/8/8/2r1b3/8/8/K2+rb3 w - - 4 8"),
        ),
        note="Black's N->K, R->+R, +R->R, +B->B; the fullmove number goes up after Black's move.",
    ),
    # ---------------------------------------------------------------------------------- H7: magnets
    Case(
        rule="H7",
        name="magnet_never_moves_or_captures",
        fen="7k/3r4/8/8/3+R4/8/8/K7 w - - 0 1",
        legal=_set("d4d4 d7d5 a1a1 a1a2 a1b1 a1b2"),
        illegal=_set("d4d7 d4d5 d4d6 d4d3 d4d1 d4a4 d4h4 d4e5"),
        exact=True,
        note="The Rook Magnet d4 can only transform back or pull (d7 -> d5); it cannot move or capture.",
    ),
    # ---------------------------------------------------------------------------------- H8: pulls
    Case(
        rule="H8",
        name="example_rook_magnet_pulls_black_king",
        fen="8/8/8/4k3/8/K7/8/4+R3 w - - 0 1",
        legal=_set("e5e2 e1e1 a3a3 a3a2 a3a4 a3b2 a3b3 a3b4"),
        exact=True,
        after=(("e5e2", "8/8/8/8/8/K7/4k3/4+R3 b - - 1 1"),),
        note="Rules example 5: White Rook Magnet e1, empty e2-e4, Black King e5: the pull puts it on e2.",
    ),
    Case(
        rule="H8",
        name="bishop_magnet_pulls_enemy_rook_which_keeps_owner",
        fen="K6k/8/8/8/5r2/8/8/2+B5 w - - 0 1",
        legal=_set("f4d2 c1c1"),
        illegal=_set("f4e3 c1d2"),
        after=(("f4d2", "K6k/8/8/8/8/8/3r4/2+B5 b - - 1 1"),),
        note="The Bishop Magnet pulls the first piece on its NE diagonal to d2; the Rook stays Black's.",
    ),
    Case(
        rule="H8",
        name="rook_magnet_pulls_enemy_magnet_and_own_king",
        fen="7k/8/8/8/+R4+b2/8/8/K7 w - - 0 1",
        legal=_set("a4a4 f4b4 a1a3 a1a1 a1a2 a1b1 a1b2"),
        exact=True,
        after=(
            ("f4b4", "7k/8/8/8/+R+b6/8/8/K7 b - - 1 1"),
            ("a1a3", "7k/8/8/8/+R4+b2/K7/8/8 b - - 1 1"),
        ),
        note=(
            "Any piece can be pulled: the enemy Bishop Magnet f4 to b4, and the own King a1 to a3 (two "
            "squares, which the King could not do itself)."
        ),
    ),
    Case(
        rule="H8",
        name="adjacent_piece_not_pulled_and_piece_behind_not_seen",
        fen="7k/3b4/8/3r4/3+R4/8/8/K7 w - - 0 1",
        legal=_set("d4d4 a1a1 a1a2 a1b1 a1b2"),
        illegal=_set("d7d5 d5d4 d7d6"),
        exact=True,
        note=(
            "(decided) The Black Rook d5 is already next to the magnet and cannot be pulled; the Bishop d7 "
            "is not the first piece on the line, so it cannot be pulled either."
        ),
    ),
    Case(
        rule="H8",
        name="pull_that_exposes_own_king_is_illegal",
        fen="7k/8/4r3/8/8/8/K7/4+R3 w - - 0 1",
        legal=_set("e1e1 a2a2 a2a1 a2a3 a2b1 a2b2 a2b3"),
        illegal=_set("e6e2"),
        exact=True,
        note="Pulling the Black Rook to e2 would let it capture the White King a2 along rank 2 (H12).",
    ),
    Case(
        rule="H8",
        name="rook_magnet_pulls_bishop_onto_other_colour",
        fen="7k/8/8/3B4/8/K7/8/3+R4 w - - 0 1",
        legal=_set("d5d2 d5e4 d5a8"),
        illegal=_set("d5d3 d5d4"),
        after=(("d5d2", "7k/8/8/8/8/K7/3B4/3+R4 b - - 1 1"),),
        note="The Bishop on light d5 is pulled orthogonally to dark d2.",
    ),
    Case(
        rule="H8",
        name="black_rook_magnet_pulls_white_knight_and_own_king",
        fen="4+r2k/8/8/8/8/4N3/8/K7 b - - 0 1",
        legal=_set("e3e7 h8f8 e8e8"),
        after=(
            ("e3e7", "4+r2k/4N3/8/8/8/8/8/K7 w - - 1 2"),
            ("h8f8", "4+rk2/8/8/8/8/4N3/8/K7 w - - 1 2"),
        ),
        note="A magnet may pull a royal piece of either side; the pulled Knight stays White's.",
    ),
    # ---------------------------------------------------------------------------------- H9: restrictions
    Case(
        rule="H9",
        name="example_rook_beside_enemy_rook_magnet_cannot_move_away",
        fen="7k/8/8/4R3/4+r3/8/8/K7 w - - 0 1",
        legal=_set("e5a5 e5b5 e5c5 e5d5 e5f5 e5g5 e5h5 e5e4 e5e5 a1a1 a1a2 a1b1 a1b2"),
        illegal=_set("e5e6 e5e7 e5e8"),
        exact=True,
        after=(("e5e4", "7k/8/8/8/4r3/8/8/K7 b - - 0 1"),),
        note=(
            "Rules example 1: Black Rook Magnet e4 is south of the White Rook e5, so north is closed; the "
            "Rook moves along rank 5 and captures e4 (then it is Black's)."
        ),
    ),
    Case(
        rule="H9",
        name="example_bishop_beside_enemy_rook_magnet_cannot_move_diagonally_away",
        fen="K7/8/8/4B2k/4+r3/8/8/8 w - - 0 1",
        legal=_set("e5f4 e5g3 e5h2 e5d4 e5c3 e5b2 e5a1 e5e5 a8a8 a8a7 a8b7 a8b8"),
        illegal=_set("e5f6 e5g7 e5h8 e5d6 e5c7 e5b8"),
        exact=True,
        note="Rules example 2: Black Rook Magnet e4 south of the White Bishop e5: no NE and no NW moves.",
    ),
    Case(
        rule="H9",
        name="example_rook_diagonal_to_enemy_bishop_magnet_cannot_move_north_or_east",
        fen="7k/8/8/4R3/3+b4/8/8/K7 w - - 0 1",
        legal=_set("e5d5 e5c5 e5b5 e5a5 e5e4 e5e3 e5e2 e5e1 e5e5 a1a1 a1a2 a1b1 a1b2"),
        illegal=_set("e5e6 e5e7 e5e8 e5f5 e5g5 e5h5"),
        exact=True,
        note="Rules example 3: Black Bishop Magnet d4 south-west of the White Rook e5: no N and no E moves.",
    ),
    Case(
        rule="H9",
        name="example_bishop_diagonal_to_enemy_bishop_magnet_cannot_move_straight_away",
        fen="K7/8/8/4B3/3+b4/8/8/7k w - - 0 1",
        legal=_set("e5d6 e5c7 e5b8 e5f4 e5g3 e5h2 e5d4 e5e5 a8a8 a8a7 a8b7 a8b8"),
        illegal=_set("e5f6 e5g7 e5h8"),
        exact=True,
        after=(("e5d4", "K7/8/8/8/3b4/8/8/7k b - - 0 1"),),
        note="Rules example 4: Black Bishop Magnet d4 south-west of the White Bishop e5: no NE move.",
    ),
    Case(
        rule="H9",
        name="own_magnet_does_not_restrict",
        fen="7k/8/8/4R3/4+R3/8/8/K7 w - - 0 1",
        legal=_set("e5e6 e5e7 e5e8 e5a5 e5h5"),
        illegal=_set("e5e4"),
        note="Only the opponent's magnets restrict.",
    ),
    Case(
        rule="H9",
        name="magnets_in_the_other_adjacency_do_not_restrict",
        fen="7k/8/8/4R3/3+r+b3/8/8/K7 w - - 0 1",
        legal=_set("e5e6 e5e7 e5e8 e5f5 e5g5 e5h5 e5d5 e5c5 e5b5 e5a5 e5e4 e5e5"),
        illegal=_set("e5d4 e5e3"),
        note=(
            "A Rook Magnet restricts only orthogonal neighbours (d4 is diagonal) and a Bishop Magnet only "
            "diagonal neighbours (e4 is orthogonal): the Rook e5 is free in all four directions."
        ),
    ),
    Case(
        rule="H9",
        name="restrictions_add_up",
        fen="7k/8/5+b2/4R3/4+r3/8/8/K7 w - - 0 1",
        legal=_set("e5f5 e5g5 e5h5 e5e5 a1a1 a1a2 a1b1 a1b2"),
        illegal=_set("e5e4 e5e6 e5d5 e5a5"),
        exact=True,
        note=(
            "Rook Magnet e4 (south) closes north; Bishop Magnet f6 (north-east) closes west and south "
            "(so not even the capture on e4). Only east is left."
        ),
    ),
    Case(
        rule="H9",
        name="restricted_direction_gives_no_check",
        fen="7k/8/8/4B3/3+b4/8/8/K7 b - - 0 1",
        legal=_set("h8g7 h8g8 h8h7 h8h8 a1c3"),
        illegal=_set("d4d4"),
        check=False,
        note=(
            "(decided) The White Bishop e5 cannot move north-east (Black Bishop Magnet d4), so it neither "
            "checks h8 nor covers g7. a1c3 is the Black magnet pulling the White King. Turning the magnet "
            "back into a Bishop (d4d4) is illegal: it would open the diagonal to h8."
        ),
    ),
    Case(
        rule="H9",
        name="unrestricted_bishop_gives_check",
        fen="7k/8/8/4B3/8/8/8/K7 b - - 0 1",
        legal=_set("h8g8 h8h7"),
        illegal=_set("h8g7 h8h8"),
        check=True,
        exact=True,
        note="Same position without the magnet: the Bishop checks h8 and covers g7.",
    ),
    Case(
        rule="H9",
        name="restriction_does_not_apply_to_pull",
        fen="4+R2k/8/8/4R3/4+r3/8/8/K7 w - - 0 1",
        legal=_set("e5e7 e5h5 e5e4 h8f8"),
        illegal=_set("e5e6"),
        after=(("e5e7", "4+R2k/4R3/8/8/4+r3/8/8/K7 b - - 1 1"),),
        note=(
            "The Rook e5 may not move north itself (Black Rook Magnet e4), but the White Rook Magnet e8 may "
            "pull it north to e7."
        ),
    ),
    Case(
        rule="H9",
        name="pulled_rook_next_to_enemy_bishop_magnet_is_restricted",
        fen="K6k/8/8/8/5r2/8/8/2+B5 w - - 0 1",
        moves=("f4d2",),
        legal=_set("d2c2 d2b2 d2a2 d2d1 d2d2"),
        illegal=_set("d2d3 d2d8 d2e2 d2h2"),
        check=False,
        note="The Black Rook d2 has the White Bishop Magnet c1 south-west of it: no N and no E moves.",
    ),
    Case(
        rule="H9",
        name="rook_turned_magnet_restricts_checking_rook",
        fen="4k3/8/8/8/8/7K/4R3/4r3 b - - 0 1",
        legal=_set("e1e1 e8d8 e8f8 e8d7 e8f7"),
        illegal=_set("e8e8 e8e7 e1e2 e1a1"),
        check=True,
        exact=True,
        after=(("e1e1", "4k3/8/8/8/8/7K/4R3/4+r3 w - - 1 2"),),
        note=(
            "Black is in check from the Rook e2. Turning the Rook e1 into a Rook Magnet closes the Rook's "
            "way north. Capturing e2 does not help: the capturing Rook becomes White's and still checks."
        ),
    ),
    # ---------------------------------------------------------------------------------- H10: King
    Case(
        rule="H10",
        name="king_captures_without_changing_owner",
        fen="7k/8/8/4r3/4K3/8/8/8 w - - 0 1",
        legal=_set("e4e5 e4d4 e4f4 e4d3 e4f3"),
        illegal=_set("e4e3 e4d5 e4f5 e4e4"),
        check=True,
        exact=True,
        after=(("e4e5", "7k/8/8/4K3/8/8/8/8 b - - 0 1"),),
        note="The King takes the Rook and stays White's.",
    ),
    Case(
        rule="H10",
        name="king_not_restricted_by_enemy_magnet",
        fen="7k/8/8/4K3/4+r3/8/8/8 w - - 0 1",
        legal=_set("e5e6 e5d6 e5f6 e5d5 e5f5 e5d4 e5f4 e5e4 e5e5"),
        exact=True,
        after=(("e5e4", "7k/8/8/8/4K3/8/8/8 b - - 0 1"),),
        note="Magnets do not restrict Kings: the King moves away from the Rook Magnet (e6) freely.",
    ),
    # ---------------------------------------------------------------------------------- H11: Knight
    Case(
        rule="H11",
        name="knight_moves_and_captures_without_changing_owner",
        fen="7k/8/8/3r4/8/4N3/8/K7 w - - 0 1",
        legal=_set("e3d5 e3c4 e3g4 e3c2 e3g2 e3f1 e3e3"),
        illegal=_set("e3f5 e3d1 e3e5"),
        after=(("e3d5", "7k/8/8/3N4/8/8/8/K7 b - - 0 1"),),
        note="The Knight is royal: f5 and d1 are attacked by the Rook d5, so it may not go there.",
    ),
    Case(
        rule="H11",
        name="knight_not_restricted_by_enemy_magnet",
        fen="7k/8/8/8/4+r3/4N3/8/K7 w - - 0 1",
        legal=_set("e3d5 e3f5 e3c4 e3g4 e3c2 e3g2 e3d1 e3f1 e3e3"),
        note="Magnets do not restrict Knights.",
    ),
    # ---------------------------------------------------------------------------------- H12: royalty
    Case(
        rule="H12",
        name="example_capture_illegal_when_changed_rook_attacks_own_king",
        fen="2K5/2b5/8/8/2R5/8/8/7k w - - 0 1",
        legal=_set("c4c5 c4c6 c4h4 c8c7 c8b7 c8d7"),
        illegal=_set("c4c7 c8b8 c8d8"),
        check=False,
        note=(
            "Rules example 6: after c4xc7 the Rook is Black's and attacks c8, so the capture is illegal. The "
            "King may take c7 itself (it does not change sides)."
        ),
    ),
    Case(
        rule="H12",
        name="capture_legal_when_own_magnet_restricts_changed_rook",
        fen="2K5/2b5/3+B4/8/2R5/8/8/7k w - - 0 1",
        legal=_set("c4c7"),
        after=(("c4c7", "2K5/2r5/3+B4/8/8/8/8/7k b - - 0 1"),),
        note=(
            "Like the example, but the White Bishop Magnet d6 is diagonally next to c7: the changed Black "
            "Rook cannot move north or west, so it does not attack c8 and the capture is legal."
        ),
    ),
    Case(
        rule="H12",
        name="capture_illegal_when_changed_bishop_attacks_own_knight_through_vacated_square",
        fen="7k/8/8/2r5/8/8/5B2/6N1 w - - 0 1",
        legal=_set("f2e3 f2d4 f2g3 f2h4 f2e1 f2f2 g1e2 g1f3 g1h3 g1g1"),
        illegal=_set("f2c5"),
        check=False,
        exact=True,
        note="After f2xc5 the Bishop is Black's and attacks the White Knight g1 through the vacated f2.",
    ),
    Case(
        rule="H12",
        name="king_cannot_step_where_the_capture_would_be_illegal_for_the_opponent",
        fen="k7/1b6/8/2K5/8/8/8/8 w - - 0 1",
        legal=_set("c5b6 c5b5 c5b4 c5c4 c5d4 c5d6 c5c5"),
        illegal=_set("c5c6 c5d5"),
        exact=True,
        note=(
            "c6 and d5 are attacked by the Bishop b7. Bxc6 would make it a White Bishop that attacks the "
            "Black King a8, so Black could not legally play it - but that does not matter (H12)."
        ),
    ),
    Case(
        rule="H12",
        name="pinned_bishop_may_only_transform",
        fen="4r2k/8/8/8/4B3/8/8/4K3 w - - 0 1",
        legal=_set("e4e4 e1d1 e1f1 e1d2 e1e2 e1f2 e1e1"),
        illegal=_set("e4d5 e4f3 e4h7"),
        check=False,
        note="The Bishop e4 shields the King from the Rook e8; transforming keeps it on the line.",
    ),
    # ---------------------------------------------------------------------------------- H13: royal checks
    Case(
        rule="H13",
        name="knight_checks_king",
        fen="7k/5N2/8/8/8/8/8/K7 b - - 0 1",
        legal=_set("h8g8 h8g7 h8h7"),
        illegal=_set("h8h8"),
        check=True,
        exact=True,
        note="The White Knight f7 (royal itself) checks the Black King h8; transforming does not help.",
    ),
    Case(
        rule="H13",
        name="king_checks_knight",
        fen="7k/8/4n3/4K3/8/8/8/8 b - - 0 1",
        legal=_set("e6c5 e6g5 e6c7 e6g7 e6d8 e6f8"),
        illegal=_set("e6d4 e6f4 e6e6 h8g8 h8h8"),
        check=True,
        exact=True,
        note="The White King e5 checks the Black Knight e6; the Knight must leave the King's reach.",
    ),
    # ---------------------------------------------------------------------------------- H14: no legal move
    Case(
        rule="H14",
        name="no_legal_move_loses",
        fen="k7/8/8/8/8/8/8/RR5K b - - 0 1",
        check=True,
        exact=True,
        outcome=("white", "no_legal_moves"),
        note="The Rooks a1 and b1 cover the a- and b-files; no escape, and transforming does not help.",
    ),
    Case(
        rule="H14",
        name="fork_of_both_royal_pieces_loses",
        fen="k7/8/8/R6n/8/8/8/7K b - - 0 1",
        illegal=_set("a8b8 a8b7 h5g7 h5f6 h5f4 h5g3 a8a8 h5h5"),
        check=True,
        exact=True,
        outcome=("white", "no_legal_moves"),
        note="The Rook a5 attacks both the King a8 and the Knight h5; only one can be saved per move.",
    ),
    # ---------------------------------------------------------------------------------- H15: repetition
    Case(
        rule="H15",
        name="threefold_repetition_loses_for_black_who_creates_it",
        fen="7k/8/8/8/8/8/8/K7 w - - 0 1",
        moves=("a1b1", "h8g8", "b1a1", "g8h8", "a1b1", "h8g8", "b1a1", "g8h8"),
        outcome=("white", "repetition"),
        note="The start position (White to move) occurs for the third time after Black's g8h8: Black loses.",
    ),
    Case(
        rule="H15",
        name="second_occurrence_is_no_loss",
        fen="7k/8/8/8/8/8/8/K7 w - - 0 1",
        moves=("a1b1", "h8g8", "b1a1", "g8h8", "a1b1", "h8g8", "b1a1"),
        legal=_set("g8h8"),
        outcome="ongoing",
        note="Every position has occurred at most twice so far.",
    ),
    Case(
        rule="H15",
        name="threefold_repetition_by_pulls_loses_for_white",
        fen="k2+r4/8/8/8/3B4/8/8/3+R3K w - - 0 1",
        moves=("d4d2", "d2d7", "d7d2", "d2d7", "d7d2"),
        outcome=("black", "repetition"),
        note=(
            "The two Rook Magnets pull the White Bishop back and forth; the position with the Bishop on d2 "
            "and Black to move occurs for the third time after White's pull: White loses."
        ),
    ),
    Case(
        rule="H15",
        name="threefold_repetition_by_transformations_loses_for_white",
        fen="k7/8/8/8/8/8/8/7K b - - 0 1",
        moves=("a8a8", "h1h1", "a8a8", "h1h1", "a8a8", "h1h1", "a8a8", "h1h1"),
        outcome=("black", "repetition"),
        note="King/Knight transformations repeat; Black moves first, so White's h1h1 makes the third one.",
    ),
    # ---------------------------------------------------------------------------------- H16: no draws
    Case(
        rule="H16",
        name="bare_kings_and_high_halfmove_clock_game_goes_on",
        fen="7k/8/8/8/8/8/8/K7 w - - 150 80",
        legal=_set("a1a1 a1a2 a1b1 a1b2"),
        exact=True,
        check=False,
        outcome="ongoing",
        after=(("a1a2", "7k/8/8/8/8/8/K7/8 b - - 151 80"),),
        note="No fifty-move rule, no insufficient material: the game goes on.",
    ),
    # ---------------------------------------------------------------------------------- H17: FEN validity
    Case(
        rule="H17",
        name="fen_without_white_royal_is_invalid",
        fen="7k/8/8/8/8/8/8/R7 w - - 0 1",
        fen_valid=False,
        note="White has no King or Knight.",
    ),
    Case(
        rule="H17",
        name="fen_without_black_royal_is_invalid",
        fen="8/8/8/8/8/8/8/K6b w - - 0 1",
        fen_valid=False,
        note="Black has no King or Knight.",
    ),
    Case(
        rule="H17",
        name="knight_alone_is_a_royal_piece",
        fen="7n/8/8/8/8/8/8/N7 w - - 0 1",
        legal=_set("a1a1 a1b3 a1c2"),
        exact=True,
        outcome="ongoing",
        note="A side with only a Knight has a royal piece, so the FEN is valid.",
    ),
    # ---------------------------------------------------------------------------------- H18: FEN
    Case(
        rule="H18",
        name="fen_magnets_of_both_sides",
        fen="+r+b5k/8/8/8/8/8/8/K5+B+R w - - 0 1",
        legal=_set("g1g1 h1h1 h8h2"),
        after=(
            ("h1h1", "+r+b5k/8/8/8/8/8/8/K5+BR b - - 1 1"),
            ("g1g1", "+r+b5k/8/8/8/8/8/8/K5B+R b - - 1 1"),
        ),
        note="Magnets are written +R/+B (+r/+b for Black); the FEN round-trips.",
    ),
    Case(
        rule="H18",
        name="fen_castling_field_must_be_dash",
        fen="7k/8/8/8/8/8/8/K7 w KQkq - 0 1",
        fen_valid=False,
        note="There is no castling.",
    ),
    Case(
        rule="H18",
        name="fen_plus_before_king_is_invalid",
        fen="7k/8/8/8/8/8/8/+K7 w - - 0 1",
        fen_valid=False,
        note="Only Rooks and Bishops have magnet forms.",
    ),
    # ---------------------------------------------------------------------------------- H19: UCI
    Case(
        rule="H19",
        name="transformation_is_the_square_twice",
        fen="7k/8/8/8/8/2R5/8/K7 w - - 0 1",
        legal=_set("c3c3"),
        after=(("c3c3", "7k/8/8/8/8/2+R5/8/K7 b - - 1 1"),),
        note="Rook c3 becomes a Rook Magnet: 'c3c3'.",
    ),
    Case(
        rule="H19",
        name="pull_is_written_with_the_pulled_piece_and_merges_with_ordinary_move",
        fen="7k/8/8/4R3/8/8/8/K3+R3 w - - 0 1",
        legal=_set("e5e2 e5e3 e5e4 a1d1"),
        illegal=_set("e1e5 e1e2 e1d1"),
        after=(
            ("e5e2", "7k/8/8/8/8/8/4R3/K3+R3 b - - 1 1"),
            ("a1d1", "7k/8/8/4R3/8/8/8/3K+R3 b - - 1 1"),
        ),
        note=(
            "Pulling the Rook e5 to e2 and moving it there give the same position: one move 'e5e2'. The "
            "magnet pulling its King from a1 to d1 is 'a1d1'."
        ),
    ),
]
