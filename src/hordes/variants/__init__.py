"""Variant documents: the built-in games and the loader for users' own."""

from __future__ import annotations

from pathlib import Path

from hordes.core.rules import Variant
from hordes.variants.loader import ParentLookup, Registry, normalise_name

REGISTRY = Registry()


def load_variant(name: str) -> Variant:
    """A variant by slug, alias or title (case-insensitive), or by path to a .md document."""
    return REGISTRY.load(name)


def parse_variant(
    text: str, source: str = "<string>", base: Path | None = None, parents: ParentLookup | None = None
) -> Variant:
    """Build a variant from the text of a document; `parents` finds its parents by name instead of
    the built-in names and paths relative to `base` (a web app's stored documents)."""
    return REGISTRY.parse(text, source, base, parents)


def builtin_variants() -> list[Variant]:
    return [REGISTRY.load(str(p)) for p in REGISTRY.builtin_paths()]


def fairy_variants() -> list[Variant]:
    """Fairy-Stockfish's built-in variants that hordes ships as documents (src/hordes/variants/fairy),
    loadable by name like the built-ins but not listed among them."""
    return [REGISTRY.load(str(p)) for p in REGISTRY.fairy_paths()]


def add_variant_path(path: str | Path) -> Variant:
    return REGISTRY.add_path(Path(path))


__all__ = [
    "ParentLookup",
    "Variant",
    "add_variant_path",
    "builtin_variants",
    "fairy_variants",
    "load_variant",
    "normalise_name",
    "parse_variant",
]
