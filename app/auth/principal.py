"""Who is calling: resolved from the bearer key on every request; what the key may do."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Annotated, Any, Literal, get_args

from fastapi import Depends, Request, Security
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer, SecurityScopes

from app.auth.keys import hash_key, same_secret
from app.auth.repository import TenantRepository
from app.db.session import single_read_session
from app.kit.errors import Forbidden, InsufficientScope, NotFound, Unauthorized

# The scopes a tenant key can carry (docs/api-keys.md). Each route declares the one it needs
# with ``dependencies=[require_scope(...)]``; OpenAPI lists it in the operation's security.
Scope = Literal[
    "memories:read",
    "memories:write",
    "memories:reveal",
    "users:erase",
    "keys:manage",
    "tenant:write",
    "recall:override",
]
ALL_SCOPES: tuple[Scope, ...] = get_args(Scope)
KEYS_MANAGE: Scope = "keys:manage"
# Write and delete the tenant's tenant-wide memories and templates, set users' attributes.
TENANT_WRITE: Scope = "tenant:write"
# Read another task's or session's memories in a recall (``scope_override``, audited).
RECALL_OVERRIDE: Scope = "recall:override"
# What a key bound to one user gets when it is created without explicit scopes.
USER_BOUND_DEFAULT_SCOPES: tuple[Scope, ...] = ("memories:read", "memories:write")

# Routes naming no user that answer a user-bound key with its own user's rows only (and 404
# for another user's), so such a key may call them.
USER_FILTERED_PATHS = frozenset({"/v1/jobs/{job_id}"})

_bearer = HTTPBearer(
    auto_error=False,
    description=(
        "API key of a tenant, or the admin key. A tenant key carries scopes ("
        + ", ".join(ALL_SCOPES)
        + "); each operation lists the one it needs. See docs/api-keys.md."
    ),
)


@dataclass(frozen=True, slots=True)
class Principal:
    kind: Literal["admin", "tenant"]
    tenant_id: uuid.UUID | None = None
    key_id: uuid.UUID | None = None
    scopes: frozenset[str] = frozenset()
    # A key bound to one end user reaches only that user's paths.
    user_id: str | None = None


async def get_principal(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> Principal:
    """The caller. Raises Unauthorized (401) for a missing, unknown, revoked or expired key.

    Resolved once per request (kept on ``request.state``): the scope check and the route's
    own principal dependency share one key lookup."""
    cached: Principal | None = getattr(request.state, "principal", None)
    if cached is not None:
        return cached
    if credentials is None or not credentials.credentials:
        raise Unauthorized(
            "send 'Authorization: Bearer <api key>'", headers={"WWW-Authenticate": "Bearer"}
        )
    secret = credentials.credentials
    state = request.app.state.memlane
    if same_secret(secret, state.admin_key):
        request.state.principal = Principal(kind="admin")
        return request.state.principal
    # One statement, outside a transaction: no BEGIN and ROLLBACK around it on every request.
    async with single_read_session(state.sessionmaker) as session:
        key = await TenantRepository(session).active_key_by_hash(hash_key(secret))
    if key is None:
        # An expired key answers exactly like a revoked or unknown one.
        raise Unauthorized("unknown or revoked API key", headers={"WWW-Authenticate": "Bearer"})
    principal = Principal(
        kind="tenant",
        tenant_id=key.tenant_id,
        key_id=key.id,
        scopes=frozenset(key.scopes),
        user_id=key.user_id,
    )
    request.state.tenant_id = str(key.tenant_id)
    request.state.principal = principal
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


def _path_uuid(value: Any) -> uuid.UUID | None:
    try:
        return uuid.UUID(str(value))
    except ValueError:
        return None  # malformed: the route's own validation answers 422


async def check_scope(
    security_scopes: SecurityScopes, request: Request, principal: CurrentPrincipal
) -> Principal:
    """The scope check behind ``require_scope``; returns the principal.

    In order: a key of another tenant than the path's → NotFound (404, as ``require_tenant``);
    a key bound to one user on another user's path → NotFound (404, like a foreign tenant), or
    on a path naming no user → InsufficientScope (403), except ``USER_FILTERED_PATHS``; a key
    without every scope in ``security_scopes`` → InsufficientScope (403). The admin key
    passes: the route's own principal dependency decides what it may do.
    """
    if principal.kind == "admin":
        return principal
    params = request.path_params
    if "tenant_id" in params:
        tenant_id = _path_uuid(params["tenant_id"])
        if tenant_id is not None and tenant_id != principal.tenant_id:
            raise NotFound("no such tenant")
    if principal.user_id is not None:
        if "user_id" in params:
            if params["user_id"] != principal.user_id:
                raise NotFound("no such user")
        elif getattr(request.scope.get("route"), "path", None) not in USER_FILTERED_PATHS:
            raise InsufficientScope(
                "this key is bound to one user and reaches only that user's paths"
            )
    missing = [s for s in security_scopes.scopes if s not in principal.scopes]
    if missing:
        raise InsufficientScope(
            f"this key lacks the scope {', '.join(missing)}",
            headers={
                "WWW-Authenticate": (
                    f'Bearer error="insufficient_scope", scope="{" ".join(missing)}"'
                )
            },
        )
    return principal


def require_scope(scope: Scope) -> Any:
    """A route dependency: ``dependencies=[require_scope("memories:write")]``.

    The scope shows in the operation's OpenAPI ``security`` (``{"HTTPBearer": [scope]}``);
    errors are those of ``check_scope``."""
    return Security(check_scope, scopes=[scope])
