"""The statements that read a game and store one of its moves: the web tier's hottest SQL.

A move is stored by two writes that stand or fall together: the move's row (its ply is part of the
primary key) and the game row's new state, updated only if the game is still at the ply that the move
was validated against. On PostgreSQL both go in one statement, an UPDATE ... RETURNING in a
common table expression feeding the INSERT: the move row is written only when the update matched, and
one statement is one round trip and one execution instead of two. SQLite has no writes inside a
common table expression, so there they are two statements in the caller's transaction.

The statements are built once per set of columns (a clock game sets more of them): building them
for each move (SQLAlchemy's coercion of two dozen values and of the WHERE clause) cost about a sixth
of a move's CPU.

On psycopg, the game's read and a move's store in autocommit are sent through the driver's own
cursor, as SQL compiled once by SQLAlchemy, and the read's values are made into a Row of the same
columns. SQLAlchemy's execution and result set-up around them, and psycopg's description of the 36
columns that SQLAlchemy asks for at each read, cost more CPU than the driver's work itself
(benchmarks/move_store.py). The values are the same: no column of these tables has a result
processor on psycopg (tests/web/test_postgres.py compares the two reads). Errors are SQLAlchemy's,
as `Connection.execute` raises them, and a lost connection is invalidated as it would be there.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine.result import result_tuple

from hordes.web import db

READ_GAME = sa.select(db.games).where(db.games.c.id == sa.bindparam("game_id"))
_GAME_ROW: Callable[[Any], sa.Row[Any]] = result_tuple([c.name for c in db.games.c])

# The columns of a move's row, in the order the one-statement form lists them.
MOVE_FIELDS = ("game_id", "ply", "uci", "san", "fen", "created_at", "clock_ms")

# The game row a move may advance: still at the ply the move was validated against, and playing.
_STILL_AT_PLY = (
    db.games.c.id == sa.bindparam("at_id"),
    db.games.c.ply == sa.bindparam("at_ply"),
    db.games.c.status == "playing",
)

_STORE_MOVE = db.moves.insert()
# Executed with a dictionary whose keys name the columns to set (and the two `at_` keys).
_ADVANCE = db.games.update().where(*_STILL_AT_PLY)


@cache
def _advance_and_store(columns: tuple[str, ...]) -> sa.Insert:
    """INSERT the move's row, selected from the UPDATE of the game row that RETURNs its id: no row,
    no move. Parameters: `at_id`, `at_ply`, `set_<column>` for each column, `move_<field>`."""
    g, m = db.games, db.moves
    advanced = (
        g.update()
        .where(*_STILL_AT_PLY)
        .values({name: sa.bindparam(f"set_{name}", type_=g.c[name].type) for name in columns})
        .returning(g.c.id)
        .cte("advanced")
    )
    row = sa.select(advanced.c.id, *(sa.bindparam(f"move_{f}", type_=m.c[f].type) for f in MOVE_FIELDS[1:]))
    return m.insert().from_select(list(MOVE_FIELDS), row).returning(m.c.ply)


@cache
def _compiled(statement: sa.ClauseElement, dialect: sa.Dialect) -> tuple[str, dict[str, Any]]:
    """The SQL of `statement` for `dialect`, with the values of the parameters it binds itself."""
    compiled = statement.compile(dialect=dialect)
    return str(compiled), dict(compiled.params)


def _driver(conn: sa.Connection) -> Any:
    """The psycopg connection under `conn`, or None on any other driver (SQLite, psycopg2, ...)."""
    if conn.dialect.driver != "psycopg":
        return None
    return conn.connection.dbapi_connection


def _on_driver(conn: sa.Connection, raw: Any, statement: sa.ClauseElement, params: Mapping[str, Any]) -> Any:
    """Execute `statement` on the psycopg connection `raw` under `conn`; its first row (a tuple) or
    None. A driver error is raised as SQLAlchemy's (IntegrityError for a duplicate move row), and a
    lost connection is invalidated, as `conn.execute` would do."""
    sql, bound = _compiled(statement, conn.dialect)
    values = {**bound, **params}
    try:
        with raw.cursor() as cursor:
            cursor.execute(sql, values)
            return cursor.fetchone()
    except conn.dialect.loaded_dbapi.Error as exc:
        lost = conn.dialect.is_disconnect(exc, raw, None)
        if lost:
            conn.invalidate(exc)
        error = conn.dialect.loaded_dbapi.Error
        raise sa.exc.DBAPIError.instance(
            sql,
            values,
            exc,
            error,
            hide_parameters=conn.engine.hide_parameters,  # as the engine would show them, or not
            connection_invalidated=lost,
            dialect=conn.dialect,
        ) from exc


def read_game(conn: sa.Connection, game_id: str) -> sa.Row[Any] | None:
    """The game's row (every column of db.games), or None. On psycopg a read outside autocommit opens
    the driver's transaction: the caller ends it (closing `conn` rolls it back)."""
    raw = _driver(conn)
    if raw is None:
        return conn.execute(READ_GAME, {"game_id": game_id}).first()
    values = _on_driver(conn, raw, READ_GAME, {"game_id": game_id})
    return None if values is None else _GAME_ROW(values)


def one_statement(conn: sa.Connection) -> bool:
    """Whether this connection's database takes the move in one statement."""
    return conn.dialect.name == "postgresql"


def autocommit(conn: sa.Connection) -> None:
    """Where a move is stored in one statement, let each statement of `conn` commit itself: a move is
    then its read and its store, two round trips, without a BEGIN and a COMMIT around them. Nothing is
    lost by it: the store names the ply that the read saw, so the read needs no transaction."""
    if one_statement(conn):
        conn.execution_options(isolation_level="AUTOCOMMIT")


def transaction(conn: sa.Connection) -> None:
    """Make what `conn` executes next one transaction again, until its commit (for a move that ends
    the game: its store, its result and the ratings stand or fall together). Nothing may be
    pending on `conn`: in autocommit, nothing is."""
    if conn.get_execution_options().get("isolation_level") == "AUTOCOMMIT":
        conn.commit()  # ends SQLAlchemy's record of the reads so far; the database has committed them
        conn.execution_options(isolation_level=conn.default_isolation_level)


def store(conn: sa.Connection, move: dict[str, Any], game: dict[str, Any], at_id: str, at_ply: int) -> bool:
    """Store `move` (a row of db.moves) and set `game`'s columns on the game row, if that row is still
    `at_id` at ply `at_ply` and playing. False, with nothing written, if it is not; a move row that
    already exists raises IntegrityError (the caller's transaction is then to be rolled back)."""
    if one_statement(conn):
        columns = tuple(sorted(game))
        params = {f"set_{name}": value for name, value in game.items()}
        params.update({f"move_{f}": move[f] for f in MOVE_FIELDS[1:]})
        params["at_id"], params["at_ply"] = at_id, at_ply
        statement = _advance_and_store(columns)
        raw = _driver(conn)
        # Only in autocommit, where the statement commits itself: in a transaction, SQLAlchemy must
        # know of the write to commit it.
        if raw is not None and raw.autocommit:
            return _on_driver(conn, raw, statement, params) is not None
        # The rows it returns, not its rowcount: SQLAlchemy reports none for a statement with a CTE.
        return conn.execute(statement, params).first() is not None
    conn.execute(_STORE_MOVE, move)
    return conn.execute(_ADVANCE, {**game, "at_id": at_id, "at_ply": at_ply}).rowcount == 1
