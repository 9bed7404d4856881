"""Per-client rate limits on the expensive requests: token buckets, one per (limit, client).

A bucket holds up to `capacity` units and refills at `per_second` units a second; a request costs
some units (one game, kilobytes of PGN, engine seconds) and is refused with 429 and a Retry-After
while its bucket holds fewer. The client is `request.client.host`: the peer's address, or, behind a
proxy that uvicorn trusts ($FORWARDED_ALLOW_IPS, by default 127.0.0.1 and ::1), the address in its
X-Forwarded-For. Everyone behind one address shares its buckets. The limits and why they are what
they are: docs/web.md.

The clock is injectable (`RateLimiter(clock=...)`) so tests move time instead of waiting for it.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from starlette.requests import HTTPConnection

MAX_BUCKETS = 10_000  # past this many (limit, client) buckets, the least recently used are forgotten


@dataclass(frozen=True, slots=True)
class Rule:
    capacity: float  # units a client may spend at once
    per_second: float  # units given back each second
    unit: str  # what a unit is, for the error message
    what: str  # what is limited, for the error message


# The defaults (docs/web.md has the table with the reasons).
DEFAULT_RULES: dict[str, Rule] = {
    "create": Rule(20, 1 / 6, "games", "creating games"),
    "pgn": Rule(256, 4, "KB of PGN", "PGN import"),
    "analysis": Rule(60, 0.5, "engine seconds", "analysis"),
    "graph": Rule(90, 0.25, "engine seconds", "evaluation graphs"),
    # The workshop's preview builds a variant and draws it (some 50 ms of CPU) at each pause in typing.
    "preview": Rule(60, 2, "previews (one per 4 KB of document)", "workshop previews"),
    # Accounts (accounts.py): each failed login costs one from its client's and its name's bucket;
    # signing up hashes a password (about 0.2 s of CPU), so it is limited too.
    "login": Rule(10, 1 / 30, "failed logins", "failed logins"),
    "login_name": Rule(5, 1 / 60, "failed logins", "failed logins for this username"),
    "signup": Rule(5, 1 / 120, "accounts", "signing up"),
    # Variant documents (variant_views.py): the workshop checks on each pause in typing (about one
    # a second while someone edits), a check costing one unit per 4 KB of document; storing makes
    # a row that is kept for good.
    "variant_check": Rule(30, 1, "checks (one per 4 KB of document)", "variant document checks"),
    "variant_save": Rule(10, 1 / 60, "documents", "storing variant documents"),
}


class RateLimited(Exception):
    """A client is over one of its limits: answered 429 with Retry-After (see app.py)."""

    status = 429
    code = "rate_limited"

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.message = message
        self.retry_after = retry_after


class RateLimiter:
    """Token buckets per (rule name, client). Not thread-safe: use it from the event loop only."""

    def __init__(
        self, rules: dict[str, Rule] | None = None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rules = dict(DEFAULT_RULES if rules is None else rules)
        self.clock = clock
        self._buckets: OrderedDict[tuple[str, str], tuple[float, float]] = OrderedDict()  # tokens, stamp

    def take(self, name: str, client: str, cost: float = 1.0) -> None:
        """Spend `cost` units of `client`'s bucket `name`, or raise RateLimited (spending nothing).
        A rule's capacity must be at least the largest cost a request can have."""
        rule = self.rules.get(name)
        if rule is None:  # a limit that is not configured is no limit
            return
        now = self.clock()
        key = (name, client)
        tokens, stamp = self._buckets.get(key, (rule.capacity, now))
        tokens = min(rule.capacity, tokens + max(0.0, now - stamp) * rule.per_second)
        if tokens < cost:
            wait = math.ceil((cost - tokens) / rule.per_second) if rule.per_second > 0 else 3600
            self._buckets[key] = (tokens, now)
            raise RateLimited(
                f"too much {rule.what} from your address: at most {rule.capacity:g} {rule.unit} at once, "
                f"then {_rate(rule)}; try again in {wait} s",
                retry_after=wait,
            )
        self._buckets[key] = (tokens - cost, now)
        self._buckets.move_to_end(key)
        while len(self._buckets) > MAX_BUCKETS:
            self._buckets.popitem(last=False)

    def check(self, name: str, client: str, cost: float = 1.0) -> None:
        """Raise RateLimited if `take` would, without spending anything (failed logins are charged
        only once they have failed, but an empty bucket refuses the next attempt at once)."""
        rule = self.rules.get(name)
        if rule is None:
            return
        tokens, stamp = self._buckets.get((name, client), (rule.capacity, self.clock()))
        tokens = min(rule.capacity, tokens + max(0.0, self.clock() - stamp) * rule.per_second)
        if tokens < cost:
            self.take(name, client, cost)  # raises, with the message and Retry-After


def _rate(rule: Rule) -> str:
    if rule.per_second >= 1:
        return f"{rule.per_second:g} {rule.unit} a second"
    return f"{rule.per_second * 60:g} {rule.unit} a minute"


def client_of(conn: HTTPConnection) -> str:
    """Who a request is from, for the limits: its peer's address (see the module docstring)."""
    return conn.client.host if conn.client else "unknown"


def rate_limit(conn: HTTPConnection, name: str, cost: float = 1.0) -> None:
    """Charge the request's client `cost` units of limit `name` (no limiter configured: no limit)."""
    limiter: RateLimiter | None = getattr(conn.app.state, "limiter", None)
    if limiter is not None:
        limiter.take(name, client_of(conn), cost)
