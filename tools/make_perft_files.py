"""Write the perft suites tests/perft/{chess,orda,khans}.perft from the rules oracles.

Usage::

    python tools/make_perft_files.py [--only chess|orda|khans ...] [--stockfish PATH]

Every count comes from running an oracle, never from a hand-typed number:

* chess: python-chess (``chess.Board`` legal moves, bulk-counted at the last ply). The positions are the
  chessprogramming wiki's perft suite, whose published counts are kept here and checked against what
  python-chess computes (a mismatch aborts). A depth whose tree would be too slow for python-chess
  (more than ``--chess-max-interior`` positions one ply above the leaves) is written with its published
  count and marked so in the file; with ``--stockfish PATH`` such counts are also checked with
  Stockfish's ``go perft``.
* orda, khans: pyffish (Fairy-Stockfish's Python binding) through tools/oracle_perft.py, with the variant
  config tests/data/orda.ini loaded first.

The files follow python-chess's perft format: records of ``id``, ``epd`` (the first four FEN fields) and
``perft DEPTH NODES`` lines, separated by blank lines; lines starting with ``#`` are comments.
"""

from __future__ import annotations

import argparse
import shlex
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import chess
import pyffish as sf
from oracle_perft import DEFAULT_CONFIG, REPO_ROOT, check_variant, load_config, perft_counts

CHESS_SOURCE = "https://www.chessprogramming.org/Perft_Results"


@dataclass(frozen=True)
class Case:
    """One perft record: an id, a full FEN, the deepest depth to write and an optional comment."""

    id: str
    fen: str
    depth: int
    note: str = ""
    published: tuple[int, ...] = ()  # chess only: the published counts for depths 1, 2, ...


CHESS: tuple[Case, ...] = (
    Case(
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        6,
        "Initial position.",
        (20, 400, 8902, 197281, 4865609, 119060324),
    ),
    Case(
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        5,
        '"Position 2" (Kiwipete, by Peter McKenzie).',
        (48, 2039, 97862, 4085603, 193690690),
    ),
    Case(
        "position3",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        6,
        '"Position 3".',
        (14, 191, 2812, 43238, 674624, 11030083),
    ),
    Case(
        "position4",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        5,
        '"Position 4".',
        (6, 264, 9467, 422333, 15833292),
    ),
    Case(
        "position4-mirrored",
        "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
        5,
        '"Position 4", mirrored (colours reversed).',
        (6, 264, 9467, 422333, 15833292),
    ),
    Case(
        "position5",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        5,
        '"Position 5".',
        (44, 1486, 62379, 2103487, 89941194),
    ),
    Case(
        "position6",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        5,
        '"Position 6" (by Steven Edwards).',
        (46, 2079, 89890, 3894594, 164075551),
    ),
)

ORDA: tuple[Case, ...] = (
    Case("start", "lhaykahl/8/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", 4, "Start position."),
    Case(
        "midgame-castling",
        "3yk3/a4l1a/1p1Qpppp/h1p5/P7/2P1PN2/PB3PPP/R3K2R w KQ - 1 14",
        3,
        "Random playout from the start; White can castle both sides.",
    ),
    Case(
        "midgame-promotion",
        "l1a1k1h1/2P5/h1p1ppp1/1N6/R3P3/3l4/4KPPP/3Q3R w - - 0 18",
        3,
        "Random playout from the start; a White pawn one step from promotion.",
    ),
    Case(
        "castle-both",
        "l2yk2l/1h4a1/pppp1ppp/8/4P3/2N2N2/PPPBQPPP/R3K2R w KQ - 0 1",
        3,
        "Both castlings legal (e1g1, e1c1).",
    ),
    Case(
        "castle-through-attacked",
        "1lk5/8/a7/8/8/8/8/R3K2R w KQ - 0 1",
        4,
        "Archer a6 covers f1: no e1g1. Lancer b8 covers only b1: e1c1 stays legal.",
    ),
    Case(
        "castle-into-attacked",
        "3k2l1/8/7a/8/8/8/8/R3K2R w KQ - 0 1",
        4,
        "Lancer g8 covers g1 and Archer h6 covers c1: neither castling is legal.",
    ),
    Case(
        "castle-lancer-knight-distance",
        "4k3/8/8/8/8/4l3/4P3/R3K2R w KQ - 0 1",
        4,
        "Lancer e3 reaches d1 and f1 only by non-capturing knight moves: both castlings legal.",
    ),
    Case(
        "castle-kheshig",
        "4k3/8/8/8/8/6h1/8/R3K2R w KQ - 0 1",
        4,
        "Kheshig g3 attacks f1 (knight) and f2 (king step): no e1g1; e1c1 legal.",
    ),
    Case(
        "castle-in-check",
        "4k3/8/8/8/4l3/8/8/R3K2R w KQ - 0 1",
        4,
        "Lancer e4 checks along the e-file: no castling.",
    ),
    Case(
        "ep-black-after-double-step",
        "4k3/8/8/8/2pPp3/8/8/4K3 b - d3 0 1",
        5,
        "White has just played d2d4: both Black pawns may take en passant (c4d3, e4d3).",
    ),
    Case(
        "ep-black-in-tree",
        "4k3/8/1p6/8/2p1p3/8/1P1P4/4K3 w - - 0 1",
        5,
        "White double steps b2b4 and d2d4 give Black en passant captures at ply 2.",
    ),
    Case(
        "ep-black-pinned",
        "8/8/8/8/k1pP3R/8/8/4K3 b - d3 0 1",
        5,
        "c4d3 en passant would expose the Khan on a4 to the rook on h4: illegal.",
    ),
    Case(
        "promotion-white",
        "1l2k3/P7/8/8/8/8/8/4K3 w - - 0 1",
        5,
        "White promotes to Queen or Kheshig, also capturing (a7a8q, a7a8h, a7b8q, a7b8h).",
    ),
    Case(
        "promotion-black",
        "4k3/8/8/8/8/8/6p1/4K2R b - - 0 1",
        5,
        "Black promotes to Queen or Kheshig, also capturing (g2g1q, g2g1h, g2h1q, g2h1h).",
    ),
    Case(
        "promoted-pieces",
        "4k3/1P6/8/3q4/8/1H6/6p1/4K2R w K - 0 1",
        3,
        "A White Kheshig and a Black Queen on the board; pawn g2 covers f1, so no castling.",
    ),
    Case(
        "lancer-archer-give-check",
        "3k4/8/2al4/8/8/8/8/R3K3 b - - 0 1",
        4,
        "Checks by quiet knight moves onto a capture line: c6b4, c6a5 (Archer), d6e4, d6e8 (Lancer).",
    ),
    Case(
        "in-check-lancer",
        "4k3/8/8/8/4l3/8/3P1P2/R3K3 w Q - 0 1",
        5,
        "White in check from the Lancer along the e-file.",
    ),
    Case(
        "in-check-archer",
        "4k3/8/8/a7/8/8/2P2P2/R3K2R w KQ - 0 1",
        4,
        "White in check from the Archer on the a5-e1 diagonal.",
    ),
    Case(
        "lancer-knight-distance",
        "4k3/8/8/8/3l4/8/4K3/8 w - - 0 1",
        5,
        "The Lancer is a knight's move from the White king but captures only as a rook: no check.",
    ),
    Case(
        "kheshig-check",
        "4k3/8/8/8/8/3h4/8/4K3 w - - 0 1",
        5,
        "White in check from a Kheshig a knight's move away.",
    ),
    Case(
        "yurt",
        "4k3/8/8/8/8/3y4/8/4K3 w - - 0 1",
        5,
        "Yurt d3 covers c2, d2, e2 (towards rank 1) and c4, e4, not its sides or d4.",
    ),
    Case(
        "yurt-check",
        "4k3/8/8/8/8/4p3/3y4/4K3 w - - 0 1",
        5,
        "White in check from the Yurt on d2 (defended by e3); e2, beside the Yurt, is safe.",
    ),
    Case(
        "checkmate-white",
        "4k3/8/8/8/8/8/5PPP/3l2K1 w - - 0 1",
        1,
        "White is checkmated by the Lancer on the back rank: no legal moves.",
    ),
    Case(
        "campmate-white",
        "7k/3K4/8/8/8/2p3a1/P7/8 w - - 0 1",
        5,
        "d7c8, d7d8, d7e8 win by campmate (c7 is covered by the Archer); the tree stops below them.",
    ),
    Case(
        "campmate-black",
        "8/p7/2P3B1/8/8/8/3k4/7K b - - 0 1",
        5,
        "d2c1, d2d1, d2e1 win by campmate for Black (c2 is covered by the bishop).",
    ),
    Case(
        "campmate-out-of-check",
        "7k/4K3/8/8/4l3/8/8/8 w - - 0 1",
        5,
        "White in check; e7d8 and e7f8 escape the check and win by campmate (e8 is still covered).",
    ),
    Case(
        "campmate-blocked-white",
        "l6k/3K4/8/8/8/1p6/P7/8 w - - 0 1",
        5,
        "The Lancer on a8 covers c8, d8, e8: no campmate.",
    ),
    Case(
        "campmate-blocked-black",
        "8/7K/8/8/8/8/3k4/R7 b - - 0 1",
        5,
        "The rook on a1 covers c1, d1, e1: no campmate for Black.",
    ),
    Case(
        "stalemate-white",
        "7k/7a/8/8/8/1y6/8/K7 w - - 0 1",
        1,
        "White is stalemated (Yurt b3 covers a2 and b2, Archer h7 covers b1): no legal moves, a draw.",
    ),
    Case(
        "stalemate-black",
        "k7/8/1Q6/8/8/8/8/7K b - - 0 1",
        1,
        "Black is stalemated: no legal moves, a draw.",
    ),
    Case(
        "after-campmate-white",
        "3K3k/8/1p6/8/8/2l5/8/8 b - - 0 1",
        1,
        "The White king stands on rank 8: the game is over, Black has no legal moves.",
    ),
    Case(
        "after-campmate-black",
        "8/8/4K3/8/8/8/8/3k4 w - - 0 1",
        1,
        "The Khan stands on rank 1: the game is over, White has no legal moves.",
    ),
    Case(
        "unreachable-black-double-step",
        "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1",
        5,
        "NOT REACHABLE IN PLAY (Black pawns start on rank 6 and never stand on rank 7). Fairy-Stockfish\n"
        "still gives a Black pawn on rank 7 the chess double step (d7d5) and lets White take it en\n"
        "passant (e5d6). Skip this record if the implementation rejects Black pawns on rank 7.",
    ),
)

KHANS: tuple[Case, ...] = (
    Case("start", "lhatkahl/ssssssss/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", 3, "Start position."),
    Case(
        "start-black-to-move",
        "lhatkahl/ssssssss/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQ - 0 1",
        3,
        "After 1. e4: the scouts' forward knight moves (fhN) from rank 7.",
    ),
    Case(
        "midgame-1",
        "l1at3h/s1sks1s1/h6s/2s5/3P4/P2aKP2/1P4PR/R1B3N1 w - - 0 14",
        3,
        "Random playout from the start.",
    ),
    Case(
        "midgame-2",
        "1hat1kh1/ss1s4/s2s4/7Q/P1P5/P3P2t/4P3/4KB2 w - - 0 17",
        3,
        "Random playout from the start.",
    ),
    Case(
        "scout-promotion",
        "4k3/8/8/8/8/2N5/1s1s2s1/3BK2R b K - 0 1",
        4,
        "Scouts reaching rank 1 must promote to a Khatun: d2b1t, d2f1t and d2d1t (capturing the\n"
        "bishop); b2 cannot move (its only knight move lands on the bishop, and scouts take only ahead).",
    ),
    Case(
        "scouts",
        "4k3/8/8/3s4/3P1s2/4P3/8/4K3 b - - 0 1",
        5,
        "Scouts move as forward knights (fhN, not capturing) and capture one step forward (cfW).",
    ),
    Case(
        "white-promotion",
        "1l2k3/P7/8/8/8/8/8/4K3 w - - 0 1",
        5,
        "White promotes as in chess (Q, R, B, N): khans sets only Black's promotion types.",
    ),
    Case(
        "khatun-check",
        "4k3/8/8/8/8/8/3t4/4K3 w - - 0 1",
        5,
        "White in check from the Khatun (captures as a king).",
    ),
    Case(
        "scout-check",
        "4k3/8/8/8/8/8/4s3/4K3 w - - 0 1",
        5,
        "White in check from a scout one step ahead of the king.",
    ),
    Case(
        "campmate-white",
        "7k/3K4/8/8/8/2s5/P7/8 w - - 0 1",
        5,
        "d7c8, d7d8, d7e8 win by campmate.",
    ),
    Case(
        "campmate-black",
        "8/8/2P5/8/8/8/3k4/7K b - - 0 1",
        5,
        "d2c1, d2d1, d2e1 win by campmate for Black.",
    ),
    Case(
        "stalemate-black",
        "k7/8/1Q6/8/8/8/8/7K b - - 0 1",
        1,
        "Black is stalemated: no legal moves; in khans (stalemateValue = loss) Black has lost.",
    ),
    Case(
        "stalemate-white",
        "7k/8/8/8/8/s7/2t5/K7 w - - 0 1",
        1,
        "White is stalemated (scout a3 covers a2, Khatun c2 covers b1, b2): White has lost.",
    ),
    Case(
        "after-campmate-black",
        "8/8/4K3/8/8/8/8/3k4 w - - 0 1",
        1,
        "The Khan stands on rank 1: the game is over, White has no legal moves.",
    ),
)

SUITES: dict[str, tuple[Case, ...]] = {"chess": CHESS, "orda": ORDA, "khans": KHANS}
TITLES = {
    "chess": "standard chess",
    "orda": 'Orda Chess (Fairy-Stockfish variant "orda" of tests/data/orda.ini)',
    "khans": 'Khan\'s Chess (variant "khans" of tests/data/orda.ini)',
}


def epd(fen: str) -> str:
    """The first four fields of a FEN."""
    return " ".join(fen.split()[:4])


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def chess_perft_counts(fen: str, depth: int) -> list[int]:
    """Perft of every depth from 1 to ``depth`` with python-chess, in one traversal."""
    board = chess.Board(fen)
    counts = [0] * depth

    def visit(ply: int) -> None:
        if ply + 1 == depth:
            counts[ply] += board.legal_moves.count()
            return
        for move in list(board.legal_moves):
            counts[ply] += 1
            board.push(move)
            visit(ply + 1)
            board.pop()

    if depth > 0:
        visit(0)
    return counts


class Stockfish:
    """A UCI engine (Stockfish or Fairy-Stockfish) used for its ``go perft`` command."""

    def __init__(self, path: str) -> None:
        self.path = path
        out = self._run("uci\n")
        names = [line[len("id name ") :] for line in out.splitlines() if line.startswith("id name ")]
        self.name = names[0] if names else Path(path).name

    def _run(self, commands: str) -> str:
        result = subprocess.run(
            [self.path],
            input=commands + "quit\n",
            capture_output=True,
            text=True,
            timeout=3600,
            check=True,
        )
        return result.stdout

    def perft(self, fen: str, depth: int) -> int:
        out = self._run(f"uci\nposition fen {fen}\ngo perft {depth}\n")
        for line in out.splitlines():
            if line.startswith("Nodes searched:"):
                return int(line.split(":", 1)[1])
        raise RuntimeError(f"{self.path}: no perft result for {fen!r} depth {depth}")


def chess_record(case: Case, max_interior: int, engine: Stockfish | None) -> list[str]:
    """Lines of one chess record: counts from python-chess, checked against the published ones."""
    assert len(case.published) >= case.depth, case.id
    if chess.Board(case.fen).status() != chess.STATUS_VALID:
        raise SystemExit(f"chess {case.id}: python-chess finds the position invalid: {case.fen}")
    computed_depth = 1
    while computed_depth < case.depth and case.published[computed_depth - 1] <= max_interior:
        computed_depth += 1
    start = time.monotonic()
    counts = chess_perft_counts(case.fen, computed_depth)
    log(f"chess {case.id}: python-chess depth {computed_depth} in {time.monotonic() - start:.1f}s")
    for depth, count in enumerate(counts, start=1):
        if count != case.published[depth - 1]:
            published = case.published[depth - 1]
            raise SystemExit(f"chess {case.id}: python-chess perft {depth} = {count}, published {published}")
    lines = [f"id {case.id}", f"# {case.note}"] if case.note else [f"id {case.id}"]
    for depth in range(computed_depth + 1, case.depth + 1):
        published = case.published[depth - 1]
        lines.append(
            f"# perft {depth}: the published count, not recomputed with python-chess "
            f"({case.published[depth - 2]} positions at depth {depth - 1})"
        )
        if engine is not None:
            checked = engine.perft(case.fen, depth)
            log(f"chess {case.id}: {engine.name} perft {depth} = {checked}")
            if checked != published:
                raise SystemExit(
                    f"chess {case.id}: {engine.name} perft {depth} = {checked}, published {published}"
                )
            lines.append(f"# perft {depth}: {engine.name} 'go perft {depth}' agrees")
        counts.append(published)
    lines.append(f"epd {epd(case.fen)}")
    lines.extend(f"perft {depth} {count}" for depth, count in enumerate(counts, start=1))
    return lines


def opponent_in_check(variant: str, fen: str) -> bool:
    """Is the side not to move in check (an illegal position, which pyffish does not reject)?"""
    fields = fen.split()
    fields[1] = "b" if fields[1] == "w" else "w"
    fields[3] = "-"
    return bool(sf.gives_check(variant, " ".join(fields), []))


def oracle_record(variant: str, case: Case) -> list[str]:
    """Lines of one orda/khans record, counted by pyffish."""
    if sf.validate_fen(case.fen, variant) != sf.FEN_OK:
        raise SystemExit(f"{variant} {case.id}: pyffish rejects the FEN {case.fen}")
    if opponent_in_check(variant, case.fen):
        raise SystemExit(f"{variant} {case.id}: the side not to move is in check in {case.fen}")
    start = time.monotonic()
    counts = perft_counts(variant, case.fen, case.depth)
    log(f"{variant} {case.id}: pyffish depth {case.depth} = {counts[-1]} in {time.monotonic() - start:.1f}s")
    lines = [f"id {case.id}"]
    lines.extend(f"# {line}" for line in case.note.splitlines())
    lines.append(f"epd {epd(case.fen)}")
    lines.extend(f"perft {depth} {count}" for depth, count in enumerate(counts, start=1))
    return lines


def header(suite: str, command: str, max_interior: int, engine: Stockfish | None) -> list[str]:
    lines = [f"# Perft counts for {TITLES[suite]}.", f"# Generated by: {command}"]
    if suite == "chess":
        lines += [
            f"# Positions and published counts: {CHESS_SOURCE}",
            f"# Counts computed with python-chess {chess.__version__} (bulk counting at the last ply) and",
            f"# equal to the published ones; a depth with more than {max_interior} positions one ply above",
            "# the leaves is the published count, marked in its record"
            + (f" and checked with {engine.name}." if engine else "."),
        ]
    else:
        version = ".".join(str(part) for part in sf.version())
        lines += [
            f"# Counts computed with pyffish {version} (Fairy-Stockfish) via tools/oracle_perft.py:",
            "# legal_moves recursion, bulk counting at the last ply. Fairy-Stockfish gives no legal moves",
            "# in a finished game (campmate, checkmate, stalemate), so such a position counts 0.",
        ]
    return lines


def write_suite(suite: str, out_dir: Path, command: str, max_interior: int, engine: Stockfish | None) -> Path:
    records: list[list[str]] = []
    for case in SUITES[suite]:
        if suite == "chess":
            records.append(chess_record(case, max_interior, engine))
        else:
            records.append(oracle_record(suite, case))
    text = "\n".join(header(suite, command, max_interior, engine)) + "\n\n"
    text += "\n\n".join("\n".join(record) for record in records) + "\n"
    path = out_dir / f"{suite}.perft"
    path.write_text(text)
    return path


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write tests/perft/*.perft from the rules oracles.")
    parser.add_argument(
        "--only", action="append", choices=sorted(SUITES), help="write only this suite (repeatable)"
    )
    parser.add_argument("--out-dir", type=Path, default=REPO_ROOT / "tests" / "perft")
    parser.add_argument("--config", type=Path, default=DEFAULT_CONFIG, help="Fairy-Stockfish variant config")
    parser.add_argument(
        "--chess-max-interior",
        type=int,
        default=1_000_000,
        help="largest number of positions one ply above the leaves that python-chess expands",
    )
    parser.add_argument(
        "--stockfish", help="UCI engine used to check the published chess counts not recomputed"
    )
    args = parser.parse_args(argv)

    suites = args.only or list(SUITES)
    if any(suite != "chess" for suite in suites):
        if not args.config.is_file():
            parser.error(f"no variant config at {args.config}")
        load_config(args.config)
        for suite in suites:
            if suite != "chess":
                check_variant(suite)
    engine = Stockfish(args.stockfish) if args.stockfish and "chess" in suites else None
    words = ["python", "tools/make_perft_files.py", *(argv if argv is not None else sys.argv[1:])]
    command = shlex.join(words)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    for suite in suites:
        path = write_suite(suite, args.out_dir, command, args.chess_max_interior, engine)
        log(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
