"""How many inputs the web fuzz tests tried, per surface, printed at the end of the test run.

Kept apart from tests/fuzz/conftest.py (the parsers' counter) so the two can be merged later: the
HTTP and websocket fuzz modules call `tried` and `failed`, and their module fixture `web` registers
`Summary`, a pytest plugin whose terminal-summary hook prints the table. Under pytest-xdist the
workers count and the controller prints: that needs `Summary` registered in the controller too
(from a conftest's pytest_configure, `register(config)`); the workers send their counts along
with their results (`workeroutput`).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

TRIED: Counter[str] = Counter()
FAILED: Counter[str] = Counter()


def tried(surface: str, n: int = 1) -> None:
    """`n` more inputs went to `surface` (e.g. "POST /api/games", "ws")."""
    TRIED[surface] += n


def failed(surface: str) -> None:
    """An input to `surface` broke a property (a 5xx, a changed game, a bad close)."""
    FAILED[surface] += 1


class Summary:
    """A pytest plugin: `pytest_terminal_summary` prints what was tried (registered once)."""

    name = "hordes-web-fuzz-count"

    def pytest_sessionfinish(self, session: Any) -> None:
        output = getattr(session.config, "workeroutput", None)  # an xdist worker
        if output is not None:
            output["hordes_web_fuzz"] = {"tried": dict(TRIED), "failed": dict(FAILED)}

    @pytest.hookimpl(optionalhook=True)  # an xdist hook: unknown without it
    def pytest_testnodedown(self, node: Any, error: Any) -> None:  # the xdist controller
        counts = getattr(node, "workeroutput", {}).get("hordes_web_fuzz")
        if counts:
            TRIED.update(counts["tried"])
            FAILED.update(counts["failed"])

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if not TRIED:
            return
        terminalreporter.section("web fuzz: inputs tried")
        for surface in sorted(TRIED):
            bad = f"  ({FAILED[surface]} failed)" if FAILED[surface] else ""
            terminalreporter.write_line(f"{TRIED[surface]:7d}  {surface}{bad}")
        terminalreporter.write_line(f"{sum(TRIED.values()):7d}  in all")


def register(config: Any) -> None:
    if not config.pluginmanager.has_plugin(Summary.name):
        config.pluginmanager.register(Summary(), Summary.name)
