"""`hordes serve`: run the web app with uvicorn."""

from __future__ import annotations

import argparse
import os
from typing import Any

# Only stdlib-light modules at the top: every `hordes` command builds this parser, and importing
# the web stack here (Starlette, SQLAlchemy) added ~20 MB to `hordes uci`. The server's own imports
# wait until `serve` runs.
from hordes.web.clocks import MIN_BASE


def _cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from hordes.web.app import create_app

    bind_url = f"http://{args.host}:{args.port}"
    app = create_app(
        database_url=args.database,
        data_dir=args.data_dir,
        engine_workers=args.engine_workers,
        base_url=args.base_url,
        bind_url=bind_url,
        rate_limits=not args.no_rate_limits,
        clock_min_base=args.clock_min_base,
    )
    print(
        f"hordes: serving on {bind_url} as {app.state.link_base}"
        f"  (database: {_safe(app.state.database_url)})",
        flush=True,
    )
    from hordes.web.common import MAX_BODY

    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        ws_max_size=MAX_BODY,  # websocket messages over 16 KB are refused by the protocol layer
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        # No per-message compression: a game's frames are a few hundred bytes, and compressing
        # each one for each socket (and keeping a zlib state per socket) cost more CPU under load
        # than the bytes it saved (docs/benchmarks.md, issue 15).
        ws_per_message_deflate=False,
    )
    return 0


def _cmd_engine_worker(args: argparse.Namespace) -> int:
    import asyncio

    from hordes.web import db, engine_worker

    url = db.database_url(args.database, args.data_dir)

    async def main() -> None:
        ready = asyncio.Event()
        task = asyncio.create_task(
            engine_worker.run(url, args.workers, args.movetime, args.poll, ready=ready)
        )
        waiting = asyncio.create_task(ready.wait())
        await asyncio.wait({task, waiting}, return_when=asyncio.FIRST_COMPLETED)
        if ready.is_set():
            print(f"hordes: engine worker ready (database: {_safe(url)})", flush=True)
        waiting.cancel()
        await task

    asyncio.run(main())
    return 0


def _safe(url: str) -> str:
    """The database URL without its password, for the start-up line."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        creds, host = rest.rsplit("@", 1)
        return f"{scheme}://{creds.split(':', 1)[0]}:***@{host}"
    return url


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("serve", help="run the web app (play and analyse in the browser)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument(
        "--base-url",
        default=os.environ.get("HORDES_BASE_URL"),
        help="the site's public address, for the links it hands out, e.g. https://play.example.org "
        "(default: http://HOST:PORT; $HORDES_BASE_URL)",
    )
    p.add_argument(
        "--data-dir",
        default=os.environ.get("HORDES_DATA_DIR", "data"),
        help="directory of the SQLite database (default ./data; $DATABASE_URL overrides the database)",
    )
    p.add_argument(
        "--database",
        default=None,
        help="database URL, e.g. postgresql://user:pass@host/hordes for several server processes on one "
        "database (default: $DATABASE_URL, else the SQLite file in --data-dir)",
    )
    p.add_argument(
        "--engine-workers",
        type=int,
        default=None,
        help="engine processes (default: up to 2); 0: none, engine workers elsewhere take the engine's "
        "turns (hordes engine-worker) and analysis is off",
    )
    p.add_argument(
        "--no-rate-limits",
        action="store_true",
        help="no per-client rate limits (load tests, a server only you can reach); see docs/web.md",
    )
    p.add_argument(
        "--clock-min-base",
        type=float,
        default=MIN_BASE,
        help=f"shortest clock base in seconds a game may have (default {MIN_BASE}; lower only for tests)",
    )
    p.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])
    p.set_defaults(func=_cmd_serve)

    w = subparsers.add_parser("engine-worker", help="play the engine's moves in the web app's games")
    w.add_argument(
        "--database",
        default=None,
        help="database URL, as for hordes serve (default: $DATABASE_URL, else the SQLite file in --data-dir)",
    )
    data_dir = os.environ.get("HORDES_DATA_DIR", "data")
    w.add_argument("--data-dir", default=data_dir, help="as for hordes serve")
    w.add_argument("--workers", type=int, default=None, help="engine processes (default: up to 2)")
    w.add_argument(
        "--movetime", type=float, default=3.0, help="the engine's seconds per move at most (default 3)"
    )
    w.add_argument(
        "--poll",
        type=float,
        default=5.0,
        help="seconds between sweeps for games waiting for the engine (default 5; on PostgreSQL a "
        "move's notification wakes the worker at once)",
    )
    w.set_defaults(func=_cmd_engine_worker)
