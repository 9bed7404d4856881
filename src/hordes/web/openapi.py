"""The OpenAPI 3.1 description of the JSON API, written by hand so it says what the handlers mean.

Served at /openapi.json; /api/docs renders the same dictionary as a page. A test checks that every
API route in routes.py is described here and the other way round.
"""

from __future__ import annotations

from typing import Any

from hordes import __version__
from hordes.web.openapi_schemas import SCHEMAS, ref

_ref = ref  # a schema of openapi_schemas.py, by name


def _body(schema: dict[str, Any]) -> dict[str, Any]:
    return {"required": True, "content": {"application/json": {"schema": schema}}}


def _ok(
    description: str, schema: dict[str, Any] | None = None, media: str = "application/json"
) -> dict[str, Any]:
    out: dict[str, Any] = {"description": description}
    if schema is not None:
        out["content"] = {media: {"schema": schema}}
    return out


_ERRORS = {
    "400": _ok("Malformed request: bad JSON, a missing or mistyped field", _ref("Error")),
    "404": _ok("No game with this id", _ref("Error")),
    "413": _ok("The body is over 16 KB", _ref("Error")),
}
_SEAT = {
    "403": _ok("No seat token, or a token of neither seat", _ref("Error")),
    "409": _ok("Not this seat's turn, the game is over, or the game moved on (stale ply)", _ref("Error")),
}
_LIMITED = {  # ratelimit.py; the limits are in docs/web.md
    "429": _ok("Over this client's rate limit: try again after Retry-After seconds", _ref("Error")),
}
_ENGINE = {  # the rate limits and the engine queue's bounds (engine_queue.py)
    "429": _ok(
        "Over this client's rate limit or its analysis jobs waiting for the engine; see Retry-After",
        _ref("Error"),
    ),
    "503": _ok("The engine queue is full: try again after Retry-After seconds", _ref("Error")),
}
_DOCUMENT_ERRORS = {
    "400": _ok("Malformed request: bad JSON, no `document` string, a bad `visibility`", _ref("Error")),
    "413": _ok("The document is over 64 KB", _ref("Error")),
    "422": _ok(
        "The document has problems (invalid_variant) or is over a limit (over_limit): `problems` "
        "lists every one with its key path and line",
        _ref("VariantProblems"),
    ),
}
_VARIANT_DOC = (
    "The document is checked (every problem is reported with its key path and line, and nothing is "
    "stored), weighed against the limits (board at most 16x16, 24 piece kinds, 5 generations of "
    "parents, the move tables' estimated memory) and stored, never to change. Its play name is "
    "SLUG~SERIES@VERSION: a logged-in author storing a slug again adds the next version of their "
    "series; an anonymous document starts a series of its own. `parent:` names a built-in or an exact "
    "stored version, never a path."
)
_GAME_ID = [{"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}}]
_TOKEN_DOC = (
    "The seat token may be sent as the `token` field of the body, the `X-Seat-Token` header, or the "
    "game's cookie (set when the game is created, its invitation joined or its seat link opened); "
    "never a query parameter."
)

_LINE: dict[str, Any] = {
    "type": "object",
    "properties": {
        "variant": {"type": "string", "default": "chess", "examples": ["orda"]},
        "fen": {"type": "string", "description": "start position; default the variant's"},
        "moves": {"type": "array", "items": {"type": "string"}, "description": "UCI moves from the start"},
    },
}

_USERNAME = [{"name": "username", "in": "path", "required": True, "schema": {"type": "string"}}]
_NO_USER = {"404": _ok("No player with this name", _ref("Error"))}
_CREDENTIALS: dict[str, Any] = {
    "type": "object",
    "required": ["username", "password"],
    "properties": {
        "username": {
            "type": "string",
            "pattern": "^[A-Za-z0-9][A-Za-z0-9_-]{1,19}$",
            "description": "2-20 letters, digits, _ or -; unique ignoring case; some names are reserved",
        },
        "password": {"type": "string", "minLength": 8, "maxLength": 256},
    },
}
_SESSION_DOC = (
    "The session is the `hordes_session` cookie (signed, HttpOnly, SameSite=Lax, 30 days); keep it in "
    "a cookie jar and send it with later calls."
)

_SEEK_ID = [{"name": "seek_id", "in": "path", "required": True, "schema": {"type": "string"}}]
_PLAYER_DOC = (
    "Who is asking: the account of the session cookie, else the anonymous player token (the "
    "`hordes_player` cookie, or the `X-Player-Token` header for clients without cookies)."
)


_TREE_MOVES = {
    "type": "array",
    "items": {"oneOf": [_ref("TreeMove"), {"type": "string"}]},
    "description": "the main line of the move tree (see TreeMove), or a single line of UCI moves",
}


def _paths() -> dict[str, Any]:
    return {
        "/api/variants": {
            "get": {
                "summary": "The built-in variants (builtin: true) and the public stored documents",
                "description": "Each stored document's latest public version: its play name "
                "(SLUG~SERIES@VERSION), version, author (null when anonymous) and created time.",
                "responses": {"200": _ok("Variants", {"type": "object"})},
            },
            "post": {
                "summary": "Check and store a variant document as a new version",
                "description": _VARIANT_DOC,
                "requestBody": _body(_ref("VariantDocument")),
                "responses": {
                    "201": _ok("Stored: the name to play it by", _ref("StoredVariant")),
                    **_DOCUMENT_ERRORS,
                    "409": _ok("Too many saves of this name at once; try again", _ref("Error")),
                    **_LIMITED,
                },
            },
        },
        "/api/variants/check": {
            "post": {
                "summary": "Check a variant document without storing it",
                "description": "The same checks and the same errors as storing it; rate-limited per "
                "client (about one check a second).",
                "requestBody": _body(_ref("VariantCheck")),
                "responses": {
                    "200": _ok("The document is valid: what it describes", _ref("VariantSummary")),
                    **_DOCUMENT_ERRORS,
                    **_LIMITED,
                },
            }
        },
        "/api/variants/{name}": {
            "get": {
                "summary": "One variant with its document",
                "description": "A built-in by its name, or a stored document by SLUG~SERIES@VERSION "
                "(the series alone: its latest version). Unlisted documents are reachable here by name. "
                "`format=md` answers the document alone, its parents merged in, loadable on its own "
                "(`hordes uci` with VariantPath).",
                "parameters": [
                    {"name": "name", "in": "path", "required": True, "schema": {"type": "string"}},
                    {"name": "format", "in": "query", "schema": {"type": "string", "enum": ["json", "md"]}},
                ],
                "responses": {
                    "200": {
                        "description": "The variant and its document",
                        "content": {
                            "application/json": {"schema": {"type": "object"}},
                            "text/markdown": {"schema": {"type": "string"}},
                        },
                    },
                    "400": _ok("A bad format", _ref("Error")),
                    "404": _ok("No variant of this name", _ref("Error")),
                },
            }
        },
        "/api/games": {
            "get": {
                "summary": "Recent games, newest first",
                "parameters": [
                    {"name": "limit", "in": "query", "schema": {"type": "integer", "maximum": 200}}
                ],
                "responses": {"200": _ok("Games", {"type": "object"})},
            },
            "post": {
                "summary": "Create a game against the engine or a friend",
                "requestBody": _body(_ref("NewGame")),
                "responses": {
                    "201": _ok("The game, with your seat token", _ref("Created")),
                    **_ERRORS,
                    **_LIMITED,
                },
            },
        },
        "/api/games/{game_id}": {
            "get": {
                "summary": "Read a game (with `seat` set when a seat token is sent)",
                "parameters": _GAME_ID,
                "responses": {"200": _ok("The game", _ref("Game")), **_ERRORS},
            }
        },
        "/api/games/{game_id}/moves": {
            "post": {
                "summary": "Make a move",
                "description": "Validated (seat, turn, legality, game over) and stored before the answer. "
                "In a timed game the move is charged its time in the same transaction; a move that comes "
                "after its side's time ran out is refused (409 time_up) and the game ends by the clock. "
                + _TOKEN_DOC,
                "parameters": _GAME_ID,
                "requestBody": _body(
                    {
                        "type": "object",
                        "required": ["uci"],
                        "properties": {
                            "uci": {"type": "string", "examples": ["e2e4", "a7a8h", "c3c3"]},
                            "ply": {
                                "type": "integer",
                                "description": "moves played so far; refused if stale",
                            },
                            "token": {"type": "string"},
                        },
                    }
                ),
                "responses": {
                    "200": _ok("The stored move", _ref("MoveEvent")),
                    "422": _ok("Not a legal move here", _ref("Error")),
                    **_ERRORS,
                    **_SEAT,
                },
            }
        },
        "/api/games/{game_id}/join": {
            "post": {
                "summary": "Claim the friend's seat with the invitation (the first caller wins)",
                "description": "The game waits (no one moves) until its invitation is claimed. Sets the "
                "seat cookie.",
                "parameters": _GAME_ID,
                "requestBody": _body(
                    {"type": "object", "required": ["invite"], "properties": {"invite": {"type": "string"}}}
                ),
                "responses": {
                    "200": _ok(
                        "Your seat and its token",
                        {
                            "type": "object",
                            "properties": {
                                "seat": {"enum": ["white", "black"]},
                                "token": {"type": "string"},
                                "url": {"type": "string"},
                            },
                        },
                    ),
                    "403": _ok(
                        "Not this game's invitation, or a rated game and you are not logged in", _ref("Error")
                    ),
                    "409": _ok("The seat is taken, or you already play in this game", _ref("Error")),
                    **_ERRORS,
                },
            }
        },
        "/api/games/{game_id}/resign": {
            "post": {
                "summary": "Resign",
                "description": _TOKEN_DOC,
                "parameters": _GAME_ID,
                "responses": {"200": _ok("The game's new status", {"type": "object"}), **_ERRORS, **_SEAT},
            }
        },
        "/api/games/{game_id}/draw": {
            "post": {
                "summary": "Offer, accept or decline a draw (games between two people)",
                "description": _TOKEN_DOC,
                "parameters": _GAME_ID,
                "requestBody": _body(
                    {"type": "object", "properties": {"action": {"enum": ["offer", "accept", "decline"]}}}
                ),
                "responses": {"200": _ok("The game's new status", {"type": "object"}), **_ERRORS, **_SEAT},
            }
        },
        "/api/games/{game_id}/claim": {
            "post": {
                "summary": "Claim the win or a draw after the opponent has left a running clock game",
                "description": "Allowed once the opponent's seat has had no websocket open for 20 s, in a "
                "clock game where both sides have moved (correspondence games end by their clock). A win "
                "claimed without the material to win is a draw. " + _TOKEN_DOC,
                "parameters": _GAME_ID,
                "requestBody": _body(
                    {
                        "type": "object",
                        "required": ["outcome"],
                        "properties": {"outcome": {"enum": ["win", "draw"]}},
                    }
                ),
                "responses": {
                    "200": _ok("The game's new status", {"type": "object"}),
                    "409": _ok(
                        "The opponent is connected or left less than 20 s ago, not a clock game, or over",
                        _ref("Error"),
                    ),
                    **_ERRORS,
                    "403": _SEAT["403"],
                },
            }
        },
        "/api/games/{game_id}/takeback": {
            "post": {
                "summary": "Ask to take back your last move, or answer the opponent's request",
                "description": "While the game is played, in casual games. Accepting takes back the asker's "
                "last move and the opponent's reply if it came (the asker is then to move) and gives each "
                "clock the time stored with its side's last remaining move. Against the engine a request "
                "is accepted at once. A move cancels a pending request; after a decline none may be asked "
                "until the next move. " + _TOKEN_DOC,
                "parameters": _GAME_ID,
                "requestBody": _body(_ref("OfferAction")),
                "responses": {
                    "200": _ok("The request or answer, with the game's new status", _ref("OfferEvent")),
                    "409": _ok(
                        "Not allowed in this state: already asked (already_offered), your own request "
                        "(own_offer), none to answer (no_offer), declined since the last move "
                        "(takeback_declined), nothing to take back, a rated game (no_takebacks), or over",
                        _ref("Error"),
                    ),
                    **_ERRORS,
                    "403": _SEAT["403"],
                },
            }
        },
        "/api/games/{game_id}/rematch": {
            "post": {
                "summary": "Offer, accept, decline or cancel a rematch once the game is over",
                "description": "The rematch swaps colours and keeps the variant, start position, clock, "
                "rated flag and engine level; against the engine an offer starts it at once. The answer "
                "that creates it carries your seat in the new game and sets its cookie; the opponent "
                "learns the new id from the websocket and reads their seat with GET. A declined offer "
                "cannot be made again. " + _TOKEN_DOC,
                "parameters": _GAME_ID,
                "requestBody": _body(_ref("OfferAction")),
                "responses": {
                    "200": _ok(
                        "The offer or answer; with `rematch`, `seat`, `token` and `url` once created",
                        _ref("OfferEvent"),
                    ),
                    "409": _ok(
                        "Not over yet (game_not_over), already offered, your own offer, none to answer, "
                        "declined (rematch_declined) or already created (rematch_exists)",
                        _ref("Error"),
                    ),
                    **_ERRORS,
                    **_LIMITED,  # an offer or accept counts as creating a game
                    "403": _SEAT["403"],
                },
            },
            "get": {
                "summary": "The game's rematch: the offer, the new game and, for a player, their seat in it",
                "description": "Sets the new game's seat cookie for a player of this game. " + _TOKEN_DOC,
                "parameters": _GAME_ID,
                "responses": {"200": _ok("The rematch", _ref("RematchSeat")), **_ERRORS},
            },
        },
        "/api/games/{game_id}/abort": {
            "post": {
                "summary": "Abort the game before both sides have moved (no result, not rated)",
                "description": _TOKEN_DOC,
                "parameters": _GAME_ID,
                "responses": {
                    "200": _ok("The game's new status (`by`: who aborted)", {"type": "object"}),
                    "409": _ok("Both sides have moved (too_late), or the game is over", _ref("Error")),
                    **_ERRORS,
                    "403": _SEAT["403"],
                },
            }
        },
        "/api/games/{game_id}/pgn": {
            "get": {
                "summary": "The game as PGN (with a [Variant] tag)",
                "parameters": _GAME_ID,
                "responses": {"200": _ok("PGN", {"type": "string"}, "application/x-chess-pgn"), **_ERRORS},
            }
        },
        "/api/games/{game_id}/evaluations": {
            "get": {
                "summary": "Engine evaluation of every position of a finished game, each move judged",
                "parameters": _GAME_ID,
                "responses": {
                    "200": _ok(
                        "Evaluations",
                        {
                            "type": "object",
                            "properties": {
                                "id": {"type": "string"},
                                "evaluations": {"type": "array", "items": _ref("JudgedEvaluation")},
                            },
                        },
                    ),
                    "409": _ok("Still being played"),
                    **_ERRORS,
                    **_ENGINE,
                },
            }
        },
        "/api/position": {
            "post": {
                "summary": "Legal moves and status after a line of moves (the analysis board)",
                "requestBody": _body(_LINE),
                "responses": {
                    "200": _ok("Position", _ref("Position")),
                    "422": _ok("An illegal move in the line"),
                },
            }
        },
        "/api/analysis": {
            "post": {
                "summary": "The engine's best lines (MultiPV) of a position, with their evaluations",
                "description": "Runs in the analysis class of the engine queue. `movetime` (0.05-5 s, "
                "default 1) and `depth` are caps; the request costs `movetime` engine seconds of the "
                "rate limit.",
                "requestBody": _body(
                    {
                        **_LINE,
                        "properties": {
                            **_LINE["properties"],
                            "movetime": {"type": "number", "default": 1.0},
                            "multipv": {"type": "integer", "minimum": 1, "maximum": 5, "default": 1},
                            "depth": {"type": "integer", "minimum": 1, "maximum": 40},
                        },
                    }
                ),
                "responses": {
                    "200": _ok("Evaluation", _ref("Evaluation")),
                    "400": _ok("multipv or depth out of range, or another malformed field", _ref("Error")),
                    **_ENGINE,
                },
            }
        },
        "/api/analysis/line": {
            "post": {
                "summary": "Evaluation of every position of a line (at most 300 moves), each move judged",
                "requestBody": _body(
                    {**_LINE, "properties": {**_LINE["properties"], "movetime": {"type": "number"}}}
                ),
                "responses": {
                    "200": _ok(
                        "Evaluations",
                        {
                            "type": "object",
                            "properties": {
                                "evaluations": {"type": "array", "items": _ref("JudgedEvaluation")}
                            },
                        },
                    ),
                    **_ENGINE,
                },
            }
        },
        "/api/pgn/import": {
            "post": {
                "summary": "Read a PGN game: variant, start position, tags and the whole move tree",
                "requestBody": _body({"type": "object", "properties": {"pgn": {"type": "string"}}}),
                "responses": {
                    "200": _ok(
                        "The game's tree",
                        {
                            "type": "object",
                            "properties": {
                                "variant": {"type": "string"},
                                "start_fen": {"type": "string"},
                                "headers": {"type": "object", "additionalProperties": {"type": "string"}},
                                "comment": {"type": "string", "description": "before the first move"},
                                "moves": {"type": "array", "items": _ref("TreeMove")},
                            },
                        },
                    ),
                    "400": _ok("Unreadable PGN, or a tree past the bounds (tree_too_large)", _ref("Error")),
                    **_LIMITED,
                },
            }
        },
        "/api/account": {
            "get": {
                "summary": "The logged-in account",
                "description": _SESSION_DOC,
                "responses": {
                    "200": _ok("Your account", _ref("Account")),
                    "401": _ok("Not logged in", _ref("Error")),
                },
            }
        },
        "/api/account/signup": {
            "post": {
                "summary": "Create an account and log in",
                "description": _SESSION_DOC,
                "requestBody": _body(_CREDENTIALS),
                "responses": {
                    "201": _ok("The new account; the session cookie is set", _ref("Account")),
                    "400": _ok("A bad username (bad_username, reserved_username) or password", _ref("Error")),
                    "409": _ok("The name is taken (compared ignoring case)", _ref("Error")),
                    **_LIMITED,
                },
            }
        },
        "/api/account/login": {
            "post": {
                "summary": "Log in",
                "description": "Failed attempts are limited per client and per username; once a limit is "
                "reached every attempt answers 429 until Retry-After. " + _SESSION_DOC,
                "requestBody": _body(_CREDENTIALS),
                "responses": {
                    "200": _ok("Logged in; the session cookie is set", _ref("Account")),
                    "401": _ok("Wrong username or password", _ref("Error")),
                    "429": _ok("Too many failed logins: try again after Retry-After seconds", _ref("Error")),
                },
            }
        },
        "/api/account/logout": {
            "post": {
                "summary": "Log out: the session ends on the server and its cookie is removed",
                "responses": {"200": _ok("Logged out", {"type": "object"})},
            }
        },
        "/api/account/password": {
            "post": {
                "summary": "Change your password (all sessions end; this client gets a new one)",
                "requestBody": _body(
                    {
                        "type": "object",
                        "required": ["current_password", "new_password"],
                        "properties": {
                            "current_password": {"type": "string"},
                            "new_password": {"type": "string", "minLength": 8, "maxLength": 256},
                        },
                    }
                ),
                "responses": {
                    "200": _ok("Changed", _ref("Account")),
                    "400": _ok("The new password is too short or too long", _ref("Error")),
                    "401": _ok("Not logged in, or the current password is wrong", _ref("Error")),
                    "429": _ok("Too many wrong passwords from this client", _ref("Error")),
                },
            }
        },
        "/api/users/{username}": {
            "get": {
                "summary": "A player: results (W/D/L), current ratings per variant, games in progress",
                "parameters": _USERNAME,
                "responses": {
                    "200": _ok(
                        "The player",
                        {
                            "allOf": [
                                _ref("Account"),
                                {
                                    "type": "object",
                                    "properties": {
                                        "results": {"type": "object", "description": "{win, draw, loss}"},
                                        "ratings": {"type": "object", "additionalProperties": _ref("Rating")},
                                        "playing": {"type": "array", "items": _ref("PlayerGame")},
                                    },
                                },
                            ]
                        },
                    ),
                    **_NO_USER,
                },
            }
        },
        "/api/users/{username}/games": {
            "get": {
                "summary": "A player's finished games, newest first, 20 a page",
                "parameters": [
                    *_USERNAME,
                    {"name": "variant", "in": "query", "schema": {"type": "string"}},
                    {"name": "result", "in": "query", "schema": {"enum": ["win", "draw", "loss"]}},
                    {
                        "name": "page",
                        "in": "query",
                        "schema": {"type": "integer", "minimum": 1, "default": 1},
                    },
                ],
                "responses": {
                    "200": _ok(
                        "One page of games",
                        {
                            "type": "object",
                            "properties": {
                                "games": {"type": "array", "items": _ref("PlayerGame")},
                                "total": {"type": "integer"},
                                "page": {"type": "integer"},
                                "pages": {"type": "integer"},
                            },
                        },
                    ),
                    "400": _ok("A bad filter or page", _ref("Error")),
                    **_NO_USER,
                },
            }
        },
        "/api/users/{username}/ratings": {
            "get": {
                "summary": "A player's ratings per variant with their history",
                "parameters": _USERNAME,
                "responses": {
                    "200": _ok(
                        "variant -> rating",
                        {
                            "type": "object",
                            "properties": {
                                "ratings": {"type": "object", "additionalProperties": _ref("Rating")}
                            },
                        },
                    ),
                    **_NO_USER,
                },
            }
        },
        "/api/seeks": {
            "get": {
                "summary": "The lobby's open seeks, oldest first",
                "description": "Live changes come over the /ws/lobby websocket (docs/web.md). " + _PLAYER_DOC,
                "responses": {"200": _ok("{seeks: [Seek]}", {"type": "object"})},
            },
            "post": {
                "summary": "Offer a game in the lobby (a seek)",
                "description": "At most 5 open seeks per creator, and one per set of settings (409). A "
                "seek made by a browser whose lobby socket then closes expires a few seconds later; one "
                "made by an API client that never opens the socket stays until it is cancelled. Any seek "
                "expires an hour after it was made (a correspondence seek a week). " + _PLAYER_DOC,
                "requestBody": _body(_ref("NewSeek")),
                "responses": {
                    "201": _ok("{seek: Seek, player_token (for a client seen for the first time)}"),
                    **_ERRORS,
                    "403": _ok("A rated seek without an account", _ref("Error")),
                    "409": _ok("Too many open seeks, or one with these settings already", _ref("Error")),
                    **_LIMITED,
                },
            },
        },
        "/api/seeks/{seek_id}": {
            "get": {
                "summary": "One seek; for its creator, once accepted, the game and their seat",
                "description": "The creator of an accepted seek gets `game_id`, `seat`, `token` and `url` "
                "(and the seat cookie), as accepting gives the accepter theirs. " + _PLAYER_DOC,
                "parameters": _SEEK_ID,
                "responses": {
                    "200": _ok("The seek", _ref("Seek")),
                    "404": _ok("No such seek", _ref("Error")),
                },
            },
            "delete": {
                "summary": "Cancel one's own open seek",
                "parameters": _SEEK_ID,
                "responses": {
                    "200": _ok("{id, state: cancelled}", {"type": "object"}),
                    "403": _ok("Not the creator's", _ref("Error")),
                    "404": _ok("No such seek", _ref("Error")),
                    "409": _ok("Not open any more", _ref("Error")),
                },
            },
        },
        "/api/seeks/{seek_id}/accept": {
            "post": {
                "summary": "Accept a seek: the game is made with both seats filled",
                "description": "The answer is the accepter's seat, as for a new game (and its cookie). "
                "Of two accepters racing exactly one wins; the other gets 409 seek_taken. Both players' "
                "other open seeks are then cancelled. " + _PLAYER_DOC,
                "parameters": _SEEK_ID,
                "responses": {
                    "200": _ok("{seek, id, seat, token, url, game}", {"type": "object"}),
                    "403": _ok("One's own seek, or a rated seek without an account", _ref("Error")),
                    "404": _ok("No such seek", _ref("Error")),
                    "409": _ok("Accepted by someone else first, cancelled or expired", _ref("Error")),
                    **_LIMITED,
                },
            }
        },
        "/api/pgn/export": {
            "post": {
                "summary": "Write a move tree (or a line) as PGN, variations and comments included",
                "description": "Takes what /api/pgn/import returns (less the Variant, FEN and SetUp tags); "
                "up to 64 KB, counted against the PGN rate limit.",
                "requestBody": _body(
                    {
                        **_LINE,
                        "properties": {
                            **_LINE["properties"],
                            "moves": _TREE_MOVES,
                            "comment": {"type": "string", "description": "before the first move"},
                            "headers": {
                                "type": "object",
                                "additionalProperties": {"type": "string"},
                                "description": "PGN tags: names of letters, digits and _, one-line values "
                                "(FEN, SetUp and Variant come from the line)",
                            },
                        },
                    }
                ),
                "responses": {
                    "200": _ok("PGN text in {pgn}", {"type": "object"}),
                    "400": _ok(
                        "A malformed tree, naming the place (bad_tree, tree_too_large)", _ref("Error")
                    ),
                    "422": _ok("An illegal move in the tree, naming the place", _ref("Error")),
                    **_LIMITED,
                },
            }
        },
    }


# ----- the variant workshop (workshop.py, balance.py) ----------------------------------------------
_DOCUMENT = {
    "type": "string",
    "description": "a variant document: YAML front matter and Markdown, at most 64 KB",
}
_BALANCE_RUN = {
    "type": "object",
    "properties": {
        "id": {"type": "string"},
        "status": {"enum": ["running", "done", "stopped", "failed"]},
        "games": {"type": "integer"},
        "played": {"type": "integer"},
        "white": {"type": "integer", "description": "games White won"},
        "black": {"type": "integer"},
        "draws": {"type": "integer"},
        "lengths": {
            "type": ["object", "null"],
            "description": "plies of the games played: median, min, max",
        },
        "terminations": {"type": "object", "additionalProperties": {"type": "integer"}},
        "message": {"type": "string", "description": "why a run stopped or failed"},
        "settings": {"type": "object", "description": "clock, engine level, ply and time bounds"},
    },
}


def _workshop_paths() -> dict[str, Any]:
    return {
        "/api/workshop/preview": {
            "post": {
                "summary": "Check a variant document and draw it: start position, piece movements, rules",
                "description": "Nothing is stored. SVG strings from hordes.svg and the rules article as "
                "/variants/{slug} renders it (raw HTML of the document shown as text).",
                "requestBody": _body(
                    {"type": "object", "required": ["document"], "properties": {"document": _DOCUMENT}}
                ),
                "responses": {
                    "200": _ok("The pictures: board, pieces[].diagram, rules", {"type": "object"}),
                    **_DOCUMENT_ERRORS,
                    **_LIMITED,
                },
            }
        },
        "/api/workshop/balance": {
            "post": {
                "summary": "Quick balance: start a short self-play run of a document (poll it by its id)",
                "description": "The engine against itself at level 2 and 1+0.01, each game one job of the "
                "engine queue's analysis class (live games' moves go first). One run at a time per client; "
                "a run stops after 240 s.",
                "requestBody": _body(
                    {
                        "type": "object",
                        "required": ["document"],
                        "properties": {
                            "document": _DOCUMENT,
                            "games": {"type": "integer", "minimum": 2, "maximum": 40, "default": 20},
                        },
                    }
                ),
                "responses": {
                    "202": _ok("The run, just started", _BALANCE_RUN),
                    **_DOCUMENT_ERRORS,
                    "400": _ok("Malformed request, or `games` out of range (bad_games)", _ref("Error")),
                    "429": _ok("This client's run is still playing: see Retry-After", _ref("Error")),
                    "503": _ok("Too many runs at once, or no engine on this server", _ref("Error")),
                },
            }
        },
        "/api/workshop/balance/{run_id}": {
            "get": {
                "summary": "A quick balance run: its progress, and at the end the split and game lengths",
                "parameters": [
                    {"name": "run_id", "in": "path", "required": True, "schema": {"type": "string"}}
                ],
                "responses": {
                    "200": _ok("The run", _BALANCE_RUN),
                    "404": _ok("No run with this id (finished runs are kept 10 minutes)", _ref("Error")),
                },
            }
        },
    }


def openapi_schema() -> dict[str, Any]:
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "hordes web API",
            "version": __version__,
            "description": "Play and analyse asymmetric chess variants. Live games also have a websocket at "
            "/ws/game/{game_id}, and the lobby's seeks one at /ws/lobby (see docs/web.md for their "
            "messages). Errors are "
            '{"error": code, "message": text} with a 4xx status.',
            "license": {"name": "GPL-3.0-or-later", "identifier": "GPL-3.0-or-later"},
        },
        "paths": {**_paths(), **_workshop_paths()},
        "components": {"schemas": SCHEMAS},
    }
