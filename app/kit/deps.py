"""Shared endpoint dependencies: the runtime, the request id, path parameters, and the
request's unit of work."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated

from fastapi import Depends, Header, Path, Request
from sqlalchemy.ext.asyncio import AsyncSession

from app.kit.types import ID_PATTERN
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


async def user_session(
    tenant_id: uuid.UUID, user_id: UserId, request: Request
) -> AsyncIterator[AsyncSession]:
    """The request's one unit of work: a session scoped to the path's (tenant, user).

    Services and repositories only flush; the transaction commits when the endpoint function
    returned, and rolls back when it raised. The dependency has ``scope="function"``, so this
    runs before the response is sent: a failed commit is the client's error response, never
    a success (with the default request scope, FastAPI >= 0.118 runs it after the response).
    The session opens its connection at its first statement, so an endpoint that fails
    validation or authorization first never takes one.
    """
    async with unit_of_work(request.app.state.memlane, tenant_id, user_id) as session:
        yield session


@asynccontextmanager
async def unit_of_work(
    rt: Runtime, tenant_id: uuid.UUID, user_id: str
) -> AsyncIterator[AsyncSession]:
    """A session scoped to (tenant, user) that commits when the block ends normally and rolls
    back when it raised (any exception, cancellation included): the body of every request's
    unit-of-work dependency (REST, tenant-wide routes, vault pages)."""
    async with rt.scoped(tenant_id, user_id) as session:
        try:
            yield session
        except BaseException:
            await session.rollback()
            raise
        await session.commit()


UserSession = Annotated[AsyncSession, Depends(user_session, scope="function")]
