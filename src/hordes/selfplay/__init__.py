"""Self-play at scale: games on worker processes or Ray, resumable, written as PGN."""

from hordes.engine.match import Tally
from hordes.selfplay.runner import Progress, SelfplayConfig, SelfplayResult, run_selfplay

__all__ = ["Progress", "SelfplayConfig", "SelfplayResult", "Tally", "run_selfplay"]
