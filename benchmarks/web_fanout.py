"""CPU of a web process's event fan-out, beside the form it replaced, in one process.

    .venv/bin/python benchmarks/web_fanout.py              # 20,000 events per form and case
    .venv/bin/python benchmarks/web_fanout.py --events 5000

Two parts of what a process does for every move event (issue 15), measured by CPU time
(`time.process_time`) with no network, so that a shared machine's noise does not hide them:

- Sending one event to a game's watchers in this process (`Live._send_local`): the old form,
  `asyncio.gather` of `asyncio.wait_for` per socket (kept here as the peer: a task for the gather's
  child and one more inside `wait_for`, per socket), against today's `_send_within` under
  `asyncio.timeout`, which sends in the caller's task. The event loop carries 2,000 pending timers,
  as a loaded process does (the sockets' pings), since each send's deadline goes into that heap.
  With one seat of a game per process (the load benchmark's set-up, and two players on two
  processes), a process sends each event to one socket.
- Sending one lobby event (a new seek) to the lobby's sockets in this process (`Lobby._deliver`):
  the old form, one JSON encoding per socket and `gather` of `wait_for`, against today's two
  encodings (the creator's and everyone else's) sent through `fanout.send_each`.
- A bus notification that this process sent itself (half of what each of two processes hears):
  parsed and then recognised (the old form, `json.loads` first), against recognised by its prefix.
- The JSON work of one move event across two processes: before, the mover's process encoded the
  event for its watchers and again inside the notification, and the other process parsed the
  notification and encoded the event once more for its own watchers. Now the event is encoded
  once and its text travels inside the notification (`Live.broadcast`, `bus.encoded`). The event
  is a real one: a chess middle game's position view, as `GameService.move` makes it.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
from hordes.web import fanout, live, lobby
from hordes.web.bus import PostgresBus, _envelope, _envelope_head


class Watcher:
    """A websocket whose send completes at once (what uvicorn's does while the socket is writable)."""

    async def send_text(self, text: str) -> None:
        pass


async def old_send_local(sockets: list[Watcher], text: str) -> None:
    """The form `Live._send_local` had before (its drop of failed sockets left out: none fail)."""
    await asyncio.gather(
        *(asyncio.wait_for(ws.send_text(text), fanout.SEND_TIMEOUT) for ws in sockets), return_exceptions=True
    )


async def alternate(
    old: Callable[[], Awaitable[None]], new: Callable[[], Awaitable[None]], events: int
) -> tuple[float, float]:
    """CPU seconds per call of the old and the new form, each run `events` times, alternating twice."""
    spent = [0.0, 0.0]
    for _ in range(2):
        for i, form in enumerate((old, new)):
            began = time.process_time()
            for _ in range(events):
                await form()
            spent[i] += time.process_time() - began
    return spent[0] / (2 * events), spent[1] / (2 * events)


async def fan_out(events: int) -> list[tuple[int, float, float]]:
    loop = asyncio.get_running_loop()
    pings = [loop.call_later(3600 + i * 0.01, lambda: None) for i in range(2000)]
    event: dict[str, Any] = {"type": "move", "ply": 1, "uci": "e2e4", "dests": {"e7": ["e6", "e5"]}}
    rows = []
    for count in (1, 2):
        fake = SimpleNamespace(
            sockets={"g": {Watcher() for _ in range(count)}}, _drop=lambda *_: None, _opening={}
        )
        text = json.dumps(event)
        sockets = list(fake.sockets["g"])
        old, new = await alternate(
            functools.partial(old_send_local, sockets, text),
            functools.partial(live.Live._send_local, fake, "g", event),  # type: ignore[arg-type]
            events,
        )
        rows.append((count, old, new))
    for handle in pings:
        handle.cancel()
    return rows


async def old_lobby_deliver(sockets: dict[Watcher, str | None], event: dict[str, Any]) -> None:
    """The form `Lobby._deliver` had before (held sockets and drops left out: there are none)."""
    owner = event.get("owner")
    outgoing = {k: v for k, v in event.items() if k != "owner"}
    texts = []
    for key in sockets.values():
        mine = key is not None and key == owner
        texts.append(json.dumps({**outgoing, "seek": {**outgoing["seek"], "mine": mine}}))
    await asyncio.gather(
        *(
            asyncio.wait_for(ws.send_text(text), fanout.SEND_TIMEOUT)
            for ws, text in zip(sockets, texts, strict=True)
        ),
        return_exceptions=True,
    )


async def lobby_fan_out(events: int, count: int) -> tuple[float, float]:
    seek = {"id": "a1b2c3d4", "variant": "orda", "clock": "5+3", "rated": True, "color": "random"}
    seek.update({"by": "somebody", "rating": 1500, "created_at": 1_700_000_000_000})
    event: dict[str, Any] = {"type": "seek_added", "seek": seek, "owner": "key-0"}
    sockets: dict[Watcher, str | None] = {Watcher(): f"key-{i}" for i in range(count)}
    fake = SimpleNamespace(_sockets=sockets, _held={})
    return await alternate(
        lambda: old_lobby_deliver(sockets, event),
        lambda: lobby.Lobby._deliver(fake, event),  # type: ignore[arg-type]
        events,
    )


async def own_notifications(events: int, payload_event: dict[str, Any]) -> tuple[float, float, int]:
    bus = PostgresBus("postgresql+psycopg://bench@127.0.0.1/bench")  # never connected: no start()
    heard: list[object] = []

    async def listener(event: dict[str, Any]) -> None:
        heard.append(event)

    bus.subscribe("game", listener)
    body = _envelope(bus.origin, {"c": "game", "e": payload_event})
    began = time.process_time()
    for _ in range(events):
        message = json.loads(body)  # the old order: parse, then look at the sender
        if message.get("o") == bus.origin:
            continue
    old = (time.process_time() - began) / events
    began = time.process_time()
    for _ in range(events):
        await bus._received(body)
    new = (time.process_time() - began) / events
    return old, new, len(heard)


def move_event() -> dict[str, Any]:
    from hordes import Board
    from hordes.web.positions import position_view

    board = Board("chess")
    for uci in ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5", "c2c3", "g8f6", "d2d4", "e5d4"]:
        board.push_uci(uci)
    fields = {"type": "move", "id": "x" * 16, "uci": "e5d4", "san": "exd4", "ply": 10, "clock": None}
    return {**fields, **position_view(board)}


def encodings(events: int) -> tuple[float, float, float, float, int]:
    """CPU per move event of the sender's and the receiver's JSON work, before and now; the size."""
    origin, game_id, event = "0123456789abcdef", "x" * 16, move_event()
    payload = _envelope(origin, {"c": "game", "e": {"game": game_id, "event": event}})
    spent = [0.0, 0.0, 0.0, 0.0]
    for _ in range(2):
        began = time.process_time()
        for _ in range(events):  # before, the mover: its watchers' text, then the notification
            json.dumps(event)
            _envelope(origin, {"c": "game", "e": {"game": game_id, "event": event}})
        spent[0] += time.process_time() - began
        began = time.process_time()
        for _ in range(events):  # now: one encoding, embedded (Live.broadcast, PostgresBus.publish)
            text = json.dumps(event)
            message = live._message_text(game_id, text)
            f"{_envelope_head(origin, 'game')}{message}}}"
        spent[1] += time.process_time() - began
        began = time.process_time()
        for _ in range(events):  # before, the other process: parse, then encode for its watchers
            json.dumps(json.loads(payload)["e"]["event"])
        spent[2] += time.process_time() - began
        began = time.process_time()
        for _ in range(events):  # now: parse, and take the text back out (PostgresBus._received)
            parsed = json.loads(payload)
            head = _envelope_head(parsed.get("o"), parsed["c"])
            live._event_text(payload[len(head) : -1], game_id)
        spent[3] += time.process_time() - began
    a, b, c, d = (x / (2 * events) for x in spent)
    return a, b, c, d, len(payload)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=20_000)
    args = parser.parse_args()
    print(f"{args.events} events per form and case, CPU time, Python {sys.version.split()[0]}")
    print("| watchers in this process | gather + wait_for (before) | asyncio.timeout (now) | ratio |")
    print("|---|---|---|---|")
    for count, old, new in asyncio.run(fan_out(args.events)):
        print(f"| {count} | {old * 1e6:.1f} µs | {new * 1e6:.1f} µs | {old / new:.2f} |")
    print("| lobby sockets here | JSON per socket, gather + wait_for (before) | two forms (now) | ratio |")
    print("|---|---|---|---|")
    for count in (1, 10, 100):
        old, new = asyncio.run(lobby_fan_out(max(1, args.events // count), count))
        print(f"| {count} | {old * 1e6:.1f} µs | {new * 1e6:.1f} µs | {old / new:.2f} |")
    event = {
        "game": "x" * 22,
        "event": {"type": "move", "ply": 12, "uci": "g1f3", "san": "Nf3", "fen": "8/" * 7 + "8 w - - 0 1"},
    }
    event["event"]["dests"] = {f"{c}{r}": [f"{c}{r + 1}", f"{c}{r + 2}"] for c in "abcdefgh" for r in (1, 2)}
    before_out, now_out, before_in, now_in, size = encodings(args.events)
    print(f"JSON work of one move event ({size} bytes in its notification), CPU per event:")
    print(f"- the mover's process: {before_out * 1e6:.1f} µs before, {now_out * 1e6:.1f} µs now")
    print(f"- the other process: {before_in * 1e6:.1f} µs before, {now_in * 1e6:.1f} µs now")
    before, now = before_out + before_in, now_out + now_in
    print(f"- both: {before * 1e6:.1f} µs before, {now * 1e6:.1f} µs now ({before / now:.2f})")
    old, new, delivered = asyncio.run(own_notifications(args.events, event))
    size = len(_envelope("0" * 16, {"c": "game", "e": event}))
    print(
        f"own notification of {size} bytes: parsed first {old * 1e6:.2f} µs,"
        f" by its prefix {new * 1e6:.2f} µs, ratio {old / new:.1f}; delivered again: {delivered}"
    )
    if delivered:
        raise SystemExit("a process delivered its own notification a second time")


if __name__ == "__main__":
    main()
