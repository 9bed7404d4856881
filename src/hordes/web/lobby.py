"""The lobby's live list of seeks: its websocket, the fan-out of changes, and the seeks' JSON API.

The state machine and storage are seeks.py's; this module is the edge around it:

- who a client is (`seeker_of`): the logged-in account, else the browser's player token (the
  `hordes_player` cookie, HttpOnly, made on the first visit of the lobby or the first seek; API
  clients may send it back as an X-Player-Token header instead);
- `/ws/lobby`: sends the open seeks on connect, then `seek_added` / `seek_removed` events;
- creators leaving: when a creator's last lobby socket closes, their open seeks expire after a
  short grace (`grace` seconds, so that a reload keeps them; tests pass 0 and an injected clock).
  "Last" counts every server process's sockets (presence.py): a reload that lands on another process
  keeps the seeks, and a creator whose process died is seen to have left when it last renewed its
  rows. Whichever processes judge the departure, withdrawing the seeks is a conditional update, so
  they expire once;
  A creator who never opened the socket (an API client) keeps their seeks until they cancel them
  or their time to live runs out (seeks.TTL_MS); a timer sweeps those when they fall due;
- fan-out goes through a `LobbyBus` (publish / subscribe of small JSON events): the "lobby" channel
  of the app's event bus (bus.py), in-process on SQLite, PostgreSQL LISTEN/NOTIFY across processes.
  The events carry no secret (the owner's key is a hash or an account id,
  and the seat tokens are only ever handed out over HTTP to their owner).

Websocket protocol (JSON text frames):

  server -> client  {"type": "seeks", "seeks": [seek, ...]}           on connect
                    {"type": "seek_added", "seek": seek}
                    {"type": "seek_removed", "id": ..., "reason": "accepted"|"cancelled"|"expired",
                     "game_id": ... (accepted only), "mine": bool}
                    {"type": "pong"} | {"type": "error", ...}
  client -> server  {"type": "ping"}

Each `seek` is seeks.SeekService's view with `mine` (whether it is this client's own seek). The
creator of an accepted seek reads its game and seat with GET /api/seeks/{id}, which sets the seat
cookie as accepting does for the accepter.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import secrets
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import anyio
from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.websockets import WebSocket, WebSocketDisconnect

from hordes.web import bus
from hordes.web.accounts import viewer
from hordes.web.api import rated_field, seat_url, set_seat_cookie
from hordes.web.bus import Channel
from hordes.web.clocks import form_clock, parse_clock
from hordes.web.common import (
    COOKIE_MAX_AGE,
    MAX_BODY,
    json_body,
    parse_json_object,
    read_body,
    string_field,
    variant_field,
)
from hordes.web.errors import GameError, NotFound
from hordes.web.fanout import send_each
from hordes.web.origins import same_origin
from hordes.web.presence import Presence, lobby_subject
from hordes.web.ratelimit import rate_limit
from hordes.web.seeks import COLORS, Listed, Seeker, SeekService, SeekSpec
from hordes.web.timeouts import Clock, Timer
from hordes.web.variants import web_variant

log = logging.getLogger("hordes.web")

PLAYER_COOKIE = "hordes_player"
PLAYER_HEADER = "x-player-token"
GRACE = 5.0  # seconds a creator may be gone from the lobby (a reload) before their seeks expire
_PLAYER_TOKEN = re.compile(r"[A-Za-z0-9_-]{20,64}")
_SEEK_ID = re.compile(r"[A-Za-z0-9]{1,16}")

Listener = Callable[[dict[str, Any]], Awaitable[None]]


# ----- who is asking ---------------------------------------------------------------------------------
def player_token(conn: HTTPConnection) -> str | None:
    """The browser's player token: the X-Player-Token header, else the cookie (a damaged cookie is
    ignored; a damaged header is refused, as someone typed it)."""
    header = conn.headers.get(PLAYER_HEADER)
    if header is not None:
        if not _PLAYER_TOKEN.fullmatch(header):
            raise GameError(
                f"the {PLAYER_HEADER} header is not a player token: 20 to 64 letters, digits, - and _",
                code="bad_token",
            )
        return header
    cookie = conn.cookies.get(PLAYER_COOKIE)
    return cookie if cookie and _PLAYER_TOKEN.fullmatch(cookie) else None


def seeker_of(conn: HTTPConnection) -> Seeker | None:
    """The account, else the anonymous browser, else None (a client seen for the first time)."""
    user = viewer(conn)
    if user is not None:
        return Seeker.account(user.id)
    token = player_token(conn)
    return Seeker.anonymous(token) if token else None


def new_player_token() -> str:
    return secrets.token_urlsafe(24)


def set_player_cookie(response: Response, token: str) -> None:
    response.set_cookie(PLAYER_COOKIE, token, max_age=COOKIE_MAX_AGE, path="/", httponly=True, samesite="lax")


def ensure_player(request: Request, response: Response) -> None:
    """Give a browser its player token on its first visit of the lobby, so that its lobby socket
    knows it before it makes a seek."""
    if player_token(request) is None:
        set_player_cookie(response, new_player_token())


# ----- the fan-out -------------------------------------------------------------------------------------
class LobbyBus(Protocol):
    """Where lobby events go: every subscriber (in every server process) gets every event, in order."""

    def subscribe(self, listener: Listener) -> None: ...

    async def publish(self, event: dict[str, Any]) -> None: ...


class LocalBus(Channel):
    """The lobby's channel on a bus of this process only (tests, and what SQLite serves)."""

    def __init__(self) -> None:
        super().__init__(bus.LocalBus(), "lobby")


class Lobby:
    """The lobby sockets of this process, and the timers that close seeks whose creator left or
    whose time ran out."""

    def __init__(
        self,
        seeks: SeekService,
        clock: Clock,
        grace: float = GRACE,
        bus: LobbyBus | None = None,
        presence: Presence | None = None,
    ) -> None:
        """`presence`: the lobby sockets of every process (None: this process's only)."""
        self.seeks = seeks
        self.presence = presence
        self.clock = clock
        self.grace = grace
        self.bus: LobbyBus = bus or LocalBus()
        self.bus.subscribe(self._deliver)
        self._sockets: dict[WebSocket, str | None] = {}  # socket -> its client's key (None: unknown)
        self._held: dict[WebSocket, list[str]] = {}  # events for sockets still waiting for their list
        self._present: Counter[str] = Counter()  # key -> its open lobby sockets here
        self._leaving: dict[str, Timer] = {}  # key -> the grace timer of a creator who left
        self._expiry: tuple[int, Timer] | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    def socket_count(self) -> int:
        """Open lobby sockets on this process (for /metrics)."""
        return len(self._sockets)

    # ----- telling everyone ---------------------------------------------------------------------
    async def added(self, listed: Listed) -> None:
        await self.bus.publish({"type": "seek_added", "seek": listed.view, "owner": listed.key})
        await self.arm_expiry()

    async def removed(self, ids: list[str], reason: str, owner: str, game_id: str | None = None) -> None:
        for seek_id in ids:
            event = {"type": "seek_removed", "id": seek_id, "reason": reason, "owner": owner}
            if game_id is not None:
                event["game_id"] = game_id
            await self.bus.publish(event)

    async def _deliver(self, event: dict[str, Any]) -> None:
        """A bus event to every lobby socket of this process, each told whether it is theirs. There
        are two forms of each event (theirs or not), each encoded once, not once per socket."""
        owner = event.get("owner")
        outgoing = {k: v for k, v in event.items() if k != "owner"}
        forms: dict[bool, str] = {}
        sockets = []
        texts = []
        for ws, key in list(self._sockets.items()):
            mine = key is not None and key == owner
            text = forms.get(mine)
            if text is None:
                if event["type"] == "seek_added":
                    text = json.dumps({**outgoing, "seek": {**outgoing["seek"], "mine": mine}})
                else:
                    text = json.dumps({**outgoing, "mine": mine})
                forms[mine] = text
            held = self._held.get(ws)
            if held is not None:  # its list is not sent yet: the event follows it
                held.append(text)
            else:
                sockets.append(ws)
                texts.append(text)
        if not sockets:
            return
        for ws in await send_each(sockets, texts):
            self._sockets.pop(ws, None)  # its handler counts it out when it ends

    # ----- timers ------------------------------------------------------------------------------------
    def _spawn(self, work: Callable[[], Awaitable[None]]) -> None:
        async def run() -> None:
            try:
                await work()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("closing lobby seeks failed")

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def arm_expiry(self) -> None:
        """A timer for the next seek whose time to live runs out (replacing a later one)."""
        due = await run_in_threadpool(self.seeks.next_expiry_ms)
        if due is None or (self._expiry is not None and self._expiry[0] <= due):
            return
        if self._expiry is not None:
            self._expiry[1].cancel()
        self._expiry = (due, self.clock.call_at(due / 1000, lambda: self._spawn(self._expire_due)))

    async def _expire_due(self) -> None:
        self._expiry = None
        for seek_id in await run_in_threadpool(self.seeks.expire_due):
            row = await run_in_threadpool(self.seeks.row, seek_id)
            await self.removed([seek_id], "expired", row.creator_key)
        await self.arm_expiry()

    def _left(self, key: str, left_s: float | None = None) -> None:
        """A creator's last lobby socket here closed (at `left_s`, default now; or their sockets on a
        process that died, last renewed then): their seeks go after the grace."""
        old = self._leaving.pop(key, None)
        if old is not None:
            old.cancel()
        when = (self.clock.now() if left_s is None else left_s) + self.grace
        self._leaving[key] = self.clock.call_at(when, lambda: self._spawn(lambda: self._gone(key)))

    def lapsed(self, key: str, seen_ms: int) -> None:
        """The creator's lobby sockets were all on a process that died (presence.py)."""
        if self._present[key] <= 0:
            self._left(key, seen_ms / 1000)

    async def _gone(self, key: str) -> None:
        self._leaving.pop(key, None)
        if self._present[key] > 0:
            return  # back in time (a reload)
        if self.presence is not None:
            gone = await run_in_threadpool(self.presence.absent_ms, lobby_subject(key), 0)
            if gone is None or gone < self.grace * 1000:
                return  # here through another process, or left it later: that departure is judged there
        closed = await run_in_threadpool(self.seeks.withdraw_all, key, "expire")
        await self.removed(closed, "expired", key)

    async def _count(self, key: str, delta: int) -> None:
        """One lobby socket of `key` opened or closed, in the presence table."""
        if self.presence is not None:
            with contextlib.suppress(Exception):  # the database away: the last count written stands
                await run_in_threadpool(self.presence.change, lobby_subject(key), delta)

    async def start(self) -> None:
        await self.arm_expiry()

    async def settle(self) -> None:
        """Wait until the timers' work started so far has finished (tests)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def close(self) -> None:
        for timer in self._leaving.values():
            timer.cancel()
        self._leaving.clear()
        if self._expiry is not None:
            self._expiry[1].cancel()
            self._expiry = None
        for task in list(self._tasks):
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
        for ws in list(self._sockets):
            with contextlib.suppress(Exception):
                await ws.close(1001)
        self._sockets.clear()

    # ----- one socket ------------------------------------------------------------------------------
    async def serve(self, ws: WebSocket) -> None:
        origin = ws.headers.get("origin")
        if origin and not same_origin(ws, origin):
            await ws.close(code=4403, reason="cross-origin websocket refused")
            return
        await ws.accept()
        try:
            who = await run_in_threadpool(seeker_of, ws)
        except GameError as exc:
            await ws.send_json({"type": "error", **exc.as_dict()})
            await ws.close(code=1008, reason=exc.code)
            return
        key = who.key if who else None
        # Registered before the list is read, with its events held until the list is sent: a change
        # made meanwhile then arrives after the list (at worst repeating it, which the client's list,
        # keyed by id, absorbs), never before it or not at all.
        self._held[ws] = []
        self._sockets[ws] = key
        if key is not None:
            self._present[key] += 1
            timer = self._leaving.pop(key, None)
            if timer is not None:
                timer.cancel()
        counted = False
        try:
            if key is not None:
                await self._count(key, 1)
                counted = True
            listed = await run_in_threadpool(self.seeks.open_seeks)
            seeks = [{**item.view, "mine": key is not None and item.key == key} for item in listed]
            await ws.send_json({"type": "seeks", "seeks": seeks})
            held = self._held[ws]
            while held:
                await ws.send_text(held.pop(0))
            del self._held[ws]
            while True:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    return
                raw = frame.get("text")
                if raw is None or len(raw) > MAX_BODY:
                    await ws.send_json({"type": "error", "error": "bad_message", "message": "send JSON text"})
                    continue
                try:
                    msg = parse_json_object(raw, "the message")
                    if msg.get("type") != "ping":
                        raise GameError('the lobby socket takes only {"type": "ping"}', code="bad_message")
                    await ws.send_json({"type": "pong"})
                except GameError as exc:
                    await ws.send_json({"type": "error", **exc.as_dict()})
        except WebSocketDisconnect:
            pass
        finally:
            self._sockets.pop(ws, None)
            self._held.pop(ws, None)
            if key is not None:
                self._present[key] -= 1
                gone = self._present[key] <= 0
                if gone:
                    del self._present[key]
                if counted:
                    with anyio.CancelScope(shield=True):  # counted out even if its handler is cancelled
                        await self._count(key, -1)
                if gone and self._present[key] <= 0:
                    self._left(key)


# ----- the JSON API ------------------------------------------------------------------------------------
def lobby(request: Request) -> Lobby:
    value: Lobby = request.app.state.lobby
    return value


def seek_id_param(request: Request) -> str:
    seek_id = str(request.path_params["seek_id"])
    if not _SEEK_ID.fullmatch(seek_id):
        raise NotFound(f"no seek {seek_id[:40]!r}: seek ids are letters and digits", code="no_seek")
    return seek_id


def seek_spec(body: dict[str, Any], min_base: float) -> SeekSpec:
    """A seek's settings from the API or the lobby form, each checked and named if wrong."""
    variant = web_variant(variant_field(body)).slug
    choice = body.get("clock")
    clock = parse_clock(form_clock(body) if isinstance(choice, str) else choice, min_base)
    color = string_field(body, "color", "random") or "random"
    if color not in COLORS:
        raise GameError("'color' must be white, black or random", code="bad_request")
    return SeekSpec(variant, clock, rated_field(body.get("rated", False)), color)


def _identify(request: Request) -> tuple[Seeker, str | None]:
    """The seeker of a request that needs one, and a player token newly made for it (to hand out)."""
    who = seeker_of(request)
    if who is not None:
        return who, None
    token = new_player_token()
    return Seeker.anonymous(token), token


def _with_player(response: Response, fresh: str | None) -> Response:
    if fresh is not None:
        set_player_cookie(response, fresh)
    return response


async def api_list_seeks(request: Request) -> Response:
    service: SeekService = request.app.state.seeks
    who = await run_in_threadpool(seeker_of, request)
    listed = await run_in_threadpool(service.open_seeks)
    key = who.key if who else None
    return JSONResponse({"seeks": [{**i.view, "mine": i.key == key} for i in listed]})


async def api_create_seek(request: Request) -> Response:
    body = await json_body(request)
    spec = seek_spec(body, request.app.state.clock_min_base)
    who, fresh = await run_in_threadpool(_identify, request)
    rate_limit(request, "create")  # seeks and games share the limit
    service: SeekService = request.app.state.seeks
    listed = await run_in_threadpool(service.create, who, spec)
    await lobby(request).added(listed)
    out: dict[str, Any] = {"seek": {**listed.view, "mine": True}}
    if fresh is not None:  # an API client's identity from now on (browsers keep it in the cookie)
        out["player_token"] = fresh
    response = JSONResponse(out, status_code=201)
    return _with_player(response, fresh)


async def api_get_seek(request: Request) -> Response:
    seek_id = seek_id_param(request)
    service: SeekService = request.app.state.seeks
    who = await run_in_threadpool(seeker_of, request)
    view = await run_in_threadpool(service.view, seek_id, who)
    token = view.pop("token", None)
    if token is None:
        return JSONResponse(view)
    # The creator of an accepted seek: their seat, as accepting gives the accepter theirs.
    view["token"] = token
    view["url"] = seat_url(request, view["game_id"], token)
    response = JSONResponse(view)
    set_seat_cookie(response, view["game_id"], token)
    return response


async def api_accept_seek(request: Request) -> Response:
    seek_id = seek_id_param(request)
    raw = await read_body(request)
    if raw.strip():
        parse_json_object(raw)  # nothing is read from it, but a malformed body is still refused
    who, fresh = await run_in_threadpool(_identify, request)
    rate_limit(request, "create")  # an acceptance makes a game
    service: SeekService = request.app.state.seeks
    accepted = await run_in_threadpool(service.accept, seek_id, who)
    await lobby(request).removed([seek_id], "accepted", accepted.creator_key, accepted.game_id)
    # Both players are playing now: their other seeks leave the lobby, as on lichess.
    for key in (accepted.creator_key, who.key):
        others = await run_in_threadpool(service.withdraw_all, key, "cancel")
        await lobby(request).removed(others, "cancelled", key)
    games = request.app.state.games
    live = request.app.state.live
    live.timeouts.arm(accepted.game_id, await run_in_threadpool(games.deadline, accepted.game_id))
    state = await run_in_threadpool(games.state, accepted.game_id, accepted.token)
    out: dict[str, Any] = {
        "seek": seek_id,
        "id": accepted.game_id,
        "seat": accepted.seat,
        "token": accepted.token,
        "url": seat_url(request, accepted.game_id, accepted.token),
        "game": state,
    }
    response = JSONResponse(out)
    set_seat_cookie(response, accepted.game_id, accepted.token)
    return _with_player(response, fresh)


async def api_cancel_seek(request: Request) -> Response:
    seek_id = seek_id_param(request)
    who = await run_in_threadpool(seeker_of, request)
    service: SeekService = request.app.state.seeks
    key = await run_in_threadpool(service.cancel, seek_id, who)
    await lobby(request).removed([seek_id], "cancelled", key)
    return JSONResponse({"id": seek_id, "state": "cancelled"})


async def lobby_socket(ws: WebSocket) -> None:
    await ws.app.state.lobby.serve(ws)
