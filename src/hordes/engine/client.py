"""A client for UCI engines: start one by command, set the variant, play and analyse.

Every move an engine returns is checked against our rules before it is handed on: a move that is not
legal raises IllegalMoveError naming the engine and the position. An engine that dies, stops
answering, or breaks the protocol raises EngineError (EngineTimeout for silence), and the process is
killed, so a caller (a match, a test) never hangs on a broken engine.

    with fairy_stockfish(load_variant("orda")) as fsf:  # Orda exported for the engine (hordes.fsf)
        move = fsf.play(board, movetime=0.1)
"""

from __future__ import annotations

import contextlib
import os
import queue
import shlex
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import IO

from hordes.core.position import Board, Move
from hordes.core.rules import Variant
from hordes.errors import HordesError, IllegalMoveError
from hordes.fsf.export import Export, dialect_of, export_variant

HORDES_COMMAND = [sys.executable, "-m", "hordes.uci"]  # this library's own engine (same as `hordes uci`)
FAIRY_STOCKFISH = "/usr/games/fairy-stockfish"


class EngineError(HordesError):
    """The engine process died, broke the protocol, or could not be started."""


class EngineTimeout(EngineError):
    """The engine did not answer in time."""


@dataclass
class EngineInfo:
    """One `info` line of a search, parsed."""

    depth: int = 0
    seldepth: int = 0
    score_cp: int | None = None
    score_mate: int | None = None
    nodes: int = 0
    nps: int = 0
    time_ms: int = 0
    pv: list[str] = field(default_factory=list)
    string: str = ""

    @classmethod
    def parse(cls, line: str) -> EngineInfo:
        info = cls()
        tokens = line.split()[1:]
        i = 0
        ints = {"depth", "seldepth", "nodes", "nps", "time"}
        while i < len(tokens):
            t = tokens[i]
            if t == "string":
                info.string = " ".join(tokens[i + 1 :])
                break
            if t == "pv":
                info.pv = tokens[i + 1 :]
                break
            if t in ints and i + 1 < len(tokens):
                with contextlib.suppress(ValueError):
                    setattr(info, "time_ms" if t == "time" else t, int(tokens[i + 1]))
                i += 2
                continue
            if t == "score" and i + 2 < len(tokens):
                with contextlib.suppress(ValueError):
                    if tokens[i + 1] == "cp":
                        info.score_cp = int(tokens[i + 2])
                    elif tokens[i + 1] == "mate":
                        info.score_mate = int(tokens[i + 2])
                i += 3
                continue
            i += 1
        return info


@dataclass
class SearchResult:
    bestmove: str | None  # None for "(none)" / "0000"
    ponder: str | None
    infos: list[EngineInfo]

    @property
    def last(self) -> EngineInfo | None:
        """The last report that carried a score (the deepest completed one)."""
        for info in reversed(self.infos):
            if info.score_cp is not None or info.score_mate is not None:
                return info
        return None


class UciClient:
    """A running UCI engine. `command` is an argv list or a shell-style string."""

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        name: str | None = None,
        options: Mapping[str, object] | None = None,
        timeout: float = 10.0,
        cwd: str | None = None,
        stderr: int | IO[str] | None = subprocess.DEVNULL,
    ) -> None:
        self.command = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.command:
            raise EngineError("empty engine command")
        self.name = name or os.path.basename(self.command[0])
        self.timeout = timeout
        self.id_name = ""
        self.variants: set[str] = set()
        self.option_names: set[str] = set()
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._variant_path_set = False
        self.ini_id = ""  # which variants.ini the engine plays from (load_export), for records
        try:
            self.proc = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=stderr,  # the engine's diagnostics: discarded unless the caller wants them
                text=True,
                bufsize=1,
                cwd=cwd,
            )
        except OSError as exc:
            raise EngineError(
                f"cannot start engine {self.name!r} ({' '.join(self.command)}): {exc}"
            ) from None
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        try:
            self._handshake()
            for key, value in (options or {}).items():
                self.set_option(key, value)
            self.is_ready()
        except BaseException:
            self.kill()
            raise

    # ----- plumbing --------------------------------------------------------------------------------
    def _read(self) -> None:
        stdout = self.proc.stdout
        assert stdout is not None
        for line in stdout:
            self._lines.put(line.rstrip("\r\n"))
        self._lines.put(None)

    def send(self, line: str) -> None:
        stdin = self.proc.stdin
        if stdin is None or self.proc.poll() is not None:
            raise EngineError(self._died("before command " + repr(line)))
        try:
            stdin.write(line + "\n")
            stdin.flush()
        except (BrokenPipeError, OSError):
            raise EngineError(self._died("while sending " + repr(line))) from None

    def _died(self, when: str) -> str:
        code = self.proc.poll()
        return f"engine {self.name!r} terminated (exit code {code}) {when}"

    def recv(self, timeout: float | None = None) -> str:
        """The next line, or EngineTimeout / EngineError (dead engine)."""
        wait = self.timeout if timeout is None else timeout
        try:
            line = self._lines.get(timeout=max(0.0, wait))
        except queue.Empty:
            raise EngineTimeout(f"engine {self.name!r} did not answer within {wait:.1f}s") from None
        if line is None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=1)
            raise EngineError(self._died("unexpectedly"))
        return line

    def _until(self, prefix: str, timeout: float) -> list[str]:
        deadline = time.monotonic() + timeout
        seen = []
        while True:
            line = self.recv(deadline - time.monotonic())
            seen.append(line)
            if line == prefix or line.startswith(prefix + " "):
                return seen

    # ----- protocol --------------------------------------------------------------------------------
    def _handshake(self) -> None:
        self.send("uci")
        for line in self._until("uciok", self.timeout):
            if line.startswith("id name "):
                self.id_name = line[8:].strip()
            elif line.startswith("option name "):
                rest = line[12:]
                name = rest.split(" type ")[0].strip()
                self.option_names.add(name.lower())
                if name.lower() == "uci_variant":
                    tokens = rest.split()
                    self.variants = {
                        tokens[i + 1] for i, t in enumerate(tokens[:-1]) if t in ("var", "default")
                    }

    def is_ready(self, timeout: float | None = None) -> None:
        self.send("isready")
        self._until("readyok", self.timeout if timeout is None else timeout)

    def set_option(self, name: str, value: object) -> None:
        if isinstance(value, bool):
            value = "true" if value else "false"
        self.send(f"setoption name {name} value {value}")
        if name.lower() == "variantpath":
            self._variant_path_set = True

    def load_variant_text(self, text: str) -> None:
        """Hand the engine a variants.ini by VariantPath: through a private temporary file, removed as
        soon as the engine has read it (it reads the file when the option is set)."""
        fd, path = tempfile.mkstemp(prefix="hordes-", suffix=".ini")  # mode 0600
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            self.set_option("VariantPath", path)
            self.is_ready()
        finally:
            with contextlib.suppress(OSError):
                os.unlink(path)

    def load_export(self, variant: Variant) -> Export:
        """Teach a Fairy-Stockfish program `variant` from our export in the dialect it reads, and
        select it (ExportError if Fairy-Stockfish cannot express it)."""
        exported = export_variant(variant, dialect_of(self.id_name))
        self.load_variant_text(exported.text)
        self.ini_id = exported.ini_id
        self.set_variant(exported.name)
        return exported

    def set_variant(self, variant: str) -> None:
        """Select a variant by the engine's name for it (checked against its UCI_Variant list)."""
        known = self.variants and not self._variant_path_set
        if known and variant not in self.variants:
            raise EngineError(
                f"engine {self.name!r} does not play {variant!r} (it knows {len(self.variants)} others)"
            )
        if self.variants or "uci_variant" in self.option_names:
            self.set_option("UCI_Variant", variant)
        elif variant != "chess":
            raise EngineError(
                f"engine {self.name!r} has no UCI_Variant option, so it cannot play {variant!r}"
            )
        self.is_ready()

    def new_game(self) -> None:
        self.send("ucinewgame")
        self.is_ready()

    def position(self, board: Board) -> None:
        root, moves = _history(board)
        self.send(f"position fen {root}" + (" moves " + " ".join(moves) if moves else ""))

    def go(
        self,
        board: Board,
        *,
        depth: int | None = None,
        nodes: int | None = None,
        movetime: float | None = None,
        wtime: float | None = None,
        btime: float | None = None,
        winc: float = 0.0,
        binc: float = 0.0,
        timeout: float | None = None,
    ) -> SearchResult:
        """Search `board`; times in seconds. The wait is bounded: the engine's own time plus a grace."""
        self.position(board)
        parts = ["go"]
        if depth is not None:
            parts += ["depth", str(depth)]
        if nodes is not None:
            parts += ["nodes", str(nodes)]
        if movetime is not None:
            parts += ["movetime", str(max(1, int(movetime * 1000)))]
        if wtime is not None and btime is not None:
            parts += ["wtime", str(int(wtime * 1000)), "btime", str(int(btime * 1000))]
            parts += ["winc", str(int(winc * 1000)), "binc", str(int(binc * 1000))]
        if timeout is None:
            own = movetime or (wtime if board.side == 0 else btime) or 0.0
            timeout = own + self.timeout + (60.0 if movetime is None and wtime is None else 0.0)
        self.send(" ".join(parts))
        infos: list[EngineInfo] = []
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.recv(deadline - time.monotonic())
            except EngineTimeout:
                self.kill()
                raise
            if line.startswith("info "):
                infos.append(EngineInfo.parse(line))
            elif line.startswith("bestmove"):
                tokens = line.split()
                best = tokens[1] if len(tokens) > 1 else None
                if best in ("(none)", "0000", "none"):
                    best = None
                ponder = tokens[3] if len(tokens) > 3 and tokens[2] == "ponder" else None
                return SearchResult(best, ponder, infos)

    def play(self, board: Board, **limits: float | int | None) -> Move:
        """The engine's move in `board`, checked against our rules."""
        result = self.go(board, **limits)  # type: ignore[arg-type]
        if result.bestmove is None:
            if board.outcome() is None:
                raise IllegalMoveError(
                    "(none)",
                    board.fen(),
                    f"engine {self.name!r} found no move in a position that has legal moves",
                )
            raise EngineError(f"engine {self.name!r}: the game is over, there is no move to play")
        return self.check_move(board, result.bestmove)

    def check_move(self, board: Board, text: str) -> Move:
        try:
            return board.parse_uci(text)
        except HordesError as exc:
            raise IllegalMoveError(text, board.fen(), f"returned by engine {self.name!r}: {exc}") from None

    def analyse(self, board: Board, **limits: float | int | None) -> EngineInfo:
        """The deepest report of a search (its PV moves are checked against our rules)."""
        result = self.go(board, **limits)  # type: ignore[arg-type]
        info = result.last or EngineInfo()
        b = board.copy()
        for text in info.pv:
            b.push(self.check_move(b, text))
        return info

    def perft(self, board: Board, depth: int, timeout: float = 120.0) -> int:
        """`go perft N` as Stockfish derivatives answer it ("Nodes searched: N")."""
        self.position(board)
        self.send(f"go perft {depth}")
        deadline = time.monotonic() + timeout
        while True:
            line = self.recv(deadline - time.monotonic())
            if line.startswith("Nodes searched:"):
                return int(line.split(":")[1])

    # ----- lifetime --------------------------------------------------------------------------------
    def quit(self, timeout: float = 2.0) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(EngineError):
                self.send("quit")
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.kill()
        self._close_pipes()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=2)
        self._close_pipes()

    def _close_pipes(self) -> None:
        for pipe in (self.proc.stdin, self.proc.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()

    def __enter__(self) -> UciClient:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.quit()


def _history(board: Board) -> tuple[str, list[str]]:
    """The root FEN and the UCI moves since, so the engine sees the history (repetitions count)."""
    b = board.copy()
    moves: list[str] = []
    while True:
        try:
            moves.append(b.uci(b.pop()))
        except IndexError:
            break
    moves.reverse()
    return b.fen(), moves


def fairy_stockfish(variant: Variant | None = None, **options: object) -> UciClient:
    """Debian's Fairy-Stockfish, playing `variant` from our export of it (its `ini_id` says which)."""
    client = UciClient([FAIRY_STOCKFISH], name="fairy-stockfish", options=options)
    if variant is not None:
        try:
            client.load_export(variant)
        except BaseException:
            client.kill()
            raise
    return client
