"""A variant document as a Fairy-Stockfish `variants.ini` section, built from the validated rules.

Two dialects of the ini keys exist. `current` is what recent releases read (pyffish 0.0.90 among
them): custom pieces in Betza notation, per-side promotion, `flagRegionWhite`. `11.1` is Debian's
fairy-stockfish 11.1: no custom pieces (every piece must be one of its named kinds), one promotion
rule for both sides, `whiteFlag` / `blackFlag` for the campmate squares. A key a release does not
know is ignored without a word, so a document that one dialect cannot say is refused here, with the
mechanism and the piece named, instead of being exported as a different game.

The section inherits Fairy-Stockfish's `chess` (for its evaluation defaults) and then sets every rule
this module knows explicitly, so no default of the template decides a rule of ours.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from hordes.core.betza import Component, parse_betza
from hordes.core.rules import Promotion, Variant
from hordes.errors import HordesError

CURRENT = "current"
DEBIAN = "11.1"
DIALECTS = (CURRENT, DEBIAN)
DIALECT_NAMES = {CURRENT: "Fairy-Stockfish", DEBIAN: "Fairy-Stockfish 11.1"}

MAX_FILES = 12  # the largest board of a large-board build (Debian's 11.1 "LB" and pyffish): 12x10
MAX_RANKS = 10
MAX_CUSTOM_PIECES = 25  # customPiece1 .. customPiece25

# Fairy-Stockfish's named piece kinds whose movement is exactly their Betza string (no special rule
# such as a pawn's double step, a soldier's river or a lame leap), in the order they are preferred.
# Both dialects know these (11.1 writes the queen as RB and the amazon as RBN: the same moves).
NAMED_PIECES: tuple[tuple[str, str], ...] = (
    ("knight", "N"),
    ("bishop", "B"),
    ("rook", "R"),
    ("queen", "Q"),
    ("commoner", "K"),
    ("fers", "F"),
    ("wazir", "W"),
    ("alfil", "A"),
    ("fersAlfil", "FA"),
    ("silver", "FfW"),
    ("gold", "WfF"),
    ("aiwok", "RNF"),
    ("bers", "RF"),
    ("archbishop", "BN"),
    ("chancellor", "RN"),
    ("amazon", "QN"),
    ("knibis", "mNcB"),
    ("biskni", "mBcN"),
    ("kniroo", "mNcR"),
    ("rookni", "mRcN"),
    ("shogiPawn", "fW"),
    ("lance", "fR"),
    ("shogiKnight", "fN"),
    ("dragonHorse", "BW"),
    ("centaur", "KN"),
)
# The template's own kinds: every one the document does not use is switched off (`knight = -`).
CHESS_KINDS = ("pawn", "knight", "bishop", "rook", "queen", "king")
PAWN_BETZA = "fmWfcF"  # Fairy-Stockfish's pawn (its double step and en passant are rules, below)


def _names(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Variants each release has built in: a section of the same name would be refused ("already
# exists"), so ours is renamed (tests/fsf/ checks these lists against the real programs).
BUILTIN_NAMES: dict[str, frozenset[str]] = {
    DEBIAN: _names(
        "3check 5check ai-wok almost amazon antichess asean breakthrough bughouse cambodian capablanca "
        "capahouse caparandom centaur chancellor chess chessgi chigorin clobber clobber10 codrus "
        "courier crazyhouse dobutsu embassy euroshogi extinction fairy fischerandom gardner giveaway "
        "gorogoro gothic grand hoppelpoppel horde janggi janggicasual janggimodern janggitraditional "
        "janus jesonmor judkins karouk kinglet kingofthehill knightmate koedem kyotoshogi loop "
        "losalamos losers makpong makruk manchu micro mini minishogi minixiangqi modern newzealand "
        "nocastle normal placement pocketknight racingkings seirawan shako shatar shatranj shogi "
        "shouse sittuyin suicide supply threekings xiangqi"
    ),
    CURRENT: _names(
        "3check 5check ai-wok almost amazon amazons antichess armageddon asean ataxx atomar atomic "
        "berolina breakthrough bughouse cambodian capablanca capahouse caparandom centaur chancellor "
        "chaturanga checkshogi chess chessgi chigorin clobber clobber10 codrus coregal courier "
        "crazyhouse dobutsu dragon duck embassy euroshogi extinction fairy fischerandom flipello "
        "flipello10 flipersi fox-and-hounds gardner georgian giveaway gorogoro gothic grand "
        "grasshopper gustav3 hoppelpoppel horde isolation isolation7x7 janggi janggicasual "
        "janggimodern janggitraditional janus jesonmor joust judkins karouk kinglet kingofthehill "
        "knightmate koedem kyotoshogi legan loop losalamos losers makpong makruk manchu micro mini "
        "minishogi minixiangqi misere modern newzealand nightrider nocastle nocheckatomic normal "
        "okisakishogi omicron opulent paradigm pawnback pawnsideways perfect petrified placement "
        "pocketknight raazuvaa racingkings seirawan shako shatar shatranj shogi shoshogi shouse "
        "sittuyin snailtrail sortofalmost spartan suicide supply tencubed threekings torishogi "
        "torpedo troitzky wolf xiangqi yarishogi"
    ),
}


class ExportError(HordesError):
    """A document Fairy-Stockfish (or the chosen dialect) cannot express: names the mechanism."""


@dataclass(frozen=True)
class Export:
    """One exported section: the name to select it by (UCI_Variant), its text and its dialect."""

    name: str
    text: str
    dialect: str

    @property
    def ini_id(self) -> str:
        return ini_id(self.text, self.dialect)


def dialect_of(engine_name: str) -> str:
    """The dialect a Fairy-Stockfish program reads, from its UCI `id name` (11.1 and older: 11.1)."""
    m = re.match(r"Fairy-Stockfish (\d+)(?:\.(\d+))?", engine_name)
    if m and (int(m[1]), int(m[2] or 0)) <= (11, 1):
        return DEBIAN
    return CURRENT


def short_sha256(text: str) -> str:
    """`sha256:` and the first 12 hex digits of the text's digest: enough to tell two inis apart."""
    return f"sha256:{hashlib.sha256(text.encode()).hexdigest()[:12]}"


def ini_id(text: str, dialect: str) -> str:
    """A short label of an exported ini for records: its sha256 and its dialect."""
    return f"{short_sha256(text)} dialect {dialect}"


def section_name(variant: Variant, dialect: str = CURRENT) -> str:
    """The slug, in the characters an ini section and a UCI option value can hold; prefixed with
    `hordes-` where the release has a built-in variant of that name (such as chess)."""
    name = re.sub(r"[^a-z0-9_-]+", "-", variant.slug.lower()).strip("-") or "variant"
    return f"hordes-{name}" if name in BUILTIN_NAMES[_dialect(dialect)] else name


def export_variant(variant: Variant, dialect: str = CURRENT) -> Export:
    """The section for one variant, or ExportError naming what Fairy-Stockfish cannot express."""
    dialect = _dialect(dialect)
    writer = _Writer(variant, dialect)
    return Export(section_name(variant, dialect), writer.section(section_name(variant, dialect)), dialect)


def export_variants(variants: Iterable[Variant], dialect: str = CURRENT) -> str:
    """Several sections as one file (a variant named twice is written once)."""
    seen: dict[str, Export] = {}
    for v in variants:
        e = export_variant(v, dialect)
        seen.setdefault(e.name, e)
    return "\n".join(e.text for e in seen.values())


def _dialect(dialect: str) -> str:
    if dialect not in DIALECTS:
        raise ExportError(f"unknown Fairy-Stockfish dialect {dialect!r} (known: {', '.join(DIALECTS)})")
    return dialect


def _moves(components: Sequence[Component]) -> frozenset[tuple[int, int, int, str]]:
    """A movement as the set of (vector, range, quiet or capture) it allows, to compare two pieces."""
    out: set[tuple[int, int, int, str]] = set()
    for c in components:
        for dx, dy in c.vectors:
            if c.move:
                out.add((dx, dy, c.max_steps, "m"))
            if c.capture:
                out.add((dx, dy, c.max_steps, "c"))
    return frozenset(out)


_NAMED_MOVES = tuple((name, _moves(parse_betza(betza))) for name, betza in NAMED_PIECES)
_KING_MOVES = _moves(parse_betza("K"))
_PAWN_MOVES = _moves(parse_betza(PAWN_BETZA))


def _ranks(ranks: Iterable[int]) -> str:
    """Ranks (0-based) as a Fairy-Stockfish region: `*8`, `*7 *8`, or `-` for none."""
    return " ".join(f"*{r + 1}" for r in sorted(set(ranks))) or "-"


def _letters(letters: Iterable[str]) -> str:
    return "".join(x.lower() for x in letters) or "-"


class _Writer:
    def __init__(self, variant: Variant, dialect: str) -> None:
        self.v = variant
        self.dialect = dialect
        self.old = dialect == DEBIAN
        self.lines: list[str] = []

    def fail(self, problem: str) -> ExportError:
        target = DIALECT_NAMES[self.dialect]
        return ExportError(f"cannot export {self.v.title} ({self.v.slug}) to {target}: {problem}")

    def put(self, key: str, value: object) -> None:
        if isinstance(value, bool):
            value = "true" if value else "false"
        self.lines.append(f"{key} = {value}")

    def section(self, name: str) -> str:
        v = self.v
        geo = v.geometry
        if geo.cols > MAX_FILES or geo.rows > MAX_RANKS:
            raise self.fail(
                f"a board of {geo.cols} files and {geo.rows} ranks (Fairy-Stockfish's largest is "
                f"{MAX_FILES} files and {MAX_RANKS} ranks)"
            )
        self.put("maxRank", geo.rows)
        self.put("maxFile", chr(ord("a") + geo.cols - 1))
        kinds = self._pieces()
        self.put("startFen", v.start_fen)
        self._castling(kinds)
        self._pawn_rules(kinds)
        self._promotion(kinds)
        self._game_end(kinds)
        title = v.title.replace("\n", " ")
        head = f"# {title}: exported by hordes from its variant document, ini dialect {self.dialect}"
        return "\n".join([head, f"[{name}:chess]", *self.lines]) + "\n"

    # ----- pieces ----------------------------------------------------------------------------------
    def _pieces(self) -> dict[str, str]:
        """Write the piece kinds; return our letter -> Fairy-Stockfish kind name."""
        v = self.v
        self._refuse_mechanisms()
        royals = [p for p in v.pieces if p.royal]
        if len(royals) != 1:
            raise self.fail(
                f"{len(royals)} royal piece kinds ({', '.join(p.letter for p in royals)}); Fairy-Stockfish "
                "has one king per side"
            )
        self._one_royal_each(royals[0].letter)
        kinds: dict[str, str] = {}
        used: set[str] = set()
        custom = 0
        for p in v.pieces:
            moves = _moves(p.mobile_components)
            if p.royal:
                if moves == _KING_MOVES:
                    self.put("king", p.letter.lower())
                elif self.old:
                    raise self.fail(f"piece {p.letter} ({p.name}): a royal piece that moves as {p.betza}")
                else:
                    self.put("king", f"{p.letter.lower()}:{p.betza}")
                kinds[p.letter] = "king"
                used.add("king")
                continue
            if p.pawn and moves == _PAWN_MOVES and "pawn" not in used:
                self.put("pawn", p.letter.lower())
                kinds[p.letter] = "pawn"
                used.add("pawn")
                continue
            if p.pawn and self._pawn_rules_matter():
                raise self.fail(
                    f"piece {p.letter} ({p.name}): a second pawn kind, or one that moves as {p.betza}; "
                    f"Fairy-Stockfish double-steps and takes en passant with its one pawn ({PAWN_BETZA})"
                )
            if p.immobile:
                name = "immobile"
            else:
                name = next((n for n, m in _NAMED_MOVES if m == moves and n not in used), "")
            if name:
                self.put(name, p.letter.lower())
            elif self.old:
                raise self.fail(
                    f"piece {p.letter} ({p.name}) moves as {p.betza}, which none of 11.1's named pieces "
                    "does (11.1 has no custom pieces)"
                )
            else:
                custom += 1
                if custom > MAX_CUSTOM_PIECES:
                    raise self.fail(f"more than {MAX_CUSTOM_PIECES} pieces that need a custom definition")
                name = f"customPiece{custom}"
                self.put(name, f"{p.letter.lower()}:{p.betza}")
            kinds[p.letter] = name
            used.add(name)
        for name in CHESS_KINDS:
            if name not in used:
                self.put(name, "-")
        return kinds

    def _refuse_mechanisms(self) -> None:
        """Every mechanism of ours that Fairy-Stockfish lacks, with the pieces using it, in one error."""
        found: dict[str, list[str]] = {}
        for p in self.v.pieces:
            for mechanism, used in (
                ("change of owner on capture", p.changes_owner_on_capture),
                ("magnet pulls", bool(p.pull_components)),
                ("restrictions", p.restricts or p.restrictable),
                ("shape change", p.transforms_to is not None),
                ("piece letters of two characters", len(p.letter) != 1),
            ):
                if used:
                    found.setdefault(mechanism, []).append(p.letter)
        if found:
            listed = "; ".join(f"{m} (piece {', '.join(letters)})" for m, letters in found.items())
            raise self.fail(f"it uses mechanisms Fairy-Stockfish lacks: {listed}")

    def _one_royal_each(self, letter: str) -> None:
        placement = self.v.start_fen.split()[0]
        for side, char in (("White", letter.upper()), ("Black", letter.lower())):
            count = placement.count(char)
            if count != 1:
                raise self.fail(
                    f"the setup gives {side} {count} royal pieces ({char}); Fairy-Stockfish wants exactly one"
                )

    # ----- rules -----------------------------------------------------------------------------------
    def _pawn_rules_matter(self) -> bool:
        r = self.v.rules
        return bool(r.double_step_ranks[0] or r.double_step_ranks[1] or r.en_passant)

    def _castling(self, kinds: dict[str, str]) -> None:
        v = self.v
        # Our castling: the royal piece and a piece lettered R on the back rank (hordes.core.fen).
        on = v.rules.castling and kinds.get("R") is not None
        self.put("castling", on)
        if not on:
            return
        cols = v.geometry.cols
        rook = "r"
        self.put("castlingKingsideFile", chr(ord("a") + cols - 2))
        self.put("castlingQueensideFile", "c")
        self.put("castlingRank", 1)
        if self.old:
            self.put("castlingRookPiece", rook)
            return
        self.put("castlingRookPieces", rook)
        king = next(p.letter for p in v.pieces if p.royal)
        self.put("castlingKingPiece", king.lower())
        rank1 = v.start_fen.split()[0].split("/")[-1]
        file = _file_of(rank1, king.upper())
        if file >= 0:
            self.put("castlingKingFile", chr(ord("a") + file))

    def _pawn_rules(self, kinds: dict[str, str]) -> None:
        r = self.v.rules
        rows = self.v.geometry.rows
        has_pawn = "pawn" in kinds.values()
        white, black = r.double_step_ranks
        double = has_pawn and bool(white or black)
        self.put("doubleStep", double)
        if self.old:
            if double:
                if len(white) != 1 or tuple(black) != (rows - 1 - white[0],):
                    raise self.fail(
                        "double steps from ranks that are not one rank per side, mirrored "
                        f"(White {[x + 1 for x in white]}, Black {[x + 1 for x in black]})"
                    )
                self.put("doubleStepRank", white[0] + 1)
                if not r.en_passant:
                    raise self.fail("double steps without en passant (11.1 cannot switch en passant off)")
            return
        if double:
            self.put("doubleStepRegionWhite", _ranks(white))
            self.put("doubleStepRegionBlack", _ranks(black))
        pawn = next((x for x, k in kinds.items() if k == "pawn"), None)
        on = bool(pawn) and r.en_passant
        self.put("enPassantTypes", pawn.lower() if pawn and on else "-")
        self.put("enPassantRegion", _ranks(range(rows)) if on else "-")

    def _promotion(self, kinds: dict[str, str]) -> None:
        v = self.v
        white, black = v.rules.promotion
        pawn = next((x for x, k in kinds.items() if k == "pawn"), None)
        placement = v.start_fen.split()[0]
        for side, prom, char in (
            ("White", white, (pawn or "").upper()),
            ("Black", black, (pawn or "").lower()),
        ):
            # Fairy-Stockfish's pawn promotes in its side's zone whatever the list says.
            if pawn and pawn not in prom.pieces and prom.ranks and char in placement:
                raise self.fail(f"{side}'s pawns ({pawn}) do not promote where {side}'s other pieces do")
        if self.old:
            self._promotion_11(white, black, pawn)
            return
        for side, prom in (("White", white), ("Black", black)):
            self.put(f"promotionPawnTypes{side}", _letters(prom.pieces))
            self.put(f"promotionPieceTypes{side}", _letters(prom.choices))
            self.put(f"promotionRegion{side}", _ranks(prom.ranks if prom.pieces else ()))
        self.put("mandatoryPawnPromotion", True)

    def _promotion_11(self, white: Promotion, black: Promotion, pawn: str | None) -> None:
        rows = self.v.geometry.rows
        if not white.pieces and not black.pieces:
            self.put("promotionPieceTypes", "-")
            self.put("mandatoryPawnPromotion", False)
            return
        if white.pieces != (pawn,) or black.pieces != (pawn,):
            promoting = sorted({*white.pieces, *black.pieces} - {pawn or ""})
            raise self.fail(
                f"piece {', '.join(promoting) or pawn} promotes; 11.1 promotes only its pawn, on both sides"
            )
        if set(white.choices) != set(black.choices):
            raise self.fail(
                f"White promotes to {''.join(white.choices)} and Black to {''.join(black.choices)}; "
                "11.1 has one list for both"
            )
        low = min(white.ranks)
        if sorted(white.ranks) != list(range(low, rows)) or sorted(black.ranks) != list(range(rows - low)):
            raise self.fail("promotion ranks that are not a zone at the far end, mirrored for both sides")
        self.put("promotionRank", low + 1)
        self.put("promotionPieceTypes", _letters(white.choices))
        self.put("mandatoryPawnPromotion", True)

    def _game_end(self, kinds: dict[str, str]) -> None:
        r = self.v.rules
        pawns = tuple(x for x, k in kinds.items() if k == "pawn")
        if r.checkmate != "loss":
            raise self.fail(f"checkmate counts as {r.checkmate!r}")
        self.put("checkmateValue", "loss")
        self.put("stalemateValue", r.stalemate)
        self.put("nMoveRule", r.n_move_rule)
        if r.n_move_rule:
            default = tuple(p.letter for p in self.v.pieces if p.pawn)
            for side, reset in (("White", r.n_move_reset[0]), ("Black", r.n_move_reset[1])):
                letters = reset or default
                if self.old:
                    if set(letters) != set(pawns):
                        resetting = "".join(letters) or "no piece"
                        raise self.fail(
                            f"{side}'s {r.n_move_rule}-move count is reset by {resetting} moves; 11.1 "
                            "resets it by pawn moves only"
                        )
                else:
                    self.put(f"nMoveRuleTypes{side}", _letters(letters))
        self.put("nFoldRule", r.repetition_count)
        # Ours: the player who completes the repetition loses; theirs is for the side to move then.
        self.put("nFoldValue", "win" if r.repetition_result == "loss" else "draw")
        camp = r.campmate
        if camp is None:
            return
        if len(camp.pieces) != 1:
            raise self.fail(
                f"campmate by {len(camp.pieces)} piece kinds; Fairy-Stockfish's flag piece is one"
            )
        self.put("flagPiece", camp.pieces[0].lower())
        if self.old:
            self.put("whiteFlag", _ranks(camp.ranks[0]))
            self.put("blackFlag", _ranks(camp.ranks[1]))
        else:
            self.put("flagRegionWhite", _ranks(camp.ranks[0]))
            self.put("flagRegionBlack", _ranks(camp.ranks[1]))


def _file_of(rank_text: str, char: str) -> int:
    """The file (0-based) of `char` in one rank of a FEN placement, or -1."""
    file = 0
    i = 0
    while i < len(rank_text):
        ch = rank_text[i]
        if ch.isdigit():
            j = i
            while j < len(rank_text) and rank_text[j].isdigit():
                j += 1
            file += int(rank_text[i:j])
            i = j
            continue
        if ch == char:
            return file
        file += 1
        i += 1
    return -1
