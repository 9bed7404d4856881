"""Self-play runs: plan the games, skip the ones already on disk, spread the rest, write each as it ends.

    from hordes.selfplay import SelfplayConfig, run_selfplay
    result = run_selfplay(SelfplayConfig("orda", games=200, out=Path("runs/orda"), workers=2))

The same call with the same `out` resumes an interrupted run, or extends a finished one when
`games` is larger; a different variant, player, clock, seed or book is refused.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from hordes.engine.levels import MAX_LEVEL
from hordes.engine.match import GameResult, Opening, Tally, TimeControl, play_game
from hordes.engine.players import HordesPlayer, parse_player
from hordes.errors import HordesError
from hordes.selfplay import store
from hordes.selfplay.plan import GamePlan, plan_jobs
from hordes.selfplay.workers import run_tasks
from hordes.variants import load_variant

DEFAULT_TC = TimeControl(2, 0.02)


@dataclass
class SelfplayConfig:
    variant: str
    games: int  # the run's size: games numbered 1..games
    out: Path
    player: str = "hordes"
    opponent: str | None = None  # None: the player against itself
    tc: TimeControl | None = DEFAULT_TC  # None: no clock (give the players depth or node limits)
    book_plies: int = 4
    openings: list[Opening] | None = None  # None: a random book of `book_plies`, one per game
    max_plies: int = 400  # adjudicated a draw beyond this
    time_margin: float = 0.5
    seed: int | None = None  # None: a new run draws one; a resumed run keeps its own
    workers: int = 1
    ray: str | None = None  # local, auto or a cluster address


def record_game(tally: Tally, game_id: int, result: str, termination: str) -> None:
    """Add a self-play game to the tally; player 1 is the player under test, White in odd games."""
    player_white = game_id % 2 == 1  # as plan_jobs assigns colours
    decisive = result in ("1-0", "0-1")
    score = (1.0 if (result == "1-0") == player_white else 0.0) if decisive else 0.5
    tally.record(result, score, termination)


@dataclass
class Progress:
    target: int
    tally: Tally
    played: int  # games played by this call
    elapsed: float  # seconds since this call started playing

    @property
    def done(self) -> int:
        return self.tally.games

    @property
    def games_per_hour(self) -> float:
        return 3600 * self.played / self.elapsed if self.elapsed > 0 else 0.0


@dataclass
class SelfplayResult:
    out: Path
    pgn: Path
    plan: GamePlan
    target: int
    tally: Tally  # every finished game numbered 1..target, kept ones included
    played: int
    kept: int  # finished before this call
    wall_time: float
    notes: list[str] = field(default_factory=list)
    inis: set[str] = field(default_factory=set)  # the Fairy-Stockfish inis the games of this call used

    @property
    def games(self) -> int:
        return self.tally.games

    @property
    def games_per_hour(self) -> float:
        return 3600 * self.played / self.wall_time if self.wall_time > 0 else 0.0


GameCallback = Callable[[int, GameResult, Progress], None]


def _version() -> str:
    from hordes import __version__

    return __version__


def plan_of(config: SelfplayConfig, seed: int) -> GamePlan:
    return GamePlan(
        variant=load_variant(config.variant).slug,
        player=config.player,
        opponent=config.opponent or config.player,
        tc=config.tc,
        seed=seed,
        book_plies=config.book_plies if config.openings is None else 0,
        openings=None if config.openings is None else tuple(config.openings),
        max_plies=config.max_plies,
        time_margin=config.time_margin,
    )


def _validate(config: SelfplayConfig) -> None:
    if config.games < 1:
        raise HordesError("--games must be at least 1")
    if config.workers < 1:
        raise HordesError("--workers must be at least 1")
    if config.max_plies < 1:
        raise HordesError("--max-plies must be at least 1")
    if config.book_plies < 0:
        raise HordesError("--book-plies must not be negative")
    if config.openings is not None and not config.openings:
        raise HordesError("--openings: no openings")
    for spec in {config.player, config.opponent or config.player}:
        player = parse_player(spec)  # a bad spec fails here, before any game starts
        player.close()
        unbounded = (
            isinstance(player, HordesPlayer) and player.fixed is None and player.level.number == MAX_LEVEL
        )
        if config.tc is None and unbounded:
            raise HordesError(
                f"--tc none: player {spec!r} has no depth, nodes or movetime limit and would think "
                f"forever; give one, e.g. {spec.split(':')[0]}:depth=3"
            )


def run_selfplay(config: SelfplayConfig, on_game: GameCallback | None = None) -> SelfplayResult:
    """Play (or finish, or extend) the run in `config.out`; `on_game` is called after each game is
    on disk, with its number, the game and the progress so far."""
    _validate(config)
    out = config.out
    out.mkdir(parents=True, exist_ok=True)
    with store.locked(out):
        return _run_locked(config, out, on_game)


def _run_locked(config: SelfplayConfig, out: Path, on_game: GameCallback | None) -> SelfplayResult:
    notes: list[str] = []
    stored = store.read_run(out)
    if stored is None:
        seed = config.seed if config.seed is not None else random.getrandbits(31)
        plan = plan_of(config, seed)
        if (out / store.GAMES_FILE).exists():
            raise HordesError(f"{out}: holds {store.GAMES_FILE} but no {store.RUN_FILE}; use another --out")
        store.write_run(out, plan, config.games, _version())
    else:
        plan = plan_of(config, config.seed if config.seed is not None else stored.plan.seed)
        store.check_same_plan(out, stored.plan, plan)
        if stored.hordes_version != _version():
            notes.append(f"this run was started with hordes {stored.hordes_version}, now {_version()}")
        if config.games > stored.games:
            store.write_run(out, plan, config.games, stored.hordes_version)

    pgn = out / store.GAMES_FILE
    on_disk = store.scan_games(pgn)
    if on_disk.torn:
        notes.append(f"dropped an unfinished record at the end of {pgn}; that game is played again")
        store.cut_torn_tail(pgn, on_disk)
    tally = Tally()
    finished: set[int] = set()
    for record in on_disk.records:
        finished.add(record.game_id)
        if record.game_id <= config.games:
            record_game(tally, record.game_id, record.result, record.termination)
    beyond = sum(1 for k in finished if k > config.games)
    if beyond:
        notes.append(f"{pgn} also holds {beyond} games numbered above {config.games}")
    kept = tally.games
    todo = [k for k in range(1, config.games + 1) if k not in finished]
    jobs = plan_jobs(plan, todo)

    started = time.perf_counter()
    played = 0
    inis: set[str] = set()
    writer = store.GamesWriter(pgn)
    try:
        for index, game in run_tasks(play_game, jobs, config.workers, config.ray):
            game_id = jobs[index].round
            writer.append(store.game_record(game, game_id, len(jobs[index].opening.moves)))
            played += 1
            inis.update(ini for ini in game.inis if ini)
            record_game(tally, game_id, game.result, game.termination)
            if on_game is not None:
                on_game(game_id, game, Progress(config.games, tally, played, time.perf_counter() - started))
    finally:
        writer.close()
    return SelfplayResult(
        out, pgn, plan, config.games, tally, played, kept, time.perf_counter() - started, notes, inis
    )


# ----- reporting -----------------------------------------------------------------------------------
def progress_line(game_id: int, game: GameResult, progress: Progress) -> str:
    t = progress.tally
    return (
        f"[{progress.done}/{progress.target}] White {t.white_wins}  Black {t.black_wins}  draws {t.draws}"
        f"  {progress.games_per_hour:,.0f} games/h"
    )


def print_progress(stream: TextIO = sys.stderr) -> GameCallback:
    """A live progress line: rewritten in place on a terminal, one line per game otherwise."""
    tty = stream.isatty()

    def show(game_id: int, game: GameResult, progress: Progress) -> None:
        line = progress_line(game_id, game, progress)
        if tty:
            stream.write("\r\x1b[K" + line)
        else:
            stream.write(f"{line}  (game {game_id}: {game.result}, {game.termination})\n")
        stream.flush()

    return show


def summary(result: SelfplayResult) -> str:
    plan, t = result.plan, result.tally
    players = plan.player if plan.player == plan.opponent else f"{plan.player} vs {plan.opponent}"
    tc = store.tc_text(plan.tc)
    kept = f", {result.kept} kept from before" if result.kept else ""
    lines = [f"{plan.variant} self-play, {players}, tc {tc}: {t.games}/{result.target} games{kept}"]
    if t.games:
        pct = [100 * n / t.games for n in (t.white_wins, t.black_wins, t.draws)]
        lines.append(
            f"White won {t.white_wins} ({pct[0]:.1f} %), Black won {t.black_wins} ({pct[1]:.1f} %), "
            f"draws {t.draws} ({pct[2]:.1f} %)"
        )
        if plan.player != plan.opponent:
            lines.append(f"Score of {plan.player}: {t.wins + t.draws / 2:g}/{t.games}")
        lines.append("Endings: " + ", ".join(f"{k} {v}" for k, v in sorted(t.terminations.items())))
    lines.append(
        f"Played {result.played} games in {_duration(result.wall_time)}"
        f" ({result.games_per_hour:,.0f} games/hour)"
    )
    if result.inis:
        lines.append("Fairy-Stockfish ini: " + ", ".join(sorted(result.inis)))
    lines.append(f"PGN: {result.pgn}")
    return "\n".join(lines)


def _duration(seconds: float) -> str:
    minutes, secs = divmod(seconds, 60)
    hours, minutes = divmod(int(minutes), 60)
    if hours:
        return f"{hours}h{minutes:02d}m{secs:02.0f}s"
    if minutes:
        return f"{minutes}m{secs:04.1f}s"
    return f"{secs:.1f}s"
