"""The database: SQLAlchemy Core tables and versioned migrations.

Why Core and not an ORM: the web app stores two kinds of rows (games and their moves) and reads
them back whole; Core gives parameterised SQL for SQLite and PostgreSQL alike with nothing to learn.

Why hand-written migrations: a `schema_version` table holds one row with the number of the last
migration applied; `migrate()` runs the missing ones in order, each in its own transaction. That is
all this project needs, and a test can run every migration from an empty database.

A game is its start position plus its moves: the board is always rebuilt from `games.start_fen` and
the `moves` rows, so nothing that the rules compute (SAN aside, kept for listing) is trusted from
the database. `games.ply` guards writes: a move is stored only if the game still has the ply count
the server saw (optimistic concurrency), and the (game_id, ply) primary key makes a second writer of
the same ply fail even across server processes.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

# The tables as the code uses them (the schema at SCHEMA_VERSION). Each migration builds its own
# tables in a MetaData of its own, so that changing a table here later never changes what an old
# migration creates. Today's shape of each table is that of the migration that created it.


def _games(md: sa.MetaData) -> sa.Table:
    return sa.Table(
        "games",
        md,
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("variant", sa.String(64), nullable=False),
        sa.Column("start_fen", sa.Text, nullable=False),
        sa.Column("fen", sa.Text, nullable=False),  # the current position, for listings only
        sa.Column("ply", sa.Integer, nullable=False, default=0),
        sa.Column("white", sa.String(16), nullable=False),  # "human" or "engine"
        sa.Column("black", sa.String(16), nullable=False),
        sa.Column("level", sa.Integer, nullable=True),  # engine level 1..8 when a seat is the engine
        sa.Column("white_token", sa.String(64), nullable=True),
        sa.Column("black_token", sa.String(64), nullable=True),
        sa.Column("creator", sa.String(8), nullable=True),  # the seat of whoever created the game
        sa.Column("status", sa.String(16), nullable=False),  # "waiting" (for a friend), "playing", "over"
        sa.Column("result", sa.String(8), nullable=False, default="*"),
        sa.Column("termination", sa.String(64), nullable=True),  # why the game ended
        sa.Column("winner", sa.Integer, nullable=True),  # 0 white, 1 black, NULL draw or unfinished
        sa.Column("draw_offer", sa.Integer, nullable=True),  # the colour that offers a draw
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Index("ix_games_updated_at", "updated_at"),
    )


def _moves(md: sa.MetaData) -> sa.Table:
    return sa.Table(
        "moves",
        md,
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("ply", sa.Integer, primary_key=True),  # 0 for the first move
        sa.Column("uci", sa.String(16), nullable=False),
        sa.Column("san", sa.String(32), nullable=False),
        sa.Column("fen", sa.Text, nullable=False),  # the position after the move, for browsing the game
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def _evaluations(md: sa.MetaData) -> sa.Table:
    """Engine evaluations of a game's positions (for the evaluation graph), computed once and kept."""
    return sa.Table(
        "evaluations",
        md,
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("ply", sa.Integer, primary_key=True),  # position after `ply` moves; 0 = start
        sa.Column("cp", sa.Integer, nullable=True),  # White's point of view
        sa.Column("mate", sa.Integer, nullable=True),  # White's point of view: >0 White mates
        sa.Column("best", sa.String(16), nullable=True),
        sa.Column("depth", sa.Integer, nullable=False),
    )


metadata = sa.MetaData()
schema_version = sa.Table("schema_version", metadata, sa.Column("version", sa.Integer, nullable=False))
games = _games(metadata)
# Migration 3: the friend's invitation, kept after it is claimed (so a later visitor of the link is
# told that the seat is taken). NULL for games without one, and for every game stored before 0.4.
games.append_column(sa.Column("invite_token", sa.String(64), nullable=True))
moves = _moves(metadata)
evaluations = _evaluations(metadata)
# ----- migration _m5_clocks (issue 14, points 4-5; clocks.py): NULL clock columns = untimed ----------
games.append_column(sa.Column("clock_base_ms", sa.Integer, nullable=True))  # base, ms
games.append_column(sa.Column("clock_inc_ms", sa.Integer, nullable=True))  # increment, ms
games.append_column(sa.Column("clock_days", sa.Integer, nullable=True))  # correspondence days per move
games.append_column(sa.Column("white_ms", sa.BigInteger, nullable=True))  # time left when the turn began
games.append_column(sa.Column("black_ms", sa.BigInteger, nullable=True))
games.append_column(sa.Column("turn_started_ms", sa.BigInteger, nullable=True))  # epoch ms; NULL: not started
moves.append_column(sa.Column("clock_ms", sa.BigInteger, nullable=True))  # the mover's time left after it


# ----- accounts and ratings (migration 4, _m4_accounts) -------------------------------------------
def _users(md: sa.MetaData) -> sa.Table:
    return sa.Table(
        "users",
        md,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("username", sa.String(20), nullable=False),  # as its owner spelt it
        sa.Column("username_folded", sa.String(20), nullable=False, unique=True),  # unique ignoring case
        sa.Column("password_hash", sa.Text, nullable=False),  # argon2id, in the PHC string format
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def _sessions(md: sa.MetaData) -> sa.Table:
    """Logged-in browsers. The cookie holds the session id; only its SHA-256 is stored here, so a
    copy of the database opens no session. Deleting a row logs that browser out."""
    return sa.Table(
        "sessions",
        md,
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Index("ix_sessions_user_id", "user_id"),
    )


def _ratings(md: sa.MetaData) -> sa.Table:
    """Each account's Glicko-2 rating per variant (ratings.py), once it has played a rated game."""
    return sa.Table(
        "ratings",
        md,
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("variant", sa.String(64), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("rd", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )


def _rating_history(md: sa.MetaData) -> sa.Table:
    """The rating after each rated game. (game, user) is unique: a game's result counts once."""
    return sa.Table(
        "rating_history",
        md,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("variant", sa.String(64), nullable=False),
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("rd", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "user_id", name="uq_rating_history_game_user"),
        sa.Index("ix_rating_history_user_variant", "user_id", "variant", "id"),
    )


def _site_secrets(md: sa.MetaData) -> sa.Table:
    """Secrets the site makes once and keeps across restarts (the session cookies' signing key)."""
    return sa.Table(
        "site_secrets",
        md,
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
    )


users = _users(metadata)
sessions = _sessions(metadata)
ratings = _ratings(metadata)
rating_history = _rating_history(metadata)
site_secrets = _site_secrets(metadata)
# The seats' accounts (NULL for an anonymous seat or the engine) and whether the game is rated.
games.append_column(sa.Column("white_user", sa.Integer, nullable=True))
games.append_column(sa.Column("black_user", sa.Integer, nullable=True))
games.append_column(sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()))
# ----- migration _m6_offers (issue 14, point 7; offers.py): takeback and rematch offers ----------------
games.append_column(sa.Column("takeback_by", sa.Integer, nullable=True))  # the side asking; NULL: none
games.append_column(sa.Column("takeback_ply", sa.Integer, nullable=True))  # the game's ply when asked
games.append_column(sa.Column("takeback_declined_ply", sa.Integer, nullable=True))  # no new ask at this ply
games.append_column(sa.Column("takebacks", sa.Integer, nullable=False, server_default="0"))  # rewinds so far
games.append_column(sa.Column("rematch_by", sa.Integer, nullable=True))  # the side offering a rematch
games.append_column(sa.Column("rematch_declined", sa.Boolean, nullable=False, server_default=sa.false()))
games.append_column(sa.Column("rematch_id", sa.String(16), nullable=True, unique=True))  # the next game
games.append_column(sa.Column("rematch_of", sa.String(16), nullable=True))  # the game this one replays


# ----- open challenges in the lobby (migration 6, _m6_seeks; seeks.py) -------------------------------
def _seeks(md: sa.MetaData) -> sa.Table:
    """Lobby seeks. `state` moves only by conditional UPDATEs (seeks.TRANSITIONS). A creator is a
    `creator_key`: "user:<id>" for an account, else "anon:" + the SHA-256 of the browser's player
    token (the token itself is never stored). Times are epoch milliseconds of the injected clock."""
    return sa.Table(
        "seeks",
        md,
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("state", sa.String(16), nullable=False),  # open, accepted, cancelled, expired
        sa.Column("variant", sa.String(64), nullable=False),
        sa.Column("clock_base_ms", sa.Integer, nullable=True),  # all three NULL: untimed
        sa.Column("clock_inc_ms", sa.Integer, nullable=True),
        sa.Column("clock_days", sa.Integer, nullable=True),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("color", sa.String(8), nullable=False),  # the creator's choice: white, black, random
        sa.Column("creator_key", sa.String(80), nullable=False),
        sa.Column("creator_user", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=True),
        sa.Column("accepter_key", sa.String(80), nullable=True),
        sa.Column("game_id", sa.String(16), nullable=True),  # the game an acceptance made
        sa.Column("creator_seat", sa.String(8), nullable=True),  # the creator's colour in that game
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.Column("expires_ms", sa.BigInteger, nullable=False),
        sa.Column("ended_ms", sa.BigInteger, nullable=True),
        sa.Index("ix_seeks_state", "state", "expires_ms"),
        sa.Index("ix_seeks_creator", "creator_key", "state"),
    )


seeks = _seeks(metadata)


# ----- the event bus's large events (migration 8, _m8_bus_events; bus.py) ----------------------------
def _bus_events(md: sa.MetaData) -> sa.Table:
    """Events too large for a PostgreSQL notification, read back by the other server processes and
    deleted after a minute. Unused on SQLite (one process), created there too: one schema for both."""
    return sa.Table(
        "bus_events",
        md,
        # BIGSERIAL on PostgreSQL; SQLite counts up only an INTEGER primary key
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer, "sqlite"), primary_key=True),
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
    )


bus_events = _bus_events(metadata)


# ----- who searches each engine turn (migration 9, _m9_engine_claims; engine_claims.py) ---------------
def _engine_claims(md: sa.MetaData) -> sa.Table:
    return sa.Table(
        "engine_claims",
        md,
        sa.Column("game_id", sa.String(16), primary_key=True),
        sa.Column("ply", sa.Integer, nullable=False),  # the engine's turn being searched
        sa.Column("owner", sa.String(32), nullable=False),  # the claiming server process
        sa.Column("lease_until_ms", sa.BigInteger, nullable=False),  # epoch ms; then anyone may claim
    )


engine_claims = _engine_claims(metadata)


# ----- variant documents stored through the web app (migration 10; variant_store.py) ----------------
def _variant_documents(md: sa.MetaData) -> sa.Table:
    """One row per version of a stored document, never changed once written. Its play name is
    `series@version`; the unique constraints make two saves racing for one version fail cleanly
    (the loser retries with the next), and give an author one series per slug."""
    return sa.Table(
        "variant_documents",
        md,
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("series", sa.String(64), nullable=False),  # SLUG~RANDOM
        sa.Column("version", sa.Integer, nullable=False),  # 1, 2, ... within the series
        sa.Column("slug", sa.String(64), nullable=False),
        sa.Column("title", sa.String(200), nullable=False),
        sa.Column("author_id", sa.Integer, sa.ForeignKey("users.id", ondelete="SET NULL"), nullable=True),
        sa.Column("visibility", sa.String(8), nullable=False),  # public or unlisted
        sa.Column("document", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("series", "version", name="uq_variant_documents_version"),
        sa.UniqueConstraint("author_id", "slug", "version", name="uq_variant_documents_author_slug"),
        sa.Index("ix_variant_documents_listing", "visibility", "series", "version"),
    )


variant_documents = _variant_documents(metadata)


# ----- who is connected, on every process (migration 11, _m11_presence; presence.py) ------------------
def _presence(md: sa.MetaData) -> sa.Table:
    """Each server process's count of open sockets per subject (a game's seat, a lobby client), and
    when it last said so. Only the owner changes its rows, except to clear those of a process that
    stopped renewing them (presence.py)."""
    return sa.Table(
        "presence",
        md,
        sa.Column("subject", sa.String(120), primary_key=True),  # "g:<game>:<seat>" or "l:<lobby key>"
        sa.Column("owner", sa.String(32), primary_key=True),  # the server process
        sa.Column("sockets", sa.Integer, nullable=False),
        sa.Column("seen_ms", sa.BigInteger, nullable=False),  # epoch ms of the owner's last word
        sa.Index("ix_presence_owner", "owner", "seen_ms"),
    )


presence = _presence(metadata)


def now() -> datetime:
    return datetime.now(UTC)


# ----- migrations ----------------------------------------------------------------------------------
def _m1_games_and_moves(conn: Connection) -> None:
    md = sa.MetaData()
    _games(md)
    _moves(md)
    md.create_all(conn)


def _m2_evaluations(conn: Connection) -> None:
    md = sa.MetaData()
    sa.Table("games", md, sa.Column("id", sa.String(16), primary_key=True))  # for the foreign key only
    _evaluations(md).create(conn)


def _m3_invitations(conn: Connection) -> None:
    conn.execute(sa.text("ALTER TABLE games ADD COLUMN invite_token VARCHAR(64)"))


def _m4_accounts(conn: Connection) -> None:
    md = sa.MetaData()
    sa.Table("games", md, sa.Column("id", sa.String(16), primary_key=True))  # for the foreign key only
    for table in (_users(md), _sessions(md), _ratings(md), _rating_history(md), _site_secrets(md)):
        table.create(conn)
    conn.execute(sa.text("ALTER TABLE games ADD COLUMN white_user INTEGER"))
    conn.execute(sa.text("ALTER TABLE games ADD COLUMN black_user INTEGER"))
    conn.execute(sa.text("ALTER TABLE games ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE"))
    conn.execute(sa.text("CREATE INDEX ix_games_white_user ON games (white_user)"))
    conn.execute(sa.text("CREATE INDEX ix_games_black_user ON games (black_user)"))


def _m5_clocks(conn: Connection) -> None:
    for column, kind in (
        ("clock_base_ms", "INTEGER"), ("clock_inc_ms", "INTEGER"), ("clock_days", "INTEGER"),
        ("white_ms", "BIGINT"), ("black_ms", "BIGINT"), ("turn_started_ms", "BIGINT"),
    ):  # fmt: skip
        conn.execute(sa.text(f"ALTER TABLE games ADD COLUMN {column} {kind}"))
    conn.execute(sa.text("ALTER TABLE moves ADD COLUMN clock_ms BIGINT"))


def _m6_seeks(conn: Connection) -> None:
    md = sa.MetaData()
    sa.Table("users", md, sa.Column("id", sa.Integer, primary_key=True))  # for the foreign key only
    _seeks(md).create(conn)


def _m7_offers(conn: Connection) -> None:
    for column, kind in (
        ("takeback_by", "INTEGER"), ("takeback_ply", "INTEGER"), ("takeback_declined_ply", "INTEGER"),
        ("takebacks", "INTEGER NOT NULL DEFAULT 0"), ("rematch_by", "INTEGER"),
        ("rematch_declined", "BOOLEAN NOT NULL DEFAULT FALSE"), ("rematch_id", "VARCHAR(16)"),
        ("rematch_of", "VARCHAR(16)"),
    ):  # fmt: skip
        conn.execute(sa.text(f"ALTER TABLE games ADD COLUMN {column} {kind}"))
    # One rematch per game, even when two processes accept at once (NULLs do not collide).
    conn.execute(sa.text("CREATE UNIQUE INDEX ix_games_rematch_id ON games (rematch_id)"))


def _m8_bus_events(conn: Connection) -> None:
    _bus_events(sa.MetaData()).create(conn)


def _m9_engine_claims(conn: Connection) -> None:
    _engine_claims(sa.MetaData()).create(conn)


def _m10_variant_documents(conn: Connection) -> None:
    md = sa.MetaData()
    sa.Table("users", md, sa.Column("id", sa.Integer, primary_key=True))  # for the foreign key only
    _variant_documents(md).create(conn)


def _m11_presence(conn: Connection) -> None:
    _presence(sa.MetaData()).create(conn)


# Ordered: migration n (1-based) brings the schema from version n-1 to n. Never edit a released one;
# add a new function at the end.
MIGRATIONS: tuple[Callable[[Connection], None], ...] = (
    _m1_games_and_moves,
    _m2_evaluations,
    _m3_invitations,
    _m4_accounts,
    _m5_clocks,
    _m6_seeks,
    _m7_offers,
    _m8_bus_events,
    _m9_engine_claims,
    _m10_variant_documents,
    _m11_presence,
)
SCHEMA_VERSION = len(MIGRATIONS)


class SchemaTooNewError(RuntimeError):
    """The database was written by a newer version of the program: refuse rather than damage it."""


def current_version(conn: Connection) -> int:
    if not sa.inspect(conn).has_table("schema_version"):
        return 0
    row = conn.execute(sa.select(schema_version.c.version)).first()
    return int(row[0]) if row else 0


# The key of the advisory lock that serialises migrations on PostgreSQL (any fixed 64-bit number;
# "hordes" in ASCII, so that other applications sharing the server are unlikely to pick it).
MIGRATION_LOCK = 0x686F72646573


@contextmanager
def _serialised(conn: Connection) -> Iterator[None]:
    """One transaction that no other process's migration transaction runs alongside.

    PostgreSQL: a transaction-scoped advisory lock, taken first, released by the commit. SQLite:
    `BEGIN IMMEDIATE` takes the database's write lock at once (a plain BEGIN would take it only at the
    first write, after both processes had read the old version); the driver's own transaction
    handling is off on this connection (AUTOCOMMIT), so the statements are ours."""
    if conn.dialect.name == "postgresql":
        with conn.begin():
            conn.execute(sa.select(sa.func.pg_advisory_xact_lock(MIGRATION_LOCK)))
            yield
        return
    if conn.dialect.name != "sqlite":
        with conn.begin():  # other databases: their own isolation, not serialised
            yield
        return
    conn.exec_driver_sql("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        conn.exec_driver_sql("ROLLBACK")
        raise
    conn.exec_driver_sql("COMMIT")


def migrate(engine: Engine, target: int = SCHEMA_VERSION) -> int:
    """Apply the missing migrations up to `target`; return the version the database is now at.

    Any number of processes may call it at once on one database: each migration runs in its own
    transaction, serialised across processes (`_serialised`), which reads the version again first,
    so a migration that another process has just applied is not applied twice."""
    options = {"isolation_level": "AUTOCOMMIT"} if engine.dialect.name == "sqlite" else {}
    with engine.connect().execution_options(**options) as conn:
        while True:
            with _serialised(conn):
                if not sa.inspect(conn).has_table("schema_version"):
                    schema_version.create(conn)
                    conn.execute(schema_version.insert().values(version=0))
                version = current_version(conn)
                if version > SCHEMA_VERSION:
                    raise SchemaTooNewError(
                        f"the database schema is version {version}, this program knows up to {SCHEMA_VERSION}"
                    )
                if version >= target:
                    return version
                MIGRATIONS[version](conn)
                conn.execute(schema_version.update().values(version=version + 1))


# ----- engines ----------------------------------------------------------------------------------------
DEFAULT_FILE = "hordes.sqlite3"


def database_url(database_url: str | None, data_dir: str | os.PathLike[str] | None) -> str:
    """The URL to use: an explicit one, else $DATABASE_URL, else a SQLite file in the data directory."""
    url = database_url or os.environ.get("DATABASE_URL")
    if url:
        # Heroku-style URLs name the driver "postgres"; SQLAlchemy wants psycopg 3 named explicitly.
        if url.startswith("postgres://"):
            url = "postgresql+psycopg://" + url[len("postgres://") :]
        elif url.startswith("postgresql://"):
            url = "postgresql+psycopg://" + url[len("postgresql://") :]
        return url
    directory = Path(data_dir if data_dir is not None else "data")
    directory.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{(directory / DEFAULT_FILE).resolve()}"


# How long a new SQLite connection keeps trying to switch a fresh file to WAL mode (as long as the
# driver's own busy timeout, which that switch does not honour).
_WAL_SWITCH_SECONDS = 30.0


def _enter_wal(cursor: sqlite3.Cursor) -> None:
    """Put the database file in WAL mode, retrying while another connection holds it.

    The switch needs the file to itself, and SQLite answers "database is locked" at once instead of
    calling its busy handler: several processes opening a fresh file together (or the migrations
    test's three engines) would otherwise fail one of them. On a file already in WAL mode the pragma
    is a no-op that never waits."""
    deadline = time.monotonic() + _WAL_SWITCH_SECONDS
    delay = 0.001
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
        time.sleep(delay)  # back off: the holder is another connection's own switch or first write
        delay = min(delay * 2, 0.05)


def make_engine(url: str) -> Engine:
    """An Engine for the URL. SQLite gets WAL mode (readers never wait for the writer) and foreign keys."""
    if url.startswith("sqlite"):
        engine = sa.create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @sa.event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: object, _record: object) -> None:
            cur = dbapi_conn.cursor()  # type: ignore[attr-defined]
            cur.execute("PRAGMA foreign_keys=ON")
            if ":memory:" not in url:
                _enter_wal(cur)
                cur.execute("PRAGMA synchronous=NORMAL")
            cur.close()

        return engine
    # A fixed pool as large as the most the web tier opens (the worker threads that talk to the
    # database at once, up to 15): a pool that grows past its size for a burst and shrinks back
    # opens and closes a PostgreSQL connection (a server process) each time, which under load costs
    # more than the queries. No pre-ping: it is one more round trip on every checkout. A connection
    # that died meanwhile fails its first statement instead; SQLAlchemy then drops it and every
    # older one from the pool, and the readers retry that first statement once (games.py,
    # GameService._connect_and_read).
    return sa.create_engine(url, pool_size=15, max_overflow=0)
