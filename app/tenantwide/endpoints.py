"""Tenant-wide memories, the templates that attach them to users, and users' attributes."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query, Request, Response, status
from sqlalchemy.ext.asyncio import AsyncSession

from app.auth.principal import TenantPrincipal, require_scope
from app.kit.deps import (
    IdempotencyKey,
    UserId,
    UserSession,
    get_runtime,
    request_id,
    unit_of_work,
)
from app.kit.errors import (
    Forbidden,
    InvalidRequest,
    NotFound,
    Unauthorized,
    error_responses,
)
from app.kit.types import ID_PATTERN, TENANT_WIDE_USER
from app.memories.endpoints import WRITE_RESPONSES, WaitForJob, accepted_or_waited
from app.memories.schemas import JobAccepted, MemoryList, MemoryStatus
from app.runtime import Runtime
from app.tenantwide.schemas import (
    TemplateList,
    TemplatePut,
    TemplateRead,
    TenantMemoryCreate,
    UserAttributesPut,
    UserAttributesRead,
)
from app.tenantwide.service import TenantWideService, UserAttributeService

router = APIRouter(prefix="/v1/tenants/{tenant_id}", tags=["tenant-wide"])
RuntimeDep = Annotated[Runtime, Depends(get_runtime)]
COMMON_ERRORS = (Unauthorized, Forbidden, NotFound)
TemplateId = Annotated[str, Path(pattern=ID_PATTERN, max_length=128)]


async def tenant_wide_session(
    tenant_id: uuid.UUID, request: Request
) -> AsyncIterator[AsyncSession]:
    """The request's unit of work on the tenant's own rows: a session scoped to (tenant,
    TENANT_WIDE_USER), committed before the response (as ``app.kit.deps.user_session``)."""
    async with unit_of_work(request.app.state.memlane, tenant_id, TENANT_WIDE_USER) as session:
        yield session


TenantWideSession = Annotated[AsyncSession, Depends(tenant_wide_session, scope="function")]


@router.post(
    "/memories",
    status_code=status.HTTP_202_ACCEPTED,
    response_model=JobAccepted,
    responses={**WRITE_RESPONSES, **error_responses(InvalidRequest)},
    description=(
        "A memory every user of the tenant reads in recall (or, with `template`, every user "
        "whose attributes match the template), read-only to them and ranked below their own "
        "(settings.scope_weight_tenant). Stored by the one memory writer, as a user's explicit "
        "write is (docs/scopes.md)."
    ),
    dependencies=[require_scope("tenant:write")],
)
async def create_tenant_memory(
    tenant_id: uuid.UUID,
    body: TenantMemoryCreate,
    request: Request,
    rt: RuntimeDep,
    _: TenantPrincipal,
    db: TenantWideSession,
    idempotency_key: IdempotencyKey = None,
    wait: WaitForJob = False,
) -> Response:
    """Write a tenant-wide memory: persisted and queued at once, stored by a worker."""
    service = TenantWideService(rt, db, tenant_id, request_id(request))
    job = await service.submit(body, idempotency_key=idempotency_key)
    return await accepted_or_waited(service.memories, job, wait, rt.settings.job_wait_timeout_s)


@router.get(
    "/memories",
    response_model=MemoryList,
    responses=error_responses(*COMMON_ERRORS),
    dependencies=[require_scope("memories:read")],
)
async def list_tenant_memories(
    tenant_id: uuid.UUID,
    rt: RuntimeDep,
    _: TenantPrincipal,
    db: TenantWideSession,
    template: Annotated[
        str | None,
        Query(
            pattern=ID_PATTERN + "|^$",
            max_length=128,
            description="Only this template's memories ('' for those of every user)",
        ),
    ] = None,
    status_: Annotated[MemoryStatus | None, Query(alias="status")] = None,
    cursor: Annotated[str | None, Query(max_length=200)] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> MemoryList:
    """List the tenant-wide memories, newest first, with cursor pagination."""
    return await TenantWideService(rt, db, tenant_id).list_page(
        limit=limit, cursor=cursor, template=template, status=status_
    )


@router.delete(
    "/memories/{memory_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    responses=error_responses(*COMMON_ERRORS),
    dependencies=[require_scope("tenant:write")],
)
async def delete_tenant_memory(
    tenant_id: uuid.UUID,
    memory_id: uuid.UUID,
    request: Request,
    rt: RuntimeDep,
    _: TenantPrincipal,
    db: TenantWideSession,
) -> Response:
    """Delete a tenant-wide memory for real: no user recalls it any more."""
    await TenantWideService(rt, db, tenant_id, request_id(request)).delete(memory_id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.put(
    "/templates/{template_id}",
    response_model=TemplateRead,
    responses=error_responses(*COMMON_ERRORS),
    dependencies=[require_scope("tenant:write")],
)
async def put_template(
    tenant_id: uuid.UUID,
    template_id: TemplateId,
    body: TemplatePut,
    rt: RuntimeDep,
    _: TenantPrincipal,
    db: TenantWideSession,
) -> TemplateRead:
    """Create or replace a template: the users its rule matches read its memories."""
    return await TenantWideService(rt, db, tenant_id).put_template(template_id, body)


@router.get(
    "/templates",
    response_model=TemplateList,
    responses=error_responses(*COMMON_ERRORS),
    dependencies=[require_scope("memories:read")],
)
async def list_templates(
    tenant_id: uuid.UUID,
    rt: RuntimeDep,
    _: TenantPrincipal,
    db: TenantWideSession,
) -> TemplateList:
    """List the tenant's templates."""
    return await TenantWideService(rt, db, tenant_id).list_templates()


@router.delete(
    "/templates/{template_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    responses=error_responses(*COMMON_ERRORS),
    dependencies=[require_scope("tenant:write")],
)
async def delete_template(
    tenant_id: uuid.UUID,
    template_id: TemplateId,
    rt: RuntimeDep,
    _: TenantPrincipal,
    db: TenantWideSession,
) -> Response:
    """Delete a template; its memories stay, read by no user until it exists again."""
    await TenantWideService(rt, db, tenant_id).delete_template(template_id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get(
    "/users/{user_id}/attributes",
    response_model=UserAttributesRead,
    responses=error_responses(*COMMON_ERRORS),
    dependencies=[require_scope("memories:read")],
)
async def get_user_attributes(
    tenant_id: uuid.UUID,
    user_id: UserId,
    _: TenantPrincipal,
    db: UserSession,
) -> UserAttributesRead:
    """The user's attributes and the templates they match."""
    return await UserAttributeService(db, tenant_id, user_id).get()


@router.put(
    "/users/{user_id}/attributes",
    response_model=UserAttributesRead,
    responses=error_responses(*COMMON_ERRORS),
    dependencies=[require_scope("tenant:write")],
)
async def put_user_attributes(
    tenant_id: uuid.UUID,
    user_id: UserId,
    body: UserAttributesPut,
    _: TenantPrincipal,
    db: UserSession,
) -> UserAttributesRead:
    """Set the user's attributes (replacing them): they decide which templates reach recall."""
    return await UserAttributeService(db, tenant_id, user_id).put(body)
