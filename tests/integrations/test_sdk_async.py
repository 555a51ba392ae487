"""The async SDK against a real `memlane serve`."""

from __future__ import annotations

import pytest
from memlane_client import AsyncMemlane, MemlaneNotFound
from memlane_client.models import TenantCreated

from tests.e2e.server import ServeProcess


async def test_async_write_recall_iterate_and_errors(
    server: ServeProcess, tenant: TenantCreated
) -> None:
    async with AsyncMemlane(server.base_url, tenant.api_key, tenant_id=str(tenant.id)) as client:
        zoe = client.user("zoe")
        stored = await zoe.remember("I work at Acme as a data engineer", type="profile")
        assert [m.content for m in stored.memories] == ["I work at Acme as a data engineer"]
        await zoe.remember_many([{"content": f"Zoe's note {i}"} for i in range(4)])
        got = await zoe.recall("where do I work?", top_k=1)
        assert [m.content for m in got.memories] == ["I work at Acme as a data engineer"]
        seen = [m.content async for m in zoe.memories(page_size=2)]
        assert len(seen) == 5
        written = await zoe.add_messages("s9", [{"role": "user", "content": "I own a dog"}])
        assert written.job_id
        ctx = await zoe.context("s9", token_budget=300)
        assert "I own a dog" in ctx.text
        with pytest.raises(MemlaneNotFound):
            await zoe.get_memory("00000000-0000-0000-0000-000000000000")
