"""Live games: the websocket of each game, broadcasting, and the engine's turns.

Every change to a game (a move from the API or a websocket, an engine move, a resignation, a draw)
goes through `Live.act`, which holds the game's asyncio lock, runs the game service in a worker
thread (database calls block) and broadcasts the resulting event to every socket of the game before
it lets the next change of that game in — so all watchers see the events in order, and an event is
sent only after the change is stored.

Websocket protocol (JSON text frames, each at most 16 KB):

  client -> server  {"type": "move", "uci": "e2e4", "ply": 12, "ref": 7}   ply and ref are optional
                    {"type": "resign"} | {"type": "draw", "action": "offer"|"accept"|"decline"}
                    {"type": "claim", "outcome": "win"|"draw"}   after the opponent left (clock games)
                    {"type": "takeback"|"rematch", "action": "offer"|"accept"|"decline"|"cancel"}
                    {"type": "abort"}   before both sides have moved
                    {"type": "sync"} (send the whole game again) | {"type": "ping"}
  server -> client  {"type": "game", ...}     the whole game, on connect and on "sync"
                    {"type": "move", ...}     a stored move, with the new position's legal moves
                    {"type": "status", ...}   resignation, draw offer or agreement, flag, abort
                    {"type": "offer", "kind": "takeback"|"rematch", "action": ..., "by": "white", ...}
                                              a request or its answer (offers.py), with the status:
                                              a takeback's lower ply, a rematch's new id ("rematch")
                    {"type": "presence", "seat": "black", "online": false, "claim_at": ms}
                    {"type": "ack", "ref": 7, "ply": 13}     to the sender, after the change is stored
                    {"type": "error", "error": "illegal_move", "message": "...", "ref": 7}
                    {"type": "pong"}

The seat token comes from the game's cookie (browsers), an X-Seat-Token header, or a `token` field
in a message (other clients); never from the URL, which access logs record.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
import weakref
from collections import Counter
from collections.abc import Callable
from typing import Any

import anyio
from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from hordes.web import clocks, engine_claims, offers
from hordes.web.bus import Bus, LocalBus
from hordes.web.common import MAX_BODY, check_token, game_id_param, parse_json_object, seat_token
from hordes.web.engine_pool import EnginePool
from hordes.web.fanout import send_each, send_within
from hordes.web.games import GameError, GameService, Joined, NotFound, TimeUp
from hordes.web.metrics import Metrics
from hordes.web.origins import same_origin
from hordes.web.presence import Presence, seat_subject
from hordes.web.ratelimit import RateLimited, rate_limit
from hordes.web.timeouts import Clock, SystemClock, Timeouts

log = logging.getLogger("hordes.web")

# A failing engine turn is tried again after a pause that doubles from the first to the longest and
# stays there: a game's turn is never given up (it waits in the engine queue behind other games only).
ENGINE_RETRY_FIRST, ENGINE_RETRY_LONGEST = 0.5, 30.0
# How long a process's claim on an engine turn holds (engine_claims.py) unless renewed; it is renewed
# every third of that while the search waits and runs, so another process takes a turn over only
# when its holder has stopped (died) for that long.
ENGINE_LEASE_MS = 15_000


class Live:
    """Websockets by game, per-game locks, and the engine turns of engine games."""

    def __init__(
        self,
        service: GameService,
        pool: EnginePool,
        engine_movetime: float = 3.0,
        clock: Clock | None = None,
        bus: Bus | None = None,
        remote_engine_turns: bool = False,
    ) -> None:
        """`remote_engine_turns`: also take the engine's turns in games moved by other processes
        (an engine worker's Live, engine_worker.py; a server takes those of its own moves)."""
        self.service = service
        self.remote_engine_turns = remote_engine_turns
        # Every event of a game also goes to the other server processes' watchers (bus.py); the
        # events they publish come back here through `_remote`.
        self.bus: Bus = bus or LocalBus()
        self.bus.subscribe("game", self._remote)
        self.pool = pool
        self.engine_movetime = engine_movetime
        self.sockets: dict[str, set[WebSocket]] = {}
        # Sockets registered but still waiting for their snapshot, with the events that came
        # meanwhile: a client's first frame is its snapshot, and those events follow it in order.
        self._opening: dict[WebSocket, list[str]] = {}
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._engine_tasks: dict[str, asyncio.Task[None]] = {}
        self._engine_again: set[str] = set()  # games asked for while their engine task was running
        self.owner = secrets.token_hex(8)  # this process, in the engine turns it claims
        # ----- clocks (timeouts.py) and who is here (for abandonment claims) -----
        self.clock: Clock = clock or SystemClock()
        self.timeouts = Timeouts(self.clock, self._judge)
        self._online: Counter[tuple[str, str]] = Counter()  # (game, seat) -> its open websockets here
        self._left_ms: dict[tuple[str, str], int] = {}  # (game, seat) -> when its last socket here closed
        self._started_ms = self._now_ms()  # a seat never seen anywhere is gone since then
        # The seats' sockets on every process (presence.py): a claim is judged by them, not by ours.
        self.presence = Presence(service.engine, self.owner, self._now_ms)
        self.metrics = Metrics()  # this process's figures for /metrics (metrics.py)

    def lock(self, game_id: str) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[game_id] = lock
        return lock

    async def act(
        self, game_id: str, fn: Callable[..., dict[str, Any] | None], *args: Any
    ) -> dict[str, Any] | None:
        """Run a change of a game under its lock, then broadcast its event (still under the lock)."""
        lock = self.lock(game_id)
        async with lock:
            try:
                event = await run_in_threadpool(fn, *args)
            except TimeUp as exc:  # the move came too late: the game has ended by the clock instead
                await self.broadcast(game_id, exc.event)
                self._arm(game_id, exc.event)
                raise
            if event is not None:
                if event.get("type") == "move":
                    self.metrics.stored_move()
                await self.broadcast(game_id, event)
                self._arm(game_id, event)
        if event is not None and event.get("engine_to_move"):
            self.schedule_engine(game_id)
        return event

    async def move(self, game_id: str, token: str | None, uci: object, ply: object = None) -> dict[str, Any]:
        began = time.perf_counter()
        event = await self.act(game_id, self.service.move, game_id, token, uci, ply)
        assert event is not None
        self.metrics.move_latency.observe(time.perf_counter() - began)  # stored and broadcast
        return event

    async def resign(self, game_id: str, token: str | None) -> dict[str, Any]:
        event = await self.act(game_id, self.service.resign, game_id, token)
        assert event is not None
        return event

    async def draw(self, game_id: str, token: str | None, action: object) -> dict[str, Any]:
        event = await self.act(game_id, self.service.draw, game_id, token, action)
        assert event is not None
        return event

    async def offer(
        self,
        game_id: str,
        token: str | None,
        kind: object,
        action: object,
        conn: HTTPConnection | None = None,
    ) -> dict[str, Any]:
        """A takeback or rematch request or answer (offers.py). A rematch that is created starts:
        its engine's first move, its first-move window. `conn`: the request or websocket, whose
        client a rematch offer or accept charges as creating a game (resigning and replaying against
        the engine would otherwise create games past the lobby's limit)."""
        machines = {"takeback": offers.takeback, "rematch": offers.rematch}
        if kind not in machines:
            raise GameError("the offer must be a takeback or a rematch", code="bad_request")
        if conn is not None and kind == "rematch" and action in ("offer", "accept"):
            rate_limit(conn, "create")
        event = await self.act(game_id, machines[str(kind)], self.service, game_id, token, action)
        assert event is not None
        if kind == "rematch" and event["action"] == "accept":
            new_id = event["rematch"]
            self.schedule_engine(new_id)
            self.timeouts.arm(new_id, await run_in_threadpool(self.service.deadline, new_id))
        return event

    async def abort(self, game_id: str, token: str | None) -> dict[str, Any]:
        event = await self.act(game_id, offers.abort, self.service, game_id, token)
        assert event is not None
        return event

    async def join(
        self, game_id: str, invite: str | None, holder: str | None, user: int | None = None
    ) -> Joined:
        """Claim the friend's seat (for the account `user`, if any), then tell every watcher."""
        async with self.lock(game_id):
            joined: Joined = await run_in_threadpool(self.service.join, game_id, invite, holder, user)
            event = await run_in_threadpool(self.service.joined_event, game_id)
            await self.broadcast(game_id, event)
            self._arm(game_id, event)  # the first-move window has opened
        return joined

    # ----- clocks and abandonment -------------------------------------------------------------------
    def _now_ms(self) -> int:
        return int(self.clock.now() * 1000)

    def _arm(self, game_id: str, event: dict[str, Any]) -> None:
        clock = event.get("clock")
        self.timeouts.arm(game_id, clock.get("deadline") if clock else None)

    async def _judge(self, game_id: str) -> int | None:
        """The watcher's call at a deadline: end the game if its time is up (broadcast under its
        lock, as every change); return the next deadline if it goes on."""
        try:
            event = await self.act(game_id, self.service.judge, game_id)
        except NotFound:
            return None
        if event is not None:
            return None  # over; act has disarmed the timer
        following: int | None = await run_in_threadpool(self.service.deadline, game_id)
        return following

    async def resume_clocks(self) -> None:
        """After a start: every running clock gets its timer (a deadline already past fires at once)."""
        for game_id in await run_in_threadpool(self.service.timed_games_running):
            with contextlib.suppress(GameError):
                self.timeouts.arm(game_id, await run_in_threadpool(self.service.deadline, game_id))

    def absent_ms(self, game_id: str, seat: str) -> int | None:
        """How long `seat` has had no websocket open on this game, on any server process (None while
        it has one somewhere). Blocks on the database: call it in a worker thread."""
        if self._online[(game_id, seat)] > 0:
            return None
        return self.presence.absent_ms(seat_subject(game_id, seat), self._started_ms)

    def presence_view(self, game_id: str, joining: str | None = None) -> dict[str, dict[str, Any]]:
        """Each seat's connection: online, and when the opponent may claim if it is not (`joining`:
        the seat whose socket is being opened, online already). Blocks: a worker thread's call."""
        out = {}
        for seat in ("white", "black"):
            gone = None if seat == joining else self.absent_ms(game_id, seat)
            at = None if gone is None else self._now_ms() - gone + clocks.CLAIM_AFTER_MS
            out[seat] = {"online": gone is None, "claim_at": at}
        return out

    async def claim(self, game_id: str, token: str | None, outcome: object) -> dict[str, Any]:
        event = await self.act(game_id, self.service.claim, game_id, token, outcome, self.absent_ms)
        assert event is not None
        return event

    async def _presence(self, game_id: str, seat: str, online: bool, announce: bool) -> None:
        """Count the seat's sockets, here and in the presence table; tell the game's watchers when it
        leaves (its last socket on any process) or comes back (only in clock games, where the
        opponent may then claim: other games' protocol is unchanged)."""
        key = (game_id, seat)
        if online:
            self._online[key] += 1
            first = self._online[key] == 1
            if first:
                self._left_ms.pop(key, None)
        else:
            self._online[key] -= 1
            first = self._online[key] == 0
            if first:
                del self._online[key]
                self._left_ms[key] = self._now_ms()
        with contextlib.suppress(Exception):  # the database away: claims see the last count written
            await run_in_threadpool(self.presence.change, seat_subject(game_id, seat), 1 if online else -1)
        if not first or not announce:
            return
        if not online and await run_in_threadpool(self.absent_ms, game_id, seat) is None:
            return  # still connected through another process
        left = self._left_ms.get(key)
        if not online and left is None:
            return  # back meanwhile
        claim_at = None if left is None else left + clocks.CLAIM_AFTER_MS
        event = {"type": "presence", "id": game_id, "seat": seat, "online": online, "claim_at": claim_at}
        with contextlib.suppress(Exception):
            await self.broadcast(game_id, event)

    async def lapsed(self, game_id: str, seat: str, seen_ms: int) -> None:
        """The seat's sockets were all on a process that died, last renewed at `seen_ms`
        (presence.py): tell the watchers it left then, as that process would have (clock games)."""
        try:
            row = await run_in_threadpool(self.service.row, game_id)
        except NotFound:
            return
        control = clocks.control_of(row)
        if row.status != "playing" or control is None or control.correspondence:
            return
        claim_at = seen_ms + clocks.CLAIM_AFTER_MS
        event = {"type": "presence", "id": game_id, "seat": seat, "online": False, "claim_at": claim_at}
        with contextlib.suppress(Exception):
            await self.broadcast(game_id, event)

    async def broadcast(self, game_id: str, event: dict[str, Any]) -> None:
        """The event to every watcher of the game, in this process (at once) and in the others."""
        text = json.dumps(event)  # once, for this process's watchers and the notification alike
        await self.bus.publish("game", {"game": game_id, "event": event}, _message_text(game_id, text))

    async def _remote(self, message: dict[str, Any]) -> None:
        """Another process's event: to this process's watchers. A clock's deadline in it arms the
        timer here too, so that the flag falls even if that process is gone by then; the judgement
        is a conditional update (games.py), so one process ends the game and the others find it over."""
        game_id, event = str(message["game"]), message["event"]
        text = _event_text(self.bus.encoded(message), game_id) if len(message) == 2 else None
        if isinstance(event, dict) and event.get("type") == "move":
            ply, uci, fen = event.get("ply"), event.get("uci"), event.get("fen")
            if isinstance(ply, int) and isinstance(uci, str) and isinstance(fen, str):
                self.service.follow(game_id, ply, uci, fen)  # this process's next move needs no rebuild
        await self._send_local(game_id, event, text)
        if isinstance(event, dict) and isinstance(event.get("clock"), dict):
            self._arm(game_id, event)
        if self.remote_engine_turns and isinstance(event, dict) and event.get("engine_to_move"):
            self.schedule_engine(game_id)

    async def _send_local(self, game_id: str, event: dict[str, Any], text: str | None = None) -> None:
        """`event` (whose JSON is `text`, where the caller has it) to this process's watchers."""
        sockets = list(self.sockets.get(game_id, ()))
        if not sockets:
            return
        if text is None:
            text = json.dumps(event)
        if self._opening:  # a socket still waiting for its snapshot takes the event after it
            for ws in sockets:
                if ws in self._opening:
                    self._opening[ws].append(text)
            sockets = [ws for ws in sockets if ws not in self._opening]
            if not sockets:
                return
        for ws in await send_each(sockets, [text] * len(sockets)):
            self._drop(game_id, ws)

    async def _opened(self, game_id: str, ws: WebSocket) -> None:
        """`ws` has its snapshot: send it the events held meanwhile, in order (more may be held while
        these are sent), then let events reach it directly."""
        held = self._opening.get(ws, [])
        while held:
            if not await send_within(ws, held.pop(0)):
                self._drop(game_id, ws)
                break
        self._opening.pop(ws, None)

    def _drop(self, game_id: str, ws: WebSocket) -> None:
        group = self.sockets.get(game_id)
        if group is not None:
            group.discard(ws)
            if not group:
                del self.sockets[game_id]

    # ----- the engine ------------------------------------------------------------------------------
    def schedule_engine(self, game_id: str) -> None:
        """Start the engine's turn in this game if it has one and none is running (never in a
        server without searches of its own: an engine worker takes it)."""
        if not self.pool.searches:
            return
        task = self._engine_tasks.get(game_id)
        if task is not None and not task.done():
            # That task may have read the game before this change and found no turn: it looks again.
            self._engine_again.add(game_id)
            return
        self._engine_tasks[game_id] = asyncio.create_task(self._engine_turns(game_id))

    async def _engine_turns(self, game_id: str) -> None:
        """The engine's turns in the game until none is asked for (the event loop runs one thing at a
        time, so a request between the last look and the return is never missed)."""
        try:
            while True:
                self._engine_again.discard(game_id)
                await self._engine_turn(game_id)
                if game_id not in self._engine_again:
                    return
        finally:
            self._engine_again.discard(game_id)

    async def _engine_turn(self, game_id: str) -> None:
        failures = 0
        while True:
            try:
                found = await run_in_threadpool(self.service.engine_turn_clock, game_id)
                if found is None:
                    return
                (variant, start_fen, moves, level, ply), clock = found
                # One process searches each turn, whichever of them has the game's watchers.
                lapses = await self._claim(game_id, ply)
                if lapses is not None:  # another process searches: look again when its claim lapses
                    await asyncio.sleep(max(0.05, (lapses - engine_claims.now_ms()) / 1000))
                    continue
                renewing = asyncio.create_task(self._renew(game_id, ply))
                try:
                    # A timed game's clock goes to the search, which manages its time (capped by movetime).
                    uci = await self.pool.move(
                        variant, start_fen, moves, level, self.engine_movetime, clock=clock
                    )
                finally:
                    renewing.cancel()
                if uci is None:
                    return
                played = await self.act(game_id, self.service.engine_move, game_id, ply, uci, moves)
                if played is None:
                    continue  # the game went on without this move (a takeback): look at it again
                return
            except asyncio.CancelledError:
                raise
            except NotFound:
                return
            except Exception:
                failures += 1
                pause = min(ENGINE_RETRY_LONGEST, ENGINE_RETRY_FIRST * 2 ** min(failures - 1, 16))
                log.exception(
                    "engine turn failed in game %s (failure %d); trying again in %.1f s",
                    game_id,
                    failures,
                    pause,
                )
                await asyncio.sleep(pause)

    async def _claim(self, game_id: str, ply: int) -> int | None:
        """Claim the engine's turn (engine_claims.claim). SQLite serves one process: no claims, so a
        restart after a crash mid-search resumes at once rather than waiting out the dead claim."""
        engine = self.service.engine
        if engine.dialect.name == "sqlite":
            return None
        lapses: int | None = await run_in_threadpool(
            engine_claims.claim, engine, game_id, ply, self.owner, ENGINE_LEASE_MS
        )
        return lapses

    async def _renew(self, game_id: str, ply: int) -> None:
        while True:
            await asyncio.sleep(ENGINE_LEASE_MS / 3000)
            with contextlib.suppress(Exception):  # a failed renewal: the next one, or the lease lapses
                await self._claim(game_id, ply)

    async def resume_engine_games(self) -> None:
        """After a start: the engine moves in every game that waits for it (no game is lost on restart)."""
        for game_id in await run_in_threadpool(self.service.engine_games_waiting):
            self.schedule_engine(game_id)

    async def close(self) -> None:
        await self.timeouts.close()
        tasks = [t for t in self._engine_tasks.values() if not t.done()]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(BaseException):
                await t
        for group in list(self.sockets.values()):
            for ws in list(group):
                with contextlib.suppress(Exception):
                    await ws.close(1001)
        self.sockets.clear()

    # ----- one websocket ------------------------------------------------------------------------------
    async def serve(self, ws: WebSocket) -> None:
        if not _same_origin(ws):
            await ws.close(code=4403, reason="cross-origin websocket refused")
            return
        await ws.accept()
        try:
            game_id = game_id_param(ws)
            token = seat_token(ws, game_id)
            state = await run_in_threadpool(self.service.state, game_id, token)
        except NotFound as exc:
            await ws.send_json({"type": "error", **exc.as_dict()})
            await ws.close(code=4404, reason="no such game")
            return
        except GameError as exc:  # a malformed token header, or a game this server cannot play
            await ws.send_json({"type": "error", **exc.as_dict()})
            await ws.close(code=1008, reason=exc.code)
            return
        self._opening[ws] = []
        self.sockets.setdefault(game_id, set()).add(ws)
        seat = state.get("seat")
        clock = state.get("clock")
        announce = isinstance(clock, dict) and "days" not in clock["control"]
        counted = False
        try:
            # Registered before the snapshot is sent: an event that comes meanwhile is held and sent
            # after it (`_opened`), and the client, which orders events by ply, asks for a sync if
            # it ever sees a gap.
            view = await run_in_threadpool(self.presence_view, game_id, seat)
            await ws.send_json({"type": "game", **state, "presence": view})
            await self._opened(game_id, ws)
            if seat:  # counted (and announced to the others) once this socket has its snapshot
                counted = True
                await self._presence(game_id, seat, True, announce)
            if state.get("engine_to_move"):
                self.schedule_engine(game_id)
            while True:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    return
                raw = frame.get("text")
                if raw is None:  # a binary frame: the protocol is JSON text
                    await _refuse(ws, 1003, "bad_message", "binary frames are not accepted; send JSON text")
                    return
                if len(raw) > MAX_BODY:  # `hordes serve` refuses these in the protocol layer already
                    await _refuse(ws, 1009, "too_large", f"messages are limited to {MAX_BODY} bytes")
                    return
                await self._message(ws, game_id, token, raw)
        except WebSocketDisconnect:
            pass
        finally:
            self._opening.pop(ws, None)
            self._drop(game_id, ws)
            if seat and counted:
                # Shielded: a handler cancelled as its socket goes (a client's task group closing,
                # a shutdown) must still tell the opponent, who may then claim.
                with anyio.CancelScope(shield=True):
                    await self._presence(game_id, seat, False, announce)

    async def _message(self, ws: WebSocket, game_id: str, token: str | None, raw: str) -> None:
        ref = None
        try:
            msg = parse_json_object(raw, "the message")
            ref = msg.get("ref")
            if isinstance(msg.get("token"), str):
                token = check_token(msg["token"], "the 'token' field")
            kind = msg.get("type")
            if kind == "move":
                event = await self.move(game_id, token, msg.get("uci"), msg.get("ply"))
                await _send(ws, {"type": "ack", "ref": ref, "ply": event["ply"]})
            elif kind == "resign":
                event = await self.resign(game_id, token)
                await _send(ws, {"type": "ack", "ref": ref, "ply": event["ply"]})
            elif kind == "draw":
                event = await self.draw(game_id, token, msg.get("action"))
                await _send(ws, {"type": "ack", "ref": ref, "ply": event["ply"]})
            elif kind == "claim":
                event = await self.claim(game_id, token, msg.get("outcome"))
                await _send(ws, {"type": "ack", "ref": ref, "ply": event["ply"]})
            elif kind in ("takeback", "rematch"):
                event = await self.offer(game_id, token, kind, msg.get("action"), ws)
                await _send(ws, {"type": "ack", "ref": ref, "ply": event["ply"]})
            elif kind == "abort":
                event = await self.abort(game_id, token)
                await _send(ws, {"type": "ack", "ref": ref, "ply": event["ply"]})
            elif kind == "sync":
                state = await run_in_threadpool(self.service.state, game_id, token)
                view = await run_in_threadpool(self.presence_view, game_id)
                await _send(ws, {"type": "game", **state, "presence": view})
            elif kind == "ping":
                await _send(ws, {"type": "pong", "ref": ref})
            else:
                raise GameError(
                    f"unknown message type {kind!r}; expected move, resign, draw, claim, takeback, rematch, "
                    "abort, sync or ping",
                    code="bad_message",
                )
        except GameError as exc:
            await _send(ws, {"type": "error", "ref": ref, **exc.as_dict()})
        except RateLimited as exc:
            await _send(ws, {"type": "error", "ref": ref, "error": exc.code, "message": exc.message})


async def _refuse(ws: WebSocket, code: int, error: str, message: str) -> None:
    """Say why, then close with `code` (1003 unsupported data, 1009 too big)."""
    await _send(ws, {"type": "error", "error": error, "message": message})
    with contextlib.suppress(Exception):  # the client may be gone already
        await ws.close(code=code, reason=error)


def _message_text(game_id: str, text: str) -> str:
    """The JSON of a "game" channel message, {"game": game_id, "event": the event whose JSON is `text`}."""
    return f'{{"game":{json.dumps(game_id)},"event":{text}}}'


def _event_text(message_text: str | None, game_id: str) -> str | None:
    """The event's JSON inside a message made by `_message_text`, or None (the bus had no text)."""
    if message_text is None:
        return None
    head = f'{{"game":{json.dumps(game_id)},"event":'
    if message_text.startswith(head) and message_text.endswith("}"):
        return message_text[len(head) : -1]
    return None


async def _send(ws: WebSocket, data: dict[str, Any]) -> None:
    if ws.application_state == WebSocketState.CONNECTED:
        await ws.send_json(data)


def _same_origin(ws: WebSocket) -> bool:
    """Browsers send Origin with websockets; refuse other sites' pages (they would carry our cookie)."""
    origin = ws.headers.get("origin")
    if not origin:
        return True  # not a browser (tests, the load benchmark, scripts)
    return same_origin(ws, origin)
