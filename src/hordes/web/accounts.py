"""Accounts: usernames, passwords, sessions and the session cookie.

- Passwords are hashed with argon2id (argon2-cffi's defaults, RFC 9106's low-memory choice) and
  rehashed on login when the defaults grow. A login for a name that does not exist still verifies
  a password against a dummy hash, so the answer's timing does not tell which names exist.
- A session is a random id. The browser holds it in the `hordes_session` cookie, signed with the
  site's secret (HMAC-SHA256); the `sessions` table holds only the id's SHA-256 and its expiry. A
  cookie that is unsigned, tampered with, expired or logged out opens nothing. Logging out deletes
  the row; changing the password deletes every row of the account.
- The signing secret is made once and kept in the `site_secrets` table, so a restart (or a second
  server process) keeps everyone logged in. It is never logged or shown.

Everything here is synchronous (database calls): handlers call it in a worker thread, except
`viewer`, one indexed read cached per request, which page rendering calls directly.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from starlette.requests import HTTPConnection
from starlette.responses import Response

from hordes.web import db
from hordes.web.errors import Conflict, GameError

SESSION_COOKIE = "hordes_session"
SESSION_DAYS = 30
USERNAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{1,19}")
MIN_PASSWORD, MAX_PASSWORD = 8, 256
# Names that would pass for the site, its staff, the engine or a page of the site.
RESERVED = frozenset(
    {
        "admin", "administrator", "anonymous", "api", "account", "black", "bot", "engine", "fairy-stockfish",
        "guest", "hordes", "login", "logout", "me", "mod", "moderator", "none", "null", "official", "root",
        "signup", "staff", "stockfish", "support", "system", "white",
    }
)  # fmt: skip
_SECRET_NAME = "session_signing_key"
_SCOPE_KEY = "hordes.viewer"


class NotLoggedIn(GameError):
    status = 401
    code = "not_logged_in"


class BadCredentials(GameError):
    status = 401
    code = "bad_credentials"


@dataclass(frozen=True, slots=True)
class User:
    id: int
    username: str
    created_at: datetime | None = None


def fold(username: str) -> str:
    """The form of a name that uniqueness is decided on ("Alice" and "alice" are one name)."""
    return username.casefold()


def check_username(name: object) -> str:
    """A new account's name, or GameError saying what is wrong with it."""
    if not isinstance(name, str) or not name:
        raise GameError("'username' is needed: 2 to 20 letters, digits, _ or -", code="bad_username")
    if not 2 <= len(name) <= 20:
        raise GameError(f"a username has 2 to 20 characters, not {len(name)}", code="bad_username")
    if not name.isascii() or not USERNAME.fullmatch(name):
        raise GameError(
            "a username is letters (a-z, A-Z), digits, _ and -, and starts with a letter or digit",
            code="bad_username",
        )
    if fold(name) in RESERVED:
        raise GameError(f"the username {name!r} is reserved; choose another", code="reserved_username")
    return name


def check_password(password: object, field: str = "password") -> str:
    if not isinstance(password, str) or not password:
        raise GameError(
            f"'{field}' is needed: {MIN_PASSWORD} to {MAX_PASSWORD} characters", code="bad_password"
        )
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise GameError(
            f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters, not {len(password)}",
            code="bad_password",
        )
    return password


def _session_hash(session_id: str) -> str:
    return hashlib.sha256(session_id.encode()).hexdigest()


class AccountService:
    """Accounts and sessions in the database. `clock` gives the time (tests move it)."""

    def __init__(
        self, engine: Engine, *, hasher: PasswordHasher | None = None, clock: Callable[[], datetime] = db.now
    ) -> None:
        self.engine = engine
        self.hasher = hasher or PasswordHasher()
        self.clock = clock
        self._key: bytes | None = None
        self._dummy: str | None = None

    # ----- the signing key -------------------------------------------------------------------------
    def _signing_key(self) -> bytes:
        if self._key is None:
            t = db.site_secrets
            with self.engine.begin() as conn:
                row = conn.execute(sa.select(t.c.value).where(t.c.name == _SECRET_NAME)).first()
            if row is None:
                try:
                    with self.engine.begin() as conn:
                        conn.execute(t.insert().values(name=_SECRET_NAME, value=secrets.token_hex(32)))
                except IntegrityError:
                    pass  # another process made it first: use theirs
                with self.engine.connect() as conn:
                    row = conn.execute(sa.select(t.c.value).where(t.c.name == _SECRET_NAME)).first()
            assert row is not None
            self._key = bytes.fromhex(row.value)
        return self._key

    def _sign(self, session_id: str) -> str:
        mac = hmac.new(self._signing_key(), session_id.encode(), hashlib.sha256).hexdigest()
        return f"{session_id}.{mac}"

    def _unsign(self, cookie: str) -> str | None:
        session_id, _, _mac = cookie.rpartition(".")
        if not session_id or len(cookie) > 200 or not cookie.isascii():
            return None
        if not hmac.compare_digest(self._sign(session_id).encode(), cookie.encode()):
            return None
        return session_id

    # ----- accounts ------------------------------------------------------------------------------
    def signup(self, username: object, password: object) -> User:
        name = check_username(username)
        secret = check_password(password)
        u = db.users
        with self.engine.connect() as conn:
            taken = conn.execute(sa.select(u.c.id).where(u.c.username_folded == fold(name))).first()
        if taken is not None:
            raise Conflict(
                f"the username {name!r} is taken (names are compared ignoring case)", code="name_taken"
            )
        hashed = self.hasher.hash(secret)
        try:
            with self.engine.begin() as conn:
                result = conn.execute(
                    u.insert().values(
                        username=name,
                        username_folded=fold(name),
                        password_hash=hashed,
                        created_at=self.clock(),
                    )
                )
                assert result.inserted_primary_key is not None
                user_id = int(result.inserted_primary_key[0])
        except IntegrityError:  # taken between our read and our write
            raise Conflict(
                f"the username {name!r} is taken (names are compared ignoring case)", code="name_taken"
            ) from None
        return User(user_id, name, self.clock())

    def user_by_name(self, username: str) -> User | None:
        if not isinstance(username, str) or len(username) > 20:
            return None
        u = db.users
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(u.c.id, u.c.username, u.c.created_at).where(u.c.username_folded == fold(username))
            ).first()
        return User(row.id, row.username, row.created_at) if row else None

    def authenticate(self, username: object, password: object) -> User:
        """The account if the password is its own, else BadCredentials (the same for an unknown name)."""
        if not isinstance(username, str) or not isinstance(password, str) or len(password) > MAX_PASSWORD:
            raise GameError("'username' and 'password' are needed, as strings", code="bad_request")
        u = db.users
        row = None
        if len(username) <= 20:
            with self.engine.connect() as conn:
                row = conn.execute(sa.select(u).where(u.c.username_folded == fold(username))).first()
        if row is None:
            self._verify(self._dummy_hash(), password)  # the same work as for a real account
            raise BadCredentials("wrong username or password")
        if not self._verify(row.password_hash, password):
            raise BadCredentials("wrong username or password")
        if self.hasher.check_needs_rehash(row.password_hash):
            with self.engine.begin() as conn:
                conn.execute(
                    u.update().where(u.c.id == row.id).values(password_hash=self.hasher.hash(password))
                )
        return User(row.id, row.username, row.created_at)

    def _verify(self, hashed: str, password: str) -> bool:
        try:
            return bool(self.hasher.verify(hashed, password))
        except (VerificationError, InvalidHashError):
            return False

    def _dummy_hash(self) -> str:
        if self._dummy is None:
            self._dummy = self.hasher.hash(secrets.token_urlsafe(16))
        return self._dummy

    def change_password(self, user: User, current: object, new: object) -> None:
        """Set a new password after checking the current one; every session of the account ends."""
        if not isinstance(current, str) or not self._verify(self._hash_of(user.id), current):
            raise BadCredentials("the current password is wrong", code="bad_credentials")
        secret = check_password(new, "new_password")
        u, s = db.users, db.sessions
        with self.engine.begin() as conn:
            conn.execute(u.update().where(u.c.id == user.id).values(password_hash=self.hasher.hash(secret)))
            conn.execute(s.delete().where(s.c.user_id == user.id))

    def _hash_of(self, user_id: int) -> str:
        u = db.users
        with self.engine.connect() as conn:
            return str(conn.execute(sa.select(u.c.password_hash).where(u.c.id == user_id)).scalar_one())

    # ----- sessions ------------------------------------------------------------------------------
    def open_session(self, user: User) -> str:
        """A new session for `user`: the signed cookie value (the id itself is not kept)."""
        session_id = secrets.token_urlsafe(32)
        stamp = self.clock()
        with self.engine.begin() as conn:
            conn.execute(
                db.sessions.insert().values(
                    id_hash=_session_hash(session_id),
                    user_id=user.id,
                    created_at=stamp,
                    expires_at=stamp + timedelta(days=SESSION_DAYS),
                )
            )
        return self._sign(session_id)

    def session_user(self, cookie: str | None) -> User | None:
        """The account of a session cookie, if it is signed, known and not expired."""
        session_id = self._unsign(cookie) if cookie else None
        if session_id is None:
            return None
        s, u = db.sessions, db.users
        q = (
            sa.select(u.c.id, u.c.username, u.c.created_at, s.c.expires_at)
            .join(s, s.c.user_id == u.c.id)
            .where(s.c.id_hash == _session_hash(session_id))
        )
        with self.engine.connect() as conn:
            row = conn.execute(q).first()
        if row is None or _aware(row.expires_at) <= self.clock():
            return None
        return User(row.id, row.username, row.created_at)

    def close_session(self, cookie: str | None) -> None:
        session_id = self._unsign(cookie) if cookie else None
        if session_id is None:
            return
        s = db.sessions
        with self.engine.begin() as conn:
            conn.execute(s.delete().where(s.c.id_hash == _session_hash(session_id)))


def _aware(stamp: datetime) -> datetime:
    """SQLite gives back naive datetimes (stored as UTC); PostgreSQL aware ones."""
    return stamp if stamp.tzinfo is not None else stamp.replace(tzinfo=db.now().tzinfo)


# ----- per request ---------------------------------------------------------------------------------
def service(conn: HTTPConnection) -> AccountService:
    accounts: AccountService = conn.app.state.accounts
    return accounts


def viewer(conn: HTTPConnection) -> User | None:
    """The logged-in account of this request, or None (anonymous); looked up once per request."""
    if _SCOPE_KEY not in conn.scope:
        cookie = conn.cookies.get(SESSION_COOKIE)
        conn.scope[_SCOPE_KEY] = service(conn).session_user(cookie) if cookie else None
    user: User | None = conn.scope[_SCOPE_KEY]
    return user


def forget_viewer(conn: HTTPConnection, user: User | None = None) -> None:
    """After a login or logout in this request: the pages it renders show the new state."""
    conn.scope[_SCOPE_KEY] = user


def set_session_cookie(conn: HTTPConnection, response: Response, value: str) -> None:
    response.set_cookie(
        SESSION_COOKIE,
        value,
        max_age=SESSION_DAYS * 24 * 3600,
        path="/",
        httponly=True,
        samesite="lax",
        secure=_secure(conn),
    )


def clear_session_cookie(conn: HTTPConnection, response: Response) -> None:
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax", secure=_secure(conn))


def _secure(conn: HTTPConnection) -> bool:
    """Secure cookies when the site is served over https (its base URL says so)."""
    base: Any = getattr(conn.app.state, "base_url", None)
    return bool(base and str(base).startswith("https://")) or conn.url.scheme == "https"
