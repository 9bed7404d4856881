"""The app factory: `create_app()` builds the Starlette application with its database and engine pool.

The database is migrated when the app is built (so a fresh data directory works at once, and a test
client needs no startup step); the engine's worker processes start with the first engine search.
At startup, games in which the engine is to move get their engine turn again (a restart loses nothing).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import jinja2
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp

from hordes.web import bus, clocks, db, lobby, pages, presence, redact, security, variant_store
from hordes.web.accounts import AccountService
from hordes.web.balance import BalanceRuns
from hordes.web.common import game_error
from hordes.web.engine_pool import EngineBusy, EnginePool
from hordes.web.engine_queue import ANALYSIS_PER_CLIENT, ANALYSIS_TOTAL
from hordes.web.games import GameError, GameService
from hordes.web.live import Live
from hordes.web.ratelimit import RateLimited, RateLimiter
from hordes.web.routes import CHESSGROUNDX_DIR, HERE, routes
from hordes.web.seeks import SeekService
from hordes.web.timeouts import Clock, SystemClock

log = logging.getLogger("hordes.web")


async def _game_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, GameError)
    if request.url.path.startswith("/api/") or request.method != "GET":
        return game_error(exc)
    return pages.error_page(request, exc.status, exc.message)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": "http_error", "message": str(exc.detail)}, status_code=exc.status_code)
    return pages.error_page(request, exc.status_code, str(exc.detail))


async def _too_busy(request: Request, exc: Exception) -> Response:
    """429 / 503 with Retry-After: a rate limit (ratelimit.py) or a full engine queue (engine_queue.py)."""
    assert isinstance(exc, RateLimited | EngineBusy)
    headers = {"Retry-After": str(max(1, int(exc.retry_after)))}
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": exc.code, "message": exc.message}, exc.status, headers=headers)
    response = pages.error_page(request, exc.status, exc.message)
    response.headers.update(headers)
    return response


class _App(Starlette):
    def build_middleware_stack(self) -> ASGIApp:
        # Outermost, so that even a 500 answer gets the security headers (see security.py).
        return security.SecurityMiddleware(super().build_middleware_stack())


def create_app(
    database_url: str | None = None,
    data_dir: str | os.PathLike[str] | None = None,
    engine_workers: int | None = None,
    engine_movetime: float = 3.0,
    base_url: str | None = None,
    bind_url: str = "http://127.0.0.1:8000",
    *,
    rate_limits: bool | RateLimiter = True,
    analysis_per_client: int = ANALYSIS_PER_CLIENT,
    analysis_total: int = ANALYSIS_TOTAL,
    clock: Clock | None = None,
    clock_min_base: float = clocks.MIN_BASE,
    seek_grace: float = lobby.GRACE,
) -> Starlette:
    """The web app. Database: `database_url`, else $DATABASE_URL, else `data_dir`/hordes.sqlite3
    (`data_dir` defaults to ./data). `engine_workers` processes run engine searches (default: up to 2;
    0: none, `hordes engine-worker` processes elsewhere take the engine turns and analysis answers 503);
    `engine_movetime` caps the engine's seconds per move (levels below 8 cap it lower). `base_url` is
    the site's public address: the links it hands out start with it (else with `bind_url`, the address
    it listens on; never with the request's Host header), and it is the only origin that may post.
    `rate_limits`: True for the default per-client limits (ratelimit.py), False for none, or a
    RateLimiter of one's own; `analysis_per_client` and `analysis_total` bound the analysis jobs
    waiting for the engine (engine_queue.py). `clock` is the time of game clocks and their timers
    (timeouts.py; tests give a ManualClock); `clock_min_base` the shortest base in seconds a game may
    be created with (lower only for tests, `hordes serve --clock-min-base`); `seek_grace` the seconds
    a seek's creator may be gone from the lobby (a reload) before their seeks expire (lobby.py)."""
    redact.install()
    url = db.database_url(database_url, data_dir)
    engine = db.make_engine(url)
    db.migrate(engine)
    if not (CHESSGROUNDX_DIR / "chessground.js").exists():
        log.warning(
            "chessgroundx is not installed: run `npm ci` in %s (make run does it)", CHESSGROUNDX_DIR.parent
        )

    clock = clock or SystemClock()
    stored_variants = variant_store.VariantStore(engine)
    variant_store.install(stored_variants)  # stored variant names resolve in this database
    service = GameService(engine, now=clock.now)
    accounts = AccountService(engine)
    pool = EnginePool(engine_workers, analysis_per_client, analysis_total)
    events = bus.make_bus(url)  # the other server processes' watchers (LISTEN/NOTIFY on PostgreSQL)
    live = Live(service, pool, engine_movetime, clock, events)
    seeks = SeekService(engine, service, now=clock.now)
    lobby_hub = lobby.Lobby(
        seeks, clock, grace=seek_grace, bus=bus.Channel(events, "lobby"), presence=live.presence
    )
    balance_runs = BalanceRuns(pool)  # the workshop's quick balance (balance.py)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        redact.install()  # again: the server may have configured its loggers since create_app
        await events.start()
        await live.resume_engine_games()
        await live.resume_clocks()
        await lobby_hub.start()
        heartbeat = asyncio.create_task(presence.keep_renewed(live.presence, live.lapsed, lobby_hub.lapsed))
        try:
            yield
        finally:
            heartbeat.cancel()
            with contextlib.suppress(BaseException):
                await heartbeat
            await lobby_hub.close()
            await balance_runs.close()
            await live.close()
            await events.close()
            pool.shutdown()
            engine.dispose()

    app = _App(
        routes=routes(),
        lifespan=lifespan,
        exception_handlers={
            GameError: _game_error,
            HTTPException: _http_error,
            RateLimited: _too_busy,
            EngineBusy: _too_busy,
        },
    )
    app.state.database_url = url
    app.state.base_url = base_url.rstrip("/") if base_url else None  # the origin checks' (origins.py)
    app.state.link_base = (base_url or bind_url).rstrip("/")  # the links' (common.site_url)
    app.state.db = engine
    app.state.games = service
    app.state.variant_store = stored_variants
    app.state.accounts = accounts
    app.state.pool = pool
    app.state.limiter = (
        rate_limits if isinstance(rate_limits, RateLimiter) else RateLimiter() if rate_limits else None
    )
    app.state.live = live
    app.state.seeks = seeks
    app.state.lobby = lobby_hub
    app.state.balance = balance_runs
    app.state.bus = events
    app.state.clock_min_base = clock_min_base
    app.state.templates = jinja2.Environment(
        loader=jinja2.FileSystemLoader(Path(HERE) / "templates"),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    security.install(app.state.templates)
    return app
