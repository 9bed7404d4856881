"""Build time and peak memory of large boards: an N×N document with every kind of rider.

.venv/bin/python benchmarks/board_size.py              # 18×18, 20×20 and 26×26 (docs/benchmarks.md)
.venv/bin/python benchmarks/board_size.py --sizes 12 26
.venv/bin/python benchmarks/board_size.py --one-path   # without D, A, H, G riders (see below)

For each size a document is written to a temporary directory and loaded in a fresh process (so
tables cached by an earlier size do not hide the cost of the next). "build" is loading the document
and compiling its move generator (what `hordes check` and a UCI `setoption` pay before the first
move); "evaluator" adds the engine's evaluation tables. Peak memory is tracemalloc's, measured in a
second run (tracemalloc slows Python down, so the times come from the first). Then a depth-1 search
and the legal moves of the start position, for a sense of the speed of play. With every rider, W and
D (and F and A ...) riders share lines, so moves are made and tested (compiled.lines_unique);
`--one-path` leaves those riders out, and the fast pin and check generator runs.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.test_board_size import ONE_PATH_RIDERS, RIDERS, every_rider_document  # the tests' documents

WIDTHS = (-8, 9, 13, 9, 7, 12, 11)  # columns of the table; negative: left-aligned


def _measure(path: str) -> dict[str, float]:
    from hordes.core.position import Board
    from hordes.engine.evaluate import Evaluator
    from hordes.engine.search import Limits, Searcher
    from hordes.variants import load_variant

    out: dict[str, float] = {}
    start = time.perf_counter()
    variant = load_variant(path)
    board = Board(variant)
    out["build"] = time.perf_counter() - start
    start = time.perf_counter()
    Evaluator(variant)
    out["evaluator"] = time.perf_counter() - start
    start = time.perf_counter()
    out["moves"] = board.legal_moves.count()
    out["movegen"] = time.perf_counter() - start
    start = time.perf_counter()
    for _ in Searcher(16).search(board, Limits(depth=1)):
        pass
    out["search"] = time.perf_counter() - start
    return out


def _peak(path: str) -> float:
    from hordes.core.position import Board
    from hordes.engine.evaluate import Evaluator
    from hordes.variants import load_variant

    tracemalloc.start()
    variant = load_variant(path)
    Board(variant)
    Evaluator(variant)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


def _row(cells: list[str]) -> str:
    return "".join(c.rjust(w) if w > 0 else c.ljust(-w) for c, w in zip(cells, WIDTHS, strict=True))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[18, 20, 26], help="board sides")
    parser.add_argument("--one-path", action="store_true", help="leave out the D, A, H and G riders")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        kind, path = args.child.split(":", 1)
        print(json.dumps(_measure(path) if kind == "time" else {"peak": _peak(path)}))
        return 0
    heads = ["board", "build s", "evaluator s", "peak MB", "moves", "movegen ms", "depth 1 s"]
    print(_row(heads))
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.sizes:
            path = Path(tmp) / f"riders{n}.md"
            riders = ONE_PATH_RIDERS if args.one_path else RIDERS
            path.write_text(every_rider_document(n, riders), encoding="utf-8")
            row: dict[str, float] = {}
            for kind in ("time", "peak"):
                done = subprocess.run(
                    [sys.executable, __file__, "--child", f"{kind}:{path}"],
                    capture_output=True,
                    text=True,
                    check=False,
                )
                if done.returncode:
                    print(f"{n}x{n}: failed: {done.stderr.strip().splitlines()[-1:]}")
                    break
                row.update(json.loads(done.stdout))
            else:
                cells = [f"{n}x{n}", f"{row['build']:.2f}", f"{row['evaluator']:.2f}", f"{row['peak']:.0f}"]
                cells += [f"{row['moves']:.0f}", f"{row['movegen'] * 1000:.1f}", f"{row['search']:.2f}"]
                print(_row(cells))
    print(f"\npython {sys.version.split()[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
