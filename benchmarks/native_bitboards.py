"""What native 64-bit words would give the core (issue 17): the same bitboard kernels compiled by mypyc on
Python ints (as the core is written today) and on `i64`, by CPU time, in one process.

    .venv/bin/python benchmarks/native_bitboards.py

The kernels are in benchmarks/native_bitboards_kernels.py: a set of knights' attacks (shifts and
masks), a rook's attacks by a ray walk through occupancy, and a loop over the set bits of a board.
The script compiles that file with mypyc into a temporary directory (a C compiler is needed), checks
that both forms give the same answers on 2,000 random boards, half of them using bits 62 and 63,
and reports nanoseconds per kernel call, best of 5. Nothing of it is part of the package: it
measures how far the representation issue 17 names ("bitboards that stay native in compiled code")
could take a kernel, not what the engine would gain as a whole.
"""

from __future__ import annotations

import importlib
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

KERNELS = Path(__file__).with_name("native_bitboards_kernels.py")


def compiled() -> object:
    work = Path(tempfile.mkdtemp(prefix="native-bitboards-"))
    shutil.copy(KERNELS, work / KERNELS.name)
    subprocess.run(
        [sys.executable, "-m", "mypyc", KERNELS.name], cwd=work, check=True, capture_output=True, text=True
    )
    sys.path.insert(0, str(work))
    module = importlib.import_module(KERNELS.stem)
    if not str(getattr(module, "__file__", "")).endswith(".so"):
        raise SystemExit("the kernels were not compiled")
    return module


def main() -> None:
    k = compiled()
    rng = random.Random(17)
    boards = [rng.getrandbits(64) & rng.getrandbits(64) for _ in range(1000)]
    boards += [b | (1 << 63) | (1 << 62) for b in boards]  # a piece on g8 and h8: past 62 bits
    words = [k.as_word(b) for b in boards]  # type: ignore[attr-defined]
    print(f"mypyc-compiled kernels, CPU ns per call, best of 5, Python {sys.version.split()[0]}")
    print("| kernel | Python int | i64 | ratio |")
    print("|---|---|---|---|")
    for name, calls in (("knights", len(boards)), ("rook", 64 * len(boards)), ("squares", len(boards))):
        as_int = getattr(k, f"run_{name}_int")
        as_i64 = getattr(k, f"run_{name}_i64")
        if name == "squares":
            same = as_int(boards) == as_i64(words)
        else:
            same = as_int(boards) == k.as_bitboard(as_i64(words))  # type: ignore[attr-defined]
        if not same:
            raise SystemExit(f"{name}: the two forms disagree")
        best = {"int": float("inf"), "i64": float("inf")}
        for _ in range(5):
            for key, fn, data in (("int", as_int, boards), ("i64", as_i64, words)):
                began = time.process_time()
                fn(data)
                best[key] = min(best[key], (time.process_time() - began) / calls)
        as_ns, native_ns = best["int"] * 1e9, best["i64"] * 1e9
        print(f"| {name} | {as_ns:.1f} | {native_ns:.1f} | {as_ns / native_ns:.1f} |")


if __name__ == "__main__":
    main()
