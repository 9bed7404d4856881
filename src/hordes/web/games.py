"""The game service: create games, validate and store moves, resign, draw offers, seat tokens
(takeback, rematch and abort are in offers.py).

Everything here is synchronous and talks to the database through SQLAlchemy Core; the web layer
(live.py) runs these calls in a thread and holds a per-game lock around them, so two moves of one
game are never validated at once. The database is still the judge: a move row is inserted with its
ply number as part of the primary key and the game row is updated only if its ply count is the one
this process saw, so a second writer (another process, a stale cache) fails instead of forking the game.

Who may move: each human seat has a secret token, compared in constant time. The creator's is made
with the game. A game against a friend starts "waiting": its second seat has no token yet, only an
invitation. The first visitor who joins with the invitation claims the seat (one conditional UPDATE,
so two visitors cannot both win it) and gets a fresh seat token; the invitation then only tells later
visitors that the seat is taken. Until then no one moves. Tokens are stored as they are, so that the
creator's page can show the invitation again; they protect casual games, not money.

A game's board is rebuilt from the start FEN and the stored moves (`_board`), and kept in a small
cache keyed by game id and checked against the stored ply count on every use. Every read is one
snapshot: the game row and the moves below its ply are read together (`_snapshot`; stored moves
change only by a takeback, which the row counts, so they agree with the row), and a cached board is used
only under its lock, which readers and writers alike hold, so nobody sees it half-way through a move.
"""

from __future__ import annotations

import hmac
import secrets
import string
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from hordes import Board, HordesError
from hordes.core import movegen
from hordes.notation.pgn import Game, write_game
from hordes.notation.san import san_int
from hordes.web import clocks, db, move_store, offers, players

# The errors live in their own module; they are re-exported here, where callers have always found them.
from hordes.web.errors import Conflict as Conflict
from hordes.web.errors import Forbidden as Forbidden
from hordes.web.errors import GameError as GameError
from hordes.web.errors import IllegalMove as IllegalMove
from hordes.web.errors import NotFound as NotFound
from hordes.web.positions import (
    color_name,
    describe_end,
    no_moves,
    outcome_fields,
    position_view,
    side_name,
    variant_info,
)
from hordes.web.variant_store import pgn_tags
from hordes.web.variants import VariantUnavailable, stored_variant, web_variant

PLAYER_KINDS = ("human", "engine")
MIN_LEVEL, MAX_LEVEL = 1, 8
ID_ALPHABET = string.ascii_letters + string.digits
MAX_PLIES = 2000  # a game longer than this is certainly a runaway client; no variant needs more


def new_id(length: int = 10) -> str:
    return "".join(secrets.choice(ID_ALPHABET) for _ in range(length))


def new_token() -> str:
    return secrets.token_urlsafe(18)


@dataclass(slots=True)
class Created:
    id: str
    tokens: dict[str, str]  # colour name -> token, for the seats that have one now
    invite: str | None = None  # the invitation to the friend's seat, if the game has one


@dataclass(slots=True)
class Joined:
    seat: str  # the colour claimed
    token: str  # its new seat token


@dataclass(slots=True)
class _Cached:
    """A game's cached board and the lock that whoever uses the board holds (readers too: reading
    a position pushes and pops moves to find the legal ones)."""

    board: Board | None = None
    lock: threading.RLock = field(default_factory=threading.RLock)
    line: int = 0  # the game's takebacks when the board was built: a rewound game is another line


class TimeUp(Conflict):
    """A move came after its side's time was used up (or the first-move window closed): the game
    has ended instead, and `event` (its new status) is to be broadcast."""

    code = "time_up"

    def __init__(self, message: str, event: dict[str, Any]) -> None:
        super().__init__(message)
        self.event = event


class _TooLate(Exception):
    """Inside `GameService.move`: the clock has run out, so the move ends the game instead."""


class GameService:
    """Games in a database. Thread-safe for different games; callers serialise calls per game.
    `now` gives the time in seconds since the epoch (time.time; tests inject their own clock)."""

    def __init__(self, engine: Engine, cache_size: int = 512, now: Callable[[], float] | None = None) -> None:
        self.engine = engine
        self.now = now or time.time
        self.cache_size = cache_size
        self._boards: OrderedDict[str, _Cached] = OrderedDict()
        self._cache_lock = threading.Lock()

    # ----- creating and reading ------------------------------------------------------------------
    def create(
        self,
        variant: str = "chess",
        *,
        fen: str | None = None,
        white: str = "human",
        black: str = "human",
        level: int | None = None,
        creator: str | None = None,
        user: int | None = None,
        rated: bool = False,
        clock: clocks.TimeControl | None = None,
        opponent_user: int | None = None,
        paired: bool = False,
        conn: sa.Connection | None = None,
    ) -> Created:
        """Create a game; validates the variant, FEN, seats and level before anything is stored.
        `user`: the creator's account (None: anonymous); `rated`: a game between two accounts;
        `clock`: a time control (clocks.py), None for an untimed game. `paired`: both people are
        known now (an accepted lobby seek, seeks.py): both seats get their tokens at once and no
        invitation, `opponent_user` is the other seat's account, and the game starts "playing".
        `conn`: insert in this transaction (the seek's acceptance), else in one of its own."""
        v = web_variant(variant)
        try:
            board = Board(v, fen) if fen else Board(v)
        except (HordesError, ValueError) as exc:
            raise GameError(f"bad FEN: {exc}", code="bad_fen") from None
        for side, kind in (("white", white), ("black", black)):
            if kind not in PLAYER_KINDS:
                raise GameError(
                    f"{side} must be one of {', '.join(PLAYER_KINDS)}, not {kind!r}", code="bad_player"
                )
        if white == "engine" and black == "engine":
            raise GameError("at least one seat must be a human player", code="bad_player")
        if "engine" in (white, black):
            if not isinstance(level, int) or not MIN_LEVEL <= level <= MAX_LEVEL:
                raise GameError(f"level must be an integer from {MIN_LEVEL} to {MAX_LEVEL}", code="bad_level")
        else:
            level = None
        if creator not in (None, "white", "black"):
            raise GameError("creator must be white or black", code="bad_player")
        _check_rated(rated, user, white, black, creator)
        if paired and (len({white, black}) != 1 or white != "human" or creator is None):
            raise GameError("a paired game is between two people", code="bad_player")
        if paired and rated and (opponent_user is None or opponent_user == user):
            raise GameError("a rated game is between two different accounts", code="same_account")
        result, termination, winner = outcome_fields(board.outcome())
        humans = [side for side, kind in (("white", white), ("black", black)) if kind == "human"]
        # Two people: the creator's seat now, the friend's when the invitation is claimed.
        invite = new_token() if len(humans) == 2 and creator is not None and not paired else None
        tokens = {side: new_token() for side in humans if invite is None or side == creator}
        status = "over" if termination else ("waiting" if invite else "playing")
        stamp = db.now()
        game_id = new_id()
        # A clock's first-move window starts when both seats are filled: now, or when the friend joins.
        timing = clocks.initial(clock, self.now_ms() if status == "playing" else None) if clock else None
        other = opponent_user if paired else None
        with self._transaction(conn) as tx:
            tx.execute(
                db.games.insert().values(
                    **clocks.columns(clock, timing),
                    id=game_id,
                    variant=v.slug,
                    start_fen=board.fen(),
                    fen=board.fen(),
                    ply=0,
                    white=white,
                    black=black,
                    level=level,
                    white_token=tokens.get("white"),
                    black_token=tokens.get("black"),
                    creator=creator,
                    invite_token=invite,
                    white_user=user if creator == "white" else other,
                    black_user=user if creator == "black" else other,
                    rated=rated,
                    status=status,
                    result=result,
                    termination=termination,
                    winner=winner,
                    draw_offer=None,
                    created_at=stamp,
                    updated_at=stamp,
                )
            )
        return Created(game_id, tokens, invite)

    @contextmanager
    def _transaction(self, conn: sa.Connection | None) -> Iterator[sa.Connection]:
        """The caller's transaction, or a new one committed at the end of the block."""
        if conn is not None:
            yield conn
            return
        with self.engine.begin() as own:
            yield own

    def row(self, game_id: str) -> sa.Row[Any]:
        conn, row = self._connect_and_read(game_id)
        conn.close()
        return row

    def _connect_and_read(self, game_id: str, autocommit: bool = False) -> tuple[sa.Connection, sa.Row[Any]]:
        """A connection from the pool and the game row read on it (the caller closes it); with
        `autocommit`, one whose statements commit each by itself where a move's store is one
        statement (move_store.autocommit). The pool does not test a connection when it hands it
        out (a round trip on every checkout): a connection that died meanwhile fails this first
        read, which changed nothing, so the read is tried once more on a new one (SQLAlchemy drops
        the dead connections from the pool)."""
        if not isinstance(game_id, str) or not 1 <= len(game_id) <= 16:
            raise NotFound(f"no game {game_id!r}")
        for attempt in (1, 2):
            conn = self.engine.connect()
            if autocommit:
                move_store.autocommit(conn)
            try:
                row = move_store.read_game(conn, game_id)
            except sa.exc.DBAPIError as exc:
                conn.close()
                if attempt == 2 or not exc.connection_invalidated:
                    raise
                continue
            if row is None:
                conn.close()
                raise NotFound(f"no game {game_id!r}")
            return conn, row
        raise AssertionError("unreachable")

    def _snapshot(self, game_id: str) -> tuple[sa.Row[Any], list[sa.Row[Any]]]:
        """The game row and its moves as of that row: those below its ply. A move is stored with the
        row's new ply in one transaction; only a takeback removes moves (and counts itself in the
        row), so when no takeback came between the two reads they agree, else both are read again."""
        if not isinstance(game_id, str) or not 1 <= len(game_id) <= 16:
            raise NotFound(f"no game {game_id!r}")
        with self.engine.connect() as conn:
            for attempt in range(100):  # each retry means a takeback came in between: they are rare
                found = conn.execute(sa.select(db.games).where(db.games.c.id == game_id)).first()
                if found is None:
                    raise NotFound(f"no game {game_id!r}")
                row, moves = found, self._moves(game_id, found.ply, conn)
                if attempt == 99 or offers.same_line(conn, row):
                    break
            return row, moves

    def _moves(self, game_id: str, below: int, conn: sa.Connection | None = None) -> list[sa.Row[Any]]:
        """The stored moves of plies 0 .. below-1."""
        m = db.moves
        q = sa.select(m.c.uci, m.c.san, m.c.fen, m.c.clock_ms).where(m.c.game_id == game_id, m.c.ply < below)
        if conn is None:
            with self.engine.connect() as own:
                return list(own.execute(q.order_by(m.c.ply)))
        return list(conn.execute(q.order_by(m.c.ply)))

    @contextmanager
    def _board(
        self, row: Any, moves: Sequence[Any] | None = None, conn: sa.Connection | None = None
    ) -> Iterator[Board]:
        """The game's board at `row.ply`, for the caller alone until the `with` block ends: the
        cached board under its lock, or one rebuilt from the start FEN and `moves` (read if not
        given). Writers push their move on it inside the block (and pop it if storing fails)."""
        with self._cache_lock:
            entry = self._boards.get(row.id)
            if entry is None:
                entry = self._boards[row.id] = _Cached()
            self._boards.move_to_end(row.id)
            while len(self._boards) > self.cache_size:
                self._boards.popitem(last=False)
        line = offers.line_of(row)
        with entry.lock:
            board = entry.board
            if board is None or board.moves_played() != row.ply or entry.line != line:
                board = Board(stored_variant(row.variant), row.start_fen)
                for m in moves if moves is not None else self._moves(row.id, row.ply, conn):
                    board.push_uci(m.uci)
                if entry.board is None or (entry.line, entry.board.moves_played()) < (line, row.ply):
                    entry.board, entry.line = board, line  # never replace a newer board with an older one
            yield board

    def follow(self, game_id: str, ply: int, uci: str, fen: str) -> None:
        """Another process stored `uci`, making the game `ply` moves long with position `fen`: push it
        onto this process's cached board if that board stands just before it and reaches that very
        position, so that the next move here need not rebuild the board from the stored moves. A move
        that does not fit (events of two processes can arrive out of order, or after a takeback)
        drops the cached board instead: the next use rebuilds it. Never waits: a board in use is left
        as it is (its use checks it against the row)."""
        with self._cache_lock:
            entry = self._boards.get(game_id)
        if entry is None or not entry.lock.acquire(blocking=False):
            return
        try:
            board = entry.board
            if board is None or board.moves_played() != ply - 1:
                return
            try:
                board.push_uci(uci)
            except ValueError:
                entry.board = None
                return
            if board.fen() != fen:
                entry.board = None
        finally:
            entry.lock.release()

    def _forget(self, game_id: str) -> None:
        with self._cache_lock:
            entry = self._boards.get(game_id)
        if entry is not None:
            with entry.lock:
                entry.board = None

    def seat(self, row: sa.Row[Any], token: str | None) -> str | None:
        """The colour whose token this is, or None (spectator)."""
        if not token:
            return None
        for side in ("white", "black"):
            stored = getattr(row, f"{side}_token")
            if stored and _same(stored, token):
                return side
        return None

    def state(self, game_id: str, token: str | None = None) -> dict[str, Any]:
        """Everything a client needs to show the game, for whoever holds `token` (or a spectator)."""
        row, moves = self._snapshot(game_id)
        with self._board(row, moves) as board:
            variant, status = board.variant, self._status(row, board)
        seat = self.seat(row, token)
        out: dict[str, Any] = {
            "id": row.id,
            "variant": variant_info(variant),
            "start_fen": row.start_fen,
            "moves": [{"uci": m.uci, "san": m.san, "fen": m.fen, "clock_ms": m.clock_ms} for m in moves],
            "players": self._players(row),
            "seat": seat,
            "created_at": row.created_at.isoformat() if row.created_at else None,
        }
        out["rated"] = bool(row.rated)
        out.update(status)
        if row.status == "waiting":  # the seat an invitation will fill
            out["waiting_for"] = "black" if row.creator == "white" else "white"
        if seat is not None and seat == row.creator and row.status == "waiting" and row.invite_token:
            # Only the creator sees the invitation, and only until a friend claims the seat.
            out["invite_token"] = row.invite_token
        return out

    def invitation(self, game_id: str, invite: str | None) -> str:
        """What an invitation link is worth: "open" (the seat can be claimed), "taken" or "invalid"."""
        row = self.row(game_id)
        if not invite or not row.invite_token or not _same(row.invite_token, invite):
            return "invalid"
        return "open" if row.status == "waiting" else "taken"

    def join(
        self, game_id: str, invite: str | None, holder: str | None = None, user: int | None = None
    ) -> Joined:
        """Claim the friend's seat with its invitation; the first caller wins, later ones get 409.
        `user`: the account of whoever joins (None: anonymous; a rated game needs one)."""
        row = self.row(game_id)
        if self.seat(row, holder) is not None:
            raise Conflict(
                "you already play in this game: send the invitation to your friend", code="already_seated"
            )
        state = self.invitation(game_id, invite)
        if state == "invalid":
            raise Forbidden("this invitation does not match this game", code="bad_invite")
        if state == "taken":
            raise Conflict("the seat has been taken: you can watch the game", code="seat_taken")
        seat = "black" if row.creator == "white" else "white"
        if row.rated:
            creator_user = getattr(row, f"{row.creator}_user")
            if user is None:
                raise Forbidden("this game is rated: log in to join it", code="rated_needs_account")
            if user == creator_user:
                raise Conflict(
                    "a rated game is between two accounts: this one created it", code="same_account"
                )
        token = new_token()
        g = db.games
        with self.engine.begin() as conn:
            done = conn.execute(
                g.update()
                .where(g.c.id == row.id, g.c.status == "waiting", g.c.invite_token == row.invite_token)
                .values(
                    **{f"{seat}_token": token, f"{seat}_user": user},
                    status="playing",
                    updated_at=db.now(),
                    # the clock's first-move window opens now that both seats are filled
                    **({"turn_started_ms": self.now_ms()} if clocks.control_of(row) else {}),
                )
            )
        if done.rowcount != 1:  # someone else claimed it between our read and our write
            raise Conflict("the seat has been taken: you can watch the game", code="seat_taken")
        return Joined(seat, token)

    def joined_event(self, game_id: str) -> dict[str, Any]:
        """The event that tells every watcher the friend has arrived (and who, if an account)."""
        event = self._status_event(game_id)
        event["players"] = self._players(self.row(game_id))
        return event

    def _players(self, row: Any) -> dict[str, dict[str, Any]]:
        """Each seat: human or engine, the engine's level, and the account in it (players.py: its
        name and its rating in this variant, None for an anonymous seat)."""
        accounts = players.players_of(self.engine, row)
        return {
            side: {
                "kind": getattr(row, side),
                "level": row.level if getattr(row, side) == "engine" else None,
                "user": accounts[side],
            }
            for side in ("white", "black")
        }

    def _status(self, row: Any, board: Board, generated: list[int] | None = None) -> dict[str, Any]:
        """The position view of the game's board with the game's status (`row`: a games row, or an
        object with the same attributes; `generated`: the board's legal moves, if made already)."""
        view = position_view(board, generated)
        if row.status == "waiting":  # nobody moves before the friend has joined
            view.update(no_moves())
        if row.status in ("over", "aborted"):
            # Resignation and agreement are not positions: the stored result is the truth.
            view.update(no_moves())
            view["result"] = row.result
            view["termination"] = row.termination
            view["winner"] = side_name(row.winner)
            view["reason"] = describe_end(row.termination, row.winner)
            view["players"] = self._players(row)  # with the ratings that the result changed
        name = board.geometry.square_name
        last = board.peek() if row.ply else None
        turn_kind = row.white if board.turn else row.black
        view.update(
            ply=row.ply,
            status=row.status,
            engine_to_move=row.status == "playing" and turn_kind == "engine",
            draw_offer=side_name(row.draw_offer),
            last_move=[name(last.from_square), name(last.to_square)] if last else [],
            clock=clocks.view(
                clocks.control_of(row), clocks.state_of(row), row.ply, board.side,
                row.status == "playing", self.now_ms(),
            ),
        )  # fmt: skip
        view.update(offers.view(row))  # takeback and rematch offers, abort
        return view

    # ----- moves --------------------------------------------------------------------------------
    def move(
        self, game_id: str, token: str | None, uci: object, expected_ply: object = None
    ) -> dict[str, Any]:
        """Validate and store a human move; return the event to broadcast.

        One connection: the game row is read, the move stored and the row updated on it, committed
        while the board is still held (no second checkout while holding one, so busy threads cannot
        drain the pool). On PostgreSQL the store is one statement that commits by itself, so a move
        is two round trips (move_store.py); a move that ends the game is one transaction.
        A move that comes after its clock ran out ends the game instead, by the ordinary path."""
        conn, row = self._connect_and_read(game_id, autocommit=True)
        with conn:
            seat = self.seat(row, token)
            if seat is None:
                raise Forbidden(
                    "a seat token is needed to move: open the game from your link"
                    if not token
                    else "invalid seat token"
                )
            try:
                with self._board(row, conn=conn) as board:
                    return self._play_on(board, row, seat, uci, expected_ply, conn)
            except _TooLate:
                pass
        return self._play(self.row(game_id), seat, uci, expected_ply)

    def engine_move(
        self, game_id: str, expected_ply: int, uci: str, seen: Sequence[str] | None = None
    ) -> dict[str, Any] | None:
        """Store the engine's move if the game is still where the engine saw it (else drop it).
        `seen`: the moves it searched after; a takeback and a new move make the same ply another line."""
        row = self.row(game_id)
        with self._board(row) as board:
            side = "white" if board.turn else "black"
            if row.status != "playing" or row.ply != expected_ply or getattr(row, side) != "engine":
                return None
            if seen is not None and [board.uci(m) for m in board.move_stack] != list(seen):
                return None
            return self._play(row, side, uci, expected_ply)

    def engine_turn(self, game_id: str) -> tuple[str, str, list[str], int, int] | None:
        """(variant, start FEN, moves, level, ply) if the engine is to move in this game, else None."""
        turn = self.engine_turn_clock(game_id)
        return None if turn is None else turn[0]

    def engine_turn_clock(
        self, game_id: str
    ) -> tuple[tuple[str, str, list[str], int, int], dict[str, float] | None] | None:
        """engine_turn and the game clock for the engine's search (wtime, btime, winc, binc in
        seconds; None in an untimed game)."""
        row = self.row(game_id)
        if row.status != "playing":
            return None
        with self._board(row) as board:
            if getattr(row, color_name(board.turn) or "white") != "engine":
                return None
            moves = [board.uci(m) for m in board.move_stack]
            side = board.side
        control, timing = clocks.control_of(row), clocks.state_of(row)
        limits = None
        if control is not None and timing is not None:
            limits = clocks.engine_limits(control, timing, row.ply, side, self.now_ms())
        return (row.variant, row.start_fen, moves, int(row.level or 1), int(row.ply)), limits

    def engine_games_waiting(self) -> list[str]:
        """Games where the engine is to move (after a restart, their engine turns are resumed)."""
        g = db.games
        with self.engine.connect() as conn:
            q = sa.select(g.c.id).where(
                g.c.status == "playing", sa.or_(g.c.white == "engine", g.c.black == "engine")
            )
            ids = [r.id for r in conn.execute(q)]
        waiting = []
        for i in ids:
            try:
                if self.engine_turn(i) is not None:
                    waiting.append(i)
            except (GameError, HordesError, ValueError):
                continue  # a game this server cannot play (its variant is unavailable) waits for good
        return waiting

    def _play(self, row: sa.Row[Any], seat: str, uci: object, expected_ply: object) -> dict[str, Any]:
        with self._board(row) as board:
            return self._play_on(board, row, seat, uci, expected_ply)

    def _play_on(
        self,
        board: Board,
        row: sa.Row[Any],
        seat: str,
        uci: object,
        expected_ply: object,
        conn: sa.Connection | None = None,
    ) -> dict[str, Any]:
        """Check and store the move. With `conn` (on which `row` was read), the move is stored and
        committed on it; without, in a transaction of its own."""
        if not isinstance(uci, str) or not 4 <= len(uci) <= 12:
            raise GameError('\'uci\' must be a move in UCI notation, e.g. "e2e4" or "e7e8q"', code="bad_move")
        if expected_ply is not None and (not isinstance(expected_ply, int) or isinstance(expected_ply, bool)):
            raise GameError(
                "'ply' must be an integer (the number of moves already played)", code="bad_request"
            )
        _must_be_playing(row)
        to_move = color_name(board.turn)
        if seat != to_move:
            raise Conflict(f"it is {to_move}'s turn, not {seat}'s", code="not_your_turn")
        if expected_ply is not None and expected_ply != row.ply:
            raise Conflict(f"the game is at ply {row.ply}, not {expected_ply}: reload it", code="stale_ply")
        if row.ply >= MAX_PLIES:
            raise Conflict(f"games are limited to {MAX_PLIES} plies", code="too_long")
        now_ms = self.now_ms()
        control, timing = clocks.control_of(row), clocks.state_of(row)
        if control is not None and timing is not None:
            ended = clocks.verdict(control, timing, row.ply, board.side, now_ms)
            if ended is not None:  # too late: the game ends by the clock instead, in this locked section
                if conn is not None:
                    raise _TooLate  # nothing stored yet: the caller ends the game on its own connections
                event = self._end_by_time(row, board, ended)
                raise TimeUp(f"too late: {event['reason'].lower()}", event)
        # One list of legal moves serves the parse, the SAN and the push (each would make its own).
        legal = movegen.generate_legal(board)
        try:
            m = board.parse_uci_int(uci, legal)
        except ValueError as exc:
            code = "bad_move" if type(exc).__name__ == "InvalidMoveError" else "illegal_move"
            raise IllegalMove(str(exc), code=code) from None
        text = san_int(board, m, legal)
        move = board.int_to_move(m)
        mover = board.side
        board.push_int(m)
        try:
            after = movegen.generate_legal(board)  # for the outcome and the position view both
            result, termination, winner = outcome_fields(board.outcome(legal=after))
            stamp = db.now()
            clock_ms = None
            clock_values: dict[str, Any] = {}
            if control is not None and timing is not None:  # charged in the move's own transaction
                timing, clock_ms = clocks.after_move(control, timing, row.ply, mover, now_ms)
                clock_values = clocks.columns(control, timing)
            fen = board.fen()
            values = {
                **clock_values,
                "ply": row.ply + 1,
                "fen": fen,
                "status": "over" if termination else "playing",
                "result": result,
                "termination": termination,
                "winner": winner,
                "draw_offer": None,  # a move declines a pending offer
                **offers.CLEARED_BY_MOVE,  # and cancels a takeback request
                "updated_at": stamp,
            }
            with nullcontext(conn) if conn is not None else self.engine.begin() as tx:
                if termination:
                    move_store.transaction(tx)
                move_row = {
                    "game_id": row.id,
                    "ply": row.ply,
                    "uci": board.uci(move),
                    "san": text,
                    "fen": fen,
                    "created_at": stamp,
                    "clock_ms": clock_ms,
                }
                if not move_store.store(tx, move_row, values, row.id, row.ply):
                    raise Conflict("the game changed meanwhile: reload it", code="stale_ply")
                if termination:
                    self._ended(tx, row.id)
                if conn is not None:
                    conn.commit()
        except IntegrityError:
            board.pop()
            self._forget(row.id)
            raise Conflict("the game changed meanwhile: reload it", code="stale_ply") from None
        except BaseException:
            board.pop()
            self._forget(row.id)
            raise
        stored = SimpleNamespace(**{**row._mapping, **values})  # the row as it now is in the database
        event = {"type": "move", "id": row.id, "uci": board.uci(move), "san": text}
        event.update(self._status(stored, board, after))
        return event

    # ----- resigning and draws --------------------------------------------------------------------
    def resign(self, game_id: str, token: str | None) -> dict[str, Any]:
        row = self.row(game_id)
        seat = self._seat_or_403(row, token)
        _must_be_playing(row)
        winner = 1 if seat == "white" else 0
        self._finish(row, "1-0" if winner == 0 else "0-1", "resignation", winner)
        return self._status_event(game_id)

    def draw(self, game_id: str, token: str | None, action: object) -> dict[str, Any]:
        """offer / accept / decline a draw. Offers exist only between two human players."""
        row = self.row(game_id)
        seat = self._seat_or_403(row, token)
        if action not in ("offer", "accept", "decline"):
            raise GameError("'action' must be 'offer', 'accept' or 'decline'", code="bad_request")
        _must_be_playing(row)
        if "engine" in (row.white, row.black):
            raise Conflict("the engine does not take draw offers", code="no_draw_offers")
        me = 0 if seat == "white" else 1
        if action == "offer":
            if row.draw_offer == 1 - me:  # both offered: that is an agreement
                self._finish(row, "1/2-1/2", "agreement", None)
            else:
                self._update(row, draw_offer=me)
        elif action == "accept":
            if row.draw_offer != 1 - me:
                raise Conflict("there is no draw offer from your opponent to accept", code="no_draw_offer")
            self._finish(row, "1/2-1/2", "agreement", None)
        else:
            if row.draw_offer != 1 - me:
                raise Conflict("there is no draw offer from your opponent to decline", code="no_draw_offer")
            self._update(row, draw_offer=None)
        return self._status_event(game_id)

    # ----- the clock: flags, aborts and abandonment (clocks.py holds the rules) ---------------------
    def now_ms(self) -> int:
        return int(self.now() * 1000)

    def judge(self, game_id: str) -> dict[str, Any] | None:
        """End the game if its clock says so now (a flag, no first move in time); return the status
        event, or None when the game goes on. The watcher (timeouts.py) calls this at deadlines."""
        row = self.row(game_id)
        control, timing = clocks.control_of(row), clocks.state_of(row)
        if row.status != "playing" or control is None or timing is None:
            return None
        with self._board(row) as board:
            ended = clocks.verdict(control, timing, row.ply, board.side, self.now_ms())
            if ended is None:
                return None
            try:
                return self._end_by_time(row, board, ended)
            except Conflict:  # a move got in first
                return None

    def deadline(self, game_id: str) -> int | None:
        """When the game's clock will next end it unless a move comes (epoch ms), or None."""
        row = self.row(game_id)
        control, timing = clocks.control_of(row), clocks.state_of(row)
        if row.status != "playing" or control is None or timing is None:
            return None
        with self._board(row) as board:
            return clocks.deadline_ms(control, timing, row.ply, board.side)

    def timed_games_running(self) -> list[str]:
        """Games whose clock is on (at start-up every one gets its watcher's timer again)."""
        g = db.games
        with self.engine.connect() as conn:
            q = sa.select(g.c.id).where(
                g.c.status == "playing",
                g.c.turn_started_ms.is_not(None),
                sa.or_(g.c.clock_base_ms.is_not(None), g.c.clock_days.is_not(None)),
            )
            return [r.id for r in conn.execute(q)]

    def _end_by_time(self, row: sa.Row[Any], board: Board, ended: str) -> dict[str, Any]:
        """Store the end a clock verdict means and return its status event. A flag loses unless the
        other side cannot win under the variant's rules (its document's insufficient-material rule):
        then it is a draw. A variant without that rule has no such draw."""
        if ended == "abort":
            self._update(
                row, status="aborted", result="*", termination="aborted", winner=None, draw_offer=None
            )
        else:
            loser = board.side
            spent = {"white_ms" if loser == 0 else "black_ms": 0}  # the fallen flag shows 0:00
            if board.side_has_insufficient_material(1 - loser):
                self._finish(row, "1/2-1/2", "timeout vs insufficient material", None, **spent)
            else:
                self._finish(row, "1-0" if loser == 1 else "0-1", "time forfeit", 1 - loser, **spent)
        return self._status_event(row.id)

    def claim(
        self, game_id: str, token: str | None, outcome: object, absent_ms: Callable[[str, str], int | None]
    ) -> dict[str, Any]:
        """The win or a draw, claimed by a player whose opponent has left a running clock game for
        CLAIM_AFTER_MS (`absent_ms(game_id, seat)`: how long the seat has had no connection, None
        while it has one). A win claimed without the material to win is a draw."""
        if outcome not in ("win", "draw"):
            raise GameError("'outcome' must be 'win' or 'draw'", code="bad_request")
        row = self.row(game_id)
        seat = self._seat_or_403(row, token)
        _must_be_playing(row)
        other = "black" if seat == "white" else "white"
        control = clocks.control_of(row)
        if control is None or control.correspondence:
            raise Conflict(
                "only clock games can be claimed: correspondence games end by their clock, untimed ones wait",
                code="no_claim",
            )
        if getattr(row, other) == "engine":
            raise Conflict("the engine does not leave games", code="no_claim")
        if row.ply < 2:
            raise Conflict("before both sides have moved, a game that stalls is aborted", code="no_claim")
        gone = absent_ms(game_id, other)
        if gone is None:
            raise Conflict("your opponent is connected", code="opponent_present")
        if gone < clocks.CLAIM_AFTER_MS:
            wait = (clocks.CLAIM_AFTER_MS - gone + 999) // 1000
            raise Conflict(
                f"your opponent left {gone // 1000} s ago: you can claim in {wait} s", code="too_early"
            )
        me = 0 if seat == "white" else 1
        with self._board(row) as board:
            can_win = not board.side_has_insufficient_material(me)
        if outcome == "win" and can_win:
            self._finish(row, "1-0" if me == 0 else "0-1", "abandoned", me)
        else:
            self._finish(row, "1/2-1/2", "abandoned", None)
        return self._status_event(game_id)

    def _seat_or_403(self, row: sa.Row[Any], token: str | None) -> str:
        seat = self.seat(row, token)
        if seat is None:
            raise Forbidden("only a player of this game may do that" if token else "a seat token is needed")
        return seat

    def _update(self, row: sa.Row[Any], **values: Any) -> None:
        g = db.games
        with self.engine.begin() as conn:
            done = conn.execute(
                g.update()
                .where(g.c.id == row.id, g.c.ply == row.ply, g.c.status == "playing")
                .values(updated_at=db.now(), **values)
            )
            if done.rowcount != 1:
                raise Conflict("the game changed meanwhile: reload it", code="stale_ply")
            if values.get("status") == "over":
                self._ended(conn, row.id)

    def _ended(self, conn: sa.Connection, game_id: str) -> None:
        """Every game that ends comes here, in the transaction that stores its end: a rated game's
        result changes both ratings then (players.apply_result, which counts a game once)."""
        players.apply_result(conn, game_id)

    def _finish(
        self, row: sa.Row[Any], result: str, termination: str, winner: int | None, **more: Any
    ) -> None:
        self._update(
            row, status="over", result=result, termination=termination, winner=winner, draw_offer=None, **more
        )

    def _status_event(self, game_id: str) -> dict[str, Any]:
        row = self.row(game_id)
        event = {"type": "status", "id": game_id}
        with self._board(row) as board:
            event.update(self._status(row, board))
        return event

    # ----- listing and export -----------------------------------------------------------------------
    def recent(self, limit: int = 50) -> list[dict[str, Any]]:
        g = db.games
        q = sa.select(
            g.c.id, g.c.variant, g.c.white, g.c.black, g.c.level, g.c.status, g.c.result, g.c.termination,
            g.c.winner, g.c.ply, g.c.fen, g.c.updated_at, g.c.white_user, g.c.black_user, g.c.rated,
        ).order_by(g.c.updated_at.desc()).limit(max(1, min(limit, 200)))  # fmt: skip
        with self.engine.connect() as conn:
            rows = list(conn.execute(q))
            people = players.seated(conn, rows)
        out = []
        for r in rows:
            title = _title(r.variant)
            out.append(
                {
                    "id": r.id,
                    "variant": r.variant,
                    "variant_title": title or r.variant,
                    "available": title is not None,
                    "white": _player_label(r.white, r.level),
                    "black": _player_label(r.black, r.level),
                    "status": r.status,
                    "result": r.result,
                    "reason": describe_end(r.termination, r.winner),
                    "ply": r.ply,
                    "fen": r.fen,
                    "updated_at": r.updated_at.isoformat() if r.updated_at else None,
                }
            )
            # Accounts: the name instead of "Anonymous", the rating beside it.
            out[-1]["rated"] = bool(r.rated)
            for color in ("white", "black"):
                person = people.get((r.id, color))
                out[-1][f"{color}_user"] = person.as_dict() if person else None
                if person:
                    out[-1][color] = person.name
        return out

    def pgn(self, game_id: str, site: str = "hordes web app") -> str:
        row = self.row(game_id)
        date = row.created_at.strftime("%Y.%m.%d") if row.created_at else "????.??.??"
        headers = {
            "Event": "Casual game",
            "Site": site,
            "Date": date,
            "White": _player_label(row.white, row.level),
            "Black": _player_label(row.black, row.level),
            "Result": row.result,
        }
        if row.termination:
            headers["Termination"] = describe_end(row.termination, row.winner)
        for side, person in players.players_of(self.engine, row).items():  # accounts by their names
            if person is not None:
                headers[side.capitalize()] = person["name"]
        if row.rated:
            headers["Event"] = "Rated game"
        control = clocks.control_of(row)
        headers["TimeControl"] = clocks.pgn_time_control(control)
        moves = self._moves(row.id, row.ply)
        with self._board(row, moves) as board:
            game = Game.from_board(board, {**headers, **pgn_tags(board.variant)})
        if control is not None:  # {[%clk h:mm:ss]} after each move: its side's time left
            node: Any = game
            for m in moves:
                node = node.variations[0]
                if m.clock_ms is not None:
                    node.comment = f"[%clk {clocks.clk(m.clock_ms)}]"
        return write_game(game)

    # ----- evaluations (the graph of a finished game) -------------------------------------------------
    def positions(self, game_id: str) -> tuple[str, str, list[str]]:
        """(variant, start FEN, moves) of a finished game, to evaluate; Conflict while it is played."""
        row, moves = self._snapshot(game_id)
        if row.status != "over":
            raise Conflict("evaluations are shown once the game is over", code="game_not_over")
        return row.variant, row.start_fen, [m.uci for m in moves]

    def evaluations(self, game_id: str) -> dict[int, dict[str, Any]]:
        e = db.evaluations
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(e).where(e.c.game_id == game_id).order_by(e.c.ply))
            return {
                r.ply: {"ply": r.ply, "cp": r.cp, "mate": r.mate, "best": r.best, "depth": r.depth}
                for r in rows
            }

    def store_evaluations(self, game_id: str, evals: list[dict[str, Any]]) -> None:
        if not evals:
            return
        with self.engine.begin() as conn:
            for ev in evals:
                conn.execute(
                    db.evaluations.insert().values(
                        game_id=game_id,
                        ply=ev["ply"],
                        cp=ev["cp"],
                        mate=ev["mate"],
                        best=ev["best"],
                        depth=ev["depth"],
                    )
                )


def _title(slug: str) -> str | None:
    try:
        return stored_variant(slug).title
    except VariantUnavailable:
        return None


def _same(stored: str, given: str) -> bool:
    """Constant-time comparison of two secrets (any text: a surrogate cannot make it raise)."""
    return hmac.compare_digest(
        stored.encode("utf-8", "surrogatepass"), given.encode("utf-8", "surrogatepass")
    )


def _must_be_playing(row: Any) -> None:
    if row.status == "waiting":
        raise Conflict(
            "the game has not started: it is waiting for your opponent", code="waiting_for_opponent"
        )
    if row.status == "aborted":
        raise Conflict("the game was aborted", code="game_over")
    if row.status != "playing":
        raise Conflict(f"the game is over ({row.result})", code="game_over")


def _check_rated(rated: object, user: int | None, white: str, black: str, creator: str | None) -> None:
    """A rated game is between two accounts: the creator's now, the friend's when they join."""
    if not isinstance(rated, bool):
        raise GameError("'rated' must be true or false", code="bad_request")
    if not rated:
        return
    if "engine" in (white, black) or creator is None:
        raise GameError(
            "games against the engine are casual: only games between two accounts are rated",
            code="rated_needs_accounts",
        )
    if user is None:
        raise Forbidden(
            "log in to create a rated game: rated games are between two accounts", code="rated_needs_account"
        )


def _player_label(kind: str, level: int | None) -> str:
    return f"Engine (level {level})" if kind == "engine" else "Anonymous"
