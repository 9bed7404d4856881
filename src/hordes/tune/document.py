"""Writing the tuned numbers as a variant document that inherits everything else from the original."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from hordes.core.rules import Variant
from hordes.errors import HordesError, UnknownVariantError
from hordes.tune.texel import Param
from hordes.variants import REGISTRY


def parent_reference(variant: Variant, out: Path) -> str:
    """How the tuned document names its parent: the slug when the registry finds the same document
    by it (the built-in variants), else the original's path relative to the tuned document."""
    source = Path(variant.source)
    try:
        found = REGISTRY.find(variant.slug)
    except UnknownVariantError:
        found = None
    if not source.is_file():
        if found is None:
            raise HordesError(f"{variant.slug}: the variant has no document file to inherit from")
        return variant.slug
    if found is not None and found.resolve() == source.resolve():
        return variant.slug
    return os.path.relpath(source.resolve(), out.resolve().parent)


def tuned_document(
    variant: Variant,
    changes: Sequence[tuple[Param, int, int]],
    out: Path,
    header: Sequence[str],
    slug: str | None = None,
) -> str:
    """The text of a document with `parent:` the original and only the changed numbers."""
    pieces = {p.letter: p for p in variant.pieces}
    values: dict[str, list[int]] = {}
    weights: dict[str, list[int] | int] = {}
    news = {(p.kind, p.key, p.part): new for p, _, new in changes}
    for p, _, _ in changes:
        if p.kind == "value":
            piece = pieces[p.key]
            values[p.key] = [
                news.get(("value", p.key, 0), piece.value_mg),
                news.get(("value", p.key, 1), piece.value_eg),
            ]
        elif p.kind == "pair":
            doc = _document_pair(variant, p.key)
            weights[p.key] = [news.get(("pair", p.key, part), doc[part]) for part in (0, 1)]
        else:
            weights[p.key] = news[(p.kind, p.key, p.part)]
    slug = slug or f"{variant.slug}-tuned"
    lines = ["---"]
    lines += [f"# {line}" if line else "#" for line in header]
    lines += [
        f"title: {_quote(variant.title + ' (tuned)')}",
        f"slug: {slug}",
        f"summary: {_quote('Evaluation numbers of ' + variant.title + ' fitted to game results')}",
        f"parent: {_quote(parent_reference(variant, out))}",
    ]
    engine: list[str] = []
    if values:
        engine.append("  pieces:")
        for letter, (mg, eg) in values.items():
            engine.append(f"    {_key(letter)}: {{value: [{mg}, {eg}]}}")
    if weights:
        engine.append("  evaluation:")
        for term, value in weights.items():
            text = f"[{value[0]}, {value[1]}]" if isinstance(value, list) else str(value)
            engine.append(f"    {term}: {text}")
    lines += ["engine:", *engine] if engine else ["engine: {}"]
    lines += [
        "---",
        "",
        f"## {variant.title} (tuned)",
        "",
        f"The rules of {variant.title} with evaluation numbers fitted by `hordes tune` (see the comments",
        "at the top). Play it, or give it to a player with `hordes:evalfile=THIS_FILE`.",
        "",
    ]
    return "\n".join(lines)


def _document_pair(variant: Variant, term: str) -> tuple[int, int]:
    from hordes.engine import eval_params as evmod

    ep = evmod.parse_params(variant)
    pair = getattr(ep, term, None)
    if pair is None:
        return evmod.PAIR_TERMS[term]
    return int(pair[0]), int(pair[1])


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _key(letter: str) -> str:
    return f'"{letter}"' if letter.startswith("+") else letter
