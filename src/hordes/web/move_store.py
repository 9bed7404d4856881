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
"""

from __future__ import annotations

from functools import cache
from typing import Any

import sqlalchemy as sa

from hordes.web import db

READ_GAME = sa.select(db.games).where(db.games.c.id == sa.bindparam("game_id"))

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
        # The rows it returns, not its rowcount: SQLAlchemy reports none for a statement with a CTE.
        return conn.execute(_advance_and_store(columns), params).first() is not None
    conn.execute(_STORE_MOVE, move)
    return conn.execute(_ADVANCE, {**game, "at_id": at_id, "at_ply": at_ply}).rowcount == 1
