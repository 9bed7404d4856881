"""Load variant documents: markdown with YAML front matter, strict, with `parent:` inheritance.

A document's `engine:` section describes the game for the program (board, pieces, rules); the rest
of the front matter and the markdown body describe it for people. Every problem is reported as a
VariantError naming the file, the line, the key and what is wrong. Checking goes on after a problem,
so the error raised (the first problem) lists in `errors` every problem found: `hordes check` prints
them all.

Documents come from users, so reading is bounded: a document is at most MAX_DOCUMENT_BYTES, its front
matter nests at most MAX_NESTING levels and holds at most MAX_VALUES values with its aliases expanded
(a "billion laughs" document is refused, not expanded), and a chain of parents is at most
MAX_ANCESTORS documents long.
"""

from __future__ import annotations

import copy
import re
import reprlib
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar
from weakref import WeakKeyDictionary

import yaml

from hordes.core.betza import Component, parse_betza
from hordes.core.geometry import geometry
from hordes.core.rules import Campmate, PieceType, Promotion, Rules, Variant
from hordes.errors import HordesError, UnknownVariantError, UnreadableFileError, VariantError, quoted
from hordes.textfiles import read_text_file

BUILTIN_DIR = Path(__file__).parent
FAIRY_DIR = BUILTIN_DIR / "fairy"  # Fairy-Stockfish's built-ins as documents, from `hordes import`

MAX_DOCUMENT_BYTES = 1_000_000  # a variant document is a page of text, not a data set
MAX_NESTING = 50  # levels of mappings and lists in the front matter (a real document needs five)
MAX_VALUES = 100_000  # values in the front matter with aliases expanded (the built-ins have ~300)
MAX_ANCESTORS = 20  # parents, grandparents ...: khans -> orda -> chess is two

TOP_KEYS = {
    "title", "slug", "aliases", "summary", "board", "players", "parent", "win", "special",
    "designer", "year", "engine", "examples",
}  # fmt: skip
# Teaching examples for the rules page (played and checked by hordes.examples): what each key holds.
EXAMPLE_TEXT_KEYS = ("fen", "move", "caption")  # required
EXAMPLE_CLAIM_KEYS = {"after": dict, "royals_attacked": list, "closed": list, "open": list,
                      "restricted_by": str, "ends": str}  # fmt: skip
_EXAMPLE_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")
ENGINE_KEYS = {"topology", "players", "setup", "pieces", "rules", "evaluation"}
TOPOLOGY_KEYS = {"type", "rows", "cols"}
PIECE_KEYS = {
    "name", "betza", "royal", "pawn", "value", "transforms_to", "changes_owner_on_capture",
    "pull", "immobile", "restricts", "restrictable",
}  # fmt: skip
RULE_KEYS = {
    "castling", "castling_files", "double_step", "en_passant", "promotion", "campmate", "stalemate",
    "repetition", "n_move_rule", "insufficient_material", "no_legal_moves",
}  # fmt: skip
_LETTER = re.compile(r"^\+?[A-Z]$")
_FRONT = re.compile(r"\A---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|\Z)(.*)\Z", re.S)
_T = TypeVar("_T")
# Finds a parent by its name for a document that does not live in a directory (a web app's stored
# documents): the parent's (text, source), or UnknownVariantError. It never reads a path it is given.
ParentLookup = Callable[[str], tuple[str, str]]
_D = TypeVar("_D")

# Values in messages: short, and bounded however large or self-referential the value is.
_SHOW = reprlib.Repr()
_SHOW.maxlevel = 3
_SHOW.maxstring = 60
_SHOW.maxother = 60


def _show(value: Any) -> str:
    return _SHOW.repr(value)


def _key_name(key: Any) -> str:
    """A YAML key as it appears in a key path (shortened: a key can be any length)."""
    name = key if isinstance(key, str) else _show(key)
    return name if len(name) <= 60 else name[:60] + "…"


class _NestedTooDeeply(yaml.YAMLError):
    def __init__(self, mark: yaml.Mark) -> None:
        super().__init__(f"nested more than {MAX_NESTING} levels deep")
        self.problem_mark = mark


class _FrontMatterLoader(yaml.SafeLoader):
    """PyYAML's safe loader with a bound on nesting: its composer recurses once per level, so a
    document of 5000 `[` would otherwise end in a RecursionError."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        self._depth += 1
        try:
            if self._depth > MAX_NESTING:
                raise _NestedTooDeeply(self.peek_event().start_mark)  # type: ignore[no-untyped-call]
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


@dataclass
class _Lines:
    """Where the keys of a document are: the line (in the file) of each key path such as
    `engine.pieces.K.betza`, and which key paths its ancestors define (they come in by `parent:`)."""

    own: dict[str, int] = field(default_factory=dict)
    inherited: set[str] = field(default_factory=set)

    def line_of(self, key: str) -> int:
        """The line of the key or, if the document does not spell it, of its nearest enclosing key;
        an inherited value points to the `parent:` line; 1 (the opening `---`) for the document."""
        while key:
            if key in self.own:
                return self.own[key]
            if key in self.inherited and "parent" in self.own:
                return self.own["parent"]
            key = key.rpartition(".")[0]
        return 1


def _node_children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def _expanded_size(root: yaml.Node) -> int:
    """How many values the node stands for with every alias expanded (capped just above MAX_VALUES);
    -1 if an alias refers to a node that contains it (an infinite value)."""
    size: dict[int, int] = {}
    open_nodes: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, finished = stack.pop()
        key = id(node)
        children = _node_children(node)
        if finished:
            open_nodes.discard(key)
            size[key] = min(MAX_VALUES + 1, 1 + sum(size[id(c)] for c in children))
            continue
        if key in size:
            continue
        if key in open_nodes:
            return -1
        open_nodes.add(key)
        stack.append((node, True))
        stack.extend((c, False) for c in children if id(c) not in size)
    return size[id(root)]


def _key_lines(root: yaml.Node) -> dict[str, int]:
    """The file line of every key path (front matter starts on line 2, after the `---`)."""
    lines: dict[str, int] = {}
    seen: set[int] = set()
    stack: list[tuple[yaml.Node, str]] = [(root, "")]
    while stack:
        node, path = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                if isinstance(k, yaml.ScalarNode):
                    sub = f"{path}.{k.value}" if path else str(k.value)
                    lines.setdefault(sub, k.start_mark.line + 2)
                    stack.append((v, sub))
        elif isinstance(node, yaml.SequenceNode):
            stack.extend((v, path) for v in node.value)
    return lines


def _yaml_problem(exc: yaml.YAMLError) -> tuple[str, int]:
    """One line saying what is wrong (never the offending text itself) and the file line (the
    VariantError shows it)."""
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    context = getattr(exc, "context", None)
    text = f"{problem} ({context})" if context else str(problem)
    text = " ".join(text.split())
    if len(text) > 200:
        text = text[:200] + "…"
    if mark is None:
        return text, 0
    return f"{text} (column {mark.column + 1})", mark.line + 2


def _front_matter(text: str, source: str) -> tuple[dict[str, Any], str, dict[str, int]]:
    """(front matter mapping, markdown body, line of each key path)."""
    if len(text) > MAX_DOCUMENT_BYTES:
        raise VariantError(source, "", f"larger than the limit of {MAX_DOCUMENT_BYTES} characters")
    m = _FRONT.match(text.lstrip("\ufeff"))
    if not m:
        raise VariantError(source, "", "no YAML front matter (the file must start with a '---' line)", 1)
    front = m.group(1)
    try:
        loader = _FrontMatterLoader(front)
    except yaml.reader.ReaderError as exc:  # the whole text is checked at once: a control character
        line = front.count("\n", 0, exc.position) + 2
        problem = f"front matter is not valid YAML: character #x{exc.character:04x} is not allowed"
        raise VariantError(source, "", problem, line) from None
    try:
        node = loader.get_single_node()
        lines: dict[str, int] = {}
        if node is not None:
            values = _expanded_size(node)
            if values < 0:
                raise VariantError(source, "", "front matter has an alias inside its own anchor", 2)
            if values > MAX_VALUES:
                problem = f"front matter holds more than {MAX_VALUES} values (aliases expanded)"
                raise VariantError(source, "", problem, 2)
            lines = _key_lines(node)
        data = loader.construct_document(node) if node is not None else None
    except HordesError:
        raise
    except yaml.YAMLError as exc:
        problem, line = _yaml_problem(exc)
        raise VariantError(source, "", f"front matter is not valid YAML: {problem}", line) from None
    except ValueError as exc:  # a constructor's int() or date(): 5000 digits, 2024-13-45
        problem = " ".join(str(exc).split())[:200]
        raise VariantError(source, "", f"front matter has a value YAML cannot build: {problem}", 2) from None
    finally:
        loader.dispose()
    if not isinstance(data, dict):
        raise VariantError(source, "", "front matter must be a mapping of keys to values", 2)
    return data, m.group(2), lines


def split_front_matter(text: str, source: str) -> tuple[dict[str, Any], str]:
    """Return (front matter mapping, markdown body)."""
    data, body, _ = _front_matter(text, source)
    return data, body


def deep_merge(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    """Child values override the parent's; mappings merge key by key; null removes a key."""
    out = copy.deepcopy(dict(base))
    for key, value in over.items():
        if value is None:
            out.pop(key, None)
        elif isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = deep_merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def normalise_name(name: str) -> str:
    """Case, spaces, hyphens and apostrophes do not matter in variant names."""
    return re.sub(r"[\s\-_'’]", "", name).lower()


class _Checker:
    """Type checks that name the key and its line; used while building a Variant.

    A check either returns the value or raises the VariantError that `fail` makes; `attempt` and
    `section` record such an error in `errors` and carry on, so one pass finds every problem.
    """

    def __init__(
        self, source: str, lines: _Lines | None = None, errors: list[VariantError] | None = None
    ) -> None:
        self.source = source
        self.lines = lines or _Lines()
        self.errors: list[VariantError] = [] if errors is None else errors
        self.broken: set[str] = set()  # piece letters whose definition failed: no follow-up errors
        self.rows_known = True

    def fail(self, key: str, problem: str) -> VariantError:
        return VariantError(self.source, key, problem, self.lines.line_of(key))

    def record(self, error: VariantError) -> None:
        self.errors.append(error)

    @contextmanager
    def section(self) -> Iterator[None]:
        """Check a part of the document; a problem in it is recorded and checking goes on after it."""
        try:
            yield
        except VariantError as exc:
            self.record(exc)

    def attempt(self, default: _D, check: Callable[..., _T], *args: Any) -> _T | _D:
        """`check(*args)`, or `default` after recording its problem."""
        try:
            return check(*args)
        except VariantError as exc:
            self.record(exc)
            return default

    def finish(self) -> None:
        """Raise the first problem found, listing them all in its `errors`."""
        if self.errors:
            first = self.errors[0]
            first.errors = list(self.errors)
            raise first

    def unknown(self, key: str, data: Mapping[Any, Any], allowed: set[str]) -> None:
        """Record every key of `data` that is not allowed (YAML keys need not be strings)."""
        problem = f"unknown key (allowed: {', '.join(sorted(allowed))})"
        for extra in sorted((k for k in data if k not in allowed), key=_key_name):
            name = _key_name(extra)
            path = f"{key}.{name}" if key else name
            line = self.lines.line_of(f"{key}.{extra}" if key else str(extra))
            self.record(VariantError(self.source, path, problem, line))

    def mapping(self, key: str, value: Any) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(key, f"must be a mapping, not {type(value).__name__}")
        return value

    def integer(self, key: str, value: Any, low: int, high: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(key, f"must be a whole number, not {_show(value)}")
        if not low <= value <= high:
            raise self.fail(key, f"{_show(value)} is out of range ({low}..{high})")
        return value

    def boolean(self, key: str, value: Any) -> bool:
        if not isinstance(value, bool):
            raise self.fail(key, f"must be true or false, not {_show(value)}")
        return value

    def choice(self, key: str, value: Any, options: tuple[str, ...]) -> str:
        if not isinstance(value, str) or value not in options:
            raise self.fail(key, f"must be one of {', '.join(options)}, not {_show(value)}")
        return value

    def string(self, key: str, value: Any) -> str:
        if not isinstance(value, str) or not value.strip():
            raise self.fail(key, f"must be a non-empty string, not {_show(value)}")
        return value

    def letters(self, key: str, value: Any, known: Mapping[str, Any]) -> tuple[str, ...]:
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list):
            raise self.fail(key, f"must be a list of piece letters, not {_show(value)}")
        out: list[str] = []
        for item in value:
            letter = item if isinstance(item, str) else _show(item)
            if letter in self.broken:
                continue  # its own definition was reported
            if letter not in known:
                raise self.fail(key, f"piece letter {quoted(letter, 20)} is not defined in engine.pieces")
            out.append(letter)
        return tuple(out)

    def ranks(self, key: str, value: Any, rows: int) -> tuple[int, ...]:
        if isinstance(value, int) and not isinstance(value, bool):
            value = [value]
        if not isinstance(value, list):
            raise self.fail(key, f"must be a list of rank numbers, not {_show(value)}")
        high = rows if self.rows_known else 26  # a bad topology was reported: no follow-up errors
        return tuple(self.integer(key, r, 1, high) - 1 for r in value)


def _betza(chk: _Checker, key: str, text: Any) -> tuple[Component, ...]:
    try:
        return tuple(parse_betza(chk.string(key, text)))
    except VariantError:
        raise
    except HordesError as exc:
        raise chk.fail(key, str(exc)) from None


def _piece(chk: _Checker, letter: str, spec: Any) -> PieceType | None:
    """The piece, or None after recording its problems."""
    key = f"engine.pieces.{letter}"
    if not _LETTER.match(letter):
        chk.record(chk.fail(key, "a piece letter is one capital letter, optionally after '+' (e.g. N, +R)"))
        return None
    spec = chk.attempt(None, chk.mapping, key, spec)
    if spec is None:
        return None
    before = len(chk.errors)
    chk.unknown(key, spec, PIECE_KEYS)
    immobile = chk.attempt(False, chk.boolean, f"{key}.immobile", spec.get("immobile", False))
    betza = ""
    if "betza" not in spec and not immobile:
        chk.record(chk.fail(f"{key}.betza", "missing: every piece that moves needs a Betza movement string"))
    elif "betza" in spec:
        betza = chk.attempt("", chk.string, f"{key}.betza", spec["betza"])
        if betza and immobile:
            chk.record(
                chk.fail(f"{key}.betza", "an immobile piece does not move: leave out its Betza string")
            )
    components = chk.attempt((), _betza, chk, f"{key}.betza", betza) if betza else ()
    pull_betza = spec.get("pull")
    pull = chk.attempt((), _betza, chk, f"{key}.pull", pull_betza) if pull_betza is not None else ()
    restricts_betza = spec.get("restricts")
    restricts = (
        chk.attempt((), _betza, chk, f"{key}.restricts", restricts_betza)
        if restricts_betza is not None
        else ()
    )
    for name, comps in (("pull", pull), ("restricts", restricts)):
        if any(c.max_steps != (0 if name == "pull" else 1) for c in comps):
            kind = "riders (lines, e.g. R or B)" if name == "pull" else "single steps (e.g. W or F)"
            chk.record(chk.fail(f"{key}.{name}", f"must be {kind}"))
    value = spec.get("value", 0)
    mg = eg = 0
    with chk.section():
        if isinstance(value, list):
            if len(value) != 2:
                raise chk.fail(f"{key}.value", "give one number or [middlegame, endgame]")
            mg = chk.integer(f"{key}.value", value[0], -100000, 100000)
            eg = chk.integer(f"{key}.value", value[1], -100000, 100000)
        else:
            mg = eg = chk.integer(f"{key}.value", value, -100000, 100000)
    transforms_to = spec.get("transforms_to")
    if transforms_to is not None:
        transforms_to = chk.attempt(None, chk.string, f"{key}.transforms_to", transforms_to)
    name = chk.attempt(letter, chk.string, f"{key}.name", spec.get("name", letter))
    royal = chk.attempt(False, chk.boolean, f"{key}.royal", spec.get("royal", False))
    pawn = chk.attempt(False, chk.boolean, f"{key}.pawn", spec.get("pawn", False))
    changes_owner = chk.attempt(
        False, chk.boolean, f"{key}.changes_owner_on_capture", spec.get("changes_owner_on_capture", False)
    )
    restrictable = chk.attempt(False, chk.boolean, f"{key}.restrictable", spec.get("restrictable", False))
    if len(chk.errors) > before:
        return None
    return PieceType(
        letter=letter,
        name=name,
        betza=betza,
        components=components,
        royal=royal,
        pawn=pawn,
        value_mg=mg,
        value_eg=eg,
        changes_owner_on_capture=changes_owner,
        transforms_to=transforms_to,
        pull_betza=pull_betza,
        pull_components=pull,
        immobile=immobile,
        restricts_betza=restricts_betza,
        restrict_components=restricts,
        restrictable=restrictable,
    )


def _per_side(chk: _Checker, key: str, value: Any, parse: Callable[[str, Any], Any]) -> tuple[Any, Any]:
    data = chk.mapping(key, value)
    chk.unknown(key, data, {"white", "black"})
    return parse(f"{key}.white", data.get("white", [])), parse(f"{key}.black", data.get("black", []))


def _promotion(
    chk: _Checker, prom: Any, pieces: Mapping[str, PieceType], rows: int, cols: int
) -> tuple[Promotion, Promotion]:
    prom = chk.mapping("engine.rules.promotion", prom)
    chk.unknown("engine.rules.promotion", prom, {"white", "black"})
    sides = []
    for side in ("white", "black"):
        key = f"engine.rules.promotion.{side}"
        if side not in prom:
            sides.append(Promotion())
            continue
        with chk.section():
            p = chk.mapping(key, prom[side])
            chk.unknown(key, p, {"pieces", "ranks", "choices"})
            promoting = chk.attempt((), chk.letters, f"{key}.pieces", p.get("pieces", []), pieces)
            ranks, squares = chk.attempt(
                ((), ()), _ranks_and_squares, chk, f"{key}.ranks", p.get("ranks", []), rows, cols
            )
            choices = chk.letters(f"{key}.choices", p.get("choices", []), pieces)
            if promoting and not choices:
                raise chk.fail(f"{key}.choices", "pieces promote but no choice is given")
            for letter in choices:
                if pieces[letter].royal:
                    raise chk.fail(f"{key}.choices", f"cannot promote to the royal piece {letter}")
            sides.append(Promotion(pieces=promoting, ranks=ranks, choices=choices, squares=squares))
            continue
        sides.append(Promotion())
    return sides[0], sides[1]


def _rules(chk: _Checker, spec: Any, pieces: Mapping[str, PieceType], rows: int, cols: int = 8) -> Rules:
    data = chk.mapping("engine.rules", spec)
    chk.unknown("engine.rules", data, RULE_KEYS)
    kw: dict[str, Any] = {}
    for name in ("castling", "en_passant", "insufficient_material"):
        if name in data:
            with chk.section():
                kw[name] = chk.boolean(f"engine.rules.{name}", data[name])
    if data.get("castling_files") is not None:
        with chk.section():
            kw["castling_files"] = _castling_files(chk, data["castling_files"], cols)
    if "double_step" in data:
        with chk.section():
            kw["double_step_ranks"] = _per_side(
                chk, "engine.rules.double_step", data["double_step"], lambda k, v: chk.ranks(k, v, rows)
            )
    if "promotion" in data:
        with chk.section():
            kw["promotion"] = _promotion(chk, data["promotion"], pieces, rows, cols)
    if data.get("campmate") is not None:
        key = "engine.rules.campmate"
        with chk.section():
            cm = chk.mapping(key, data["campmate"])
            chk.unknown(key, cm, {"pieces", "white", "black"})
            letters = chk.letters(f"{key}.pieces", cm.get("pieces", []), pieces)
            if not letters and not chk.broken:
                raise chk.fail(f"{key}.pieces", "name the piece(s) that win by reaching the ranks")
            white, white_squares = _ranks_and_squares(chk, f"{key}.white", cm.get("white", []), rows, cols)
            black, black_squares = _ranks_and_squares(chk, f"{key}.black", cm.get("black", []), rows, cols)
            kw["campmate"] = Campmate(letters, (white, black), (white_squares, black_squares))
    if "stalemate" in data:
        with chk.section():
            kw["stalemate"] = chk.choice("engine.rules.stalemate", data["stalemate"], ("draw", "loss", "win"))
    if "no_legal_moves" in data:
        with chk.section():
            kw["no_legal_moves"] = chk.choice(
                "engine.rules.no_legal_moves", data["no_legal_moves"], ("stalemate", "loss")
            )
    if "repetition" in data:
        key = "engine.rules.repetition"
        with chk.section():
            rep = chk.mapping(key, data["repetition"])
            chk.unknown(key, rep, {"count", "result"})
            kw["repetition_count"] = chk.attempt(3, chk.integer, f"{key}.count", rep.get("count", 3), 2, 100)
            kw["repetition_result"] = chk.choice(f"{key}.result", rep.get("result", "draw"), ("draw", "loss"))
    if data.get("n_move_rule") is not None:
        key = "engine.rules.n_move_rule"
        with chk.section():
            nm = chk.mapping(key, data["n_move_rule"])
            chk.unknown(key, nm, {"moves", "reset_by"})
            kw["n_move_rule"] = chk.attempt(50, chk.integer, f"{key}.moves", nm.get("moves", 50), 0, 10000)
            if "reset_by" in nm:
                kw["n_move_reset"] = _per_side(
                    chk, f"{key}.reset_by", nm["reset_by"], lambda k, v: chk.letters(k, v, pieces)
                )
    return Rules(**kw)


def _examples(chk: _Checker, value: Any) -> None:
    """The shape of `examples` (names, keys, types); whether each position and move is right and
    each claim holds is for hordes.examples, which knows the notation."""
    for name, spec in chk.mapping("examples", value).items():
        key = f"examples.{_key_name(name)}"
        if not isinstance(name, str) or not _EXAMPLE_NAME.match(name):
            chk.record(chk.fail(key, "an example's name is lower-case letters, digits and '-' (at most 40)"))
            continue
        with chk.section():
            data = chk.mapping(key, spec)
            chk.unknown(key, data, {*EXAMPLE_TEXT_KEYS, *EXAMPLE_CLAIM_KEYS})
            for field in EXAMPLE_TEXT_KEYS:
                chk.attempt("", chk.string, f"{key}.{field}", data.get(field))
            for field, kind in EXAMPLE_CLAIM_KEYS.items():
                item = data.get(field)
                if item is None:
                    continue
                ok = isinstance(item, kind) and all(
                    isinstance(x, str) for x in (item if isinstance(item, list | dict) else [item])
                )
                if isinstance(item, dict):
                    ok = ok and all(isinstance(x, str) for x in item.values())
                if not ok:
                    shape = {dict: "a mapping of squares to piece letters", list: "a list of squares"}
                    problem = f"must be {shape.get(kind, 'a string')}, not {_show(item)}"
                    chk.record(chk.fail(f"{key}.{field}", problem))


def _ranks_and_squares(
    chk: _Checker, key: str, value: Any, rows: int, cols: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A side's camp or promotion zone: rank numbers (8) and square names ("d4") in one list:
    (ranks, squares), both 0-based."""
    items = value if isinstance(value, list) else [value]
    names = [x for x in items if isinstance(x, str)]
    ranks = chk.ranks(key, [x for x in items if not isinstance(x, str)], rows)
    geo = geometry(rows, cols)
    squares = []
    for name in names:
        try:
            squares.append(geo.parse_square(name))
        except HordesError as exc:
            raise chk.fail(key, str(exc)) from None
    return ranks, tuple(squares)


def _castling_files(chk: _Checker, value: Any, cols: int) -> tuple[int, int]:
    """`[b, i]`: the files the king castles to, queenside then kingside."""
    key = "engine.rules.castling_files"
    files = "abcdefghijklmnopqrstuvwxyz"[:cols]
    if not isinstance(value, list) or len(value) != 2 or not all(isinstance(f, str) for f in value):
        raise chk.fail(
            key, f"must be two file letters, queenside then kingside (as [c, g]), not {_show(value)}"
        )
    if not all(len(f) == 1 and f in files for f in value):
        raise chk.fail(key, f"{_show(value)}: files are letters a to {files[-1]}")
    queenside, kingside = files.index(value[0]), files.index(value[1])
    if queenside >= kingside:
        raise chk.fail(key, "the queenside file comes first and lies left of the kingside file")
    return queenside, kingside


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:  # e.g. a name longer than the file system allows
        return False


def _resolved(path: Path) -> str:
    try:
        return str(path.resolve())
    except (OSError, RuntimeError):  # RuntimeError: a symlink loop (Python 3.11)
        return str(path.absolute())


@dataclass
class _Document:
    """One document of an inheritance chain, read but not yet merged."""

    data: dict[str, Any]
    body: str
    source: str
    lines: dict[str, int]
    base: Path | None


def _merge_engine(engine: dict[str, Any], doc: _Document) -> dict[str, Any]:
    """The inherited engine section with this document's on top."""
    part = doc.data.get("engine")
    if part is None:
        return engine
    if not isinstance(part, dict):
        raise _Checker(doc.source, _Lines(doc.lines)).fail(
            "engine", f"must be a mapping, not {type(part).__name__}"
        )
    return deep_merge(engine, part)


class Registry:
    """Finds documents by name (slug, alias or title, in any case) or by path, and caches them."""

    def __init__(self, directory: Path = BUILTIN_DIR, fairy_directory: Path | None = FAIRY_DIR) -> None:
        self.directory = directory
        self.fairy_directory = fairy_directory
        self._cache: dict[str, Variant] = {}
        self._names: dict[str, Path] | None = None
        self.extra: dict[str, Path] = {}

    def _index(self) -> dict[str, Path]:
        if self._names is None:
            names: dict[str, Path] = {}
            for path in self.builtin_paths() + self.fairy_paths():  # the project's own names first
                data, _ = split_front_matter(path.read_text(encoding="utf-8"), str(path))
                for name in (
                    path.stem,
                    data.get("slug", ""),
                    data.get("title", ""),
                    *data.get("aliases", []),
                ):
                    if name:
                        names.setdefault(normalise_name(str(name)), path)
            self._names = names
        return {**self._names, **self.extra}

    def builtin_paths(self) -> list[Path]:
        return sorted(self.directory.glob("*.md"))

    def fairy_paths(self) -> list[Path]:
        """The documents of Fairy-Stockfish's built-in variants: found by name like the built-ins,
        listed apart (tests and the site iterate over the built-ins)."""
        if self.fairy_directory is None:
            return []
        return sorted(self.fairy_directory.glob("*.md"))

    def add_path(self, path: Path) -> Variant:
        """Load a user's document and make it findable by its names (e.g. a UCI VariantPath)."""
        variant = self.load(str(path))
        for name in (*variant.names, variant.title):
            self.extra[normalise_name(name)] = path
        return variant

    def find(self, name: str) -> Path:
        path = Path(name)
        if name.endswith(".md") or path.suffix == ".md":
            try:
                found = path.is_file()
            except OSError as exc:  # a name too long for the file system, say
                raise UnknownVariantError(f"no variant document at {quoted(name)} ({exc.strerror})") from None
            if not found:
                raise UnknownVariantError(f"no variant document at {quoted(name)}")
            return path
        found_path = self._index().get(normalise_name(name))
        if found_path is None:
            known = ", ".join(sorted(p.stem for p in self.builtin_paths()))
            fairy = len(self.fairy_paths())
            more = f", and {fairy} Fairy-Stockfish variants: `hordes variants --all`" if fairy else ""
            raise UnknownVariantError(f"unknown variant {quoted(name)} (known: {known}{more})")
        return found_path

    def load(self, name: str) -> Variant:
        path = self.find(name)
        key = _resolved(path)
        if key not in self._cache:
            text = read_text_file(path, max_bytes=MAX_DOCUMENT_BYTES)
            self._cache[key] = self.parse(text, str(path), path.parent)
        return self._cache[key]

    def _chain(
        self,
        first: _Document,
        seen: tuple[str, ...] = (),
        parents: ParentLookup | None = None,
        max_ancestors: int = MAX_ANCESTORS,
    ) -> list[_Document]:
        """The document and its ancestors, nearest first. An ancestor with unknown top-level keys
        raises its own VariantError; the walk is a loop, bounded by MAX_ANCESTORS. With `parents`,
        a parent is found by that lookup alone (by name, never as a path)."""
        chain = [first]
        visited = {*seen, first.source if parents else _resolved(Path(first.source))}
        while True:
            doc = chain[-1]
            chk = _Checker(doc.source, _Lines(doc.lines))
            if len(chain) > 1:
                chk.unknown("", doc.data, TOP_KEYS)
                chk.finish()
            parent = doc.data.get("parent")
            if parent is None or parent == "":
                return chain
            parent = chk.string("parent", parent)
            if len(chain) > max_ancestors:
                problem = (
                    f"more than {max_ancestors} generations of parents (the limit), at {quoted(doc.source)}"
                )
                raise _Checker(first.source, _Lines(first.lines)).fail("parent", problem)
            if parents is not None:
                if parent in visited:  # sources are names here: the name alone shows the cycle
                    raise chk.fail("parent", f"inheritance cycle through {quoted(parent)}")
                try:
                    ptext, psource = parents(parent)
                except UnknownVariantError as exc:
                    raise chk.fail("parent", str(exc)) from None
                if psource in visited:
                    raise chk.fail("parent", f"inheritance cycle through {quoted(psource)}")
                visited.add(psource)
                pdata, pbody, plines = _front_matter(ptext, psource)
                chain.append(_Document(pdata, pbody, psource, plines, None))
                continue
            candidate = (doc.base / parent) if doc.base is not None else None
            try:
                ppath = candidate if candidate is not None and _is_file(candidate) else self.find(parent)
            except UnknownVariantError as exc:
                raise chk.fail("parent", str(exc)) from None
            resolved = _resolved(ppath)
            if resolved in visited or resolved == doc.source:
                raise chk.fail("parent", f"inheritance cycle through {quoted(str(ppath))}")
            visited.add(resolved)
            try:
                ptext = read_text_file(ppath, max_bytes=MAX_DOCUMENT_BYTES)
            except UnreadableFileError as exc:
                raise chk.fail("parent", str(exc)) from None
            pdata, pbody, plines = _front_matter(ptext, str(ppath))
            chain.append(_Document(pdata, pbody, str(ppath), plines, ppath.parent))

    def _resolve(
        self,
        text: str,
        source: str,
        base: Path | None,
        seen: tuple[str, ...] = (),
        parents: ParentLookup | None = None,
        max_ancestors: int = MAX_ANCESTORS,
    ) -> tuple[dict[str, Any], str, _Lines, list[VariantError]]:
        """Front matter merged with all its ancestors' (the engine part only is inherited), where its
        keys are, and the problems found so far (unknown top-level keys of the document itself)."""
        data, body, lines = _front_matter(text, source)
        chk = _Checker(source, _Lines(lines))
        chk.unknown("", data, TOP_KEYS)
        try:
            chain = self._chain(_Document(data, body, source, lines, base), seen, parents, max_ancestors)
            engine: dict[str, Any] = {}
            for doc in reversed(chain[1:]):
                engine = _merge_engine(engine, doc)
        except VariantError as exc:  # no parent to build on: what was found is all there is
            chk.errors.extend(exc.errors)
            chk.finish()
            raise
        if len(chain) == 1:
            return data, body, chk.lines, chk.errors
        if data.get("engine") is not None:
            with chk.section():
                engine = _merge_engine(engine, chain[0])
        for doc in chain[1:]:
            chk.lines.inherited.update(doc.lines)
        out = dict(data)
        out["engine"] = engine
        return out, body, chk.lines, chk.errors

    def resolve_data(
        self,
        text: str,
        source: str,
        base: Path | None,
        seen: tuple[str, ...] = (),
        parents: ParentLookup | None = None,
    ) -> tuple[dict[str, Any], str]:
        """Front matter merged with all its ancestors' (engine part only is inherited)."""
        data, body, _, errors = self._resolve(text, source, base, seen, parents)
        if errors:
            _Checker(source, errors=errors).finish()
        return data, body

    def resolve(
        self,
        text: str,
        source: str,
        seen: tuple[str, ...] = (),
        parents: ParentLookup | None = None,
        max_ancestors: int = MAX_ANCESTORS,
    ) -> Resolved:
        """The first half of `parse`: the document merged with its ancestors, not yet checked or
        built, so that a caller can weigh it (its board, its pieces) before paying for the build.
        A problem found while merging (bad YAML, a missing parent, a cycle) raises VariantError."""
        data, body, lines, errors = self._resolve(text, source, None, seen, parents, max_ancestors)
        return Resolved(data, body, source, lines, errors)

    def parse(
        self,
        text: str,
        source: str = "<string>",
        base: Path | None = None,
        parents: ParentLookup | None = None,
    ) -> Variant:
        """Build a variant from the text of a document. `parents`: how to find its parents by name
        (default: the built-in names, and paths relative to `base`)."""
        data, body, lines, errors = self._resolve(text, source, base, parents=parents)
        return build_variant(data, body, source, lines, errors)


@dataclass
class Resolved:
    """A document merged with its ancestors: `data` is the front matter with the inherited `engine`
    section; `errors` the problems found so far (unknown top-level keys). `build()` checks and builds."""

    data: dict[str, Any]
    body: str
    source: str
    lines: _Lines
    errors: list[VariantError]

    def line_of(self, key: str) -> int:
        return self.lines.line_of(key)

    def problem(self, key: str, message: str) -> VariantError:
        """A problem at a key path of this document, with its line."""
        return VariantError(self.source, key, message, self.lines.line_of(key))

    def build(self) -> Variant:
        return build_variant(self.data, self.body, self.source, self.lines, list(self.errors))


def build_variant(
    data: Mapping[str, Any],
    body: str,
    source: str,
    lines: _Lines | None = None,
    errors: list[VariantError] | None = None,
) -> Variant:
    """Check the merged front matter and build the Variant; the VariantError raised is the first
    problem and lists every problem found in its `errors` (`errors` passes in those found already)."""
    chk = _Checker(source, lines, errors)
    if errors is None:
        chk.unknown("", data, TOP_KEYS)
    slug = chk.attempt("", chk.string, "slug", data.get("slug"))
    title = chk.attempt(slug, chk.string, "title", data.get("title", slug))
    aliases = data.get("aliases", [])
    if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
        chk.record(chk.fail("aliases", "must be a list of names"))
        aliases = []
    engine = chk.attempt(None, chk.mapping, "engine", data.get("engine"))
    if engine is None:
        chk.finish()
        raise AssertionError("unreachable: finish() raised")
    chk.unknown("engine", engine, ENGINE_KEYS)
    rows = cols = 8
    before_topology = len(chk.errors)
    with chk.section():
        topo = chk.mapping("engine.topology", engine.get("topology", {"type": "grid", "rows": 8, "cols": 8}))
        chk.unknown("engine.topology", topo, TOPOLOGY_KEYS)
        if topo.get("type", "grid") != "grid":
            raise chk.fail("engine.topology.type", f"only 'grid' is supported, not {_show(topo.get('type'))}")
        rows = chk.integer("engine.topology.rows", topo.get("rows", 8), 1, 26)
        cols = chk.integer("engine.topology.cols", topo.get("cols", 8), 1, 26)
    chk.rows_known = len(chk.errors) == before_topology
    players = engine.get("players", ["white", "black"])
    if players != ["white", "black"]:
        chk.record(chk.fail("engine.players", f"only [white, black] is supported, not {_show(players)}"))
    pieces: dict[str, PieceType] = {}
    raw_pieces = chk.attempt({}, chk.mapping, "engine.pieces", engine.get("pieces"))
    for raw_letter, spec in raw_pieces.items():
        letter = _key_name(raw_letter)
        piece = _piece(chk, letter, spec)
        if piece is None:
            chk.broken.add(letter)
        else:
            pieces[letter] = piece
    if raw_pieces and not chk.broken and not any(p.royal for p in pieces.values()):
        chk.record(chk.fail("engine.pieces", "no piece is royal: mark the king with 'royal: true'"))
    for p in pieces.values():
        if p.transforms_to is None or p.transforms_to in chk.broken:
            continue
        if p.transforms_to not in pieces:
            chk.record(
                chk.fail(
                    f"engine.pieces.{p.letter}.transforms_to",
                    f"piece letter {quoted(p.transforms_to, 20)} is not defined",
                )
            )
        elif pieces[p.transforms_to].royal != p.royal:
            chk.record(
                chk.fail(
                    f"engine.pieces.{p.letter}.transforms_to",
                    "a royal piece may only turn into a royal piece",
                )
            )
    rules = chk.attempt(Rules(), _rules, chk, engine.get("rules", {}), pieces, rows, cols)
    if rules.campmate is not None:
        for letter in rules.campmate.pieces:
            if not pieces[letter].royal:
                chk.record(
                    chk.fail("engine.rules.campmate.pieces", f"{letter} is not royal; only royal pieces camp")
                )
    if rules.castling_files is not None and not rules.castling:
        chk.record(chk.fail("engine.rules.castling_files", "castling files are given but castling is off"))
    if rules.en_passant and not any(p.pawn for p in pieces.values()) and not chk.broken:
        chk.record(chk.fail("engine.rules.en_passant", "en passant is on but no piece has 'pawn: true'"))
    setup = chk.attempt("", chk.string, "engine.setup", engine.get("setup"))
    if len(setup.split()) == 1:
        setup += " w - - 0 1"
    evaluation = chk.attempt({}, chk.mapping, "engine.evaluation", engine.get("evaluation", {}))
    if "examples" in data:
        chk.attempt(None, _examples, chk, data["examples"])
    chk.finish()  # the FEN check below needs a finished variant
    meta = {k: v for k, v in data.items() if k not in {"engine", "slug", "title", "aliases", "summary"}}
    variant = Variant(
        slug=slug,
        title=title,
        geometry=geometry(rows, cols),
        pieces=tuple(pieces.values()),
        rules=rules,
        start_fen=setup,
        aliases=tuple(aliases),
        summary=str(data.get("summary", data.get("special", ""))),
        body=body,
        source=source,
        meta=meta,
        evaluation=evaluation,
    )
    from hordes.core.fen import parse_fen  # the FEN parser needs the finished variant

    try:
        parse_fen(variant, setup)
    except HordesError as exc:
        raise chk.fail("engine.setup", str(exc)) from None
    _LINES[variant] = chk.lines
    return variant


_LINES: WeakKeyDictionary[Variant, _Lines] = WeakKeyDictionary()


def line_of(variant: Variant, key: str) -> int:
    """The line of a key path in the document a variant was built from (0 if not known), for problems
    found after loading, such as in `engine.evaluation` by the engine."""
    lines = _LINES.get(variant)
    return lines.line_of(key) if lines is not None else 0
