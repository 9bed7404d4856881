"""Read a Fairy-Stockfish `variants.ini`: sections `[name]` or `[name:parent]` of `key = value` lines.

Fairy-Stockfish itself skips what it cannot read; here every line that is not a section header, a
`key = value` pair, a comment (`#` or `;`) or blank is an error naming its line, so that a typing
mistake is not silently ignored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from hordes.errors import HordesError, quoted

MAX_INI_BYTES = 2_000_000  # Fairy-Stockfish's own file with every example is about 80 kB
_HEADER = re.compile(r"^\[([^\[\]:]+)(?::([^\[\]:]+))?\]\s*$")


class IniError(HordesError):
    """A variants.ini that cannot be read: names the file and the line."""

    def __init__(self, source: str, line: int, problem: str) -> None:
        self.source = source
        self.line = line
        self.problem = problem
        super().__init__(f"{source}:{line}: {problem}")


@dataclass
class Entry:
    key: str
    value: str
    line: int


@dataclass
class Section:
    """One section: its name, the variant it inherits from (a section above or a built-in), and its
    entries in file order; a key given twice keeps its last value, as in Fairy-Stockfish."""

    name: str
    parent: str | None
    line: int
    source: str = "<string>"
    entries: dict[str, Entry] = field(default_factory=dict)

    def where(self, entry: Entry) -> str:
        return f"{self.source}:{entry.line}"


def parse_ini(text: str, source: str = "<string>") -> list[Section]:
    """The sections of an ini text, in file order. Raises IniError naming the first bad line."""
    if len(text) > MAX_INI_BYTES:
        raise IniError(source, 1, f"larger than the limit of {MAX_INI_BYTES} characters")
    sections: list[Section] = []
    seen: dict[str, int] = {}
    current: Section | None = None
    for number, raw in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            m = _HEADER.match(line)
            if not m:
                problem = f"malformed section header {quoted(line, 60)} (expected [name] or [name:parent])"
                raise IniError(source, number, problem)
            name, parent = m.group(1).strip(), m.group(2)
            if not name or (parent is not None and not parent.strip()):
                raise IniError(source, number, f"empty name in section header {quoted(line, 60)}")
            if name in seen:
                raise IniError(source, number, f"section [{name}] is already defined on line {seen[name]}")
            seen[name] = number
            current = Section(name, parent.strip() if parent else None, number, source)
            sections.append(current)
            continue
        key, sep, value = line.partition("=")
        key = key.strip()
        if not sep or not key:
            raise IniError(source, number, f"expected 'key = value', found {quoted(line, 60)}")
        if current is None:
            raise IniError(source, number, f"key {quoted(key, 40)} comes before any [section] header")
        current.entries[key] = Entry(key, value.strip(), number)
    return sections
