"""The event bus: how a game's or the lobby's events reach the sockets of every server process.

A publisher hands an event (a small JSON object) to a named channel ("game", "lobby"); every
subscriber of that channel gets it, in every process on the database. The publishing process's own
subscribers get it at once, before `publish` returns (so one process's watchers see its events in
the order it made them, as when there was no bus); the other processes get it through the database.

- `LocalBus`: one process only (SQLite, the embedded default): the in-process delivery and nothing else.
- `PostgresBus`: PostgreSQL's LISTEN/NOTIFY, so that several `hordes serve` processes on one database
  need no broker of their own. Each process keeps one connection that LISTENs and one that NOTIFYs.
  A notification carries the channel, the event and the sending process's id (a process skips its
  own, which it has delivered already). An event too big for a notification (PostgreSQL's limit is
  8000 bytes) is stored in `bus_events` (db.py) and the notification carries its row id instead; the
  receivers read it back. Those rows are deleted after a minute.

What the bus does not promise: events of one game published by two processes may arrive in another
order than that of their commits, and a process whose listening connection drops misses what is sent
until it is back. Game clients order events by ply and ask for the whole game on a gap (live.py),
and the database stays the truth: a reconnecting client gets the whole game from any process.

An event is encoded once on its way: a publisher that has its JSON text already passes it along, the
notification embeds that text as it is, and the receiving process takes the text back out of the
notification. While an event is being delivered, `encoded(event)` gives a subscriber that text, so a
game's watchers are sent it without a second encoding (a py-spy profile at 500 games put a tenth of
a web process's time in JSON encoding).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

from sqlalchemy.engine import make_url

if TYPE_CHECKING:
    import psycopg

log = logging.getLogger("hordes.web")

Listener = Callable[[dict[str, Any]], Awaitable[None]]

PG_CHANNEL = "hordes_events"  # the one PostgreSQL notification channel; our channels ride inside it
NOTIFY_LIMIT = 7900  # bytes of payload sent inline (PostgreSQL refuses 8000 and more)
KEEP_MS = 60_000  # how long a large event's row is kept for the receivers to read
SEND_BATCH = 200  # events sent in one statement at most (about 200 x 0.5 KB)
RECONNECT_PAUSE = 1.0  # seconds between attempts to listen again after the connection dropped


class Bus(Protocol):
    """Publish / subscribe of small JSON events by channel, across every server process."""

    def subscribe(self, channel: str, listener: Listener) -> None: ...

    async def publish(self, channel: str, event: dict[str, Any], text: str | None = None) -> None:
        """Deliver `event` everywhere; `text`, where given, is its JSON."""
        ...

    def encoded(self, event: dict[str, Any]) -> str | None:
        """The JSON text of `event` while it is being delivered, where the bus has it."""
        ...

    async def start(self) -> None: ...

    async def close(self) -> None: ...


class Channel:
    """One channel of a bus, as the lobby's `LobbyBus` (subscribe / publish without a channel name)."""

    def __init__(self, bus: Bus, name: str) -> None:
        self.bus = bus
        self.name = name

    def subscribe(self, listener: Listener) -> None:
        self.bus.subscribe(self.name, listener)

    async def publish(self, event: dict[str, Any]) -> None:
        await self.bus.publish(self.name, event)


class LocalBus:
    """This process's subscribers only."""

    def __init__(self) -> None:
        self._listeners: dict[str, list[Listener]] = {}
        # The event being delivered and its JSON text. Held with the event itself, so that `encoded`
        # can tell it by identity: another event's delivery meanwhile replaces it, never mismatches.
        self._delivering: tuple[dict[str, Any], str] | None = None

    def subscribe(self, channel: str, listener: Listener) -> None:
        self._listeners.setdefault(channel, []).append(listener)

    async def deliver(self, channel: str, event: dict[str, Any], text: str | None = None) -> None:
        for listener in self._listeners.get(channel, ()):
            self._delivering = None if text is None else (event, text)
            try:
                await listener(event)
            except Exception:  # one subscriber's failure must not keep the event from the others
                log.exception("a %s event's subscriber failed", channel)
        self._delivering = None

    def encoded(self, event: dict[str, Any]) -> str | None:
        held = self._delivering
        return held[1] if held is not None and held[0] is event else None

    async def publish(self, channel: str, event: dict[str, Any], text: str | None = None) -> None:
        await self.deliver(channel, event, text)

    async def start(self) -> None:
        pass

    async def close(self) -> None:
        pass


def libpq_url(sqlalchemy_url: str) -> str:
    """The libpq connection string of a SQLAlchemy PostgreSQL URL (without the driver's name)."""
    return make_url(sqlalchemy_url).set(drivername="postgresql").render_as_string(hide_password=False)


class PostgresBus(LocalBus):
    """LISTEN/NOTIFY on one PostgreSQL database. Until `start` (and after `close`) it delivers in
    this process only, like LocalBus."""

    def __init__(self, url: str) -> None:
        super().__init__()
        self.conninfo = libpq_url(url)
        self.origin = secrets.token_hex(8)  # this process, to recognise its own notifications
        # Every notification begins with its sender's id (`_envelope`), so this process's own, half
        # of all it hears with two processes, are dropped before their JSON is parsed.
        self._own_prefix = _envelope(self.origin, {})[:-1]
        self._sender: psycopg.AsyncConnection[Any] | None = None
        self._send_lock = asyncio.Lock()
        self._receiver: asyncio.Task[None] | None = None
        self._listening = asyncio.Event()
        # Events waiting to be sent, each with the future its publisher awaits; one task sends them,
        # in order, as many as have gathered in one round trip (under load, many).
        self._outbox: list[tuple[str, asyncio.Future[None]]] = []
        self._sending: asyncio.Task[None] | None = None

    async def start(self) -> None:
        import psycopg

        self._sender = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
        self._receiver = asyncio.get_running_loop().create_task(self._receive())
        await self._listening.wait()  # nothing published after start is missed by this process

    async def close(self) -> None:
        if self._receiver is not None:
            self._receiver.cancel()
            with contextlib.suppress(BaseException):
                await self._receiver
            self._receiver = None
        if self._sender is not None:
            with contextlib.suppress(Exception):
                await self._sender.close()
            self._sender = None

    async def publish(self, channel: str, event: dict[str, Any], text: str | None = None) -> None:
        await self.deliver(channel, event, text)
        if self._sender is None:
            return
        if text is None:
            body = _envelope(self.origin, {"c": channel, "e": event})
        else:  # the same text as _envelope makes, with the event's JSON as it was given
            body = f"{_envelope_head(self.origin, channel)}{text}}}"
        loop = asyncio.get_running_loop()
        sent: asyncio.Future[None] = loop.create_future()
        self._outbox.append((body, sent))
        if self._sending is None or self._sending.done():
            self._sending = loop.create_task(self._send_waiting())
        await asyncio.shield(sent)  # returns once the notification is sent (or could not be)

    async def _send_waiting(self) -> None:
        while self._outbox:
            batch, self._outbox = self._outbox[:SEND_BATCH], self._outbox[SEND_BATCH:]
            try:
                async with self._send_lock:
                    if self._sender is None:
                        raise RuntimeError("the bus is closed")
                    if self._sender.closed:  # dropped (a database restart): connect again
                        import psycopg

                        self._sender = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
                    await self._notify_all(self._sender, [body for body, _ in batch])
            except Exception:  # the database is away: this process's watchers have them; the others resync
                log.exception("could not send %d events to the other server processes", len(batch))
            for _body, sent in batch:
                if not sent.done():
                    sent.set_result(None)

    async def _notify_all(self, conn: psycopg.AsyncConnection[Any], bodies: list[str]) -> None:
        """Send the bodies in order: small ones together in one statement (json_array_elements_text
        yields them in the array's order, and each row's pg_notify runs as its row is produced). The
        batch goes as one JSON text, not a text[]: quoting each body for an array literal took a
        seventh of a web process's CPU at 500 games (psycopg escapes array elements in Python)."""
        if len(bodies) == 1 or any(len(body.encode()) > NOTIFY_LIMIT for body in bodies):
            for body in bodies:
                await self._notify(conn, body)
            return
        await conn.execute(
            "SELECT pg_notify(%s, body) FROM json_array_elements_text(%s::json) AS body",
            (PG_CHANNEL, json.dumps(bodies)),
        )

    async def _notify(self, conn: psycopg.AsyncConnection[Any], body: str) -> None:
        if len(body.encode()) <= NOTIFY_LIMIT:
            await conn.execute("SELECT pg_notify(%s, %s)", (PG_CHANNEL, body))
            return
        now_ms = int(time.time() * 1000)
        async with conn.transaction():  # the row is there when the notification arrives (at commit)
            cur = await conn.execute(
                "INSERT INTO bus_events (payload, created_ms) VALUES (%s, %s) RETURNING id", (body, now_ms)
            )
            row = await cur.fetchone()
            assert row is not None
            note = _envelope(self.origin, {"ref": row[0]})
            await conn.execute("SELECT pg_notify(%s, %s)", (PG_CHANNEL, note))
            await conn.execute("DELETE FROM bus_events WHERE created_ms < %s", (now_ms - KEEP_MS,))

    async def _receive(self) -> None:
        import psycopg

        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {PG_CHANNEL}")
                    self._listening.set()
                    async for note in conn.notifies():
                        await self._received(note.payload)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the event bus lost its PostgreSQL connection; listening again")
                self._listening.set()  # start() must not wait for a database that is away
                await asyncio.sleep(RECONNECT_PAUSE)

    async def _read_back(self, ref: object) -> str | None:
        """A large event's stored text, through the sending connection (the listening one is busy
        waiting for notifications)."""
        if self._sender is None:
            return None
        async with self._send_lock:
            cur = await self._sender.execute("SELECT payload FROM bus_events WHERE id = %s", (ref,))
            row = await cur.fetchone()
        return None if row is None else str(row[0])

    async def _received(self, payload: str) -> None:
        if payload.startswith(self._own_prefix):
            return  # ours: delivered here when it was published
        try:
            message = json.loads(payload)
            if "ref" in message:
                stored = await self._read_back(message["ref"])
                if stored is None:
                    log.warning("a large bus event (row %s) was gone before it was read", message["ref"])
                    return
                payload = stored
                message = json.loads(stored)
            channel, event = message["c"], message["e"]
            # The event's own text, as the sender embedded it: an envelope of these three keys ends
            # with it (`_envelope`). Anything else is encoded again by whoever needs the text.
            head = _envelope_head(message.get("o"), channel)
            whole = len(message) == 3 and payload.startswith(head) and payload.endswith("}")
            text = payload[len(head) : -1] if whole else None
        except (ValueError, KeyError, TypeError):
            log.warning("ignored a malformed bus notification: %.200s", payload)
            return
        await self.deliver(channel, event, text)


def _envelope(origin: str, fields: dict[str, Any]) -> str:
    """A notification's text: the sender's id first (json.dumps keeps the keys in order), then `fields`."""
    return json.dumps({"o": origin, **fields}, separators=(",", ":"))


def _envelope_head(origin: object, channel: str) -> str:
    """What `_envelope(origin, {"c": channel, "e": event})` writes before the event's own JSON."""
    return f'{{"o":{json.dumps(origin)},"c":{json.dumps(channel)},"e":'


def make_bus(url: str) -> Bus:
    """The bus for a database URL: LISTEN/NOTIFY on PostgreSQL, else this process only."""
    if make_url(url).get_backend_name() == "postgresql":
        return PostgresBus(url)
    return LocalBus()
