"""Tenants and API keys."""

from __future__ import annotations

import uuid

from fastapi import APIRouter, Request, Response, status

from app.auth.keys import hash_key, new_api_key
from app.auth.principal import AdminPrincipal, TenantOrAdminPrincipal
from app.auth.repository import TenantRepository
from app.auth.schemas import (
    ApiKeyCreate,
    ApiKeyCreated,
    ApiKeyRead,
    TenantCreate,
    TenantCreated,
    TenantRead,
)
from app.kit.errors import Forbidden, NotFound, Unauthorized, error_responses

router = APIRouter(prefix="/v1/tenants", tags=["tenants"])


def _key_read(key: object) -> ApiKeyRead:
    return ApiKeyRead.model_validate(key, from_attributes=True)


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    response_model=TenantCreated,
    responses=error_responses(Unauthorized, Forbidden),
)
async def create_tenant(body: TenantCreate, request: Request, _: AdminPrincipal) -> TenantCreated:
    """Create a tenant and its first API key (admin key only; the key is shown once)."""
    async with request.app.state.memlane.sessionmaker() as session:
        repo = TenantRepository(session)
        tenant = await repo.add_tenant(body.name)
        secret = new_api_key()
        await repo.add_key(tenant.id, "default", secret[:12], hash_key(secret))
        await session.commit()
    return TenantCreated(
        id=tenant.id, name=tenant.name, api_key=secret, created_at=tenant.created_at
    )


@router.get("", response_model=list[TenantRead], responses=error_responses(Unauthorized, Forbidden))
async def list_tenants(request: Request, _: AdminPrincipal) -> list[TenantRead]:
    """List tenants (admin key only)."""
    async with request.app.state.memlane.sessionmaker() as session:
        tenants = await TenantRepository(session).list_tenants()
    return [TenantRead.model_validate(t, from_attributes=True) for t in tenants]


@router.post(
    "/{tenant_id}/keys",
    status_code=status.HTTP_201_CREATED,
    response_model=ApiKeyCreated,
    responses=error_responses(Unauthorized, NotFound),
)
async def create_api_key(
    tenant_id: uuid.UUID, body: ApiKeyCreate, request: Request, _: TenantOrAdminPrincipal
) -> ApiKeyCreated:
    """Create another API key of the tenant (its secret is shown once)."""
    async with request.app.state.memlane.sessionmaker() as session:
        repo = TenantRepository(session)
        if await repo.get_tenant(tenant_id) is None:
            raise NotFound("no such tenant")
        secret = new_api_key()
        key = await repo.add_key(tenant_id, body.name, secret[:12], hash_key(secret))
        await session.commit()
    return ApiKeyCreated(**_key_read(key).model_dump(), api_key=secret)


@router.get(
    "/{tenant_id}/keys",
    response_model=list[ApiKeyRead],
    responses=error_responses(Unauthorized, NotFound),
)
async def list_api_keys(
    tenant_id: uuid.UUID, request: Request, _: TenantOrAdminPrincipal
) -> list[ApiKeyRead]:
    """List the tenant's API keys (never their secrets)."""
    async with request.app.state.memlane.sessionmaker() as session:
        repo = TenantRepository(session)
        if await repo.get_tenant(tenant_id) is None:
            raise NotFound("no such tenant")
        keys = await repo.list_keys(tenant_id)
    return [_key_read(k) for k in keys]


@router.delete(
    "/{tenant_id}/keys/{key_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    response_class=Response,
    responses=error_responses(Unauthorized, NotFound),
)
async def revoke_api_key(
    tenant_id: uuid.UUID, key_id: uuid.UUID, request: Request, _: TenantOrAdminPrincipal
) -> None:
    """Revoke an API key: it stops working at once."""
    async with request.app.state.memlane.sessionmaker() as session:
        revoked = await TenantRepository(session).revoke_key(tenant_id, key_id)
        await session.commit()
    if not revoked:
        raise NotFound("no such active key")
