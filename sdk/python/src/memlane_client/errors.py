"""Typed exceptions for Memlane's RFC 9457 problem responses.

Every error answer of Memlane is ``application/problem+json`` with a stable ``type``
(``urn:memlane:problem:<slug>``). :func:`error_from_response` maps it to the most specific class
below; each carries ``type``, ``title``, ``status``, ``detail``, ``instance``, ``errors`` (the
per-field list of a validation error) and ``request_id`` (the body's, or the ``X-Request-ID``
response header), so a log line can be matched to the server's.
"""

from __future__ import annotations

from typing import Any

import httpx

TYPE_PREFIX = "urn:memlane:problem:"


class MemlaneError(Exception):
    """Base of every error this client raises."""

    def __init__(
        self,
        detail: str | None = None,
        *,
        type: str | None = None,
        title: str | None = None,
        status: int | None = None,
        instance: str | None = None,
        request_id: str | None = None,
        errors: list[dict[str, Any]] | None = None,
        headers: httpx.Headers | None = None,
    ) -> None:
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.instance = instance
        self.request_id = request_id
        self.errors = errors
        self.headers = headers
        parts = [f"{status}" if status else None, type, detail or title]
        if request_id:
            parts.append(f"(request {request_id})")
        super().__init__(" ".join(p for p in parts if p))


class MemlaneValidationError(MemlaneError):
    """422 (or 400): the request is not valid; ``errors`` lists the fields."""


class MemlaneUnauthorized(MemlaneError):
    """401: missing or invalid API key."""


class MemlaneForbidden(MemlaneError):
    """403: this key may not do that (e.g. an admin key on a tenant's user)."""


class MemlaneNotFound(MemlaneError):
    """404: no such resource — also what another tenant's paths answer."""


class MemlaneConflict(MemlaneError):
    """409: the request conflicts with the current state."""


class MemlaneIdempotencyKeyReused(MemlaneConflict):
    """409: the Idempotency-Key was already used with another body."""


class MemlanePayloadTooLarge(MemlaneError):
    """413: the request body is over the server's limit."""


class MemlaneRateLimited(MemlaneError):
    """429 after the retries were spent; ``retry_after`` is the server's last advice in s."""

    @property
    def retry_after(self) -> float | None:
        return parse_retry_after(self.headers.get("retry-after")) if self.headers else None


class MemlaneServerError(MemlaneError):
    """5xx after the retries were spent (or on a request that is not safe to retry)."""


class MemlaneUnavailable(MemlaneServerError):
    """503: a dependency of the server (its database) is unavailable."""


class MemlaneConnectionError(MemlaneError):
    """The server could not be reached (after the retries); ``__cause__`` is httpx's error."""


class MemlaneJobFailed(MemlaneError):
    """A queued write ended ``failed``; ``detail`` is the job's error, ``job_id`` its id."""

    def __init__(self, detail: str | None, *, job_id: str) -> None:
        super().__init__(detail, title="Job failed")
        self.job_id = job_id


class MemlaneTimeout(MemlaneError):
    """A ``wait=True`` write was still queued or running after ``wait_timeout_s``."""

    def __init__(self, detail: str, *, job_id: str) -> None:
        super().__init__(detail, title="Timed out waiting for the job")
        self.job_id = job_id


_BY_SLUG: dict[str, type[MemlaneError]] = {
    "idempotency-key-reused": MemlaneIdempotencyKeyReused,
    "rate-limited": MemlaneRateLimited,
    "validation-error": MemlaneValidationError,
    "unsupported-schema-version": MemlaneValidationError,
    "payload-too-large": MemlanePayloadTooLarge,
    "service-unavailable": MemlaneUnavailable,
}

_BY_STATUS: dict[int, type[MemlaneError]] = {
    400: MemlaneValidationError,
    401: MemlaneUnauthorized,
    403: MemlaneForbidden,
    404: MemlaneNotFound,
    409: MemlaneConflict,
    413: MemlanePayloadTooLarge,
    422: MemlaneValidationError,
    429: MemlaneRateLimited,
    503: MemlaneUnavailable,
}


def error_from_response(response: httpx.Response) -> MemlaneError:
    """The typed exception for a non-2xx ``response`` (its problem body when it has one)."""
    try:
        body = response.json()
    except ValueError:
        body = None
    problem: dict[str, Any] = body if isinstance(body, dict) else {}
    ptype = problem.get("type") if isinstance(problem.get("type"), str) else None
    slug = ptype.removeprefix(TYPE_PREFIX) if ptype else ""
    status = response.status_code
    cls = _BY_SLUG.get(slug) or _BY_STATUS.get(status)
    if cls is None:
        cls = MemlaneServerError if status >= 500 else MemlaneError
    detail = problem.get("detail")
    if detail is None and not problem:
        detail = response.text[:500] or response.reason_phrase
    return cls(
        detail,
        type=ptype,
        title=problem.get("title"),
        status=status,
        instance=problem.get("instance"),
        request_id=problem.get("request_id") or response.headers.get("x-request-id"),
        errors=problem.get("errors"),
        headers=response.headers,
    )


def parse_retry_after(value: str | None) -> float | None:
    """Seconds from a ``Retry-After`` header: delta-seconds or an HTTP date (RFC 9110 §10.2.3)."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    from datetime import UTC, datetime
    from email.utils import parsedate_to_datetime

    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())
