"""The MCP server against a real `memlane serve`, with the official `mcp` client library:
tools listed with schemas, each tool called, keys and tenants refused as REST refuses them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CallToolResult
from memlane_client import Memlane
from memlane_client.models import TenantCreated

from tests.e2e.server import ServeProcess

TOOLS = {"remember", "recall", "add_messages", "get_context", "forget"}


@asynccontextmanager
async def mcp_http(server: ServeProcess, headers: dict[str, str]) -> AsyncIterator[ClientSession]:
    async with (
        httpx.AsyncClient(headers=headers, timeout=60) as http,
        streamable_http_client(f"{server.base_url}/mcp", http_client=http) as (read, write, _),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


def headers_of(tenant: TenantCreated, user: str | None = None) -> dict[str, str]:
    h = {"Authorization": f"Bearer {tenant.api_key}", "X-Memlane-Tenant": str(tenant.id)}
    if user:
        h["X-Memlane-User"] = user
    return h


def data(result: CallToolResult) -> dict[str, Any]:
    assert not result.isError, result.content
    assert result.structuredContent is not None
    return result.structuredContent


def problem(result: CallToolResult) -> dict[str, Any]:
    assert result.isError, result
    text = result.content[0].text  # type: ignore[union-attr]
    return dict(json.loads(text))


async def test_tools_are_listed_with_schemas_an_agent_can_follow(
    server: ServeProcess, tenant: TenantCreated
) -> None:
    async with mcp_http(server, headers_of(tenant, "alice")) as session:
        tools = {t.name: t for t in (await session.list_tools()).tools}
    assert set(tools) == TOOLS
    for tool in tools.values():
        assert tool.description and len(tool.description) > 40
        props = tool.inputSchema["properties"]
        assert "user_id" in props and props["user_id"].get("description")
    assert tools["recall"].inputSchema["required"] == ["query"]
    assert tools["remember"].inputSchema["properties"]["type"]["enum"] == [
        "profile",
        "preference",
        "fact",
        "event",
        "constraint",
    ]
    assert tools["add_messages"].inputSchema["required"] == ["session_id", "messages"]
    assert tools["forget"].inputSchema["required"] == ["memory_id"]


async def test_each_tool_on_a_connection_bound_to_one_user(
    server: ServeProcess, tenant: TenantCreated, client: Memlane
) -> None:
    async with mcp_http(server, headers_of(tenant, "alice")) as session:
        stored = data(
            await session.call_tool(
                "remember",
                {
                    "content": "Alice lives in Lisbon",
                    "type": "profile",
                    "key": "residence.city",
                    "value": "Lisbon",
                },
            )
        )
        [memory] = stored["memories"]
        assert memory["value"] == "Lisbon" and memory["status"] == "active"
        recalled = data(await session.call_tool("recall", {"query": "where does Alice live?"}))
        assert [m["content"] for m in recalled["memories"]] == ["Alice lives in Lisbon"]
        turns = [{"role": "user", "content": "Please always answer in bullet points."}]
        added = data(
            await session.call_tool("add_messages", {"session_id": "s1", "messages": turns})
        )
        assert any(m["type"] == "constraint" for m in added["memories"])
        ctx = data(
            await session.call_tool(
                "get_context", {"session_id": "s1", "query": "plan a trip", "token_budget": 400}
            )
        )
        assert "bullet points" in ctx["text"] and ctx["tokens"] <= 400
        forgot = data(await session.call_tool("forget", {"memory_id": memory["id"]}))
        assert forgot == {"deleted": memory["id"]}
        after = data(await session.call_tool("recall", {"query": "where does Alice live?"}))
        assert "Alice lives in Lisbon" not in [m["content"] for m in after["memories"]]
        # the bound connection refuses another user of the same tenant
        other = problem(await session.call_tool("recall", {"query": "x", "user_id": "bob"}))
        assert other["type"] == "urn:memlane:problem:forbidden"
    # what the tools wrote is the tenant's alice, as REST sees her
    assert [m.content for m in client.user("alice").memories(type="constraint")]


async def test_an_unbound_connection_names_the_user_per_call(
    server: ServeProcess, tenant: TenantCreated, client: Memlane
) -> None:
    async with mcp_http(server, headers_of(tenant)) as session:
        data(
            await session.call_tool(
                "remember", {"content": "Bob drinks oat milk", "user_id": "bob"}
            )
        )
        missing = problem(await session.call_tool("recall", {"query": "milk"}))
        assert missing["type"] == "urn:memlane:problem:validation-error"
        # REST validates as it always does: same problem type, with the request id
        bad_key = problem(
            await session.call_tool(
                "remember", {"content": "x", "key": "Not A Key", "user_id": "bob"}
            )
        )
        assert bad_key["type"] == "urn:memlane:problem:validation-error"
        assert bad_key["status"] == 422 and bad_key["request_id"]
    assert [m.content for m in client.user("bob").memories()] == ["Bob drinks oat milk"]


async def test_wrong_or_missing_key_is_refused(server: ServeProcess, tenant: TenantCreated) -> None:
    wrong = {**headers_of(tenant, "alice"), "Authorization": "Bearer mlk_not-a-key"}
    async with mcp_http(server, wrong) as session:
        refused = problem(await session.call_tool("recall", {"query": "anything"}))
    assert refused["type"] == "urn:memlane:problem:unauthorized"
    assert refused["status"] == 401
    async with httpx.AsyncClient() as http:
        bare = await http.post(
            f"{server.base_url}/mcp",
            json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
            headers={"Accept": "application/json, text/event-stream"},
        )
    assert bare.status_code == 401
    assert bare.headers["content-type"] == "application/problem+json"
    assert bare.json()["type"] == "urn:memlane:problem:unauthorized"


async def test_another_tenants_user_is_unreachable(
    server: ServeProcess, tenant: TenantCreated, admin: Memlane
) -> None:
    async with mcp_http(server, headers_of(tenant, "carol")) as session:
        data(await session.call_tool("remember", {"content": "Carol's door code is 4411"}))
    intruder = admin.create_tenant("intruder")
    # the intruder's key on the first tenant's paths: 404, as REST answers
    crossed = {**headers_of(intruder, "carol"), "X-Memlane-Tenant": str(tenant.id)}
    async with mcp_http(server, crossed) as session:
        refused = problem(await session.call_tool("recall", {"query": "door code"}))
        assert refused["type"] == "urn:memlane:problem:not-found"
    # on its own tenant, its "carol" is another user: nothing of the first tenant's carol
    async with mcp_http(server, headers_of(intruder, "carol")) as session:
        own = data(await session.call_tool("recall", {"query": "door code"}))
    assert own["memories"] == []


async def test_stdio_server_against_a_running_server(
    server: ServeProcess, tenant: TenantCreated
) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "app.cli", "mcp"],
        env={
            **os.environ,
            "MEMLANE_URL": server.base_url,
            "MEMLANE_API_KEY": tenant.api_key,
            "MEMLANE_TENANT_ID": str(tenant.id),
            "MEMLANE_USER_ID": "dora",
            "MEMLANE_LOG_LEVEL": "WARNING",
        },
    )
    async with (
        stdio_client(params) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        assert {t.name for t in (await session.list_tools()).tools} == TOOLS
        data(await session.call_tool("remember", {"content": "Dora keeps bees", "type": "fact"}))
        got = data(await session.call_tool("recall", {"query": "what does Dora keep?"}))
        assert [m["content"] for m in got["memories"]] == ["Dora keeps bees"]
        other = problem(await session.call_tool("recall", {"query": "x", "user_id": "eve"}))
        assert other["type"] == "urn:memlane:problem:forbidden"


def test_stdio_server_needs_a_key_and_a_tenant() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMLANE_")}
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", "mcp"], env=env, capture_output=True, text=True
    )
    assert done.returncode == 2
    assert "--api-key and --tenant" in done.stderr
    assert done.stdout == ""  # stdout is the protocol channel: nothing else goes there


async def test_recall_and_context_take_agent_id_and_valid_at_and_refuse_unknown_arguments(
    server: ServeProcess, tenant: TenantCreated, client: Memlane
) -> None:
    client.user("ivy").remember("On trips Ivy wants an aisle seat", agent_id="travel")
    client.user("ivy").add_messages("s1", [("user", "Hello there")])
    seat = ["On trips Ivy wants an aisle seat"]
    async with mcp_http(server, headers_of(tenant, "ivy")) as session:
        tools = {t.name: t for t in (await session.list_tools()).tools}
        assert {"agent_id", "valid_at"} <= set(tools["recall"].inputSchema["properties"])
        assert "agent_id" in tools["get_context"].inputSchema["properties"]
        assert all(t.inputSchema.get("additionalProperties") is False for t in tools.values())

        query = {"query": "which seat on trips?"}
        mine = data(await session.call_tool("recall", {**query, "agent_id": "travel"}))
        assert [m["content"] for m in mine["memories"]] == seat
        assert data(await session.call_tool("recall", query))["memories"] == []
        past = {**query, "agent_id": "travel", "valid_at": "2020-01-01T00:00:00Z"}
        assert data(await session.call_tool("recall", past))["memories"] == []
        ctx = {"session_id": "s1", **query}
        with_agent = data(await session.call_tool("get_context", {**ctx, "agent_id": "travel"}))
        assert "aisle seat" in with_agent["text"]
        assert "aisle seat" not in data(await session.call_tool("get_context", ctx))["text"]

        unknown = await session.call_tool("recall", {**query, "valid_att": "2020-01-01"})
        assert unknown.isError
        text = unknown.content[0].text  # type: ignore[union-attr]
        assert "valid_att" in text and "Extra inputs are not permitted" in text


async def test_dot_segments_in_ids_are_refused_and_erase_nothing(
    server: ServeProcess, tenant: TenantCreated, client: Memlane
) -> None:
    # "…/memories/.." resolved by the HTTP client would be the user itself (erase), and a
    # user id ".." the tenant's own routes
    async with mcp_http(server, headers_of(tenant, "victim")) as session:
        data(await session.call_tool("remember", {"content": "Victim keeps bees"}))
        for memory_id in ("..", "."):
            refused = problem(await session.call_tool("forget", {"memory_id": memory_id}))
            assert refused["type"] == "urn:memlane:problem:validation-error"
        refused = problem(await session.call_tool("get_context", {"session_id": ".."}))
        assert refused["type"] == "urn:memlane:problem:validation-error"
    async with mcp_http(server, headers_of(tenant)) as session:
        refused = problem(
            await session.call_tool("remember", {"content": "to everyone", "user_id": ".."})
        )
        assert refused["type"] == "urn:memlane:problem:validation-error"
    assert [m.content for m in client.user("victim").memories()] == ["Victim keeps bees"]
