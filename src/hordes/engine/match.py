"""Engine-versus-engine matches: openings, clocks, adjudication, Elo with error bars, SPRT, PGN.

Games are played in pairs from the same opening with colours swapped, so neither player profits from
a lopsided opening. Each game runs in its own worker process when `concurrency` > 1 (the in-process
engine is pure Python, so threads would share one core), and starts its own engine processes, so a
crash loses one game, never the match.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from hordes.core import movegen
from hordes.core.position import Board
from hordes.engine.client import EngineError
from hordes.engine.players import Clock, Player, parse_player
from hordes.errors import HordesError, IllegalMoveError
from hordes.variants import Variant, load_variant

PLY_LIMIT = "adjudication: ply limit"  # the ending of a game stopped at the match's ply cap


# ----- configuration -------------------------------------------------------------------------------
@dataclass(frozen=True)
class TimeControl:
    base: float  # seconds per game
    inc: float = 0.0  # seconds added after each move

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """`10+0.1` (seconds + increment), `40` or `0:30+1` (minutes:seconds)."""
        base_text, _, inc_text = text.partition("+")
        try:
            if ":" in base_text:
                minutes, seconds = base_text.split(":", 1)
                base = 60 * float(minutes) + float(seconds)
            else:
                base = float(base_text)
            inc = float(inc_text) if inc_text else 0.0
        except ValueError:
            raise HordesError(f"time control {text!r}: expected SECONDS[+INCREMENT], e.g. 10+0.1") from None
        if base <= 0 or inc < 0:
            raise HordesError(
                f"time control {text!r}: the base must be positive and the increment not negative"
            )
        return cls(base, inc)

    def __str__(self) -> str:
        return f"{self.base:g}+{self.inc:g}"


@dataclass(frozen=True)
class Opening:
    fen: str | None  # None: the variant's start position
    moves: tuple[str, ...] = ()
    label: str = ""


@dataclass(frozen=True)
class Sprt:
    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    @property
    def bounds(self) -> tuple[float, float]:
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)


@dataclass
class MatchConfig:
    player1: str
    player2: str
    variant: str = "chess"
    games: int = 10
    tc: TimeControl | None = field(default_factory=lambda: TimeControl(10, 0.1))
    concurrency: int = 1
    openings: list[Opening] | None = None  # None: a random short book
    book_plies: int = 4
    max_plies: int = 400  # adjudicated a draw beyond this
    time_margin: float = 0.5  # overrun tolerated before a loss on time (pipes, a loaded machine)
    sprt: Sprt | None = None
    seed: int | None = None
    pgn: Path | None = None


@dataclass
class GameResult:
    round: int
    white: str
    black: str
    result: str  # 1-0, 0-1, 1/2-1/2
    termination: str
    start_fen: str
    moves: list[str]
    variant: str
    player1_white: bool
    tc: str = "-"
    error: str = ""
    inis: tuple[str, str] = ("", "")  # White's and Black's Fairy-Stockfish ini (see UciPlayer.ini)

    @property
    def score1(self) -> float:
        """Player 1's points in this game."""
        if self.result == "1/2-1/2":
            return 0.5
        white_won = self.result == "1-0"
        return 1.0 if white_won == self.player1_white else 0.0


# ----- openings ------------------------------------------------------------------------------------
def load_openings(path: str | Path, variant: str) -> list[Opening]:
    """One opening per line: a FEN, or UCI moves from the start position. `#` starts a comment."""
    v = load_variant(variant)
    out: list[Opening] = []
    for number, raw in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        try:
            if "/" in line:
                board = Board(v, line)
                out.append(Opening(line, (), f"{path}:{number}"))
            else:
                board = Board(v)
                moves = tuple(line.split())
                for text in moves:
                    board.push_uci(text)
                out.append(Opening(None, moves, f"{path}:{number}"))
        except HordesError as exc:
            raise HordesError(f"{path}:{number}: {exc}") from None
        if board.outcome() is not None:
            raise HordesError(f"{path}:{number}: the game is already over in this opening")
    if not out:
        raise HordesError(f"{path}: no openings in the file")
    return out


def random_book(variant: str, count: int, plies: int, seed: int | None) -> list[Opening]:
    """Random legal move sequences of `plies` moves that leave the game open."""
    rng = random.Random(seed)
    v = load_variant(variant)
    out: list[Opening] = []
    attempts = 0
    while len(out) < count and attempts < count * 50:
        attempts += 1
        board = Board(v)
        moves = []
        for _ in range(plies):
            legal = movegen.generate_legal(board)
            if not legal:
                break
            m = rng.choice(legal)
            moves.append(board.uci(board.int_to_move(m)))
            board.push_int(m)
        if board.outcome() is None:
            out.append(Opening(None, tuple(moves), "random book"))
    return out


# ----- one game ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class GameJob:
    round: int
    white_spec: str
    black_spec: str
    player1_white: bool
    variant: str
    opening: Opening
    tc: TimeControl | None
    max_plies: int
    time_margin: float
    seed: int


def play_game(job: GameJob, variant: Variant | None = None) -> GameResult:
    """Play one game to its end (or adjudication). Engine failures lose the game for that engine.
    `variant`: the rules, when they are no document `load_variant` finds by the job's name (a draft
    of the web app's workshop); by default the variant named by `job.variant`."""
    variant = variant if variant is not None else load_variant(job.variant)
    board = Board(variant, job.opening.fen)
    for text in job.opening.moves:
        board.push_uci(text)
    start_fen = Board(variant, job.opening.fen).fen()
    players: list[Player] = []
    names = ["?", "?"]
    inis = ["", ""]
    moves = list(job.opening.moves)
    tc = job.tc
    clock = [tc.base, tc.base] if tc else [0.0, 0.0]

    def finish(result: str, termination: str, error: str = "") -> GameResult:
        return GameResult(
            job.round, names[0], names[1], result, termination, start_fen, moves, variant.slug,
            job.player1_white, str(tc) if tc else "-", error, (inis[0], inis[1]),
        )  # fmt: skip

    try:
        for color, spec in enumerate((job.white_spec, job.black_spec)):
            player = parse_player(spec, seed=job.seed * 2 + color)
            players.append(player)
            names[color] = player.name
        for color, player in enumerate(players):
            try:
                player.new_game(board)
            except (EngineError, HordesError) as exc:
                return finish("0-1" if color == 0 else "1-0", "engine failure", f"{names[color]}: {exc}")
            inis[color] = getattr(player, "ini", "")
        while True:
            out = board.outcome()
            if out is not None:
                return finish(out.result(), out.termination.value)
            if len(moves) >= job.max_plies:
                return finish("1/2-1/2", PLY_LIMIT)
            us = board.side
            loss = "0-1" if us == 0 else "1-0"
            clk = Clock(clock[0], clock[1], tc.inc, tc.inc) if tc else Clock()
            started = time.perf_counter()
            try:
                move = players[us].move(board, clk)
            except IllegalMoveError as exc:
                return finish(loss, "illegal move", f"{names[us]}: {exc}")
            except (EngineError, HordesError) as exc:
                return finish(loss, "engine failure", f"{names[us]}: {exc}")
            if tc:
                clock[us] -= time.perf_counter() - started
                if clock[us] < -job.time_margin:
                    return finish(loss, "time forfeit", f"{names[us]} overran by {-clock[us]:.2f}s")
                clock[us] = max(clock[us], 0.0) + tc.inc
            if not board.is_legal(move):
                return finish(loss, "illegal move", f"{names[us]}: {board.uci(move)} in {board.fen()}")
            moves.append(board.uci(move))
            board.push(move)
    finally:
        for player in players:
            with contextlib.suppress(Exception):  # closing a broken engine must not hide the result
                player.close()


# ----- statistics ----------------------------------------------------------------------------------
def elo_from_score(score: float) -> float:
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def elo_estimate(wins: int, draws: int, losses: int) -> tuple[float, float]:
    """(Elo difference, half-width of its 95 % confidence interval) from a trinomial result.

    A clean sweep (or whitewash) has no finite estimate: (±inf, inf); see `elo_bound`."""
    n = wins + draws + losses
    if n == 0:
        return 0.0, math.inf
    score = (wins + draws / 2) / n
    if score in (0.0, 1.0):
        return (math.inf if score == 1 else -math.inf), math.inf
    var = (wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score**2) / n
    stderr = math.sqrt(var / n)
    lo = elo_from_score(score - 1.959964 * stderr)
    hi = elo_from_score(score + 1.959964 * stderr)
    return elo_from_score(score), (hi - lo) / 2


def elo_interval(wins: int, draws: int, losses: int) -> tuple[float, float]:
    """The 95 % confidence interval of the Elo difference (an end is ±inf where the score's interval
    reaches 0 or 1: lopsided results over few games bound the difference on one side only)."""
    n = wins + draws + losses
    if n == 0:
        return -math.inf, math.inf
    score = (wins + draws / 2) / n
    var = (wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score**2) / n
    half = 1.959964 * math.sqrt(var / n)
    lo, hi = score - half, score + half
    return (
        -math.inf if lo <= 0 else elo_from_score(lo),
        math.inf if hi >= 1 else elo_from_score(hi),
    )


def elo_bound(games: int) -> float:
    """The 95 % lower bound of the Elo difference after winning every one of `games` (Wilson interval)."""
    z2 = 1.959964**2
    return elo_from_score(games / (games + z2))


def sprt_llr(wins: int, draws: int, losses: int, elo0: float, elo1: float) -> float:
    """Log-likelihood ratio of H1 (elo1) against H0 (elo0), the trinomial approximation cutechess uses."""
    n = wins + draws + losses
    if n == 0 or wins == 0 or losses == 0:
        return 0.0
    w, d = wins / n, draws / n
    score = w + d / 2
    m2 = w + d / 4
    var = m2 - score * score
    if var <= 0:
        return 0.0
    s0 = 1 / (1 + 10 ** (-elo0 / 400))
    s1 = 1 / (1 + 10 ** (-elo1 / 400))
    return (s1 - s0) * (2 * score - s0 - s1) / (2 * var / n)


@dataclass
class Tally:
    """Player 1's wins, draws and losses; White's and Black's wins; and, when games carry one, how
    they ended. A match adds GameResults; self-play adds records read back from its PGN."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    white_wins: int = 0
    black_wins: int = 0
    terminations: dict[str, int] = field(default_factory=dict)

    def add(self, game: GameResult) -> None:
        self.record(game.result, game.score1)

    def record(self, result: str, score1: float, termination: str | None = None) -> None:
        """One game: its result ("1-0", "0-1", else a draw) and player 1's score in it."""
        if score1 == 1:
            self.wins += 1
        elif score1 == 0:
            self.losses += 1
        else:
            self.draws += 1
        if result == "1-0":
            self.white_wins += 1
        elif result == "0-1":
            self.black_wins += 1
        if termination is not None:
            self.terminations[termination] = self.terminations.get(termination, 0) + 1

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0


# ----- PGN -----------------------------------------------------------------------------------------
def game_pgn(game: GameResult, event: str = "hordes match") -> str:
    """The game as PGN, in SAN when hordes.notation is installed, else with UCI moves (noted in a tag)."""
    headers = {
        "Event": event,
        "Site": "hordes",
        "Date": time.strftime("%Y.%m.%d"),
        "Round": str(game.round),
        "White": game.white,
        "Black": game.black,
        "Result": game.result,
        "Termination": game.termination,
        "TimeControl": game.tc,
        "PlyCount": str(len(game.moves)),
    }
    if game.error:
        headers["Annotator"] = game.error[:200]
    headers.update(ini_headers(game))
    variant = load_variant(game.variant)
    board = Board(variant, game.start_fen)
    for text in game.moves:
        board.push_uci(text)
    san_text = _san_pgn(board, headers)
    if san_text is not None:
        return san_text
    # Fallback without the notation layer: moves in UCI coordinates.
    headers["Variant"] = variant.title
    headers["Notation"] = "UCI coordinates"
    if game.start_fen != variant.start_fen:
        headers["FEN"] = game.start_fen
        headers["SetUp"] = "1"
    tags = "\n".join(f'[{k} "{v}"]' for k, v in headers.items())
    tokens = []
    board = Board(variant, game.start_fen)
    for i, text in enumerate(game.moves):
        if board.side == 0 or i == 0:
            tokens.append(f"{board.fullmove}." if board.side == 0 else f"{board.fullmove}...")
        tokens.append(text)
        board.push_uci(text)
    tokens.append(game.result)
    lines, line = [], ""
    for t in tokens:
        if len(line) + len(t) + 1 > 79:
            lines.append(line)
            line = t
        else:
            line = f"{line} {t}" if line else t
    lines.append(line)
    return tags + "\n\n" + "\n".join(lines) + "\n"


def ini_headers(game: GameResult) -> dict[str, str]:
    """`WhiteIni` / `BlackIni`: the Fairy-Stockfish ini each engine played from, where one did."""
    return {f"{side}Ini": ini for side, ini in zip(("White", "Black"), game.inis, strict=True) if ini}


def _san_pgn(board: Board, headers: dict[str, str]) -> str | None:
    try:
        from hordes.notation import Game, write_game
    except ImportError:  # the notation layer is optional for the engine; fall back to UCI moves
        return None
    return write_game(Game.from_board(board, headers))


# ----- the match -----------------------------------------------------------------------------------
def schedule(config: MatchConfig) -> list[GameJob]:
    seed = config.seed if config.seed is not None else random.getrandbits(32)
    pairs = (config.games + 1) // 2
    if config.openings is not None:
        book = [config.openings[i % len(config.openings)] for i in range(pairs)]
    else:
        book = random_book(config.variant, pairs, config.book_plies, seed)
        if not book:
            raise HordesError(
                f"could not build a random book of {config.book_plies} plies for {config.variant}"
            )
        book = [book[i % len(book)] for i in range(pairs)]
    jobs = []
    for g in range(config.games):
        p1_white = g % 2 == 0
        white, black = (config.player1, config.player2) if p1_white else (config.player2, config.player1)
        jobs.append(
            GameJob(
                g + 1,
                white,
                black,
                p1_white,
                config.variant,
                book[g // 2],
                config.tc,
                config.max_plies,
                config.time_margin,
                seed + g,
            )
        )
    return jobs


@dataclass
class MatchResult:
    games: list[GameResult]
    tally: Tally
    elo: float
    error: float
    llr: float | None = None
    sprt_decision: str | None = None


def run_match(
    config: MatchConfig, on_game: Callable[[GameResult, Tally, float | None], None] | None = None
) -> MatchResult:
    """Play the match; `on_game` is called after each game (for progress output)."""
    for spec in (config.player1, config.player2):
        parse_player(spec).close()  # fail early on a bad spec, before any game starts
    jobs = schedule(config)
    tally = Tally()
    results: list[GameResult] = []
    llr: float | None = None
    decision: str | None = None
    pgn_out: TextIO | None = config.pgn.open("w", encoding="utf-8") if config.pgn else None
    try:
        for game in _results(jobs, config.concurrency):
            results.append(game)
            tally.add(game)
            if pgn_out is not None:
                pgn_out.write(game_pgn(game) + "\n")
                pgn_out.flush()
            if config.sprt is not None:
                llr = sprt_llr(tally.wins, tally.draws, tally.losses, config.sprt.elo0, config.sprt.elo1)
                lower, upper = config.sprt.bounds
                if llr >= upper:
                    decision = "H1 accepted"
                elif llr <= lower:
                    decision = "H0 accepted"
            if on_game is not None:
                on_game(game, tally, llr)
            if decision is not None:
                break
    finally:
        if pgn_out is not None:
            pgn_out.close()
    elo, err = elo_estimate(tally.wins, tally.draws, tally.losses)
    results.sort(key=lambda g: g.round)
    return MatchResult(results, tally, elo, err, llr, decision)


def _results(jobs: list[GameJob], concurrency: int) -> Iterator[GameResult]:
    if concurrency <= 1:
        for job in jobs:
            yield play_game(job)
        return
    pool = cf.ProcessPoolExecutor(max_workers=concurrency)
    try:
        futures = [pool.submit(play_game, job) for job in jobs]
        for future in cf.as_completed(futures):
            yield future.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def progress_line(config: MatchConfig, game: GameResult, tally: Tally, llr: float | None) -> str:
    elo, err = elo_estimate(tally.wins, tally.draws, tally.losses)
    text = (
        f"[{tally.games}/{config.games}] {config.player1} {tally.wins + tally.draws / 2:g} - "
        f"{tally.losses + tally.draws / 2:g} {config.player2}  (+{tally.wins} ={tally.draws} -{tally.losses})"
        f"  {_elo_text(elo, err, tally, short=True)}"
    )
    if llr is not None and config.sprt is not None:
        lo, hi = config.sprt.bounds
        text += f"  LLR {llr:.2f} [{lo:.2f}, {hi:.2f}]"
    return text


def print_progress(
    config: MatchConfig, stream: TextIO = sys.stderr
) -> Callable[[GameResult, Tally, float | None], None]:
    """A live progress line: rewritten in place on a terminal, one line per game otherwise."""
    tty = stream.isatty()

    def show(game: GameResult, tally: Tally, llr: float | None) -> None:
        line = progress_line(config, game, tally, llr)
        if tty:
            stream.write("\r\x1b[K" + line)
        else:
            last = f"game {game.round}: {game.white} - {game.black} {game.result}, {game.termination}"
            stream.write(f"{line}  ({last})\n")
        stream.flush()

    return show


def summary(config: MatchConfig, result: MatchResult) -> str:
    t = result.tally
    lines = [
        f"{config.player1} vs {config.player2}, {config.variant}, {t.games} games"
        + (f", tc {config.tc}" if config.tc else ""),
        f"Score of {config.player1}: {t.wins + t.draws / 2:g}/{t.games} ({100 * t.score:.1f} %)  "
        f"+{t.wins} ={t.draws} -{t.losses}",
        _elo_text(result.elo, result.error, t),
        f"White won {t.white_wins}, Black won {t.black_wins}, draws {t.draws}",
    ]
    if result.llr is not None and config.sprt is not None:
        lo, hi = config.sprt.bounds
        sprt = config.sprt
        decision = result.sprt_decision or "no decision yet"
        llr = f"LLR {result.llr:.2f} [{lo:.2f}, {hi:.2f}]"
        lines.append(f"SPRT elo0={sprt.elo0:g} elo1={sprt.elo1:g}: {llr} — {decision}")
    terminations: dict[str, int] = {}
    for g in result.games:
        terminations[g.termination] = terminations.get(g.termination, 0) + 1
    lines.append("Endings: " + ", ".join(f"{k} {v}" for k, v in sorted(terminations.items())))
    lines += _length_lines(config, result)
    inis = sorted({ini for g in result.games for ini in g.inis if ini})
    if inis:
        lines.append("Fairy-Stockfish ini: " + ", ".join(inis))
    for g in result.games:
        if g.error:
            lines.append(f"  game {g.round}: {g.termination}: {g.error}")
    return "\n".join(lines)


def _length_lines(config: MatchConfig, result: MatchResult) -> list[str]:
    """How long the games were (median and quartiles in plies, how many reached the ply cap) and
    player 1's losses by ending: issue 18 reads game length and campmate losses from a match."""
    plies = [len(g.moves) for g in result.games]
    if not plies:
        return []
    capped = sum(1 for g in result.games if g.termination == PLY_LIMIT)
    quartiles = statistics.quantiles(plies, n=4) if len(plies) > 1 else [plies[0]] * 3
    lines = [
        f"Length: median {statistics.median(plies):g} plies (quartiles {quartiles[0]:g} to "
        f"{quartiles[2]:g}), {capped} of {len(plies)} at the {config.max_plies}-ply cap"
    ]
    lost: dict[str, int] = {}
    for g in result.games:
        if g.score1 == 0.0:
            lost[g.termination] = lost.get(g.termination, 0) + 1
    if lost:
        total = sum(lost.values())
        parts = ", ".join(f"{k} {v} ({100 * v / total:.1f} %)" for k, v in sorted(lost.items()))
        lines.append(f"{config.player1} lost {total}: {parts}")
    return lines


def _elo_text(elo: float, err: float, tally: Tally, short: bool = False) -> str:
    """The Elo line; a sweep (every game won or lost) has no estimate, only a 95 % bound."""
    if math.isinf(elo):
        bound = elo_bound(tally.games) if elo > 0 else -elo_bound(tally.games)
        sign = ">" if elo > 0 else "<"
        if short:
            return f"Elo {sign} {bound:+.0f}"
        what = "no game lost or drawn" if elo > 0 else "no game won or drawn"
        return f"Elo difference: {sign} {bound:+.0f} (95 % bound; {what})"
    if short:
        return f"Elo {elo:+.0f} ± {err:.0f}"
    lo, hi = elo_interval(tally.wins, tally.draws, tally.losses)
    return f"Elo difference: {elo:+.1f} ± {err:.1f} (95 %: {lo:+.0f} to {hi:+.0f})"
