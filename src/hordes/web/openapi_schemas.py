"""The schemas (components) of the OpenAPI description: the shapes of the API's requests and answers.

openapi.py holds the paths and refers to these by name, with `ref`.
"""

from __future__ import annotations

from typing import Any


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


SCHEMAS: dict[str, Any] = {
    "Error": {
        "type": "object",
        "required": ["error", "message"],
        "properties": {
            "error": {"type": "string", "description": "machine word, e.g. illegal_move, not_your_turn"},
            "message": {"type": "string", "description": "what is wrong, for people"},
        },
    },
    "VariantCheck": {
        "type": "object",
        "required": ["document"],
        "properties": {
            "document": {"type": "string", "maxLength": 65536, "description": "a variant document"}
        },
    },
    "VariantDocument": {
        "type": "object",
        "required": ["document"],
        "properties": {
            "document": {"type": "string", "maxLength": 65536, "description": "a variant document"},
            "visibility": {
                "enum": ["public", "unlisted"],
                "default": "public",
                "description": "public: listed in GET /api/variants; unlisted: reachable by name only",
            },
        },
    },
    "StoredVariant": {
        "type": "object",
        "required": ["name", "version", "id"],
        "properties": {
            "name": {"type": "string", "description": "the play name, SLUG~SERIES@VERSION"},
            "version": {"type": "integer", "minimum": 1},
            "id": {"type": "string"},
            "series": {"type": "string"},
            "slug": {"type": "string"},
            "title": {"type": "string"},
            "author": {"type": ["string", "null"]},
            "visibility": {"enum": ["public", "unlisted"]},
            "created": {"type": "string", "format": "date-time"},
            "url": {"type": "string"},
            "play_url": {"type": "string"},
        },
    },
    "VariantSummary": {
        "type": "object",
        "required": ["ok", "name", "title", "fen", "width", "height", "pieces"],
        "properties": {
            "ok": {"const": True},
            "name": {"type": "string", "description": "the document's slug"},
            "title": {"type": "string"},
            "fen": {"type": "string", "description": "the start position"},
            "width": {"type": "integer"},
            "height": {"type": "integer"},
            "pieces": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "letter": {"type": "string"},
                        "name": {"type": "string"},
                        "betza": {"type": "string"},
                    },
                },
            },
        },
    },
    "VariantProblems": {
        "type": "object",
        "required": ["error", "message", "problems"],
        "properties": {
            "error": {"enum": ["invalid_variant", "over_limit"]},
            "message": {"type": "string"},
            "problems": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["path", "line", "message"],
                    "properties": {
                        "path": {"type": "string", "description": "key path, e.g. engine.pieces.H.betza"},
                        "line": {"type": ["integer", "null"], "description": "line in the document"},
                        "message": {"type": "string"},
                        "document": {"type": "string", "description": "the parent the problem is in"},
                    },
                },
            },
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
                    ref("ClockControl"),
                    ref("CorrespondenceControl"),
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
            "game": ref("Game"),
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
            "clock": ref("Clock"),
        },
    },
    "Game": {
        "allOf": [
            ref("Position"),
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
            ref("Offers"),
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
            ref("Position"),
            ref("Offers"),
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
            ref("Position"),
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
                    ref("ClockControl"),
                    ref("CorrespondenceControl"),
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
                "items": ref("EngineLine"),
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
            "variations": {"type": "array", "items": {"type": "array", "items": ref("TreeMove")}},
        },
    },
}
