"""Inaccuracies, mistakes and blunders: each move of a line judged from the engine's evaluations.

The thresholds are lichess's, in win-probability terms. A centipawn score becomes White's winning
chance with lichess's logistic curve (scores capped at +-1000 cp first):

    win = 1 / (1 + exp(-WIN_SLOPE * cp))        (0..1; lichess writes it as 50 + 50 * (2w - 1) %)

A move is judged by how much it lowers the mover's win probability, from the position before it to
the position after it: at least 5 percentage points is an inaccuracy (?!), 10 a mistake (?), 15 a
blunder (??). (Lichess states the same steps as 0.1 / 0.2 / 0.3 of "winning chances" on a -1..+1
scale.) Forced mates are judged as lichess does: letting the opponent force mate, or losing one's
own forced mate, is a blunder, a mistake when the other score is past 700 cp anyway, and an
inaccuracy past 999 cp. A finished game's last position (scored WON_CP by the engine pool) counts as
mate for its winner.

Evaluations are White's point of view: {"cp": int | None, "mate": int | None} (mate in moves,
positive when White mates). A position without a score judges neither move next to it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

WIN_SLOPE = 0.00368208  # lichess's WinPercent curve
CP_CEILING = 1000  # scores are capped here before the curve, as lichess does
WON_CP = 10_000  # engine_pool's score for a finished game's winner
# (drop in the mover's win probability, judgement), the worst first.
THRESHOLDS = ((0.15, "blunder"), (0.10, "mistake"), (0.05, "inaccuracy"))
GLYPHS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
NAGS = {"inaccuracy": 6, "mistake": 2, "blunder": 4}  # PGN's $6, $2, $4
# Judging a forced mate created or lost: the mover's other score past these softens the verdict.
MATE_SOFT_CP = ((999, "inaccuracy"), (700, "mistake"))

Evaluation = Mapping[str, Any]


def win_probability(cp: int) -> float:
    """White's chance of winning (0..1) for a centipawn score from White's point of view."""
    capped = max(-CP_CEILING, min(CP_CEILING, cp))
    return 1 / (1 + math.exp(-WIN_SLOPE * capped))


def _mate(ev: Evaluation) -> int | None:
    """The forced mate of an evaluation (White's sign); a won final position counts as one."""
    mate = ev.get("mate")
    if mate is not None:
        return int(mate)
    cp = ev.get("cp")
    if cp is not None and abs(cp) >= WON_CP:
        return 1 if cp > 0 else -1
    return None


def judge(before: Evaluation, after: Evaluation, white_moved: bool) -> str | None:
    """ "inaccuracy", "mistake", "blunder" or None for the move between two evaluated positions."""
    sign = 1 if white_moved else -1
    mate_before, mate_after = _mate(before), _mate(after)
    cp_before, cp_after = before.get("cp"), after.get("cp")
    if mate_before is None and mate_after is None:
        if cp_before is None or cp_after is None:
            return None
        drop = sign * (win_probability(cp_before) - win_probability(cp_after))
        return next((name for limit, name in THRESHOLDS if drop >= limit - 1e-12), None)
    mine_before = None if mate_before is None else sign * mate_before
    mine_after = None if mate_after is None else sign * mate_after
    created = mine_before is None and mine_after is not None and mine_after < 0
    lost = mine_before is not None and mine_before > 0 and (mine_after is None or mine_after < 0)
    if created:  # the opponent can now force mate: how bad it is depends on how lost it already was
        other = sign * (cp_before or 0)  # the mover's score before
        return next((name for limit, name in MATE_SOFT_CP if other < -limit), "blunder")
    if lost:  # the mover had a forced mate and let it go
        other = sign * (cp_after or 0) if mine_after is None else -CP_CEILING  # the mover's after
        return next((name for limit, name in MATE_SOFT_CP if other > limit), "blunder")
    return None


def judge_line(evaluations: Sequence[Evaluation], white_first: bool) -> list[str | None]:
    """The judgement of each position's move: item k judges the move that led to evaluations[k]
    (item 0, the start, is None). `white_first`: White makes the first move of the line. Evaluations
    must be of consecutive plies (`ply` k+1 after k); one missing judges neither neighbour."""
    out: list[str | None] = [None] * len(evaluations)
    for k in range(1, len(evaluations)):
        before, after = evaluations[k - 1], evaluations[k]
        if "ply" in before and "ply" in after and after["ply"] != before["ply"] + 1:
            continue
        white_moved = white_first == (int(before.get("ply", k - 1)) % 2 == 0)
        out[k] = judge(before, after, white_moved)
    return out


def with_judgements(evaluations: list[dict[str, Any]], white_first: bool) -> list[dict[str, Any]]:
    """The evaluations (sorted by ply, the line's start being ply 0) with a `judgement` each."""
    return [
        ev | {"judgement": j} for ev, j in zip(evaluations, judge_line(evaluations, white_first), strict=True)
    ]
