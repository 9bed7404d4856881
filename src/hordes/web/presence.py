"""Who is connected, counted across every server process through the database.

A subject is something whose connection matters to a rule: a game's seat (an opponent may claim a
clock game after the seat has been gone for a while, games.claim) or a lobby client (their seeks
expire a little after their last lobby socket closes, lobby.py). Each process keeps its own
sockets' count per subject in one row of the `presence` table, keyed by (subject, process), and
changes only that row: by adding or taking one as a socket opens or closes (increments commute,
so two sockets of one subject opening at once cannot leave a stale count).

A subject is here while some process has a socket for it and has spoken for that row lately:
every process renews its rows every HEARTBEAT_S seconds, and a row not renewed for LEASE_MS is
that of a process that died (SIGKILL, a lost machine). One live process clears such a row (a
conditional update, so exactly one does) and tells the others as the dead process would have; the
time the subject left is then the row's last renewal. A subject with no row at all was never seen
(an API-only client): it counts as gone since the caller's `since_ms`.

Times are epoch milliseconds of the injected clock, the same on every process (wall time).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import anyio
import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from hordes.web import db

log = logging.getLogger("hordes.web")

HEARTBEAT_S = 5.0  # how often a process renews its rows
LEASE_MS = 15_000  # a row not renewed for this long belongs to a dead process
KEEP_MS = 3_600_000  # rows with no sockets are deleted after this long (a departure an hour old)


def seat_subject(game_id: str, seat: str) -> str:
    return f"g:{game_id}:{seat}"


def lobby_subject(key: str) -> str:
    return f"l:{key}"


@dataclass(frozen=True)
class Lapsed:
    """A subject whose only sockets were on a process that stopped: cleared by this process."""

    subject: str
    seen_ms: int  # when the dead process last renewed it: the time the subject left


class Presence:
    """This process's rows of the presence table (`owner` names the process)."""

    def __init__(self, engine: Engine, owner: str, now_ms: Callable[[], int]) -> None:
        self.engine = engine
        self.owner = owner
        self.now_ms = now_ms

    def change(self, subject: str, delta: int) -> None:
        """One socket of `subject` opened (+1) or closed (-1) on this process."""
        p = db.presence
        mine = (p.c.subject == subject, p.c.owner == self.owner)
        for _ in range(2):  # the second round only if another thread inserted the row meanwhile
            with self.engine.begin() as conn:
                # never below 0: a row cleared as lapsed (its process stalled, then woke) counts anew
                count = sa.case((p.c.sockets + delta < 0, 0), else_=p.c.sockets + delta)
                done = conn.execute(p.update().where(*mine).values(sockets=count, seen_ms=self.now_ms()))
                if done.rowcount:
                    return
                row = {"subject": subject, "owner": self.owner, "sockets": max(0, delta)}
                try:
                    with conn.begin_nested():
                        conn.execute(p.insert().values(**row, seen_ms=self.now_ms()))
                    return
                except IntegrityError:
                    continue

    def absent_ms(self, subject: str, since_ms: int) -> int | None:
        """How long `subject` has had no socket on any live process (None while it has one)."""
        p = db.presence
        now = self.now_ms()
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(p.c.sockets, p.c.seen_ms).where(p.c.subject == subject)).all()
        if any(r.sockets > 0 and r.seen_ms >= now - LEASE_MS for r in rows):
            return None
        left = max((int(r.seen_ms) for r in rows), default=since_ms)
        return max(0, now - left)

    def heartbeat(self) -> list[Lapsed]:
        """Renew this process's rows; clear the rows of processes that stopped renewing theirs and
        return the subjects this leaves with no socket anywhere (each returned by one process only);
        delete rows that have had no socket for KEEP_MS."""
        p = db.presence
        now = self.now_ms()
        lapsed: list[Lapsed] = []
        with self.engine.begin() as conn:
            conn.execute(p.update().where(p.c.owner == self.owner, p.c.sockets > 0).values(seen_ms=now))
            conn.execute(p.delete().where(p.c.sockets <= 0, p.c.seen_ms < now - KEEP_MS))
        with self.engine.connect() as conn:
            stale = conn.execute(
                sa.select(p.c.subject, p.c.owner, p.c.seen_ms).where(
                    p.c.sockets > 0, p.c.seen_ms < now - LEASE_MS, p.c.owner != self.owner
                )
            ).all()
        for row in stale:
            with self.engine.begin() as conn:
                cleared = conn.execute(
                    p.update()
                    .where(
                        p.c.subject == row.subject,
                        p.c.owner == row.owner,
                        p.c.seen_ms == row.seen_ms,
                        p.c.sockets > 0,
                    )
                    .values(sockets=0)
                )
            if cleared.rowcount == 1 and self.absent_ms(row.subject, int(row.seen_ms)) is not None:
                lapsed.append(Lapsed(row.subject, int(row.seen_ms)))
        return lapsed


async def keep_renewed(
    presence: Presence,
    seat_left: Callable[[str, str, int], Awaitable[None]],
    lobby_left: Callable[[str, int], None],
) -> None:
    """Every HEARTBEAT_S seconds (real time: a lease is about processes being alive), `renew`.
    Runs until cancelled."""
    while True:
        await asyncio.sleep(HEARTBEAT_S)
        await renew(presence, seat_left, lobby_left)


async def renew(
    presence: Presence,
    seat_left: Callable[[str, str, int], Awaitable[None]],
    lobby_left: Callable[[str, int], None],
) -> None:
    """Renew this process's rows and hand the subjects of dead processes that this process took
    over to `seat_left(game, seat, seen_ms)` or `lobby_left(key, seen_ms)`."""
    try:
        lapsed = await anyio.to_thread.run_sync(presence.heartbeat)
    except Exception:
        log.warning("renewing the presence rows failed; trying again soon", exc_info=True)
        return
    for item in lapsed:
        kind, _, rest = item.subject.partition(":")
        try:
            if kind == "g":
                game_id, _, seat = rest.rpartition(":")
                await seat_left(game_id, seat, item.seen_ms)
            elif kind == "l":
                lobby_left(rest, item.seen_ms)
        except Exception:
            log.exception("telling of %s, whose process stopped, failed", item.subject)
