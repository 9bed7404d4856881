"""Fairy-Stockfish's rules of a variant as it holds them, and how a section's keys change them.

A section is read on top of its parent's rules, key by key in the fixed order Fairy-Stockfish's own
parser uses (so that `pawnTypes` and `promotionPawnTypes` in parent and child combine as they do
there). Rules this module does not model in detail are kept as their raw text under the key that
set them, for the importer to judge. Squares are (file, rank), both counted from 0.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable
from dataclasses import dataclass, field

from hordes.errors import HordesError

FILE_MAX = 12  # Fairy-Stockfish's largest board: 12 files by 10 ranks
RANK_MAX = 10
ALL = "*"  # a piece-set member meaning "any piece type" (flagPiece, extinctionPieceTypes)

Square = tuple[int, int]
Region = frozenset[Square]

# Fairy-Stockfish's predefined piece types, in its enum order (the order its parser reads them),
# with their Betza movement.
PIECE_TYPES: dict[str, str] = {
    "pawn": "fmWfceF", "knight": "N", "bishop": "B", "rook": "R", "queen": "Q", "fers": "F",
    "alfil": "A", "fersAlfil": "FA", "silver": "FfW", "aiwok": "RNF", "bers": "RF",
    "archbishop": "BN", "chancellor": "RN", "amazon": "QN", "knibis": "mNcB", "biskni": "mBcN",
    "kniroo": "mNcR", "rookni": "mRcN", "shogiPawn": "fW", "lance": "fR", "shogiKnight": "fN",
    "gold": "WfF", "dragonHorse": "BW", "clobber": "cW", "breakthrough": "fmWfF", "immobile": "",
    "cannon": "mRcpR", "janggiCannon": "pR", "soldier": "fsW", "horse": "nN", "elephant": "nA",
    "janggiElephant": "nZ", "banner": "RcpRnN", "wazir": "W", "commoner": "K", "centaur": "KN",
}  # fmt: skip
CUSTOM_PIECES = tuple(f"customPiece{i}" for i in range(1, 26))
TYPE_ORDER = (*PIECE_TYPES, *CUSTOM_PIECES, "king")
# Piece values (middlegame, endgame) Fairy-Stockfish uses for its predefined types.
PIECE_VALUES: dict[str, tuple[int, int]] = {
    "pawn": (126, 208), "knight": (781, 854), "bishop": (825, 915), "rook": (1276, 1380),
    "queen": (2538, 2682), "fers": (420, 450), "alfil": (350, 330), "fersAlfil": (700, 650),
    "silver": (660, 640), "aiwok": (2300, 2700), "bers": (1800, 1900), "archbishop": (2200, 2200),
    "chancellor": (2300, 2600), "amazon": (2700, 2850), "knibis": (1100, 1200),
    "biskni": (750, 700), "kniroo": (1050, 1250), "rookni": (800, 950), "shogiPawn": (90, 100),
    "lance": (400, 240), "shogiKnight": (420, 290), "gold": (720, 700),
    "dragonHorse": (1550, 1550), "clobber": (300, 300), "breakthrough": (300, 300),
    "immobile": (50, 50), "cannon": (800, 700), "janggiCannon": (800, 600), "soldier": (200, 270),
    "horse": (520, 800), "elephant": (300, 300), "janggiElephant": (340, 350),
    "banner": (3400, 3500), "wazir": (400, 350), "commoner": (700, 900), "centaur": (1800, 1900),
}  # fmt: skip


class FsfValueError(HordesError):
    """A key's value Fairy-Stockfish would not accept."""


def rank_region(*ranks: int) -> Region:
    """Whole ranks (1-based, as in the ini) across every file Fairy-Stockfish has."""
    return frozenset((f, r - 1) for r in ranks for f in range(FILE_MAX))


ALL_SQUARES = rank_region(*range(1, RANK_MAX + 1))


@dataclass
class Origin:
    """Where a rule got its value: the key, its text and the file:line (or built-in) that set it."""

    key: str
    value: str
    where: str


@dataclass
class FsfVariant:
    """The rules of one variant as Fairy-Stockfish keeps them (the part the importer reads)."""

    max_rank: int = 8
    max_file: int = 8
    letters: dict[str, str] = field(default_factory=dict)  # piece type -> lower-case letter
    custom_betza: dict[str, str] = field(default_factory=dict)  # custom type (or king) -> Betza
    start_fen: str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    promotion_region: list[Region] = field(default_factory=lambda: [rank_region(8), rank_region(1)])
    promotion_pawn_types: list[set[str]] = field(default_factory=lambda: [{"pawn"}, {"pawn"}])
    promotion_piece_types: list[set[str]] = field(
        default_factory=lambda: [{"queen", "rook", "bishop", "knight"}, {"queen", "rook", "bishop", "knight"}]
    )
    promoted_piece_type: dict[str, str] = field(default_factory=dict)  # shogi style: type -> type
    promotion_limit: dict[str, int] = field(default_factory=dict)
    double_step: bool = True
    double_step_region: list[Region] = field(default_factory=lambda: [rank_region(2), rank_region(7)])
    triple_step_region: list[Region] = field(default_factory=lambda: [frozenset(), frozenset()])
    en_passant_region: list[Region] = field(default_factory=lambda: [ALL_SQUARES, ALL_SQUARES])
    en_passant_types: list[set[str]] = field(default_factory=lambda: [{"pawn"}, {"pawn"}])
    castling: bool = True
    castling_kingside_file: int = 6
    castling_queenside_file: int = 2
    castling_rank: int = 0
    castling_king_piece: list[str] = field(default_factory=lambda: ["king", "king"])
    castling_rook_pieces: list[set[str]] = field(default_factory=lambda: [{"rook"}, {"rook"}])
    castling_rook_kingside_file: int = FILE_MAX - 1
    castling_rook_queenside_file: int = 0
    n_move_rule_types: list[set[str]] = field(default_factory=lambda: [{"pawn"}, {"pawn"}])
    n_move_rule: int = 50
    n_fold_rule: int = 3
    n_fold_value: str = "draw"
    stalemate_value: str = "draw"
    checkmate_value: str = "loss"
    flag_piece: list[str] = field(default_factory=lambda: [ALL, ALL])
    flag_region: list[Region] = field(default_factory=lambda: [frozenset(), frozenset()])
    values: dict[str, tuple[int | None, int | None]] = field(default_factory=dict)
    # Everything else: key -> raw text, for the importer to compare with Fairy-Stockfish's default.
    other: dict[str, str] = field(default_factory=dict)
    origins: dict[str, Origin] = field(default_factory=dict)  # rule name -> what set it last

    def copy(self) -> FsfVariant:
        return copy.deepcopy(self)

    # ----- pieces -----
    def type_of_letter(self, letter: str) -> str | None:
        for pt, ch in self.letters.items():
            if ch == letter.lower():
                return pt
        return None

    def add_piece(self, pt: str, letter: str) -> None:
        """As Fairy-Stockfish: a piece given a letter another type has takes it from that type."""
        other = self.type_of_letter(letter)
        if other is not None:
            self.remove_piece(other)
        self.letters[pt] = letter.lower()

    def remove_piece(self, pt: str) -> None:
        self.letters.pop(pt, None)
        for side in (0, 1):
            self.promotion_piece_types[side].discard(pt)

    def reset_pieces(self) -> None:
        self.letters.clear()
        for side in (0, 1):
            self.promotion_piece_types[side].clear()

    def betza_of(self, pt: str) -> str:
        if pt in self.custom_betza:
            return self.custom_betza[pt]
        return "K" if pt == "king" else PIECE_TYPES[pt]


def chess_rules() -> FsfVariant:
    """Fairy-Stockfish's chess, the base of its built-in variants."""
    v = FsfVariant()
    v.letters = {"pawn": "p", "knight": "n", "bishop": "b", "rook": "r", "queen": "q", "king": "k"}
    return v


def empty_rules() -> FsfVariant:
    """What a section without a parent starts from: chess's rules without any piece."""
    v = chess_rules()
    v.reset_pieces()
    return v


# ----- value parsers (as Fairy-Stockfish's `set` functions read them) -----
def _int(text: str) -> int:
    m = text.strip().split()
    if not m or not m[0].lstrip("-").isdigit():
        raise FsfValueError(f"expected a whole number, not {text!r}")
    return int(m[0])


def _bool(text: str) -> bool:
    if text not in ("true", "false"):
        raise FsfValueError(f"expected true or false, not {text!r}")
    return text == "true"


def _rank(text: str) -> int:
    n = _int(text)
    if not 1 <= n <= RANK_MAX:
        raise FsfValueError(f"rank {n} is out of range (1..{RANK_MAX})")
    return n


def _file(text: str) -> int:
    """A 1-based number or a letter: the file, 0-based."""
    t = text.strip()
    n = _int(t) - 1 if t[:1].isdigit() else (ord(t[:1].lower()) - ord("a") if t else -1)
    if not 0 <= n < FILE_MAX:
        raise FsfValueError(f"file {text!r} is out of range (1..{FILE_MAX} or a..l)")
    return n


def _fen(text: str) -> str:
    if not text.split():
        raise FsfValueError("the starting position is empty")
    return text


def _value(text: str) -> str:
    if text not in ("win", "loss", "draw", "none"):
        raise FsfValueError(f"expected win, loss, draw or none, not {text!r}")
    return text


def parse_region(text: str) -> Region:
    """Fairy-Stockfish's Bitboard syntax: squares `d4`, whole ranks `*8`, whole files `a*`, `-`."""
    squares: set[Square] = set()
    for token in text.split():
        if token == "-":
            break
        try:
            if token.endswith("*") and len(token) == 2 and token[0].isalpha():
                f = ord(token[0].lower()) - ord("a")
                if f >= FILE_MAX:
                    raise ValueError
                squares.update((f, r) for r in range(RANK_MAX))
            elif token.startswith("*"):
                r = int(token[1:]) - 1
                if not 0 <= r < RANK_MAX:
                    raise ValueError
                squares.update((f, r) for f in range(FILE_MAX))
            elif token[0].isalpha() and len(token) > 1:
                f, r = ord(token[0].lower()) - ord("a"), int(token[1:]) - 1
                if not (0 <= f < FILE_MAX and 0 <= r < RANK_MAX):
                    raise ValueError
                squares.add((f, r))
            else:
                raise ValueError
        except ValueError:
            raise FsfValueError(f"{token!r} is not a square, '*N' rank or 'X*' file") from None
    return frozenset(squares)


def _piece_set(v: FsfVariant, text: str) -> set[str]:
    out: set[str] = set()
    for ch in text.replace(" ", ""):
        if ch == "-":
            break
        if ch == "*":
            out.add(ALL)
            continue
        pt = v.type_of_letter(ch)
        if pt is None:
            raise FsfValueError(f"no piece type has the letter {ch!r}")
        out.add(pt)
    return out


def _piece_type(v: FsfVariant, text: str) -> str:
    types = _piece_set(v, text)
    return sorted(types)[-1] if types else ""


def _pairs(v: FsfVariant, text: str) -> list[tuple[str, str]]:
    """`p:g s:g` or `q:1 r:2`: (piece type, the text after the colon)."""
    out = []
    for token in text.split():
        letter, sep, rest = token.partition(":")
        pt = v.type_of_letter(letter)
        if not sep or len(letter) != 1 or pt is None:
            raise FsfValueError(f"expected letter:value pairs, {token!r} is not one")
        out.append((pt, rest))
    return out


Config = dict[str, tuple[str, str]]  # key -> (value, where it was written)


class _Reader:
    """Applies one section's keys to a variant, in Fairy-Stockfish's parser order."""

    def __init__(self, v: FsfVariant, config: Config) -> None:
        self.v = v
        self.config = config
        self.consumed: set[str] = set()
        self.errors: list[tuple[str, str]] = []  # (key, problem)

    def take(self, key: str, apply: Callable[[str], None], rule: str = "") -> bool:
        if key not in self.config:
            return False
        self.consumed.add(key)
        text, where = self.config[key]
        try:
            apply(text)
        except FsfValueError as exc:
            self.errors.append((key, str(exc)))
            return False
        self.v.origins[rule or key] = Origin(key, text, where)
        return True

    def side_keys(self, base: str, apply: Callable[[int, str], None], rule: str) -> None:
        """`base` for both colours, then `baseWhite` and `baseBlack`."""

        def both(text: str) -> None:
            apply(0, text)
            apply(1, text)

        self.take(base, both, rule)
        self.take(base + "White", lambda t: apply(0, t), rule)
        self.take(base + "Black", lambda t: apply(1, t), rule)

    def other(self, key: str) -> None:
        def keep(text: str) -> None:
            self.v.other[key] = text

        self.take(key, keep)


# Keys Fairy-Stockfish reads that only matter to its GUIs or its own evaluation: accepted, unused.
IGNORED_KEYS = frozenset({"variantTemplate", "pieceToCharTable", "pocketSize", "nnueAlias"})
# Keys kept as raw text, with their Fairy-Stockfish defaults (the importer rejects other values).
OTHER_DEFAULTS: dict[str, str] = {
    "chess960": "false", "twoBoards": "false", "sittuyinPromotion": "false",
    "piecePromotionOnCapture": "false", "mandatoryPawnPromotion": "true",
    "mandatoryPiecePromotion": "false", "pieceDemotion": "false", "blastOnCapture": "false",
    "blastImmuneTypes": "-", "mutuallyImmuneTypes": "-", "petrifyOnCaptureTypes": "-",
    "petrifyBlastPieces": "false", "castlingDroppedPiece": "false", "castlingKingFile": "e",
    "oppositeCastling": "false", "checking": "true", "dropChecks": "true", "mustCapture": "false",
    "mustDrop": "false", "mustDropType": "*", "pieceDrops": "false", "dropLoop": "false",
    "capturesToHand": "false", "firstRankPawnDrops": "false", "promotionZonePawnDrops": "false",
    "enclosingDrop": "none", "enclosingDropStart": "-", "dropRegionWhite": "*",
    "dropRegionBlack": "*", "whiteDropRegion": "*", "blackDropRegion": "*", "dropOnTop": "false",
    "sittuyinRookDrop": "false", "dropOppositeColoredBishop": "false", "dropPromoted": "false",
    "dropNoDoubled": "-", "dropNoDoubledCount": "1", "immobilityIllegal": "false",
    "gating": "false", "wallingRule": "none", "wallingRegionWhite": "*", "wallingRegionBlack": "*",
    "wallingRegion": "*", "wallOrMove": "false", "seirawanGating": "false",
    "cambodianMoves": "false", "diagonalLines": "-", "pass": "false", "passWhite": "false",
    "passBlack": "false", "passOnStalemate": "false", "passOnStalemateWhite": "false",
    "passOnStalemateBlack": "false", "makpongRule": "false", "flyingGeneral": "false",
    "soldierPromotionRank": "1", "flipEnclosedPieces": "none", "nFoldValueAbsolute": "false",
    "perpetualCheckIllegal": "false", "moveRepetitionIllegal": "false", "chasingRule": "none",
    "stalematePieceCount": "false", "shogiPawnDropMateIllegal": "false",
    "shatarMateRule": "false", "bikjangRule": "false", "extinctionValue": "none",
    "extinctionClaim": "false", "extinctionPseudoRoyal": "false", "dupleCheck": "false",
    "extinctionPieceTypes": "-", "extinctionPieceCount": "0",
    "extinctionOpponentPieceCount": "0", "flagPieceCount": "1", "flagPieceBlockedWin": "false",
    "flagMove": "false", "flagPieceSafe": "false", "checkCounting": "false", "connectN": "0",
    "connectPieceTypes": "*", "connectHorizontal": "true", "connectVertical": "true",
    "connectDiagonal": "true", "connectRegion1White": "-", "connectRegion2White": "-",
    "connectRegion1Black": "-", "connectRegion2Black": "-", "connectNxN": "0", "collinearN": "0",
    "connectValue": "win", "materialCounting": "none", "adjudicateFullBoard": "false",
    "countingRule": "none", "castlingWins": "-",
}  # fmt: skip


def read_section(parent: FsfVariant, config: Config) -> tuple[FsfVariant, list[str], list[tuple[str, str]]]:
    """The parent's rules with the section's keys applied: (rules, unknown keys, bad values)."""
    v = parent.copy()
    r = _Reader(v, config)
    r.take("maxRank", lambda t: setattr(v, "max_rank", _rank(t)))
    r.take("maxFile", lambda t: setattr(v, "max_file", _file(t) + 1))
    for pt in TYPE_ORDER:
        r.take(pt, functools.partial(_piece_key, v, pt), f"piece:{pt}")
        for colour in ("White", "Black"):
            cap = pt[0].upper() + pt[1:]
            r.other(f"mobilityRegion{colour}{cap}")
    for phase, key in enumerate(("pieceValueMg", "pieceValueEg")):
        r.take(key, functools.partial(_piece_values, v, phase))

    def set_region(name: str) -> Callable[[int, str], None]:
        return lambda s, t: getattr(v, name).__setitem__(s, parse_region(t))

    def set_types(name: str) -> Callable[[int, str], None]:
        return lambda s, t: getattr(v, name).__setitem__(s, _piece_set(v, t))

    def all_ranks_from(text: str) -> None:
        """The deprecated promotionRank: that rank and the ones beyond it, for each side."""
        rank = _rank(text)
        v.promotion_region[0] = rank_region(*range(rank, v.max_rank + 1))
        v.promotion_region[1] = rank_region(*range(1, v.max_rank - rank + 2))

    def double_step_up_to(text: str) -> None:
        """The deprecated doubleStepRank: from the second rank up to that one."""
        rank = _rank(text)
        v.double_step_region[0] = rank_region(*range(2, rank + 1))
        v.double_step_region[1] = rank_region(*range(v.max_rank - rank + 1, v.max_rank))

    def rook_pieces(text: str) -> None:
        v.castling_rook_pieces[0] = _piece_set(v, text)
        v.castling_rook_pieces[1] = _piece_set(v, text)

    r.take("promotionRank", all_ranks_from, "promotionRegion")
    r.take("doubleStepRank", double_step_up_to, "doubleStepRegion")
    r.other("doubleStepRankMin")
    r.take("whiteFlag", lambda t: v.flag_region.__setitem__(0, parse_region(t)), "flagRegion")
    r.take("blackFlag", lambda t: v.flag_region.__setitem__(1, parse_region(t)), "flagRegion")
    r.take("castlingRookPiece", rook_pieces, "castlingRookPieces")
    r.other("whiteDropRegion")
    r.other("blackDropRegion")
    r.other("dropOnTop")
    r.take("pawnTypes", lambda t: _pawn_types(v, _piece_set(v, t)), "pawnTypes")
    for key in ("variantTemplate", "pieceToCharTable", "pocketSize", "nnueAlias"):
        r.take(key, lambda t: None)
    r.other("chess960")
    r.other("twoBoards")
    r.take("startFen", lambda t: setattr(v, "start_fen", _fen(t)))
    r.side_keys("promotionRegion", set_region("promotion_region"), "promotionRegion")
    r.side_keys("promotionPawnTypes", set_types("promotion_pawn_types"), "promotionPawnTypes")
    r.side_keys("promotionPieceTypes", set_types("promotion_piece_types"), "promotionPieceTypes")
    r.other("sittuyinPromotion")
    r.take("promotionLimit", lambda t: v.promotion_limit.update((pt, _int(n)) for pt, n in _pairs(v, t)))
    r.take("promotedPieceType", lambda t: _promoted(v, t))
    for key in ("piecePromotionOnCapture", "mandatoryPawnPromotion", "mandatoryPiecePromotion",
                "pieceDemotion", "blastOnCapture", "blastImmuneTypes", "mutuallyImmuneTypes",
                "petrifyOnCaptureTypes", "petrifyBlastPieces"):  # fmt: skip
        r.other(key)
    r.take("doubleStep", lambda t: setattr(v, "double_step", _bool(t)))
    r.side_keys("doubleStepRegion", set_region("double_step_region"), "doubleStepRegion")
    r.side_keys("tripleStepRegion", set_region("triple_step_region"), "tripleStepRegion")
    r.side_keys("enPassantRegion", set_region("en_passant_region"), "enPassantRegion")
    r.side_keys("enPassantTypes", set_types("en_passant_types"), "enPassantTypes")
    r.take("castling", lambda t: setattr(v, "castling", _bool(t)))
    r.other("castlingDroppedPiece")
    r.take("castlingKingsideFile", lambda t: setattr(v, "castling_kingside_file", _file(t)))
    r.take("castlingQueensideFile", lambda t: setattr(v, "castling_queenside_file", _file(t)))
    r.take("castlingRank", lambda t: setattr(v, "castling_rank", _rank(t) - 1))
    r.other("castlingKingFile")
    r.side_keys(
        "castlingKingPiece",
        lambda s, t: _set(v.castling_king_piece, s, _piece_type(v, t)),
        "castlingKingPiece",
    )
    r.take("castlingRookKingsideFile", lambda t: setattr(v, "castling_rook_kingside_file", _file(t)))
    r.take("castlingRookQueensideFile", lambda t: setattr(v, "castling_rook_queenside_file", _file(t)))
    r.side_keys("castlingRookPieces", set_types("castling_rook_pieces"), "castlingRookPieces")
    for key in ("oppositeCastling", "checking", "dropChecks", "mustCapture", "mustDrop", "mustDropType",
                "pieceDrops", "dropLoop", "capturesToHand", "firstRankPawnDrops",
                "promotionZonePawnDrops", "enclosingDrop", "enclosingDropStart", "dropRegionWhite",
                "dropRegionBlack", "sittuyinRookDrop", "dropOppositeColoredBishop", "dropPromoted",
                "dropNoDoubled", "dropNoDoubledCount", "immobilityIllegal", "gating", "wallingRule",
                "wallingRegionWhite", "wallingRegionBlack", "wallingRegion", "wallOrMove",
                "seirawanGating", "cambodianMoves", "diagonalLines", "pass", "passWhite", "passBlack",
                "passOnStalemate", "passOnStalemateWhite", "passOnStalemateBlack", "makpongRule",
                "flyingGeneral", "soldierPromotionRank", "flipEnclosedPieces"):  # fmt: skip
        r.other(key)
    r.side_keys("nMoveRuleTypes", set_types("n_move_rule_types"), "nMoveRuleTypes")
    r.take("nMoveRule", lambda t: setattr(v, "n_move_rule", _int(t)))
    r.take("nFoldRule", lambda t: setattr(v, "n_fold_rule", _int(t)))
    r.take("nFoldValue", lambda t: setattr(v, "n_fold_value", _value(t)))
    for key in ("nFoldValueAbsolute", "perpetualCheckIllegal", "moveRepetitionIllegal", "chasingRule"):
        r.other(key)
    r.take("stalemateValue", lambda t: setattr(v, "stalemate_value", _value(t)))
    r.other("stalematePieceCount")
    r.take("checkmateValue", lambda t: setattr(v, "checkmate_value", _value(t)))
    for key in ("shogiPawnDropMateIllegal", "shatarMateRule", "bikjangRule", "extinctionValue",
                "extinctionClaim", "extinctionPseudoRoyal", "dupleCheck", "extinctionPieceTypes",
                "extinctionPieceCount", "extinctionOpponentPieceCount"):  # fmt: skip
        r.other(key)
    r.side_keys("flagPiece", lambda s, t: v.flag_piece.__setitem__(s, _piece_type(v, t)), "flagPiece")
    r.side_keys("flagRegion", set_region("flag_region"), "flagRegion")
    for key in ("flagPieceCount", "flagPieceBlockedWin", "flagMove", "flagPieceSafe", "checkCounting",
                "connectN", "connectPieceTypes", "connectHorizontal", "connectVertical",
                "connectDiagonal", "connectRegion1White", "connectRegion2White", "connectRegion1Black",
                "connectRegion2Black", "connectNxN", "collinearN", "connectValue", "materialCounting",
                "adjudicateFullBoard", "countingRule", "castlingWins"):  # fmt: skip
        r.other(key)
    unknown = [k for k in config if k not in r.consumed]
    return v, unknown, r.errors


def _set(target: list[str], side: int, value: str) -> None:
    target[side] = value


def _piece_key(v: FsfVariant, pt: str, text: str) -> None:
    """`knight = n`, `knight = -` (removed), `customPiece1 = n:NN`, `king = k:W` (its movement)."""
    if not text:
        return
    if not text[0].isalpha():
        if text[0] != "-":
            raise FsfValueError(f"invalid letter {text[0]!r}")
        v.remove_piece(pt)
        return
    v.add_piece(pt, text[0])
    if pt in CUSTOM_PIECES:
        if len(text) < 2:
            raise FsfValueError("a custom piece needs its Betza movement after the letter (n:NN)")
        v.custom_betza[pt] = text[2:]
        if "e" in text[2:]:
            for side in (0, 1):
                v.en_passant_types[side].add(pt)
    elif pt == "king":
        if len(text) > 1:
            v.custom_betza["king"] = text[2:]
        else:
            v.custom_betza.pop("king", None)


def _piece_values(v: FsfVariant, phase: int, text: str) -> None:
    for pt, number in _pairs(v, text):
        mg, eg = v.values.get(pt, (None, None))
        value = _int(number)
        v.values[pt] = (value, eg) if phase == 0 else (mg, value)


def _pawn_types(v: FsfVariant, types: set[str]) -> None:
    for side in (0, 1):
        v.promotion_pawn_types[side] = set(types)
        v.en_passant_types[side] = set(types)
        v.n_move_rule_types[side] = set(types)


def _promoted(v: FsfVariant, text: str) -> None:
    for pt, target in _pairs(v, text):
        if target == "-":
            v.promoted_piece_type.pop(pt, None)
            continue
        to = v.type_of_letter(target)
        if to is None or len(target) != 1:
            raise FsfValueError(f"no piece type has the letter {target!r}")
        v.promoted_piece_type[pt] = to
