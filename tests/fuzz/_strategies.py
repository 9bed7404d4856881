"""Hypothesis strategies for the web app's requests, generated from its own OpenAPI description.

`endpoints()` walks `openapi_schema()` (each path and method, its parameters and its JSON request
body) and, described the same way, the HTML pages that take input; `request(endpoint, ctx)` draws
one request for it: the path, query, headers and body of a well-formed request mixed with junk
(wrong types, huge numbers, lone surrogates, deep nesting, garbage bytes, wrong content types).
`ctx` supplies what the app knows now (game ids, seat tokens, legal moves), read at draw time, so a
good share of requests are valid and change games.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlencode

from hypothesis import strategies as st

from hordes.web.openapi import openapi_schema

Strategy = st.SearchStrategy[Any]

# The reproducers (and their kin) as values; each is also an explicit @example in the tests.
JUNK_TEXT = [
    "",
    " ",
    "²",
    "١٢",
    "1" * 5000,
    "\ud800",
    "a\udfffb",
    "x" * 300,
    "x" * 297 + ".md",
    "/etc/hostname",
    "../variants/chess.md",
    "chess.md",
    "\x00",
    "\n",
    "null",
    "💥" * 3,
    "\u202e",
    "'; DROP TABLE games; --",
    "%C2%B2",
    "<script>alert(1)</script>",
    "e2e4" * 4,
]
JUNK_RAW_BODIES = [
    b"[" * 5000,
    b'{"a": ' * 3000 + b"1" + b"}" * 3000,
    b"[" * 40 + b"]" * 40,
    b"1" * 5000,
    b'{"level": ' + b"9" * 5000 + b"}",
    b'{"movetime": 1e999}',
    b'{"movetime": NaN}',
    b'{"ply": -Infinity, "uci": "e2e4"}',
    b'{"token": "\\ud800", "uci": "e2e4"}',
    b'{"headers": {"White": "\\udfff"}}',
    b"",
    b"null",
    b"[]",
    b'"text"',
    b"{",
    b"\xff\xfe{}",
    b"\xef\xbb\xbf{}",
    b" " * 17000 + b"{}",  # over the 16 KB limit
]
CONTENT_TYPES = [
    "application/json",
    "application/json; charset=utf-8",
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "application/json; charset=latin-1",
    None,
]


def weighted(*choices: tuple[int, Strategy]) -> Strategy:
    """One of the strategies, chosen with these weights (st.one_of takes a repeated one once)."""
    table = [strategy for weight, strategy in choices for _ in range(weight)]
    return st.integers(0, len(table) - 1).flatmap(lambda i: table[i])


junk_text: Strategy = st.one_of(st.sampled_from(JUNK_TEXT), st.text(max_size=40))
junk_scalar: Strategy = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=10**18, max_value=10**80),
    st.floats(),  # nan and inf too: json.dumps writes them as NaN and Infinity
    junk_text,
)
junk_value: Strategy = st.recursive(
    junk_scalar,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)


@dataclass
class Endpoint:
    method: str
    path: str  # with {placeholders}
    parameters: list[dict[str, Any]] = field(default_factory=list)
    body: dict[str, Any] | None = None  # JSON schema of the request body
    form: bool = False  # the body is an HTML form, not JSON
    api: bool = True  # /api/*: errors are JSON; else pages: errors are HTML

    @property
    def name(self) -> str:
        return f"{self.method} {self.path}"

    @property
    def changes_games(self) -> bool:
        return self.method == "POST"


# The HTML pages that take input, described like the API so that the same strategies apply.
_STR = {"type": "string"}
PAGES: dict[str, Any] = {
    "/": {"get": {"parameters": [{"name": "variant", "in": "query", "schema": _STR}]}},
    "/games": {
        "get": {},
        "post": {"requestBody": {"content": {"application/x-www-form-urlencoded": {"schema": "NewGame"}}}},
    },
    "/game/{game_id}": {
        "get": {
            "parameters": [
                {"name": "game_id", "in": "path", "schema": _STR},
                {"name": "token", "in": "query", "schema": _STR},
            ]
        }
    },
    "/analysis": {
        "get": {
            "parameters": [
                {"name": "variant", "in": "query", "schema": _STR},
                {"name": "game", "in": "query", "schema": _STR},
                {"name": "fen", "in": "query", "schema": _STR},
            ]
        }
    },
    "/variants/{slug}": {"get": {"parameters": [{"name": "slug", "in": "path", "schema": _STR}]}},
    "/pieces/{slug}": {"get": {"parameters": [{"name": "slug", "in": "path", "schema": _STR}]}},
}


def endpoints() -> list[Endpoint]:
    """Every path and method of the OpenAPI description, then the pages."""
    schema = openapi_schema()
    components = schema["components"]["schemas"]
    out = []
    for path, methods in schema["paths"].items():
        for method, op in methods.items():
            content = (op.get("requestBody") or {}).get("content", {})
            body = content.get("application/json", {}).get("schema")
            out.append(
                Endpoint(
                    method.upper(),
                    path,
                    op.get("parameters", []),
                    _resolve(body, components) if body else None,
                )
            )
    for path, methods in PAGES.items():
        for method, op in methods.items():
            form = op.get("requestBody", {}).get("content", {}).get("application/x-www-form-urlencoded")
            body = _resolve({"$ref": f"#/components/schemas/{form['schema']}"}, components) if form else None
            out.append(Endpoint(method.upper(), path, op.get("parameters", []), body, bool(form), api=False))
    return out


def _resolve(schema: Any, components: dict[str, Any], within: tuple[str, ...] = ()) -> Any:
    """`schema` with every $ref replaced by its component and allOf merged into one object. A
    component met again inside itself (TreeMove's variations hold TreeMoves) becomes "any value" there,
    so the recursion ends; the fuzzer still sends any JSON at that depth."""
    if isinstance(schema, list):
        return [_resolve(s, components, within) for s in schema]
    if not isinstance(schema, dict):
        return schema
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        if name in within:
            return {}
        return _resolve(components[name], components, (*within, name))
    if "allOf" in schema:
        merged: dict[str, Any] = {"type": "object", "properties": {}}
        for part in _resolve(schema["allOf"], components, within):
            merged["properties"].update(part.get("properties", {}))
        return merged
    return {k: _resolve(v, components, within) for k, v in schema.items()}


# ----- values from a JSON schema -----------------------------------------------------------------------
Hints = dict[str, Callable[[], Strategy]]
HintsFor = Callable[[str | None], Hints]  # hints for requests about a game (None: no game)


@st.composite
def _live(draw: st.DrawFn, hint: Callable[[], Strategy]) -> Any:
    """A value of `hint()`, asked anew at each draw (the games move on between examples)."""
    return draw(hint())


def from_schema(schema: dict[str, Any], hints: Hints, name: str = "") -> Strategy:
    """Values that fit `schema` (what a correct client sends), with `hints[name]()` for fields whose
    good values the schema cannot know (game ids, tokens, legal moves)."""
    good = _fitting(schema, hints, name)
    if name in hints:
        hinted = _live(hints[name])
        good = weighted((3, hinted), (1, good))
    return good


def _fitting(schema: dict[str, Any], hints: Hints, name: str) -> Strategy:
    if "const" in schema:
        return st.just(schema["const"])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kind = schema.get("type", "object" if "properties" in schema else None)
    if isinstance(kind, list):
        return st.one_of(*(_fitting({**schema, "type": k}, hints, name) for k in kind))
    if kind == "string":
        examples = (
            [schema["default"], *schema.get("examples", [])]
            if "default" in schema
            else schema.get("examples", [])
        )
        return st.sampled_from(examples) | st.text(max_size=20) if examples else st.text(max_size=20)
    if kind == "integer":
        return st.integers(schema.get("minimum", -(2**31)), schema.get("maximum", 2**31))
    if kind == "number":  # the only number is an engine's movetime: its seconds are the test's
        return st.floats(0.0, 0.1)
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    if kind == "array":
        return st.lists(from_schema(schema.get("items", {}), hints, name), max_size=4)
    if kind == "object" and "additionalProperties" in schema and "properties" not in schema:
        return st.dictionaries(
            st.text(max_size=10), from_schema(schema["additionalProperties"], hints), max_size=4
        )
    if kind == "object":
        return _object(
            {k: from_schema(v, hints, k) for k, v in schema.get("properties", {}).items()},
            set(schema.get("required", [])),
        )
    return junk_value


@st.composite
def _object(draw: st.DrawFn, props: dict[str, Strategy], required: set[str]) -> dict[str, Any]:
    """The required fields and most optional ones (st.fixed_dictionaries leaves them out so often
    that few requests would get past the first check)."""
    often = weighted((3, st.just(True)), (1, st.just(False)))
    return {k: draw(v) for k, v in props.items() if k in required or draw(often)}


def body_value(schema: dict[str, Any], hints: Hints) -> Strategy:
    """A body object: one that fits, or one with a field of the wrong type, or extra fields."""
    fitting = from_schema(schema, hints)
    names = sorted(schema.get("properties", {})) or ["x"]

    @st.composite
    def spoiled(draw: st.DrawFn) -> dict[str, Any]:
        value: dict[str, Any] = dict(draw(fitting))
        for _ in range(draw(st.integers(1, 3))):
            value[draw(st.sampled_from(names) | st.text(max_size=8))] = draw(junk_value)
        return value

    return weighted((2, fitting), (1, spoiled()))


def json_text(value: Any, ascii_only: bool) -> bytes:
    """JSON as a client would send it; lone surrogates can only travel as \\u escapes."""
    try:
        return json.dumps(value, ensure_ascii=ascii_only).encode("utf-8")
    except (UnicodeEncodeError, ValueError):
        return json.dumps(value, ensure_ascii=True).encode("utf-8")


# ----- whole requests ----------------------------------------------------------------------------------
@dataclass
class Request:
    method: str
    url: str
    headers: dict[str, str]
    body: bytes | None

    def __repr__(self) -> str:
        body = None if self.body is None else self.body[:300]
        return f"Request({self.method} {self.url[:300]!r}, headers={self.headers}, body={body!r})"


def _url_part(text: str) -> str:
    return quote(text.encode("utf-8", "surrogatepass"), safe="")


@st.composite
def request(draw: st.DrawFn, endpoint: Endpoint, hints_for: HintsFor) -> Request:
    """One request to `endpoint`: mostly well-formed (with values from `hints_for`), partly junk.
    The game id is drawn first, so that tokens and moves can be that game's."""
    path = endpoint.path
    query: list[tuple[str, str]] = []
    hints = hints_for(None)
    game = None
    params = sorted(endpoint.parameters, key=lambda p: p["name"] != "game_id")
    for param in params:
        pname = param["name"]
        good = from_schema(param.get("schema", {}), hints, pname).map(str)
        if param["in"] == "path":
            # Mostly a path that exists (a game, a variant): the deeper checks are behind it.
            known = _live(hints[pname]) if pname in hints else good
            value = draw(weighted((7, known), (1, good), (2, junk_text)))
            path = path.replace("{" + pname + "}", _url_part(value))
            if pname == "game_id":
                game = value
                hints = hints_for(game)
        elif draw(st.integers(0, 3)):
            query.append((pname, draw(st.one_of(good, junk_text))))
    if "{game_id}" in endpoint.path or draw(st.integers(0, 4)) == 0:
        # A seat token where clients send one (the JSON body gets its own below).
        where = draw(st.sampled_from(["none", "query", "header", "cookie"]))
        token = draw(weighted((4, _live(hints["token"])), (1, junk_text)))
        headers = _token_header(where, token, path)
        if where == "query":
            query.append(("token", token))
    else:
        headers = {}
    if draw(st.integers(0, 5)) == 0:
        query.append((draw(st.text(max_size=8)), draw(junk_text)))  # a parameter nobody asked for
    body: bytes | None = None
    method = endpoint.method
    if draw(st.integers(0, 19)) == 0:  # a method the route does not take (405), or HEAD
        method = draw(st.sampled_from(["PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "GET", "POST"]))
    if method == "POST":
        body, content_type = draw(_body(endpoint, hints))
        if content_type is not None:
            headers["content-type"] = content_type
    url = path + ("?" + "&".join(f"{_url_part(k)}={_url_part(v)}" for k, v in query) if query else "")
    return Request(method, url, headers, body)


def _token_header(where: str, token: str, path: str) -> dict[str, str]:
    if where == "header" and _header_safe(token):
        return {"x-seat-token": token}
    match = re.search(r"/games?/([^/?]+)", path)
    if where == "cookie" and match and _header_safe(token) and _header_safe(match.group(1)):
        return {"cookie": f"hordes_seat_{match.group(1)}={token}"}
    return {}


def _header_safe(text: str) -> bool:
    """HTTP clients refuse to send other header values (the server never sees them)."""
    return text.isascii() and text.isprintable() and text.strip() == text and ";" not in text


@st.composite
def _body(draw: st.DrawFn, endpoint: Endpoint, hints: Hints) -> tuple[bytes, str | None]:
    kind = draw(st.sampled_from(["fitting", "raw", "bytes"])) if draw(st.integers(0, 4)) == 0 else "fitting"
    if kind == "raw":
        return draw(st.sampled_from(JUNK_RAW_BODIES)), draw(st.sampled_from(CONTENT_TYPES))
    if kind == "bytes":
        return draw(st.binary(max_size=200)), draw(st.sampled_from(CONTENT_TYPES))
    schema = endpoint.body or {"type": "object", "properties": {"token": _STR}}
    value = draw(body_value(schema, hints))
    if endpoint.form:
        fields = [(k, v if isinstance(v, str) else json.dumps(v)) for k, v in value.items()]
        if draw(st.integers(0, 5)) == 0:
            fields += [(f"f{i}", "1") for i in range(draw(st.integers(1, 30)))]  # over 20 fields
        text = urlencode(
            [(k.encode("utf-8", "surrogatepass"), v.encode("utf-8", "surrogatepass")) for k, v in fields]
        )
        return text.encode("ascii"), draw(st.sampled_from(["application/x-www-form-urlencoded", None]))
    if "{game_id}" in endpoint.path and draw(st.booleans()):
        value["token"] = draw(weighted((4, _live(hints["token"])), (1, junk_text)))
    # Mostly the content type a JSON body needs (the API may refuse others): the body is the point.
    content_type = draw(weighted((6, st.just("application/json")), (1, st.sampled_from(CONTENT_TYPES))))
    return json_text(value, draw(st.booleans())), content_type
