"""Playing strength: hordes against a random mover, a greedy one-ply player, and Debian's
Fairy-Stockfish at Skill Levels 0, 3 and 6 (chess and Orda), plus Hordes of Change self-play balance.

    .venv/bin/python benchmarks/strength.py --games 100 --tc 5+0.05 --concurrency 2
    .venv/bin/python benchmarks/strength.py --only orda-fsf3 --games 20      # one line of the table
    .venv/bin/python benchmarks/strength.py --previous v0.1.0 --only orda-previous chess-previous

`--previous REV` adds `VARIANT-previous` lines: this checkout against the engine of an earlier commit
(a git worktree of REV, run as a UCI subprocess with its own sources).

Each line is an Elo difference with its 95 % error (a sweep is a one-sided bound) from `--games`
games at the stated time control, colours alternating, openings from a random 4-ply book.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

from hordes.engine.client import FAIRY_STOCKFISH
from hordes.engine.match import MatchConfig, TimeControl, run_match, summary


def fsf(skill: int, variant: str) -> str:
    """Debian's Fairy-Stockfish at a Skill Level; the player gives it our export of the variant (no
    VariantPath), and each summary names that ini ("Fairy-Stockfish ini: sha256:...")."""
    return f"{FAIRY_STOCKFISH}:Skill Level={skill},name=fsf-skill{skill}"


def previous_engine(rev: str) -> str:
    """A player spec for the engine of commit `rev`: a detached worktree run as a UCI subprocess."""
    repo = Path(__file__).resolve().parents[1]
    sha = subprocess.run(
        ["git", "-C", str(repo), "rev-parse", "--short", f"{rev}^{{commit}}"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    tree = repo / "build" / f"hordes-previous-{sha}"  # build/ is ignored by git and inside the repository
    if not tree.exists():
        subprocess.run(
            ["git", "-C", str(repo), "worktree", "add", "--detach", str(tree), sha],
            check=True,
            capture_output=True,
        )
    return f"env PYTHONPATH={tree / 'src'} {sys.executable} -m hordes uci:name=hordes-{rev}"


def plan(previous: str | None = None) -> dict[str, tuple[str, str, str]]:
    """name -> (player 1, player 2, variant)."""
    lines: dict[str, tuple[str, str, str]] = {}
    if previous:
        spec = previous_engine(previous)
        for variant in ("chess", "orda", "hordes"):
            lines[f"{variant}-previous"] = ("hordes", spec, variant)
    for variant in ("chess", "orda", "khans", "hordes"):
        lines[f"{variant}-random"] = ("hordes", "random", variant)
        lines[f"{variant}-greedy"] = ("hordes", "greedy", variant)
    if os.access(FAIRY_STOCKFISH, os.X_OK):
        for variant in ("chess", "orda"):
            for skill in (0, 3, 6):
                lines[f"{variant}-fsf{skill}"] = ("hordes", fsf(skill, variant), variant)
    lines["hordes-selfplay"] = ("hordes", "hordes:name=hordes-b", "hordes")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--tc", default="5+0.05")
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--only", nargs="*", help="names of the lines to run (default: all)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--previous", metavar="REV", help="also play against the engine of this commit")
    args = parser.parse_args()
    lines = plan(args.previous)
    names = args.only or list(lines)
    print(f"# strength: {args.games} games per line, tc {args.tc}, {time.strftime('%Y-%m-%d %H:%M')}")
    for name in names:
        p1, p2, variant = lines[name]
        config = MatchConfig(
            p1,
            p2,
            variant,
            args.games,
            tc=TimeControl.parse(args.tc),
            concurrency=args.concurrency,
            seed=args.seed,
        )
        start = time.perf_counter()
        result = run_match(config)
        print(f"## {name} ({time.perf_counter() - start:.0f} s)")
        failures = sum(1 for g in result.games if g.termination == "engine failure")
        if failures:
            print(f"WARNING: {failures} games ended by an engine failure; this line is not a strength figure")
        print(summary(config, result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
