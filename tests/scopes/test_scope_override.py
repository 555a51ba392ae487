"""``scope_override`` through the HTTP API (docs/scopes.md): a recall in task A reads task B (or
another session) only with the explicit request field *and* a key carrying recall:override, and
every such recall leaves an audit row naming the key, the scopes and what came back."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import TenantCtx


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


async def key_with(t: TenantCtx, *scopes: str) -> tuple[str, dict[str, str]]:
    r = await t.client.post(
        f"/v1/tenants/{t.id}/keys", json={"scopes": list(scopes)}, headers=t.headers
    )
    assert r.status_code == 201, r.text
    return r.json()["id"], bearer(r.json()["api_key"])


async def recall_as(t: TenantCtx, headers: dict[str, str], user: str, body: dict[str, Any]) -> Any:
    return await t.client.post(f"{t.user(user)}/recall", json=body, headers=headers)


def contents(body: dict[str, Any]) -> list[str]:
    return [m["content"] for m in body["memories"]] + [c["content"] for c in body["constraints"]]


@pytest.mark.parametrize(
    ("fact_a", "fact_b", "query"),
    [
        ("任务A：客户预算是十万元", "任务B：客户预算是三万元", "客户预算"),
        ("Task A: the client's budget is 100k", "Task B: the client's budget is 30k", "budget"),
    ],
)
async def test_task_b_is_read_only_with_the_field_and_the_key_scope_and_audited(
    tenant: TenantCtx, fact_a: str, fact_b: str, query: str
) -> None:
    await tenant.remember("alice", fact_a, scope="task", scope_id="A")
    await tenant.remember("alice", fact_b, scope="task", scope_id="B")
    reader_id, reader = await key_with(tenant, "memories:read")
    auditor_id, auditor = await key_with(tenant, "memories:read", "recall:override")

    # In task A, task B does not exist.
    plain = await recall_as(tenant, reader, "alice", {"query": query, "task_id": "A"})
    assert fact_a in contents(plain.json()) and fact_b not in contents(plain.json())

    override = {
        "query": query,
        "task_id": "A",
        "scope_override": [{"scope": "task", "scope_id": "B"}],
    }
    # The field without the key scope: refused, nothing read, nothing audited.
    refused = await recall_as(tenant, reader, "alice", override)
    assert refused.status_code == 403, refused.text
    assert refused.json()["type"] == "urn:memlane:problem:insufficient-scope"
    assert "recall:override" in refused.headers["WWW-Authenticate"]
    audit = await tenant.client.get(f"{tenant.user('alice')}/scope-reads", headers=tenant.headers)
    assert audit.json()["items"] == []

    # The key scope without the field: still task A only.
    same = await recall_as(tenant, auditor, "alice", {"query": query, "task_id": "A"})
    assert fact_b not in contents(same.json())

    allowed = await recall_as(tenant, auditor, "alice", override)
    assert allowed.status_code == 200, allowed.text
    by_content = {m["content"]: m for m in allowed.json()["memories"]}
    assert fact_a in by_content and fact_b in by_content
    assert by_content[fact_b]["scope_id"] == "B"

    audit = await tenant.client.get(f"{tenant.user('alice')}/scope-reads", headers=tenant.headers)
    [entry] = audit.json()["items"]
    assert entry["actor"] == f"key:{auditor_id}" and entry["actor"] != f"key:{reader_id}"
    assert entry["scopes"] == [{"scope": "task", "scope_id": "B"}]
    assert entry["memory_ids"] == [by_content[fact_b]["id"]]
    assert entry["request_id"] == allowed.headers["X-Request-ID"]
    # bob's audit holds nothing of alice's reads.
    bob_audit = await tenant.client.get(f"{tenant.user('bob')}/scope-reads", headers=tenant.headers)
    assert bob_audit.json()["items"] == []


async def test_another_session_by_override_and_never_another_users(tenant: TenantCtx) -> None:
    await tenant.remember("alice", "这次出差住在希尔顿酒店", scope="session", scope_id="trip-1")
    await tenant.remember(
        "bob", "This trip I stay at the Hilton", scope="session", scope_id="trip-1"
    )
    _, auditor = await key_with(tenant, "memories:read", "recall:override")
    body = {
        "query": "酒店 hotel Hilton 希尔顿",
        "session_id": "trip-2",
        "top_k": 20,
        "scope_override": [{"scope": "session", "scope_id": "trip-1"}],
    }
    plain = await tenant.recall("alice", body["query"], session_id="trip-2", top_k=20)
    assert contents(plain) == []
    alice = (await recall_as(tenant, auditor, "alice", body)).json()
    assert contents(alice) == ["这次出差住在希尔顿酒店"]
    # The override names a scope of the path's user only: bob's session of that id stays his.
    carol = (await recall_as(tenant, auditor, "carol", body)).json()
    assert contents(carol) == []
    audit = await tenant.client.get(f"{tenant.user('carol')}/scope-reads", headers=tenant.headers)
    [entry] = audit.json()["items"]
    assert entry["memory_ids"] == []


async def test_override_of_another_tenant_reads_nothing(
    tenant: TenantCtx, other_tenant: TenantCtx
) -> None:
    await tenant.remember("alice", "Task B: ship on Friday", scope="task", scope_id="B")
    body = {"query": "ship", "scope_override": [{"scope": "task", "scope_id": "B"}]}
    # The other tenant's first key carries every scope, recall:override included.
    r = await recall_as(other_tenant, other_tenant.headers, "alice", body)
    assert r.status_code == 200 and contents(r.json()) == []
    r = await other_tenant.client.post(
        f"{tenant.user('alice')}/recall", json=body, headers=other_tenant.headers
    )
    assert r.status_code == 404


@pytest.mark.parametrize(
    "override",
    [
        [],
        [{"scope": "user", "scope_id": "x"}],
        [{"scope": "agent", "scope_id": "x"}],
        [{"scope": "task"}],
        [{"scope": "task", "scope_id": "B", "extra": 1}],
        [{"scope": "task", "scope_id": f"t{i}"} for i in range(11)],
    ],
)
async def test_malformed_overrides_are_422(tenant: TenantCtx, override: list) -> None:
    r = await tenant.client.post(
        f"{tenant.user('alice')}/recall",
        json={"query": "q", "scope_override": override},
        headers=tenant.headers,
    )
    assert r.status_code == 422, r.text
