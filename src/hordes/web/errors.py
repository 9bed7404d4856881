"""The errors the web app answers with: a status, a stable machine word and a message."""

from __future__ import annotations


class GameError(Exception):
    """A request the service refuses. `status` is the HTTP status, `code` a stable machine word."""

    status = 400
    code = "bad_request"

    def __init__(self, message: str, *, code: str | None = None, status: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code:
            self.code = code
        if status:
            self.status = status

    def as_dict(self) -> dict[str, str]:
        return {"error": self.code, "message": self.message}


class NotFound(GameError):
    status = 404
    code = "not_found"


class Forbidden(GameError):
    status = 403
    code = "forbidden"


class Conflict(GameError):
    status = 409
    code = "conflict"


class IllegalMove(GameError):
    status = 422
    code = "illegal_move"
