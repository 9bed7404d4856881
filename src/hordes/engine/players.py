"""Players for matches: the built-in engine at a level, a random mover, a greedy one-ply player, and
any UCI engine by command. Each is described by a spec string (see `parse_player`)."""

from __future__ import annotations

import contextlib
import os
import random
import shlex
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from hordes.core import movegen
from hordes.core.position import Board, Move
from hordes.core.rules import Variant
from hordes.engine.client import FAIRY_STOCKFISH, HORDES_COMMAND, UciClient
from hordes.engine.eval_params import ALL_KEYS
from hordes.engine.evaluate import evaluator
from hordes.engine.levels import MAX_LEVEL, level, think
from hordes.engine.limits import Limits
from hordes.engine.search import Searcher
from hordes.errors import HordesError
from hordes.fsf.export import ExportError, short_sha256
from hordes.variants import load_variant


@dataclass(frozen=True)
class Clock:
    """Time left and increments, in seconds (None: no clock, think to a fixed budget)."""

    wtime: float | None = None
    btime: float | None = None
    winc: float = 0.0
    binc: float = 0.0


class Player(Protocol):
    name: str

    def new_game(self, board: Board) -> None: ...

    def move(self, board: Board, clock: Clock) -> Move: ...

    def close(self) -> None: ...


class RandomPlayer:
    """A uniformly random legal move."""

    def __init__(self, seed: int | None = None, name: str = "random") -> None:
        self.name = name
        self.rng = random.Random(seed)

    def new_game(self, board: Board) -> None:
        pass

    def move(self, board: Board, clock: Clock) -> Move:
        return board.int_to_move(self.rng.choice(movegen.generate_legal(board)))

    def close(self) -> None:
        pass


class GreedyPlayer:
    """One ply of look-ahead: win at once if it can, never lose at once, else the best static score."""

    def __init__(self, seed: int | None = None, name: str = "greedy") -> None:
        self.name = name
        self.rng = random.Random(seed)

    def new_game(self, board: Board) -> None:
        pass

    def move(self, board: Board, clock: Clock) -> Move:
        b = board.copy()
        ev = evaluator(b.variant)
        me = b.turn
        best: list[int] = []
        best_score = None
        for m in movegen.generate_legal(b):
            b.push_int(m)
            out = b.outcome()
            if out is not None:
                score = 0 if out.winner is None else (10**9 if out.winner is me else -(10**9))
            else:
                score = -ev.evaluate(b)
            b.pop_int()
            if best_score is None or score > best_score:
                best, best_score = [m], score
            elif score == best_score:
                best.append(m)
        return board.int_to_move(self.rng.choice(best))

    def close(self) -> None:
        pass


class HordesPlayer:
    """This library's engine, in process, at a level (8 = full strength)."""

    def __init__(
        self,
        level_number: int = MAX_LEVEL,
        hash_mb: int = 16,
        seed: int | None = None,
        name: str = "",
        evaluation: dict[str, object] | None = None,
        eval_variant: Variant | None = None,
    ) -> None:
        self.level = level(level_number)
        self.name = name or ("hordes" if level_number == MAX_LEVEL else f"hordes-level{self.level.number}")
        self.searcher = Searcher(hash_mb, evaluation, eval_variant=eval_variant)
        self.rng = random.Random(seed)
        self.fixed: Limits | None = None  # fixed depth/nodes/movetime for clock-less matches

    def new_game(self, board: Board) -> None:
        self.searcher.new_game()

    def move(self, board: Board, clock: Clock) -> Move:
        limits = Limits(wtime=clock.wtime, btime=clock.btime, winc=clock.winc, binc=clock.binc)
        if self.fixed is not None:
            limits = Limits(depth=self.fixed.depth, nodes=self.fixed.nodes, movetime=self.fixed.movetime)
        move, _ = think(self.searcher, board, self.level, limits, rng=self.rng)
        if move is None:
            raise HordesError(f"{self.name}: no move in {board.fen()} (the game is over)")
        return move

    def close(self) -> None:
        pass


@dataclass
class UciPlayer:
    """A UCI engine in a subprocess; every move it returns is checked by the client.

    Fairy-Stockfish, given no VariantPath, learns the game from our export of the document (in the
    dialect its release reads); `ini` then says which ini it played from, for the records."""

    command: list[str]
    name: str
    options: dict[str, str] = field(default_factory=dict)
    variant_name: str | None = None  # the engine's name for the variant, when it differs from our slug
    client: UciClient | None = None
    ini: str = ""  # e.g. "sha256:0123456789ab dialect 11.1" once a game has started
    _exported: tuple[str, str] | None = field(default=None, repr=False)  # (our slug, their section)

    def new_game(self, board: Board) -> None:
        if self.client is None:
            self.client = UciClient(self.command, name=self.name, options=self.options)
            self.ini = self._user_ini()
        variant = board.variant
        if self._exported is not None and self._exported[0] == variant.slug:
            self.client.set_variant(self._exported[1])
        elif self._uses_export():
            try:
                exported = self.client.load_export(variant)
            except ExportError:
                if variant.slug not in self.client.variants:
                    raise
                self.client.set_variant(variant.slug)  # the engine's own game of that name
                self.ini = "built-in"
            else:
                self._exported = (variant.slug, exported.name)
                self.ini = exported.ini_id
        else:
            self.client.set_variant(self.variant_name or variant.slug)
        self.client.new_game()

    def _uses_export(self) -> bool:
        assert self.client is not None
        given = {k.lower() for k in self.options}
        return (
            self.client.id_name.startswith("Fairy-Stockfish")
            and "variantpath" not in given
            and self.variant_name is None
        )

    def _user_ini(self) -> str:
        """The label of a VariantPath the user gave (its sha256), or ""."""
        path = next((v for k, v in self.options.items() if k.lower() == "variantpath"), None)
        if not path:
            return ""
        with contextlib.suppress(OSError, UnicodeDecodeError):
            return f"{short_sha256(Path(path).read_text(encoding='utf-8'))} (the spec's VariantPath)"
        return "unreadable VariantPath"

    def move(self, board: Board, clock: Clock) -> Move:
        assert self.client is not None, "new_game() first"
        if clock.wtime is None:
            return self.client.play(board, movetime=0.1)
        return self.client.play(board, wtime=clock.wtime, btime=clock.btime, winc=clock.winc, binc=clock.binc)

    def close(self) -> None:
        if self.client is not None:
            self.client.quit()
            self.client = None


def parse_player(spec: str, seed: int | None = None) -> Player:
    """A player from a spec: `NAME[:key=value,...]`.

    NAME is `hordes` (keys: level 1-8, hash MB, depth, nodes, movetime in seconds, `eval.TERM=MG/EG`
    to override a term of the document's evaluation, e.g. `hordes:eval.royal_danger=0/0`, and
    `evalfile=PATH`: take piece values and weights from that document, a child of the game's with the
    same pieces such as `hordes tune` writes, while the game keeps its own rules), `random`, `greedy`,
    or an engine command (a path or a program on PATH, with arguments in quotes if any; keys:
    `name`, `variant` = the engine's name for the variant, anything else is sent as a UCI option,
    e.g. `fairy-stockfish:Skill Level=3`). Fairy-Stockfish needs no VariantPath: it is given our export of
    the document (hordes.fsf), unless the spec names a VariantPath of its own.
    """
    head, _, rest = spec.partition(":")
    opts: dict[str, str] = {}
    if rest.strip():
        for item in rest.split(","):
            key, eq, value = item.partition("=")
            if not eq or not key.strip():
                raise HordesError(f"player {spec!r}: expected key=value, not {item!r}")
            opts[key.strip()] = value.strip()
    kind = head.strip()
    if kind == "random":
        _only(spec, opts, {"name"})
        return RandomPlayer(seed, opts.get("name", "random"))
    if kind == "greedy":
        _only(spec, opts, {"name"})
        return GreedyPlayer(seed, opts.get("name", "greedy"))
    if kind == "hordes":
        evaluation = {k[5:]: _eval_value(spec, v) for k, v in opts.items() if k.startswith("eval.")}
        unknown = sorted(set(evaluation) - ALL_KEYS)
        if unknown:
            raise HordesError(f"player {spec!r}: unknown evaluation term {unknown[0]!r} (see docs/engine.md)")
        _only(spec, {k: v for k, v in opts.items() if not k.startswith("eval.")}, HORDES_KEYS)
        eval_variant = load_variant(opts["evalfile"]) if opts.get("evalfile") else None
        player = HordesPlayer(
            _num(spec, opts, "level", MAX_LEVEL),
            _num(spec, opts, "hash", 16),
            seed,
            opts.get("name", ""),
            evaluation,
            eval_variant,
        )
        if {"depth", "nodes", "movetime"} & opts.keys():
            mt = opts.get("movetime")
            player.fixed = Limits(
                depth=_num(spec, opts, "depth", 0) or None,
                nodes=_num(spec, opts, "nodes", 0) or None,
                movetime=float(mt) if mt else None,
            )
        return player
    command = shlex.split(kind)
    if not command:
        raise HordesError(f"player {spec!r}: no engine command")
    exe = command[0]
    found = shutil.which(exe) or (
        FAIRY_STOCKFISH if exe == "fairy-stockfish" and os.path.exists(FAIRY_STOCKFISH) else None
    )
    if exe == "hordes-uci":
        command = [*HORDES_COMMAND]
    elif found is None:
        raise HordesError(
            f"player {spec!r}: no program {exe!r} (give a path, or one of hordes, random, greedy)"
        )
    else:
        command[0] = found
    name = opts.pop("name", os.path.basename(exe))
    variant_name = opts.pop("variant", None)
    return UciPlayer(command, name, opts, variant_name)


HORDES_KEYS = {"level", "hash", "depth", "nodes", "movetime", "name", "evalfile"}


def _eval_value(spec: str, text: str) -> object:
    """An evaluation override from a spec: `12`, `12/0` (middlegame/endgame), `true`, `false`."""
    low = text.strip().lower()
    if low in ("true", "false"):
        return low == "true"
    try:
        parts = [int(x) for x in low.split("/")]
    except ValueError:
        raise HordesError(
            f"player {spec!r}: evaluation value {text!r} is not a number, mg/eg or true/false"
        ) from None
    return parts[0] if len(parts) == 1 else parts


def _only(spec: str, opts: dict[str, str], allowed: set[str]) -> None:
    extra = sorted(set(opts) - allowed)
    if extra:
        raise HordesError(
            f"player {spec!r}: unknown key {extra[0]!r} (allowed: {', '.join(sorted(allowed))})"
        )


def _num(spec: str, opts: dict[str, str], key: str, default: int) -> int:
    if key not in opts:
        return default
    try:
        return int(opts[key])
    except ValueError:
        raise HordesError(f"player {spec!r}: {key} must be a whole number, not {opts[key]!r}") from None
