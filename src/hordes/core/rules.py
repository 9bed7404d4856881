"""The rules of a variant as plain data: what a variant document describes, already validated.

The loader (hordes.variants) builds these objects from documents; the position and the move
generator read them. Nothing here knows any variant by name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, TypeAlias

from mypy_extensions import mypyc_attr

from hordes.core.betza import Component
from hordes.core.geometry import Geometry

# Colours as python-chess has them: a bool, True for White. The core's tables are indexed by a side
# number instead (0 = White, 1 = Black, the order in which documents list the two sides); the two
# functions below convert, and nothing else should mix the two.
Color: TypeAlias = bool
WHITE: Final = True
BLACK: Final = False
COLORS: Final = [WHITE, BLACK]
COLOR_NAMES: Final = ["black", "white"]


def side_index(color: Color) -> int:
    """The core's side number of a colour: 0 for White, 1 for Black."""
    return 0 if color else 1


def side_color(side: int) -> Color:
    """The colour of a core side number (0 = White)."""
    return side == 0


@dataclass(frozen=True, slots=True)
class PieceType:
    """A kind of piece: its letter (upper case; '+R' for magnet-like kinds), Betza movement and flags."""

    letter: str
    name: str
    betza: str
    components: tuple[Component, ...]
    royal: bool = False
    pawn: bool = False  # takes part in double steps and en passant
    value_mg: int = 0
    value_eg: int = 0
    # Mechanisms a document can switch on per piece kind (used by Hordes of Change and friends):
    changes_owner_on_capture: bool = False
    transforms_to: str | None = None  # letter of the kind this piece may turn into, as a whole move
    pull_betza: str | None = None  # a magnet: pulls the first piece on these lines next to itself
    pull_components: tuple[Component, ...] = ()
    immobile: bool = False  # never moves or captures by itself (magnets)
    restricts_betza: str | None = None  # enemy restrictable pieces on these steps lose the directions away
    restrict_components: tuple[Component, ...] = ()
    restrictable: bool = False  # this piece's directions can be closed by enemy restricting pieces

    @property
    def restricts(self) -> bool:
        return bool(self.restrict_components)

    @property
    def mobile_components(self) -> tuple[Component, ...]:
        return () if self.immobile else self.components


@dataclass(frozen=True, slots=True)
class Promotion:
    """Promotion for one side: which piece kinds promote, on which ranks (0-based), to what."""

    pieces: tuple[str, ...] = ()
    ranks: tuple[int, ...] = ()
    choices: tuple[str, ...] = ()
    squares: tuple[int, ...] = ()  # single squares of the zone besides whole ranks (Legan chess)


@dataclass(frozen=True, slots=True)
class Campmate:
    """A royal piece that reaches one of these ranks or squares (0-based, per side) wins at once."""

    pieces: tuple[str, ...]
    ranks: tuple[tuple[int, ...], tuple[int, ...]]
    squares: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())  # King of the Hill's centre


@dataclass(frozen=True, slots=True)
class Rules:
    castling: bool = False
    # Files (0-based) the king lands on castling queenside and kingside; None: c and the file next to
    # the last (g in chess, i on ten files).
    castling_files: tuple[int, int] | None = None
    double_step_ranks: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    en_passant: bool = False
    promotion: tuple[Promotion, Promotion] = (Promotion(), Promotion())
    campmate: Campmate | None = None
    stalemate: str = "draw"  # draw | loss | win, for the side to move
    repetition_count: int = 3
    repetition_result: str = "draw"  # draw | loss (the player who completes the repetition loses)
    n_move_rule: int = 0  # full moves without capture or resetting move; 0 = none
    n_move_reset: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    insufficient_material: bool = False
    no_legal_moves: str = "stalemate"  # stalemate | loss: what having no move means when not in check
    checkmate: str = "loss"


# Caches elsewhere (compiled tables, evaluators, SAN helpers) are keyed weakly by the Variant; a class
# compiled by mypyc takes none unless it stays an ordinary Python class (mypy 2.4 has no weakref option).
@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Variant:
    """A validated variant: board, pieces, rules and documentation."""

    slug: str
    title: str
    geometry: Geometry
    pieces: tuple[PieceType, ...]
    rules: Rules
    start_fen: str
    aliases: tuple[str, ...] = ()
    summary: str = ""
    body: str = ""  # the markdown rules page
    source: str = "<builtin>"
    meta: dict[str, object] = field(default_factory=dict)
    evaluation: dict[str, object] = field(default_factory=dict)  # engine.evaluation, read by the engine
    letter_index: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "letter_index", {p.letter: i for i, p in enumerate(self.pieces)})

    def kind_of(self, letter: str) -> int:
        """Index of a piece kind by its (upper-case) letter; KeyError if absent."""
        return self.letter_index[letter]

    def has_letter(self, letter: str) -> bool:
        return letter in self.letter_index

    @property
    def names(self) -> tuple[str, ...]:
        return (self.slug, *self.aliases)

    def __hash__(self) -> int:
        return hash((self.slug, self.source))

    def __eq__(self, other: object) -> bool:
        return self is other
