"""Game clocks: time controls, and the clock state machine the server keeps for each timed game.

Everything here is pure: times are integers of milliseconds since the epoch passed in by the caller
(the game service asks its injected `now`), so tests move time forward without waiting.

Three kinds of game:
- untimed (no TimeControl, `None`): today's behaviour, and the default for API clients;
- a clock, base + increment in seconds (the lobby's presets, or any custom pair within bounds);
- correspondence: 1, 3 or 7 days per move; each move resets the mover's time to the full period.

How a clock game runs (as on lichess):
- The first move of each side is not timed. Instead each side has FIRST_MOVE seconds, from the
  moment both seats are filled (or the first move is made), to make it; past that the game is
  aborted (no result). A correspondence game's first moves get their day period instead.
- From the second ply on, the side to move's time runs from `turn_started` (when the previous move
  was stored). A move is charged the time since then, and the increment is added after it.
- When the side to move's time is used up the flag falls (`verdict`).

The stored state is the time each side had at the start of the current turn and the moment that
turn started: the server never counts down, it works time out from timestamps.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from hordes.web.errors import GameError

# Presets as (base seconds, increment seconds): 1+0, 3+0, 3+2, 5+3, 10+5, 15+10, 30+20.
PRESETS: tuple[tuple[int, int], ...] = (
    (60, 0),
    (180, 0),
    (180, 2),
    (300, 3),
    (600, 5),
    (900, 10),
    (1800, 20),
)
CORRESPONDENCE_DAYS = (1, 3, 7)
# Seconds; lichess's shortest base is a quarter of a minute (`hordes serve --clock-min-base`: tests).
MIN_BASE = 15
MAX_BASE = 3 * 60 * 60  # seconds
MAX_INCREMENT = 180  # seconds
FIRST_MOVE_MS = 30_000  # to make the first move of one's side, or the game is aborted
DAY_MS = 86_400_000
_PRESET_TEXT = re.compile(r"(\d{1,5})\+(\d{1,3})")


@dataclass(frozen=True, slots=True)
class TimeControl:
    """A clock (`base_ms` + `inc_ms`) or correspondence (`days` per move)."""

    base_ms: int = 0
    inc_ms: int = 0
    days: int | None = None

    @property
    def correspondence(self) -> bool:
        return self.days is not None

    @property
    def period_ms(self) -> int:
        """What each side has at the start: the base, or a correspondence move's days."""
        return self.days * DAY_MS if self.days is not None else self.base_ms

    def as_dict(self) -> dict[str, Any]:
        if self.days is not None:
            return {"days": self.days, "label": self.label()}
        return {"base": self.base_ms / 1000, "increment": self.inc_ms / 1000, "label": self.label()}

    def label(self) -> str:
        """How people write it: '3+2', '½+0', '3 days'."""
        if self.days is not None:
            return f"{self.days} day{'s' if self.days != 1 else ''}"
        minutes = self.base_ms / 60_000
        text = {0.25: "¼", 0.5: "½", 0.75: "¾"}.get(minutes)
        if text is None:
            text = f"{minutes:g}" if minutes >= 1 else f"{self.base_ms / 1000:g}s"
        return f"{text}+{self.inc_ms / 1000:g}"

    def pgn(self) -> str:
        """The PGN TimeControl tag: '180+2'; correspondence as the standard's moves/seconds form
        ('1/259200': one move per three days, as chess.com writes it)."""
        if self.days is not None:
            return f"1/{self.days * DAY_MS // 1000}"
        base, inc = self.base_ms // 1000, self.inc_ms // 1000
        return f"{base}+{inc}" if inc else f"{base}"


def pgn_time_control(tc: TimeControl | None) -> str:
    """'-' (the standard's "no time control") for an untimed game."""
    return "-" if tc is None else tc.pgn()


def _seconds(value: object, name: str, low: int, high: int) -> int:
    if not isinstance(value, int | float) or isinstance(value, bool) or value != value:
        raise GameError(f"'clock.{name}' must be a number of seconds", code="bad_clock")
    if not low <= value <= high:
        raise GameError(
            f"'clock.{name}' must be from {low} to {high} seconds, not {value:g}", code="bad_clock"
        )
    return round(value * 1000)


def parse_clock(value: object, min_base: float = MIN_BASE) -> TimeControl | None:
    """A time control from the API: absent or null (untimed), {"base": s, "increment": s},
    {"days": 1|3|7}, or the text of a preset ("3+2"). GameError (400, bad_clock) names what is wrong."""
    if value is None or value == "untimed":
        return None
    if isinstance(value, str):
        match = _PRESET_TEXT.fullmatch(value)
        if not match:
            raise GameError(
                '\'clock\' must be an object like {"base": 180, "increment": 2} or {"days": 3}, '
                'or a preset like "3+2"',
                code="bad_clock",
            )
        value = {"base": int(match[1]) * 60, "increment": int(match[2])}
    if not isinstance(value, dict):
        raise GameError('\'clock\' must be an object like {"base": 180, "increment": 2}', code="bad_clock")
    unknown = set(value) - {"base", "increment", "days"}
    if unknown:
        names = ", ".join(sorted(map(str, unknown)))
        raise GameError(f"'clock' has unknown fields: {names}", code="bad_clock")
    if "days" in value:
        if "base" in value or "increment" in value:
            raise GameError("'clock' is either {base, increment} or {days}, not both", code="bad_clock")
        days = value["days"]
        if days not in CORRESPONDENCE_DAYS or isinstance(days, bool):
            allowed = ", ".join(map(str, CORRESPONDENCE_DAYS))
            raise GameError(f"'clock.days' must be one of {allowed}", code="bad_clock")
        return TimeControl(days=int(days))
    if "base" not in value:
        raise GameError("'clock' needs 'base' (seconds) and may have 'increment'", code="bad_clock")
    low = max(0, min_base)
    base_ms = _seconds(value["base"], "base", 0, MAX_BASE)
    if base_ms < low * 1000:
        raise GameError(f"'clock.base' must be at least {low:g} seconds", code="bad_clock")
    inc_ms = _seconds(value.get("increment", 0), "increment", 0, MAX_INCREMENT)
    return TimeControl(base_ms, inc_ms)


def form_clock(fields: dict[str, Any]) -> object:
    """The lobby form's time-control choice as parse_clock takes it: the select `clock` holds
    "untimed", a preset "3+2", "days:3" or "custom" (then `clock_minutes` and `clock_increment`)."""
    choice = fields.get("clock")
    if not isinstance(choice, str) or choice == "":
        return fields.get("clock")
    if choice.startswith("days:"):
        text = choice[5:]
        return {"days": int(text)} if text.isascii() and text.isdigit() and len(text) < 3 else {"days": text}
    if choice != "custom":
        return choice
    out: dict[str, object] = {}
    for name, key, scale in (("base", "clock_minutes", 60), ("increment", "clock_increment", 1)):
        text = str(fields.get(key, "0") or "0").strip()
        if len(text) > 8 or not re.fullmatch(r"\d+(\.\d+)?", text):
            raise GameError(f"'{key}' must be a number", code="bad_clock")
        out[name] = float(text) * scale
    return out


# ----- the state of a running clock --------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ClockState:
    """Each side's time at the start of the current turn, and when that turn began (None: the clock
    has not started, e.g. a friend's seat is still free)."""

    white_ms: int
    black_ms: int
    turn_started_ms: int | None

    def of(self, side: int) -> int:
        return self.white_ms if side == 0 else self.black_ms


def initial(tc: TimeControl, started_ms: int | None) -> ClockState:
    return ClockState(tc.period_ms, tc.period_ms, started_ms)


def timing_first_moves(tc: TimeControl, ply: int) -> bool:
    """True while the plies' time is the FIRST_MOVE window, not the clock (clock games, ply 0 and 1)."""
    return not tc.correspondence and ply < 2


def left_ms(tc: TimeControl, state: ClockState, ply: int, to_move: int, side: int, now_ms: int) -> int:
    """`side`'s time left now (the running side's counts down from its turn's start)."""
    base = state.of(side)
    if side != to_move or state.turn_started_ms is None or timing_first_moves(tc, ply):
        return base
    return max(0, base - (now_ms - state.turn_started_ms))


def deadline_ms(tc: TimeControl, state: ClockState, ply: int, to_move: int) -> int | None:
    """When something ends the game unless a move comes first: the first-move window (abort) or the
    side to move's flag. None when the clock has not started."""
    if state.turn_started_ms is None:
        return None
    if timing_first_moves(tc, ply):
        return state.turn_started_ms + FIRST_MOVE_MS
    return state.turn_started_ms + state.of(to_move)


def verdict(tc: TimeControl, state: ClockState, ply: int, to_move: int, now_ms: int) -> str | None:
    """ "abort" (no first move in time; a correspondence game whose first moves' days ran out),
    "flag" (the side to move's time is used up) or None."""
    due = deadline_ms(tc, state, ply, to_move)
    if due is None or now_ms < due:
        return None
    return "abort" if ply < 2 else "flag"


def after_move(
    tc: TimeControl, state: ClockState, ply: int, mover: int, now_ms: int
) -> tuple[ClockState, int]:
    """The clocks once `mover` has moved at `now_ms` (call `verdict` first: a flagged side cannot
    move), and the mover's time left after the move, for the move's record (PGN %clk)."""
    if tc.correspondence:
        left = tc.period_ms  # a correspondence move resets the mover's days
    elif timing_first_moves(tc, ply):
        left = state.of(mover)  # the first moves are not charged, and earn no increment
    else:
        used = now_ms - (state.turn_started_ms if state.turn_started_ms is not None else now_ms)
        left = max(0, state.of(mover) - max(0, used)) + tc.inc_ms
    white, black = (left, state.black_ms) if mover == 0 else (state.white_ms, left)
    return ClockState(white, black, now_ms), left


def rewound(
    tc: TimeControl, state: ClockState, kept: Sequence[tuple[int, int | None]], now_ms: int
) -> ClockState:
    """The clocks after a takeback that keeps the moves `kept` ((mover, clock_ms) each, oldest first):
    each side gets back the time stored with its last kept move (its full time if it has none), and
    the turn starts again now; a clock not yet started stays so."""
    left = {0: tc.period_ms, 1: tc.period_ms}
    for mover, clock_ms in kept:
        if clock_ms is not None:
            left[mover] = int(clock_ms)
    started = None if state.turn_started_ms is None else now_ms
    return ClockState(left[0], left[1], started)


def view(
    tc: TimeControl | None, state: ClockState | None, ply: int, to_move: int, live: bool, now_ms: int
) -> dict[str, Any] | None:
    """The clock as clients see it: both sides' time left now, which one runs, the deadline and the
    server's time (so a browser can tick from its own clock and correct the difference)."""
    if tc is None or state is None:
        return None
    running = live and state.turn_started_ms is not None and not timing_first_moves(tc, ply)
    due = deadline_ms(tc, state, ply, to_move) if live else None
    return {
        "control": tc.as_dict(),
        "white": left_ms(tc, state, ply, to_move, 0, now_ms) if live else state.white_ms,
        "black": left_ms(tc, state, ply, to_move, 1, now_ms) if live else state.black_ms,
        "running": ("white" if to_move == 0 else "black") if running else None,
        "first_move_deadline": due if live and timing_first_moves(tc, ply) else None,
        "deadline": due,
        "turn_started": state.turn_started_ms,
        "server_time": now_ms,
    }


def clk(ms: int) -> str:
    """A PGN %clk value, h:mm:ss (lichess writes whole seconds)."""
    seconds = max(0, ms) // 1000
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def engine_limits(
    tc: TimeControl, state: ClockState, ply: int, to_move: int, now_ms: int
) -> dict[str, float]:
    """wtime/btime/winc/binc in seconds for the engine's search, from the game clock now."""
    inc = tc.inc_ms / 1000
    return {
        "wtime": left_ms(tc, state, ply, to_move, 0, now_ms) / 1000,
        "btime": left_ms(tc, state, ply, to_move, 1, now_ms) / 1000,
        "winc": inc,
        "binc": inc,
    }


CLAIM_AFTER_MS = 20_000  # a player gone this long from a running clock game lets the opponent claim


def control_of(row: Any) -> TimeControl | None:
    """The time control stored on a games row (or an object with its attributes); None: untimed."""
    days = getattr(row, "clock_days", None)
    if days is not None:
        return TimeControl(days=int(days))
    base = getattr(row, "clock_base_ms", None)
    if base is None:
        return None
    return TimeControl(int(base), int(getattr(row, "clock_inc_ms", None) or 0))


def state_of(row: Any) -> ClockState | None:
    if control_of(row) is None:
        return None
    started = row.turn_started_ms
    return ClockState(
        int(row.white_ms or 0), int(row.black_ms or 0), None if started is None else int(started)
    )


def columns(tc: TimeControl | None, state: ClockState | None) -> dict[str, Any]:
    """The games row's clock columns for a time control and its state."""
    if tc is None or state is None:
        return {}
    return {
        "clock_base_ms": None if tc.correspondence else tc.base_ms,
        "clock_inc_ms": None if tc.correspondence else tc.inc_ms,
        "clock_days": tc.days,
        "white_ms": state.white_ms,
        "black_ms": state.black_ms,
        "turn_started_ms": state.turn_started_ms,
    }
