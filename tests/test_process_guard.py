"""Issue 13 point 14: no process outlives the suite. A session that leaves a process running is
killed and failed by tests/process_guard.py, with xdist too (each worker checks its own)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.process_guard import PROC, alive, descendants

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(not PROC.is_dir(), reason="needs /proc")

LEAKY = """
import subprocess, sys
from pathlib import Path

def test_leaves_a_process_behind():
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    Path("child.pid").write_text(str(child.pid))
"""

CLEAN = """
import subprocess, sys

def test_waits_for_its_process():
    subprocess.run([sys.executable, "-c", "pass"], check=True)
"""


def run_pytest(tmp_path: Path, test: str, *args: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "test_inner.py").write_text(test)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "src")])}
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"  # a fast start: only the plugins asked for
    command = [sys.executable, "-m", "pytest", "-p", "tests.process_guard", "--process-grace", "0",
               "-p", "no:cacheprovider", "-q", "test_inner.py", *args]  # fmt: skip
    return subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("xdist", [[], ["-p", "xdist", "-n", "1"]], ids=["alone", "xdist"])
def test_a_process_left_behind_is_killed_and_fails_the_run(tmp_path: Path, xdist: list[str]) -> None:
    done = run_pytest(tmp_path, LEAKY, *xdist)
    out = done.stdout + done.stderr
    pid = int((tmp_path / "child.pid").read_text())
    assert done.returncode == 1, out
    assert "outlived the tests and were killed" in out and f"pid {pid}: " in out and "time.sleep(600)" in out
    deadline = time.monotonic() + 30
    while alive(pid):  # killed; its parent, the inner pytest, is gone, so init reaps it
        assert time.monotonic() < deadline, f"process {pid} still runs"
        time.sleep(0.05)


def test_a_clean_session_passes(tmp_path: Path) -> None:
    done = run_pytest(tmp_path, CLEAN)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "outlived" not in done.stdout


def test_descendants_are_found_through_children() -> None:
    # a shell whose own child sleeps: both are descendants of this process
    shell = subprocess.Popen(["/bin/sh", "-c", f"{sys.executable} -c 'import time; time.sleep(60)' & wait"])
    try:
        deadline = time.monotonic() + 30
        while len([p for p in descendants(os.getpid()) if p == shell.pid or p in descendants(shell.pid)]) < 2:
            assert time.monotonic() < deadline, "the shell's child never appeared"
            time.sleep(0.02)
    finally:
        for pid in descendants(shell.pid):
            os.kill(pid, 9)
        shell.kill()
        shell.wait(10)


DETACHED = """
import subprocess, sys
from pathlib import Path
from tests import process_guard

def test_leaves_a_detached_server_behind():
    # as pg_ctl does: the server's parent exits at once, so it is no descendant of pytest
    code = "import subprocess, sys; print(subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)'], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).pid)"
    pid = int(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout)
    Path("child.pid").write_text(str(pid))
    process_guard.watch(pid)
"""


def test_issue15_p1_a_watched_detached_server_left_running_fails_the_run(tmp_path: Path) -> None:
    """The throwaway PostgreSQL (tests/pg_cluster.py) is started detached by pg_ctl: registered
    with `watch`, a server left running still fails the session."""
    done = run_pytest(tmp_path, DETACHED)
    out = done.stdout + done.stderr
    pid = int((tmp_path / "child.pid").read_text())
    assert done.returncode == 1, out
    assert f"pid {pid}: " in out and "time.sleep(600)" in out
    deadline = time.monotonic() + 30
    while alive(pid):
        assert time.monotonic() < deadline, f"process {pid} still runs"
        time.sleep(0.05)
