"""Recall."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import APIRouter, Depends

from app.auth.principal import TenantPrincipal
from app.kit.deps import UserId, get_runtime
from app.kit.errors import Forbidden, NotFound, Unauthorized, error_responses
from app.recall.schemas import RecallRequest, RecallResponse
from app.recall.service import RecallService
from app.runtime import Runtime

router = APIRouter(prefix="/v1/tenants/{tenant_id}/users/{user_id}", tags=["recall"])


@router.post(
    "/recall",
    response_model=RecallResponse,
    response_model_exclude_none=True,
    responses=error_responses(Unauthorized, Forbidden, NotFound),
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
