"""The OpenAPI 3.1 description of the JSON API, written by hand so it says what the handlers mean.

Served at /openapi.json; /api/docs renders the same dictionary as a page. A test checks that every
API route in routes.py is described here and the other way round.
"""

from __future__ import annotations

from typing import Any

from hordes import __version__


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


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

SCHEMAS: dict[str, Any] = {
    "Error": {
        "type": "object",
        "required": ["error", "message"],
        "properties": {
            "error": {"type": "string", "description": "machine word, e.g. illegal_move, not_your_turn"},
            "message": {"type": "string", "description": "what is wrong, for people"},
        },
    },
    "NewGame": {
        "type": "object",
        "properties": {
            "variant": {"type": "string", "default": "chess", "examples": ["orda", "khans", "hordes"]},
            "fen": {"type": "string", "description": "start from this position instead"},
            "color": {"enum": ["white", "black", "random"], "default": "white", "description": "your side"},
            "opponent": {"enum": ["engine", "friend"], "default": "engine"},
            "level": {"type": "integer", "minimum": 1, "maximum": 8, "default": 1},
            "rated": {
                "type": "boolean",
                "default": False,
                "description": "a rated friend game: you must be logged in, and only an account may "
                "join it (403 rated_needs_account otherwise; 400 rated_needs_accounts against the engine)",
            },
            "clock": {
                "description": "the time control; absent or null: untimed. A preset may be sent as text "
                '("3+2": minutes + seconds)',
                "oneOf": [
                    _ref("ClockControl"),
                    _ref("CorrespondenceControl"),
                    {"type": "string"},
                    {"type": "null"},
                ],
            },
        },
    },
    # ----- clocks (clocks.py) -----
    "ClockControl": {
        "type": "object",
        "required": ["base"],
        "properties": {
            "base": {
                "type": "number",
                "minimum": 15,
                "maximum": 10800,
                "description": "seconds for each side",
            },
            "increment": {
                "type": "number",
                "minimum": 0,
                "maximum": 180,
                "default": 0,
                "description": "seconds",
            },
        },
        "examples": [{"base": 180, "increment": 2}],
    },
    "CorrespondenceControl": {
        "type": "object",
        "required": ["days"],
        "properties": {"days": {"enum": [1, 3, 7], "description": "days per move"}},
    },
    "Clock": {
        "type": ["object", "null"],
        "description": "null in untimed games. Times in milliseconds; the running side's counts down from "
        "server_time. The first move of each side is not timed: it must come before first_move_deadline "
        "(30 s after both seats are filled), or the game is aborted.",
        "properties": {
            "control": {"type": "object", "description": "{base, increment, label} or {days, label}"},
            "white": {"type": "integer"},
            "black": {"type": "integer"},
            "running": {"enum": ["white", "black", None]},
            "deadline": {"type": ["integer", "null"], "description": "epoch ms: the flag or the abort"},
            "first_move_deadline": {"type": ["integer", "null"]},
            "turn_started": {"type": ["integer", "null"], "description": "epoch ms: when the turn began"},
            "server_time": {"type": "integer", "description": "epoch ms when this was computed"},
        },
    },
    "Created": {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "seat": {"enum": ["white", "black"]},
            "token": {"type": "string", "description": "your seat's secret; keep it"},
            "url": {"type": "string", "description": "your seat link: it carries your seat"},
            "invite_token": {"type": "string", "description": "the friend's invitation (friend games)"},
            "invite_url": {
                "type": "string",
                "description": "the link to send your friend; the first to join takes the seat",
            },
            "game": _ref("Game"),
        },
    },
    "Position": {
        "type": "object",
        "description": "The side to move's legal moves in board terms, check and the outcome.",
        "properties": {
            "fen": {"type": "string"},
            "turn": {"enum": ["white", "black"]},
            "dests": {
                "type": "object",
                "additionalProperties": {"type": "array", "items": {"type": "string"}},
            },
            "promotions": {
                "type": "object",
                "description": "from+to -> piece letters to choose from ('' = no promotion)",
                "additionalProperties": {"type": "array", "items": {"type": "string"}},
            },
            "transforms": {"type": "object", "description": "square -> letter the piece may change into"},
            "pulls": {"type": "array", "items": {"type": "object"}, "description": "{magnet, from, to}"},
            "repetition_losing": {
                "type": "array",
                "items": {"type": "string"},
                "description": "UCI moves that would lose at once by repetition (repetition: loss)",
            },
            "campmate_wins": {
                "type": "object",
                "additionalProperties": {"type": "array", "items": {"type": "string"}},
                "description": "from -> to-squares of the moves that win at once by campmate",
            },
            "held": {
                "type": "array",
                "items": {"type": "object"},
                "description": "pieces of either side held by an enemy restricting piece (a magnet): "
                "{square, by: [restrictor squares], closed: [{step: [dx, dy], toward, squares}]}, "
                "`squares` being what the piece would reach that way if the direction were open",
            },
            "last_move_facts": {
                "type": ["object", "null"],
                "description": "the last move: {capture, changed_sides: null or {square, piece, color}} "
                "(a capturer that changed sides, as Andernach captures do)",
            },
            "check": {
                "type": "array",
                "items": {"type": "string"},
                "description": "the side to move's royal squares when it is in check, at checkmate too",
            },
            "result": {"type": "string", "examples": ["*", "1-0", "0-1", "1/2-1/2"]},
            "termination": {"type": ["string", "null"]},
            "winner": {"enum": ["white", "black", None]},
            "reason": {"type": "string", "examples": ["Black wins by campmate"]},
            "clock": _ref("Clock"),
        },
    },
    "Game": {
        "allOf": [
            _ref("Position"),
            {
                "type": "object",
                "properties": {
                    "id": {"type": "string"},
                    "variant": {"type": "object"},
                    "start_fen": {"type": "string"},
                    "moves": {"type": "array", "items": {"type": "object"}, "description": "{uci, san, fen}"},
                    "players": {"type": "object"},
                    "seat": {"enum": ["white", "black", None], "description": "whose token you sent"},
                    "ply": {"type": "integer"},
                    "status": {"enum": ["waiting", "playing", "over", "aborted"]},
                    "draw_offer": {"enum": ["white", "black", None]},
                    "last_move": {"type": "array", "items": {"type": "string"}},
                },
            },
            _ref("Offers"),
        ]
    },
    # ----- takeback, rematch, abort (offers.py) -----
    "Offers": {
        "type": "object",
        "description": "The offers part of every game state and event.",
        "properties": {
            "takeback_offer": {"enum": ["white", "black", None], "description": "who asks, while played"},
            "takeback_declined": {
                "type": "boolean",
                "description": "a takeback was declined since the last move: none may be asked until one",
            },
            "takebacks_allowed": {"type": "boolean", "description": "while played, in casual games"},
            "can_abort": {"type": "boolean", "description": "while played, before both sides have moved"},
            "rematch_offer": {"enum": ["white", "black", None], "description": "who offers, once over"},
            "rematch_declined": {"type": "boolean", "description": "declined: no rematch of this game"},
            "rematch": {"type": ["string", "null"], "description": "the id of this game's rematch"},
            "rematch_of": {"type": ["string", "null"], "description": "the game this one replays"},
        },
    },
    "OfferAction": {
        "type": "object",
        "required": ["action"],
        "properties": {
            "action": {
                "enum": ["offer", "accept", "decline", "cancel"],
                "description": "offer (an offer crossing the opponent's accepts it), accept or decline the "
                "opponent's, cancel your own",
            },
            "token": {"type": "string"},
        },
    },
    "OfferEvent": {
        "description": 'Also broadcast on the game\'s websocket as {"type": "offer", ...}.',
        "allOf": [
            _ref("Position"),
            _ref("Offers"),
            {
                "type": "object",
                "properties": {
                    "type": {"const": "offer"},
                    "kind": {"enum": ["takeback", "rematch"]},
                    "action": {"enum": ["offer", "accept", "decline", "cancel"]},
                    "by": {"enum": ["white", "black"], "description": "who acted (the engine accepts)"},
                    "plies": {"type": "integer", "description": "an accepted takeback: plies taken back"},
                    "ply": {"type": "integer"},
                },
            },
        ],
    },
    "RematchSeat": {
        "type": "object",
        "properties": {
            "id": {"type": "string", "description": "the old game"},
            "rematch": {"type": ["string", "null"], "description": "the new game, once created"},
            "rematch_offer": {"enum": ["white", "black", None]},
            "rematch_declined": {"type": "boolean"},
            "seat": {"enum": ["white", "black"], "description": "your seat in the new game (players only)"},
            "token": {"type": "string", "description": "its secret (players only)"},
            "url": {"type": "string", "description": "your seat link in the new game (players only)"},
        },
    },
    "MoveEvent": {
        "allOf": [
            _ref("Position"),
            {
                "type": "object",
                "properties": {
                    "type": {"const": "move"},
                    "uci": {"type": "string"},
                    "san": {"type": "string"},
                    "ply": {"type": "integer"},
                },
            },
        ]
    },
    "Account": {
        "type": "object",
        "properties": {
            "username": {"type": "string"},
            "url": {"type": "string", "description": "the player page, /@/{username}"},
            "created_at": {"type": "string", "format": "date-time"},
        },
    },
    "Rating": {
        "type": "object",
        "description": "Glicko-2; provisional while RD > 110 (shown with '?')",
        "properties": {
            "rating": {"type": "integer"},
            "rd": {"type": "integer"},
            "volatility": {"type": "number"},
            "provisional": {"type": "boolean"},
            "rating_text": {"type": "string", "examples": ["1500?", "1732"]},
            "games": {"type": "integer", "description": "rated games in this variant"},
            "history": {
                "type": "array",
                "description": "the rating after each rated game, oldest first (GET .../ratings only)",
                "items": {
                    "type": "object",
                    "properties": {
                        "game": {"type": "string"},
                        "rating": {"type": "integer"},
                        "rd": {"type": "integer"},
                        "at": {"type": "string"},
                    },
                },
            },
        },
    },
    "PlayerGame": {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "variant": {"type": "string"},
            "rated": {"type": "boolean"},
            "color": {"enum": ["white", "black"], "description": "the player's side"},
            "white": {"type": "object", "description": "{user, name, rating, rating_text}"},
            "black": {"type": "object"},
            "status": {"enum": ["waiting", "playing", "over"]},
            "result": {"type": "string"},
            "outcome": {"enum": ["win", "draw", "loss", None], "description": "for the player"},
            "reason": {"type": "string"},
        },
    },
    # ----- lobby seeks (seeks.py, lobby.py) -----
    "NewSeek": {
        "type": "object",
        "properties": {
            "variant": {"type": "string", "default": "chess", "examples": ["orda", "hordes"]},
            "clock": {
                "description": "the time control, as for a new game; absent or null: untimed",
                "oneOf": [
                    _ref("ClockControl"),
                    _ref("CorrespondenceControl"),
                    {"type": "string"},
                    {"type": "null"},
                ],
            },
            "rated": {
                "type": "boolean",
                "default": False,
                "description": "accounts only: 403 rated_needs_account for anonymous creators and accepters",
            },
            "color": {
                "enum": ["white", "black", "random"],
                "default": "random",
                "description": "the creator's side; random is drawn when the seek is accepted",
            },
        },
    },
    "Seek": {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "state": {"enum": ["open", "accepted", "cancelled", "expired"]},
            "variant": {"type": "object", "description": "{slug, title}"},
            "clock": {"type": ["object", "null"], "description": "{base, increment, label} or {days, label}"},
            "rated": {"type": "boolean"},
            "color": {"enum": ["white", "black", "random"]},
            "creator": {
                "type": "object",
                "description": "{name (null: anonymous), rating, rating_text ('1500?' while provisional), "
                "provisional} in the seek's variant",
            },
            "mine": {"type": "boolean", "description": "whether the asking client created it"},
            "created_ms": {"type": "integer"},
            "expires_ms": {"type": "integer", "description": "when it expires if nobody accepts it"},
            "game_id": {"type": ["string", "null"], "description": "the game, once accepted"},
            "seat": {"type": "string", "description": "creator only, once accepted: their colour"},
            "token": {"type": "string", "description": "creator only, once accepted: their seat token"},
        },
    },
    "Evaluation": {
        "type": "object",
        "description": "White's point of view; the top-level score and moves are line 1's",
        "properties": {
            "cp": {"type": ["integer", "null"]},
            "mate": {"type": ["integer", "null"], "description": "moves to mate, positive when White mates"},
            "depth": {"type": "integer"},
            "best": {"type": ["string", "null"]},
            "pv": {"type": "array", "items": {"type": "string"}},
            "pv_san": {"type": "string"},
            "lines": {
                "type": "array",
                "items": _ref("EngineLine"),
                "description": "the `multipv` best lines, best first",
            },
        },
    },
    "EngineLine": {
        "type": "object",
        "description": "One MultiPV line, White's point of view",
        "properties": {
            "cp": {"type": ["integer", "null"]},
            "mate": {"type": ["integer", "null"]},
            "depth": {"type": "integer"},
            "best": {"type": ["string", "null"]},
            "pv": {"type": "array", "items": {"type": "string"}, "description": "UCI moves"},
            "pv_sans": {"type": "array", "items": {"type": "string"}, "description": "the same in SAN"},
            "pv_san": {"type": "string", "description": "numbered SAN text"},
        },
    },
    "JudgedEvaluation": {
        "type": "object",
        "description": "The evaluation of the position after `ply` moves (White's point of view) and the "
        "judgement of the move that led to it: lichess's thresholds, a drop of the mover's win "
        "probability by 5 / 10 / 15 points (inaccuracy ?! / mistake ? / blunder ??), or a forced "
        "mate allowed or let go (web/judgement.py)",
        "properties": {
            "ply": {"type": "integer"},
            "cp": {"type": ["integer", "null"]},
            "mate": {"type": ["integer", "null"]},
            "best": {"type": ["string", "null"]},
            "depth": {"type": "integer"},
            "judgement": {"enum": ["inaccuracy", "mistake", "blunder", None]},
        },
    },
    "TreeMove": {
        "type": "object",
        "description": "A move of the analysis tree. A line is a list of these; `variations` are the lines "
        "that replace this move (alternatives from the same position), so `moves` of a tree is its main "
        "line and the tree nests only as deep as its variations. Sent back, `san` and `fen` are "
        "ignored; a bare UCI string is a move without comments. Bounds: 3000 moves, variations "
        "nested 8 deep, comments of 4000 characters; a problem is reported with its place, e.g. "
        "`moves[3].variations[0][1].uci`",
        "required": ["uci"],
        "properties": {
            "uci": {"type": "string"},
            "san": {"type": "string", "readOnly": True},
            "fen": {"type": "string", "readOnly": True, "description": "the position after the move"},
            "comment": {"type": "string", "description": "the comment after the move"},
            "starting_comment": {
                "type": "string",
                "description": "the comment before the move (the first move of a variation)",
            },
            "nags": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 255}},
            "variations": {"type": "array", "items": {"type": "array", "items": _ref("TreeMove")}},
        },
    },
}

_TREE_MOVES = {
    "type": "array",
    "items": {"oneOf": [_ref("TreeMove"), {"type": "string"}]},
    "description": "the main line of the move tree (see TreeMove), or a single line of UCI moves",
}


def _paths() -> dict[str, Any]:
    return {
        "/api/variants": {
            "get": {
                "summary": "The built-in variants",
                "responses": {"200": _ok("Variants", {"type": "object"})},
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
        "paths": _paths(),
        "components": {"schemas": SCHEMAS},
    }
