"""Conversation sessions: send turns for extraction."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query, Request, Response, status

from app.auth.principal import TenantPrincipal, require_scope
from app.ingest.schemas import MessagesCreate, SessionEndRead
from app.ingest.service import IngestService
from app.kit.deps import IdempotencyKey, UserId, UserSession, get_runtime, request_id
from app.kit.errors import (
    Forbidden,
    IdempotencyKeyReused,
    NotFound,
    SessionEnded,
    Unauthorized,
    error_responses,
)
from app.memories.endpoints import accepted_or_waited
from app.memories.schemas import ID_PATTERN, JobAccepted, WriteResult
from app.memories.service import MemoryService
from app.runtime import Runtime

router = APIRouter(prefix="/v1/tenants/{tenant_id}/users/{user_id}/sessions", tags=["sessions"])
SessionId = Annotated[str, Path(pattern=ID_PATTERN, max_length=128)]


@router.post(
    "/{session_id}/messages",
    status_code=status.HTTP_202_ACCEPTED,
    response_model=JobAccepted,
    responses={
        201: {
            "model": WriteResult,
            "description": "With wait=true: memories written and decisions",
        },
        **error_responses(Unauthorized, Forbidden, NotFound, SessionEnded, IdempotencyKeyReused),
    },
    dependencies=[require_scope("memories:write")],
)
async def add_messages(
    tenant_id: uuid.UUID,
    user_id: UserId,
    session_id: SessionId,
    body: MessagesCreate,
    request: Request,
    rt: Annotated[Runtime, Depends(get_runtime)],
    _: TenantPrincipal,
    db: UserSession,
    idempotency_key: IdempotencyKey = None,
    wait: Annotated[bool, Query(description="Wait for extraction and return its result")] = False,
) -> Response:
    """Send conversation turns: stored at once, facts extracted and arbitrated by a worker."""
    rid = request_id(request)
    job = await IngestService(rt, db, tenant_id, user_id, rid).add_messages(
        session_id, body, idempotency_key=idempotency_key
    )
    return await accepted_or_waited(
        MemoryService(rt, db, tenant_id, user_id, rid),
        job,
        wait,
        rt.settings.job_wait_timeout_s,
    )


@router.post(
    "/{session_id}/end",
    response_model=SessionEndRead,
    responses=error_responses(Unauthorized, Forbidden, NotFound),
    dependencies=[require_scope("memories:write")],
)
async def end_session(
    tenant_id: uuid.UUID,
    user_id: UserId,
    session_id: SessionId,
    request: Request,
    rt: Annotated[Runtime, Depends(get_runtime)],
    _: TenantPrincipal,
    db: UserSession,
) -> SessionEndRead:
    """End a session: no more turns; its window and session-scoped memories are archived."""
    return await IngestService(rt, db, tenant_id, user_id, request_id(request)).end_session(
        session_id
    )
