"""Players: the accounts in games, their ratings, and what a player page shows.

`apply_result(conn, game_id)` is the one place a rated game's result changes ratings. The game
service calls it in the transaction that ends a game (a mate or other end on the board, a
resignation, a draw agreement, and any later way a game ends), so the ratings change if and only if
the game is stored as over. It is idempotent: the rating history has one row per (game, player),
and a game that already has its rows is left alone, so calling it again (a replay, a retry) changes
nothing.

Only games between two different accounts are rated, and only when they end with a result
(1-0, 0-1, 1/2-1/2): an aborted game changes no rating.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from hordes.web import db
from hordes.web.positions import describe_end
from hordes.web.ratings import Rating, after_game, display, is_provisional

COLORS = ("white", "black")
SCORES = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}  # White's score
GAMES_PER_PAGE = 20
RESULT_FILTERS = ("win", "draw", "loss")


@dataclass(frozen=True, slots=True)
class Seated:
    """An account in a seat, with its rating in the game's variant: the current one (None before
    its first rated game), or for a rated game already counted, the rating this game gave it and
    the change (`diff`), as lichess shows them."""

    user_id: int
    name: str
    rating: float | None = None
    rd: float | None = None
    diff: int | None = None

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "user": True, "name": self.name, "rating": None, "provisional": True, "rating_text": None,
        }  # fmt: skip
        if self.rating is not None and self.rd is not None:
            out.update(
                rating=round(self.rating),
                rd=round(self.rd),
                provisional=is_provisional(self.rd),
                rating_text=display(self.rating, self.rd),
            )
        if self.diff is not None:
            out["rating_diff"] = self.diff
            out["diff_text"] = f"{self.diff:+d}" if self.diff else "±0"
        return out


# ----- ratings ---------------------------------------------------------------------------------------
def rating_of(conn: Connection, user_id: int, variant: str, *, lock: bool = False) -> Rating | None:
    r = db.ratings
    q = sa.select(r.c.rating, r.c.rd, r.c.volatility).where(r.c.user_id == user_id, r.c.variant == variant)
    row = conn.execute(q.with_for_update() if lock else q).first()  # FOR UPDATE: PostgreSQL only
    return Rating(row.rating, row.rd, row.volatility) if row else None


def apply_result(conn: Connection, game_id: str) -> bool:
    """Update both players' ratings for a finished rated game, once. True if this call did it."""
    g, h = db.games, db.rating_history
    row = conn.execute(
        sa.select(
            g.c.id, g.c.variant, g.c.rated, g.c.status, g.c.result, g.c.white_user, g.c.black_user
        ).where(g.c.id == game_id)
    ).first()
    if row is None or not row.rated or row.status != "over" or row.result not in SCORES:
        return False
    if row.white_user is None or row.black_user is None or row.white_user == row.black_user:
        return False
    if conn.execute(sa.select(h.c.id).where(h.c.game_id == game_id).limit(1)).first() is not None:
        return False  # already applied
    white = rating_of(conn, row.white_user, row.variant, lock=True)
    black = rating_of(conn, row.black_user, row.variant, lock=True)
    new_white, new_black = after_game(white or Rating(), black or Rating(), SCORES[row.result])
    stamp = db.now()
    for user_id, old, new in ((row.white_user, white, new_white), (row.black_user, black, new_black)):
        values = {"rating": new.rating, "rd": new.rd, "volatility": new.volatility, "updated_at": stamp}
        r = db.ratings
        if old is None:
            conn.execute(r.insert().values(user_id=user_id, variant=row.variant, games=1, **values))
        else:
            conn.execute(
                r.update()
                .where(r.c.user_id == user_id, r.c.variant == row.variant)
                .values(games=r.c.games + 1, **values)
            )
        conn.execute(
            h.insert().values(
                user_id=user_id,
                variant=row.variant,
                game_id=game_id,
                rating=new.rating,
                rd=new.rd,
                volatility=new.volatility,
                created_at=stamp,
            )
        )
    return True


# ----- accounts in games --------------------------------------------------------------------------
def seated(conn: Connection, rows: list[Any]) -> dict[tuple[str, str], Seated]:
    """(game id, colour) -> the account in that seat with its rating in the game's variant, for
    games rows that have `id`, `variant`, `white_user` and `black_user`."""
    wanted = {(getattr(r, f"{c}_user"), r.variant) for r in rows for c in COLORS if getattr(r, f"{c}_user")}
    if not wanted:
        return {}
    u, rt = db.users, db.ratings
    ids = {uid for uid, _ in wanted}
    names = {
        row.id: row.username for row in conn.execute(sa.select(u.c.id, u.c.username).where(u.c.id.in_(ids)))
    }
    found = {
        (row.user_id, row.variant): (row.rating, row.rd)
        for row in conn.execute(
            sa.select(rt.c.user_id, rt.c.variant, rt.c.rating, rt.c.rd).where(rt.c.user_id.in_(ids))
        )
    }
    # Rated games already counted: the rating after each, and the one before (the previous row).
    h = db.rating_history
    before = sa.func.lag(h.c.rating).over(partition_by=(h.c.user_id, h.c.variant), order_by=h.c.id)
    inner = (
        sa.select(h.c.game_id, h.c.user_id, h.c.rating, h.c.rd, before.label("before"))
        .where(h.c.user_id.in_(ids))
        .subquery()
    )
    rated_ids = [r.id for r in rows if getattr(r, "rated", False)]
    counted = {}
    if rated_ids:
        for row in conn.execute(sa.select(inner).where(inner.c.game_id.in_(rated_ids))):
            start = row.before if row.before is not None else Rating().rating
            counted[(row.game_id, row.user_id)] = (row.rating, row.rd, round(row.rating) - round(start))
    out = {}
    for r in rows:
        for c in COLORS:
            uid = getattr(r, f"{c}_user")
            if uid and uid in names:
                if (r.id, uid) in counted:
                    out[(r.id, c)] = Seated(uid, names[uid], *counted[(r.id, uid)])
                else:
                    rating, rd = found.get((uid, r.variant), (None, None))
                    out[(r.id, c)] = Seated(uid, names[uid], rating, rd)
    return out


def players_of(engine: Engine, row: Any) -> dict[str, dict[str, Any] | None]:
    """colour -> the account in that seat (name, rating, provisional), or None, for one game row."""
    with engine.connect() as conn:
        found = seated(conn, [row])
    return {c: (found[(row.id, c)].as_dict() if (row.id, c) in found else None) for c in COLORS}


# ----- the player page ------------------------------------------------------------------------------
def _mine(user_id: int) -> Any:
    g = db.games
    return sa.or_(g.c.white_user == user_id, g.c.black_user == user_id)


def _result_clause(user_id: int, result: str) -> Any:
    g = db.games
    white, black = g.c.white_user == user_id, g.c.black_user == user_id
    if result == "win":
        return sa.or_(sa.and_(white, g.c.winner == 0), sa.and_(black, g.c.winner == 1))
    if result == "loss":
        return sa.or_(sa.and_(white, g.c.winner == 1), sa.and_(black, g.c.winner == 0))
    return sa.and_(g.c.winner.is_(None), g.c.result == "1/2-1/2")


def results(engine: Engine, user_id: int) -> dict[str, int]:
    """Wins, draws and losses over the player's finished games (all variants)."""
    g = db.games
    out = {}
    with engine.connect() as conn:
        for name in RESULT_FILTERS:
            q = (
                sa.select(sa.func.count())
                .select_from(g)
                .where(_mine(user_id), g.c.status == "over", _result_clause(user_id, name))
            )
            out[name] = int(conn.execute(q).scalar_one())
    return out


def games_of(
    engine: Engine,
    user_id: int,
    *,
    finished: bool,
    variant: str | None = None,
    result: str | None = None,
    page: int = 1,
    per_page: int = GAMES_PER_PAGE,
) -> tuple[list[dict[str, Any]], int]:
    """One page of the player's finished games (or those in progress), newest first, and how many
    there are in all."""
    g = db.games
    where = [_mine(user_id), g.c.status == "over" if finished else g.c.status.in_(("playing", "waiting"))]
    if variant:
        where.append(g.c.variant == variant)
    if result:
        where.append(_result_clause(user_id, result))
    cols = (
        g.c.id, g.c.variant, g.c.white, g.c.black, g.c.level, g.c.status, g.c.result, g.c.termination,
        g.c.winner, g.c.ply, g.c.rated, g.c.white_user, g.c.black_user, g.c.updated_at,
    )  # fmt: skip
    q = sa.select(*cols).where(*where).order_by(g.c.updated_at.desc(), g.c.id)
    with engine.connect() as conn:
        total = int(conn.execute(sa.select(sa.func.count()).select_from(g).where(*where)).scalar_one())
        rows = list(conn.execute(q.limit(per_page).offset((page - 1) * per_page)))
        found = seated(conn, rows)
    return [_listed(r, user_id, found) for r in rows], total


def _listed(r: Any, user_id: int, found: dict[tuple[str, str], Seated]) -> dict[str, Any]:
    mine = "white" if r.white_user == user_id else "black"
    outcome = None
    if r.status == "over" and r.result in SCORES:
        won = r.winner is not None and (r.winner == 0) == (mine == "white")
        outcome = "draw" if r.winner is None else "win" if won else "loss"
    seats = {}
    for c in COLORS:
        person = found.get((r.id, c))
        if person is not None:
            seats[c] = person.as_dict()
        elif getattr(r, c) == "engine":
            seats[c] = {
                "user": False,
                "name": f"Engine (level {r.level})",
                "rating": None,
                "rating_text": None,
            }
        else:
            seats[c] = {"user": False, "name": "Anonymous", "rating": None, "rating_text": None}
    return {
        "id": r.id,
        "variant": r.variant,
        "rated": bool(r.rated),
        "color": mine,
        "white": seats["white"],
        "black": seats["black"],
        "status": r.status,
        "result": r.result,
        "outcome": outcome,
        "reason": describe_end(r.termination, r.winner),
        "ply": r.ply,
        "updated_at": r.updated_at.isoformat() if r.updated_at else None,
    }


def ratings_of(engine: Engine, user_id: int) -> dict[str, dict[str, Any]]:
    """variant -> the player's current rating there, and its history (oldest first)."""
    r, h = db.ratings, db.rating_history
    with engine.connect() as conn:
        current = list(conn.execute(sa.select(r).where(r.c.user_id == user_id).order_by(r.c.variant)))
        history = list(
            conn.execute(
                sa.select(h.c.variant, h.c.game_id, h.c.rating, h.c.rd, h.c.created_at)
                .where(h.c.user_id == user_id)
                .order_by(h.c.id)
            )
        )
    out: dict[str, dict[str, Any]] = {}
    for row in current:
        out[row.variant] = {
            "rating": round(row.rating),
            "rd": round(row.rd),
            "volatility": round(row.volatility, 5),
            "provisional": is_provisional(row.rd),
            "rating_text": display(row.rating, row.rd),
            "games": row.games,
            "history": [],
        }
    for row in history:
        if row.variant in out:
            out[row.variant]["history"].append(
                {
                    "game": row.game_id,
                    "rating": round(row.rating),
                    "rd": round(row.rd),
                    "at": row.created_at.isoformat() if row.created_at else None,
                }
            )
    return out
