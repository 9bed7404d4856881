"""The FEN piece placement of a sparse board given as {square: letter}, for the tactics generators."""

from __future__ import annotations


def placement(cells: dict[int, str], files: int = 8, ranks: int = 8) -> str:
    """Rank by rank from the top; squares are rank * files + file; letters may be several characters
    (`+R`)."""
    rows = []
    for r in range(ranks - 1, -1, -1):
        row, empty = "", 0
        for f in range(files):
            piece = cells.get(r * files + f)
            if piece is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + piece
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows)
