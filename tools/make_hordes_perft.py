"""Write tests/perft/hordes.perft from the independent reference generator (tests/reference).

    .venv/bin/python tools/make_hordes_perft.py [--deep]

--deep adds the start position's depth 4 (about 4 minutes in the reference generator).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.reference.hoc_reference import RefPosition, perft  # noqa: E402

POSITIONS = [
    ("start", "bbrkkrbb/rbbrrbbr/brbrrbrb/8/8/BRBRRBRB/RBBRRBBR/BBRKKRBB w - - 0 1", 3),
    ("sparse-magnets", "4k3/8/2b5/8/3+R4/8/5R2/2K3N1 w - - 0 1", 3),
    ("both-magnets", "k1n5/1r6/8/3+b4/8/2B5/6R1/4K2N w - - 0 1", 3),
    ("black-to-move", "4kk2/8/1+r6/8/4B3/8/1+B3r2/3KN3 b - - 0 1", 3),
    ("knight-royals", "n6k/8/8/3R4/2+B5/8/8/K6N w - - 0 1", 3),
    ("middle-1", "bbrkkrbb/1+bb+rrbbr/1+r1r2rb/3b4/rB1+b2r1/2BR2RB/1BBRB+B+BR/B+BRNKR+BB w - - 3 13", 3),
    ("middle-2", "b+brkkrbb/1+bbr+r+b2/rr+bb1+b1b/R2R4/1R1BB1+b1/2NBR1+RR/1BB+RRB1R/+BBR1KRBB w - - 0 21", 3),
]


def main() -> None:
    deep = "--deep" in sys.argv
    out = [
        "# Hordes of Change perft counts from the independent reference generator",
        "# (tests/reference/hoc_reference.py)",
        "# written by: .venv/bin/python tools/make_hordes_perft.py --deep",
        "",
    ]
    for name, fen, depth in POSITIONS:
        pos = RefPosition.from_fen(fen)
        out += [f"id {name}", f"epd {fen}"]
        for d in range(1, depth + (2 if deep and name == "start" else 1)):
            out.append(f"perft {d} {perft(pos, d)}")
        out.append("")
    (ROOT / "tests" / "perft" / "hordes.perft").write_text("\n".join(out))


if __name__ == "__main__":
    main()
