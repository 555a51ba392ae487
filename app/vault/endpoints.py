"""The vault: server-rendered pages where an operator, or one user through a vault link, sees,
corrects and deletes what Memlane remembers (docs/vault.md).

Every page and action calls the services of the REST API; this module only authenticates the
browser (app/vault/session.py), checks CSRF tokens and renders templates.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import AsyncIterator, Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import parse_qs, urlencode

import jinja2
from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, RedirectResponse, StreamingResponse
from fastapi.routing import APIRoute
from fastapi.security import HTTPAuthorizationCredentials
from sqlalchemy.ext.asyncio import AsyncSession

from app.auth import endpoints as keys
from app.auth.principal import Principal, Scope, get_principal
from app.auth.schemas import ApiKeyCreate, ApiKeyRead
from app.kit.deps import UserId, request_id, unit_of_work
from app.kit.errors import (
    Forbidden,
    InsufficientScope,
    InvalidRequest,
    MemlaneError,
    NotFound,
    Unauthorized,
)
from app.kit.ratelimit import KeyRateLimiter
from app.kit.time import utcnow
from app.memories.schemas import MAX_CONTENT_CHARS, MemoryCreate
from app.memories.service import MemoryService, draft_of_body
from app.portability.service import PortabilityService
from app.privacy.erase import erase_user
from app.runtime import Runtime
from app.users.confirm import ConfirmService
from app.users.policy import MEMORY_MODES
from app.users.schemas import UserSettingsUpdate
from app.users.service import UserService, list_users_page
from app.vault.service import VaultService
from app.vault.session import (
    COOKIE,
    COOKIE_PATH,
    LOGIN_CSRF_COOKIE,
    VaultSession,
    new_token,
    open_session,
    same_token,
    seal_session,
)

# What a vault link may do: read and correct the user's memories, always; reveal secrets and
# erase the user only when the operator ticks them (and holds them).
LINK_SCOPES: tuple[Scope, ...] = ("memories:read", "memories:write")
LINK_OPTIONAL_SCOPES: tuple[Scope, ...] = ("memories:reveal", "users:erase")
MAX_LINK_MINUTES = 30 * 24 * 60
HERE = Path(__file__).parent
STATIC_DIR = HERE / "static"
MAX_FORM_BYTES = 64_000
ACTOR = "vault"

# Autoescaping on for every template: memory content is user text and renders as text.
templates = jinja2.Environment(
    loader=jinja2.FileSystemLoader(HERE / "templates"),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
)

# Strict policy: scripts, styles and images from this origin only, no inline script or style,
# no framing, forms post only here (docs/vault.md, "Security").
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    # same-origin: a Referer (and a real Origin on form posts) only towards this server.
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-store",
    "Cross-Origin-Opener-Policy": "same-origin",
}


class SignInRequired(Exception):
    """No valid vault session: the browser goes to the sign-in page."""

    def __init__(self, reason: str = ""):
        super().__init__(reason)
        self.reason = reason


def render(
    request: Request, template: str, context: dict[str, Any], status_code: int = 200
) -> HTMLResponse:
    body = templates.get_template(template).render(
        request_path=request.url.path, **{"visitor": None, "csrf": "", **context}
    )
    return HTMLResponse(body, status_code=status_code)


class VaultRoute(APIRoute):
    """Errors become HTML pages (not problem+json) and a missing session a redirect."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        original = super().get_route_handler()

        async def handler(request: Request) -> Response:
            try:
                response = await original(request)
            except SignInRequired as exc:
                target = "/vault/login" + (
                    f"?{urlencode({'why': exc.reason})}" if exc.reason else ""
                )
                response = RedirectResponse(target, status_code=303)
                response.delete_cookie(COOKIE, path=COOKIE_PATH)
            except RequestValidationError:
                response = render(
                    request,
                    "error.html",
                    {"status": 422, "title": InvalidRequest.title, "detail": ""},
                    status_code=422,
                )
            except MemlaneError as exc:
                response = render(
                    request,
                    "error.html",
                    {"status": exc.status, "title": exc.title, "detail": exc.detail or ""},
                    status_code=exc.status,
                )
                for k, v in (exc.headers or {}).items():
                    response.headers[k] = v
            response.headers.update(SECURITY_HEADERS)
            return response

        return handler


router = APIRouter(prefix="/vault", include_in_schema=False, route_class=VaultRoute)


def runtime(request: Request) -> Runtime:
    return request.app.state.memlane


def limiter(request: Request) -> KeyRateLimiter | None:
    return getattr(request.app.state, "rate_limiter", None)


def sign_in_limiter(request: Request) -> KeyRateLimiter:
    """Per client address, for the forms and links that take a key (unknown keys are never
    counted by the per-key limiter)."""
    state = request.app.state
    if getattr(state, "vault_sign_in_limiter", None) is None:
        state.vault_sign_in_limiter = KeyRateLimiter(
            runtime(request).settings.vault_sign_in_per_minute
        )
    limit: KeyRateLimiter = state.vault_sign_in_limiter
    return limit


async def authenticate(request: Request, api_key: str) -> Principal:
    """The principal of ``api_key`` exactly as the REST API resolves it. Raises Unauthorized."""
    return await get_principal(
        request, HTTPAuthorizationCredentials(scheme="Bearer", credentials=api_key)
    )


def bound_user_of(principal: Principal) -> str | None:
    """The one user a user-bound key may see, or None for a tenant-wide key."""
    user_id = getattr(principal, "user_id", None)
    return str(user_id) if user_id else None


@dataclass
class Visitor:
    """A signed-in browser: its session, the key's principal and the tenant."""

    session: VaultSession
    principal: Principal
    tenant_id: uuid.UUID
    bound_user: str | None

    @property
    def csrf(self) -> str:
        return self.session.csrf

    def may_see(self, user_id: str, scope: Scope = "memories:read") -> None:
        """Raises NotFound (404) when a vault link of one user asks for another (the same
        answer as for a user that does not exist), InsufficientScope (403) when the key lacks
        ``scope`` — the rules of the REST API (``check_scope``)."""
        if self.bound_user is not None and self.bound_user != user_id:
            raise NotFound("no such user")
        self.require(scope)

    def require(self, scope: Scope) -> None:
        """Raises InsufficientScope (403) when the key lacks ``scope``."""
        if scope not in self.principal.scopes:
            raise InsufficientScope(f"this key lacks the scope {scope}")

    def has(self, scope: Scope) -> bool:
        return scope in self.principal.scopes

    @property
    def may_link(self) -> bool:
        """Operators whose key manages keys create and revoke vault links."""
        return self.bound_user is None and self.has("keys:manage")


async def visitor(request: Request) -> Visitor:
    """The signed-in browser. Raises SignInRequired without a valid session or when its key
    was revoked or expired; TooManyRequests past the key's rate limit."""
    rt = runtime(request)
    session = open_session(rt.privacy.cipher, request.cookies.get(COOKIE))
    if session is None:
        raise SignInRequired()
    try:
        principal = await authenticate(request, session.api_key)
    except Unauthorized as exc:
        raise SignInRequired("the key of this session was revoked or has expired") from exc
    if principal.kind != "tenant" or principal.tenant_id is None:
        raise SignInRequired()
    limit = limiter(request)
    if limit is not None:
        await limit.hit(principal)
    bound = session.user_id or bound_user_of(principal)
    return Visitor(session, principal, principal.tenant_id, bound)


CurrentVisitor = Annotated[Visitor, Depends(visitor)]


async def vault_unit(
    request: Request, user_id: UserId, who: CurrentVisitor
) -> AsyncIterator[AsyncSession]:
    """The request's one unit of work on the path's user of the visitor's tenant, as
    ``app.kit.deps.user_session`` for the REST API: services only flush; it commits when the
    page function returned (before the response: ``scope="function"``), rolls back when it
    raised. Its connection opens at the first statement, so a refused visitor never takes one."""
    async with unit_of_work(runtime(request), who.tenant_id, user_id) as session:
        yield session


VaultUnit = Annotated[AsyncSession, Depends(vault_unit, scope="function")]


def same_origin(request: Request) -> bool:
    """False when the browser says the request comes from another origin (``Origin``)."""
    origin = request.headers.get("origin")
    if origin is None or origin == "null":
        return origin is None
    own = f"{request.url.scheme}://{request.headers.get('host', request.url.netloc)}"
    return origin == own


async def read_form(request: Request) -> dict[str, str]:
    """The url-encoded form (first value of each field). Raises InvalidRequest."""
    body = await request.body()
    if len(body) > MAX_FORM_BYTES:
        raise InvalidRequest("form too large")
    try:
        fields = parse_qs(body.decode("utf-8"), keep_blank_values=True, max_num_fields=20)
    except (UnicodeDecodeError, ValueError) as exc:
        raise InvalidRequest("not a form") from exc
    return {k: v[0] for k, v in fields.items()}


async def checked_form(request: Request, who: Visitor) -> dict[str, str]:
    """The form of a state-changing request after the CSRF checks. Raises Forbidden (403)."""
    form = await read_form(request)
    if not same_origin(request) or not same_token(who.csrf, form.get("csrf")):
        raise Forbidden("the form's CSRF token is missing or wrong; reload the page")
    return form


def back_to(path: str, **params: str) -> RedirectResponse:
    """303 to ``path`` (a vault path built here, never from input)."""
    return RedirectResponse(path + (f"?{urlencode(params)}" if params else ""), status_code=303)


def set_session(response: Response, request: Request, rt: Runtime, session: VaultSession) -> None:
    response.set_cookie(
        COOKIE,
        seal_session(rt.privacy.cipher, session),
        max_age=max(1, int(session.expires_at - time.time())),
        path=COOKIE_PATH,
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
    )


# --- sign-in --------------------------------------------------------------------------------


@router.get("/login", response_class=HTMLResponse)
async def vault_login_page(
    request: Request, why: Annotated[str | None, Query(max_length=200)] = None
) -> Response:
    """The sign-in form."""
    token = new_token()
    response = render(request, "login.html", {"csrf": token, "why": why or ""})
    response.set_cookie(
        LOGIN_CSRF_COOKIE,
        token,
        max_age=3600,
        path=COOKIE_PATH,
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
    )
    return response


@router.post("/login")
async def vault_login(request: Request) -> Response:
    """Sign in with a tenant API key."""
    rt = runtime(request)
    await sign_in_limiter(request).hit_bucket(f"vault-sign-in:{client_address(request)}")
    form = await read_form(request)
    expected = request.cookies.get(LOGIN_CSRF_COOKIE, "")
    if not same_origin(request) or not expected or not same_token(expected, form.get("csrf")):
        raise Forbidden("the sign-in form expired; reload the page")
    api_key = form.get("api_key", "").strip()
    try:
        principal = await authenticate(request, api_key) if api_key else None
    except Unauthorized:
        principal = None
    if principal is None or principal.kind != "tenant":
        why = (
            "the admin key manages tenants; sign in with a tenant API key"
            if principal is not None
            else "unknown, revoked or expired API key"
        )
        return back_to("/vault/login", why=why)
    session = VaultSession(
        api_key=api_key,
        csrf=new_token(),
        expires_at=time.time() + rt.settings.vault_session_ttl_s,
        user_id=bound_user_of(principal),
    )
    response = back_to("/vault")
    set_session(response, request, rt, session)
    response.delete_cookie(LOGIN_CSRF_COOKIE, path=COOKIE_PATH)
    return response


def client_address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


@router.post("/logout")
async def vault_logout(request: Request, who: CurrentVisitor) -> Response:
    """Sign out."""
    await checked_form(request, who)
    response = back_to("/vault/login")
    response.delete_cookie(COOKIE, path=COOKIE_PATH)
    return response


# --- pages ----------------------------------------------------------------------------------


@router.get("", response_class=HTMLResponse)
async def vault_home(
    request: Request,
    who: CurrentVisitor,
    prefix: Annotated[str | None, Query(max_length=128)] = None,
    has_frozen: Annotated[str | None, Query(max_length=5)] = None,
    cursor: Annotated[str | None, Query(max_length=400)] = None,
) -> Response:
    """The tenant's users (a vault link goes straight to its user)."""
    if who.bound_user is not None:
        return back_to(f"/vault/users/{who.bound_user}")
    who.require("memories:read")
    users = await list_users_page(
        runtime(request),
        who.tenant_id,
        limit=50,
        cursor=cursor or None,
        active_since=None,
        has_frozen={"yes": True, "no": False}.get(has_frozen or ""),
        prefix=prefix or None,
    )
    return render(
        request,
        "users.html",
        {
            "visitor": who,
            "csrf": who.csrf,
            "users": users,
            "prefix": prefix or "",
            "has_frozen": has_frozen or "",
        },
    )


@router.get("/users/{user_id}", response_class=HTMLResponse)
async def vault_user(
    request: Request,
    user_id: UserId,
    who: CurrentVisitor,
    db: VaultUnit,
    q: Annotated[str | None, Query(max_length=4000)] = None,
    done: Annotated[str | None, Query(max_length=200)] = None,
) -> Response:
    """One user's memories, settings, sessions and tasks."""
    who.may_see(user_id)
    rt = runtime(request)
    page = await VaultService(rt, db, who.tenant_id, user_id).user_page((q or "").strip() or None)
    links = await vault_links(request, who, user_id) if who.may_link else None
    return render(
        request,
        "user.html",
        {
            "visitor": who,
            "csrf": who.csrf,
            "page": page,
            "modes": MEMORY_MODES,
            "done": done or "",
            "max_content": MAX_CONTENT_CHARS,
            "links": links,
            "link_minutes": rt.settings.vault_link_ttl_s // 60,
            "link_optional": [s for s in LINK_OPTIONAL_SCOPES if who.has(s)],
        },
    )


@router.get("/users/{user_id}/memories/{memory_id}", response_class=HTMLResponse)
async def vault_memory(
    request: Request, user_id: UserId, memory_id: uuid.UUID, who: CurrentVisitor, db: VaultUnit
) -> Response:
    """One memory: its supersession chain, every change, the decisions about it."""
    who.may_see(user_id)
    return await memory_page(request, who, db, user_id, memory_id, revealed=None)


async def memory_page(
    request: Request,
    who: Visitor,
    db: AsyncSession,
    user_id: str,
    memory_id: uuid.UUID,
    revealed: list[dict[str, str]] | None,
) -> Response:
    rt = runtime(request)
    service = VaultService(rt, db, who.tenant_id, user_id)
    history = await service.memories.history(memory_id)
    return render(
        request,
        "memory.html",
        {
            "visitor": who,
            "csrf": who.csrf,
            "user_id": user_id,
            "memory_id": memory_id,
            "history": history,
            "arbitrations": await service.arbitrations_of(memory_id),
            "revealed": revealed,
        },
    )


# --- actions --------------------------------------------------------------------------------


@router.post("/users/{user_id}/memories/{memory_id}/correct")
async def vault_correct(
    request: Request, user_id: UserId, memory_id: uuid.UUID, who: CurrentVisitor, db: VaultUnit
) -> Response:
    """A user correction: the new content is written through arbitration; the old memory is
    frozen by rule user_correction."""
    who.may_see(user_id, "memories:write")
    form = await checked_form(request, who)
    rt = runtime(request)
    memories = MemoryService(rt, db, who.tenant_id, user_id, request_id(request))
    old = await memories.get(memory_id)
    content = form.get("content", "").strip()
    value = form.get("value", "").strip() or None
    try:
        write = MemoryCreate(
            content=content,
            # a verbatim turn (episode) is corrected by the fact the user states instead
            type="fact" if old.type == "episode" else old.type,
            key=old.key,
            value=value if old.key else None,
            source="user_declared",
            scope=old.scope,  # type: ignore[arg-type]  # a user's own: never "tenant"
            scope_id=old.scope_id,
            corrects=memory_id,
        )
    except ValueError as exc:
        raise InvalidRequest(f"the correction is not valid: {exc}") from exc
    # Through the memory writer in this request's unit of work: arbitration freezes the
    # named memory by rule user_correction, superseded by the new one.
    await memories.writer(ACTOR).write([draft_of_body(write, utcnow())])
    return back_to(f"/vault/users/{user_id}", done="corrected")


@router.post("/users/{user_id}/memories/{memory_id}/delete")
async def vault_delete(
    request: Request, user_id: UserId, memory_id: uuid.UUID, who: CurrentVisitor, db: VaultUnit
) -> Response:
    """Delete one memory for real."""
    who.may_see(user_id, "memories:write")
    await checked_form(request, who)
    await MemoryService(runtime(request), db, who.tenant_id, user_id, request_id(request)).delete(
        memory_id
    )
    return back_to(f"/vault/users/{user_id}", done="deleted")


@router.post("/users/{user_id}/memories/{memory_id}/confirm")
async def vault_confirm(
    request: Request, user_id: UserId, memory_id: uuid.UUID, who: CurrentVisitor, db: VaultUnit
) -> Response:
    """Confirm a low-confidence memory (it becomes user_declared)."""
    who.may_see(user_id, "memories:write")
    await checked_form(request, who)
    await ConfirmService(runtime(request), db, who.tenant_id, user_id, request_id(request)).confirm(
        memory_id, actor=ACTOR
    )
    return back_to(f"/vault/users/{user_id}", done="confirmed")


@router.post("/users/{user_id}/memories/{memory_id}/reject")
async def vault_reject(
    request: Request, user_id: UserId, memory_id: uuid.UUID, who: CurrentVisitor, db: VaultUnit
) -> Response:
    """Reject a low-confidence memory (it is deleted)."""
    who.may_see(user_id, "memories:write")
    await checked_form(request, who)
    await ConfirmService(runtime(request), db, who.tenant_id, user_id, request_id(request)).reject(
        memory_id
    )
    return back_to(f"/vault/users/{user_id}", done="rejected")


@router.post("/users/{user_id}/memories/{memory_id}/reveal", response_class=HTMLResponse)
async def vault_reveal(
    request: Request, user_id: UserId, memory_id: uuid.UUID, who: CurrentVisitor, db: VaultUnit
) -> Response:
    """Show a memory's secret values once; the reveal is audited in its history."""
    who.may_see(user_id, "memories:reveal")
    await checked_form(request, who)
    opened = await MemoryService(
        runtime(request), db, who.tenant_id, user_id, request_id(request)
    ).reveal(memory_id)
    revealed = [s.model_dump() for s in opened.secrets]
    return await memory_page(request, who, db, user_id, memory_id, revealed=revealed)


@router.post("/users/{user_id}/settings")
async def vault_settings(
    request: Request, user_id: UserId, who: CurrentVisitor, db: VaultUnit
) -> Response:
    """Set the user's memory mode and retention (audited)."""
    who.may_see(user_id, "memories:write")
    form = await checked_form(request, who)
    retention = form.get("retention_days", "").strip()
    try:
        body = UserSettingsUpdate(
            memory_mode=form.get("memory_mode", ""),  # type: ignore[arg-type]
            retention_days=int(retention) if retention else None,
        )
    except ValueError as exc:
        raise InvalidRequest(f"the settings are not valid: {exc}") from exc
    await UserService(runtime(request), db, who.tenant_id, user_id).put_settings(
        body, actor=ACTOR, request_id=request_id(request)
    )
    return back_to(f"/vault/users/{user_id}", done="settings saved")


@router.get("/users/{user_id}/erase", response_class=HTMLResponse)
async def vault_erase_page(request: Request, user_id: UserId, who: CurrentVisitor) -> Response:
    """The confirmation step before erasing a user."""
    who.may_see(user_id, "users:erase")
    return render(request, "erase.html", {"visitor": who, "csrf": who.csrf, "user_id": user_id})


@router.post("/users/{user_id}/erase", response_class=HTMLResponse)
async def vault_erase(
    request: Request, user_id: UserId, who: CurrentVisitor, db: VaultUnit
) -> Response:
    """Erase everything of the user, once the user id was typed again."""
    who.may_see(user_id, "users:erase")
    form = await checked_form(request, who)
    if form.get("confirm_user_id") != user_id:
        return render(
            request,
            "erase.html",
            {
                "visitor": who,
                "csrf": who.csrf,
                "user_id": user_id,
                "error": "type the user id exactly to confirm",
            },
            status_code=422,
        )
    receipt = await erase_user(db, who.tenant_id, user_id)
    return render(request, "erased.html", {"visitor": who, "csrf": who.csrf, "receipt": receipt})


@router.get("/users/{user_id}/export")
async def vault_export(
    request: Request, user_id: UserId, who: CurrentVisitor, db: VaultUnit
) -> Response:
    """Download the user's export document (GET …/export)."""
    who.may_see(user_id)
    service = PortabilityService(runtime(request), db, who.tenant_id, user_id)
    return StreamingResponse(
        service.export_chunks(include_messages=False),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="memlane-{user_id}.json"'},
    )


# --- vault links ----------------------------------------------------------------------------


async def vault_links(request: Request, who: Visitor, user_id: str) -> list[ApiKeyRead]:
    """The user's usable vault links: unrevoked, unexpired keys bound to ``user_id``."""
    now = time.time()
    return [
        k
        for k in await keys.list_api_keys(who.tenant_id, request, who.principal)
        if k.user_id == user_id
        and k.revoked_at is None
        and (k.expires_at is None or k.expires_at.timestamp() > now)
    ]


@router.post("/users/{user_id}/links", response_class=HTMLResponse)
async def vault_create_link(request: Request, user_id: UserId, who: CurrentVisitor) -> Response:
    """Create a vault link: a key bound to this user that expires (POST …/keys)."""
    if not who.may_link:
        raise InsufficientScope("creating vault links needs an operator key with keys:manage")
    form = await checked_form(request, who)
    try:
        minutes = int(form.get("minutes") or runtime(request).settings.vault_link_ttl_s // 60)
    except ValueError as exc:
        raise InvalidRequest("minutes must be a whole number") from exc
    if not 1 <= minutes <= MAX_LINK_MINUTES:
        raise InvalidRequest(f"a vault link lives 1 to {MAX_LINK_MINUTES} minutes")
    scopes = [*LINK_SCOPES, *(s for s in LINK_OPTIONAL_SCOPES if form.get(s) == "on")]
    created = await keys.create_api_key(
        who.tenant_id,
        ApiKeyCreate(
            name=f"vault link: {user_id}"[:200],
            scopes=scopes,
            user_id=user_id,
            expires_in_s=minutes * 60,
        ),
        request,
        who.principal,
    )
    link = f"{request.base_url}vault/link?{urlencode({'t': created.api_key})}"
    return render(
        request,
        "link.html",
        {"visitor": who, "csrf": who.csrf, "user_id": user_id, "link": link, "key": created},
    )


@router.post("/users/{user_id}/links/{key_id}/revoke")
async def vault_revoke_link(
    request: Request, user_id: UserId, key_id: uuid.UUID, who: CurrentVisitor
) -> Response:
    """Revoke a vault link of this user: it stops working at once."""
    if not who.may_link:
        raise InsufficientScope("revoking vault links needs an operator key with keys:manage")
    await checked_form(request, who)
    if all(k.id != key_id for k in await vault_links(request, who, user_id)):
        raise NotFound("no such vault link")
    await keys.revoke_api_key(who.tenant_id, key_id, request, who.principal)
    return back_to(f"/vault/users/{user_id}", done="vault link revoked")


@router.get("/link")
async def vault_open_link(
    request: Request, t: Annotated[str, Query(min_length=1, max_length=200)]
) -> Response:
    """Open a vault link: its user-bound key becomes this browser's session."""
    rt = runtime(request)
    await sign_in_limiter(request).hit_bucket(f"vault-sign-in:{client_address(request)}")
    try:
        principal = await authenticate(request, t)
    except Unauthorized as exc:
        raise Unauthorized("this vault link is unknown, revoked or expired") from exc
    user_id = bound_user_of(principal)
    if principal.kind != "tenant" or user_id is None:
        raise Forbidden("a vault link carries a key bound to one user; operators sign in")
    session = VaultSession(
        api_key=t,
        csrf=new_token(),
        expires_at=time.time() + rt.settings.vault_session_ttl_s,
        user_id=user_id,
    )
    response = back_to(f"/vault/users/{user_id}")
    set_session(response, request, rt, session)
    return response
