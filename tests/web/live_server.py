"""A real `hordes serve` in a subprocess on a free loopback port, for the persistence and browser tests."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def server(data_dir: Path) -> Iterator[str]:
    """`hordes serve` on a free loopback port; yields its base URL; killed (SIGKILL) on exit."""
    port = free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.pop("DATABASE_URL", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "hordes.cli", "serve", "--port", str(port), "--data-dir", str(data_dir),
         "--engine-workers", "1", "--log-level", "warning"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(base + "/api/variants", timeout=1).read()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(
                        f"server did not start: {proc.stderr.read() if proc.stderr else ''}"
                    ) from None
                time.sleep(0.1)
        yield base
    finally:
        proc.send_signal(signal.SIGKILL)  # a crash, not a clean shutdown
        proc.wait(10)
