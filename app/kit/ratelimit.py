"""Rate limiting per API key: ``settings.rate_limit_per_minute`` requests in any moving
60-second window, then ``429`` with ``Retry-After`` (problem type
``urn:memlane:problem:rate-limited``).

The counting is done by the ``limits`` library (moving window strategy, in-memory storage), so
limits are **per process**: with N replicas (or N uvicorn workers) a key may send up to N times
the limit. Where that matters, put the counters in a shared storage backend — ``limits``
supports Redis, Memcached and MongoDB behind the same ``MovingWindowRateLimiter``
(``limits.aio.storage.storage_from_string("async+redis://…")``) — or enforce the limit at the
proxy in front of the replicas.

The limit applies to authenticated routes only, keyed by the API key's id (the admin key has
one bucket of its own); ``/healthz``, ``/readyz`` and ``/metrics`` are never limited. Requests
with a missing or unknown key are refused with 401 before they are counted (flooding with bad
keys is the proxy's job, per client address). See docs/operations.md, "Rate limits".
"""

from __future__ import annotations

import math
import time
from typing import Any

from limits import RateLimitItemPerMinute
from limits.aio.storage import MemoryStorage
from limits.aio.strategies import MovingWindowRateLimiter

from app.auth.principal import CurrentPrincipal, Principal
from app.kit.errors import PROBLEM_JSON, Problem, TooManyRequests

# The 429 of every limited route, for the OpenAPI document.
RATE_LIMITED_RESPONSES: dict[int | str, dict[str, Any]] = {
    429: {
        "model": Problem,
        "description": TooManyRequests.title,
        "content": {PROBLEM_JSON: {}},
        "headers": {
            "Retry-After": {
                "description": "Seconds until the key may send again",
                "schema": {"type": "integer"},
            }
        },
    }
}


class KeyRateLimiter:
    """At most ``per_minute`` requests per principal in any moving 60-second window."""

    def __init__(self, per_minute: int) -> None:
        self.item = RateLimitItemPerMinute(per_minute)
        self.limiter = MovingWindowRateLimiter(MemoryStorage())

    @staticmethod
    def bucket(principal: Principal) -> str:
        """The counter a principal spends: its API key's id, or "admin"."""
        return "admin" if principal.kind == "admin" else f"key:{principal.key_id}"

    async def hit(self, principal: Principal) -> None:
        """Count one request. Raises TooManyRequests (429, with ``Retry-After`` in whole
        seconds until the oldest request in the window leaves it) when the budget is spent."""
        await self.hit_bucket(self.bucket(principal))

    async def hit_bucket(self, bucket: str) -> None:
        """Count one request against ``bucket`` (e.g. a client address); as ``hit``."""
        if await self.limiter.hit(self.item, bucket):
            return
        reset_at, _ = await self.limiter.get_window_stats(self.item, bucket)
        retry_after = max(1, math.ceil(reset_at - time.time()))
        raise TooManyRequests(
            f"more than {self.item.amount} requests per minute with this key; "
            f"retry in {retry_after} s",
            headers={"Retry-After": str(retry_after)},
        )

    async def __call__(self, principal: CurrentPrincipal) -> None:
        """The route dependency. ``principal`` is the route's own (FastAPI resolves
        ``get_principal`` once per request), so a limited request costs no extra lookup."""
        await self.hit(principal)


def build_rate_limiter(per_minute: int | None) -> KeyRateLimiter | None:
    """The limiter of one app, or None when limiting is off (``None`` or 0)."""
    return KeyRateLimiter(per_minute) if per_minute else None
