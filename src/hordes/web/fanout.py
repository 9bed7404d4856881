"""Sending events to this process's websockets, for a game's watchers (live.py) and the lobby (lobby.py).

A watcher that cannot take an event within SEND_TIMEOUT is given up on, so that one stalled client
never holds up the others. Each send runs under `asyncio.timeout` in the task that sends it:
`asyncio.wait_for` made a task of its own for every send, and `asyncio.gather` one more for each of
its children, which cost a web process more CPU than the send itself (benchmarks/web_fanout.py).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from starlette.websockets import WebSocket

SEND_TIMEOUT = 5.0  # a watcher that cannot take an event in this time is dropped


async def send_within(ws: WebSocket, text: str) -> bool:
    """Send `text`; False if the watcher is gone or cannot take it within SEND_TIMEOUT."""
    try:
        async with asyncio.timeout(SEND_TIMEOUT):
            await ws.send_text(text)
    except Exception:
        return False
    return True


async def send_each(sockets: Sequence[WebSocket], texts: Sequence[str]) -> list[WebSocket]:
    """Send `texts[i]` to `sockets[i]`, all at once; the sockets that did not take theirs.

    One socket (a game's seat on this process, the usual case) is sent to in the caller's task."""
    if len(sockets) == 1:
        return [] if await send_within(sockets[0], texts[0]) else [sockets[0]]
    sent = await asyncio.gather(*(send_within(ws, text) for ws, text in zip(sockets, texts, strict=True)))
    return [ws for ws, ok in zip(sockets, sent, strict=True) if not ok]
