"""This server's own origin, and whether a request's Origin (or Referer) is it.

With a configured `--base-url` the site's origin is that URL's; without one it is the scheme and Host
of the request itself (what the browser connected to), which a page of another site cannot forge.
Shared by the HTTP checks (security.py) and the websocket (live.py).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.requests import HTTPConnection

_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}

Origin = tuple[str, str, int]  # scheme, host, port


def parse_origin(value: str) -> Origin | None:
    """(scheme, host, port) of an origin or URL, or None if it names none (e.g. Origin: null)."""
    try:
        parts = urlsplit(value.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.hostname:
        return None
    scheme = {"ws": "http", "wss": "https"}.get(scheme, scheme)
    return scheme, parts.hostname.lower(), port or _DEFAULT_PORTS[scheme]


def own_origin(conn: HTTPConnection) -> Origin | None:
    """The origin this server answers as: the configured base URL, else scheme + Host."""
    base_url = getattr(conn.app.state, "base_url", None) if "app" in conn.scope else None
    if base_url:
        return parse_origin(str(base_url))
    host = conn.headers.get("host")
    if not host:
        return None
    return parse_origin(f"{conn.url.scheme}://{host}")


def same_origin(conn: HTTPConnection, value: str) -> bool:
    mine = own_origin(conn)
    return mine is not None and parse_origin(value) == mine
