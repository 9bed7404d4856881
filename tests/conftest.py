"""Shared test options: `--games N` runs more random games in the differential suites; and the
guard that fails a run leaving processes behind (tests/process_guard.py, `--process-grace`)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests import process_guard
from tests.pg_cluster import Cluster, bin_dir
from tests.process_guard import pytest_sessionfinish, pytest_testnodedown

__all__ = ["pytest_sessionfinish", "pytest_testnodedown"]  # hooks of the process guard

# Counts of fuzzed inputs, printed in the terminal summary (a plugin so that the xdist controller,
# which collects nothing, prints the workers' totals).
pytest_plugins = ["tests.fuzz.counting"]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--games",
        type=int,
        default=0,
        help="random games per variant in differential tests (default: each suite's CI amount)",
    )
    process_guard.pytest_addoption(parser)


@pytest.fixture
def games(request: pytest.FixtureRequest) -> int:
    return int(request.config.getoption("--games"))


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """A throwaway PostgreSQL server for this pytest process (each xdist worker gets its own: it
    starts in about 2 s), stopped at the end of the session. Skips when PostgreSQL is not installed
    (`make test` installs Debian's `postgresql` when it can)."""
    programs = bin_dir()
    if programs is None:
        why = "PostgreSQL is not installed (no /usr/lib/postgresql/NN/bin/initdb)"
        if os.environ.get("CI"):  # `make test` installs it, so in CI its absence is a failure
            pytest.fail(why)
        pytest.skip(why)
    cluster = Cluster(programs)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()
