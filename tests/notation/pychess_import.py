"""pychess-variants' PGN import, rewritten from their sources as a check for our writer.

Pasting a PGN on pychess.org/paste runs, in the browser, `importGame` of client/paste.ts: it reads the
game with ffish.js's `readGamePGN` (Fairy-Stockfish src/ffishjs.cpp, `read_game_pgn`), replays the main
line on an ffish Board, and posts the tags, the UCI moves and the final FEN to the server's `/import`
(`import_game` in server/utils.py), which stores the game. `pychess_import` follows the same steps:

- tags (read_game_pgn): lines that begin with `[` before the first other line; the name runs to the
  first space, the value from the first `"` to the next one, with no unescaping;
- Variant (paste.ts parseVariantTag, utils.py import_game): lowercased, a `960` suffix means Chess960,
  no tag means chess; it must be one of pychess-variants' variants (VARIANTS in client/variants.ts);
- FEN (paste.ts validateFenTag): Fairy-Stockfish's validate_fen must accept it;
- movetext (read_game_pgn): per line, a token starting with `*` ends the game, `{` skips to the next
  `}` (across lines), `(` skips to its matching `)` (comments inside skipped too), `$` skips to the
  next space, a digit is a move number up to the next `.` (which is how `1-0` and the other results
  end the reading when nothing follows), and anything else up to the next space is a SAN move, with
  `?` and `!` cut off;
- moves (ffishjs.cpp Board::push_san): a SAN is played if it is exactly Fairy-Stockfish's SAN of a
  legal move. ffish skips a SAN it cannot play without a word; here that is an error, since a game
  that lost a move was not imported as written;
- Result (utils.py import_game): one of R2C's (server/compress.py), otherwise stored as `*`;
  TimeControl `base+inc` in seconds (anything else is stored as no clock); Termination becomes a
  status by the words in it (paste.ts getStatus).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tests.fsf import oracle

# The variants of client/variants.ts VARIANTS that hordes has too (pychess-variants has many more).
PYCHESS_VARIANTS = {"chess", "orda", "khans"}
R2C = {"1-0": "a", "0-1": "b", "1/2-1/2": "c", "*": "d"}
UNKNOWN_FINISH = 11


class ImportRejected(ValueError):
    """What pychess-variants would refuse or get wrong."""


@dataclass
class Imported:
    """What the server stores for an imported game."""

    variant: str
    chess960: bool
    tags: dict[str, str]
    initial_fen: str
    moves: list[str]  # UCI
    final_fen: str
    result: str
    base: int  # minutes, as import_game stores it
    inc: int
    status: int
    sans: list[str] = field(default_factory=list)


def read_tags_and_sans(pgn: str) -> tuple[dict[str, str], list[str]]:
    """read_game_pgn's reading of the text, stopping where it stops, without playing the moves."""
    tags: dict[str, str] = {}
    sans: list[str] = []
    size = len(pgn)
    line_start = 0
    headers_parsed = False
    while True:
        line_end = pgn.find("\n", line_start)
        if line_end < 0:
            line_end = size
        if not headers_parsed and line_start < size and pgn[line_start] == "[":
            key_end = pgn.find(" ", line_start)
            value_start = pgn.find('"', key_end) + 1
            value_end = pgn.find('"', value_start)
            tags[pgn[line_start + 1 : key_end]] = pgn[value_start:value_end]
        else:
            headers_parsed = True
            cur = line_start
            while cur <= line_end:
                char = pgn[cur] if cur < size else ""
                if char == "*":
                    return tags, sans
                if char == "{":
                    cur = pgn.find("}", cur)
                    if cur < 0:
                        raise ImportRejected("Missing '}' for move comment while reading pgn.")
                    if cur > line_end:
                        line_end = _line_end(pgn, cur)
                    cur += 1
                    char = pgn[cur] if cur < size else ""
                if char == "(":
                    opened = 1
                    cur += 1
                    while opened:
                        if cur >= size:
                            raise ImportRejected("unclosed variation (ffish reads past the end)")
                        c = pgn[cur]
                        if c == "(":
                            opened += 1
                        elif c == ")":
                            opened -= 1
                        elif c == "{":
                            cur = pgn.find("}", cur)
                            if cur < 0:
                                raise ImportRejected("Missing '}' for move comment while reading pgn.")
                        cur += 1
                        if cur > line_end:
                            line_end = _line_end(pgn, cur)
                    char = pgn[cur] if cur < size else ""
                if char == "$":
                    cur = pgn.find(" ", cur)
                    if cur < 0:
                        raise ImportRejected("a NAG at the very end (ffish reads past the end)")
                    char = pgn[cur]
                if char.isdigit() and char.isascii():
                    cur = pgn.find(".", cur)
                    if cur < 0:
                        break
                    cur += 1
                    while cur < size and pgn[cur] == " ":
                        cur += 1
                    while cur < size and pgn[cur] == ".":
                        cur += 1
                space = pgn.find(" ", cur)
                san_end = min(space if space >= 0 else size, line_end)
                if san_end > cur:
                    san = pgn[cur:san_end]
                    cut = min((i for i in (san.find("?"), san.find("!")) if i >= 0), default=-1)
                    sans.append(san[:cut] if cut >= 0 else san)
                cur = san_end + 1
        line_start = line_end + 1
        if line_start >= size:
            return tags, sans


def _line_end(pgn: str, pos: int) -> int:
    end = pgn.find("\n", pos)
    return end if end >= 0 else len(pgn)


def _status(termination: str) -> int:
    """paste.ts getStatus."""
    words = termination.lower()
    for word, status in (
        ("checkmate", 1),
        ("resign", 2),
        ("stalemate", 3),
        ("draw", 5),
        ("repetition", 5),
        ("insufficient", 5),
        ("time", 6),
        ("abandon", 7),
    ):
        if word in words:
            return status
    return UNKNOWN_FINISH


def pychess_import(pgn: str, proposed: list[str] | None = None) -> Imported:
    """What pychess-variants stores for this pasted PGN, or ImportRejected saying why it would not.

    Finding each SAN among the legal moves costs a few pyffish calls per move (2 ms each), so the
    caller may propose the UCI moves (ours): they are taken only if Fairy-Stockfish's SAN of them is
    exactly the text's tokens, which is what ffish needs to play them. Otherwise, or without a
    proposal, each SAN is looked for among the legal moves, as ffish does."""
    sf: Any = oracle()
    tags, sans = read_tags_and_sans(pgn)
    raw = tags.get("Variant") or "chess"
    variant = raw.lower()
    chess960 = "960" in variant or "random" in variant
    variant = variant.removesuffix("960")
    if variant not in PYCHESS_VARIANTS:
        raise ImportRejected(f"Unsupported PGN Variant tag: {raw}")
    fen = tags.get("FEN") or sf.start_fen(variant)
    if "FEN" in tags and sf.validate_fen(fen, variant, chess960) != 1:
        raise ImportRejected(f"Invalid [FEN] tag: {fen}")
    if proposed is not None and len(proposed) == len(sans) and _fsf_sans(sf, variant, fen, proposed) == sans:
        return _imported(sf, tags, variant, chess960, fen, list(proposed), sans)
    moves: list[str] = []
    position = fen
    for ply, san in enumerate(sans, 1):
        played = [m for m in sf.legal_moves(variant, position, []) if sf.get_san(variant, position, m) == san]
        if not played:
            raise ImportRejected(
                f"ffish cannot play {san!r} at ply {ply}: not Fairy-Stockfish's SAN of a legal move"
            )
        moves.append(played[0])
        position = sf.get_fen(variant, position, [played[0]])
    return _imported(sf, tags, variant, chess960, fen, moves, sans)


def _fsf_sans(sf: Any, variant: str, fen: str, moves: list[str]) -> list[str] | None:
    try:
        return list(sf.get_san_moves(variant, fen, moves))
    except ValueError:  # pyffish refuses an illegal move
        return None


def _imported(
    sf: Any, tags: dict[str, str], variant: str, chess960: bool, fen: str, moves: list[str], sans: list[str]
) -> Imported:
    result = tags.get("Result", "*")
    base, inc = 0, 0
    parts = tags.get("TimeControl", "").split("+")
    if len(parts) == 2 and all(p.isdigit() for p in parts):
        seconds = int(parts[0])
        base, inc = int(seconds / 60 if seconds > 60 else seconds), int(parts[1])
    return Imported(
        variant=variant,
        chess960=chess960,
        tags=tags,
        initial_fen=fen,
        moves=moves,
        final_fen=sf.get_fen(variant, fen, moves),
        result=result if result in R2C else "*",
        base=base,
        inc=inc,
        status=_status(tags["Termination"]) if tags.get("Termination") else UNKNOWN_FINISH,
        sans=sans,
    )
