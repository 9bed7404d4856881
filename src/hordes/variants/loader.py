"""Load variant documents: markdown with YAML front matter, strict, with `parent:` inheritance.

A document's `engine:` section describes the game for the program (board, pieces, rules); the rest
of the front matter and the markdown body describe it for people. Every problem is reported as a
VariantError naming the file, the key and what is wrong.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import yaml

from hordes.core.betza import Component, parse_betza
from hordes.core.geometry import geometry
from hordes.core.rules import Campmate, PieceType, Promotion, Rules, Variant
from hordes.errors import HordesError, UnknownVariantError, VariantError

BUILTIN_DIR = Path(__file__).parent

TOP_KEYS = {
    "title", "slug", "aliases", "summary", "board", "players", "parent", "win", "special",
    "designer", "year", "engine",
}  # fmt: skip
ENGINE_KEYS = {"topology", "players", "setup", "pieces", "rules", "evaluation"}
TOPOLOGY_KEYS = {"type", "rows", "cols"}
PIECE_KEYS = {
    "name", "betza", "royal", "pawn", "value", "transforms_to", "changes_owner_on_capture",
    "pull", "immobile", "restricts", "restrictable",
}  # fmt: skip
RULE_KEYS = {
    "castling", "double_step", "en_passant", "promotion", "campmate", "stalemate", "repetition",
    "n_move_rule", "insufficient_material", "no_legal_moves",
}  # fmt: skip
_LETTER = re.compile(r"^\+?[A-Z]$")
_FRONT = re.compile(r"\A---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|\Z)(.*)\Z", re.S)


def split_front_matter(text: str, source: str) -> tuple[dict[str, Any], str]:
    """Return (front matter mapping, markdown body)."""
    m = _FRONT.match(text.lstrip("\ufeff"))
    if not m:
        raise VariantError(source, "", "no YAML front matter (the file must start with a '---' line)")
    try:
        data = yaml.safe_load(m.group(1))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 2}" if mark is not None else ""
        raise VariantError(source, "", f"front matter is not valid YAML{where}: {exc}") from None
    if not isinstance(data, dict):
        raise VariantError(source, "", "front matter must be a mapping of keys to values")
    return data, m.group(2)


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
    """Type checks that name the key; used while building a Variant."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, key: str, problem: str) -> VariantError:
        return VariantError(self.source, key, problem)

    def unknown(self, key: str, data: Mapping[str, Any], allowed: set[str]) -> None:
        extra = sorted(set(data) - allowed)
        if extra:
            raise self.fail(
                f"{key}.{extra[0]}" if key else extra[0],
                f"unknown key (allowed: {', '.join(sorted(allowed))})",
            )

    def mapping(self, key: str, value: Any) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(key, f"must be a mapping, not {type(value).__name__}")
        return value

    def integer(self, key: str, value: Any, low: int, high: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(key, f"must be a whole number, not {value!r}")
        if not low <= value <= high:
            raise self.fail(key, f"{value} is out of range ({low}..{high})")
        return value

    def boolean(self, key: str, value: Any) -> bool:
        if not isinstance(value, bool):
            raise self.fail(key, f"must be true or false, not {value!r}")
        return value

    def choice(self, key: str, value: Any, options: tuple[str, ...]) -> str:
        if value not in options:
            raise self.fail(key, f"must be one of {', '.join(options)}, not {value!r}")
        return str(value)

    def string(self, key: str, value: Any) -> str:
        if not isinstance(value, str) or not value.strip():
            raise self.fail(key, f"must be a non-empty string, not {value!r}")
        return value

    def letters(self, key: str, value: Any, known: Mapping[str, Any]) -> tuple[str, ...]:
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list):
            raise self.fail(key, f"must be a list of piece letters, not {value!r}")
        out: list[str] = []
        for item in value:
            letter = str(item)
            if letter not in known:
                raise self.fail(key, f"piece letter {letter!r} is not defined in engine.pieces")
            out.append(letter)
        return tuple(out)

    def ranks(self, key: str, value: Any, rows: int) -> tuple[int, ...]:
        if isinstance(value, int) and not isinstance(value, bool):
            value = [value]
        if not isinstance(value, list):
            raise self.fail(key, f"must be a list of rank numbers, not {value!r}")
        return tuple(self.integer(key, r, 1, rows) - 1 for r in value)


def _betza(chk: _Checker, key: str, text: Any) -> tuple[Component, ...]:
    try:
        return tuple(parse_betza(chk.string(key, text)))
    except HordesError as exc:
        raise chk.fail(key, str(exc)) from None


def _piece(chk: _Checker, letter: str, spec: Any) -> PieceType:
    key = f"engine.pieces.{letter}"
    if not _LETTER.match(letter):
        raise chk.fail(key, "a piece letter is one capital letter, optionally after '+' (e.g. N, +R)")
    spec = chk.mapping(key, spec)
    chk.unknown(key, spec, PIECE_KEYS)
    immobile = chk.boolean(f"{key}.immobile", spec.get("immobile", False))
    if "betza" not in spec and not immobile:
        raise chk.fail(f"{key}.betza", "missing: every piece that moves needs a Betza movement string")
    betza = chk.string(f"{key}.betza", spec["betza"]) if "betza" in spec else ""
    if betza and immobile:
        raise chk.fail(f"{key}.betza", "an immobile piece does not move: leave out its Betza string")
    components = _betza(chk, f"{key}.betza", betza) if betza else ()
    pull_betza = spec.get("pull")
    pull = _betza(chk, f"{key}.pull", pull_betza) if pull_betza is not None else ()
    restricts_betza = spec.get("restricts")
    restricts = _betza(chk, f"{key}.restricts", restricts_betza) if restricts_betza is not None else ()
    for name, comps in (("pull", pull), ("restricts", restricts)):
        if any(c.max_steps != (0 if name == "pull" else 1) for c in comps):
            kind = "riders (lines, e.g. R or B)" if name == "pull" else "single steps (e.g. W or F)"
            raise chk.fail(f"{key}.{name}", f"must be {kind}")
    value = spec.get("value", 0)
    if isinstance(value, list):
        if len(value) != 2:
            raise chk.fail(f"{key}.value", "give one number or [middlegame, endgame]")
        mg = chk.integer(f"{key}.value", value[0], -100000, 100000)
        eg = chk.integer(f"{key}.value", value[1], -100000, 100000)
    else:
        mg = eg = chk.integer(f"{key}.value", value, -100000, 100000)
    transforms_to = spec.get("transforms_to")
    if transforms_to is not None:
        transforms_to = chk.string(f"{key}.transforms_to", transforms_to)
    return PieceType(
        letter=letter,
        name=chk.string(f"{key}.name", spec.get("name", letter)),
        betza=betza,
        components=components,
        royal=chk.boolean(f"{key}.royal", spec.get("royal", False)),
        pawn=chk.boolean(f"{key}.pawn", spec.get("pawn", False)),
        value_mg=mg,
        value_eg=eg,
        changes_owner_on_capture=chk.boolean(
            f"{key}.changes_owner_on_capture", spec.get("changes_owner_on_capture", False)
        ),
        transforms_to=transforms_to,
        pull_betza=pull_betza,
        pull_components=pull,
        immobile=immobile,
        restricts_betza=restricts_betza,
        restrict_components=restricts,
        restrictable=chk.boolean(f"{key}.restrictable", spec.get("restrictable", False)),
    )


def _per_side(chk: _Checker, key: str, value: Any, parse: Callable[[str, Any], Any]) -> tuple[Any, Any]:
    data = chk.mapping(key, value)
    chk.unknown(key, data, {"white", "black"})
    return parse(f"{key}.white", data.get("white", [])), parse(f"{key}.black", data.get("black", []))


def _rules(chk: _Checker, spec: Any, pieces: Mapping[str, PieceType], rows: int) -> Rules:
    data = chk.mapping("engine.rules", spec)
    chk.unknown("engine.rules", data, RULE_KEYS)
    kw: dict[str, Any] = {}
    if "castling" in data:
        kw["castling"] = chk.boolean("engine.rules.castling", data["castling"])
    if "en_passant" in data:
        kw["en_passant"] = chk.boolean("engine.rules.en_passant", data["en_passant"])
    if "insufficient_material" in data:
        kw["insufficient_material"] = chk.boolean(
            "engine.rules.insufficient_material", data["insufficient_material"]
        )
    if "double_step" in data:
        kw["double_step_ranks"] = _per_side(
            chk, "engine.rules.double_step", data["double_step"], lambda k, v: chk.ranks(k, v, rows)
        )
    if "promotion" in data:
        prom = chk.mapping("engine.rules.promotion", data["promotion"])
        chk.unknown("engine.rules.promotion", prom, {"white", "black"})
        sides = []
        for side in ("white", "black"):
            key = f"engine.rules.promotion.{side}"
            if side not in prom:
                sides.append(Promotion())
                continue
            p = chk.mapping(key, prom[side])
            chk.unknown(key, p, {"pieces", "ranks", "choices"})
            sides.append(
                Promotion(
                    pieces=chk.letters(f"{key}.pieces", p.get("pieces", []), pieces),
                    ranks=chk.ranks(f"{key}.ranks", p.get("ranks", []), rows),
                    choices=chk.letters(f"{key}.choices", p.get("choices", []), pieces),
                )
            )
            if sides[-1].pieces and not sides[-1].choices:
                raise chk.fail(f"{key}.choices", "pieces promote but no choice is given")
            for letter in sides[-1].choices:
                if pieces[letter].royal:
                    raise chk.fail(f"{key}.choices", f"cannot promote to the royal piece {letter}")
        kw["promotion"] = (sides[0], sides[1])
    if data.get("campmate") is not None:
        key = "engine.rules.campmate"
        cm = chk.mapping(key, data["campmate"])
        chk.unknown(key, cm, {"pieces", "white", "black"})
        letters = chk.letters(f"{key}.pieces", cm.get("pieces", []), pieces)
        if not letters:
            raise chk.fail(f"{key}.pieces", "name the piece(s) that win by reaching the ranks")
        kw["campmate"] = Campmate(
            letters,
            (
                chk.ranks(f"{key}.white", cm.get("white", []), rows),
                chk.ranks(f"{key}.black", cm.get("black", []), rows),
            ),
        )
    if "stalemate" in data:
        kw["stalemate"] = chk.choice("engine.rules.stalemate", data["stalemate"], ("draw", "loss", "win"))
    if "no_legal_moves" in data:
        kw["no_legal_moves"] = chk.choice(
            "engine.rules.no_legal_moves", data["no_legal_moves"], ("stalemate", "loss")
        )
    if "repetition" in data:
        key = "engine.rules.repetition"
        rep = chk.mapping(key, data["repetition"])
        chk.unknown(key, rep, {"count", "result"})
        kw["repetition_count"] = chk.integer(f"{key}.count", rep.get("count", 3), 2, 100)
        kw["repetition_result"] = chk.choice(f"{key}.result", rep.get("result", "draw"), ("draw", "loss"))
    if data.get("n_move_rule") is not None:
        key = "engine.rules.n_move_rule"
        nm = chk.mapping(key, data["n_move_rule"])
        chk.unknown(key, nm, {"moves", "reset_by"})
        kw["n_move_rule"] = chk.integer(f"{key}.moves", nm.get("moves", 50), 0, 10000)
        if "reset_by" in nm:
            kw["n_move_reset"] = _per_side(
                chk, f"{key}.reset_by", nm["reset_by"], lambda k, v: chk.letters(k, v, pieces)
            )
    return Rules(**kw)


class Registry:
    """Finds documents by name (slug, alias or title, in any case) or by path, and caches them."""

    def __init__(self, directory: Path = BUILTIN_DIR) -> None:
        self.directory = directory
        self._cache: dict[str, Variant] = {}
        self._names: dict[str, Path] | None = None
        self.extra: dict[str, Path] = {}

    def _index(self) -> dict[str, Path]:
        if self._names is None:
            names: dict[str, Path] = {}
            for path in sorted(self.directory.glob("*.md")):
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

    def add_path(self, path: Path) -> Variant:
        """Load a user's document and make it findable by its names (e.g. a UCI VariantPath)."""
        variant = self.load(str(path))
        for name in (*variant.names, variant.title):
            self.extra[normalise_name(name)] = path
        return variant

    def find(self, name: str) -> Path:
        path = Path(name)
        if name.endswith(".md") or path.suffix == ".md":
            if not path.is_file():
                raise UnknownVariantError(f"no variant document at {name!r}")
            return path
        found = self._index().get(normalise_name(name))
        if found is None:
            known = ", ".join(sorted({p.stem for p in self._index().values()}))
            raise UnknownVariantError(f"unknown variant {name!r} (known: {known})")
        return found

    def load(self, name: str) -> Variant:
        path = self.find(name)
        key = str(path.resolve())
        if key not in self._cache:
            self._cache[key] = self.parse(path.read_text(encoding="utf-8"), str(path), path.parent)
        return self._cache[key]

    def resolve_data(
        self, text: str, source: str, base: Path | None, seen: tuple[str, ...] = ()
    ) -> tuple[dict[str, Any], str]:
        """Front matter merged with all its ancestors' (engine part only is inherited)."""
        data, body = split_front_matter(text, source)
        chk = _Checker(source)
        chk.unknown("", data, TOP_KEYS)
        parent = data.get("parent")
        if parent is None or parent == "":
            return data, body
        parent = chk.string("parent", parent)
        candidate = (base / parent) if base is not None else None
        try:
            ppath = candidate if candidate is not None and candidate.is_file() else self.find(parent)
        except UnknownVariantError as exc:
            raise chk.fail("parent", str(exc)) from None
        if str(ppath.resolve()) in seen or str(ppath.resolve()) == source:
            raise chk.fail("parent", f"inheritance cycle through {ppath}")
        pdata, _ = self.resolve_data(
            ppath.read_text(encoding="utf-8"), str(ppath), ppath.parent, (*seen, str(Path(source).resolve()))
        )
        merged_engine = deep_merge(pdata.get("engine") or {}, data.get("engine") or {})
        out = dict(data)
        out["engine"] = merged_engine
        return out, body

    def parse(self, text: str, source: str = "<string>", base: Path | None = None) -> Variant:
        data, body = self.resolve_data(text, source, base)
        return build_variant(data, body, source)


def build_variant(data: Mapping[str, Any], body: str, source: str) -> Variant:
    chk = _Checker(source)
    chk.unknown("", data, TOP_KEYS)
    slug = chk.string("slug", data.get("slug"))
    title = chk.string("title", data.get("title", slug))
    aliases = data.get("aliases", [])
    if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
        raise chk.fail("aliases", "must be a list of names")
    engine = chk.mapping("engine", data.get("engine"))
    chk.unknown("engine", engine, ENGINE_KEYS)
    topo = chk.mapping("engine.topology", engine.get("topology", {"type": "grid", "rows": 8, "cols": 8}))
    chk.unknown("engine.topology", topo, TOPOLOGY_KEYS)
    if topo.get("type", "grid") != "grid":
        raise chk.fail("engine.topology.type", f"only 'grid' is supported, not {topo.get('type')!r}")
    rows = chk.integer("engine.topology.rows", topo.get("rows", 8), 1, 26)
    cols = chk.integer("engine.topology.cols", topo.get("cols", 8), 1, 26)
    players = engine.get("players", ["white", "black"])
    if players != ["white", "black"]:
        raise chk.fail("engine.players", f"only [white, black] is supported, not {players!r}")
    raw_pieces = chk.mapping("engine.pieces", engine.get("pieces"))
    pieces = {str(letter): _piece(chk, str(letter), spec) for letter, spec in raw_pieces.items()}
    if not any(p.royal for p in pieces.values()):
        raise chk.fail("engine.pieces", "no piece is royal: mark the king with 'royal: true'")
    for p in pieces.values():
        if p.transforms_to is not None and p.transforms_to not in pieces:
            raise chk.fail(
                f"engine.pieces.{p.letter}.transforms_to", f"piece letter {p.transforms_to!r} is not defined"
            )
        if p.transforms_to is not None and pieces[p.transforms_to].royal != p.royal:
            raise chk.fail(
                f"engine.pieces.{p.letter}.transforms_to", "a royal piece may only turn into a royal piece"
            )
    rules = _rules(chk, engine.get("rules", {}), pieces, rows)
    if rules.campmate is not None:
        for letter in rules.campmate.pieces:
            if not pieces[letter].royal:
                raise chk.fail(
                    "engine.rules.campmate.pieces", f"{letter} is not royal; only royal pieces camp"
                )
    if rules.en_passant and not any(p.pawn for p in pieces.values()):
        raise chk.fail("engine.rules.en_passant", "en passant is on but no piece has 'pawn: true'")
    setup = chk.string("engine.setup", engine.get("setup"))
    if len(setup.split()) == 1:
        setup += " w - - 0 1"
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
        evaluation=chk.mapping("engine.evaluation", engine.get("evaluation", {})),
    )
    from hordes.core.fen import parse_fen  # the FEN parser needs the finished variant

    try:
        parse_fen(variant, setup)
    except HordesError as exc:
        raise chk.fail("engine.setup", str(exc)) from None
    return variant
