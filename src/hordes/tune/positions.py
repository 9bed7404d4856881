"""Labelled positions for tuning: quiet positions sampled from game records, with each game's result.

A position is kept when it lies past the first plies of its game, the side to move is not in check,
the game is not over, and it is *quiet*: no capture, promotion or en passant sequence (a short
quiescence search, stand-pat at every node) lifts the side to move above its static evaluation. So
the static score the tuner fits is the score the search would settle on, and a position in the
middle of an exchange (a piece down for one ply) never teaches the fit that a piece is worth nothing.

Reading and sampling run on worker processes (`hordes.selfplay.workers.run_tasks`): a PGN text is cut
into chunks of games, each chunk read and sampled by one task.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from hordes.core import movegen
from hordes.core.position import Board
from hordes.core.rules import Variant
from hordes.engine.evaluate import Evaluator, evaluator
from hordes.errors import HordesError
from hordes.notation.pgn import read_games
from hordes.variants import REGISTRY, load_variant

RESULTS = {"1-0": 1.0, "1/2-1/2": 0.5, "0-1": 0.0}
SQ = movegen.SQ_MASK
TO = movegen.TO_SHIFT
PROMO = movegen.PROMO_SHIFT
FLAGS = movegen.FLAG_SHIFT
QS_PLIES = 6  # quiescence depth of the quiet test; deeper than that the static score stands
GAMES_PER_TASK = 40


@dataclass(frozen=True)
class Position:
    """A position (FEN), the result of the game it comes from for White (1, 0.5 or 0), and that game's
    number in the whole input (from 0, files in sorted order): positions of one game share it."""

    fen: str
    result: float
    game: int = 0


@dataclass(frozen=True)
class SampleOptions:
    skip_plies: int = 8  # opening plies never sampled (books, memorised lines)
    per_game: int = 10  # at most this many positions from one game
    seed: int = 0
    decisive: bool = False  # only won or lost games (a draw by the ply cap teaches little)


@dataclass
class SampleStats:
    games: int = 0  # game records read
    used: int = 0  # games that gave at least one position
    other_variant: int = 0
    broken: int = 0  # records with a PGN error
    unfinished: int = 0  # result '*'
    drawn: int = 0  # drawn games left out (SampleOptions.decisive)
    positions: int = 0
    loud: int = 0  # candidate positions rejected by the quiet test
    variants: set[str] = field(default_factory=set)

    def add(self, other: SampleStats) -> None:
        self.games += other.games
        self.used += other.used
        self.other_variant += other.other_variant
        self.broken += other.broken
        self.unfinished += other.unfinished
        self.drawn += other.drawn
        self.positions += other.positions
        self.loud += other.loud
        self.variants |= other.variants


@dataclass(frozen=True)
class SampleTask:
    variant: str  # a name or a document path (added to the registry so PGN Variant tags resolve)
    text: str  # PGN text of some games
    first_game: int  # number of the chunk's first game in the whole input (seeds the sampling)
    options: SampleOptions


def variant_spec(variant: Variant) -> str:
    """How a worker process finds the variant again: its document path, or its slug."""
    path = Path(variant.source)
    return str(path.resolve()) if path.is_file() else variant.slug


def resolve_variant(spec: str) -> Variant:
    if spec.endswith(".md"):
        return REGISTRY.add_path(Path(spec))
    return load_variant(spec)


# ----- reading ---------------------------------------------------------------------------------------
def pgn_files(source: str | Path) -> list[Path]:
    """A PGN file, or every *.pgn file of a directory (sorted)."""
    path = Path(source)
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix.lower() == ".pgn" and p.is_file())
        if not files:
            raise HordesError(f"--positions: no .pgn files in {source}")
        return files
    if not path.is_file():
        raise HordesError(f"--positions: no file or directory {str(source)!r}")
    return [path]


_TAG_LINE = re.compile(r"^\s*\[")


def split_games(text: str) -> list[str]:
    """Cut PGN text into one text per game: a game starts at a tag line that follows move text."""
    games: list[str] = []
    current: list[str] = []
    in_moves = False
    for line in text.splitlines(keepends=True):
        if _TAG_LINE.match(line):
            if in_moves and current:
                games.append("".join(current))
                current = []
            in_moves = False
        elif line.strip():
            in_moves = True
        current.append(line)
    if "".join(current).strip():
        games.append("".join(current))
    return games


def sample_tasks(
    source: str | Path, variant: Variant, options: SampleOptions, per_task: int = GAMES_PER_TASK
) -> list[SampleTask]:
    spec = variant_spec(variant)
    tasks: list[SampleTask] = []
    number = 0
    for path in pgn_files(source):
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            raise HordesError(f"--positions: cannot read {path}: {exc.strerror}") from None
        games = split_games(text)
        for start in range(0, len(games), per_task):
            chunk = games[start : start + per_task]
            tasks.append(SampleTask(spec, "".join(chunk), number, options))
            number += len(chunk)
    return tasks


# ----- sampling --------------------------------------------------------------------------------------
def sample_chunk(task: SampleTask) -> tuple[list[Position], SampleStats]:
    """Read the games of one chunk and sample quiet positions from those of the variant."""
    variant = resolve_variant(task.variant)
    ev = evaluator(variant)
    stats = SampleStats()
    out: list[Position] = []
    for offset, game in enumerate(read_games(task.text)):
        stats.games += 1
        if game.error is not None:
            stats.broken += 1
            continue
        if game.variant.slug != variant.slug:
            stats.other_variant += 1
            stats.variants.add(game.variant.slug)
            continue
        result = RESULTS.get(game.headers.get("Result", "*"))
        if result is None:
            stats.unfinished += 1
            continue
        if task.options.decisive and result == 0.5:
            stats.drawn += 1
            continue
        board = Board(variant, game.start_fen)
        boards: list[Board] = []
        for ply, node in enumerate(game.mainline()):
            if node.move is None:
                break
            board.push(node.move)
            if ply + 1 >= task.options.skip_plies:
                boards.append(board.copy(stack=False))
        number = task.first_game + offset  # the game's identity: its seed, and its side of a split
        rng = random.Random(task.options.seed * 1_000_003 + number)
        order = list(range(len(boards)))
        rng.shuffle(order)
        taken = 0
        for i in order:
            if taken >= task.options.per_game:
                break
            b = boards[i]
            if b.is_check() or b.outcome() is not None:
                continue
            if not is_quiet(b, ev):
                stats.loud += 1
                continue
            out.append(Position(b.fen(), result, number))
            taken += 1
        if taken:
            stats.used += 1
    stats.positions = len(out)
    return out, stats


def collect_positions(
    source: str | Path,
    variant: Variant,
    options: SampleOptions,
    workers: int = 1,
    ray: str | None = None,
    max_positions: int | None = None,
) -> tuple[list[Position], SampleStats]:
    """Every sampled position of the games in `source` (a PGN file or a directory of them)."""
    from hordes.selfplay.workers import run_tasks

    tasks = sample_tasks(source, variant, options)
    parts: dict[int, list[Position]] = {}
    stats = SampleStats()
    for index, (positions, part_stats) in run_tasks(sample_chunk, tasks, workers, ray):
        parts[index] = positions
        stats.add(part_stats)
    positions = [p for i in sorted(parts) for p in parts[i]]
    if max_positions is not None and len(positions) > max_positions:
        rng = random.Random(options.seed)
        positions = rng.sample(positions, max_positions)
    stats.positions = len(positions)
    return positions, stats


def split_by_game(
    positions: Sequence[Position], fraction: float, seed: int
) -> tuple[list[Position], list[Position]]:
    """(training, held out): about `fraction` of the games, drawn by `seed`, with all their
    positions held out. By game, not by position: positions of one game are near copies with the
    same label, so one on each side would let the held-out error reward memorising the game.
    At least one game is held out when `fraction` > 0 and one game kept to fit; with fewer than
    two games (or `fraction` 0) nothing is held out. Both lists keep the input's order."""
    games = sorted({p.game for p in positions})
    if fraction <= 0 or len(games) < 2:
        return list(positions), []
    count = min(max(1, round(fraction * len(games))), len(games) - 1)
    # A stream of its own, so the split does not shift the --max-positions sample of the same seed.
    held = set(random.Random(f"hordes tune holdout {seed}").sample(games, count))
    return [p for p in positions if p.game not in held], [p for p in positions if p.game in held]


def count_games(positions: Sequence[Position]) -> int:
    return len({p.game for p in positions})


# ----- the quiet test --------------------------------------------------------------------------------
def is_quiet(board: Board, ev: Evaluator) -> bool:
    """True if no capture sequence lifts the side to move above its static score (a null-window
    quiescence search at the static score)."""
    stand = ev.evaluate(board)
    b = board.copy(stack=False)
    return _qsearch(b, ev, stand, stand + 1, 0) <= stand


def _noisy_moves(b: Board, ev: Evaluator) -> list[int]:
    """Captures (most valuable victim first), promotions and en passant captures."""
    mailbox = b.mailbox
    value = ev.value
    keyed: list[tuple[int, int]] = []
    for m in movegen.generate_legal(b):
        frm = m & SQ
        to = m >> TO & SQ
        victim = mailbox[to]
        if victim >= 0 and frm != to:
            keyed.append((value[victim] * 16 - (value[mailbox[frm]] >> 6), m))
        elif m >> PROMO & 63 or m >> FLAGS & movegen.FLAG_EP:
            keyed.append((value[0] * 16, m))
    keyed.sort(reverse=True)
    return [m for _, m in keyed]


def _qsearch(b: Board, ev: Evaluator, alpha: int, beta: int, ply: int) -> int:
    stand = ev.evaluate(b)
    if stand >= beta or ply >= QS_PLIES:
        return stand
    best = stand
    alpha = max(alpha, stand)
    for m in _noisy_moves(b, ev):
        b.push_int(m)
        score = -_qsearch(b, ev, -beta, -alpha, ply + 1)
        b.pop_int()
        if score > best:
            best = score
            if score >= beta:
                return score
            alpha = max(alpha, score)
    return best


def chunked(items: Sequence[Position], size: int) -> Iterator[Sequence[Position]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]
