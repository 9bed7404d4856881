"""A real `hordes serve` in a subprocess on a free loopback port, for the persistence and browser tests.

The server runs in a process group of its own. On exit it is killed with SIGKILL (a crash, not a
clean shutdown), then so is whatever is left of its group: the engine's workers die with the server
by themselves (tests/web/test_workers.py checks that), and the tests must not depend on it either.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _spawn(data_dir: Path, options: tuple[str, ...]) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.pop("DATABASE_URL", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "hordes.cli", "serve", "--port", str(port), "--data-dir", str(data_dir),
         "--engine-workers", "1", "--log-level", "warning", *options],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group, killed whole on exit
    )  # fmt: skip
    return proc, f"http://127.0.0.1:{port}"


def _wait_up(proc: subprocess.Popen[bytes], base: str) -> None:
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(base + "/api/variants", timeout=1).read()
            return
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError(
                    f"server did not start: {proc.stderr.read() if proc.stderr else ''}"
                ) from None
            time.sleep(0.1)


def _crash(proc: subprocess.Popen[bytes]) -> None:
    proc.send_signal(signal.SIGKILL)  # a crash, not a clean shutdown
    proc.wait(10)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)  # anything it started that is still there
    if proc.stderr:
        proc.stderr.close()


@contextmanager
def server_process(data_dir: Path, *options: str) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """`hordes serve [options]` on a free loopback port; yields the process and its base URL."""
    with server_processes(1, data_dir, *options) as started:
        yield started[0]


@contextmanager
def server_processes(
    count: int, data_dir: Path, *options: str
) -> Iterator[list[tuple[subprocess.Popen[bytes], str]]]:
    """`count` processes of `hordes serve [options]`, all started before any is waited for (so that
    they start together: on an empty database they all migrate at once), each on its own port."""
    started: list[tuple[subprocess.Popen[bytes], str]] = []
    try:
        for _ in range(count):
            started.append(_spawn(data_dir, options))
        for proc, base in started:
            _wait_up(proc, base)
        yield started
    finally:
        for proc, _base in started:
            _crash(proc)


@contextmanager
def server(data_dir: Path, *options: str) -> Iterator[str]:
    """`hordes serve [options]` on a free loopback port; yields its base URL; killed on exit."""
    with server_process(data_dir, *options) as (_proc, base):
        yield base


class Log:
    """The server's stderr, read by a thread as it comes, so a test can wait for a line."""

    def __init__(self, stream: Any) -> None:
        self._text = ""
        self._cond = threading.Condition()
        self._thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._thread.start()

    def _read(self, stream: Any) -> None:
        for line in iter(stream.readline, b""):
            with self._cond:
                self._text += line.decode("utf-8", "replace")
                self._cond.notify_all()

    def wait_for(self, needle: str, deadline: float = 30.0) -> str:
        """All the text so far, once it contains `needle` (fails after `deadline` seconds of silence)."""
        end = time.monotonic() + deadline
        with self._cond:
            while needle not in self._text:
                left = end - time.monotonic()
                assert left > 0, f"{needle!r} never reached the server's log:\n{self._text}"
                self._cond.wait(left)
            return self._text


@contextmanager
def logged_server(data_dir: Path, log_level: str = "info") -> Iterator[tuple[str, Log]]:
    """`hordes serve` like `server`, at a chosen log level, with its log readable by the test."""
    port = free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.pop("DATABASE_URL", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "hordes.cli", "serve", "--port", str(port), "--data-dir", str(data_dir),
         "--engine-workers", "1", "--log-level", log_level],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,  # uvicorn writes its access lines to stdout, the rest to stderr
        start_new_session=True,
    )  # fmt: skip
    log = Log(proc.stdout)
    base = f"http://127.0.0.1:{port}"
    try:
        log.wait_for("Uvicorn running on")
        yield base, log
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)


@contextmanager
def engine_worker(database_url: str, *options: str) -> Iterator[Log]:
    """`hordes engine-worker --database URL [options]`, once it is ready; killed (SIGKILL, then its
    process group) on exit. Yields its output, readable by the test."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.pop("DATABASE_URL", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "hordes.cli", "engine-worker", "--database", database_url, "--workers", "1",
         *options],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )  # fmt: skip
    log = Log(proc.stdout)
    try:
        log.wait_for("engine worker ready")
        yield log
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
