"""Reading users' text files (variant documents, PGN) with errors that name the file, never a traceback.

Every problem becomes an UnreadableFileError (a HordesError): a name too long for the file system,
a directory, a missing file, no permission, bytes that are not UTF-8, a file over the size limit.
The message names the file (shortened when long) and the reason, never the file's contents.
"""

from __future__ import annotations

import os

from hordes.errors import UnreadableFileError


def read_text_file(path: str | os.PathLike[str], *, max_bytes: int | None = None) -> str:
    """The file's text, decoded as UTF-8 (a leading byte-order mark dropped), with universal newlines
    (as `open()` in text mode reads it)."""
    name = os.fspath(path)
    try:
        with open(name, "rb") as fh:
            data = fh.read() if max_bytes is None else fh.read(max_bytes + 1)
    except OSError as exc:
        raise UnreadableFileError(name, exc.strerror or type(exc).__name__) from None
    except ValueError:  # an embedded NUL: no file can have that name
        raise UnreadableFileError(name, "not a file name (it contains a NUL character)") from None
    if max_bytes is not None and len(data) > max_bytes:
        raise UnreadableFileError(name, f"larger than the limit of {max_bytes} bytes")
    return decode_text(data, name)


def decode_text(data: bytes, name: str) -> str:
    """UTF-8 bytes as text with universal newlines; UnreadableFileError naming the first bad byte."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        reason = f"not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start})"
        raise UnreadableFileError(name, reason) from None
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text
