"""Memlane as an MCP server (Model Context Protocol, official ``mcp`` SDK).

Tools ``remember``, ``recall``, ``add_messages``, ``get_context`` and ``forget`` run as REST
requests against Memlane's own routes, carrying the caller's API key: isolation, validation,
rate limits and problem types are the REST ones by construction (docs/mcp.md).

- ``memlane serve`` serves it at ``/mcp`` (streamable HTTP, stateless): :func:`mount_mcp`; the
  requests go in-process to the same app (``httpx.ASGITransport``).
- ``memlane mcp`` serves it over stdio to one local agent: :func:`run_stdio`; the requests go
  to a running server over HTTP.
"""

from app.mcp.http import mcp_sessions, mount_mcp
from app.mcp.stdio import run_stdio

__all__ = ["mcp_sessions", "mount_mcp", "run_stdio"]
