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


async def test_async_context_and_recall_take_agent_id_and_recall_valid_at(
    server: ServeProcess, tenant: TenantCreated
) -> None:
    async with AsyncMemlane(server.base_url, tenant.api_key, tenant_id=str(tenant.id)) as client:
        eve = client.user("eve")
        await eve.remember("On trips Eve wants an aisle seat", agent_id="travel")
        await eve.add_messages("s1", [("user", "Hello there")])
        mine = await eve.context("s1", query="which seat on trips?", agent_id="travel")
        assert "aisle seat" in mine.text
        assert "aisle seat" not in (await eve.context("s1", query="which seat on trips?")).text
        recalled = await eve.recall("which seat on trips?", agent_id="travel")
        assert [m.content for m in recalled.memories] == ["On trips Eve wants an aisle seat"]
        then = await eve.recall(
            "which seat on trips?", agent_id="travel", valid_at="2020-01-01T00:00:00Z"
        )
        assert then.memories == []
