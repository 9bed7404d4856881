"""`/metrics`: this process's figures in Prometheus's text format (version 0.0.4), for a scraper.

Every figure is this process's own (scrape each process at its own port, not through the proxy,
which picks any process): the games it has sockets for, its open sockets, its engine queue, the
moves it stored and how long storing them took. Nothing in it names a game, a player or a token, so
it can be read by anyone the operator lets reach it; it reads no database, so a scrape costs nothing
and still answers while the database is away.

The move latency is a histogram of the time from a human move's arrival at `Live.move` (from the
API or a websocket) to the move being stored and sent to this process's watchers and the bus.
"""

from __future__ import annotations

import bisect
import os
import time
from pathlib import Path

from starlette.requests import Request
from starlette.responses import Response

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
# Upper bounds (seconds) of the move latency histogram's buckets (+Inf is added when written).
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


class Histogram:
    """Counts of observations by upper bound, their sum and count (Prometheus's cumulative buckets
    are summed when written)."""

    def __init__(self, bounds: tuple[float, ...] = LATENCY_BUCKETS) -> None:
        self.bounds = bounds
        self.counts = [0] * (len(bounds) + 1)  # the last: above every bound
        self.sum = 0.0
        self.count = 0

    def observe(self, value: float) -> None:
        self.counts[bisect.bisect_left(self.bounds, value)] += 1
        self.sum += value
        self.count += 1

    def lines(self, name: str) -> list[str]:
        out, running = [], 0
        for bound, n in zip((*self.bounds, None), self.counts, strict=True):
            running += n
            le = "+Inf" if bound is None else repr(bound)
            out.append(f'{name}_bucket{{le="{le}"}} {running}')
        out += [f"{name}_sum {self.sum!r}", f"{name}_count {self.count}"]
        return out


class Metrics:
    """The counters a process keeps as it goes (Live counts its moves here)."""

    def __init__(self) -> None:
        self.started = time.time()
        self.moves_stored = 0  # every move this process stored: human and engine
        self.move_latency = Histogram()

    def stored_move(self) -> None:
        self.moves_stored += 1


def _resident_bytes() -> int | None:
    """This process's resident memory (Linux's /proc; None elsewhere)."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return None
    return pages * os.sysconf("SC_PAGE_SIZE")


def _metric(name: str, kind: str, help_text: str, samples: list[str]) -> list[str]:
    return [f"# HELP {name} {help_text}", f"# TYPE {name} {kind}", *samples]


def render(
    metrics: Metrics,
    game_sockets: dict[str, int],
    lobby_sockets: int,
    engine_waiting: dict[str, int],
) -> str:
    """The text a scrape gets. `game_sockets`: open game sockets by game (only their number is
    written); `engine_waiting`: engine jobs waiting by kind ("game", "analysis")."""
    lines: list[str] = []
    lines += _metric(
        "hordes_live_games", "gauge", "Games with at least one open websocket on this process.",
        [f"hordes_live_games {sum(1 for n in game_sockets.values() if n)}"],
    )  # fmt: skip
    lines += _metric(
        "hordes_open_sockets", "gauge", "Open websockets on this process, by kind.",
        [f'hordes_open_sockets{{kind="game"}} {sum(game_sockets.values())}',
         f'hordes_open_sockets{{kind="lobby"}} {lobby_sockets}'],
    )  # fmt: skip
    lines += _metric(
        "hordes_engine_queue_length", "gauge", "Engine jobs waiting for a worker of this process, by kind.",
        [f'hordes_engine_queue_length{{kind="{kind}"}} {n}' for kind, n in sorted(engine_waiting.items())],
    )  # fmt: skip
    lines += _metric(
        "hordes_moves_stored_total", "counter", "Moves this process stored (human and engine).",
        [f"hordes_moves_stored_total {metrics.moves_stored}"],
    )  # fmt: skip
    lines += _metric(
        "hordes_move_seconds", "histogram",
        "Seconds from a human move's arrival to its being stored and broadcast, on this process.",
        metrics.move_latency.lines("hordes_move_seconds"),
    )  # fmt: skip
    lines += _metric(
        "hordes_process_start_time_seconds", "gauge", "When this process started (Unix time).",
        [f"hordes_process_start_time_seconds {metrics.started!r}"],
    )  # fmt: skip
    lines += _metric(
        "hordes_process_cpu_seconds_total", "counter",
        "CPU seconds this process has used (user and system, all its threads).",
        [f"hordes_process_cpu_seconds_total {time.process_time():.3f}"],
    )  # fmt: skip
    resident = _resident_bytes()
    if resident is not None:
        lines += _metric(
            "hordes_process_resident_memory_bytes", "gauge", "This process's resident memory.",
            [f"hordes_process_resident_memory_bytes {resident}"],
        )  # fmt: skip
    return "\n".join(lines) + "\n"


async def metrics_endpoint(request: Request) -> Response:
    state = request.app.state
    live, lobby, pool = state.live, state.lobby, state.pool
    text = render(
        live.metrics,
        {game: len(group) for game, group in live.sockets.items()},
        lobby.socket_count(),
        {kind: pool.queue.waiting(kind) for kind in ("game", "analysis")},
    )
    return Response(text, media_type=CONTENT_TYPE, headers={"Cache-Control": "no-store"})
