"""Shared helpers for the self-play tests: reading a run back, and finding worker processes."""

from __future__ import annotations

import os
from pathlib import Path

from hordes.notation.pgn import Game, read_games

REQUIRED_TAGS = ("Variant", "Result", "Termination", "PlyCount", "White", "Black", "TimeControl", "GameId")
# Fast players: a whole small run takes a second or two in any variant.
FAST = ["--tc", "none", "--player", "random", "--opponent", "hordes:depth=1", "--max-plies", "60"]


def read_run_games(out: Path, variant: str | None = None) -> list[Game]:
    """Every game of OUT/games.pgn, checked: read back without error (which replays every move
    legally), with the tags other tools read, a PlyCount that matches the moves, and unique GameIds."""
    games = list(read_games(out / "games.pgn"))
    ids = []
    for game in games:
        assert game.error is None, game.error
        for tag in REQUIRED_TAGS:
            assert tag in game.headers, (tag, game.headers)
        assert int(game.headers["PlyCount"]) == len(game.mainline_moves())
        assert game.headers["Result"] in ("1-0", "0-1", "1/2-1/2")
        if variant is not None:
            assert game.variant.slug == variant
        ids.append(int(game.headers["GameId"]))
    assert len(ids) == len(set(ids)), f"duplicated GameIds: {sorted(ids)}"
    return games


def game_ids(out: Path) -> list[int]:
    return sorted(int(g.headers["GameId"]) for g in read_run_games(out))


def descendants(pid: int) -> list[int]:
    """Child processes of `pid`, their children and so on (Linux /proc)."""
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except FileNotFoundError:
        return found
    for task in tasks:
        try:
            text = Path(f"/proc/{pid}/task/{task}/children").read_text()
        except OSError:
            continue
        for child in map(int, text.split()):
            found.append(child)
            found.extend(descendants(child))
    return found


def cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def alive(pid: int) -> bool:
    """True while the process exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"
