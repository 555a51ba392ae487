"""What the sync and async clients share: request descriptions, the retry policy, settings.

A :class:`Call` describes one HTTP request and whether it is safe to send twice; the clients
only differ in how they send it (``httpx.Client`` or ``httpx.AsyncClient``).
"""

from __future__ import annotations

import os
import random
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from urllib.parse import quote

import httpx
from pydantic import BaseModel

from memlane_client.errors import MemlaneError, MemlaneValidationError, parse_retry_after

DEFAULT_URL = "http://127.0.0.1:8080"
WRITE_METHODS = frozenset({"POST", "PATCH", "PUT", "DELETE"})


@dataclass(frozen=True)
class Call:
    """One request. ``retry_safe``: sending it again after a lost answer or a 5xx cannot apply
    it twice (a read, a delete, or a write the server de-duplicates by ``Idempotency-Key``)."""

    method: str
    path: str
    params: dict[str, Any] | None = None
    json: Any = None
    retry_safe: bool = True
    headers: dict[str, str] = field(default_factory=dict)

    @classmethod
    def write(
        cls,
        method: str,
        path: str,
        *,
        json: Any = None,
        params: dict[str, Any] | None = None,
        retry_safe: bool,
    ) -> Call:
        """A write with a fresh ``Idempotency-Key``, kept for every retry of this call."""
        return cls(
            method,
            path,
            params=params,
            json=json,
            retry_safe=retry_safe,
            headers={"Idempotency-Key": uuid.uuid4().hex},
        )

    def request_params(self) -> dict[str, Any] | None:
        if not self.params:
            return None
        out: dict[str, Any] = {}
        for k, v in self.params.items():
            if v is None:
                continue
            if isinstance(v, bool):
                out[k] = "true" if v else "false"
            elif isinstance(v, datetime):
                out[k] = v.isoformat()
            else:
                out[k] = v
        return out


@dataclass(frozen=True)
class RetryPolicy:
    """Bounded retries with exponential backoff and full jitter.

    Retried: 429 (every call: the server refused it before doing anything; waits
    ``Retry-After`` when given, at most ``max_retry_after_s``), 5xx answers and connection
    errors on calls that are ``retry_safe``, and a refused connection (the request never left)
    on any call. Delay of attempt n (0-based) without ``Retry-After``: uniform in
    [0, min(backoff_max_s, backoff_initial_s × 2ⁿ)] ("full jitter", AWS Architecture Blog,
    "Exponential Backoff and Jitter", 2015).
    """

    max_retries: int = 3
    backoff_initial_s: float = 0.5
    backoff_max_s: float = 8.0
    max_retry_after_s: float = 60.0

    def backoff(self, attempt: int) -> float:
        return random.uniform(0, min(self.backoff_max_s, self.backoff_initial_s * 2**attempt))

    def after_response(self, call: Call, response: httpx.Response, attempt: int) -> float | None:
        """Seconds to wait before retrying ``call`` after ``response``, or None to stop."""
        if attempt >= self.max_retries:
            return None
        status = response.status_code
        if status == 429:
            advised = parse_retry_after(response.headers.get("retry-after"))
            if advised is None:
                return self.backoff(attempt)
            return advised if advised <= self.max_retry_after_s else None
        if status >= 500 and call.retry_safe:
            return self.backoff(attempt)
        return None

    def after_error(self, call: Call, error: httpx.TransportError, attempt: int) -> float | None:
        """Seconds to wait before retrying ``call`` after a transport error, or None."""
        if attempt >= self.max_retries:
            return None
        never_sent = isinstance(error, httpx.ConnectError | httpx.ConnectTimeout)
        return self.backoff(attempt) if (call.retry_safe or never_sent) else None


@dataclass(frozen=True)
class Config:
    base_url: str
    api_key: str | None
    tenant_id: str | None
    timeout_s: float
    wait_timeout_s: float
    poll_interval_s: float
    retry: RetryPolicy

    @classmethod
    def resolve(
        cls,
        base_url: str | None,
        api_key: str | None,
        tenant_id: str | None,
        *,
        timeout_s: float,
        wait_timeout_s: float,
        poll_interval_s: float,
        retry: RetryPolicy | None,
    ) -> Config:
        """Arguments win; else ``MEMLANE_URL``, ``MEMLANE_API_KEY``, ``MEMLANE_TENANT_ID``."""
        return cls(
            base_url=(base_url or os.environ.get("MEMLANE_URL") or DEFAULT_URL).rstrip("/"),
            api_key=api_key or os.environ.get("MEMLANE_API_KEY"),
            tenant_id=tenant_id or os.environ.get("MEMLANE_TENANT_ID"),
            timeout_s=timeout_s,
            wait_timeout_s=wait_timeout_s,
            poll_interval_s=poll_interval_s,
            retry=retry or RetryPolicy(),
        )

    def headers(self) -> dict[str, str]:
        h = {"User-Agent": "memlane-client/0.1.0", "Accept": "application/json"}
        if self.api_key:
            h["Authorization"] = f"Bearer {self.api_key}"
        return h

    def user_path(self, user_id: str) -> str:
        if not self.tenant_id:
            raise MemlaneError(
                "this client has no tenant id: pass tenant_id= or set MEMLANE_TENANT_ID",
                title="No tenant",
            )
        return f"/v1/tenants/{seg(self.tenant_id)}/users/{seg(user_id)}"


def seg(value: object) -> str:
    """One path segment, percent-encoded (an id never changes the route it is sent to).

    Raises MemlaneValidationError for an empty segment, ``.`` or ``..``: percent-encoding
    leaves dots as they are, and a URL's dot segments are resolved before sending
    (``…/memories/..`` would reach the user itself)."""
    text = str(value)
    if text in ("", ".", ".."):
        raise MemlaneValidationError(
            f"{text!r} is no id: a path segment may not be empty, '.' or '..'",
            title="Invalid id",
        )
    return quote(text, safe="")


def jsonable(value: Any) -> Any:
    """Request bodies: pydantic models dumped in JSON mode without unset fields, datetimes as
    ISO-8601, ``None`` fields dropped from dicts (the server then applies its defaults)."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", exclude_unset=True)
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items() if v is not None}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    return value


def body(**fields: Any) -> dict[str, Any]:
    out: dict[str, Any] = jsonable(fields)
    return out


def message_dict(message: Any) -> Any:
    """A turn as ``{"role", "content", ...}``; ``("user", "text")`` pairs are accepted too."""
    if isinstance(message, tuple) and len(message) == 2:
        return {"role": message[0], "content": message[1]}
    return jsonable(message)
