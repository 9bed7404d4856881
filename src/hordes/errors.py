"""Errors raised by hordes. All are ValueError subclasses, so callers can catch ValueError."""

from __future__ import annotations

# Longer inputs are shortened in messages: an error names what is wrong, it does not echo a megabyte.
QUOTE_LIMIT = 100


def quoted(text: str, limit: int = QUOTE_LIMIT) -> str:
    """`repr(text)`, or for a long text its beginning and its length: `'xxxx…' (5000 characters)`."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}… ({len(text)} characters)"


class HordesError(ValueError):
    """Base class of every error hordes raises for bad input."""


class UnreadableFileError(HordesError):
    """A file that cannot be read as text: names the file (shortened if long) and why, never its contents."""

    def __init__(self, path: str, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"cannot read {quoted(path)}: {reason}")


class BetzaError(HordesError):
    """A Betza movement string cannot be parsed."""


class VariantError(HordesError):
    """A variant document is invalid: names the file, the line (when known), the key and the problem.

    The error raised for a document is its first problem; `errors` lists every problem found in it
    (the loader goes on checking after the first one), that error included.
    """

    def __init__(self, source: str, key: str, problem: str, line: int = 0) -> None:
        self.source = source
        self.key = key
        self.problem = problem
        self.line = line
        self.errors: list[VariantError] = [self]
        where = f"{source}:{line}" if line else source
        if key:
            where += f": {key}"
        super().__init__(f"{where}: {problem}")


class UnknownVariantError(HordesError):
    """No variant of that name, alias or path."""


class InvalidFenError(HordesError):
    """A FEN cannot be parsed or describes an impossible position; names the bad field."""

    def __init__(self, fen: str, field: str, problem: str) -> None:
        self.fen = fen
        self.field = field
        self.problem = problem
        super().__init__(f"invalid FEN ({field}): {problem}: {quoted(fen, 300)}")


class InvalidMoveError(HordesError):
    """A move string is malformed (not merely illegal)."""


class IllegalMoveError(HordesError):
    """A well-formed move that is not legal in the position; names the move and the position."""

    def __init__(self, move: str, fen: str, reason: str = "") -> None:
        self.move = move
        self.fen = fen
        detail = f" ({reason})" if reason else ""
        super().__init__(f"illegal move {quoted(move)} in {quoted(fen, 300)}{detail}")


class AmbiguousMoveError(IllegalMoveError):
    """A move text that matches several legal moves; names the candidates."""

    def __init__(self, move: str, fen: str, candidates: list[str]) -> None:
        super().__init__(move, fen)
        self.candidates = candidates
        listed = ", ".join(candidates)
        self.args = (f"ambiguous move {quoted(move)} in {quoted(fen, 300)} (candidates: {listed})",)
