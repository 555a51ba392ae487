"""Erasing a user."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import APIRouter, Depends

from app.auth.principal import TenantPrincipal, require_scope
from app.kit.deps import UserId, get_runtime
from app.kit.errors import Forbidden, NotFound, Unauthorized, error_responses
from app.privacy.erase import EraseReceipt, erase_user
from app.runtime import Runtime

router = APIRouter(prefix="/v1/tenants/{tenant_id}/users", tags=["privacy"])


@router.delete(
    "/{user_id}",
    response_model=EraseReceipt,
    responses=error_responses(Unauthorized, Forbidden, NotFound),
    dependencies=[require_scope("users:erase")],
)
async def erase_user_data(
    tenant_id: uuid.UUID,
    user_id: UserId,
    rt: Annotated[Runtime, Depends(get_runtime)],
    _: TenantPrincipal,
) -> EraseReceipt:
    """Erase everything of a user in every table; returns a receipt with counts (idempotent)."""
    return await erase_user(rt, tenant_id, user_id)
