"""Recall."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query

from app.auth.principal import TenantPrincipal, require_scope
from app.kit.deps import UserId, get_runtime
from app.kit.errors import Forbidden, NotFound, Unauthorized, error_responses
from app.memories.schemas import ID_PATTERN
from app.recall.context import ContextService
from app.recall.schemas import ContextResponse, RecallRequest, RecallResponse
from app.recall.service import RecallService
from app.runtime import Runtime

router = APIRouter(prefix="/v1/tenants/{tenant_id}/users/{user_id}", tags=["recall"])


@router.post(
    "/recall",
    response_model=RecallResponse,
    responses=error_responses(Unauthorized, Forbidden, NotFound),
    dependencies=[require_scope("memories:read")],
)
async def recall(
    tenant_id: uuid.UUID,
    user_id: UserId,
    body: RecallRequest,
    rt: Annotated[Runtime, Depends(get_runtime)],
    _: TenantPrincipal,
) -> RecallResponse:
    """Recall the memories that matter for a query, ranked by similarity × confidence × decay."""
    return await RecallService(rt, tenant_id, user_id).recall(body)


@router.get(
    "/sessions/{session_id}/context",
    response_model=ContextResponse,
    responses=error_responses(Unauthorized, Forbidden, NotFound),
    dependencies=[require_scope("memories:read")],
)
async def get_context(
    tenant_id: uuid.UUID,
    user_id: UserId,
    session_id: Annotated[str, Path(pattern=ID_PATTERN, max_length=128)],
    rt: Annotated[Runtime, Depends(get_runtime)],
    _: TenantPrincipal,
    query: Annotated[str | None, Query(min_length=1, max_length=4000)] = None,
    token_budget: Annotated[int | None, Query(ge=100, le=200_000)] = None,
    task_id: Annotated[str | None, Query(pattern=ID_PATTERN, max_length=128)] = None,
    top_k: Annotated[int | None, Query(ge=1, le=100)] = None,
) -> ContextResponse:
    """Assemble the prompt-ready context of a session inside a token budget."""
    return await ContextService(rt, tenant_id, user_id).assemble(
        session_id, query=query, token_budget=token_budget, task_id=task_id, top_k=top_k
    )
