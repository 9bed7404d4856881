"""How many inputs each fuzzed surface tried, printed at the end of the run (with or without xdist).

A fuzz test calls `tried(surface)` once per input (or `tried(surface, n)`), or wraps the input in
`with COUNTER.case(surface):`, which also counts a failure when anything but a hypothesis control
exception escapes. At the end of the run the terminal summary prints, per surface,
`fuzz: <surface>: N inputs tried, M failures`. Under pytest-xdist each worker sends its counts to
the controller, which prints the totals. This module is a pytest plugin: tests/conftest.py names it
in `pytest_plugins`, so its hooks run in the controller too (which never collects tests/fuzz).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis.errors import UnsatisfiedAssumption

_KEY = "fuzz_counts"


class FuzzCounter:
    """Inputs tried and inputs that failed, per surface (e.g. "pgn", "http", "websocket")."""

    def __init__(self) -> None:
        self.tried: Counter[str] = Counter()
        self.failures: Counter[str] = Counter()

    def __call__(self, surface: str, n: int = 1) -> None:
        self.tried[surface] += n

    def failed(self, surface: str, n: int = 1) -> None:
        self.failures[surface] += n

    @contextmanager
    def case(self, surface: str) -> Iterator[None]:
        """Count one input; count a failure too if the block raises (hypothesis then shrinks it)."""
        self(surface)
        try:
            yield
        except UnsatisfiedAssumption:
            raise
        except BaseException:
            self.failed(surface)
            raise

    def snapshot(self) -> dict[str, list[int]]:
        return {s: [self.tried[s], self.failures[s]] for s in self.tried | self.failures}

    def merge(self, data: dict[str, list[int]]) -> None:
        for surface, (n, m) in data.items():
            self.tried[surface] += n
            self.failures[surface] += m

    def lines(self) -> list[str]:
        return [
            f"fuzz: {s}: {self.tried[s]} inputs tried, {self.failures[s]} failures"
            for s in sorted(self.tried | self.failures)
        ]


COUNTER = FuzzCounter()


def tried(surface: str, n: int = 1) -> None:
    """Count `n` inputs tried on a surface."""
    COUNTER(surface, n)


def pytest_sessionfinish(session: pytest.Session) -> None:
    output: dict[str, Any] | None = getattr(session.config, "workeroutput", None)
    if output is not None:  # an xdist worker: hand the counts to the controller
        output[_KEY] = COUNTER.snapshot()


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    """xdist controller: add a finished worker's counts."""
    COUNTER.merge(getattr(node, "workeroutput", {}).get(_KEY, {}))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    lines = COUNTER.lines()
    if not lines:
        return
    terminalreporter.write_sep("-", "fuzz inputs")
    for line in lines:
        terminalreporter.write_line(line)
