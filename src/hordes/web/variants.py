"""The variants the web app plays: a fixed list, looked up by name, never by path.

The library's `load_variant` also takes a path to any `.md` file, which is right for a Python user
and wrong for a server: a request could make it read a file of the server's disk, quote it in an
error, or learn whether a path exists. The web app therefore knows its variants by name only: the
built-in documents, and the documents stored through the web app itself (variant_store.py), whose
names (`SLUG~SERIES@VERSION`) can never be taken for a built-in's. A name that is neither is refused
with a message that quotes nothing but the list.

A stored game whose variant is no longer on the list (a document removed, or a game stored by an
older version that accepted paths) is *unavailable*: its page says so, and the rest of the site works.
"""

from __future__ import annotations

from functools import cache

from hordes import Variant, builtin_variants
from hordes.variants import normalise_name
from hordes.web import variant_store
from hordes.web.errors import GameError, NotFound

MAX_NAME = 64  # characters: longer than any slug, alias or title of a variant


class UnknownVariant(GameError):
    status = 400
    code = "unknown_variant"


class VariantUnavailable(GameError):
    """A stored game's variant can no longer be loaded on this server."""

    status = 409
    code = "variant_unavailable"


@cache
def _by_name() -> dict[str, Variant]:
    names: dict[str, Variant] = {}
    for variant in builtin_variants():
        for name in (variant.slug, variant.title, *variant.names):
            names.setdefault(normalise_name(name), variant)
    return names


def playable() -> list[Variant]:
    """Every variant the web app offers, each once."""
    return list({v.slug: v for v in _by_name().values()}.values())


def web_variant(name: object) -> Variant:
    """The variant of this name (slug, alias or title, any case; or a stored document's name, a
    series alone meaning its latest version), or UnknownVariant (400)."""
    if not isinstance(name, str):
        raise UnknownVariant("'variant' must be the name of a variant, e.g. \"orda\"")
    if len(name) <= MAX_NAME and variant_store.is_stored_name(name):
        try:
            return variant_store.lookup(name)
        except NotFound as exc:
            raise UnknownVariant(exc.message) from None
    found = _by_name().get(normalise_name(name)) if len(name) <= MAX_NAME else None
    if found is None:
        known = ", ".join(sorted(v.slug for v in playable()))
        shown = name if len(name) <= MAX_NAME and name.isprintable() else f"{name[:20]!r}…"
        raise UnknownVariant(
            f"unknown variant {shown!r}; this server plays: {known}, and stored documents (SLUG~SERIES@N)"
        )
    return found


def stored_variant(slug: str) -> Variant:
    """The variant of a stored game, or VariantUnavailable (409) when this server cannot play it."""
    try:
        return web_variant(slug)
    except GameError:  # not on the list, or a stored document that no longer loads (variant_store.py)
        raise VariantUnavailable(
            f"this game's variant ({slug[:MAX_NAME]!r}) is not available on this server"
        ) from None
