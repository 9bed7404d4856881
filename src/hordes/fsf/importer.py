"""Fairy-Stockfish variants.ini sections as hordes variant documents.

`import_sections` resolves each section's inheritance (`[name:parent]`, the parent an earlier section
or one of Fairy-Stockfish's built-in variants, whose definitions are in builtins.ini here), then
translates the resulting rules into a document. A rule our mechanisms cannot express is a Problem
naming the key, where it was set and the mechanism it needs; a section with a problem gets no
document, since a document that plays a different game under the same name would mislead.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from importlib.resources import files

from hordes.core.betza import parse_betza
from hordes.errors import HordesError
from hordes.fsf.ini import IniError, Section, parse_ini
from hordes.fsf.model import (
    ALL,
    CUSTOM_PIECES,
    OTHER_DEFAULTS,
    PIECE_VALUES,
    TYPE_ORDER,
    Config,
    FsfVariant,
    Region,
    chess_rules,
    empty_rules,
    read_section,
)

BUILTIN_ROOT = "chess"


@dataclass(frozen=True)
class Problem:
    """A rule of the section that no hordes mechanism expresses."""

    key: str
    where: str
    mechanism: str
    detail: str = ""

    def __str__(self) -> str:
        extra = f": {self.detail}" if self.detail else ""
        return f"{self.key} ({self.where}) needs {self.mechanism}{extra}"


@dataclass
class Imported:
    """One section's outcome: its document text, or the problems that stopped it."""

    name: str
    slug: str
    document: str | None
    problems: list[Problem] = field(default_factory=list)
    rules: FsfVariant | None = None


# Mechanisms named in problems; the coverage table ranks them by how many variants each blocks.
DROPS = "piece drops"
GATING = "gating (S-Chess, Cambodian first moves)"
WALLS = "walls (duck, arrows, blocked squares)"
EXTINCTION = "extinction (losing by losing every piece of a kind)"
CHECK_COUNT = "check counting"
COUNTING = "counting rules (Makruk, ASEAN)"
MATERIAL = "material counting adjudication"
MUST_CAPTURE = "compulsory capture"
NO_CHECKS = "games without check"
BLAST = "explosions on capture (atomic)"
PETRIFY = "petrification on capture"
HOPPER = "hoppers (Betza p, g: cannons, grasshoppers)"
LAME = "lame leapers (Betza n: xiangqi horse)"
INITIAL = "initial moves other than a pawn's double step (Betza i)"
MOBILITY = "mobility regions (palaces, river)"
SHOGI_PROMOTION = "shogi-style promotion of pieces (promotedPieceType)"
PROMOTION_LIMIT = "promotion limits"
OPTIONAL_PROMOTION = "optional pawn promotion"
SITTUYIN_PROMOTION = "Sittuyin promotion (in place, as a move)"
STEP_SQUARES = "double-step zones that are not whole ranks, triple steps"
STEP_PROMOTION = "double steps that land in the promotion zone"
EN_PASSANT = "en passant limited to some squares or pieces"
CASTLING_OTHER = "castling with other pieces, ranks or files (Chess960, S-Chess)"
FLAG = "flag wins by non-royal pieces or with an extra move"
NO_ROYAL = "games without a royal piece"
CHECKMATE_VALUE = "checkmate that is not a loss (misère)"
STALEMATE_COUNT = "stalemate decided by piece count"
REPETITION = "repetition rules (perpetual check, chasing, other results)"
PASSING = "passing a move"
SPECIAL = "xiangqi, janggi and shatar special rules"
ENCLOSING = "enclosing and flipping (reversi, ataxx)"
CONNECT = "connection wins (connect N)"
CASTLING_WINS = "castling as a win condition"
MAKPONG = "makpong (a king in check may not move)"
IMMOBILITY = "immobility rule (no move to a square with no way out)"
FEN_PROMOTED = "promoted pieces in the starting position"
PROMOTION_NONE = "pawns that cannot promote on the last rank"

# For each raw key: the mechanism it needs when not at its default, and the key (with the value)
# that switches the whole rule on, when the key matters only then.
_OTHER_MECHANISM: dict[str, tuple[str, tuple[str, str] | None]] = {
    "chess960": (CASTLING_OTHER, None), "twoBoards": (DROPS, None),
    "sittuyinPromotion": (SITTUYIN_PROMOTION, None), "piecePromotionOnCapture": (SHOGI_PROMOTION, None),
    "mandatoryPawnPromotion": (OPTIONAL_PROMOTION, None), "pieceDemotion": (SHOGI_PROMOTION, None),
    "blastOnCapture": (BLAST, None), "petrifyOnCaptureTypes": (PETRIFY, None),
    "oppositeCastling": (CASTLING_OTHER, None), "checking": (NO_CHECKS, None),
    "mustCapture": (MUST_CAPTURE, None), "mustDrop": (DROPS, None), "pieceDrops": (DROPS, None),
    "dropLoop": (DROPS, None), "capturesToHand": (DROPS, None), "immobilityIllegal": (IMMOBILITY, None),
    "gating": (GATING, None), "seirawanGating": (GATING, None), "cambodianMoves": (GATING, None),
    "wallingRule": (WALLS, None), "diagonalLines": (SPECIAL, None), "pass": (PASSING, None),
    "passWhite": (PASSING, None), "passBlack": (PASSING, None), "passOnStalemate": (PASSING, None),
    "passOnStalemateWhite": (PASSING, None), "passOnStalemateBlack": (PASSING, None),
    "makpongRule": (MAKPONG, None), "flyingGeneral": (SPECIAL, None),
    "flipEnclosedPieces": (ENCLOSING, None), "enclosingDrop": (ENCLOSING, None),
    "nFoldValueAbsolute": (REPETITION, None), "perpetualCheckIllegal": (REPETITION, None),
    "moveRepetitionIllegal": (REPETITION, None), "chasingRule": (REPETITION, None),
    "stalematePieceCount": (STALEMATE_COUNT, None), "shatarMateRule": (SPECIAL, None),
    "bikjangRule": (SPECIAL, None), "extinctionValue": (EXTINCTION, None),
    "checkCounting": (CHECK_COUNT, None), "connectN": (CONNECT, None), "connectNxN": (CONNECT, None),
    "collinearN": (CONNECT, None), "connectRegion1White": (CONNECT, None),
    "connectRegion1Black": (CONNECT, None), "materialCounting": (MATERIAL, None),
    "countingRule": (COUNTING, None), "castlingWins": (CASTLING_WINS, None),
    "castlingDroppedPiece": (DROPS, ("pieceDrops", "true")),
    "dropChecks": (DROPS, ("pieceDrops", "true")), "mustDropType": (DROPS, ("mustDrop", "true")),
    "firstRankPawnDrops": (DROPS, ("pieceDrops", "true")),
    "promotionZonePawnDrops": (DROPS, ("pieceDrops", "true")),
    "enclosingDropStart": (ENCLOSING, ("pieceDrops", "true")),
    "dropRegionWhite": (DROPS, ("pieceDrops", "true")), "dropRegionBlack": (DROPS, ("pieceDrops", "true")),
    "whiteDropRegion": (DROPS, ("pieceDrops", "true")), "blackDropRegion": (DROPS, ("pieceDrops", "true")),
    "dropOnTop": (DROPS, ("pieceDrops", "true")), "sittuyinRookDrop": (DROPS, ("pieceDrops", "true")),
    "dropOppositeColoredBishop": (DROPS, ("pieceDrops", "true")),
    "dropPromoted": (DROPS, ("pieceDrops", "true")), "dropNoDoubled": (DROPS, ("pieceDrops", "true")),
    "dropNoDoubledCount": (DROPS, ("pieceDrops", "true")),
    "blastImmuneTypes": (BLAST, ("blastOnCapture", "true")),
    "mutuallyImmuneTypes": (BLAST, ("blastOnCapture", "true")),
    "petrifyBlastPieces": (PETRIFY, ("blastOnCapture", "true")),
    "wallingRegionWhite": (WALLS, ("wallingRule", "!none")),
    "wallingRegionBlack": (WALLS, ("wallingRule", "!none")),
    "wallingRegion": (WALLS, ("wallingRule", "!none")), "wallOrMove": (WALLS, ("wallingRule", "!none")),
    "extinctionClaim": (EXTINCTION, ("extinctionValue", "!none")),
    "extinctionPseudoRoyal": (EXTINCTION, ("extinctionValue", "!none")),
    "dupleCheck": (EXTINCTION, ("extinctionValue", "!none")),
    "extinctionPieceTypes": (EXTINCTION, ("extinctionValue", "!none")),
    "extinctionPieceCount": (EXTINCTION, ("extinctionValue", "!none")),
    "extinctionOpponentPieceCount": (EXTINCTION, ("extinctionValue", "!none")),
    "adjudicateFullBoard": (MATERIAL, ("materialCounting", "!none")),
    "mandatoryPiecePromotion": (SHOGI_PROMOTION, ("promotedPieceType", "")),
    "shogiPawnDropMateIllegal": (DROPS, ("pieceDrops", "true")),
    "connectRegion2White": (CONNECT, ("connectRegion1White", "!-")),
    "connectRegion2Black": (CONNECT, ("connectRegion1Black", "!-")),
}  # fmt: skip
# Keys that never change the game for our purposes (the king's file matters only with several kings
# of the castling type; the connect details only with a connect rule, reported by its own key).
_HARMLESS = frozenset({
    "castlingKingFile", "connectPieceTypes", "connectHorizontal", "connectVertical",
    "connectDiagonal", "connectValue", "flagPieceCount", "flagPieceBlockedWin", "flagMove",
    "flagPieceSafe", "soldierPromotionRank", "doubleStepRankMin",
})  # fmt: skip


def _builtin_sections() -> dict[str, Section]:
    text = files("hordes.fsf").joinpath("builtins.ini").read_text(encoding="utf-8")
    return {s.name: s for s in parse_ini(text, "builtins.ini")}


_BUILTINS: dict[str, Section] | None = None


def builtin_sections() -> dict[str, Section]:
    """Fairy-Stockfish's built-in variants, written as ini sections (names starting with `_` are
    shared bases that Fairy-Stockfish does not list)."""
    global _BUILTINS
    if _BUILTINS is None:
        _BUILTINS = _builtin_sections()
    return _BUILTINS


def builtin_names() -> list[str]:
    return [name for name in builtin_sections() if not name.startswith("_")]


class _Resolver:
    """Rules of sections with their ancestors applied, built-ins and the file's own sections."""

    def __init__(self, sections: list[Section]) -> None:
        self.own = {s.name: s for s in sections}
        self.order = {s.name: i for i, s in enumerate(sections)}
        self.cache: dict[tuple[str, bool], tuple[FsfVariant, list[Problem]]] = {}

    def rules(self, name: str, builtin: bool = False) -> tuple[FsfVariant, list[Problem]]:
        key = (name, builtin)
        if key in self.cache:
            return self.cache[key]
        if builtin and name == BUILTIN_ROOT:
            return chess_rules(), []
        section = builtin_sections()[name] if builtin else self.own[name]
        where = f"built-in [{name}]" if builtin else ""
        problems: list[Problem] = []
        if section.parent is None:
            base = empty_rules()
        else:
            parent = section.parent
            own_parent = not builtin and parent in self.own and self.order[parent] < self.order[name]
            if own_parent:
                base, inherited = self.rules(parent)
            elif parent in builtin_sections():
                base, inherited = self.rules(parent, builtin=True)
            else:
                problem = f"[{name}:{parent}]: no section above and no built-in variant is called {parent!r}"
                raise IniError(section.source, section.line, problem)
            problems.extend(inherited)
        config: Config = {e.key: (e.value, where or section.where(e)) for e in section.entries.values()}
        rules, unknown, bad = read_section(base, config)
        for unknown_key in unknown:
            e = section.entries[unknown_key]
            where_set = config[unknown_key][1]
            problems.append(Problem(unknown_key, where_set, "a key Fairy-Stockfish does not know", e.value))
        for bad_key, detail in bad:
            raise IniError(section.source, section.entries[bad_key].line, f"{bad_key}: {detail}")
        self.cache[key] = (rules, problems)
        return rules, problems


def import_text(text: str, source: str = "<string>", names: list[str] | None = None) -> list[Imported]:
    """Documents for the named sections of an ini text (all of them by default)."""
    sections = parse_ini(text, source)
    own = {s.name: s for s in sections}
    wanted = names if names else [s.name for s in sections]
    missing = [n for n in wanted if n not in own]
    if missing:
        known = ", ".join(own) or "none"
        raise HordesError(f"{source}: no section {', '.join(map(repr, missing))} (sections: {known})")
    resolver = _Resolver(sections)
    out = []
    for name in wanted:
        section = own[name]
        if name in builtin_sections() and not name.startswith("_"):
            where = f"{source}:{section.line}"
            problem = Problem(
                f"[{name}]",
                where,
                "a name of its own",
                "Fairy-Stockfish refuses to redefine its built-in variant",
            )
            out.append(Imported(name, slug_of(name), None, [problem]))
            continue
        rules, problems = resolver.rules(name)
        out.append(translate(name, rules, problems))
    return out


def import_builtin(
    name: str, title: str | None = None, piece_names: dict[str, str] | None = None
) -> Imported:
    """A document for one of Fairy-Stockfish's built-in variants (used to ship them); `piece_names`
    names pieces by letter where Fairy-Stockfish has only "customPieceN"."""
    resolver = _Resolver([])
    rules, problems = resolver.rules(name, builtin=True)
    return translate(name, rules, problems, title=title, builtin=True, piece_names=piece_names)


def slug_of(name: str) -> str:
    return re.sub(r"[^a-z0-9-]+", "-", name.lower()).strip("-") or "variant"


# ----- translation -----------------------------------------------------------------------------
def _where(v: FsfVariant, rule: str) -> tuple[str, str]:
    origin = v.origins.get(rule)
    if origin is None:
        return rule, "Fairy-Stockfish's default"
    return origin.key, origin.where


def _other_value(v: FsfVariant, key: str) -> str:
    return v.other.get(key, OTHER_DEFAULTS.get(key, "")).strip()


def _switch_on(v: FsfVariant, condition: tuple[str, str] | None) -> bool:
    if condition is None:
        return True
    key, wanted = condition
    if key == "promotedPieceType":
        return bool(v.promoted_piece_type)
    value = _other_value(v, key)
    return value != wanted[1:] if wanted.startswith("!") else value == wanted


def _square_names(region: Region, cols: int, rows: int) -> list[str]:
    """The region's squares on the board, by name, rank by rank."""
    return [
        f"{chr(ord('a') + f)}{r + 1}" for r, f in sorted((r, f) for f, r in region if f < cols and r < rows)
    ]


def _ranks(region: Region, cols: int, rows: int) -> list[int] | None:
    """The ranks (1-based) a region covers on the board, or None when it is not whole ranks."""
    on_board = {(f, r) for f, r in region if f < cols and r < rows}
    ranks = sorted({r for _, r in on_board})
    if on_board != {(f, r) for r in ranks for f in range(cols)}:
        return None
    return [r + 1 for r in ranks]


class _Translator:
    def __init__(self, name: str, v: FsfVariant, problems: list[Problem]) -> None:
        self.name = name
        self.v = v
        self.problems = list(problems)
        self.rows = v.max_rank
        self.cols = v.max_file
        self.castling_files: tuple[int, int] | None = None

    def block(self, rule: str, mechanism: str, detail: str = "") -> None:
        key, where = _where(self.v, rule)
        self.problems.append(Problem(key, where, mechanism, detail))

    def others(self) -> None:
        v = self.v
        for key, (mechanism, condition) in _OTHER_MECHANISM.items():
            value = _other_value(v, key)
            if value == OTHER_DEFAULTS.get(key, "") or not _switch_on(v, condition):
                continue
            if key == "extinctionValue" and value == "none":
                continue
            self.block(key, mechanism, f"{key} = {value}")
        for key in v.other:
            if key.startswith("mobilityRegion") and v.other[key].strip() not in ("", "-"):
                self.block(key, MOBILITY, f"{key} = {v.other[key]}")
        if v.promoted_piece_type:
            self.block("promotedPieceType", SHOGI_PROMOTION)
        if v.promotion_limit and any(v.promotion_limit.values()):
            self.block("promotionLimit", PROMOTION_LIMIT)
        if v.checkmate_value != "loss":
            self.block("checkmateValue", CHECKMATE_VALUE, f"checkmateValue = {v.checkmate_value}")

    def pieces(self) -> dict[str, dict[str, object]]:
        """Our piece entries by letter; problems for movements we cannot express."""
        v = self.v
        out: dict[str, dict[str, object]] = {}
        self.double_steppers: set[str] = set()
        for pt in TYPE_ORDER:
            if pt not in v.letters:
                continue
            letter = v.letters[pt].upper()
            betza = v.betza_of(pt)
            entry: dict[str, object] = {"name": _display_name(pt, letter)}
            if pt == "pawn":
                betza = "fmWfcF"
                if v.double_step:
                    self.double_steppers.add(pt)
            elif pt in CUSTOM_PIECES or pt == "king":
                betza, steps = self.custom_betza(pt, betza)
                if steps:
                    self.double_steppers.add(pt)
            else:
                self.check_betza(pt, betza)
            if not betza:
                self.block(f"piece:{pt}", "pieces that never move", f"{pt} has no movement")
                continue
            entry["betza"] = _our_betza(betza)
            if pt == "king":
                entry["royal"] = True
            mg, eg = v.values.get(pt, (None, None))
            default = PIECE_VALUES.get(pt) or _estimate(betza)
            value = (mg if mg is not None else default[0], eg if eg is not None else default[1])
            if pt != "king":
                entry["value"] = list(value)
            out[letter] = entry
        return out

    def check_betza(self, pt: str, betza: str) -> None:
        if "p" in betza or "g" in betza:
            self.block(f"piece:{pt}", HOPPER, f"{pt} moves {betza}")
        elif "n" in betza:
            self.block(f"piece:{pt}", LAME, f"{pt} moves {betza}")

    def custom_betza(self, pt: str, betza: str) -> tuple[str, bool]:
        """The Betza string without what our pawn flag expresses (an en passant capture `e` and an
        initial forward double step `ifmnD`), and whether that double step was there."""
        steps = "ifmnD" in betza
        rest = betza.replace("ifmnD", "")
        if "e" in rest:
            rest = rest.replace("e", "")
        if "i" in rest:
            self.block(f"piece:{pt}", INITIAL, f"{pt} moves {betza}")
        self.check_betza(pt, rest)
        return rest, steps

    def fen(self, castling: bool) -> str:
        v = self.v
        fen = v.start_fen.strip()
        placement = fen.split()[0] if fen.split() else ""
        if "[" in placement:
            self.block("startFen", DROPS, "the starting position has pieces in hand")
            placement = placement.split("[")[0]
        if "*" in placement:
            self.block("startFen", WALLS, "the starting position has wall squares")
        if "+" in placement or "~" in placement:
            self.block("startFen", FEN_PROMOTED, "the starting position has promoted pieces")
        fields = fen.split()[1:]
        if len(fields) >= 3 and fields[1].isdigit():  # `w 0 1`: no castling or en passant fields
            fields = [fields[0], "-", "-", *fields[1:]]
        if len(fields) > 2 and "+" in fields[2]:
            self.block("startFen", CHECK_COUNT, "the starting position counts checks")
            del fields[2]
        if len(fields) > 1:
            rights = fields[1]
            if not castling:
                fields[1] = "-"
            elif rights != "-" and not set(rights) <= set("KQkq"):
                self.block("startFen", CASTLING_OTHER, f"castling field {rights!r}")
        return " ".join([placement, *fields])

    def royal_present(self, fen: str) -> bool:
        letter = self.v.letters.get("king")
        placement = fen.split()[0]
        return letter is not None and letter in placement and letter.upper() in placement

    def castling(self, pieces: dict[str, dict[str, object]]) -> bool:
        v = self.v
        if not v.castling or "king" not in v.letters:
            return False  # without a royal piece the section is refused anyway, for that reason
        rook_types = {pt for pt in v.letters if v.letters[pt] == "r"}
        if v.castling_rook_pieces[0] != v.castling_rook_pieces[1] or v.castling_rook_pieces[
            0
        ] - rook_types - {ALL}:
            present = {pt for pt in v.castling_rook_pieces[0] | v.castling_rook_pieces[1] if pt in v.letters}
            if present - rook_types:
                self.block("castlingRookPieces", CASTLING_OTHER, "castling with a piece other than the R")
                return False
        if not rook_types or not (rook_types & v.castling_rook_pieces[0]):
            return False  # no piece castles with the king: there is no castling to express
        if v.castling_king_piece != ["king", "king"]:
            self.block("castlingKingPiece", CASTLING_OTHER, "castling by a piece other than the royal one")
        if v.castling_rank != 0:
            self.block("castlingRank", CASTLING_OTHER, f"castling on rank {v.castling_rank + 1}")
        if v.castling_rook_kingside_file not in (self.cols - 1, 11) or v.castling_rook_queenside_file != 0:
            self.block("castlingRookKingsideFile", CASTLING_OTHER, "castling rooks away from the corners")
        files = (v.castling_queenside_file, v.castling_kingside_file)
        if not 0 <= files[0] < files[1] < self.cols:
            self.block("castlingKingsideFile", CASTLING_OTHER, f"the king castles to files {files}")
        self.castling_files = None if files == (2, self.cols - 2) else files
        return True

    def rules(self, pieces: dict[str, dict[str, object]], castling: bool) -> dict[str, object]:
        v = self.v
        rows, cols = self.rows, self.cols
        rules: dict[str, object] = {}
        letter = {pt: v.letters[pt].upper() for pt in v.letters}
        present = set(v.letters)
        if castling:
            rules["castling"] = True
            if self.castling_files is not None:
                rules["castling_files"] = [chr(ord("a") + f) for f in self.castling_files]
        # double steps and en passant
        steppers = self.double_steppers & present
        step_ranks: list[list[int]] = []
        if v.double_step and steppers:
            for side in (0, 1):
                ranks = _ranks(v.double_step_region[side], cols, rows)
                if ranks is None:
                    self.block("doubleStepRegion", STEP_SQUARES)
                    ranks = []
                step_ranks.append(ranks)
        if any(v.triple_step_region[s] for s in (0, 1)):
            self.block("tripleStepRegion", STEP_SQUARES)
        if step_ranks and any(step_ranks):
            rules["double_step"] = {"white": step_ranks[0], "black": step_ranks[1]}
        else:
            steppers = set()
        for pt in steppers:
            pieces[letter[pt]]["pawn"] = True
        if steppers:
            board = {(f, r) for f in range(cols) for r in range(rows)}
            regions = [v.en_passant_region[s] & board for s in (0, 1)]
            if all(region == board for region in regions):
                types = [v.en_passant_types[s] & present for s in (0, 1)]
                if types[0] != steppers or types[1] != steppers:
                    self.block(
                        "enPassantTypes",
                        EN_PASSANT,
                        "pieces that capture en passant differ from those that double-step",
                    )
                rules["en_passant"] = True
            elif any(regions):
                self.block("enPassantRegion", EN_PASSANT)
        # promotion
        promotion: dict[str, object] = {}
        for side, colour in enumerate(("white", "black")):
            pawns = [letter[pt] for pt in TYPE_ORDER if pt in v.promotion_pawn_types[side] & present]
            if not pawns:
                continue
            whole = _ranks(v.promotion_region[side], cols, rows)
            zone: list[int] | list[str] = (
                whole if whole is not None else _square_names(v.promotion_region[side], cols, rows)
            )
            if not zone:
                continue
            choices = [letter[pt] for pt in _CHOICE_ORDER if pt in v.promotion_piece_types[side] & present]
            if not choices:
                self.block("promotionPieceTypes", PROMOTION_NONE)
                continue
            promotion[colour] = {"pieces": pawns, "ranks": zone, "choices": choices}
        if promotion:
            rules["promotion"] = promotion
        # hordes' double step never promotes, Fairy-Stockfish's does when it lands in the zone
        for side, colour in enumerate(("white", "black")):
            entry = promotion.get(colour)
            if step_ranks and isinstance(entry, dict):
                landing = {r + (2 if side == 0 else -2) for r in step_ranks[side]}
                zone_ranks = {r if isinstance(r, int) else int(r[1:]) for r in entry["ranks"]}
                if landing & zone_ranks:
                    detail = f"{colour} double-steps into its promotion zone"
                    self.block("doubleStepRegion", STEP_PROMOTION, detail)
        # flag region: our campmate, for the royal piece, by whole ranks or by squares
        camp: dict[str, object] = {}
        for side, colour in enumerate(("white", "black")):
            if not v.flag_region[side]:
                continue
            flag_ranks = _ranks(v.flag_region[side], cols, rows)
            flag_piece = v.flag_piece[side]
            extra_move = _other_value(v, "flagMove") == "true"
            counted = _other_value(v, "flagPieceCount") != "1"
            if flag_piece != "king" or extra_move or counted:
                detail = f"flag piece {flag_piece}" + (", an extra move" if extra_move else "")
                self.block("flagRegion", FLAG, detail)
                continue
            camp[colour] = (
                flag_ranks if flag_ranks is not None else _square_names(v.flag_region[side], cols, rows)
            )
        if camp:
            rules["campmate"] = {"pieces": [letter["king"]], **camp}
        rules["stalemate"] = v.stalemate_value if v.stalemate_value != "none" else "draw"
        if v.stalemate_value == "none":
            self.block("stalemateValue", STALEMATE_COUNT, "stalemateValue = none")
        # repetition
        if not 2 <= v.n_fold_rule <= 100:
            self.block("nFoldRule", REPETITION, f"nFoldRule = {v.n_fold_rule}")
        elif v.n_fold_value in ("draw", "win"):
            rules["repetition"] = {
                "count": v.n_fold_rule,
                "result": "draw" if v.n_fold_value == "draw" else "loss",
            }
        else:
            self.block("nFoldValue", REPETITION, f"nFoldValue = {v.n_fold_value}")
        if v.n_move_rule > 0:
            nm: dict[str, object] = {"moves": v.n_move_rule}
            pawn_letters = sorted(letter[pt] for pt in steppers)
            resets = [sorted(letter[pt] for pt in v.n_move_rule_types[s] & present) for s in (0, 1)]
            if resets != [pawn_letters, pawn_letters]:
                if (not resets[0] and pawn_letters) or (not resets[1] and pawn_letters):
                    self.block("nMoveRuleTypes", REPETITION, "no piece resets the n-move count")
                nm["reset_by"] = {"white": resets[0], "black": resets[1]}
            rules["n_move_rule"] = nm
        rules["insufficient_material"] = self.insufficient_material(pieces, rules)
        return rules

    def insufficient_material(self, pieces: dict[str, dict[str, object]], rules: dict[str, object]) -> bool:
        """Our chess rule, used where it agrees with Fairy-Stockfish's: no flag win, stalemate a draw,
        and every piece other than the king either a knight or bishop or mating material there."""
        v = self.v
        if "campmate" in rules or rules.get("stalemate") != "draw" or v.n_fold_value != "draw":
            return False
        for pt in v.letters:
            if pt in CUSTOM_PIECES and v.custom_betza.get(pt) in ("N", "B"):
                return False  # ours would take it for a knight or bishop, Fairy-Stockfish would not
            if pt in ("king", "pawn", "knight", "bishop") or pt in _MATING or pt in CUSTOM_PIECES:
                continue
            return False
        return True


# Fairy-Stockfish counts these as mating material (with rooks and queens); custom pieces too.
_MATING = frozenset(
    {"rook", "queen", "archbishop", "chancellor", "silver", "gold", "commoner", "centaur", "amazon", "bers"}
)
_CHOICE_ORDER = (
    "queen",
    "rook",
    "bishop",
    "knight",
    *(pt for pt in TYPE_ORDER if pt not in ("queen", "rook", "bishop", "knight")),
)


def _display_name(pt: str, letter: str) -> str:
    if pt in CUSTOM_PIECES:
        return f"Custom piece {pt.removeprefix('customPiece')} ({letter})"
    words = re.sub(r"([A-Z])", r" \1", pt).lower()
    return words[0].upper() + words[1:]


def _our_betza(betza: str) -> str:
    """Fairy-Stockfish's atom letters L (= C) and J (= Z) in the spelling our parser reads."""
    return betza.replace("L", "C").replace("J", "Z")


def _estimate(betza: str) -> tuple[int, int]:
    """A rough value for a custom piece: linear in its mobility on an empty 8x8 board (fitted to
    Fairy-Stockfish's knight and queen), rounded to tens."""
    try:
        components = parse_betza(_our_betza(betza.replace("e", "")))
    except HordesError:
        return (500, 500)
    total = 0.0
    for sq in range(64):
        f, r = sq % 8, sq // 8
        for c in components:
            weight = 1.0 if c.move and c.capture else 0.5
            for dx, dy in c.vectors:
                steps = 0
                x, y = f + dx, r + dy
                while 0 <= x < 8 and 0 <= y < 8:
                    steps += 1
                    if c.max_steps and steps >= c.max_steps:
                        break
                    x, y = x + dx, y + dy
                total += weight * steps
    value = round((254 + 100 * total / 64) / 10) * 10
    return (value, value)


def translate(
    name: str,
    v: FsfVariant,
    problems: list[Problem],
    title: str | None = None,
    builtin: bool = False,
    piece_names: dict[str, str] | None = None,
) -> Imported:
    """A document for the rules, or the problems that stop it."""
    t = _Translator(name, v, problems)
    t.others()
    pieces = t.pieces()
    for letter, piece_name in (piece_names or {}).items():
        if letter in pieces:
            pieces[letter]["name"] = piece_name
    castling = t.castling(pieces)
    fen = t.fen(castling)
    if not t.royal_present(fen):
        t.block("piece:king", NO_ROYAL, "no king on each side of the starting position")
    rules = t.rules(pieces, castling)
    slug = slug_of(name)
    if t.problems:
        return Imported(name, slug, None, t.problems, v)
    document = _render(name, slug, title or name, t.rows, t.cols, fen, pieces, rules, builtin)
    try:  # the loader is the judge: a document it refuses is not written
        from hordes.variants import parse_variant

        parse_variant(document, f"<{name}>")
    except HordesError as exc:
        return Imported(
            name, slug, None, [Problem(name, "hordes' loader", "a document hordes accepts", str(exc))], v
        )
    return Imported(name, slug, document, [], v)


def _yaml(value: object) -> str:
    """A value in YAML flow style (strings as JSON strings, which YAML reads the same)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return (
            json.dumps(value, ensure_ascii=False)
            if not re.fullmatch(r"[A-Za-z][A-Za-z0-9+]*", value)
            or value in ("true", "false", "null", "yes", "no", "on", "off", "y", "n")
            else value
        )
    if isinstance(value, list):
        return "[" + ", ".join(_yaml(x) for x in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_yaml(x)}" for k, x in value.items()) + "}"
    raise TypeError(type(value))


def _render(
    name: str,
    slug: str,
    title: str,
    rows: int,
    cols: int,
    fen: str,
    pieces: dict[str, dict[str, object]],
    rules: dict[str, object],
    builtin: bool,
) -> str:
    origin = (
        f"Fairy-Stockfish's built-in variant `{name}`"
        if builtin
        else f"the Fairy-Stockfish variants.ini section [{name}]"
    )
    lines = [
        "---",
        f"title: {_yaml(title)}",
        f"slug: {_yaml(slug)}",
    ]
    if slug != name:
        lines.append(f"aliases: {_yaml([name])}")
    lines += [
        f"summary: {_yaml(f'Imported from {origin}.')}",
        f"board: {_yaml(f'{cols}×{rows}')}",
        'players: "2"',
        "engine:",
        f"  topology: {{type: grid, rows: {rows}, cols: {cols}}}",
        "  players: [white, black]",
        f"  setup: {_yaml(fen)}",
        "  pieces:",
    ]
    for letter, entry in pieces.items():
        lines.append(f"    {_yaml(letter)}: {_yaml(entry)}")
    lines.append("  rules:")
    for key, value in rules.items():
        lines.append(f"    {key}: {_yaml(value)}")
    lines.append("---")
    lines.append("")
    lines.append(f"## {title}")
    lines.append("")
    lines.append(
        f"This document was written by `hordes import fairy-stockfish` from {origin}; "
        "every rule below comes from that definition."
    )
    lines.append("")
    lines.append("| piece | letter | Betza |")
    lines.append("|---|---|---|")
    for letter, entry in pieces.items():
        royal = " (royal)" if entry.get("royal") else ""
        lines.append(f"| {entry['name']}{royal} | {letter} | `{entry['betza']}` |")
    lines.append("")
    return "\n".join(lines)


__all__ = ["Imported", "Problem", "builtin_names", "import_builtin", "import_text", "slug_of", "translate"]
