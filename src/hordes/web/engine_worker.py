"""`hordes engine-worker`: the engine's turns of the games on a database, searched away from the
servers (which then run with `hordes serve --engine-workers 0`, or alongside servers that search too).

A worker is the web app's `Live` without sockets: it hears every game's events on the event bus
(bus.py; LISTEN/NOTIFY on PostgreSQL) and takes the engine's turn of each game whose event says the
engine is to move; each turn is claimed first (engine_claims.py), so that of all the workers and
servers exactly one searches it; the stored move goes out on the bus to the servers' watchers. A
sweep every `poll` seconds catches what it did not hear (its start, a dropped connection, SQLite,
which has no notifications). It also arms the clock timers of the games it hears of, as a server does.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal

from hordes.web import bus, db, variant_store
from hordes.web.engine_pool import EnginePool
from hordes.web.games import GameService
from hordes.web.live import Live

POLL = 5.0  # seconds between sweeps for games waiting for the engine


async def run(
    database_url: str,
    workers: int | None = None,
    movetime: float = 3.0,
    poll: float = POLL,
    ready: asyncio.Event | None = None,
    stop: asyncio.Event | None = None,
) -> None:
    """Take engine turns until `stop` is set (or SIGTERM / SIGINT); `ready` is set once listening."""
    engine = db.make_engine(database_url)
    db.migrate(engine)
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):  # not the main thread
            loop.add_signal_handler(sig, stop.set)
    variant_store.install(variant_store.VariantStore(engine))  # games of stored variants
    service = GameService(engine)
    pool = EnginePool(workers or None)
    events = bus.make_bus(database_url)
    live = Live(service, pool, movetime, bus=events, remote_engine_turns=True)
    await events.start()
    try:
        await live.resume_clocks()
        if ready is not None:
            ready.set()
        while not stop.is_set():
            await live.resume_engine_games()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), poll)
    finally:
        await live.close()
        await events.close()
        pool.shutdown()
        engine.dispose()
