"""Errors raised by hordes. All are ValueError subclasses, so callers can catch ValueError."""

from __future__ import annotations


class HordesError(ValueError):
    """Base class of every error hordes raises for bad input."""


class BetzaError(HordesError):
    """A Betza movement string cannot be parsed."""


class VariantError(HordesError):
    """A variant document is invalid: names the file, the key and the problem."""

    def __init__(self, source: str, key: str, problem: str) -> None:
        self.source = source
        self.key = key
        self.problem = problem
        where = f"{source}: {key}" if key else source
        super().__init__(f"{where}: {problem}")


class UnknownVariantError(HordesError):
    """No variant of that name, alias or path."""


class InvalidFenError(HordesError):
    """A FEN cannot be parsed or describes an impossible position; names the bad field."""

    def __init__(self, fen: str, field: str, problem: str) -> None:
        self.fen = fen
        self.field = field
        self.problem = problem
        super().__init__(f"invalid FEN ({field}): {problem}: {fen!r}")


class InvalidMoveError(HordesError):
    """A move string is malformed (not merely illegal)."""


class IllegalMoveError(HordesError):
    """A well-formed move that is not legal in the position; names the move and the position."""

    def __init__(self, move: str, fen: str, reason: str = "") -> None:
        self.move = move
        self.fen = fen
        detail = f" ({reason})" if reason else ""
        super().__init__(f"illegal move {move!r} in {fen!r}{detail}")


class AmbiguousMoveError(IllegalMoveError):
    """A move text that matches several legal moves; names the candidates."""

    def __init__(self, move: str, fen: str, candidates: list[str]) -> None:
        super().__init__(move, fen)
        self.candidates = candidates
        self.args = (f"ambiguous move {move!r} in {fen!r} (candidates: {', '.join(candidates)})",)
