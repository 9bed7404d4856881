"""`hordes uci`: the engine behind the Universal Chess Interface, for GUIs, cutechess and fairyfishnet.

It reads commands on stdin and answers on stdout. The search and `go perft` run in a thread, so
`stop`, `isready` and `quit` are answered while it thinks or counts. Nothing a GUI sends ends the
process except `quit` or the end of input: malformed commands, unknown options, bad FENs and illegal
moves are answered with `info string <what was wrong>`, and the engine keeps its previous state where
it could not apply one.

Conventions followed (those of Stockfish and Fairy-Stockfish, which cutechess and fairyfishnet expect):
option names are case-insensitive; a search with no legal move answers `bestmove (none)`; `d` prints
the board with a `Fen:` line; `MultiPV` N prints N lines per depth (`multipv 1` is the move played);
`UCI_ShowWDL` adds `wdl W D L` from the mapping in hordes.engine.limits.wdl_of.

A `position` the engine cannot take (a bad FEN, an illegal move) is reported, and until a good one
arrives every `go` answers `bestmove 0000` with an `info string`: playing on from the position
before it, or from the moves up to the illegal one, would answer for a game the GUI is not playing.
Chess960 is not offered: hordes' castling moves the king to the c and g files, written as a king
move (e1g1), and its FENs name castling rights by KQkq only, so neither Shredder-FEN nor the
king-takes-rook notation of UCI_Chess960 can be expressed; a FEN whose castling rights only Chess960
could mean (a rook or the king off its start square) is refused.
"""

from __future__ import annotations

import os
import random
import sys
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import ClassVar, TextIO

from hordes import __version__
from hordes.core.position import Board, Move
from hordes.core.rules import Variant
from hordes.engine.evaluate import evaluator
from hordes.engine.levels import MAX_LEVEL, MIN_LEVEL, level, think
from hordes.engine.limits import Info, Limits
from hordes.engine.search import Searcher
from hordes.errors import HordesError
from hordes.variants import add_variant_path, builtin_variants, load_variant

ENGINE_NAME = f"hordes {__version__}"
AUTHOR = "the hordes authors"
DEFAULT_HASH = 16
MAX_HASH = 4096
# `go perft` looks at `stop` before each subtree of this many plies (about 10 ms of counting).
PERFT_STOP_PLIES = 3
# Each MultiPV line is a search of its own over the remaining root moves: beyond a few dozen lines
# the deeper ones cost more than they tell.
MAX_MULTIPV = 32


@dataclass
class _Options:
    skill: int = MAX_LEVEL
    hash_mb: int = DEFAULT_HASH
    overhead_ms: int = 30
    multipv: int = 1
    show_wdl: bool = False


class UciEngine:
    """The protocol state machine. `handle(line)` returns False when the engine should exit."""

    def __init__(self, out: TextIO | None = None, *, seed: int | None = None) -> None:
        self._out = out or sys.stdout
        self._write_lock = threading.Lock()
        self.options = _Options()
        self.variants: dict[str, Variant] = {v.slug: v for v in builtin_variants()}
        self.variant = self.variants.get("chess") or next(iter(self.variants.values()))
        self.board = Board(self.variant)
        self.searcher = Searcher(DEFAULT_HASH)
        self.rng = random.Random(seed)
        self._thread: threading.Thread | None = None
        self._counting = False  # the worker thread runs `go perft`, not a search
        self._stop = threading.Event()
        self._answered = threading.Event()  # set by the search thread just before it sends bestmove
        self._bad_position: str | None = None  # why the last `position` was refused (go answers 0000)

    # ----- output ------------------------------------------------------------------------------
    def send(self, line: str) -> None:
        with self._write_lock:
            self._out.write(line + "\n")
            self._out.flush()

    def info(self, text: str) -> None:
        self.send("info string " + " ".join(text.split()))

    # ----- the loop ------------------------------------------------------------------------------
    def run(self, lines: Iterable[str]) -> int:
        for line in lines:
            if not self.handle(line):
                break
        else:
            # End of input (`echo "go perft 5" | hordes uci`): a perft is counted to the end, as
            # Stockfish does; a search is stopped and answers at once.
            thread = self._thread
            if thread is not None and self._counting:
                thread.join()
        self._halt()
        return 0

    def handle(self, line: str) -> bool:
        tokens = line.split()
        if not tokens:
            return True
        cmd, args = tokens[0], tokens[1:]
        handler = self._COMMANDS.get(cmd)
        if cmd == "quit":
            self._halt()
            return False
        if handler is None:
            self.info(f"unknown command: {line.strip()!r}")
            return True
        try:
            handler(self, args)
        except HordesError as exc:
            self.info(f"{cmd}: {exc}")
        except Exception as exc:  # a bug must not take the GUI's engine down; report it instead
            self.info(f"internal error in {cmd}: {type(exc).__name__}: {exc}")
        return True

    # ----- commands ------------------------------------------------------------------------------
    def _uci(self, args: list[str]) -> None:
        self.send(f"id name {ENGINE_NAME}")
        self.send(f"id author {AUTHOR}")
        self.send("")
        self.send(self._variant_option())
        self.send("option name VariantPath type string default <empty>")
        self.send(f"option name Skill Level type spin default {MAX_LEVEL} min {MIN_LEVEL} max {MAX_LEVEL}")
        self.send(f"option name Hash type spin default {DEFAULT_HASH} min 1 max {MAX_HASH}")
        self.send("option name Clear Hash type button")
        self.send("option name Move Overhead type spin default 30 min 0 max 5000")
        self.send("option name Threads type spin default 1 min 1 max 1")
        self.send(f"option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}")
        self.send("option name UCI_ShowWDL type check default false")
        self.send("uciok")

    def _variant_option(self) -> str:
        names = " ".join(f"var {slug}" for slug in sorted(self.variants))
        return f"option name UCI_Variant type combo default {self.variant.slug} {names}"

    def _isready(self, args: list[str]) -> None:
        self.send("readyok")

    def _debug(self, args: list[str]) -> None:
        pass

    def _ucinewgame(self, args: list[str]) -> None:
        self._halt()
        self.searcher.new_game()
        self.board = Board(self.variant)
        self._bad_position = None

    def _setoption(self, args: list[str]) -> None:
        if not args or args[0].lower() != "name":
            raise HordesError("expected: setoption name <name> [value <value>]")
        lowered = [a.lower() for a in args]
        if "value" in lowered[1:]:
            at = lowered.index("value", 1)
            name, value = " ".join(args[1:at]), " ".join(args[at + 1 :])
        else:
            name, value = " ".join(args[1:]), ""
        key = name.lower()
        setter = self._OPTIONS.get(key)
        if setter is None:
            self.info(f"no such option: {name!r}")
            return
        if self._searching():
            self.info(f"option {name!r} ignored while searching")
            return
        setter(self, value)

    def _set_variant(self, value: str) -> None:
        name = value.strip()
        variant = self.variants.get(name.lower())
        if variant is None:
            try:
                variant = load_variant(name)
            except HordesError:
                self.info(f"unknown variant {name!r} (known: {', '.join(sorted(self.variants))})")
                return
        self.variant = variant
        self.board = Board(variant)
        self._bad_position = None
        self.info(f"variant {variant.slug} startpos {variant.start_fen}")

    def _set_variant_path(self, value: str) -> None:
        paths = [p for p in value.replace(";", os.pathsep).split(os.pathsep) if p.strip() and p != "<empty>"]
        for path in paths:
            try:
                variant = add_variant_path(path.strip())
            except (HordesError, OSError) as exc:
                self.info(f"VariantPath {path!r}: {exc}")
                continue
            self.variants[variant.slug] = variant
            self.info(f"loaded variant {variant.slug} from {path.strip()}")
        if paths:
            self.send(self._variant_option())

    def _set_skill(self, value: str) -> None:
        number = _int(value, "Skill Level")
        clamped = max(MIN_LEVEL, min(MAX_LEVEL, number))
        if clamped != number:
            self.info(f"Skill Level {number} is outside {MIN_LEVEL}..{MAX_LEVEL}; using {clamped}")
        self.options.skill = clamped

    def _set_hash(self, value: str) -> None:
        mb = max(1, min(MAX_HASH, _int(value, "Hash")))
        self.options.hash_mb = mb
        self.searcher.tt.resize(mb)

    def _set_overhead(self, value: str) -> None:
        self.options.overhead_ms = max(0, min(5000, _int(value, "Move Overhead")))

    def _set_threads(self, value: str) -> None:
        if _int(value, "Threads") != 1:
            self.info("only one search thread is supported; Threads stays 1")

    def _set_multipv(self, value: str) -> None:
        number = _int(value, "MultiPV")
        clamped = max(1, min(MAX_MULTIPV, number))
        if clamped != number:
            self.info(f"MultiPV {number} is outside 1..{MAX_MULTIPV}; using {clamped}")
        self.options.multipv = clamped

    def _set_show_wdl(self, value: str) -> None:
        self.options.show_wdl = _check(value, "UCI_ShowWDL")

    def _set_chess960(self, value: str) -> None:
        # Not advertised (see the module's docstring); `false`, as fairyfishnet sends it, is accepted.
        if _check(value, "UCI_Chess960"):
            self.info(
                "error: UCI_Chess960 is not supported (castling rights are KQkq only and castling is "
                "written as a king move such as e1g1); the option stays false"
            )

    def _clear_hash(self, value: str) -> None:
        self.searcher.tt.clear()

    def _ignore(self, value: str) -> None:
        pass

    def _position(self, args: list[str]) -> None:
        """Set up the position, or refuse it as a whole: then `go` answers `bestmove 0000`."""
        try:
            self.board = self._parse_position(args)
        except Exception as exc:  # a bug in reading it must not leave the old position in play either
            reason = str(exc)
            if not isinstance(exc, HordesError):
                reason = f"internal error: {type(exc).__name__}: {exc}"
            self._bad_position = reason
            self.info(f"position refused: {reason}; go answers bestmove 0000 until a valid position")
            return
        self._bad_position = None

    def _parse_position(self, args: list[str]) -> Board:
        if not args:
            raise HordesError("expected: position startpos|fen <fen> [moves <move>...]")
        lowered = [a.lower() for a in args]
        at = lowered.index("moves") if "moves" in lowered else len(args)
        head, moves = args[:at], args[at + 1 :]
        if head[0].lower() == "startpos":
            if len(head) > 1:
                raise HordesError(f"unexpected {' '.join(head[1:])!r} after startpos")
            board = Board(self.variant)
        elif head[0].lower() == "fen":
            if len(head) < 2:
                raise HordesError("the FEN is missing")
            board = Board(self.variant, " ".join(head[1:]))
            problem = _chess960_castling(board)
            if problem is not None:
                raise HordesError(f"{problem}: that is Chess960 castling, which hordes cannot play")
        else:
            raise HordesError(f"expected startpos or fen, not {head[0]!r}")
        for number, text in enumerate(moves, 1):
            try:
                board.push_uci(text)
            except HordesError as exc:
                raise HordesError(f"move {number} ({text!r}): {exc}") from None
        return board

    def _go(self, args: list[str]) -> None:
        if self._searching():
            self.info("go ignored: already searching (send stop first)")
            return
        if self._bad_position is not None:
            if args and args[0] == "perft":
                self.info(f"go perft: no valid position ({self._bad_position})")
            else:
                self.info(f"go: no valid position ({self._bad_position}); answering bestmove 0000")
                self.send("bestmove 0000")
            return
        if args and args[0] == "perft":
            depth = _int(args[1], "go perft") if len(args) > 1 else 1
            if depth < 1:
                raise HordesError(f"go perft {depth}: the depth must be at least 1")
            self._start(self._perft, self.board.copy(), depth)
            self._counting = True
            return
        limits = self._limits(args)
        self._start(self._think, self.board.copy(), limits)
        self._counting = False

    def _start(self, work: Callable[..., None], *args: object) -> None:
        """Run a search or a perft in the engine's one worker thread, with a fresh `stop` event."""
        self._stop = threading.Event()
        self._answered = threading.Event()
        self._thread = threading.Thread(target=work, args=args, daemon=True)
        self._thread.start()

    def _limits(self, args: list[str]) -> Limits:
        limits = Limits(overhead=self.options.overhead_ms / 1000, multipv=self.options.multipv)
        i = 0
        numeric = {"wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "movetime", "mate"}
        while i < len(args):
            token = args[i].lower()
            if token in numeric:
                if i + 1 >= len(args):
                    raise HordesError(f"{token} needs a number; no search started")
                number = _int(args[i + 1], f"{token} (no search started)")
                i += 2
                if token in ("wtime", "btime", "winc", "binc", "movetime"):
                    setattr(limits, token, max(0, number) / 1000)
                elif token == "mate":
                    limits.depth = max(1, 2 * number)
                else:
                    setattr(limits, token, max(1, number) if token != "movestogo" else max(0, number) or None)
            elif token in ("infinite", "ponder"):
                limits.infinite = True
                i += 1
            elif token == "searchmoves":
                i += 1
                while i < len(args) and args[i].lower() not in numeric | {"infinite", "ponder"}:
                    try:
                        limits.searchmoves.append(self.board.parse_uci(args[i]))
                    except HordesError as exc:
                        self.info(f"go searchmoves: {exc}")
                    i += 1
            else:
                self.info(f"go: unknown parameter {args[i]!r} ignored")
                i += 1
        return limits

    def _think(self, board: Board, limits: Limits) -> None:
        limits.stop = self._stop
        move: Move | None = None
        try:
            move, last = think(
                self.searcher,
                board,
                level(self.options.skill),
                limits,
                rng=self.rng,
                on_info=lambda info: self._send_lines(board, info),
            )
        except Exception as exc:  # report, and still answer with a legal move
            self.info(f"search failed: {type(exc).__name__}: {exc}")
            last = None
            legal = list(board.legal_moves)
            move = legal[0] if legal else None
        if limits.infinite:
            self._stop.wait()  # UCI: never answer an infinite search before `stop`
        self._answered.set()  # from here on the GUI may send the next command: do not count as searching
        if move is None:
            self.send("bestmove (none)")
            return
        ponder = last.pv[1] if last is not None and len(last.pv) > 1 and last.pv[0] == move else None
        text = f"bestmove {board.uci(move)}" + (f" ponder {board.uci(ponder)}" if ponder else "")
        self.send(text)

    def _send_lines(self, board: Board, info: Info) -> None:
        """One `info` line per MultiPV line, best first."""
        for line in info.lines:
            self.send(line.uci(board.uci, show_wdl=self.options.show_wdl))

    def _searching(self) -> bool:
        """Is a search running? A thread that has answered (or is about to) is finished: it is joined,
        so a `go` sent right after `bestmove` is never mistaken for one sent during the search."""
        thread = self._thread
        if thread is None:
            return False
        if self._answered.is_set() or not thread.is_alive():
            thread.join()
            self._thread = None
            return False
        return True

    def _stop_cmd(self, args: list[str]) -> None:
        self._halt()

    def _halt(self) -> None:
        """Stop a running search and wait until it has printed its bestmove."""
        thread = self._thread
        if thread is not None:
            self._stop.set()
            thread.join()
            self._thread = None

    def _ponderhit(self, args: list[str]) -> None:
        self.info("ponderhit: pondering is not supported; send stop to get the move")

    def _perft(self, board: Board, depth: int) -> None:
        """`go perft N` as Stockfish prints it: `move: count` per legal move, then `Nodes searched: N`.
        It runs in the worker thread like a search, so `isready` is answered meanwhile and `stop` ends
        it; a stopped perft says how far it got in an `info string` and prints no `Nodes searched`
        line, since a partial count is not the answer."""
        moves = list(board.legal_moves)
        total = 0
        start = time.perf_counter()
        for done, move in enumerate(moves):
            board.push(move)
            try:
                n = _stoppable_perft(board, depth - 1, self._stop)
            except _PerftStopped:
                self._answered.set()
                self.info(f"perft {depth} stopped after {done} of {len(moves)} moves ({total} nodes)")
                return
            board.pop()
            total += n
            self.send(f"{board.uci(move)}: {n}")
        self.info(f"perft {depth}: {total} nodes in {time.perf_counter() - start:.3f}s")
        self.send("")
        self._answered.set()  # the next line ends the command: a `go` sent on reading it must start
        self.send(f"Nodes searched: {total}")

    def _d(self, args: list[str]) -> None:
        if self._bad_position is not None:
            self.info(f"the last position was refused ({self._bad_position}); this is the one before it")
        b = self.board
        geo = b.geometry
        line = " +" + "---+" * geo.cols
        self.send("")
        self.send(line)
        for rank in range(geo.rows - 1, -1, -1):
            cells = []
            for file in range(geo.cols):
                piece = b.piece_at(geo.square(file, rank))
                symbol = " "
                if piece is not None:
                    symbol = piece.symbol()
                cells.append(symbol.rjust(2) if len(symbol) > 1 else f" {symbol} ")
            self.send(" |" + "|".join(cells) + f"| {rank + 1}")
            self.send(line)
        self.send("   " + "   ".join(chr(ord("a") + f) for f in range(geo.cols)))
        self.send("")
        self.send(f"Variant: {b.variant.slug}")
        self.send(f"Fen: {b.fen()}")
        self.send(f"Key: {b.zobrist_hash():016X}")
        checkers = [geo.square_name(sq) for sq in range(geo.size) if b.checkers() >> sq & 1]
        self.send(f"Checkers: {' '.join(checkers)}")

    def _eval(self, args: list[str]) -> None:
        ev = evaluator(self.board.variant)
        score = ev.evaluate(self.board)
        self.send(
            f"Static evaluation: {score * 100 // ev.pawn_unit} cp (side to move), {score} internal units"
        )

    _COMMANDS: ClassVar[dict[str, Callable[[UciEngine, list[str]], None]]] = {
        "uci": _uci,
        "isready": _isready,
        "debug": _debug,
        "ucinewgame": _ucinewgame,
        "setoption": _setoption,
        "position": _position,
        "go": _go,
        "stop": _stop_cmd,
        "ponderhit": _ponderhit,
        "d": _d,
        "eval": _eval,
    }
    _OPTIONS: ClassVar[dict[str, Callable[[UciEngine, str], None]]] = {
        "uci_variant": _set_variant,
        "variantpath": _set_variant_path,
        "skill level": _set_skill,
        "hash": _set_hash,
        "clear hash": _clear_hash,
        "move overhead": _set_overhead,
        "threads": _set_threads,
        "uci_chess960": _set_chess960,
        "multipv": _set_multipv,
        "uci_showwdl": _set_show_wdl,
        # Sent by GUIs and fairyfishnet; accepted and without effect here.
        "ponder": _ignore,
        "uci_analysemode": _ignore,
        "evalfile": _ignore,
        "use nnue": _ignore,
        "uci_limitstrength": _ignore,
        "uci_elo": _ignore,
    }


def _chess960_castling(board: Board) -> str | None:
    """What in a FEN's castling rights only Chess960 could mean, or None. hordes castles with the
    king and rooks on their squares of the variant's start position; a right kept with either
    elsewhere (an X-FEN of a Chess960 position) would be played as something else."""
    if not board.castling:
        return None
    start = Board(board.variant)
    geo = board.geometry
    pieces = board.variant.pieces
    rights = board.castling
    while rights:
        rook = (rights & -rights).bit_length() - 1
        rights &= rights - 1
        if not start.castling >> rook & 1:
            return f"a castling right for the rook on {geo.square_name(rook)}, not a start square"
        side = start.mailbox[rook] & 1  # a piece code is kind * 2 + side
        first = rook - rook % geo.cols
        for sq in range(first, first + geo.cols):
            code = start.mailbox[sq]
            if code >= 0 and code & 1 == side and pieces[code >> 1].royal and board.mailbox[sq] != code:
                return f"a castling right with the king off {geo.square_name(sq)}"
    return None


class _PerftStopped(Exception):
    """`stop` arrived during `go perft`."""


def _stoppable_perft(board: Board, depth: int, stop: threading.Event) -> int:
    """board.perft(depth), raising _PerftStopped once `stop` is set (checked between small subtrees)."""
    if stop.is_set():
        raise _PerftStopped
    if depth <= PERFT_STOP_PLIES:
        return board.perft(depth)
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += _stoppable_perft(board, depth - 1, stop)
        board.pop()
    return total


def _check(text: str, what: str) -> bool:
    """A UCI check option's value: true or false (any case)."""
    word = text.strip().lower()
    if word not in ("true", "false"):
        raise HordesError(f"{what}: expected true or false, not {text.strip()!r}")
    return word == "true"


def _int(text: str, what: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise HordesError(f"{what}: {text!r} is not a whole number") from None


def main(stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Run the UCI loop until `quit` or the end of input."""
    engine = UciEngine(stdout)
    try:
        return engine.run(stdin or sys.stdin)
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    # `python -m hordes.uci`: the engine without the rest of the command line (and its imports).
    sys.exit(main())
