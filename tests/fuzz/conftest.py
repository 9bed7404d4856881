"""Fuzz tests: the `tried` fixture counts inputs per surface (see tests/fuzz/counting.py, the plugin that
prints `fuzz: <surface>: N inputs tried, M failures` at the end of the run).

Use it as `tried("http")` for one input, `tried("http", 5)`, or `with tried.case("http"): ...` to count
a failure as well. It is session-scoped, so hypothesis tests may take it.
"""

from __future__ import annotations

import pytest

from tests.fuzz.counting import COUNTER, FuzzCounter


@pytest.fixture(scope="session")
def tried() -> FuzzCounter:
    return COUNTER
