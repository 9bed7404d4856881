"""Make the stored artefacts of release 0.3.0 that tests/test_v030_artefacts.py loads.

Run it with the 0.3.0 source (git worktree of the release commit), not with the current one:

    git worktree add --detach build/v030 53b5f80   # the release-0.3.0 commit
    PYTHONPATH=build/v030/src python tests/data/v0_3_0/make_artefacts.py tests/data/v0_3_0

It writes games.sqlite3 (web games in every state the 0.3.0 schema knows), selfplay/ (a
`hordes selfplay` run: run.json and games.pgn, which `hordes balance` reads) and web-*.pgn (the
web app's PGN export of each game).
"""

from __future__ import annotations

import sys
from pathlib import Path

import hordes
from hordes.cli import main as hordes_main
from hordes.web import db
from hordes.web.games import GameService


def main(out: Path) -> None:
    assert hordes.__version__ == "0.3.0", f"run this with the 0.3.0 source, not {hordes.__version__}"
    out.mkdir(parents=True, exist_ok=True)
    path = out / "games.sqlite3"
    path.unlink(missing_ok=True)
    engine = db.make_engine(f"sqlite:///{path}")
    db.migrate(engine)
    games = GameService(engine)

    def play(variant: str, moves: list[str], **kw: object) -> tuple[str, str, str]:
        c = games.create(variant, **kw)  # type: ignore[arg-type]
        for i, uci in enumerate(moves):
            token = c.tokens["white" if i % 2 == 0 else "black"]
            games.move(c.id, token, uci, i)
        return c.id, c.tokens.get("white", ""), c.tokens.get("black", "")

    ids: dict[str, str] = {}
    # Black mates: the stored winner is 1 (0.3.0's Black).
    ids["fools_mate"], _, _ = play("chess", ["f2f3", "e7e5", "g2g4", "d8h4"])
    # White mates (winner 0).
    ids["scholars_mate"], _, _ = play("chess", ["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"])
    # White resigns an Orda game: Black (the Horde) wins.
    gid, white, _ = play("orda", ["e2e4", "g6g5", "d2d4"])
    games.resign(gid, white)
    ids["orda_resigned"] = gid
    # A draw by agreement in Khan's Chess.
    gid, white, black = play("khans", ["e2e4", "b8c6"])
    games.draw(gid, white, "offer")
    games.draw(gid, black, "accept")
    ids["khans_draw"] = gid
    # Games still running, Black to move and White to move, one of them Hordes of Change.
    ids["hordes_running"], _, _ = play("hordes", ["b3b5"])
    ids["orda_running"], _, _ = play("orda", ["e2e4", "g6g5"])
    # An engine game: the engine (Black) has answered once.
    c = games.create("orda", white="human", black="engine", level=1)
    games.move(c.id, c.tokens["white"], "e2e4", 0)
    games.engine_move(c.id, 1, "g6g5")
    ids["orda_engine"] = c.id
    for name, gid in ids.items():
        (out / f"web-{name}.pgn").write_text(games.pgn(gid), encoding="utf-8")
    (out / "game-ids.txt").write_text("".join(f"{n} {g}\n" for n, g in ids.items()), encoding="utf-8")
    engine.dispose()

    run = out / "selfplay"
    for f in ("run.json", "games.pgn"):
        (run / f).unlink(missing_ok=True)
    code = hordes_main(
        [
            "selfplay",
            "orda",
            "--games",
            "6",
            "--out",
            str(run),
            "--tc",
            "none",
            "--player",
            "hordes:depth=2",
            "--max-plies",
            "300",
            "--seed",
            "7",
            "--quiet",
        ]
    )
    assert code == 0
    (run / ".lock").unlink(missing_ok=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
