"""Peak resident memory (VmHWM) of `hordes uci` at a Hash size after one `go movetime` from the
start position: the issue 17 memory measure (goal: at most 64 MB at Hash 16 after 30 s).

.venv/bin/python benchmarks/uci_memory.py                      # Hash 16, movetime 30000 ms, chess
.venv/bin/python benchmarks/uci_memory.py --movetime 5000 --variant orda

Linux only (it reads /proc). The engine is this interpreter's `hordes uci`, so the build it loads.
"""

from __future__ import annotations

import argparse
import subprocess
import sys


def status_kb(pid: int, field: str) -> int:
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        line = next(line for line in f if line.startswith(field + ":"))
    return int(line.split()[1])


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hash", type=int, default=16, help="MB (default 16)")
    parser.add_argument("--movetime", type=int, default=30000, help="ms (default 30000)")
    parser.add_argument("--variant", default="chess")
    args = parser.parse_args()
    cmd = [sys.executable, "-m", "hordes", "uci"]
    engine = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert engine.stdin is not None and engine.stdout is not None

    def send(line: str) -> None:
        assert engine.stdin is not None
        engine.stdin.write(line + "\n")
        engine.stdin.flush()

    def wait_for(prefix: str) -> str:
        assert engine.stdout is not None
        last = ""
        for line in engine.stdout:
            if line.startswith("info depth"):
                last = line.strip()
            if line.startswith(prefix):
                return last
        raise SystemExit(f"the engine stopped before {prefix!r}")

    try:
        send("uci")
        send(f"setoption name Hash value {args.hash}")
        if args.variant != "chess":
            send(f"setoption name UCI_Variant value {args.variant}")
        send("isready")
        wait_for("readyok")
        before = status_kb(engine.pid, "VmHWM")
        send("position startpos")
        send(f"go movetime {args.movetime}")
        last = wait_for("bestmove")
        after = status_kb(engine.pid, "VmHWM")
    finally:
        send("quit")
        engine.wait(30)
    print(f"# {' '.join(last.split()[:10])}")
    print(f"VmHWM before the search {before / 1024:.1f} MB, after {after / 1024:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
