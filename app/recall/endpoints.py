"""Recall."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query, Request

from app.auth.principal import RECALL_OVERRIDE, TenantPrincipal, require_scope
from app.kit.deps import UserId, UserSession, get_runtime, request_id
from app.kit.errors import Forbidden, InsufficientScope, NotFound, Unauthorized, error_responses
from app.memories.schemas import ID_PATTERN
from app.recall.context import ContextService
from app.recall.repository import ScopeReadRepository
from app.recall.schemas import (
    ContextResponse,
    RecallRequest,
    RecallResponse,
    ScopeReadEntry,
    ScopeReadList,
)
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
    request: Request,
    rt: Annotated[Runtime, Depends(get_runtime)],
    principal: TenantPrincipal,
) -> RecallResponse:
    """Recall the memories that matter for a query, ranked by similarity × confidence × decay."""
    if body.scope_override and RECALL_OVERRIDE not in principal.scopes:
        # An explicit request field is not enough: the key must carry the right to it too.
        raise InsufficientScope(
            f"scope_override needs a key with the scope {RECALL_OVERRIDE}",
            headers={
                "WWW-Authenticate": f'Bearer error="insufficient_scope", scope="{RECALL_OVERRIDE}"'
            },
        )
    return await RecallService(rt, tenant_id, user_id).recall(
        body, actor=f"key:{principal.key_id}", request_id=request_id(request)
    )


@router.get(
    "/scope-reads",
    response_model=ScopeReadList,
    responses=error_responses(Unauthorized, Forbidden, NotFound),
    dependencies=[require_scope("memories:read")],
)
async def list_scope_reads(
    tenant_id: uuid.UUID,
    user_id: UserId,
    _: TenantPrincipal,
    db: UserSession,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> ScopeReadList:
    """The audit of the user's recalls that read other tasks' or sessions' memories."""
    rows = await ScopeReadRepository(db, tenant_id, user_id).latest(limit)
    return ScopeReadList(
        items=[ScopeReadEntry.model_validate(r, from_attributes=True) for r in rows]
    )


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
    agent_id: Annotated[
        str | None,
        Query(
            pattern=ID_PATTERN,
            max_length=128,
            description="The agent asking: its agent-scope memories are read (docs/scopes.md)",
        ),
    ] = None,
) -> ContextResponse:
    """Assemble the prompt-ready context of a session inside a token budget."""
    return await ContextService(rt, tenant_id, user_id).assemble(
        session_id,
        query=query,
        token_budget=token_budget,
        task_id=task_id,
        top_k=top_k,
        agent_id=agent_id,
    )
