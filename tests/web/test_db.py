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
    """A friend game stored at schema 1 (as 0.3.0 wrote it: both seat tokens, no invitation) plays
    on after the migrations, and its old friend's link still carries the seat."""
    engine = db.make_engine(db.database_url(None, tmp_path))
    assert db.migrate(engine, target=1) == 1
    assert "evaluations" not in sa.inspect(engine).get_table_names()
    v1 = db._games(sa.MetaData())
    stamp = db.now()
    fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    with engine.begin() as conn:
        conn.execute(
            v1.insert().values(
                id="old030", variant="chess", start_fen=fen, fen=fen, ply=0, white="human", black="human",
                level=None, white_token="w-token", black_token="b-token", creator="white", status="playing",
                result="*", termination=None, winner=None, draw_offer=None, created_at=stamp, updated_at=stamp,
            )
        )  # fmt: skip
    assert db.migrate(engine) == db.SCHEMA_VERSION
    assert "evaluations" in sa.inspect(engine).get_table_names()
    service = GameService(engine)
    assert service.state("old030", "b-token")["seat"] == "black"
    service.move("old030", "w-token", "e2e4")
    service.move("old030", "b-token", "e7e5")
    assert [m["san"] for m in service.state("old030")["moves"]] == ["e4", "e5"]


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
