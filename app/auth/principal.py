"""Who is calling: resolved from the bearer key on every request."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Annotated, Literal

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from app.auth.keys import hash_key, same_secret
from app.auth.repository import TenantRepository
from app.kit.errors import Forbidden, NotFound, Unauthorized

_bearer = HTTPBearer(auto_error=False, description="API key of a tenant, or the admin key")


@dataclass(frozen=True, slots=True)
class Principal:
    kind: Literal["admin", "tenant"]
    tenant_id: uuid.UUID | None = None
    key_id: uuid.UUID | None = None


async def get_principal(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> Principal:
    """The caller. Raises Unauthorized (401) for a missing, unknown or revoked key."""
    if credentials is None or not credentials.credentials:
        raise Unauthorized(
            "send 'Authorization: Bearer <api key>'", headers={"WWW-Authenticate": "Bearer"}
        )
    secret = credentials.credentials
    state = request.app.state.memlane
    if same_secret(secret, state.admin_key):
        return Principal(kind="admin")
    async with state.sessionmaker() as session:
        key = await TenantRepository(session).active_key_by_hash(hash_key(secret))
    if key is None:
        raise Unauthorized("unknown or revoked API key", headers={"WWW-Authenticate": "Bearer"})
    principal = Principal(kind="tenant", tenant_id=key.tenant_id, key_id=key.id)
    request.state.tenant_id = str(key.tenant_id)
    return principal


CurrentPrincipal = Annotated[Principal, Depends(get_principal)]


def require_admin(principal: CurrentPrincipal) -> Principal:
    """Only the admin key. Raises Forbidden (403) for tenant keys."""
    if principal.kind != "admin":
        raise Forbidden("this route needs the admin key")
    return principal


def require_tenant(principal: CurrentPrincipal, tenant_id: uuid.UUID) -> Principal:
    """A key of ``tenant_id`` itself, for user data.

    Raises NotFound (404) for another tenant's key — the same answer as for a tenant that
    does not exist, so a key never learns that another tenant exists — and Forbidden (403)
    for the admin key, which manages tenants and keys but reads no user's memories.
    """
    if principal.kind == "admin":
        raise Forbidden(
            "the admin key manages tenants and keys; use a tenant API key for user data"
        )
    if principal.tenant_id != tenant_id:
        raise NotFound("no such tenant")
    return principal


def require_tenant_or_admin(principal: CurrentPrincipal, tenant_id: uuid.UUID) -> Principal:
    """The admin key, or a key of ``tenant_id`` (404 for another tenant's key)."""
    if principal.kind == "admin" or principal.tenant_id == tenant_id:
        return principal
    raise NotFound("no such tenant")


TenantPrincipal = Annotated[Principal, Depends(require_tenant)]
AdminPrincipal = Annotated[Principal, Depends(require_admin)]
TenantOrAdminPrincipal = Annotated[Principal, Depends(require_tenant_or_admin)]
