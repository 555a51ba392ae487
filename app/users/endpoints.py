"""Users of a tenant, their memory settings, and memories waiting for confirmation."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request, Response, status

from app.auth.principal import TenantPrincipal, require_scope
from app.kit.deps import UserId, UserSession, get_runtime, request_id
from app.kit.errors import Conflict, Forbidden, NotFound, Unauthorized, error_responses
from app.kit.types import Timestamp
from app.runtime import Runtime
from app.users.confirm import ConfirmService
from app.users.schemas import (
    ConfirmResult,
    ToConfirmList,
    UserActivity,
    UserList,
    UserSettingsHistoryRead,
    UserSettingsRead,
    UserSettingsUpdate,
)
from app.users.service import UserService, list_users_page

router = APIRouter(prefix="/v1/tenants/{tenant_id}/users", tags=["users"])
RuntimeDep = Annotated[Runtime, Depends(get_runtime)]
COMMON_ERRORS = (Unauthorized, Forbidden, NotFound)


@router.get(
    "",
    response_model=UserList,
    responses=error_responses(*COMMON_ERRORS),
    dependencies=[require_scope("memories:read")],
)
async def list_users(
    tenant_id: uuid.UUID,
    rt: RuntimeDep,
    _: TenantPrincipal,
    active_since: Annotated[
        Timestamp | None, Query(description="Only users with activity at or after this time")
    ] = None,
    has_frozen: Annotated[
        bool | None, Query(description="Only users with (true) or without (false) frozen memories")
    ] = None,
    prefix: Annotated[
        str | None, Query(max_length=128, description="Only user ids starting with this")
    ] = None,
    cursor: Annotated[str | None, Query(max_length=400)] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> UserList:
    """List the tenant's users with memory and session counts, in user_id order."""
    return await list_users_page(
        rt,
        tenant_id,
        limit=limit,
        cursor=cursor,
        active_since=active_since,
        has_frozen=has_frozen,
        prefix=prefix,
    )


@router.get(
    "/{user_id}/settings",
    response_model=UserSettingsRead,
    responses=error_responses(*COMMON_ERRORS),
    dependencies=[require_scope("memories:read")],
)
async def get_user_settings(
    tenant_id: uuid.UUID, user_id: UserId, rt: RuntimeDep, _: TenantPrincipal, db: UserSession
) -> UserSettingsRead:
    """Read the user's memory settings (memory_mode, retention_days)."""
    return await UserService(rt, db, tenant_id, user_id).get_settings()


@router.put(
    "/{user_id}/settings",
    response_model=UserSettingsRead,
    responses=error_responses(*COMMON_ERRORS),
    dependencies=[require_scope("memories:write")],
)
async def put_user_settings(
    tenant_id: uuid.UUID,
    user_id: UserId,
    body: UserSettingsUpdate,
    request: Request,
    rt: RuntimeDep,
    _: TenantPrincipal,
    db: UserSession,
) -> UserSettingsRead:
    """Set the user's memory settings; the change is audited in the settings history."""
    return await UserService(rt, db, tenant_id, user_id).put_settings(
        body, actor="api", request_id=request_id(request)
    )


@router.get(
    "/{user_id}/settings/history",
    response_model=UserSettingsHistoryRead,
    responses=error_responses(*COMMON_ERRORS),
    dependencies=[require_scope("memories:read")],
)
async def get_user_settings_history(
    tenant_id: uuid.UUID, user_id: UserId, rt: RuntimeDep, _: TenantPrincipal, db: UserSession
) -> UserSettingsHistoryRead:
    """The audited changes of the user's memory settings, newest first."""
    return await UserService(rt, db, tenant_id, user_id).settings_history()


@router.get(
    "/{user_id}/activity",
    response_model=UserActivity,
    responses=error_responses(*COMMON_ERRORS),
    dependencies=[require_scope("memories:read")],
)
async def get_user_activity(
    tenant_id: uuid.UUID, user_id: UserId, rt: RuntimeDep, _: TenantPrincipal, db: UserSession
) -> UserActivity:
    """The user's latest sessions and tasks (at most 50 of each), newest first."""
    return await UserService(rt, db, tenant_id, user_id).activity()


@router.get(
    "/{user_id}/to-confirm",
    response_model=ToConfirmList,
    responses=error_responses(*COMMON_ERRORS),
    dependencies=[require_scope("memories:read")],
)
async def list_memories_to_confirm(
    tenant_id: uuid.UUID, user_id: UserId, rt: RuntimeDep, _: TenantPrincipal, db: UserSession
) -> ToConfirmList:
    """Active memories formed with low confidence (model_inferred, behavior_observed)."""
    return await ConfirmService(rt, db, tenant_id, user_id).pending()


@router.post(
    "/{user_id}/memories/{memory_id}/confirm",
    response_model=ConfirmResult,
    responses=error_responses(*COMMON_ERRORS, Conflict),
    dependencies=[require_scope("memories:write")],
)
async def confirm_memory(
    tenant_id: uuid.UUID,
    user_id: UserId,
    memory_id: uuid.UUID,
    request: Request,
    rt: RuntimeDep,
    _: TenantPrincipal,
    db: UserSession,
) -> ConfirmResult:
    """Confirm a low-confidence memory: it becomes user_declared through arbitration."""
    service = ConfirmService(rt, db, tenant_id, user_id, request_id(request))
    memory = await service.confirm(memory_id)
    return ConfirmResult(memory=memory)


@router.post(
    "/{user_id}/memories/{memory_id}/reject",
    status_code=status.HTTP_204_NO_CONTENT,
    response_class=Response,
    responses=error_responses(*COMMON_ERRORS, Conflict),
    dependencies=[require_scope("memories:write")],
)
async def reject_memory(
    tenant_id: uuid.UUID,
    user_id: UserId,
    memory_id: uuid.UUID,
    request: Request,
    rt: RuntimeDep,
    _: TenantPrincipal,
    db: UserSession,
) -> None:
    """Reject a low-confidence memory: it is deleted for real."""
    await ConfirmService(rt, db, tenant_id, user_id, request_id(request)).reject(memory_id)
