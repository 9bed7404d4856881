"""Variant documents stored through the web app: checking, limits, versions, names, and the cache of
the variants built from them. All their SQL is here.

A stored document is played by a name of the form `SLUG~SERIES@VERSION`, e.g. `ordamirror~k3x9q2ab@2`:

- SLUG is the document's own `slug:`, so that the name says what the game is;
- SERIES is eight random letters and digits given to the first version. Slugs alone would collide
  between authors (two people's "ordamirror"), and a random part makes an unlisted document
  reachable only by those who were given its name;
- VERSION counts the versions of the series from 1. A document is never changed: storing it again
  makes the next version, and a game keeps the exact name it was created with, so its rules never
  change under it.

`~` and `@` appear in no built-in name, so a stored name can never be taken for a built-in one. A
logged-in author who stores a document whose slug they have stored before adds a version to that
series; nobody else can. An anonymous document always starts a series of its own.

`parent:` in a stored document names a built-in or an exact stored version (`SLUG~SERIES@N`); a
series without its version is refused, since what it means would change with the next version. It
is never a path: the lookup knows names only.

Limits (docs/web.md has the table): documents are checked for their size, then merged with their
parents, then weighed (board size, piece kinds, inheritance depth, the estimated memory of the
move tables), and only then built; a document over a limit gets a 4xx naming the limit.
"""

from __future__ import annotations

import re
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from functools import cache
from typing import Any
from urllib.parse import unquote, urlsplit

import sqlalchemy as sa
import yaml
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from hordes import Variant, builtin_variants
from hordes.core.compiled import compiled, forget_compiled, limit_tables
from hordes.errors import UnknownVariantError, VariantError
from hordes.variants import REGISTRY, normalise_name
from hordes.variants.loader import Resolved, split_front_matter
from hordes.web import db
from hordes.web.errors import Conflict, GameError, NotFound
from hordes.web.variant_limits import (
    MAX_STORED_ANCESTORS,
    STORED_TABLE_BUDGET,
    OverLimit,
    check_limits,
    check_size,
)

SOURCE = "<document>"  # the source of a document being checked, in its problems
VISIBILITIES = ("public", "unlisted")
CACHE_SIZE = 64  # built stored variants kept (their move tables are the bulk of a variant's memory)
SAVE_ATTEMPTS = 8  # inserts of one document retried after losing a race for its version
SERIES_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789"
SERIES_LENGTH = 8
_SLUG = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")
_NAME = re.compile(r"(?P<series>[a-z0-9][a-z0-9-]{0,39}~[a-z0-9]{8})(?:@(?P<version>[1-9][0-9]{0,5}))?")


class InvalidVariant(GameError):
    """A document with problems: every one of them, each with its key path and line."""

    status = 422
    code = "invalid_variant"

    def __init__(self, problems: list[dict[str, Any]], message: str | None = None) -> None:
        first = problems[0] if problems else {"message": "the document is not valid"}
        count = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        where = f"line {first['line']}: " if first.get("line") else ""
        super().__init__(message or f"the document is not valid: {where}{first['message']}{count}")
        self.problems = problems

    def as_dict(self) -> dict[str, Any]:
        return {**super().as_dict(), "problems": self.problems}


def problem_view(error: VariantError) -> dict[str, Any]:
    """One problem as the API shows it: key path, line (None when unknown) and what is wrong; a
    problem in a parent names that parent (its lines are the parent's)."""
    out: dict[str, Any] = {"path": error.key, "line": error.line or None, "message": error.problem}
    if error.source != SOURCE:
        out["document"] = error.source
        out["message"] = f"in the parent {error.source}: {error.problem}"
    return out


def invalid(error: VariantError) -> InvalidVariant:
    return InvalidVariant([problem_view(e) for e in error.errors])


def is_stored_name(name: str) -> bool:
    return _NAME.fullmatch(name) is not None


def split_name(name: str) -> tuple[str, int | None]:
    """(series, version or None) of a stored name; ValueError if it is not one."""
    m = _NAME.fullmatch(name)
    if m is None:
        raise ValueError(f"not a stored variant name: {name[:80]!r}")
    return m["series"], int(m["version"]) if m["version"] else None


@cache
def _builtins() -> dict[str, Variant]:
    names: dict[str, Variant] = {}
    for variant in builtin_variants():
        for name in (variant.slug, variant.title, *variant.names):
            names.setdefault(normalise_name(name), variant)
    return names


def builtin_text(name: str) -> tuple[str, Variant] | None:
    """The document text and variant of a built-in, by any of its names; None if there is none."""
    variant = _builtins().get(normalise_name(name))
    return None if variant is None else (_builtin_file(variant), variant)


@cache
def _builtin_file(variant: Variant) -> str:
    with open(variant.source, encoding="utf-8") as f:  # the built-in's own file, found by its name
        return f.read()


def _utc(stamp: datetime) -> datetime:
    """SQLite gives back naive times; they were stored in UTC (db.now)."""
    return stamp if stamp.tzinfo is not None else stamp.replace(tzinfo=UTC)


@dataclass(frozen=True)
class Checked:
    """A valid document: the merged front matter and the variant built from it."""

    resolved: Resolved
    variant: Variant


@dataclass(frozen=True)
class StoredRow:
    name: str  # SLUG~SERIES@VERSION
    id: str
    series: str
    version: int
    slug: str
    title: str
    author: str | None
    visibility: str
    created_at: datetime
    document: str

    def view(self, with_document: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "id": self.id,
            "series": self.series,
            "version": self.version,
            "slug": self.slug,
            "title": self.title,
            "author": self.author,
            "visibility": self.visibility,
            "created": _utc(self.created_at).isoformat(),
            "builtin": False,
        }
        if with_document:
            out["document"] = self.document
        return out


class VariantStore:
    """Stored documents on one database. One per process is *installed* (`install`), and the module
    functions `lookup` and `job_document` use it: the variant names of games, seeks and analysis are
    looked up from many places that hold no request."""

    def __init__(self, engine: Engine, now: Callable[[], datetime] = db.now) -> None:
        self.engine = engine
        self.now = now
        self._cache: OrderedDict[str, Variant] = OrderedDict()
        self._lock = threading.Lock()

    # ----- reading ------------------------------------------------------------------------------
    def _select(self) -> sa.Select[Any]:
        t = db.variant_documents
        return sa.select(t, db.users.c.username).select_from(
            t.outerjoin(db.users, db.users.c.id == t.c.author_id)
        )

    @staticmethod
    def _row(r: Any) -> StoredRow:
        return StoredRow(
            name=f"{r.series}@{r.version}",
            id=r.id,
            series=r.series,
            version=r.version,
            slug=r.slug,
            title=r.title,
            author=r.username,
            visibility=r.visibility,
            created_at=r.created_at,
            document=r.document,
        )

    def find(self, name: str) -> StoredRow:
        """The stored document of this name: an exact version, or a series' latest; else NotFound."""
        try:
            series, version = split_name(name)
        except ValueError:
            raise NotFound(f"no stored variant {name[:80]!r}") from None
        t = db.variant_documents
        query = self._select().where(t.c.series == series)
        query = query.where(t.c.version == version) if version else query.order_by(t.c.version.desc())
        with self.engine.connect() as conn:
            row = conn.execute(query.limit(1)).first()
        if row is None:
            raise NotFound(f"no stored variant {name!r}")
        return self._row(row)

    def public(self, limit: int = 500) -> list[StoredRow]:
        """The latest public version of every series, newest first."""
        t = db.variant_documents
        latest = (
            sa.select(t.c.series, sa.func.max(t.c.version).label("version"))
            .where(t.c.visibility == "public")
            .group_by(t.c.series)
            .subquery()
        )
        query = (
            self._select()
            .join(latest, sa.and_(latest.c.series == t.c.series, latest.c.version == t.c.version))
            .order_by(t.c.created_at.desc(), t.c.id)
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [self._row(r) for r in conn.execute(query)]

    # ----- checking -----------------------------------------------------------------------------
    def parent_text(self, name: str) -> tuple[str, str]:
        """A parent by name: a stored exact version, or a built-in (the loader's ParentLookup)."""
        if "~" in name:
            try:
                series, version = split_name(name)
            except ValueError:
                raise UnknownVariantError(
                    f"{name[:80]!r} is not the name of a stored variant (SLUG~SERIES@VERSION)"
                ) from None
            if version is None:
                raise UnknownVariantError(
                    f"name an exact version, e.g. {series}@1: a parent must not change under its children"
                )
            try:
                row = self.find(name)
            except NotFound:
                raise UnknownVariantError(f"no stored variant {name!r}") from None
            return row.document, row.name
        found = builtin_text(name)
        if found is None:
            known = ", ".join(sorted({v.slug for v in _builtins().values()}))
            raise UnknownVariantError(
                f"unknown parent {name[:80]!r}: a parent is a built-in ({known}) or a stored SLUG~SERIES@N"
            )
        text, variant = found
        return text, variant.slug

    def check(self, text: str, own_name: str | None = None) -> Checked:
        """Validate a document without storing it: InvalidVariant listing every problem, OverLimit for
        a document over a limit, checked before anything is built."""
        check_size(text)
        seen = (own_name,) if own_name else ()
        try:
            resolved = REGISTRY.resolve(
                text, SOURCE, seen, self.parent_text, max_ancestors=MAX_STORED_ANCESTORS
            )
        except VariantError as exc:
            raise invalid(exc) from None
        check_limits(resolved)
        slug = resolved.data.get("slug")
        if isinstance(slug, str) and not _SLUG.fullmatch(slug):
            resolved.errors.append(
                resolved.problem("slug", "a stored document's slug is 1-40 lower-case letters, digits and -")
            )
        try:
            variant = resolved.build()
        except VariantError as exc:
            raise invalid(exc) from None
        return Checked(resolved, variant)

    # ----- storing ------------------------------------------------------------------------------
    def _next_name(self, slug: str, author_id: int | None) -> tuple[str, int]:
        """(series, version) for the next document of this author and slug: the next version of
        their series, or version 1 of a fresh series (always, for an anonymous author)."""
        if author_id is not None:
            t = db.variant_documents
            query = (
                sa.select(t.c.series, t.c.version)
                .where(t.c.author_id == author_id, t.c.slug == slug)
                .order_by(t.c.version.desc())
                .limit(1)
            )
            with self.engine.connect() as conn:
                row = conn.execute(query).first()
            if row is not None:
                return row.series, row.version + 1
        series = slug + "~" + "".join(secrets.choice(SERIES_CHARS) for _ in range(SERIES_LENGTH))
        return series, 1

    def _slug(self, text: str) -> str:
        """The document's slug, checked: a whole check first when it has none that can be stored
        (which reports it with every other problem)."""
        check_size(text)
        try:
            data, _ = split_front_matter(text, SOURCE)
        except VariantError as exc:
            raise invalid(exc) from None
        slug = data.get("slug")
        if not isinstance(slug, str) or not _SLUG.fullmatch(slug):
            self.check(text)  # raises, with the slug among the problems
            raise AssertionError("unreachable: check() refused the slug")
        return slug

    def save(self, text: str, visibility: str, author_id: int | None) -> StoredRow:
        """Check and store a document as a new version. Two saves at once of one author's slug get
        versions N and N+1: the loser of the race for a version (the unique constraints) tries the
        next one; after SAVE_ATTEMPTS lost races, 409."""
        if visibility not in VISIBILITIES:
            raise GameError("'visibility' must be public or unlisted", code="bad_request")
        slug = self._slug(text)
        for attempt in range(SAVE_ATTEMPTS):
            series, version = self._next_name(slug, author_id)
            name = f"{series}@{version}"
            # Checked under the name it will have: naming that as its parent is a cycle.
            variant = self.check(text, own_name=name).variant
            if attempt == 0:
                self._build_tables(variant)
            title = variant.title[:200]
            row_id = "".join(secrets.choice(SERIES_CHARS) for _ in range(12))
            stamp = self.now()
            try:
                with self.engine.begin() as conn:
                    conn.execute(
                        db.variant_documents.insert().values(
                            id=row_id,
                            series=series,
                            version=version,
                            slug=slug,
                            title=title,
                            author_id=author_id,
                            visibility=visibility,
                            document=text,
                            created_at=stamp,
                        )
                    )
            except IntegrityError:
                continue  # another save took this version (or, very rarely, this series) first
            return self.find(name)
        raise Conflict("too many documents are being saved under this name at once; try again")

    @staticmethod
    def _build_tables(variant: Variant) -> None:
        """Build the move tables once before storing (bounded by the limits: at most about 0.2 s of
        CPU), so that a document whose tables cannot be built is refused here and not in a game."""
        limit_tables(variant, STORED_TABLE_BUDGET)
        try:
            compiled(variant)
        except Exception as exc:  # a document the checks passed but the core cannot build
            problem = {"path": "engine", "line": None, "message": f"the move tables cannot be built: {exc}"}
            raise InvalidVariant([problem]) from None
        finally:
            forget_compiled(variant)  # this copy is not the one games use (variant() builds that)

    # ----- the variants of stored names -----------------------------------------------------------
    def variant(self, name: str) -> Variant:
        """The variant of a stored name (a series alone means its latest version), its slug the
        exact name; built once per version and kept in a bounded LRU cache."""
        _, version = split_name(name)
        exact = name if version else self.find(name).name
        with self._lock:
            cached = self._cache.get(exact)
            if cached is not None:
                self._cache.move_to_end(exact)
                return cached
        row = self.find(exact)
        try:
            checked = self.check(row.document)
        except (InvalidVariant, OverLimit) as exc:  # stored under older rules or limits
            raise GameError(
                f"the stored variant {exact} no longer loads: {exc.message}", status=409
            ) from None
        variant = replace(checked.variant, slug=exact, aliases=(), source=exact)
        limit_tables(variant, STORED_TABLE_BUDGET)
        with self._lock:
            self._cache[exact] = variant
            while len(self._cache) > CACHE_SIZE:
                _, old = self._cache.popitem(last=False)
                forget_compiled(old)
        return variant

    def flattened(self, name: str, slug: str | None = None) -> str:
        """The document of a stored name with its parents merged in, loadable on its own (`hordes uci`
        with VariantPath, an engine worker). `slug`: the slug to give it (default its own), the exact
        name is always one of its aliases."""
        row = self.find(name)
        try:
            data, body = REGISTRY.resolve_data(row.document, row.name, None, parents=self.parent_text)
        except VariantError as exc:
            raise GameError(f"the stored variant {row.name} no longer loads: {exc}", status=409) from None
        return flat_document(data, body, slug or row.slug, row.name)

    def flattened_text(self, text: str, variant: Variant) -> str:
        """An unstored, checked document with its parents merged in, loadable on its own: what a
        worker process gets (a built Variant does not pickle in the compiled build)."""
        data, body = REGISTRY.resolve_data(text, SOURCE, None, parents=self.parent_text)
        return flat_document(data, body, variant.slug, variant.slug)

    def flattened_builtin(self, variant: Variant) -> str:
        """A built-in's document with its parents merged in."""
        data, body = REGISTRY.resolve_data(
            _builtin_file(variant), variant.slug, None, parents=self.parent_text
        )
        return flat_document(data, body, variant.slug, variant.slug)


def flat_document(data: dict[str, Any], body: str, slug: str, name: str) -> str:
    """A merged front matter and body as one document without `parent:`; `name` becomes an alias."""
    out = {k: v for k, v in data.items() if k != "parent"}
    out["slug"] = slug
    aliases = [a for a in out.get("aliases", []) if isinstance(a, str)]
    out["aliases"] = [*aliases, name] if name != slug else aliases
    front = yaml.safe_dump(out, sort_keys=False, allow_unicode=True, width=100)
    return f"---\n{front}---\n{body}"


# ----- the process's store ---------------------------------------------------------------------------
_installed: VariantStore | None = None


def install(store: VariantStore) -> None:
    """Make `store` the one that stored names are looked up in (the app and `hordes engine-worker`
    install theirs when they start; tests that build several apps get the latest one's)."""
    global _installed
    _installed = store


def installed() -> VariantStore | None:
    return _installed


def lookup(name: str) -> Variant:
    """The variant of a stored name in the installed store; NotFound when there is none."""
    if _installed is None:
        raise NotFound(f"no stored variant {name!r}: this process has no variant store")
    return _installed.variant(name)


_jobs: OrderedDict[str, str] = OrderedDict()
_jobs_lock = threading.Lock()


def job_document(name: str) -> str:
    """What an engine job carries as its variant: a built-in's name as it is; for a stored name, its
    flattened document (the worker processes have no database), kept for the last CACHE_SIZE names."""
    if not is_stored_name(name) or _installed is None:
        return name
    with _jobs_lock:
        found = _jobs.get(name)
    if found is None:
        exact = _installed.variant(name).slug
        found = _installed.flattened(exact, slug=exact)
        with _jobs_lock:
            _jobs[name] = found
            while len(_jobs) > CACHE_SIZE:
                _jobs.popitem(last=False)
    return found


# ----- PGN: the [VariantDocument] tag -------------------------------------------------------------------
DOCUMENT_PATH = "/api/variants/"  # + the name: where this site serves a document


def pgn_tags(variant: Variant) -> dict[str, str]:
    """The tags a stored variant's PGN carries: its title as the Variant, and the path of its
    document on this site (a reader elsewhere can fetch it; `hordes uci` loads it as a VariantPath)."""
    if not is_stored_name(variant.slug):
        return {}
    return {"Variant": " ".join(variant.title.split()), "VariantDocument": DOCUMENT_PATH + variant.slug}


def pgn_resolver(tags: Mapping[str, str]) -> Variant | None:
    """The PGN reader's VariantResolver for this site: a `[VariantDocument]` that is a path (or URL)
    of a document here, or a Variant tag that is a stored name, found in the store. Nothing is
    fetched: a document of another site is found only if this site has one of that name."""
    document = tags.get("VariantDocument", "").strip()
    if document:
        path = urlsplit(document).path  # a path, or a URL: its query (?format=md) is not the name
        if not path.startswith(DOCUMENT_PATH):
            raise UnknownVariantError(
                f"the VariantDocument tag {document[:80]!r} is not a document of this site "
                f"({DOCUMENT_PATH}NAME)"
            )
        name = unquote(path[len(DOCUMENT_PATH) :])
        if not is_stored_name(name):
            found = builtin_text(name)
            if found is None:
                raise UnknownVariantError(
                    f"the VariantDocument tag names no variant of this site: {name[:80]!r}"
                )
            return found[1]
        return _pgn_lookup(name)
    name = tags.get("Variant", "").strip()
    return _pgn_lookup(name) if is_stored_name(name) else None


def _pgn_lookup(name: str) -> Variant:
    try:
        return lookup(name)
    except NotFound as exc:
        raise UnknownVariantError(exc.message) from None
    except GameError as exc:  # stored but no longer loads
        raise UnknownVariantError(exc.message) from None
