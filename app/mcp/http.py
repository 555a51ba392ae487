"""``/mcp`` on the serving app: streamable HTTP, each tool an in-process REST request."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
from fastapi import FastAPI
from mcp.server.fastmcp import Context, FastMCP
from mcp.server.fastmcp.server import StreamableHTTPASGIApp
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from app.mcp.backend import Caller, RestBackend, ToolProblem, caller_from_headers
from app.mcp.tools import build_server

MCP_PATH = "/mcp"


def _caller(ctx: Context) -> Caller:
    request = ctx.request_context.request
    if request is None:
        raise ToolProblem.binding(401, "unauthorized", "Missing or invalid API key", "no request")
    return caller_from_headers(request.headers)


def mount_mcp(app: FastAPI) -> FastMCP:
    """Serve the MCP tools at ``/mcp`` of ``app``; the tools call ``app``'s REST routes through
    ``httpx.ASGITransport`` with the caller's bearer key, so they pass the same middleware,
    authentication, rate limit and row-level security as any REST request."""
    client = httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app, raise_app_exceptions=False),
        base_url="http://memlane.internal",
        timeout=None,  # the REST routes bound their own waits (?wait=true)
    )
    server = build_server(RestBackend(client), _caller)
    server.streamable_http_app()  # creates the session manager
    # A plain Starlette route (an ASGI app, not an APIRoute): not part of the OpenAPI document.
    app.router.routes.append(
        Route(MCP_PATH, _RequireBearer(StreamableHTTPASGIApp(server.session_manager)))
    )
    app.state.mcp_server = server
    return server


@asynccontextmanager
async def mcp_sessions(app: FastAPI) -> AsyncIterator[None]:
    """Run the MCP session manager for the app's life (from its lifespan).

    The manager holds an anyio task group, which must be left by the task that entered it; a
    lifespan may start and stop in different tasks (test runners do), so one background task
    of its own enters and leaves it."""
    server: FastMCP | None = getattr(app.state, "mcp_server", None)
    if server is None:
        yield
        return
    running, stop = asyncio.Event(), asyncio.Event()

    async def hold() -> None:
        async with server.session_manager.run():
            running.set()
            await stop.wait()

    holder = asyncio.create_task(hold(), name="mcp-session-manager")
    started = asyncio.create_task(running.wait())
    await asyncio.wait({holder, started}, return_when=asyncio.FIRST_COMPLETED)
    if holder.done():
        started.cancel()
        holder.result()  # raises what stopped it
    try:
        yield
    finally:
        stop.set()
        await holder


class _RequireBearer:
    """401 problem+json before any MCP work when there is no bearer key at all (a wrong key is
    refused by the REST route each tool calls, with the same problem)."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = dict(scope.get("headers") or [])
        auth = headers.get(b"authorization", b"").decode("latin-1")
        if scope["type"] == "http" and not auth.lower().startswith("bearer "):
            body = (
                b'{"type":"urn:memlane:problem:unauthorized","title":"Missing or invalid API '
                b'key","status":401,"detail":"send Authorization: Bearer <key>"}'
            )
            await send(
                {
                    "type": "http.response.start",
                    "status": 401,
                    "headers": [
                        (b"content-type", b"application/problem+json"),
                        (b"www-authenticate", b"Bearer"),
                        (b"content-length", str(len(body)).encode()),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": body})
            return
        await self.app(scope, receive, send)
