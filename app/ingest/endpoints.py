"""Conversation sessions: send turns for extraction."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query, Request, Response, status

from app.auth.principal import TenantPrincipal, require_scope
from app.ingest.schemas import MessagesCreate
from app.ingest.service import IngestService
from app.kit.deps import IdempotencyKey, UserId, get_runtime, request_id
from app.kit.errors import Forbidden, IdempotencyKeyReused, NotFound, Unauthorized, error_responses
from app.memories.endpoints import accepted_or_waited
from app.memories.schemas import ID_PATTERN, JobAccepted, WriteResult
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
        **error_responses(Unauthorized, Forbidden, NotFound, IdempotencyKeyReused),
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
    idempotency_key: IdempotencyKey = None,
    wait: Annotated[bool, Query(description="Wait for extraction and return its result")] = False,
) -> Response:
    """Send conversation turns: stored at once, facts extracted and arbitrated by a worker."""
    service = IngestService(rt, tenant_id, user_id)
    job, created = await service.add_messages(
        session_id, body, idempotency_key=idempotency_key, request_id=request_id(request)
    )
    return await accepted_or_waited(
        service.memories, job.id, created, wait, rt.settings.job_wait_timeout_s
    )
