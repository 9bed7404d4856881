"""Every URL of the web app, in one table: pages, the JSON API, the websocket and static files."""

from __future__ import annotations

from pathlib import Path

from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from hordes.web import (
    account_views,
    analysis,
    api,
    editor,
    lobby,
    metrics,
    pages,
    variant_views,
    workshop,
)

HERE = Path(__file__).parent
STATIC_DIR = HERE / "static"
CHESSGROUNDX_DIR = HERE / "frontend" / "node_modules" / "chessgroundx"


async def game_socket(ws: WebSocket) -> None:
    await ws.app.state.live.serve(ws)


def routes() -> list[BaseRoute]:
    return [
        # ----- pages -----------------------------------------------------------------------------
        Route("/", pages.lobby, methods=["GET"]),
        Route("/games", pages.lobby_create, methods=["POST"]),  # the lobby form
        Route("/games", pages.games_page, methods=["GET"]),  # recent games
        Route("/game/{game_id}", pages.game_page, methods=["GET"]),
        Route("/analysis", pages.analysis_page, methods=["GET"]),
        Route("/variants", pages.variants_page, methods=["GET"]),
        Route("/variants/{slug}", pages.variant_page, methods=["GET"]),
        Route("/pieces/{slug}", pages.pieces_css, methods=["GET"]),  # /pieces/orda.css
        Route("/pieces/{slug}/{name}", pages.piece_image, methods=["GET"]),  # .../k-piece.black.svg
        Route("/signup", account_views.signup_page, methods=["GET"]),
        Route("/signup", account_views.signup_submit, methods=["POST"]),
        Route("/login", account_views.login_page, methods=["GET"]),
        Route("/login", account_views.login_submit, methods=["POST"]),
        Route("/logout", account_views.logout_submit, methods=["POST"]),
        Route("/@/{username}", account_views.player_page, methods=["GET"]),  # a player's page
        Route("/workshop", workshop.workshop_page, methods=["GET"]),  # write a variant document
        Route("/api/docs", pages.api_docs, methods=["GET"]),
        Route("/openapi.json", pages.openapi_json, methods=["GET"]),
        Route("/metrics", metrics.metrics_endpoint, methods=["GET"]),  # Prometheus text, per process
        # ----- JSON API (described in openapi.py) ------------------------------------------------
        # variants: built-ins and documents stored through the site (variant_views.py)
        Route("/api/variants", variant_views.api_list_variants, methods=["GET"]),
        Route("/api/variants", variant_views.api_create_variant, methods=["POST"]),
        Route("/api/variants/check", variant_views.api_check_variant, methods=["POST"]),
        Route("/api/variants/{name}", variant_views.api_get_variant, methods=["GET"]),
        Route("/api/games", api.api_list_games, methods=["GET"]),
        Route("/api/games", api.api_create_game, methods=["POST"]),
        Route("/api/games/{game_id}", api.api_get_game, methods=["GET"]),
        Route("/api/games/{game_id}/join", api.api_join, methods=["POST"]),  # claim the friend's seat
        Route("/api/games/{game_id}/moves", api.api_move, methods=["POST"]),
        Route("/api/games/{game_id}/resign", api.api_resign, methods=["POST"]),
        Route("/api/games/{game_id}/draw", api.api_draw, methods=["POST"]),
        Route("/api/games/{game_id}/claim", api.api_claim, methods=["POST"]),  # the opponent left
        Route("/api/games/{game_id}/takeback", api.api_takeback, methods=["POST"]),
        Route("/api/games/{game_id}/rematch", api.api_rematch, methods=["POST"]),
        Route("/api/games/{game_id}/rematch", api.api_rematch_seat, methods=["GET"]),  # your new seat
        Route("/api/games/{game_id}/abort", api.api_abort, methods=["POST"]),
        Route("/api/games/{game_id}/pgn", api.api_pgn, methods=["GET"]),
        Route("/api/games/{game_id}/evaluations", api.api_evaluations, methods=["GET"]),
        Route("/api/position", analysis.api_position, methods=["POST"]),
        Route("/api/analysis", analysis.api_analysis, methods=["POST"]),
        Route("/api/analysis/line", analysis.api_analysis_line, methods=["POST"]),
        Route("/api/pgn/import", analysis.api_pgn_import, methods=["POST"]),
        Route("/api/pgn/export", analysis.api_pgn_export, methods=["POST"]),
        # the variant workshop (workshop.py, balance.py)
        Route("/api/workshop/preview", workshop.api_preview, methods=["POST"]),
        Route("/api/workshop/balance", workshop.api_balance_start, methods=["POST"]),
        Route("/api/workshop/balance/{run_id}", workshop.api_balance_get, methods=["GET"]),
        # accounts (a session cookie) and players
        Route("/api/account", account_views.api_account, methods=["GET"]),
        Route("/api/account/signup", account_views.api_signup, methods=["POST"]),
        Route("/api/account/login", account_views.api_login, methods=["POST"]),
        Route("/api/account/logout", account_views.api_logout, methods=["POST"]),
        Route("/api/account/password", account_views.api_password, methods=["POST"]),
        Route("/api/users/{username}", account_views.api_user, methods=["GET"]),
        Route("/api/users/{username}/games", account_views.api_user_games, methods=["GET"]),
        Route("/api/users/{username}/ratings", account_views.api_user_ratings, methods=["GET"]),
        # open challenges in the lobby (seeks.py, lobby.py)
        Route("/api/seeks", lobby.api_list_seeks, methods=["GET"]),
        Route("/api/seeks", lobby.api_create_seek, methods=["POST"]),
        Route("/api/seeks/{seek_id}", lobby.api_get_seek, methods=["GET"]),
        Route("/api/seeks/{seek_id}", lobby.api_cancel_seek, methods=["DELETE"]),
        Route("/api/seeks/{seek_id}/accept", lobby.api_accept_seek, methods=["POST"]),
        # ----- live games and the lobby ------------------------------------------------------------
        WebSocketRoute("/ws/game/{game_id}", game_socket),
        WebSocketRoute("/ws/lobby", lobby.lobby_socket),
        # ----- files -----------------------------------------------------------------------------
        Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
        # chessgroundx's ES modules and CSS, as npm installed them (no bundler)
        # CodeMirror's ES modules for the workshop's editor, only those editor.py lists
        Route(editor.URL_PREFIX + "{path:path}", editor.codemirror_module, methods=["GET"]),
        Mount("/vendor/chessgroundx", StaticFiles(directory=CHESSGROUNDX_DIR, check_dir=False), name="cgx"),
    ]
