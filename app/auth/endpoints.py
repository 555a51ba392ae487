"""Tenants and API keys."""

from __future__ import annotations

import uuid
from datetime import timedelta

from fastapi import APIRouter, Request, Response, status

from app.auth.keys import hash_key, new_api_key
from app.auth.principal import (
    ALL_SCOPES,
    KEYS_MANAGE,
    USER_BOUND_DEFAULT_SCOPES,
    AdminPrincipal,
    Principal,
    TenantOrAdminPrincipal,
    require_scope,
)
from app.auth.repository import TenantRepository
from app.auth.schemas import (
    ApiKeyCreate,
    ApiKeyCreated,
    ApiKeyRead,
    TenantCreate,
    TenantCreated,
    TenantRead,
)
from app.kit.errors import (
    Forbidden,
    InsufficientScope,
    LastKeyManager,
    NotFound,
    Unauthorized,
    error_responses,
)
from app.kit.time import utcnow

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
        # The first key can do everything, key management included.
        await repo.add_key(tenant.id, "default", secret[:12], hash_key(secret), scopes=ALL_SCOPES)
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


def granted_scopes(body: ApiKeyCreate, creator: Principal) -> list[str]:
    """The scopes of a new key, in ``ALL_SCOPES`` order: those asked for, else the creator's
    (for a user-bound key: ``USER_BOUND_DEFAULT_SCOPES`` the creator has). Raises
    InsufficientScope (403) when asking for a scope the creating key lacks — a key never
    mints a key stronger than itself. The admin key holds every scope."""
    held: set[str] = set(ALL_SCOPES) if creator.kind == "admin" else set(creator.scopes)
    if body.scopes is not None:
        beyond = [s for s in body.scopes if s not in held]
        if beyond:
            raise InsufficientScope(
                f"a key can grant only scopes it has itself; lacking: {', '.join(beyond)}"
            )
        wanted: set[str] = set(body.scopes)
    elif body.user_id is not None:
        wanted = held & set(USER_BOUND_DEFAULT_SCOPES)
    else:
        wanted = held
    return [s for s in ALL_SCOPES if s in wanted]


@router.post(
    "/{tenant_id}/keys",
    status_code=status.HTTP_201_CREATED,
    response_model=ApiKeyCreated,
    responses=error_responses(Unauthorized, Forbidden, NotFound),
    dependencies=[require_scope("keys:manage")],
)
async def create_api_key(
    tenant_id: uuid.UUID, body: ApiKeyCreate, request: Request, principal: TenantOrAdminPrincipal
) -> ApiKeyCreated:
    """Create another API key of the tenant, optionally scoped, user-bound or expiring."""
    scopes = granted_scopes(body, principal)
    if not scopes:
        raise InsufficientScope("the creating key has none of the scopes a user-bound key gets")
    expires_at = (
        utcnow() + timedelta(seconds=body.expires_in_s) if body.expires_in_s is not None else None
    )
    async with request.app.state.memlane.sessionmaker() as session:
        repo = TenantRepository(session)
        if await repo.get_tenant(tenant_id) is None:
            raise NotFound("no such tenant")
        secret = new_api_key()
        key = await repo.add_key(
            tenant_id,
            body.name,
            secret[:12],
            hash_key(secret),
            scopes=scopes,
            user_id=body.user_id,
            expires_at=expires_at,
        )
        await session.commit()
    return ApiKeyCreated(**_key_read(key).model_dump(), api_key=secret)


@router.get(
    "/{tenant_id}/keys",
    response_model=list[ApiKeyRead],
    responses=error_responses(Unauthorized, Forbidden, NotFound),
    dependencies=[require_scope("keys:manage")],
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
    responses=error_responses(Unauthorized, Forbidden, NotFound, LastKeyManager),
    dependencies=[require_scope("keys:manage")],
)
async def revoke_api_key(
    tenant_id: uuid.UUID, key_id: uuid.UUID, request: Request, _: TenantOrAdminPrincipal
) -> None:
    """Revoke an API key: it stops working at once (never the last key with keys:manage)."""
    async with request.app.state.memlane.sessionmaker() as session:
        repo = TenantRepository(session)
        # Locking the tenant's keys makes concurrent revocations take turns, so two of them
        # cannot each leave the other as the last key manager and both succeed.
        keys = await repo.lock_active_keys(tenant_id)
        key = next((k for k in keys if k.id == key_id), None)
        if key is None:
            raise NotFound("no such active key")
        now = utcnow()
        other_managers = [
            k
            for k in keys
            if k.id != key_id
            and KEYS_MANAGE in k.scopes
            and (k.expires_at is None or k.expires_at > now)
        ]
        if KEYS_MANAGE in key.scopes and not other_managers:
            raise LastKeyManager(
                "this is the tenant's last usable key with keys:manage; create another "
                "before revoking it"
            )
        await repo.revoke_key(tenant_id, key_id)
        await session.commit()
