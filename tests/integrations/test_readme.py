"""The README's SDK, LangGraph and MCP examples, run exactly as printed against a real
`memlane serve` (the environment variables they read point at it)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import httpx
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from memlane_client.models import TenantCreated

from tests.e2e.server import ServeProcess

README = Path(__file__).resolve().parents[2] / "README.md"
VAR = re.compile(r"\$\{(\w+)(?::-([^}]*))?\}")


def example(name: str) -> str:
    """The fenced block right after ``<!-- example: name -->`` in the README."""
    match = re.search(
        rf"<!-- example: {name} -->\n```\w+\n(.*?)\n```", README.read_text(), re.DOTALL
    )
    assert match, f"README has no example {name!r}"
    return match.group(1)


def env_for(server: ServeProcess, tenant: TenantCreated) -> dict[str, str]:
    return {
        **os.environ,
        "MEMLANE_URL": server.base_url,
        "MEMLANE_API_KEY": tenant.api_key,
        "MEMLANE_TENANT_ID": str(tenant.id),
    }


def run_python(code: str, env: dict[str, str]) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_examples_are_five_lines_or_fewer() -> None:
    for name in ("sdk", "langgraph", "mcp"):
        lines = [line for line in example(name).splitlines() if line.strip()]
        assert len(lines) <= 5, (name, lines)


def test_sdk_example(server: ServeProcess, tenant: TenantCreated) -> None:
    assert run_python(example("sdk"), env_for(server, tenant)) == "I live in Lisbon\n"


def test_langgraph_example(server: ServeProcess, tenant: TenantCreated) -> None:
    out = run_python(example("langgraph"), env_for(server, tenant))
    assert out == "Alice prefers aisle seats\n"


async def test_mcp_example(server: ServeProcess, tenant: TenantCreated) -> None:
    env = env_for(server, tenant)

    def expand(text: str) -> str:
        # ${VAR} and ${VAR:-default}, as MCP clients expand them in their configuration
        return VAR.sub(lambda m: env.get(m.group(1)) or (m.group(2) or ""), text)

    config = json.loads(example("mcp"))
    entry = config["mcpServers"]["memlane"]
    assert entry["type"] == "http"
    url = expand(entry["url"])
    headers = {k: expand(v) for k, v in entry["headers"].items()}
    async with (
        httpx.AsyncClient(headers=headers, timeout=60) as http,
        streamable_http_client(url, http_client=http) as (read, write, _),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        stored = await session.call_tool("remember", {"content": "Alice speaks Portuguese"})
        assert not stored.isError, stored.content
        got = await session.call_tool("recall", {"query": "which language does Alice speak?"})
    assert not got.isError, got.content
    assert got.structuredContent is not None
    assert [m["content"] for m in got.structuredContent["memories"]] == ["Alice speaks Portuguese"]
