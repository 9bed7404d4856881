"""No process outlives the test session: a pytest plugin (loaded by tests/conftest.py).

At the end of the session each pytest process that runs tests (the only one, or each xdist worker)
lists its descendants still alive, from /proc. It gives them `--process-grace` seconds to exit (a
server's workers may still be on their way out), then kills what is left and fails the run, naming
each process. xdist workers hand their list to the controller, which prints it and fails the run.

Servers that detach from the tests (the throwaway PostgreSQL, tests/pg_cluster.py: `pg_ctl` starts
it as a child of init) are not descendants; a test registers their pids with `watch(pid)` and they
count as if they were.

Not counted: zombies (dead, only not yet reaped) and multiprocessing's resource tracker of the
pytest process itself, which stays until pytest exits and then exits by itself.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest

PROC = Path("/proc")
LEAKS = pytest.StashKey[list[str]]()
_WATCHED: set[int] = set()  # detached processes that must be gone by the end too (`watch`)


def watch(pid: int) -> None:
    """Count `pid`, a process started detached (not our descendant), among those that must not
    outlive the session."""
    _WATCHED.add(pid)


def process_table() -> dict[int, tuple[int, str]]:
    """pid -> (parent pid, state letter) of every process, from /proc (empty where there is none)."""
    table = {}
    for entry in PROC.glob("[0-9]*") if PROC.is_dir() else ():
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # gone meanwhile
            continue
        # "pid (command) state ppid ...": the command may hold spaces and parentheses
        fields = stat[stat.rindex(")") + 2 :].split()
        table[int(entry.name)] = (int(fields[1]), fields[0])
    return table


def descendants(root: int) -> list[int]:
    """The live (not zombie) descendants of `root`, parents before children."""
    table = process_table()
    children: dict[int, list[int]] = {}
    for pid, (ppid, _state) in table.items():
        children.setdefault(ppid, []).append(pid)
    out, todo = [], list(children.get(root, ()))
    while todo:
        pid = todo.pop(0)
        todo.extend(children.get(pid, ()))
        if table[pid][1] != "Z":
            out.append(pid)
    return out


def alive(pid: int) -> bool:
    """Whether `pid` runs (a zombie does not)."""
    try:
        stat = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def describe(pid: int) -> str:
    """`pid` and its command line. A process caught just after its exec began has an empty one for a
    moment (the kernel fills it in later), so an empty read is tried again for up to a second."""
    deadline = time.monotonic() + 1.0
    while True:
        try:
            raw = (PROC / str(pid) / "cmdline").read_bytes()
        except OSError:
            return f"pid {pid}: ?"
        if raw or time.monotonic() >= deadline or not alive(pid):
            cmdline = raw.replace(b"\0", b" ").decode(errors="replace")
            return f"pid {pid}: {cmdline.strip()[:300]}"
        time.sleep(0.01)


def _own_resource_tracker() -> int | None:
    try:
        from multiprocessing import resource_tracker

        pid: int | None = getattr(resource_tracker._resource_tracker, "_pid", None)
        return pid
    except ImportError:
        return None


def survivors(grace: float) -> list[int]:
    """This process's descendants that are still alive after `grace` seconds."""
    deadline = time.monotonic() + grace
    while True:
        left = [p for p in descendants(os.getpid()) if p != _own_resource_tracker()]
        left += [p for p in sorted(_WATCHED) if alive(p) and p not in left]
        if not left or time.monotonic() >= deadline:
            return left
        time.sleep(0.1)


def kill_and_name(pids: list[int]) -> list[str]:
    names = [describe(p) for p in pids]
    for pid in pids:
        with contextlib.suppress(OSError):  # gone meanwhile
            os.kill(pid, signal.SIGKILL)
    return names


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--process-grace",
        type=float,
        default=3.0,
        help="seconds that processes left by the tests get to exit at the end of the session "
        "before they are killed and the run fails (default 3)",
    )


def _is_xdist_controller(config: pytest.Config) -> bool:
    return config.pluginmanager.has_plugin("dsession") and not hasattr(config, "workerinput")


def _report(session: pytest.Session, names: list[str]) -> None:
    lines = [f"{len(names)} process(es) outlived the tests and were killed:", *names]
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write("\n")
        reporter.write_sep("!", "processes left running", red=True)
        for line in lines:
            reporter.write_line(line, red=True)
    else:
        print("\n".join(lines), flush=True)
    session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    config = session.config
    if _is_xdist_controller(config):  # its workers run the tests and check themselves
        leaks = config.stash.get(LEAKS, [])
        if leaks:
            _report(session, leaks)
        return
    if not PROC.is_dir():
        return
    left = survivors(float(config.getoption("--process-grace")))
    if not left:
        return
    names = kill_and_name(left)
    workeroutput: dict[str, Any] | None = getattr(config, "workeroutput", None)
    if workeroutput is not None:
        worker = getattr(config, "workerinput", {}).get("workerid", "?")
        workeroutput["leaked_processes"] = [f"[{worker}] {name}" for name in names]
    _report(session, names)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    leaks = getattr(node, "workeroutput", {}).get("leaked_processes")
    if leaks:
        config = node.config
        config.stash[LEAKS] = [*config.stash.get(LEAKS, []), *leaks]
