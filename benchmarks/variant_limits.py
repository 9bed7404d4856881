"""What a stored variant document at the web app's limits costs to build, against its estimate.

.venv/bin/python benchmarks/variant_limits.py            # 16x16, 24 kinds, 6 rider atoms each
.venv/bin/python benchmarks/variant_limits.py --atoms 3   # lighter pieces

The document is at every limit of hordes.web.variant_limits at once: the largest board, the most
piece kinds, each kind riding a different combination of `--atoms` of the rider atoms (so no two
share their tables). It is built in a fresh process for the stored table budget and for the core's
own (tables are cached per process, so a second build in the same one would be free), and the CPU
time and the growth of the peak resident memory of that build are printed next to the estimate the
web app refuses documents by (docs/web.md, "Variant documents").
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

SRC = str(Path(__file__).resolve().parents[1] / "src")
sys.path.insert(0, SRC)

from hordes.web.variant_limits import (  # noqa: E402 - after sys.path has the checkout's src
    MAX_COLS,
    MAX_PIECE_KINDS,
    MAX_ROWS,
    MAX_TABLE_BYTES,
    STORED_TABLE_BUDGET,
    estimate_table_bytes,
    rider_directions,
)

ATOMS = ["R", "B", "NN", "AA", "DD", "ZZ", "CC", "GG", "HH"]
LETTERS = [c for c in "ABCDEFGHIJLMNOPQRSTUVWXYZ" if c != "K"]

CHILD = """
import json, resource, sys, time
from hordes.core.compiled import compile_variant, limit_tables
from hordes.variants import parse_variant
variant = parse_variant(sys.stdin.read())
limit_tables(variant, int(sys.argv[1]))
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.process_time()
compile_variant(variant)
cpu = time.process_time() - start
grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
print(json.dumps({"cpu": cpu, "rss_mb": grown / 1024}))
"""


def document(atoms: int) -> tuple[str, list[int]]:
    combos = ["".join(c) for c in itertools.combinations(ATOMS, atoms)]
    kinds = MAX_PIECE_KINDS - 1  # and the king
    specs = {x: combos[i % len(combos)] for i, x in enumerate(LETTERS[:kinds])}
    pieces = "".join(f"    {x}: {{name: {x}, betza: '{b}'}}\n" for x, b in specs.items())
    row = "".join(LETTERS[:MAX_COLS])
    empty = "/".join([str(MAX_COLS)] * (MAX_ROWS - 4))
    setup = f"{row}/K{MAX_COLS - 1}/{empty}/k{MAX_COLS - 1}/{row.lower()} w - - 0 1"
    text = (
        f"---\ntitle: At the limits\nslug: limits\nengine:\n"
        f"  topology: {{type: grid, rows: {MAX_ROWS}, cols: {MAX_COLS}}}\n"
        f"  pieces:\n    K: {{name: King, betza: K, royal: true}}\n{pieces}  setup: {setup}\n---\n"
    )
    directions = [0] + [rider_directions({"betza": b}) for b in specs.values()]
    return text, directions


def build(text: str, budget: int) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [SRC, os.environ.get("PYTHONPATH")]))}
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(budget)],
        input=text,
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    result: dict[str, float] = json.loads(out.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--atoms", type=int, default=6, help="rider atoms per piece kind (default 6)")
    args = parser.parse_args()
    text, directions = document(args.atoms)
    mb = 2**20
    estimate = estimate_table_bytes(MAX_ROWS, MAX_COLS, directions)
    print(f"{MAX_ROWS}x{MAX_COLS}, {len(directions)} kinds, up to {max(directions)} riding directions each")
    print(f"estimate {estimate / mb:.0f} MB (the limit: {MAX_TABLE_BYTES / mb:.0f} MB)")
    for name, budget in (("stored budget", STORED_TABLE_BUDGET), ("core budget", 32 * mb)):
        r = build(text, budget)
        print(f"{name} {budget / mb:.0f} MB: {r['cpu']:.2f} s CPU, peak memory +{r['rss_mb']:.1f} MB")


if __name__ == "__main__":
    main()
