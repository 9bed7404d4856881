"""The compiled build: mypyc turns the hot modules (hordes.buildinfo.COMPILED_MODULES) into C extensions.

Everything else about the package is in pyproject.toml. The pure-Python package is built instead, with
a one-line note saying why, when HORDES_PURE=1 is set, when mypyc cannot be imported, when no C
compiler can build against the Python headers, or when the compilation fails. The compiled build
writes hordes/_compiled.json (a hash of each source it compiled) so that a test can tell a stale build.
"""

from __future__ import annotations

import json
import os
import runpy
import sys
import sysconfig
import tempfile
import time
from pathlib import Path
from typing import Any

from setuptools import Distribution, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
SRC = HERE / "src"
INFO: dict[str, Any] = runpy.run_path(str(SRC / "hordes" / "buildinfo.py"))
MODULES: tuple[str, ...] = INFO["COMPILED_MODULES"]
SOURCES = [INFO["source_path"](m, SRC / "hordes") for m in MODULES]


def note(message: str) -> None:
    print(f"hordes build: {message}", file=sys.stderr, flush=True)


def compiler_works() -> str:
    """'' when a C compiler builds an object against Python.h here, else why not."""
    from setuptools._distutils.ccompiler import new_compiler
    from setuptools._distutils.errors import CCompilerError, DistutilsError
    from setuptools._distutils.sysconfig import customize_compiler

    cc = new_compiler()
    customize_compiler(cc)
    with tempfile.TemporaryDirectory() as tmp:
        probe = Path(tmp, "probe.c")
        probe.write_text("#include <Python.h>\nint hordes_probe(void) { return 0; }\n")
        try:
            cc.compile([str(probe)], output_dir=tmp, include_dirs=[sysconfig.get_paths()["include"]])
        except (CCompilerError, DistutilsError, OSError) as exc:
            return f"no working C compiler ({str(exc).splitlines()[0] if str(exc) else type(exc).__name__})"
    return ""


def why_pure() -> str:
    """'' when the compiled build can be tried, else the reason for the pure one."""
    if os.environ.get(INFO["PURE_VARIABLE"], "") not in ("", "0"):
        return "HORDES_PURE is set"
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return "mypyc is not installed"
    return compiler_works()


def in_place_outputs() -> list[Path]:
    """Compiled files an earlier in-place (editable) build left in src/: they would shadow the source."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    found = [p.with_suffix("").with_suffix(suffix) for p in SOURCES]
    found = [p for p in found if p.exists()]
    found += list(SRC.glob(f"*__mypyc{suffix}"))
    record = SRC / "hordes" / INFO["RECORD"]
    return [*found, record] if record.exists() else found


class MypycBuildExt(build_ext):
    """Runs mypyc when the extensions are built (not when pip only asks for the metadata)."""

    def run(self) -> None:
        if self.inplace:  # an editable install: compiled files from an earlier build go first
            for stale in in_place_outputs():
                stale.unlink()
        started = time.monotonic()
        # Hashed before mypyc reads them, so a source edited during the build shows as stale.
        hashes = {m: INFO["source_hash"](p) for m, p in zip(MODULES, SOURCES, strict=True)}
        try:
            from mypyc.build import mypycify

            # Type errors in modules the compiled set merely imports (the YAML loader, ...) must not
            # stop the build in an isolated environment that lacks their stubs.
            options = ["--follow-imports=silent", "--ignore-missing-imports"]
            rel = [str(p.relative_to(HERE)) for p in SOURCES]
            cwd = os.getcwd()
            os.chdir(HERE)
            try:
                self.extensions = mypycify([*options, *rel], opt_level="3", target_dir=self.build_temp)
            finally:
                os.chdir(cwd)
            self.distribution.ext_modules = self.extensions
            for ext in self.extensions:  # what build_ext.finalize_options does for the declared ones
                ext._full_name = self.get_ext_fullname(ext.name)
                self.ext_map[ext._full_name] = ext
                ext._links_to_dynamic = False
                ext._needs_stub = False
                ext._file_name = self.get_ext_filename(ext._full_name)
            super().run()
        except (Exception, SystemExit) as exc:  # mypyc reports type errors with SystemExit
            self.extensions = []
            if self.inplace:
                for stale in in_place_outputs():
                    stale.unlink()
            first = (str(exc) or type(exc).__name__).strip().splitlines()
            note(f"building the pure-Python package: the compilation failed ({first[0] if first else exc!r})")
            return
        self.write_record(hashes)
        note(f"compiled {len(MODULES)} modules with mypyc in {time.monotonic() - started:.0f} s")

    def write_record(self, hashes: dict[str, str]) -> None:
        record = {"mypy": __import__("mypy.version").version.__version__, "sources": hashes}
        text = json.dumps(record, indent=1, sort_keys=True) + "\n"
        targets = [Path(self.build_lib, "hordes")]
        if self.inplace:
            targets.append(SRC / "hordes")
        for target in targets:
            target.mkdir(parents=True, exist_ok=True)
            (target / INFO["RECORD"]).write_text(text, encoding="utf-8")

    def get_outputs(self) -> list[str]:
        outputs = super().get_outputs()
        if self.extensions:
            outputs.append(str(Path(self.build_lib, "hordes", INFO["RECORD"])))
        return outputs


class CompiledDistribution(Distribution):
    def has_ext_modules(self) -> bool:  # the extensions are only known once mypyc has run
        return True


reason = why_pure()
if reason:
    # A pure build of this tree: compiled files left in src/ by an editable build would shadow it.
    for stale in in_place_outputs():
        stale.unlink()
    note(f"building the pure-Python package: {reason}")
    setup()
else:
    setup(distclass=CompiledDistribution, cmdclass={"build_ext": MypycBuildExt})
