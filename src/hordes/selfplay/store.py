"""A self-play run on disk: DIR/run.json (what the run plays) and DIR/games.pgn (what it has played).

games.pgn only ever grows by whole records appended by the driver, each written with one write()
and made durable (flush + fsync) before the next game is counted. A driver killed mid-write leaves
at most one torn record at the end; it is recognised structurally (a complete record ends with its
Result token and a blank line) and cut off before the run goes on, so every finished game is kept
byte for byte and the torn one is simply played again. Reading the file back needs only its tags,
not a replay of every move, so resuming a run of many thousand games is quick.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from hordes.core.position import Board
from hordes.engine.match import GameResult, Opening, TimeControl, ini_headers
from hordes.errors import HordesError
from hordes.notation.pgn import Game, pgn_variant_name, write_game
from hordes.selfplay.plan import GamePlan
from hordes.variants import load_variant

RUN_FILE = "run.json"
GAMES_FILE = "games.pgn"
LOCK_FILE = ".lock"
FORMAT = 1
EVENT = "hordes selfplay"

_RECORD_START = re.compile(rb"^\[Event ", re.MULTILINE)
_TAG = re.compile(rb'^\[([A-Za-z0-9_]+) "((?:[^"\\\n]|\\.)*)"\]$', re.MULTILINE)


# ----- run.json ------------------------------------------------------------------------------------
def tc_text(tc: TimeControl | None) -> str:
    return str(tc) if tc else "none"


def parse_tc(text: str) -> TimeControl | None:
    return None if text.strip().lower() == "none" else TimeControl.parse(text)


def plan_to_json(plan: GamePlan) -> dict[str, Any]:
    book: dict[str, Any]
    if plan.openings is None:
        book = {"plies": plan.book_plies}
    else:
        book = {"openings": [{"fen": o.fen, "moves": list(o.moves)} for o in plan.openings]}
    return {
        "variant": plan.variant,
        "player": plan.player,
        "opponent": plan.opponent,
        "tc": tc_text(plan.tc),
        "seed": plan.seed,
        "book": book,
        "max_plies": plan.max_plies,
        "time_margin": plan.time_margin,
    }


def plan_from_json(data: dict[str, Any]) -> GamePlan:
    book = data["book"]
    openings = None
    if "openings" in book:
        openings = tuple(Opening(o["fen"], tuple(o["moves"]), "run.json") for o in book["openings"])
    return GamePlan(
        variant=str(data["variant"]),
        player=str(data["player"]),
        opponent=str(data["opponent"]),
        tc=parse_tc(str(data["tc"])),
        seed=int(data["seed"]),
        book_plies=int(book.get("plies", 0)),
        openings=openings,
        max_plies=int(data["max_plies"]),
        time_margin=float(data["time_margin"]),
    )


@dataclass(frozen=True)
class StoredRun:
    plan: GamePlan
    games: int  # the largest number of games asked for so far
    hordes_version: str


def read_run(out: Path) -> StoredRun | None:
    """The run stored in `out`, or None for a new run."""
    path = out / RUN_FILE
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("format") != FORMAT:
            raise HordesError(f"{path}: unknown format {data.get('format')!r}")
        return StoredRun(plan_from_json(data), int(data["games"]), str(data.get("hordes_version", "?")))
    except (ValueError, KeyError, TypeError) as exc:
        if isinstance(exc, HordesError):
            raise
        raise HordesError(f"{path}: not a self-play run description ({exc})") from None


def write_run(out: Path, plan: GamePlan, games: int, version: str) -> None:
    """Replace run.json atomically: a reader sees the old file or the new one, never half of one."""
    data = {"format": FORMAT, "hordes_version": version, "games": games, **plan_to_json(plan)}
    data["written"] = time.strftime("%Y-%m-%dT%H:%M:%S%z")
    tmp = out / (RUN_FILE + ".tmp")
    with tmp.open("w", encoding="utf-8") as f:
        f.write(json.dumps(data, indent=1) + "\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, out / RUN_FILE)
    _fsync_dir(out)


# Setting names as the command line spells them, for the one-line conflict error.
_SETTING_NAMES = {
    "variant": "variant",
    "player": "--player",
    "opponent": "--opponent",
    "tc": "--tc",
    "seed": "--seed",
    "max_plies": "--max-plies",
    "time_margin": "time margin",
}


def check_same_plan(out: Path, stored: GamePlan, new: GamePlan) -> None:
    """Raise naming the first setting in which `new` differs from the run stored in `out`."""
    old_json, new_json = plan_to_json(stored), plan_to_json(new)
    for key in ("variant", "player", "opponent", "tc", "seed", "max_plies", "time_margin"):
        if old_json[key] != new_json[key]:
            raise HordesError(
                f"{out / RUN_FILE}: this run was started with {_SETTING_NAMES[key]} {old_json[key]}, "
                f"not {new_json[key]} (use another --out for a new run)"
            )
    old_book, new_book = old_json["book"], new_json["book"]
    if old_book == new_book:
        return
    if "plies" in old_book and "plies" in new_book:
        raise HordesError(
            f"{out / RUN_FILE}: this run was started with --book-plies {old_book['plies']}, "
            f"not {new_book['plies']} (use another --out for a new run)"
        )
    started = "an --openings file" if "openings" in old_book else "the random book"
    raise HordesError(
        f"{out / RUN_FILE}: this run was started with {started}; the --openings differ "
        "(use another --out for a new run)"
    )


# ----- games.pgn -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Record:
    """One finished game as games.pgn holds it."""

    game_id: int
    result: str
    termination: str
    start: int  # byte offsets in the file
    end: int


@dataclass(frozen=True)
class GamesFile:
    records: list[Record]
    valid_end: int  # bytes up to here are whole records
    size: int

    @property
    def torn(self) -> bool:
        return self.valid_end < self.size


def scan_games(path: Path) -> GamesFile:
    """The whole records of games.pgn, and where a torn last record (if any) begins.

    Damage anywhere but at the end is not something a killed driver can leave, so it is an error
    rather than something to repair silently."""
    data = path.read_bytes() if path.exists() else b""
    starts = [m.start() for m in _RECORD_START.finditer(data)]
    if data.strip() and (not starts or data[: starts[0]].strip()):
        raise HordesError(f"{path}: does not start with a game record; is it a hordes selfplay file?")
    records: list[Record] = []
    seen: set[int] = set()
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(data)
        record = _parse_record(data[start:end], start, end)
        if record is None:
            if n + 1 == len(starts):
                return GamesFile(records, start, len(data))  # the torn tail
            line = data.count(b"\n", 0, start) + 1
            raise HordesError(f"{path}: the game record at line {line} is damaged; remove it to resume")
        if record.game_id in seen:
            raise HordesError(f"{path}: holds game {record.game_id} twice")
        seen.add(record.game_id)
        records.append(record)
    return GamesFile(records, len(data), len(data))


def _parse_record(chunk: bytes, start: int, end: int) -> Record | None:
    head, sep, movetext = chunk.partition(b"\n\n")
    if not sep or not chunk.endswith(b"\n\n") or b"[" in movetext:  # "[": records run together
        return None
    tags = {m.group(1).decode(): m.group(2).decode("utf-8", "replace") for m in _TAG.finditer(head)}
    tokens = movetext.split()
    result = tags.get("Result", "")
    if not tokens or tokens[-1].decode("ascii", "replace") != result or result == "*":
        return None
    try:
        game_id = int(tags["GameId"])
    except (KeyError, ValueError):
        return None
    return Record(game_id, result, tags.get("Termination", "?"), start, end)


def cut_torn_tail(path: Path, games: GamesFile) -> None:
    if games.torn:
        os.truncate(path, games.valid_end)
        with path.open("rb") as f:
            os.fsync(f.fileno())


def game_record(game: GameResult, game_id: int, book_plies: int) -> bytes:
    """The PGN record of a finished game, with the tags `hordes balance` reads, and a blank line."""
    variant = load_variant(game.variant)
    headers = {
        "Event": EVENT,
        "Site": "hordes",
        "Date": time.strftime("%Y.%m.%d"),
        "Round": str(game_id),
        "White": game.white,
        "Black": game.black,
        "Result": game.result,
        "Variant": pgn_variant_name(variant),  # written for chess too: readers need not assume it
        "GameId": str(game_id),
        "Termination": game.termination,
        "TimeControl": game.tc,
        "PlyCount": str(len(game.moves)),
        "BookPlies": str(book_plies),
    }
    if game.error:
        headers["Annotator"] = game.error[:200]
    headers.update(ini_headers(game))
    board = Board(variant, game.start_fen)
    for text in game.moves:
        board.push_uci(text)
    return (write_game(Game.from_board(board, headers)) + "\n").encode("utf-8")


class GamesWriter:
    """Appends records to games.pgn; each is on disk before `append` returns."""

    def __init__(self, path: Path) -> None:
        self.path = path
        created = not path.exists()
        self._file: BinaryIO = path.open("ab")
        if created:
            _fsync_dir(path.parent)

    def append(self, record: bytes) -> None:
        self._file.write(record)
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        self._file.close()


@contextlib.contextmanager
def locked(out: Path) -> Iterator[None]:
    """Hold DIR/.lock: two drivers appending to one games.pgn would play games twice."""
    try:
        import fcntl
    except ImportError:  # not on Unix: no lock, the user must not start two drivers
        yield
        return
    with (out / LOCK_FILE).open("a") as f:
        try:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise HordesError(f"{out} is in use by another hordes selfplay run") from None
        try:
            yield
        finally:
            fcntl.flock(f.fileno(), fcntl.LOCK_UN)


def _fsync_dir(path: Path) -> None:
    with contextlib.suppress(OSError):  # not every platform can open a directory
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
