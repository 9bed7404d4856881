"""Issue 15: several server processes on one PostgreSQL, tested against a real server (the throwaway
cluster of tests/pg_cluster.py), and SQLite's single file serialised the same way."""

from __future__ import annotations

import hashlib
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from hordes.web import db
from tests.pg_cluster import Cluster
from tests.web.live_server import server_processes


@pytest.fixture
def pg_url(pg_cluster: Cluster, request: pytest.FixtureRequest) -> Iterator[str]:
    """A fresh empty database on the throwaway cluster, for this test only."""
    name = "t_" + hashlib.sha256(request.node.nodeid.encode()).hexdigest()[:16]
    url = pg_cluster.create_database(name)
    yield url
    pg_cluster.drop_database(name)


def test_issue15_p1_the_cluster_is_a_throwaway_one(pg_cluster: Cluster, pg_url: str) -> None:
    assert pg_cluster.port != 5432 and str(pg_cluster.dir) in str(pg_cluster.data)
    engine = sa.create_engine(pg_url, poolclass=sa.NullPool)
    with engine.connect() as conn:
        assert conn.execute(sa.text("SHOW data_directory")).scalar() == str(pg_cluster.data)
        assert conn.execute(sa.text("SHOW port")).scalar() == str(pg_cluster.port)
    engine.dispose()


def test_issue15_p3_every_migration_runs_on_postgresql(pg_url: str) -> None:
    engine = db.make_engine(pg_url)
    assert db.migrate(engine, target=1) == 1
    assert db.migrate(engine) == db.SCHEMA_VERSION
    assert db.migrate(engine) == db.SCHEMA_VERSION  # nothing left to do
    tables = set(sa.inspect(engine).get_table_names())
    assert {"schema_version", "games", "moves", "evaluations", "users", "seeks"} <= tables
    with engine.connect() as conn:
        assert db.current_version(conn) == db.SCHEMA_VERSION
        assert conn.execute(sa.select(sa.func.count()).select_from(db.schema_version)).scalar() == 1
    engine.dispose()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_issue15_p3_migrations_started_at_once_all_succeed(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Three migrations of one empty database released at the same instant (a barrier): before the
    lock, one failed (PostgreSQL: UniqueViolation on schema_version's type; SQLite: table exists)."""
    url = request.getfixturevalue("pg_url") if backend == "postgresql" else db.database_url(None, tmp_path)
    engines = [db.make_engine(url) for _ in range(3)]
    barrier = threading.Barrier(len(engines))
    outcomes: list[object] = [None] * len(engines)

    def run(i: int) -> None:
        barrier.wait()
        try:
            outcomes[i] = db.migrate(engines[i])
        except Exception as exc:
            outcomes[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(engines))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert outcomes == [db.SCHEMA_VERSION] * len(engines)
    with engines[0].connect() as conn:
        assert conn.execute(sa.select(db.schema_version.c.version)).scalars().all() == [db.SCHEMA_VERSION]
    for engine in engines:
        engine.dispose()


def test_issue15_p3_three_servers_started_together_on_an_empty_database_all_come_up(
    pg_url: str, tmp_path: Path
) -> None:
    with server_processes(3, tmp_path, "--database", pg_url) as started:
        for _proc, base in started:
            assert urllib.request.urlopen(base + "/api/variants", timeout=10).status == 200
