"""A job for the engine's worker processes in tests: it holds its worker until the test says so."""

from __future__ import annotations

import os
import time


def hold_until(path: str, seconds: float = 60.0) -> str:
    """Keep this worker busy until the file `path` exists (at most `seconds`, a safety net)."""
    deadline = time.monotonic() + seconds
    while not os.path.exists(path) and time.monotonic() < deadline:
        time.sleep(0.01)
    return "released"
