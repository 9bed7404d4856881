"""Offers during and after a game: takeback, rematch and abort, each a small state machine.

Both offers share one machine, seen from the player who acts:

    state    action   ->  outcome (the event's "action")
    none     offer    ->  offer      a request is stored, with the ply it was made at
    theirs   offer    ->  accept     two requests that cross are an agreement
    theirs   accept   ->  accept     the takeback is made / the rematch is created
    theirs   decline  ->  decline
    mine     cancel   ->  cancel     the request is withdrawn

Every other (state, action) pair is refused with a 409 and changes nothing (REFUSALS says why), as
is any action in the "closed" state: a takeback declined since the last move (no asking again until
someone moves), a rematch declined (final) or already created. Against the engine an offer is
accepted at once, as lichess's engine does.

Each kind adds its own rules around the machine:
- takeback: only while the game is played, only in casual games (lichess's default), only by a
  player who has a move to take back. Accepting removes the asker's last move, and the opponent's
  reply if it came: the asker is then to move. The clocks go back to the times stored with the moves
  that remain (clocks.rewound). A move cancels a pending request (CLEARED_BY_MOVE).
- rematch: only once the game is over or aborted. Accepting creates the next game: colours swapped,
  the same variant, start position, clock, rated flag and engine level, new seat tokens. The old game
  records it (`rematch_id`, unique), and a player of the old game reads their new seat from it
  (rematch_seat), so no token is ever broadcast.
- abort: either player, before both sides have moved (ply < 2). The game ends "aborted", unrated and
  outside every result count.

Every change is one conditional UPDATE that names the state it was decided on (ply, takebacks done,
the offer columns), so a second process or a stale request fails instead of acting twice; the
rematch's new game is inserted in the same transaction as the UPDATE that records it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from hordes import Board
from hordes.web import clocks, db
from hordes.web import games as service_module
from hordes.web.errors import Conflict, GameError
from hordes.web.positions import outcome_fields, side_name
from hordes.web.variants import stored_variant

if TYPE_CHECKING:
    from hordes.web.games import GameService

ENDED = ("over", "aborted")
ACTIONS = ("offer", "accept", "decline", "cancel")

# (state as the actor sees it, action) -> outcome; any pair not here is refused.
TRANSITIONS: dict[tuple[str, str], str] = {
    ("none", "offer"): "offer",
    ("theirs", "offer"): "accept",
    ("theirs", "accept"): "accept",
    ("theirs", "decline"): "decline",
    ("mine", "cancel"): "cancel",
}
# Why a pair is refused: (error code, message); "{kind}" is "takeback request" or "rematch offer".
REFUSALS: dict[tuple[str, str], tuple[str, str]] = {
    ("mine", "offer"): ("already_offered", "you made a {kind} already: wait for the answer, or cancel it"),
    ("mine", "accept"): ("own_offer", "you cannot accept your own {kind}"),
    ("mine", "decline"): ("own_offer", "you cannot decline your own {kind}: cancel it instead"),
    ("none", "accept"): ("no_offer", "there is no {kind} from your opponent to accept"),
    ("none", "decline"): ("no_offer", "there is no {kind} from your opponent to decline"),
    ("none", "cancel"): ("no_offer", "you have no {kind} to cancel"),
    ("theirs", "cancel"): ("no_offer", "you have no {kind} to cancel; the pending one is your opponent's"),
}

# What a move does to a pending takeback request: cancels it, and allows asking again.
CLEARED_BY_MOVE: dict[str, Any] = {"takeback_by": None, "takeback_ply": None, "takeback_declined_ply": None}


# ----- what clients see ------------------------------------------------------------------------------
def view(row: Any) -> dict[str, Any]:
    """The offers part of a game's status (every game event carries it)."""
    playing = row.status == "playing"
    return {
        "takeback_offer": side_name(row.takeback_by) if playing else None,
        "takeback_declined": playing and row.takeback_declined_ply is not None,
        "takebacks_allowed": playing and not row.rated,
        "can_abort": playing and row.ply < 2,
        "rematch_offer": side_name(row.rematch_by) if row.status in ENDED and not row.rematch_id else None,
        "rematch_declined": bool(row.rematch_declined),
        "rematch": row.rematch_id,
        "rematch_of": row.rematch_of,
    }


def line_of(row: Any) -> int:
    """How many takebacks the game has had: with the ply, it names the line a board belongs to."""
    return int(getattr(row, "takebacks", 0) or 0)


def same_line(conn: sa.Connection, row: Any) -> bool:
    """No takeback has been stored since `row` was read (its moves are still those below its ply)."""
    g = db.games
    now = conn.execute(sa.select(g.c.takebacks).where(g.c.id == row.id)).scalar()
    return now is None or int(now) == line_of(row)


# ----- the machine -------------------------------------------------------------------------------------
def _action(value: object) -> str:
    if value not in ACTIONS:
        raise GameError("'action' must be 'offer', 'accept', 'decline' or 'cancel'", code="bad_request")
    return str(value)


def _state(by: int | None, me: int, closed: bool) -> str:
    if by is not None:
        return "mine" if by == me else "theirs"
    return "closed" if closed else "none"


def step(kind: str, state: str, action: str, closed: tuple[str, str] | None = None) -> str:
    """The outcome of `action` in `state`, or Conflict (409) saying why not. `closed`: the code and
    message for any action in the closed state."""
    outcome = TRANSITIONS.get((state, action))
    if outcome is not None:
        return outcome
    if state == "closed":
        if action == "offer" and closed is not None:
            raise Conflict(closed[1], code=closed[0])
        state = "none"
    code, message = REFUSALS[(state, action)]
    raise Conflict(message.format(kind=kind), code=code)


def _event(svc: GameService, game_id: str, kind: str, action: str, by: int, **more: Any) -> dict[str, Any]:
    event = svc._status_event(game_id)
    event.update(type="offer", kind=kind, action=action, by=side_name(by), **more)
    return event


def _guarded_update(svc: GameService, row: Any, names: tuple[str, ...], values: dict[str, Any]) -> None:
    """UPDATE the game only if the columns `names` still hold what `row` says; else 409."""
    with svc.engine.begin() as conn:
        _update_in(conn, row, names, values)


def _update_in(conn: sa.Connection, row: Any, names: tuple[str, ...], values: dict[str, Any]) -> None:
    g = db.games
    where = [g.c.id == row.id]
    for name in names:
        seen = getattr(row, name)
        where.append(g.c[name].is_(None) if seen is None else g.c[name] == seen)
    done = conn.execute(g.update().where(*where).values(updated_at=db.now(), **values))
    if done.rowcount != 1:
        raise Conflict("the game changed meanwhile: reload it", code="stale_ply")


def _opponent_is_engine(row: Any, me: int) -> bool:
    return bool(getattr(row, "black" if me == 0 else "white") == "engine")


# ----- takeback ---------------------------------------------------------------------------------------
TAKEBACK = "takeback request"
_TAKEBACK_GUARD = ("status", "ply", "takebacks", "takeback_by", "takeback_declined_ply")


def takeback(svc: GameService, game_id: str, token: str | None, action: object) -> dict[str, Any]:
    """offer / accept / decline / cancel a takeback; returns the "offer" event to broadcast."""
    action = _action(action)
    row = svc.row(game_id)
    me = _side(svc._seat_or_403(row, token))
    service_module._must_be_playing(row)
    if row.rated:
        raise Conflict("takebacks are for casual games: this game is rated", code="no_takebacks")
    state = _state(row.takeback_by, me, row.takeback_declined_ply is not None)
    declined = ("takeback_declined", "your opponent declined a takeback: ask again after the next move")
    outcome = step(TAKEBACK, state, action, declined)
    engine = _opponent_is_engine(row, me)
    if outcome == "offer" and engine:
        outcome = "accept"  # the engine always agrees
    asker = 1 - me if state == "theirs" else me
    if outcome == "accept":
        plies = _rewind(svc, row, asker)
        return _event(svc, game_id, "takeback", "accept", 1 - me if engine else me, plies=plies)
    if outcome == "offer":
        with svc._board(row) as board:
            if _plies_back(board, asker) == 0:
                raise Conflict("you have no move to take back yet", code="nothing_to_take_back")
        values: dict[str, Any] = {"takeback_by": me, "takeback_ply": row.ply}
    elif outcome == "decline":
        values = {"takeback_by": None, "takeback_ply": None, "takeback_declined_ply": row.ply}
    else:  # cancel
        values = {"takeback_by": None, "takeback_ply": None}
    _guarded_update(svc, row, _TAKEBACK_GUARD, values)
    return _event(svc, game_id, "takeback", outcome, me)


def _side(seat: str) -> int:
    return 0 if seat == "white" else 1


def _plies_back(board: Board, asker: int) -> int:
    """How many plies take back `asker`'s last move (and the reply to it): 0 if it has none."""
    popped = []
    try:
        while board.moves_played():
            popped.append(board.pop())
            if board.side == asker:
                return len(popped)
        return 0
    finally:
        for move in reversed(popped):
            board.push(move)


def _rewind(svc: GameService, row: Any, asker: int) -> int:
    """Take back `asker`'s last move (and the reply): delete the moves, restore the clocks; the
    number of plies taken back."""
    try:
        with svc._board(row) as board:
            plies = _plies_back(board, asker)
            if plies == 0:
                raise Conflict("there is no move of the asker's to take back", code="nothing_to_take_back")
            target = row.ply - plies
            for _ in range(plies):
                board.pop()
            values: dict[str, Any] = {
                **CLEARED_BY_MOVE,
                "ply": target,
                "fen": board.fen(),
                "draw_offer": None,
                "takebacks": row.takebacks + 1,
            }
            control, timing = clocks.control_of(row), clocks.state_of(row)
            if control is not None and timing is not None:
                kept = _last_moves(board, svc._moves(row.id, target))
                values.update(clocks.columns(control, clocks.rewound(control, timing, kept, svc.now_ms())))
            with svc.engine.begin() as conn:
                _update_in(conn, row, _TAKEBACK_GUARD, values)
                m = db.moves
                conn.execute(m.delete().where(m.c.game_id == row.id, m.c.ply >= target))
    finally:
        svc._forget(row.id)  # the cached board was popped; the next reader rebuilds it
    return plies


def _last_moves(board: Board, moves: list[Any]) -> list[tuple[int, int | None]]:
    """(mover, clock_ms) of each side's last move among `moves` (those on `board`), oldest first."""
    found: list[tuple[int, int | None]] = []
    popped = []
    seen: set[int] = set()
    try:
        index = len(moves)
        while board.moves_played() and len(seen) < 2:
            popped.append(board.pop())
            index -= 1
            if board.side not in seen:
                seen.add(board.side)
                found.append((board.side, moves[index].clock_ms))
    finally:
        for move in reversed(popped):
            board.push(move)
    return found[::-1]


# ----- rematch -----------------------------------------------------------------------------------------
REMATCH = "rematch offer"
_REMATCH_GUARD = ("status", "rematch_by", "rematch_id", "rematch_declined")


def rematch(svc: GameService, game_id: str, token: str | None, action: object) -> dict[str, Any]:
    """offer / accept / decline / cancel a rematch; returns the "offer" event to broadcast (with
    `rematch`, the new game's id, once accepted)."""
    action = _action(action)
    row = svc.row(game_id)
    me = _side(svc._seat_or_403(row, token))
    if row.status not in ENDED:
        raise Conflict("a rematch can be offered once the game is over", code="game_not_over")
    closed = row.rematch_id is not None or bool(row.rematch_declined)
    state = _state(None if closed else row.rematch_by, me, closed)
    why = (
        ("rematch_exists", "the rematch has been created already")
        if row.rematch_id
        else ("rematch_declined", "the rematch offer was declined")
    )
    if state == "closed" and row.rematch_id:  # every action, not only an offer, comes too late
        raise Conflict(why[1], code=why[0])
    outcome = step(REMATCH, state, action, why)
    engine = _opponent_is_engine(row, me)
    if outcome == "offer" and engine:
        outcome = "accept"
    if outcome == "accept":
        first = 1 - me if state == "theirs" else me  # who offered first: the new game's creator
        new_id = _create_rematch(svc, row, first)
        return _event(svc, game_id, "rematch", "accept", 1 - me if engine else me, rematch=new_id)
    choices: dict[str, dict[str, Any]] = {
        "offer": {"rematch_by": me},
        "decline": {"rematch_by": None, "rematch_declined": True},
        "cancel": {"rematch_by": None},
    }
    values = choices[outcome]
    _guarded_update(svc, row, _REMATCH_GUARD, values)
    return _event(svc, game_id, "rematch", outcome, me)


def _create_rematch(svc: GameService, row: Any, first: int) -> str:
    """Insert the next game (colours swapped, same settings) and record it on `row`, in one
    transaction: if another accept recorded one first, nothing is stored (409)."""
    board = Board(stored_variant(row.variant), row.start_fen)
    result, termination, winner = outcome_fields(board.outcome())
    white, black = row.black, row.white
    tokens = {
        side: service_module.new_token()
        for side, kind in (("white", white), ("black", black))
        if kind == "human"
    }
    control = clocks.control_of(row)
    status = "over" if termination else "playing"
    timing = clocks.initial(control, svc.now_ms()) if control is not None else None  # both seats are filled
    new_id = service_module.new_id()
    stamp = db.now()
    with svc.engine.begin() as conn:
        conn.execute(
            db.games.insert().values(
                **clocks.columns(control, timing),
                id=new_id,
                variant=row.variant,
                start_fen=row.start_fen,
                fen=board.fen(),
                ply=0,
                white=white,
                black=black,
                level=row.level,
                white_token=tokens.get("white"),
                black_token=tokens.get("black"),
                creator=side_name(1 - first),  # whoever offered first, in their new colour
                invite_token=None,
                white_user=row.black_user,
                black_user=row.white_user,
                rated=row.rated,
                status=status,
                result=result,
                termination=termination,
                winner=winner,
                draw_offer=None,
                rematch_of=row.id,
                created_at=stamp,
                updated_at=stamp,
            )
        )
        _update_in(conn, row, _REMATCH_GUARD, {"rematch_id": new_id, "rematch_by": None})
    return new_id


def rematch_seat(svc: GameService, game_id: str, token: str | None) -> dict[str, Any]:
    """The rematch of a game as its holder of `token` sees it: the offer, the new game's id and,
    for a player of the old game once the rematch exists, their seat and token in the new one."""
    row = svc.row(game_id)
    out: dict[str, Any] = {"id": row.id, **{k: v for k, v in view(row).items() if k.startswith("rematch")}}
    seat = svc.seat(row, token)
    if seat is not None and row.rematch_id:
        new = svc.row(row.rematch_id)
        mine = "black" if seat == "white" else "white"
        out.update(seat=mine, token=getattr(new, f"{mine}_token"))
    return out


# ----- abort -------------------------------------------------------------------------------------------
def abort(svc: GameService, game_id: str, token: str | None) -> dict[str, Any]:
    """End the game without a result, before both sides have moved; the status event."""
    row = svc.row(game_id)
    seat = svc._seat_or_403(row, token)
    service_module._must_be_playing(row)
    if row.ply >= 2:
        raise Conflict(
            "both sides have moved: the game can no longer be aborted (resign instead)", code="too_late"
        )
    svc._update(
        row, status="aborted", result="*", termination=f"aborted by {seat}", winner=None, draw_offer=None
    )
    event = svc._status_event(game_id)
    event["by"] = seat
    return event
