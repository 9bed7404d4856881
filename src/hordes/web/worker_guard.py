"""Worker processes that die with their parent, however the parent dies (even by SIGKILL).

A killed server runs no cleanup, so its engine workers must notice by themselves. Two ways, both
set up by `die_with_parent` in the worker's initializer:

- Linux: prctl(PR_SET_PDEATHSIG, SIGKILL), so the kernel kills the worker when the thread that
  started it ends (the server's event loop thread, which lives as long as the server).
- Everywhere: a daemon thread that waits on multiprocessing's parent sentinel (a pipe whose other
  end only the parent holds, so it reads end-of-file when the parent is gone) and also checks that
  the parent pid is still the parent, then exits the process at once.

Multiprocessing's resource tracker needs nothing of its own: it exits when the last process holding
its pipe (the server and the workers) is gone.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import threading

PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
CHECK_SECONDS = 1.0  # how often the watchdog also compares the parent pid


def die_with_parent(parent_pid: int) -> None:
    """Make this process exit when `parent_pid`, its parent, is gone."""
    if sys.platform.startswith("linux"):
        _parent_death_signal(signal.SIGKILL)
    if os.getppid() != parent_pid:  # the parent died before the signal was asked for
        os._exit(1)
    threading.Thread(target=_watch, args=(parent_pid,), name="parent-watchdog", daemon=True).start()


def _parent_death_signal(sig: int) -> None:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, int(sig), 0, 0, 0)
    except (OSError, AttributeError):  # no prctl here: the watchdog alone does the job
        pass


def _watch(parent_pid: int) -> None:
    parent = multiprocessing.parent_process()
    sentinel = getattr(parent, "sentinel", None)
    while os.getppid() == parent_pid:
        if sentinel is None:
            threading.Event().wait(CHECK_SECONDS)
        elif multiprocessing.connection.wait([sentinel], timeout=CHECK_SECONDS):
            break
    os._exit(1)
