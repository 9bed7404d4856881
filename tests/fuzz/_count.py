"""How many inputs the web fuzz tests tried, per surface, printed at the end of the test run.

Kept apart from tests/fuzz/conftest.py (the parsers' counter) so the two can be merged later: the
HTTP and websocket fuzz modules call `tried` and `failed`, and their module fixture `count_inputs`
registers `Summary`, a pytest plugin whose terminal-summary hook prints the table.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

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
