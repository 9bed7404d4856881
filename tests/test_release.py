"""Issue 16 points 3 and 4: one version everywhere (the CLI, the package, its metadata, the changelog)
and an API reference that pdoc builds from the docstrings without a warning."""

from __future__ import annotations

import doctest
import importlib
import importlib.metadata
import importlib.util
import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from types import ModuleType
from urllib.parse import unquote, urlparse

import pytest

import hordes
from hordes.cli import main

ROOT = Path(__file__).resolve().parent.parent
RELEASE = re.compile(r"^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$", re.MULTILINE)


def _changelog_releases() -> list[tuple[str, str]]:
    return RELEASE.findall((ROOT / "CHANGELOG.md").read_text(encoding="utf-8"))


def test_p3_cli_package_and_changelog_agree_on_the_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out == f"hordes {hordes.__version__}\n"
    releases = _changelog_releases()
    assert releases, "CHANGELOG.md has no '## [X.Y.Z] - YYYY-MM-DD' release heading"
    assert releases[0][0] == hordes.__version__
    # Newest first, every version once.
    keys = [tuple(int(n) for n in v.split(".")) for v, _ in releases]
    assert keys == sorted(set(keys), reverse=True)


def test_p3_pyproject_reads_the_version_from_the_package_without_importing_it() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"], "the version must live in one place only"
    assert project["project"]["dynamic"] == ["version"]
    attr = project["tool"]["setuptools"]["dynamic"]["version"]["attr"]
    # What setuptools does at build time, in a Python where hordes' dependencies cannot be imported
    # (as in pip's isolated build environment): the file is read, not imported.
    script = (
        "import sys\n"
        "for name in ('yaml', 'markdown', 'starlette', 'numpy', 'hordes'):\n"
        "    sys.modules[name] = None  # importing any of them now fails\n"
        "from setuptools.config.expand import read_attr\n"
        f"print(read_attr({attr!r}, {{'': 'src'}}, {str(ROOT)!r}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == hordes.__version__


def _not_here(why: str) -> None:
    """A checkout that is not the installed one skips the metadata check; CI (`make test` installs
    this tree) fails instead, so the check is never skipped where it must run."""
    if os.environ.get("CI"):
        pytest.fail(why)
    pytest.skip(why)


def test_p3_installed_metadata_agrees_when_installed_from_this_tree() -> None:
    try:
        dist = importlib.metadata.distribution("hordes")
    except importlib.metadata.PackageNotFoundError:
        _not_here("hordes is not installed (run from the source tree)")
        return
    url = json.loads(dist.read_text("direct_url.json") or "{}").get("url", "")
    if Path(unquote(urlparse(url).path)).resolve() != ROOT:
        _not_here(f"the installed hordes comes from {url or 'an index'}, not from this tree")
        return
    assert dist.version == hordes.__version__, "stale install: run `make` or pip install -e ."


def test_p3_changelog_names_the_colour_change_and_how_to_migrate() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    newest = RELEASE.search(text)  # the newest release's section (an [Unreleased] one may come first)
    assert newest is not None
    top = text[newest.start() :].split("\n## [", 1)[0]
    for needle in ("`WHITE is True`", "`board.turn` is a bool", "`piece_at`", "`Outcome.winner`"):
        assert needle in top, needle
    assert "turn == WHITE" in top and "not color" in top and "piece.symbol()" in top


# ----- point 4: the API reference --------------------------------------------------------------
def _api_docs() -> ModuleType:
    spec = importlib.util.spec_from_file_location("api_docs", ROOT / "tools" / "api_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_p4_api_reference_of_the_board_and_pgn_builds_without_warnings(tmp_path: Path) -> None:
    pytest.importorskip("pdoc")
    api_docs = _api_docs()
    problems = api_docs.build(tmp_path, ("hordes", "hordes.core.position", "hordes.notation.pgn"))
    assert problems == []
    board = (tmp_path / "hordes" / "core" / "position.html").read_text(encoding="utf-8")
    pgn = (tmp_path / "hordes" / "notation" / "pgn.html").read_text(encoding="utf-8")
    index = (tmp_path / "hordes.html").read_text(encoding="utf-8")
    assert 'id="Board.push_uci"' in board and "rank by rank from a1" in board
    assert 'id="read_game"' in pgn and 'id="GameNode.mainline_moves"' in pgn
    # The overview links to the modules it names.
    assert 'href="hordes/core/position.html"' in index and 'href="hordes/notation/pgn.html"' in index


def test_p4_every_example_in_the_reference_runs() -> None:
    failed: list[str] = []
    attempted = 0
    for name in _api_docs().MODULES:
        result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
        attempted += result.attempted
        if result.failed:
            failed.append(name)
    assert not failed, failed
    assert attempted >= 20
