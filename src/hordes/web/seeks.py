"""Open challenges in the lobby ("seeks"): their one state machine, stored in the `seeks` table.

A seek is someone's offer to play: a variant, a time control, rated or casual, and the creator's
colour (white, black or random, drawn when the seek is accepted). Its life:

    open --accept--> accepted    anyone else takes it: the game is made and both seats filled
    open --cancel--> cancelled   by its creator (or because the creator started another game)
    open --expire--> expired     its creator left the lobby, or its time to live ran out

Every transition is one conditional UPDATE (`... WHERE id = :id AND state = 'open'`) whose row
count says whether it happened, so two accepters racing, in one process or several, cannot both
win: the database lets one UPDATE match and the other finds the seek gone (409). An acceptance
claims the seek, inserts the game and records its id in one transaction, so a game exists exactly
once per accepted seek and never for a refused one.

Who is who: a `Seeker` is an account ("user:<id>") or an anonymous browser ("anon:" + the SHA-256
of its player token, lobby.py), so a creator is recognised (to cancel, and not to accept their own
seek) without the database holding anything that would let someone pose as them.

Everything here is synchronous (database calls); lobby.py runs it in worker threads and tells the
lobby's sockets what changed.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from hordes.web import clocks, db
from hordes.web.errors import Conflict, Forbidden, NotFound
from hordes.web.games import GameService, new_id
from hordes.web.players import rating_of
from hordes.web.ratings import Rating, display, is_provisional
from hordes.web.variants import stored_variant

STATES = ("open", "accepted", "cancelled", "expired")
# (state, action) -> the state it leads to; nothing else moves a seek.
TRANSITIONS: dict[tuple[str, str], str] = {
    ("open", "accept"): "accepted",
    ("open", "cancel"): "cancelled",
    ("open", "expire"): "expired",
}
COLORS = ("white", "black", "random")
MAX_OPEN = 5  # open seeks one creator may hold at once
# A seek nobody accepts lives this long. Browser seeks usually go sooner, when their page closes
# (lobby.py); this bounds the seeks of API clients that never open the lobby socket.
TTL_MS = 60 * 60 * 1000
CORRESPONDENCE_TTL_MS = 7 * 24 * 60 * 60 * 1000  # a correspondence seek waits longer, as on lichess


@dataclass(frozen=True, slots=True)
class Seeker:
    """Whoever makes a request: an account, or an anonymous browser known by its player token."""

    key: str  # "user:<id>" or "anon:<sha256 of the player token>"
    user: int | None = None

    @staticmethod
    def account(user_id: int) -> Seeker:
        return Seeker(f"user:{user_id}", user_id)

    @staticmethod
    def anonymous(player_token: str) -> Seeker:
        return Seeker("anon:" + hashlib.sha256(player_token.encode()).hexdigest())


@dataclass(frozen=True, slots=True)
class SeekSpec:
    """What a seek offers (checked at the edge: lobby.py's `seek_spec`)."""

    variant: str  # a playable variant's slug
    clock: clocks.TimeControl | None
    rated: bool
    color: str  # white, black or random: the creator's side


@dataclass(frozen=True, slots=True)
class Listed:
    """An open seek as the lobby lists it, and its creator's key (kept off the wire: each socket is
    told only whether the seek is its own)."""

    key: str
    view: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Accepted:
    seek_id: str
    game_id: str
    seat: str  # the accepter's colour
    token: str  # the accepter's seat token
    creator_key: str


class SeekService:
    """Seeks in the database. `now` gives seconds since the epoch (tests inject their clock)."""

    def __init__(
        self, engine: Engine, games: GameService, now: Callable[[], float] | None = None,
        ttl_ms: int = TTL_MS,
    ) -> None:  # fmt: skip
        self.engine = engine
        self.games = games
        self.now = now or time.time
        self.ttl_ms = ttl_ms

    def now_ms(self) -> int:
        return int(self.now() * 1000)

    # ----- the state machine ----------------------------------------------------------------------
    def _move(self, conn: Connection, seek_id: str, action: str, *where: Any, **values: Any) -> bool:
        """Apply `action` to an open seek if it is still open (and matches `where`); True if done."""
        s = db.seeks
        start = next(state for state, act in TRANSITIONS if act == action)
        end = TRANSITIONS[(start, action)]
        done = conn.execute(
            s.update()
            .where(s.c.id == seek_id, s.c.state == start, *where)
            .values(state=end, ended_ms=self.now_ms(), **values)
        )
        return done.rowcount == 1

    # ----- creating and reading -------------------------------------------------------------------
    def create(self, who: Seeker, spec: SeekSpec) -> Listed:
        """Open a seek. Refused: a rated seek without an account (403), a sixth open seek or a second
        one with the same settings (409)."""
        if spec.rated and who.user is None:
            raise Forbidden(
                "log in to offer a rated game: rated games are between two accounts",
                code="rated_needs_account",
            )
        if spec.color not in COLORS:
            raise ValueError(spec.color)
        s = db.seeks
        tc = spec.clock
        settings = {
            "variant": spec.variant,
            "clock_base_ms": None if tc is None or tc.correspondence else tc.base_ms,
            "clock_inc_ms": None if tc is None or tc.correspondence else tc.inc_ms,
            "clock_days": tc.days if tc is not None else None,
            "rated": spec.rated,
            "color": spec.color,
        }
        now = self.now_ms()
        ttl = CORRESPONDENCE_TTL_MS if tc is not None and tc.correspondence else self.ttl_ms
        seek_id = new_id()
        with self.engine.begin() as conn:
            mine = list(conn.execute(sa.select(s).where(*self._open_of(who.key, now))))
            if any(all(getattr(row, k) == v for k, v in settings.items()) for row in mine):
                raise Conflict("you have an open seek with these settings already", code="duplicate_seek")
            if len(mine) >= MAX_OPEN:
                raise Conflict(
                    f"you have {MAX_OPEN} open seeks already: cancel one first", code="too_many_seeks"
                )
            conn.execute(
                s.insert().values(
                    id=seek_id, state="open", creator_key=who.key, creator_user=who.user,
                    created_ms=now, expires_ms=now + ttl, **settings,
                )
            )  # fmt: skip
            row = conn.execute(sa.select(s).where(s.c.id == seek_id)).one()
            return Listed(who.key, self._view(conn, row))

    def _open_of(self, key: str, now: int) -> tuple[Any, ...]:
        s = db.seeks
        return (s.c.creator_key == key, s.c.state == "open", s.c.expires_ms > now)

    def row(self, seek_id: str) -> Any:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(db.seeks).where(db.seeks.c.id == seek_id)).first()
        if row is None:
            raise NotFound(f"no seek {seek_id!r}", code="no_seek")
        return row

    def open_seeks(self) -> list[Listed]:
        """The open seeks, oldest first (expired ones are left out even before the sweep marks them)."""
        s = db.seeks
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(s)
                .where(s.c.state == "open", s.c.expires_ms > self.now_ms())
                .order_by(s.c.created_ms)
            )
            return [Listed(r.creator_key, self._view(conn, r)) for r in rows]

    def view(self, seek_id: str, who: Seeker | None) -> dict[str, Any]:
        """One seek; for its creator, once accepted, the game and the creator's seat token too."""
        row = self.row(seek_id)
        with self.engine.connect() as conn:
            out = self._view(conn, row)
        out["mine"] = who is not None and who.key == row.creator_key
        if out["mine"] and row.state == "accepted" and row.game_id:
            game = self.games.row(row.game_id)
            out["seat"] = row.creator_seat
            out["token"] = getattr(game, f"{row.creator_seat}_token")
        return out

    def _view(self, conn: Connection, row: Any) -> dict[str, Any]:
        variant = stored_variant(row.variant)
        tc = clocks.control_of(row)
        creator: dict[str, Any] = {"name": None, "rating": None, "rating_text": None, "provisional": True}
        if row.creator_user is not None:
            u = db.users
            name = conn.execute(sa.select(u.c.username).where(u.c.id == row.creator_user)).scalar()
            rating = rating_of(conn, row.creator_user, row.variant)
            creator["name"] = name
            if rating is not None:
                creator.update(
                    rating=round(rating.rating),
                    rating_text=display(rating.rating, rating.rd),
                    provisional=is_provisional(rating.rd),
                )
            else:  # no rated game yet in this variant: the starting rating, provisional
                start = Rating()
                creator.update(rating=round(start.rating), rating_text=display(start.rating, start.rd))
        return {
            "id": row.id,
            "state": row.state,
            "variant": {"slug": variant.slug, "title": variant.title},
            "clock": tc.as_dict() if tc is not None else None,
            "rated": bool(row.rated),
            "color": row.color,
            "creator": creator,
            "created_ms": row.created_ms,
            "expires_ms": row.expires_ms,
            "game_id": row.game_id,
        }

    # ----- the transitions ----------------------------------------------------------------------
    def accept(self, seek_id: str, who: Seeker) -> Accepted:
        """Take the seek: make the game, seat both players. Refused (nothing changes): no such seek
        (404), one's own seek or a rated one without an account (403), a seek that is no longer open
        or that another accepter took first (409)."""
        row = self.row(seek_id)
        if row.creator_key == who.key:
            raise Forbidden("this is your own seek: wait for someone to accept it", code="own_seek")
        self._must_be_open(row)
        if row.rated and who.user is None:
            raise Forbidden("this seek is rated: log in to accept it", code="rated_needs_account")
        creator_seat = row.color if row.color != "random" else random.choice(("white", "black"))
        seat = "black" if creator_seat == "white" else "white"
        with self.engine.begin() as conn:
            # The claim comes first: the loser of a race stops here, before a game is made.
            if not self._move(conn, seek_id, "accept", accepter_key=who.key, creator_seat=creator_seat):
                raise Conflict("someone else accepted this seek first", code="seek_taken")
            created = self.games.create(
                row.variant,
                creator=creator_seat,
                user=row.creator_user,
                opponent_user=who.user,
                rated=bool(row.rated),
                clock=clocks.control_of(row),
                paired=True,
                conn=conn,
            )
            s = db.seeks
            conn.execute(s.update().where(s.c.id == seek_id).values(game_id=created.id))
        return Accepted(seek_id, created.id, seat, created.tokens[seat], row.creator_key)

    def _must_be_open(self, row: Any) -> None:
        if row.state != "open" or row.expires_ms <= self.now_ms():
            state = row.state if row.state != "open" else "expired"
            raise Conflict(f"this seek is no longer open ({state})", code="seek_closed")

    def cancel(self, seek_id: str, who: Seeker | None) -> str:
        """The creator withdraws the seek; returns the creator's key. Refused: no such seek (404),
        not theirs (403), no longer open (409)."""
        row = self.row(seek_id)
        if who is None or row.creator_key != who.key:
            raise Forbidden("only the seek's creator may cancel it", code="not_your_seek")
        with self.engine.begin() as conn:
            if not self._move(conn, seek_id, "cancel", db.seeks.c.creator_key == who.key):
                raise Conflict(f"this seek is no longer open ({self.row(seek_id).state})", code="seek_closed")
        return who.key

    def withdraw_all(self, key: str, action: str = "cancel") -> list[str]:
        """Close every open seek of one creator (`expire`: they left the lobby; `cancel`: they went
        to play a game); return the ids that this call closed."""
        s = db.seeks
        closed = []
        with self.engine.begin() as conn:
            ids = conn.execute(sa.select(s.c.id).where(s.c.creator_key == key, s.c.state == "open")).scalars()
            for seek_id in list(ids):
                if self._move(conn, seek_id, action):
                    closed.append(seek_id)
        return closed

    def expire_due(self) -> list[str]:
        """Mark the seeks whose time to live has run out as expired; return their ids."""
        s = db.seeks
        now = self.now_ms()
        closed = []
        with self.engine.begin() as conn:
            ids = conn.execute(sa.select(s.c.id).where(s.c.state == "open", s.c.expires_ms <= now)).scalars()
            for seek_id in list(ids):
                if self._move(conn, seek_id, "expire", s.c.expires_ms <= now):
                    closed.append(seek_id)
        return closed

    def next_expiry_ms(self) -> int | None:
        s = db.seeks
        with self.engine.connect() as conn:
            value = conn.execute(sa.select(sa.func.min(s.c.expires_ms)).where(s.c.state == "open")).scalar()
        return None if value is None else int(value)
