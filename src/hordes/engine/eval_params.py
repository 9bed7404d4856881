"""The `engine.evaluation` section of a variant document: its terms, their defaults, and the
validation that names the offending key (docs/engine.md has the schema). The evaluator
(engine/evaluate.py) reads the validated `EvalParams`; `hordes tune` reads the term tables.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeGuard

from hordes.core.rules import Variant
from hordes.engine.limits import MOVES_TO_GO_GUESS
from hordes.errors import VariantError

# Terms with a [middlegame, endgame] weight pair; each may be given as one number for both.
PAIR_TERMS: dict[str, tuple[int, int]] = {
    # per unit of a piece's "natural mobility" (moves on an empty board) above its average over the
    # board; for pawn-flagged pieces, per file of distance from the edge
    "centre": (4, 2),
    # per rank a promoting piece has advanced towards its promotion rank
    "pawn_advance": (4, 12),
    # royal pieces: per unit of natural mobility above average (negative middlegame value: stay home)
    "royal_centre": (-6, 8),
    # per own piece on a square next to a royal piece
    "royal_shelter": (12, 0),
    # per enemy piece (not a pawn, not royal) within two squares of a royal piece: attackers gather
    "royal_danger": (-12, 0),
    # royal pieces that win by reaching a camp (rules.campmate): per rank of progress towards it
    "campmate": (0, 30),
    # rules.campmate: per step a royal piece's free road to its camp (king steps through squares the
    # opponent does not attack and its own pieces do not block) is shorter than campmate_reach + 1;
    # nothing for the side whose royal arrives later than the other's (per node)
    "campmate_race": (20, 60),
    # per square a royal piece could move to (empty, or holding an enemy piece): a boxed-in royal is
    # closer to having no move (per node; off by default)
    "royal_mobility": (0, 0),
    # per enemy piece held by one of our restricting pieces (magnets; per node; off by default)
    "restriction": (0, 0),
    # per enemy royal piece that one of our pulling pieces could pull next to it (per node; off)
    "royal_pull": (0, 0),
    # the side ahead by mop_up_margin or more: per step the enemy royals stand from the centre and
    # per step of closeness of its own royals to the nearest enemy royal (per node; off by default)
    "mop_up": (0, 0),
    # the side ahead by mop_up_margin or more: per piece of its own (not a pawn, royal or immobile)
    # within two squares of an enemy royal piece, where mates happen (per node; off by default)
    "siege": (0, 0),
    # The pull-trap-capture plan (hordes/engine/plan.py; per node, each off by default):
    # per enemy piece in our half that cannot leave it (restrictions, blockers, our royals' squares)
    "trapped": (0, 0),
    # per enemy piece (not royal) our King or Knight could take on a square the enemy does not defend
    "royal_reach": (0, 0),
    # per enemy piece (not royal) one of our magnets could pull onto a square our royals reach
    "pull_reach": (0, 0),
    # per enemy royal piece one move from attacking two of our royal pieces at once (a fork: mate)
    "royal_fork": (0, 0),
    # per direction of one of our pieces closed by an enemy restricting piece
    "restricted_mobility": (0, 0),
    # per passed pawn (no enemy pawn ahead on its own or a neighbouring file), times the square of
    # the ranks it has come beyond its first step (engine/pawns.py; per node; off by default)
    "passed_pawn": (0, 0),
    # per isolated pawn (no pawn of its side on a neighbouring file) and per doubled pawn (one of its
    # side ahead on its file): negative weights are penalties (engine/pawns.py; per node; off)
    "isolated_pawn": (0, 0),
    "doubled_pawn": (0, 0),
    # per side with a colour-bound piece of one kind (chess's Bishop) on each square colour: the
    # bishop pair (engine/pairs.py; per node; off by default)
    "colour_pair": (0, 0),
    # per piece (not a pawn, not royal): the squares it could move to now, less those an enemy pawn
    # attacks, as a share of its average on an empty board, minus that average; weighed per whole
    # average (engine/mobility.py; per node; off by default)
    "mobility": (0, 0),
}
# The pull-trap-capture plan's weights (`hordes tune --params plan`).
PLAN_TERMS = frozenset({"trapped", "royal_reach", "pull_reach", "royal_fork", "restricted_mobility"})
# Single numbers and switches.
SCALAR_TERMS: dict[str, int] = {
    "tempo": 10,  # bonus for the side to move
    # rules.campmate: penalty for the side to move when an enemy royal piece could step into its camp
    # on a square we do not attack (we must parry at once, or lose)
    "campmate_threat": 0,
    # rules.campmate: how many steps from its camp a royal piece's road is traced (0 switches the race
    # off; the cost of an evaluation grows with it)
    "campmate_reach": 3,
    # material lead (endgame values) from which mop_up applies, in internal units
    "mop_up_margin": 400,
    # where repetition loses (rules.repetition): penalty for a move that undoes the mover's previous
    # move (the piece goes back, or changes back) or repeats a position, so the engine makes progress
    "shuffle": 0,
    # the search's static scores shrink as the plies since the last capture (or reset move) grow:
    # times halfmove_decay / (halfmove_decay + halfmove clock), so the side ahead prefers lines that
    # take something and the side behind lines that do not (0 switches it off)
    "halfmove_decay": 0,
    # on a clock without a moves-to-go count, the time manager shares the time left as if this many
    # more moves were to come (engine/limits.py); a variant whose games run long expects more
    "moves_to_go": MOVES_TO_GO_GUESS,
}
SWITCHES: dict[str, bool] = {
    # Null-move pruning assumes that passing never helps; documents of zugzwang-heavy games switch it off.
    "null_move": True,
    # Late-move reductions (search later quiet moves less deeply first).
    "late_move_reductions": True,
    # Late-move pruning (skip the later quiet moves of a shallow node; docs/benchmarks.md).
    "late_move_pruning": True,
    # Deeper pruning: reverse futility to depth 6 at one pawn a ply, a null-move reduction of
    # 3 + depth/3, and one more ply of late-move reduction off the principal variation.
    "deep_pruning": True,
    # Where captures change the capturer's owner: quiescence judges captures by the exchange that
    # follows (plan.see: the capturer may be taken back by a royal piece) and plays the pulls that put
    # an enemy piece where our royal pieces can take it.
    "plan_quiescence": False,
    # rules.campmate: a square on a royal's road that the opponent attacks, or that its own piece
    # holds, delays the road by one step instead of closing it (a guard can be blocked or drawn away,
    # and the piece can step aside; Fairy-Stockfish's flag term traces roads so).
    "campmate_delay": False,
}
# Lists of whole numbers.
LIST_TERMS: dict[str, tuple[int, ...]] = {
    # rules.campmate: the race's worth of a road of 1, 2, ... campmate_reach steps, in units of
    # campmate_race; one number per step, campmate_reach of them. Empty: campmate_reach for one
    # step down to 1 for campmate_reach steps, a straight line. (Fairy-Stockfish's flag term falls
    # with the square of the distance, 1 / (1 + steps²).)
    "campmate_race_curve": (),
}
OTHER_KEYS = {"pawn_unit"}  # internal units of one pawn, for UCI "score cp" (default: the pawn's eg value)
# Terms switched on by the material balance: their effect is not linear in the piece values, so
# `hordes tune` fits them in a run of their own, never together with the values.
MATERIAL_GATED = frozenset({"mop_up", "mop_up_margin", "siege"})
ALL_KEYS = set(PAIR_TERMS) | set(SCALAR_TERMS) | set(SWITCHES) | set(LIST_TERMS) | OTHER_KEYS


@dataclass(frozen=True, slots=True)
class EvalParams:
    """The validated `engine.evaluation` section of a variant document."""

    centre: tuple[int, int]
    pawn_advance: tuple[int, int]
    royal_centre: tuple[int, int]
    royal_shelter: tuple[int, int]
    royal_danger: tuple[int, int]
    campmate: tuple[int, int]
    campmate_race: tuple[int, int]
    royal_mobility: tuple[int, int]
    restriction: tuple[int, int]
    royal_pull: tuple[int, int]
    mop_up: tuple[int, int]
    siege: tuple[int, int]
    trapped: tuple[int, int]
    royal_reach: tuple[int, int]
    pull_reach: tuple[int, int]
    royal_fork: tuple[int, int]
    restricted_mobility: tuple[int, int]
    passed_pawn: tuple[int, int]
    isolated_pawn: tuple[int, int]
    doubled_pawn: tuple[int, int]
    colour_pair: tuple[int, int]
    mobility: tuple[int, int]
    tempo: int
    campmate_threat: int
    campmate_reach: int
    campmate_race_curve: tuple[int, ...]
    mop_up_margin: int
    shuffle: int
    halfmove_decay: int
    moves_to_go: int
    null_move: bool
    late_move_reductions: bool
    late_move_pruning: bool
    campmate_delay: bool
    deep_pruning: bool
    plan_quiescence: bool
    pawn_unit: int


def _pair(source: str, key: str, value: Any) -> tuple[int, int]:
    if isinstance(value, bool):
        raise VariantError(source, key, f"must be a number or [middlegame, endgame], not {value!r}")
    if isinstance(value, int):
        return value, value
    if isinstance(value, list | tuple) and len(value) == 2 and all(_is_int(v) for v in value):
        return int(value[0]), int(value[1])
    raise VariantError(source, key, f"must be a whole number or [middlegame, endgame], not {value!r}")


def _curve(source: str, key: str, value: object) -> tuple[int, ...]:
    """A list of whole numbers, none negative (an empty list stands for the default; one number is
    a list of one, as a player spec's `eval.campmate_race_curve=5` gives it)."""
    if _is_int(value):
        value = [value]
    if not isinstance(value, list | tuple) or not all(_is_int(v) and v >= 0 for v in value):
        raise VariantError(source, key, f"must be a list of whole numbers, none negative, not {value!r}")
    return tuple(int(v) for v in value)


def _is_int(v: object) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool) and abs(v) <= 100000


def parse_params(variant: Variant, overrides: Mapping[str, Any] | None = None) -> EvalParams:
    """Validate `engine.evaluation`, naming the offending key; missing keys take the defaults.
    `overrides` (same keys) replace the document's values, for experiments and tuning."""
    data: Mapping[str, Any] = {**(variant.evaluation or {}), **(overrides or {})}
    source = variant.source
    prefix = "engine.evaluation"
    unknown = sorted(set(data) - ALL_KEYS)
    if unknown:
        raise VariantError(
            source,
            f"{prefix}.{unknown[0]}",
            f"unknown evaluation term (known: {', '.join(sorted(ALL_KEYS))})",
        )
    pairs = {k: _pair(source, f"{prefix}.{k}", data.get(k, d)) for k, d in PAIR_TERMS.items()}
    for k, (mg, eg) in pairs.items():
        if abs(mg) > 100000 or abs(eg) > 100000:
            raise VariantError(source, f"{prefix}.{k}", "weights must lie within ±100000")
    scalars: dict[str, int] = {}
    # Each loop has names of its own, typed `object` for the document's values: the compiled build
    # checks a name's declared type on every store, and the defaults are ints in one loop, bools in the other.
    for k, default in SCALAR_TERMS.items():
        raw: object = data.get(k, default)
        if not _is_int(raw):
            raise VariantError(source, f"{prefix}.{k}", f"must be a whole number, not {raw!r}")
        scalars[k] = int(raw)
    if scalars["campmate_reach"] < 0:
        raise VariantError(
            source, f"{prefix}.campmate_reach", f"must not be negative, not {scalars['campmate_reach']}"
        )
    if scalars["shuffle"] < 0:
        raise VariantError(source, f"{prefix}.shuffle", f"must not be negative, not {scalars['shuffle']}")
    if scalars["halfmove_decay"] < 0:
        raise VariantError(
            source, f"{prefix}.halfmove_decay", f"must not be negative, not {scalars['halfmove_decay']}"
        )
    if scalars["moves_to_go"] < 1:
        raise VariantError(
            source, f"{prefix}.moves_to_go", f"must be 1 or more, not {scalars['moves_to_go']}"
        )
    if scalars["mop_up_margin"] < 0:
        raise VariantError(
            source, f"{prefix}.mop_up_margin", f"must not be negative, not {scalars['mop_up_margin']}"
        )
    curve = _curve(source, f"{prefix}.campmate_race_curve", data.get("campmate_race_curve", ()))
    if curve and len(curve) != scalars["campmate_reach"]:
        raise VariantError(
            source,
            f"{prefix}.campmate_race_curve",
            f"needs one number per step of campmate_reach ({scalars['campmate_reach']}), not {len(curve)}",
        )
    switches: dict[str, bool] = {}
    for name, switch in SWITCHES.items():
        value: object = data.get(name, switch)
        if not isinstance(value, bool):
            raise VariantError(source, f"{prefix}.{name}", f"must be true or false, not {value!r}")
        switches[name] = value
    pawn_unit = data.get("pawn_unit")
    if pawn_unit is None:
        pawn_values = [p.value_eg for p in variant.pieces if p.pawn and p.value_eg > 0]
        pawn_unit = pawn_values[0] if pawn_values else 200
    elif not _is_int(pawn_unit) or pawn_unit <= 0:
        raise VariantError(
            source, f"{prefix}.pawn_unit", f"must be a positive whole number, not {pawn_unit!r}"
        )
    return EvalParams(
        centre=pairs["centre"],
        pawn_advance=pairs["pawn_advance"],
        royal_centre=pairs["royal_centre"],
        royal_shelter=pairs["royal_shelter"],
        royal_danger=pairs["royal_danger"],
        campmate=pairs["campmate"],
        campmate_race=pairs["campmate_race"],
        royal_mobility=pairs["royal_mobility"],
        restriction=pairs["restriction"],
        royal_pull=pairs["royal_pull"],
        mop_up=pairs["mop_up"],
        siege=pairs["siege"],
        trapped=pairs["trapped"],
        royal_reach=pairs["royal_reach"],
        pull_reach=pairs["pull_reach"],
        royal_fork=pairs["royal_fork"],
        restricted_mobility=pairs["restricted_mobility"],
        passed_pawn=pairs["passed_pawn"],
        isolated_pawn=pairs["isolated_pawn"],
        doubled_pawn=pairs["doubled_pawn"],
        colour_pair=pairs["colour_pair"],
        mobility=pairs["mobility"],
        tempo=scalars["tempo"],
        campmate_threat=scalars["campmate_threat"],
        campmate_reach=scalars["campmate_reach"],
        campmate_race_curve=curve,
        mop_up_margin=scalars["mop_up_margin"],
        shuffle=scalars["shuffle"],
        halfmove_decay=scalars["halfmove_decay"],
        moves_to_go=scalars["moves_to_go"],
        null_move=switches["null_move"],
        late_move_reductions=switches["late_move_reductions"],
        late_move_pruning=switches["late_move_pruning"],
        campmate_delay=switches["campmate_delay"],
        deep_pruning=switches["deep_pruning"],
        plan_quiescence=switches["plan_quiescence"],
        pawn_unit=int(pawn_unit),
    )
