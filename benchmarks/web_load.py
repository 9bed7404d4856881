"""Load test of the web app: many live games over websockets on loopback, human-vs-human moves.

    python benchmarks/web_load.py                 # 100 games, 1 move per second each, for 60 s
    python benchmarks/web_load.py --seconds 10    # a shorter run
    python benchmarks/web_load.py --url http://127.0.0.1:8000   # against a server already running
    python benchmarks/web_load.py --clock 20+0    # clock games: flags, and the clock's error
    python benchmarks/web_load.py --processes 2 --database postgresql   # two servers, one PostgreSQL

Unless --url is given, a `hordes serve` is started on a free 127.0.0.1 port with a temporary data
directory (SQLite) and stopped at the end. With `--database postgresql`, a throwaway PostgreSQL
cluster is started (tests/pg_cluster.py: Debian's initdb and pg_ctl, a temporary directory, a free
port) and `--processes N` servers run on one database of it; the two seats of a game connect to
different processes (White to process i, Black to i+1), so every move reaches the opponent through
the database's LISTEN/NOTIFY. Each game has two websocket clients, one per seat; the
side to move sends a random legal move (from the `dests` the server sent) once per period, so the
whole run is a steady `games x rate` moves per second. A game that ends is replaced by a new one.

Latency is measured from sending a move to receiving the server's `ack` for it, which the server
sends after the move is validated, stored and broadcast to both seats; the watcher latency from
sending it to the opponent's socket (on the other process, with two or more) receiving the move.
With PostgreSQL, the server's CPU per stored move is read from /proc (the cluster's postmaster and
its backends). Each process's resident memory is read from its /metrics before the games are opened
and at the end. Errors are error messages, timeouts (5 s) and lost connections. Only loopback addresses are
accepted as targets.

With `--clock BASE+INC` (seconds) every game is a clock game. Two more things are measured: the
clock's error, the time the server charged a move (from its `turn_started` to the next one) minus
the time the player really took (from receiving the opponent's move to sending its own: the
difference is the network and the server's work, which the server charges, having no lag
compensation); and the flags, which fall by the server's watcher when a side's time runs out (a
base of 20 s at one move a second runs out in about 40 s): how late each flag's status event arrives
after the deadline the server announced.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import json
import os
import random
import statistics
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from websockets.asyncio.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.pg_cluster import Cluster, bin_dir  # the tests' throwaway PostgreSQL
from tests.web.live_server import server_processes  # the same launcher the tests use

LOOPBACK = ("127.0.0.1", "localhost", "::1")
TIMEOUT = 5.0


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    watcher_latencies: list[float] = field(default_factory=list)  # move sent -> the opponent has it
    errors: list[str] = field(default_factory=list)
    games_finished: int = 0
    clock_errors: list[float] = field(default_factory=list)  # charged - true, seconds
    flag_delays: list[float] = field(default_factory=list)  # status event arrival - deadline, seconds
    late_moves: int = 0  # moves that crossed their side's flag (not errors)


def post(base: str, path: str, body: dict[str, Any]) -> Any:
    req = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def pick(state: dict[str, Any], rng: random.Random) -> str | None:
    """A random legal move of the position the server described."""
    moves = [f + t for f, tos in state["dests"].items() for t in tos]
    moves += [sq + sq for sq in state.get("transforms", {})]
    if not moves:
        return None
    move = rng.choice(moves)
    choices = state["promotions"].get(move)
    if choices:
        move += rng.choice(choices).lower().replace("+", "")
    return move


class Seat:
    """One player's websocket; keeps the latest position it was sent."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.state: dict[str, Any] = {}
        self.acks: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.received = time.time()  # when the latest game/move event arrived
        self.arrivals: dict[int, asyncio.Future[float]] = {}  # ply -> when its move frame arrived

    async def listen(self, stats: Stats, count_flags: bool = False) -> None:
        try:
            async for raw in self.ws:
                msg = json.loads(raw)
                kind = msg.get("type")
                if kind == "status" and count_flags and msg.get("termination") == "time forfeit":
                    deadline = (self.state.get("clock") or {}).get("deadline")
                    if deadline:
                        stats.flag_delays.append(time.time() - deadline / 1000)
                if kind in ("game", "move", "status"):
                    self.state.update(msg)
                    self.received = time.time()
                    arrival = self.arrivals.pop(msg.get("ply"), None) if kind == "move" else None
                    if arrival is not None and not arrival.done():
                        arrival.set_result(time.perf_counter())
                elif kind in ("ack", "error"):
                    fut = self.acks.pop(msg.get("ref"), None)
                    if fut is not None and not fut.done():
                        fut.set_result(msg)
                    elif kind == "error":
                        stats.errors.append(f"unsolicited error: {msg}")
        except Exception as exc:
            stats.errors.append(f"connection lost: {exc!r}")


Opened = tuple[dict[str, Seat], list[asyncio.Task[None]]]  # a game's two seats and their listeners


async def open_game(
    bases: list[str], variant: str, stats: Stats, clock: dict[str, float] | None = None
) -> tuple[dict[str, Seat], list[asyncio.Task[None]]]:
    """A new game between two people, both seats connected (the friend claims the invitation):
    White's on `bases[0]`, Black's on `bases[1]` (the same server, or two)."""
    base = bases[0]
    body: dict[str, Any] = {"variant": variant, "opponent": "friend", "color": "white", "clock": clock}
    game = await asyncio.to_thread(post, base, "/api/games", body)
    joined = await asyncio.to_thread(
        post, base, f"/api/games/{game['id']}/join", {"invite": game["invite_token"]}
    )
    tokens = {"white": game["token"], "black": joined["token"]}
    seats: dict[str, Seat] = {}
    tasks = []
    for (color, token), seat_base in zip(tokens.items(), bases, strict=True):  # token in a header
        ws_base = seat_base.replace("http://", "ws://")
        ws = await connect(
            f"{ws_base}/ws/game/{game['id']}", max_size=2**20, additional_headers={"X-Seat-Token": token}
        )
        seats[color] = Seat(ws)
        seats[color].state = json.loads(await ws.recv())
        tasks.append(asyncio.create_task(seats[color].listen(stats, count_flags=color == "white")))
    return seats, tasks


async def close_game(seats: dict[str, Seat], tasks: list[asyncio.Task[None]]) -> None:
    for s in seats.values():
        await s.ws.close()
    for t in tasks:
        t.cancel()


async def play_games(
    bases: list[str],
    variant: str,
    first: Opened,
    rate: float,
    start: float,
    deadline: float,
    stats: Stats,
    seed: int,
    clock: dict[str, float] | None = None,
) -> None:
    """One game slot: play moves at `rate` per second until the deadline, starting new games as needed."""
    rng = random.Random(seed)
    period = 1.0 / rate
    ref = 0
    seats, tasks = first
    next_at = start + rng.random() * period  # spread the games over the period
    try:
        while time.monotonic() < deadline:
            await asyncio.sleep(max(0.0, next_at - time.monotonic()))
            next_at += period
            seat = seats[seats["white"].state["turn"]]
            state = seat.state
            move = pick(state, rng) if state.get("status") == "playing" else None
            if move is None:  # the game is over: replace it
                stats.games_finished += 1
                await close_game(seats, tasks)
                seats, tasks = await open_game(bases, variant, stats, clock)
                continue
            ref += 1
            fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
            seat.acks[ref] = fut
            before = state.get("clock")
            opponent = seats["black" if seat is seats["white"] else "white"]
            arrived: asyncio.Future[float] = asyncio.get_running_loop().create_future()
            opponent.arrivals[state["ply"] + 1] = arrived
            thought = time.time() - seat.received  # since the opponent's move arrived
            t0 = time.perf_counter()
            await seat.ws.send(json.dumps({"type": "move", "uci": move, "ply": state["ply"], "ref": ref}))
            try:
                reply = await asyncio.wait_for(fut, TIMEOUT)
            except TimeoutError:
                stats.errors.append(f"timeout on {move}")
                continue
            if reply["type"] == "error" and clock and reply["error"] in ("time_up", "game_over"):
                # the flag fell as this move was on its way (refused as too late, or after the
                # watcher's verdict): the race a clock game has, not a failure
                stats.late_moves += 1
                continue
            if reply["type"] == "error":
                stats.errors.append(f"{move}: {reply['error']} {reply['message']}")
                continue
            # both seats have the new position once the ack is here (the broadcast comes first)
            stats.latencies.append(time.perf_counter() - t0)
            try:
                stats.watcher_latencies.append(await asyncio.wait_for(arrived, TIMEOUT) - t0)
            except TimeoutError:
                stats.errors.append(f"the opponent never received {move}")
            after = seat.state.get("clock")
            if before and after and before.get("running") and after.get("turn_started"):
                charged = (after["turn_started"] - before["turn_started"]) / 1000
                stats.clock_errors.append(charged - thought)
    finally:
        await close_game(seats, tasks)


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


def scrape(base: str) -> dict[str, float]:
    """A server's unlabelled samples from its /metrics, by name."""
    out: dict[str, float] = {}
    with urllib.request.urlopen(base + "/metrics", timeout=10) as r:
        for line in r.read().decode().splitlines():
            name, _, value = line.partition(" ")
            if line and not line.startswith("#") and "{" not in name:
                out[name] = float(value)
    return out


def resident_mb(sample: dict[str, float]) -> float | None:
    """A server's resident memory in MB (None if its /metrics does not say)."""
    found = sample.get("hordes_process_resident_memory_bytes")
    return None if found is None else round(found / 2**20, 1)


def server_cpu_seconds(postmaster: int) -> float:
    """CPU seconds used so far by a PostgreSQL server: its postmaster with the children that have
    ended (cutime, cstime) and every living child (the backends, which the fixed pools keep open)."""
    tick = os.sysconf("SC_CLK_TCK")

    def fields(pid: str) -> list[str]:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()

    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            f = fields(entry)
        except OSError:
            continue  # ended meanwhile
        if int(entry) == postmaster:
            total += int(f[11]) + int(f[12]) + int(f[13]) + int(f[14])
        elif int(f[1]) == postmaster:
            total += int(f[11]) + int(f[12])
    return total / tick


async def run(
    bases: list[str],
    games: int,
    rate: float,
    seconds: float,
    variant: str,
    clock: dict[str, float] | None = None,
    database_cpu: Callable[[], float] | None = None,
) -> dict[str, Any]:
    stats = Stats()
    before = [await asyncio.to_thread(scrape, b) for b in bases]
    # Set-up (not timed): create the games and connect both seats of each, a few at a time.
    gate = asyncio.Semaphore(10)

    async def opened(i: int) -> Opened:
        async with gate:
            return await open_game(pair(i), variant, stats, clock)

    def pair(i: int) -> list[str]:  # game i: White on process i, Black on the next one
        return [bases[i % len(bases)], bases[(i + 1) % len(bases)]]

    first = await asyncio.gather(*(opened(i) for i in range(games)))
    playing = [await asyncio.to_thread(scrape, b) for b in bases]
    own_cpu = time.process_time()
    db_cpu = database_cpu() if database_cpu else 0.0
    start = time.monotonic()
    deadline = start + seconds
    await asyncio.gather(
        *(
            play_games(pair(i), variant, first[i], rate, start, deadline, stats, i, clock)
            for i in range(games)
        )
    )
    elapsed = time.monotonic() - start
    own_cpu = time.process_time() - own_cpu
    db_cpu = database_cpu() - db_cpu if database_cpu else 0.0
    after = [await asyncio.to_thread(scrape, b) for b in bases]
    # CPU per move stored while the games are played, by process: a measure that depends far less
    # than latency on how busy the machine is.
    cpu_ms = []
    for b, a in zip(playing, after, strict=True):
        key, moves = "hordes_process_cpu_seconds_total", "hordes_moves_stored_total"
        if key in a and key in b and a.get(moves, 0) > b.get(moves, 0):
            cpu_ms.append(round((a[key] - b[key]) * 1000 / (a[moves] - b[moves]), 3))
    stored = sum(
        a.get("hordes_moves_stored_total", 0) - b.get("hordes_moves_stored_total", 0)
        for b, a in zip(playing, after, strict=True)
    )
    db_ms = round(db_cpu * 1000 / stored, 3) if database_cpu and stored > 0 else None
    lat = [x * 1000 for x in stats.latencies]
    seen = [x * 1000 for x in stats.watcher_latencies]
    err = [x * 1000 for x in stats.clock_errors]
    flags = [x * 1000 for x in stats.flag_delays]
    clocked: dict[str, Any] = {}
    if clock:
        clocked = {
            "clock": clock,
            "clock_error_ms": {
                "moves": len(err),
                "mean": round(statistics.fmean(err), 2) if err else None,
                "p50": round(percentile(err, 50), 2),
                "p95": round(percentile(err, 95), 2),
                "max": round(max(err), 2) if err else None,
            },
            "flags": len(flags),
            "late_moves": stats.late_moves,
            "flag_delay_ms": {
                "p50": round(percentile(flags, 50), 2),
                "p95": round(percentile(flags, 95), 2),
                "max": round(max(flags), 2) if flags else None,
            },
        }
    return {
        "games": games,
        "rate_per_game": rate,
        "seconds": round(elapsed, 1),
        "moves": len(lat),
        "moves_per_s": round(len(lat) / elapsed, 1),
        "p50_ms": round(percentile(lat, 50), 2),
        "p95_ms": round(percentile(lat, 95), 2),
        "p99_ms": round(percentile(lat, 99), 2),
        "max_ms": round(max(lat), 2) if lat else None,
        "mean_ms": round(statistics.fmean(lat), 2) if lat else None,
        "watcher_ms": {
            "p50": round(percentile(seen, 50), 2),
            "p95": round(percentile(seen, 95), 2),
            "p99": round(percentile(seen, 99), 2),
            "max": round(max(seen), 2) if seen else None,
        },
        "processes": len(bases),
        "memory_mb_before": [resident_mb(b) for b in before],
        "memory_mb_after": [resident_mb(a) for a in after],
        "cpu_ms_per_stored_move": cpu_ms,
        "load_client_cpu_s": round(own_cpu, 2),
        "database_cpu_ms_per_stored_move": db_ms,
        "games_finished": stats.games_finished,
        "errors": len(stats.errors),
        "first_errors": stats.errors[:5],
        **clocked,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--rate", type=float, default=1.0, help="moves per second in each game")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--variant", default="chess")
    parser.add_argument("--url", help="a running server (loopback only); default: start one")
    parser.add_argument("--clock", help="clock games, BASE+INC in seconds (e.g. 20+0); default untimed")
    parser.add_argument("--processes", type=int, default=1, help="server processes (default 1)")
    parser.add_argument(
        "--database", choices=("sqlite", "postgresql"), default="sqlite",
        help="sqlite (a temporary file; one process) or postgresql (a throwaway cluster)",
    )  # fmt: skip
    args = parser.parse_args()
    clock = None
    if args.clock:
        base_s, _, inc_s = args.clock.partition("+")
        clock = {"base": float(base_s), "increment": float(inc_s or 0)}
    if args.processes < 1 or (args.processes > 1 and args.database == "sqlite" and not args.url):
        parser.error("--processes above 1 needs --database postgresql (SQLite serves one process)")
    if args.url:
        host = urlparse(args.url).hostname or ""
        if host not in LOOPBACK and not host.startswith("127."):
            parser.error("only loopback targets (127.0.0.0/8, localhost, ::1) are allowed")
        result = asyncio.run(
            run([args.url.rstrip("/")], args.games, args.rate, args.seconds, args.variant, clock)
        )
    else:
        with contextlib.ExitStack() as stack:
            data = Path(stack.enter_context(tempfile.TemporaryDirectory()))
            options = ["--no-rate-limits"]
            postmaster: int | None = None  # the throwaway cluster's server, whose CPU is measured
            if args.database == "postgresql":
                programs = bin_dir()
                if programs is None:
                    parser.error("PostgreSQL is not installed (no /usr/lib/postgresql/NN/bin/initdb)")
                cluster = Cluster(programs)
                stack.callback(cluster.stop)
                cluster.start()
                options += ["--database", cluster.create_database("web_load")]
                postmaster = cluster.pid
            started = stack.enter_context(server_processes(args.processes, data, *options))
            bases = [base for _proc, base in started]
            database_cpu = None if postmaster is None else functools.partial(server_cpu_seconds, postmaster)
            result = asyncio.run(
                run(bases, args.games, args.rate, args.seconds, args.variant, clock, database_cpu)
            )
    print(
        f"{result['games']} games x {result['rate_per_game']} moves/s for {result['seconds']} s: "
        f"{result['moves']} moves, {result['moves_per_s']} moves/s; latency p50 {result['p50_ms']} ms, "
        f"p95 {result['p95_ms']} ms, p99 {result['p99_ms']} ms, max {result['max_ms']} ms; "
        f"to the opponent's socket p50 {result['watcher_ms']['p50']} ms, "
        f"p95 {result['watcher_ms']['p95']} ms, p99 {result['watcher_ms']['p99']} ms; "
        f"errors {result['errors']}; memory (MB) per process "
        f"{result['memory_mb_before']} before, {result['memory_mb_after']} after; CPU per stored move "
        f"(ms) per process {result['cpu_ms_per_stored_move']}; the load client's CPU "
        f"{result['load_client_cpu_s']} s"
        + (
            f"; the PostgreSQL server's CPU per stored move {result['database_cpu_ms_per_stored_move']} ms"
            if result["database_cpu_ms_per_stored_move"] is not None
            else ""
        )
    )
    if clock:
        e, f = result["clock_error_ms"], result["flag_delay_ms"]
        print(
            f"clock error (charged - true) over {e['moves']} moves: mean {e['mean']} ms, p50 {e['p50']} ms, "
            f"p95 {e['p95']} ms, max {e['max']} ms; {result['flags']} flags, late by p50 {f['p50']} ms, "
            f"p95 {f['p95']} ms, max {f['max']} ms"
        )
    print(json.dumps(result))
    return 0 if result["errors"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
