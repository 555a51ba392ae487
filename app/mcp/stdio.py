"""``memlane mcp``: the MCP tools over stdio, for one local agent, against a running server."""

from __future__ import annotations

import httpx
from mcp.server.fastmcp import Context

from app.mcp.backend import Caller, RestBackend
from app.mcp.tools import build_server


def run_stdio(base_url: str, api_key: str, tenant_id: str, user_id: str | None) -> None:
    """Serve the tools on stdin/stdout until it closes. Each tool call is a REST request to
    ``base_url`` with ``api_key`` on ``tenant_id``'s paths; ``user_id`` binds the session to
    one user (None: each call names its user)."""
    caller = Caller(api_key, tenant_id, user_id)
    client = httpx.AsyncClient(base_url=base_url.rstrip("/"), timeout=120.0)

    def caller_of(_: Context) -> Caller:
        return caller

    build_server(RestBackend(client), caller_of).run("stdio")
