"""Reading a body of games for a balance report: one record per readable game, the broken ones apart.

A record keeps only what the report needs (result, how the game ended, its length and its opening),
so a directory of many thousands of games does not stay in memory as game trees.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from hordes.errors import HordesError, UnreadableFileError
from hordes.notation.pgn import Game, initial_fen, read_games, resolve_variant
from hordes.notation.san import variation_san

DECISIVE = ("1-0", "0-1")
FINISHED = ("1-0", "0-1", "1/2-1/2")
UNFINISHED = "*"
UNKNOWN = "unknown"
# Termination tag values that say nothing about how the game ended.
_NO_TERMINATION = {"", "?", "-", "unterminated"}


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One readable game. `termination` is the tag's value (lower case), or what the final position
    says when the tag is missing (`termination_inferred`), or "unknown"; `opening` is the first plies
    in numbered SAN; `start_fen` is set only for a game that did not begin at its variant's start."""

    source: str
    number: int
    variant: str
    result: str
    termination: str
    termination_inferred: bool
    plies: int
    opening: str
    start_fen: str | None = None

    @property
    def finished(self) -> bool:
        return self.result in FINISHED


@dataclass(frozen=True, slots=True)
class BrokenGame:
    """A game left out of the report, and why. `number` counts from 1 in its file (0: the whole file)."""

    source: str
    number: int
    reason: str

    def __str__(self) -> str:
        where = f"{self.source}, game {self.number}" if self.number else self.source
        return f"{where}: {self.reason}"


@dataclass(slots=True)
class BalanceData:
    """Every game read from the sources (of the chosen variant, if one was chosen)."""

    sources: list[str]
    opening_plies: int
    games: list[GameRecord] = field(default_factory=list)
    broken: list[BrokenGame] = field(default_factory=list)
    titles: dict[str, str] = field(default_factory=dict)  # variant slug -> title
    other_variants: Counter[str] = field(default_factory=Counter)  # games left out by the variant filter
    inis: Counter[str] = field(default_factory=Counter)  # WhiteIni/BlackIni tags: Fairy-Stockfish's ini

    def variants(self) -> list[str]:
        """The variants present, most games first."""
        counts = Counter(g.variant for g in self.games)
        return sorted(counts, key=lambda slug: (-counts[slug], slug))


def pgn_files(path: str | os.PathLike[str]) -> list[Path]:
    """The PGN files of a path: the file itself, or every *.pgn below a directory in sorted order."""
    root = Path(path)
    if not root.exists():
        raise HordesError(f"{root}: no such file or directory")
    if root.is_dir():
        files = sorted(p for p in root.rglob("*") if p.suffix.lower() == ".pgn" and p.is_file())
        if not files:
            raise HordesError(f"{root}: no .pgn files in this directory")
        return files
    return [root]


def collect(
    paths: Iterable[str | os.PathLike[str]], variant: str | None = None, opening_plies: int = 4
) -> BalanceData:
    """Read every game of the given PGN files and directories. Broken games and games with a
    result other than 1-0, 0-1, 1/2-1/2 or * go to `broken`; none of them stops the reading.

    `variant` keeps only the games of that variant (a name, alias or title; UnknownVariantError if
    there is no such variant). Raises HordesError when a path is missing or no game is found.
    """
    if opening_plies < 0:
        raise HordesError(f"--opening-plies must be 0 or more, not {opening_plies}")
    wanted = resolve_variant(variant).slug if variant else None
    sources = [str(p) for p in paths]
    files = [f for p in sources for f in pgn_files(p)]
    data = BalanceData(sources=sources, opening_plies=opening_plies)
    for path in files:
        _read_file(path, data, wanted, opening_plies)
    where = ", ".join(sources)
    if not data.games:
        if wanted and data.other_variants:
            found = ", ".join(f"{slug} {n}" for slug, n in data.other_variants.most_common())
            raise HordesError(f"no {wanted} games in {where} (found: {found})")
        raise HordesError(f"no readable games in {where}")
    return data


def _read_file(path: Path, data: BalanceData, wanted: str | None, opening_plies: int) -> None:
    try:
        games = read_games(path)  # reads the text now, parses game by game
    except UnreadableFileError as exc:  # not UTF-8, too large, gone: the file is left out, not fatal
        data.broken.append(BrokenGame(str(path), 0, exc.reason))
        return
    for game in games:
        if game.error is not None:
            err = game.error
            where = [f"move {err.move}" if err.move else "", f"line {err.line}" if err.line else ""]
            detail = ", ".join(w for w in where if w)
            reason = f"{err.problem} ({detail})" if detail else err.problem
            data.broken.append(BrokenGame(str(path), game.number, reason))
            continue
        slug = game.variant.slug
        if wanted is not None and slug != wanted:
            data.other_variants[slug] += 1
            continue
        if game.result not in (*FINISHED, UNFINISHED):
            reason = f"result {game.result!r} is none of 1-0, 0-1, 1/2-1/2, *"
            data.broken.append(BrokenGame(str(path), game.number, reason))
            continue
        data.titles.setdefault(slug, game.variant.title)
        data.games.append(record(game, str(path), opening_plies))
        for tag in ("WhiteIni", "BlackIni"):
            if game.headers.get(tag):
                data.inis[game.headers[tag]] += 1


def record(game: Game, source: str = "", opening_plies: int = 4) -> GameRecord:
    """What the report keeps of a readable game."""
    moves = list(game.mainline_moves())
    start = game.start_board()
    opening = variation_san(start, moves[:opening_plies])
    termination, inferred = termination_of(game)
    custom_start = game.start_fen != initial_fen(game.variant)
    return GameRecord(
        source=source,
        number=game.number,
        variant=game.variant.slug,
        result=game.result,
        termination=termination,
        termination_inferred=inferred,
        plies=len(moves),
        opening=opening,
        start_fen=game.start_fen if custom_start else None,
    )


def termination_of(game: Game) -> tuple[str, bool]:
    """(how the game ended, whether that was inferred). The Termination tag when there is one;
    otherwise the rules' verdict on the final position if it agrees with the result; else unknown."""
    tag = " ".join(game.headers.get("Termination", "").split()).lower()
    if tag not in _NO_TERMINATION:
        return tag, False
    if game.result not in FINISHED:
        return UNKNOWN, False
    outcome = game.end().board().outcome()
    if outcome is not None and outcome.result() == game.result:
        return outcome.termination.value, True
    return UNKNOWN, False  # resigned, agreed or adjudicated without saying so


def count_by_result(records: Sequence[GameRecord]) -> tuple[int, int, int]:
    """(White wins, draws, Black wins) among the records."""
    white = sum(1 for g in records if g.result == "1-0")
    black = sum(1 for g in records if g.result == "0-1")
    draws = sum(1 for g in records if g.result == "1/2-1/2")
    return white, draws, black
