"""Isolation: two tenants × two users sharing the same user_id strings, on every endpoint."""

from __future__ import annotations

import httpx
import pytest

from tests.conftest import new_tenant


@pytest.fixture
async def world(client: httpx.AsyncClient) -> dict[str, object]:
    a, b = await new_tenant(client, "A"), await new_tenant(client, "B")
    ids = {}
    for t, name in ((a, "A"), (b, "B")):
        for user in ("alice", "bob"):
            body = await t.remember(user, f"secret plan of {name}-{user}: the vault code")
            ids[(name, user)] = body["memories"][0]["id"]
    return {"A": a, "B": b, "ids": ids}


async def test_recall_sees_only_its_own_user(world: dict) -> None:
    a, b = world["A"], world["B"]
    for t, name in ((a, "A"), (b, "B")):
        for user in ("alice", "bob"):
            got = await t.recall(user, "vault code secret plan")
            assert [m["content"] for m in got["memories"]] == [
                f"secret plan of {name}-{user}: the vault code"
            ]


async def test_other_tenants_key_gets_404_everywhere(world: dict) -> None:
    a, b = world["A"], world["B"]
    mine = world["ids"][("A", "alice")]
    base = f"/v1/tenants/{a.id}/users/alice"
    calls = [
        ("POST", f"{base}/memories", {"content": "x"}),
        ("GET", f"{base}/memories", None),
        ("GET", f"{base}/memories/{mine}", None),
        ("PATCH", f"{base}/memories/{mine}", {"content": "hacked"}),
        ("DELETE", f"{base}/memories/{mine}", None),
        ("GET", f"{base}/memories/{mine}/history", None),
        ("GET", f"{base}/arbitrations", None),
        ("POST", f"{base}/recall", {"query": "vault"}),
        ("POST", f"{base}/sessions/s1/messages", {"messages": [{"role": "user", "content": "hi"}]}),
        ("GET", f"/v1/tenants/{a.id}/keys", None),
        ("POST", f"/v1/tenants/{a.id}/keys", {"name": "steal"}),
    ]
    for method, url, body in calls:
        r = await b.client.request(method, url, json=body, headers=b.headers)
        assert r.status_code == 404, (method, url, r.status_code)
        assert r.json()["type"] == "urn:memlane:problem:not-found"
        assert "vault" not in r.text
    # A tenant that does not exist answers exactly the same.
    ghost = "/v1/tenants/00000000-0000-0000-0000-000000000000/users/alice/memories"
    r = await b.client.get(ghost, headers=b.headers)
    assert r.status_code == 404 and r.json()["detail"] == "no such tenant"
    # Nothing changed for A.
    got = await a.recall("alice", "vault")
    assert got["memories"][0]["content"] == "secret plan of A-alice: the vault code"


async def test_other_users_memory_id_is_not_found(world: dict) -> None:
    a = world["A"]
    bobs = world["ids"][("A", "bob")]
    for method in ("GET", "PATCH", "DELETE"):
        r = await a.client.request(
            method,
            f"{a.user('alice')}/memories/{bobs}",
            json={"content": "x"} if method == "PATCH" else None,
            headers=a.headers,
        )
        assert r.status_code == 404
    r = await a.client.get(f"{a.user('alice')}/memories/{bobs}/history", headers=a.headers)
    assert r.status_code == 404


async def test_jobs_of_another_tenant_are_not_found(world: dict, client: httpx.AsyncClient) -> None:
    a, b = world["A"], world["B"]
    r = await client.post(
        f"{a.user('alice')}/memories", json={"content": "job probe"}, headers=a.headers
    )
    job_id = r.json()["job_id"]
    assert (await client.get(f"/v1/jobs/{job_id}", headers=a.headers)).status_code == 200
    other = await client.get(f"/v1/jobs/{job_id}", headers=b.headers)
    assert other.status_code == 404 and "job probe" not in other.text


async def test_missing_revoked_and_admin_keys(
    world: dict, client: httpx.AsyncClient, admin_headers: dict
) -> None:
    a = world["A"]
    url = f"{a.user('alice')}/memories"
    assert (await client.get(url)).status_code == 401
    assert (await client.get(url, headers={"Authorization": "Bearer nope"})).status_code == 401
    r = await client.get(url, headers=admin_headers)
    assert r.status_code == 403 and r.json()["type"] == "urn:memlane:problem:forbidden"
    created = (
        await client.post(f"/v1/tenants/{a.id}/keys", json={"name": "temp"}, headers=a.headers)
    ).json()
    temp = {"Authorization": f"Bearer {created['api_key']}"}
    assert (await client.get(url, headers=temp)).status_code == 200
    listed = (await client.get(f"/v1/tenants/{a.id}/keys", headers=a.headers)).json()
    assert all("api_key" not in k for k in listed)
    assert created["api_key"] not in str(listed)
    assert (
        await client.delete(f"/v1/tenants/{a.id}/keys/{created['id']}", headers=a.headers)
    ).status_code == 204
    assert (await client.get(url, headers=temp)).status_code == 401
    # tenant keys cannot create tenants
    assert (
        await client.post("/v1/tenants", json={"name": "x"}, headers=a.headers)
    ).status_code == 403
