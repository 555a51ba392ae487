"""The agent scope through the HTTP API: one user's memories as one agent sees them
(docs/scopes.md). An agent reads the user's scope, its own agent scope and global, never another
agent's; another user or tenant reads none of it."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx


def contents(recalled: dict) -> list[str]:
    return [m["content"] for m in recalled["memories"]] + [
        c["content"] for c in recalled["constraints"]
    ]


@pytest.mark.parametrize(
    ("agent_fact", "user_fact", "query"),
    [
        ("用户在旅行时喜欢靠窗的座位", "我住在杭州", "旅行 座位"),
        ("On trips the user prefers a window seat", "I live in Porto", "trip seat preference"),
    ],
)
async def test_an_agent_sees_the_user_and_its_own_scope_never_another_agents(
    tenant: TenantCtx, other_tenant: TenantCtx, agent_fact: str, user_fact: str, query: str
) -> None:
    written = await tenant.remember("alice", agent_fact, agent_id="travel-bot")
    [memory] = written["memories"]
    assert (memory["scope"], memory["scope_id"]) == ("agent", "travel-bot")
    await tenant.remember("alice", user_fact)

    seen = contents(await tenant.recall("alice", query, agent_id="travel-bot", top_k=20))
    assert agent_fact in seen and user_fact in seen

    other_agent = contents(await tenant.recall("alice", query, agent_id="shop-bot", top_k=20))
    assert agent_fact not in other_agent and user_fact in other_agent
    no_agent = contents(await tenant.recall("alice", query, top_k=20))
    assert agent_fact not in no_agent and user_fact in no_agent

    # The same agent serving another user, and the same ids in another tenant: nothing.
    assert (await tenant.recall("bob", query, agent_id="travel-bot"))["memories"] == []
    r = await other_tenant.client.post(
        f"{tenant.user('alice')}/recall",
        json={"query": query, "agent_id": "travel-bot"},
        headers=other_tenant.headers,
    )
    assert r.status_code == 404
    assert (await other_tenant.recall("alice", query, agent_id="travel-bot"))["memories"] == []


async def test_scope_agent_with_scope_id_is_the_same_as_agent_id(tenant: TenantCtx) -> None:
    await tenant.remember(
        "alice",
        "Always greet the user in Portuguese",
        type="constraint",
        scope="agent",
        scope_id="concierge",
    )
    mine = await tenant.recall("alice", "greeting", agent_id="concierge")
    assert [c["content"] for c in mine["constraints"]] == ["Always greet the user in Portuguese"]
    assert [c["scope"] for c in mine["constraints"]] == ["agent"]
    # A constraint of one agent binds only that agent.
    assert (await tenant.recall("alice", "greeting", agent_id="other"))["constraints"] == []


@pytest.mark.parametrize(
    "body",
    [
        {"agent_id": "a1", "scope": "task", "scope_id": "t1"},
        {"agent_id": "a1", "scope": "agent", "scope_id": "a2"},
        {"agent_id": "a1", "scope": "user"},
        {"agent_id": "a1", "scope": "global"},
        {"scope": "agent"},
        {"scope": "tenant"},
        {"agent_id": "../x"},
    ],
)
async def test_bad_agent_writes_are_422(tenant: TenantCtx, body: dict) -> None:
    r = await tenant.client.post(
        f"{tenant.user('alice')}/memories",
        json={"content": "x", **body},
        headers=tenant.headers,
    )
    assert r.status_code == 422, r.text
    assert r.headers["content-type"] == "application/problem+json"


async def test_context_of_an_agent_carries_its_memories_not_another_agents(
    tenant: TenantCtx,
) -> None:
    await tenant.remember("alice", "用户的预算上限是五千元", agent_id="shopper")
    await tenant.remember("alice", "The user collects vinyl records", agent_id="music")
    await tenant.say("alice", "s1", "帮我看看预算")
    url = f"{tenant.user('alice')}/sessions/s1/context"
    r = await tenant.client.get(
        url, params={"query": "预算 budget", "agent_id": "shopper"}, headers=tenant.headers
    )
    assert r.status_code == 200, r.text
    assert "五千元" in r.json()["text"] and "vinyl" not in r.json()["text"]
    r = await tenant.client.get(
        url, params={"query": "预算 budget vinyl", "agent_id": "music"}, headers=tenant.headers
    )
    assert "vinyl" in r.json()["text"] and "五千元" not in r.json()["text"]


async def test_agent_id_with_the_same_explicit_agent_scope_is_accepted(tenant: TenantCtx) -> None:
    r = await tenant.client.post(
        f"{tenant.user('alice')}/memories?wait=true",
        json={"content": "x", "agent_id": "a1", "scope": "agent", "scope_id": "a1"},
        headers=tenant.headers,
    )
    assert r.status_code == 201, r.text
    [memory] = r.json()["memories"]
    assert (memory["scope"], memory["scope_id"]) == ("agent", "a1")
