"""Schema migrations and database URLs."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa

from hordes.web import db
from hordes.web.app import create_app
from hordes.web.games import GameService


def test_migrations_from_empty_and_again(tmp_path: Path) -> None:
    engine = db.make_engine(db.database_url(None, tmp_path))
    assert db.migrate(engine) == db.SCHEMA_VERSION == len(db.MIGRATIONS)
    assert db.migrate(engine) == db.SCHEMA_VERSION  # nothing left to do
    tables = set(sa.inspect(engine).get_table_names())
    assert {"schema_version", "games", "moves", "evaluations"} <= tables
    with engine.connect() as conn:
        assert db.current_version(conn) == db.SCHEMA_VERSION


def test_upgrade_keeps_data(tmp_path: Path) -> None:
    engine = db.make_engine(db.database_url(None, tmp_path))
    assert db.migrate(engine, target=1) == 1
    assert "evaluations" not in sa.inspect(engine).get_table_names()
    service = GameService(engine)
    game = service.create("orda", white="human", black="human")
    service.move(game.id, game.tokens["white"], "e2e4")
    assert db.migrate(engine) == db.SCHEMA_VERSION
    assert service.state(game.id)["moves"][0]["san"] == "e4"
    assert "evaluations" in sa.inspect(engine).get_table_names()


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    engine = db.make_engine(db.database_url(None, tmp_path))
    db.migrate(engine)
    with engine.begin() as conn:
        conn.execute(db.schema_version.update().values(version=db.SCHEMA_VERSION + 1))
    with pytest.raises(db.SchemaTooNewError):
        db.migrate(engine)


def test_database_urls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    url = db.database_url(None, tmp_path / "new")
    assert url.startswith("sqlite:///") and url.endswith("new/hordes.sqlite3") and (tmp_path / "new").is_dir()
    monkeypatch.setenv("DATABASE_URL", "postgres://u:p@localhost/hordes")
    assert db.database_url(None, tmp_path) == "postgresql+psycopg://u:p@localhost/hordes"
    assert db.database_url("sqlite:///x.db", tmp_path) == "sqlite:///x.db"


def test_app_uses_database_url_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "elsewhere.sqlite3"
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{target}")
    app = create_app(data_dir=tmp_path / "unused")
    assert app.state.database_url == f"sqlite:///{target}" and target.exists()
    assert not (tmp_path / "unused" / "hordes.sqlite3").exists()
