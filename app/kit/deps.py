"""Shared endpoint dependencies: the runtime, the request id, path parameters."""

from __future__ import annotations

from typing import Annotated

from fastapi import Header, Path, Request

from app.memories.schemas import ID_PATTERN
from app.runtime import Runtime


def get_runtime(request: Request) -> Runtime:
    return request.app.state.memlane


def request_id(request: Request) -> str | None:
    return getattr(request.state, "request_id", None)


UserId = Annotated[
    str,
    Path(pattern=ID_PATTERN, max_length=128, description="The end user's id, chosen by the client"),
]
IdempotencyKey = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        max_length=200,
        pattern=r"^[\x21-\x7e]+$",
        description="Makes a retried write safe: the same key and body return the first job.",
    ),
]
