"""Issue 13 point 9: the engine's worker processes die with the server, even when only the server
gets SIGKILL (it runs no cleanup then: the workers must notice by themselves)."""

from __future__ import annotations

import json
import os
import signal
import time
import urllib.request
from pathlib import Path

import pytest

from tests.process_guard import PROC, alive, descendants, describe
from tests.web.live_server import server_process

pytestmark = pytest.mark.skipif(not PROC.is_dir(), reason="needs /proc")


def test_workers_die_with_the_server(tmp_path: Path) -> None:
    with server_process(tmp_path) as (proc, base):
        body = json.dumps({"variant": "chess", "movetime": 0.05}).encode()
        req = urllib.request.Request(base + "/api/analysis", body, {"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=60) as r:
            assert json.loads(r.read())["depth"] >= 1  # a worker process searched
        started = {pid: describe(pid) for pid in descendants(proc.pid)}
        assert any("spawn_main" in name for name in started.values()), started  # the engine worker
        os.kill(proc.pid, signal.SIGKILL)  # the server alone
        proc.wait(10)
        deadline = time.monotonic() + 30
        while left := [name for pid, name in started.items() if alive(pid)]:
            assert time.monotonic() < deadline, f"still running after the server was killed: {left}"
            time.sleep(0.05)
