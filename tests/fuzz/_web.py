"""The app the web fuzz tests attack: a tmp SQLite database with a few games, what the strategies may
use of them (ids, tokens, legal moves) and a snapshot of every stored game to compare after a
refused request."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from hypothesis import strategies as st
from starlette.testclient import TestClient

from hordes import Board, builtin_variants, load_variant
from hordes.notation.pgn import Game, write_game
from hordes.web import db
from hordes.web.app import create_app
from tests.fuzz._strategies import JUNK_TEXT, Hints, weighted
from tests.web.conftest import WINS


def pick(values: Callable[[], list[str]]) -> st.SearchStrategy[str]:
    """One of `values()`, a list that changes as the games move on. Hypothesis draws only an index,
    the same choice whatever the list is now (a strategy that drew from the list itself would
    draw differently on a replay, which hypothesis refuses as a flaky strategy)."""
    return st.integers(0, 2**16).map(lambda i: (lambda vs: vs[i % len(vs)])(values()))


class FuzzWeb:
    """An app on a tmp SQLite file, its TestClient, and its fixed games: a game between two people in
    each built-in variant (both seats' tokens known), and a finished game."""

    def __init__(self, data_dir: Path) -> None:
        # Engine searches are the slow part: keep them short (the fuzz wants many requests).
        self.app = create_app(data_dir=data_dir, engine_workers=1, engine_movetime=0.05, rate_limits=False)
        self.client = TestClient(self.app)  # a server exception is raised here, with its traceback
        self.client.__enter__()
        self.tokens: dict[str, dict[str, str]] = {}  # game id -> colour -> token
        self.invites: list[str] = []  # the fixed games' invitations, all claimed already
        self.slugs = [v.slug for v in builtin_variants()]
        for slug in self.slugs:
            self._create({"variant": slug, "opponent": "friend"})
        fen, win, _, _ = WINS["chess"]
        self.finished = self._create({"variant": "chess", "fen": fen, "opponent": "friend", "color": "black"})
        token = self.tokens[self.finished]["black"]
        r = self.client.post(f"/api/games/{self.finished}/moves", json={"uci": win, "token": token})
        assert r.status_code == 200, r.text
        self.fens = [Board(load_variant(s)).fen() for s in self.slugs] + [w[0] for w in WINS.values()]
        self.lines = [[], *(self._line(s, n) for s in self.slugs for n in (1, 2, 4))]
        self.pgns = [self._pgn(s, line) for s in self.slugs for line in ([], self._line(s, 3))]
        self.pgns += ["1. e4 e5 *", '[Variant "nope"]\n\n1. e4 *', "1. e4 (1. d4 (1. c4)) *", "1. Qh5 *"]
        self.legal: dict[str, list[str]] = {}  # game id -> its legal moves now (UCI)
        self.turn: dict[str, str] = {}  # game id -> the colour to move
        self.plies: dict[str, int] = {}  # game id -> moves played
        self.before = self.snapshot()

    def close(self) -> None:
        self.client.__exit__(None, None, None)

    def _create(self, body: dict[str, Any]) -> str:
        r = self.client.post("/api/games", json=body)
        assert r.status_code == 201, r.text
        game = r.json()
        self.client.cookies.clear()
        # The friend claims the invitation (the game waits until then), as a second client would.
        joined = self.client.post(f"/api/games/{game['id']}/join", json={"invite": game["invite_token"]})
        assert joined.status_code == 200, joined.text
        self.client.cookies.clear()
        self.invites.append(game["invite_token"])  # claimed: the fuzz may try them again (409)
        self.tokens[game["id"]] = {game["seat"]: game["token"], joined.json()["seat"]: joined.json()["token"]}
        return str(game["id"])

    @staticmethod
    def _line(slug: str, plies: int) -> list[str]:
        """A few random legal moves from the start (a fixed seed per length)."""
        board = Board(load_variant(slug))
        rng = random.Random(plies)
        line = []
        for _ in range(plies):
            moves = list(board.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            line.append(board.uci(move))
            board.push(move)
        return line

    @staticmethod
    def _pgn(slug: str, line: list[str]) -> str:
        board = Board(load_variant(slug))
        for uci in line:
            board.push_uci(uci)
        return write_game(Game.from_board(board, {"White": "Ann"}))

    # ----- what the strategies may use, read when they draw ----------------------------------------
    def hints(self, game: str | None = None) -> Hints:
        """Good values for the fields a schema cannot fill: mostly those of `game` when the request
        is about one of the fixed games (its seats' tokens, its legal moves)."""
        names = [*self.slugs, "Khan's Chess", "Orda Chess", "hordes-of-change", "CHESS"]

        def own_tokens() -> list[str]:
            return list(self.tokens[game].values()) if game in self.tokens else every_token()

        def mover_token() -> list[str]:
            """The token of the side to move in `game` (a move with it may be accepted)."""
            if game not in self.tokens:
                return every_token()
            return [self.tokens[game][self.turn[game]]]

        def every_token() -> list[str]:
            return [t for seats in self.tokens.values() for t in seats.values()]

        def own_moves() -> list[str]:
            return self.legal.get(game or "") or every_move()

        def every_move() -> list[str]:
            return [m for moves in self.legal.values() for m in moves] or ["e2e4"]

        return {
            "game_id": lambda: pick(lambda: list(self.tokens)),
            "game": lambda: pick(lambda: list(self.tokens)),
            "token": lambda: weighted((2, pick(mover_token)), (1, pick(own_tokens)), (1, pick(every_token))),
            "invite": lambda: pick(lambda: self.invites),
            "uci": lambda: weighted((3, pick(own_moves)), (1, pick(every_move))),
            "ply": lambda: weighted(
                (3, st.integers(0, 2**16).map(lambda _: self.plies.get(game or "", 0))),
                (1, st.integers(-1, 9)),
            ),
            "variant": lambda: st.sampled_from(names),
            "slug": lambda: st.sampled_from(self.slugs + [f"{s}.css" for s in self.slugs]),
            "fen": lambda: st.sampled_from(self.fens),
            "moves": lambda: st.sampled_from(self.lines),
            "pgn": lambda: st.sampled_from(self.pgns),
            "movetime": lambda: st.sampled_from([0.05, 0, -1]),
            "level": lambda: st.sampled_from([1, 8, "2", 0, 9, "²"]),
            "headers": lambda: st.dictionaries(
                st.sampled_from(["White", "Black", "Event", "Date", "Result", "FEN", "X_1", *JUNK_TEXT[:8]]),
                st.sampled_from(["Ann", "*", "1-0", "", *JUNK_TEXT]),
                max_size=3,
            ),
        }

    # ----- the stored games ------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        """Every fixed game's row and moves, read through the service, and how many games there are.
        Also refreshes the legal moves the strategies offer."""
        service = self.app.state.games
        games = {}
        for game_id in self.tokens:
            state = service.state(game_id)
            games[game_id] = (dict(service.row(game_id)._mapping), state["moves"])
            self.legal[game_id] = [f + t for f, tos in state["dests"].items() for t in tos]
            self.turn[game_id] = state["turn"]
            self.plies[game_id] = state["ply"]
        with self.app.state.db.connect() as conn:
            count = conn.execute(sa.select(sa.func.count()).select_from(db.games)).scalar_one()
        return {"games": games, "count": count}

    def games_changed(self) -> bool:
        """Whether any stored game changed since the last call (which then becomes the reference).
        A fixed game that has ended (resigned, agreed drawn, mated) is replaced by a new one, so the
        fuzz keeps finding games to move in."""
        now = self.snapshot()
        changed = now != self.before
        if changed:
            for game_id, (row, _moves) in now["games"].items():
                if row["status"] == "over" and game_id != self.finished:
                    del self.tokens[game_id]
                    self.legal.pop(game_id, None)
                    self.turn.pop(game_id, None)
                    self.plies.pop(game_id, None)
                    self._create({"variant": row["variant"], "opponent": "friend"})
            now = self.snapshot()
        self.before = now
        return changed


@contextmanager
def fuzz_web(data_dir: Path, registry: list[FuzzWeb]) -> Iterator[FuzzWeb]:
    """A FuzzWeb for one test module, listed in the module's `registry` while it runs (its strategies
    read the current games from there), closed at the end."""
    web = FuzzWeb(data_dir)
    registry.append(web)
    try:
        yield web
    finally:
        registry.remove(web)
        web.close()
