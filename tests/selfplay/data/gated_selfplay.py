"""`hordes selfplay ARGS...` whose games stop starting once games.pgn holds GATE of them.

    python tests/selfplay/data/gated_selfplay.py GATE selfplay chess --out DIR ...

Used by tests/selfplay/test_faults.py to kill or interrupt a driver while games are certainly left:
a `random` player's game does not begin once OUT/games.pgn holds GATE whole records, so however
loaded the machine, the run cannot finish before the test's signal (only the few games already
under way can still end). The waiting worker processes die with their driver, as every worker does.
Everything else is the real command line; the test resumes the run with plain `hordes selfplay`.
"""

from __future__ import annotations

import sys
import threading
from pathlib import Path

from hordes.cli import main
from hordes.core.position import Board
from hordes.engine.players import RandomPlayer
from hordes.selfplay import store

# A safety net only: the test kills the driver (and so its workers) long before this.
WAIT_LIMIT = 600.0


def install_gate(pgn: Path, gate: int) -> None:
    """Make every RandomPlayer (in this process and in the workers forked from it) wait at the start
    of a game while `pgn` holds `gate` or more whole records."""

    def new_game(self: RandomPlayer, board: Board) -> None:
        if len(store.scan_games(pgn).records) >= gate:
            threading.Event().wait(WAIT_LIMIT)  # until the test kills the driver and its workers
            raise RuntimeError(f"gated_selfplay: nobody stopped the run within {WAIT_LIMIT:.0f} s")

    RandomPlayer.new_game = new_game  # type: ignore[method-assign]


if __name__ == "__main__":
    gate, args = int(sys.argv[1]), sys.argv[2:]
    install_gate(Path(args[args.index("--out") + 1]) / store.GAMES_FILE, gate)
    sys.exit(main(args))
