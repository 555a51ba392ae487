"""Python client for Memlane, the memory service for AI agents.

``Memlane`` (sync) and ``AsyncMemlane`` (async) over httpx; ``client.user("alice")`` gives the
handle with ``remember``, ``recall``, ``add_messages``, ``context``, tasks, export/import and
``erase``. Response models (``memlane_client.models``) are generated from the server's OpenAPI
document; errors are the ``MemlaneError`` family of ``memlane_client.errors``.
"""

from memlane_client._core import RetryPolicy
from memlane_client.aio import AsyncMemlane, AsyncUser
from memlane_client.client import Memlane, User
from memlane_client.errors import (
    MemlaneConflict,
    MemlaneConnectionError,
    MemlaneError,
    MemlaneForbidden,
    MemlaneIdempotencyKeyReused,
    MemlaneJobFailed,
    MemlaneNotFound,
    MemlanePayloadTooLarge,
    MemlaneRateLimited,
    MemlaneServerError,
    MemlaneTimeout,
    MemlaneUnauthorized,
    MemlaneUnavailable,
    MemlaneValidationError,
)

__version__ = "0.1.0"

__all__ = [
    "AsyncMemlane",
    "AsyncUser",
    "Memlane",
    "MemlaneConflict",
    "MemlaneConnectionError",
    "MemlaneError",
    "MemlaneForbidden",
    "MemlaneIdempotencyKeyReused",
    "MemlaneJobFailed",
    "MemlaneNotFound",
    "MemlanePayloadTooLarge",
    "MemlaneRateLimited",
    "MemlaneServerError",
    "MemlaneTimeout",
    "MemlaneUnauthorized",
    "MemlaneUnavailable",
    "MemlaneValidationError",
    "RetryPolicy",
    "User",
]
