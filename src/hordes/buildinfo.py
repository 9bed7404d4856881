"""Which build of hordes is loaded: the modules mypyc compiles, and the record of what it compiled.

The install compiles the hot modules (COMPILED_MODULES) with mypyc where a C compiler is present
(setup.py) and writes RECORD beside them: a hash of each compiled source. The pure-Python source stays
beside the compiled modules, as the reference and the fallback; `HORDES_PURE=1` in the environment at
import time loads it instead (`use_pure_source`, called by hordes/__init__.py).

setup.py reads this file without importing hordes, so it imports nothing outside the standard library.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

# The hot paths of move generation, search and evaluation, chosen by measurement (docs/benchmarks.md).
# notation.board is here because an interpreted class cannot inherit from a compiled one.
COMPILED_MODULES: tuple[str, ...] = (
    "hordes.core.betza",
    "hordes.core.compiled",
    "hordes.core.fastgen",
    "hordes.core.fen",
    "hordes.core.geometry",
    "hordes.core.movegen",
    "hordes.core.position",
    "hordes.core.rules",
    "hordes.core.tables",
    "hordes.core.words",
    "hordes.core.words_tested",
    "hordes.engine.evaluate",
    "hordes.engine.limits",
    "hordes.engine.node_static",
    "hordes.engine.pawns",
    "hordes.engine.plan",
    "hordes.engine.plan_search",
    "hordes.engine.search",
    "hordes.engine.search_info",
    "hordes.engine.tree",
    "hordes.engine.tt",
    "hordes.notation.board",
)
RECORD = "_compiled.json"  # in the package directory, written by the build (git-ignored)
PURE_VARIABLE = "HORDES_PURE"
PACKAGE_DIR = Path(__file__).resolve().parent


def source_path(module: str, package_dir: Path = PACKAGE_DIR) -> Path:
    """The .py file of a module of the compiled set."""
    parts = module.split(".")
    return package_dir.joinpath(*parts[1:]).with_suffix(".py")


def source_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def pure_requested() -> bool:
    return os.environ.get(PURE_VARIABLE, "") not in ("", "0")


class _PureSourceFinder(importlib.abc.MetaPathFinder):
    """Gives the .py spec for the compiled modules, ahead of the finder that prefers the extension."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in COMPILED_MODULES:
            return None
        return importlib.util.spec_from_file_location(fullname, source_path(fullname))


def use_pure_source() -> None:
    """Load the compiled set from its Python source from now on (before any of it is imported)."""
    if not any(isinstance(f, _PureSourceFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _PureSourceFinder())


# Imported by hordes/__init__.py before anything of the compiled set.
if pure_requested():
    use_pure_source()


def is_compiled(module: ModuleType) -> bool:
    return isinstance(getattr(module, "__loader__", None), importlib.machinery.ExtensionFileLoader)


def build_kind() -> str:
    """ "compiled" when every module of the compiled set is loaded from its compiled extension,
    "pure" when none is, "mixed" otherwise (a broken install: `pip install` it again)."""
    loaded = [is_compiled(importlib.import_module(m)) for m in COMPILED_MODULES]
    if all(loaded):
        return "compiled"
    return "mixed" if any(loaded) else "pure"


def compiled_record() -> dict[str, str]:
    """{module: sha256 of the source it was compiled from}, as the build wrote it; {} if none."""
    try:
        data = json.loads((PACKAGE_DIR / RECORD).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    return {str(k): str(v) for k, v in data.get("sources", {}).items()}


def stale_modules() -> list[str]:
    """Compiled modules whose source changed since they were built (or that the record lacks)."""
    record = compiled_record()
    return [m for m in COMPILED_MODULES if record.get(m) != source_hash(source_path(m))]
