"""Read perft files in the python-chess/shakmaty format: `id`, `epd`, `perft N count` records."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

PERFT_DIR = Path(__file__).parent / "perft"


@dataclass
class PerftCase:
    id: str
    epd: str
    counts: dict[int, int] = field(default_factory=dict)
    source: str = ""


def read_perft_file(path: Path) -> list[PerftCase]:
    cases: list[PerftCase] = []
    current: PerftCase | None = None
    for lineno, raw in enumerate(path.read_text().splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, _, value = line.partition(" ")
        if key == "id":
            current = PerftCase(value.strip(), "", source=f"{path.name}:{lineno}")
            cases.append(current)
        elif key == "epd" and current is not None:
            current.epd = value.strip()
        elif key == "perft" and current is not None:
            depth, count = value.split()
            current.counts[int(depth)] = int(count)
        else:
            raise ValueError(f"{path}:{lineno}: unexpected line {raw!r}")
    return cases
