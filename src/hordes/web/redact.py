"""Secrets out of the logs: seat tokens and invitations in a logged URL are replaced by `***`.

Browsers never put a token in a websocket URL or an API call any more, but a seat link or an
invitation is a URL (`/game/ID?token=…`, `?invite=…`) and its first request reaches uvicorn's access
log. The filter rewrites every record of the server's loggers before any handler formats it.
"""

from __future__ import annotations

import logging
import re

SECRET_PARAMS = ("token", "invite", "password", "new_password", "current_password")
_NAMES = "|".join(SECRET_PARAMS)
_SECRET = re.compile(rf"(?<![A-Za-z0-9_])((?:{_NAMES})=)[^&\s\"']*", re.IGNORECASE)
LOGGERS = ("uvicorn.access", "uvicorn.error", "uvicorn", "hordes.web")


def redact(text: str) -> str:
    return _SECRET.sub(r"\1***", text)


class RedactSecrets(logging.Filter):
    """Removes secrets from a record's message and arguments (it never drops a record)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: redact(v) if isinstance(v, str) else v for k, v in record.args.items()}
        return True


def install() -> None:
    """Put the filter on the server's loggers, once."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactSecrets) for f in logger.filters):
            logger.addFilter(RedactSecrets())
