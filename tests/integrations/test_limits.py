"""The rate limit of REST applies as it is to the SDK and to the MCP tools (same key, same
budget), against a real `memlane serve` started with a small limit."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from memlane_client import Memlane, MemlaneRateLimited, RetryPolicy

from tests.e2e.server import ServeProcess
from tests.integrations.conftest import SERVE_ENV
from tests.integrations.test_mcp import headers_of, mcp_http, problem

LIMIT_PER_MINUTE = 4


@pytest.fixture(scope="module")
def limited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    proc = ServeProcess(
        Path(tmp_path_factory.mktemp("limited")) / "memlane",
        env={**SERVE_ENV, "MEMLANE_RATE_LIMIT_PER_MINUTE": str(LIMIT_PER_MINUTE)},
    )
    proc.start()
    yield proc
    assert proc.stop() == 0


async def test_mcp_tools_and_rest_share_the_keys_budget(limited: ServeProcess) -> None:
    with Memlane(limited.base_url, limited.admin_key) as admin:
        tenant = admin.create_tenant("limited")
    async with mcp_http(limited, headers_of(tenant, "amy")) as session:
        for _ in range(LIMIT_PER_MINUTE):
            ok = await session.call_tool("recall", {"query": "anything"})
            assert not ok.isError, ok.content
        refused = problem(await session.call_tool("recall", {"query": "anything"}))
    assert refused["type"] == "urn:memlane:problem:rate-limited"
    assert refused["status"] == 429
    # the SDK on the same key meets the same limit; without retries it raises at once
    no_retry = RetryPolicy(max_retries=0)
    with (
        Memlane(limited.base_url, tenant.api_key, tenant_id=str(tenant.id), retry=no_retry) as c,
        pytest.raises(MemlaneRateLimited) as err,
    ):
        c.user("amy").recall("anything")
    assert err.value.type == "urn:memlane:problem:rate-limited"
    assert err.value.retry_after is not None and 0 < err.value.retry_after <= 60
