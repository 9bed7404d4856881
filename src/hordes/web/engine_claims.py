"""Exactly-once engine turns across server processes: a process claims a game's engine turn (its
ply) before it searches, and only the process holding the claim searches.

One row per engine game in `engine_claims` (migration 9): the ply being searched, the claiming
process and when its claim lapses. A claim is one conditional UPDATE (or the first INSERT), so of
several processes asking at once exactly one gets it: PostgreSQL makes a second UPDATE of the row
wait for the first one's commit and then checks its condition again, which then fails. A claim is
granted when the row is for another ply (the game has moved on, or back by a takeback), when the
holder's lease has lapsed (a process that died mid-search), or to its own holder again (a retry
after a failed search, or its next turn).

The holder renews its claim (the same call) while its search waits and runs (live.py). A process
that is refused waits until the lease lapses and looks again: by then the holder has stored its
move (and the game has gone on), or has died and the turn is claimed afresh. If the holder stalls
past its lease, the turn may be searched twice; the ply guard still stores one move. SQLite serves
one process and takes no claims.
"""

from __future__ import annotations

import time

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from hordes.web import db


def now_ms() -> int:
    return int(time.time() * 1000)  # wall-clock time: leases are compared across machines


def claim(engine: Engine, game_id: str, ply: int, owner: str, lease_ms: int) -> int | None:
    """Claim the engine's turn at `ply` in the game for `owner`: None if granted, else the epoch ms
    at which the current holder's lease lapses (when to look again)."""
    c = db.engine_claims
    now = now_ms()
    until = now + lease_ms
    free = sa.or_(c.c.ply != ply, c.c.lease_until_ms < now, c.c.owner == owner)
    with engine.begin() as conn:
        done = conn.execute(
            c.update().where(c.c.game_id == game_id, free).values(ply=ply, owner=owner, lease_until_ms=until)
        )
        if done.rowcount == 1:
            return None
    try:
        with engine.begin() as conn:
            conn.execute(c.insert().values(game_id=game_id, ply=ply, owner=owner, lease_until_ms=until))
        return None
    except IntegrityError:  # the row exists: someone else holds this turn
        pass
    with engine.connect() as conn:
        row = conn.execute(sa.select(c.c.lease_until_ms).where(c.c.game_id == game_id)).first()
    return now if row is None else int(row.lease_until_ms)
