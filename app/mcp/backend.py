"""How an MCP tool reaches Memlane's REST API, and on whose behalf."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Protocol
from urllib.parse import quote

import httpx

USER_HEADER = "x-memlane-user"
TENANT_HEADER = "x-memlane-tenant"
_BEARER = re.compile(r"^Bearer\s+(\S+)$", re.IGNORECASE)


class ToolProblem(Exception):
    """A REST problem (RFC 9457 document) or a binding error, returned to the agent as a
    tool error whose text is the problem JSON."""

    def __init__(self, problem: dict[str, Any]):
        super().__init__(problem.get("detail") or problem.get("title"))
        self.problem = problem

    @classmethod
    def binding(cls, status: int, slug: str, title: str, detail: str) -> ToolProblem:
        problem = {"type": f"urn:memlane:problem:{slug}", "title": title, "status": status}
        return cls({**problem, "detail": detail})


@dataclass(frozen=True)
class Caller:
    """Who calls: the bearer key, the tenant its paths use, and the user the connection is
    bound to (None: each call names its user)."""

    api_key: str
    tenant_id: str
    bound_user: str | None

    def user_path(self, user_id: str | None) -> str:
        """``/v1/tenants/{tenant}/users/{user}`` for this call. Raises ToolProblem when no user
        is given on an unbound connection, or another user than the bound one is asked for."""
        if self.bound_user is not None:
            if user_id not in (None, "", self.bound_user):
                raise ToolProblem.binding(
                    403,
                    "forbidden",
                    "This key may not do that",
                    f"this connection is bound to user {self.bound_user!r}",
                )
            user_id = self.bound_user
        if not user_id:
            raise ToolProblem.binding(
                422,
                "validation-error",
                "The request is not valid",
                "user_id is required (or bind the connection to a user)",
            )
        return f"/v1/tenants/{segment(self.tenant_id)}/users/{segment(user_id)}"


def segment(value: str) -> str:
    """One path segment, percent-encoded. Raises ToolProblem (422) for an empty segment, ``.``
    or ``..``: percent-encoding leaves dots as they are, and the HTTP client resolves dot
    segments before sending (``…/memories/..`` would reach the user itself)."""
    if value in ("", ".", ".."):
        raise ToolProblem.binding(
            422,
            "validation-error",
            "The request is not valid",
            f"{value!r} is no id: a path segment may not be empty, '.' or '..'",
        )
    return quote(value, safe="")


def caller_from_headers(headers: Any) -> Caller:
    """The caller of a streamable-HTTP request: ``Authorization: Bearer <tenant key>``,
    ``X-Memlane-Tenant: <tenant id>``, optional ``X-Memlane-User: <user id>``."""
    match = _BEARER.match(headers.get("authorization", "") or "")
    tenant = headers.get(TENANT_HEADER) or ""
    if match is None:
        raise ToolProblem.binding(
            401, "unauthorized", "Missing or invalid API key", "send Authorization: Bearer <key>"
        )
    if not tenant:
        raise ToolProblem.binding(
            422,
            "validation-error",
            "The request is not valid",
            "send the tenant id in the X-Memlane-Tenant header",
        )
    return Caller(match.group(1), tenant, headers.get(USER_HEADER) or None)


class Backend(Protocol):
    async def request(
        self,
        caller: Caller,
        method: str,
        path: str,
        *,
        json_body: Any = None,
        params: dict[str, Any] | None = None,
    ) -> dict[str, Any]: ...


class RestBackend:
    """REST over an httpx client: in-process (``httpx.ASGITransport`` on the serving app) or
    over the network to a running server. Non-2xx answers raise ToolProblem with the body."""

    def __init__(self, client: httpx.AsyncClient):
        self.client = client

    async def request(
        self,
        caller: Caller,
        method: str,
        path: str,
        *,
        json_body: Any = None,
        params: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        try:
            response = await self.client.request(
                method,
                path,
                json=json_body,
                params={k: v for k, v in (params or {}).items() if v is not None},
                headers={"Authorization": f"Bearer {caller.api_key}"},
            )
        except httpx.TransportError as exc:
            raise ToolProblem.binding(
                503, "service-unavailable", "A dependency is unavailable", f"Memlane: {exc!r}"
            ) from exc
        if response.status_code == 204:
            return {}
        try:
            data = response.json()
        except json.JSONDecodeError:
            data = {"detail": response.text[:500]}
        if not response.is_success:
            if not isinstance(data, dict) or "type" not in data:
                data = {
                    "type": "about:blank",
                    "title": response.reason_phrase,
                    "status": response.status_code,
                    **(data if isinstance(data, dict) else {}),
                }
            raise ToolProblem(data)
        return data if isinstance(data, dict) else {"items": data}
