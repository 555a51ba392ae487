"""Explicit memory writes, reads, edits and deletion through the HTTP API."""

from __future__ import annotations

from tests.conftest import TenantCtx


async def test_write_returns_202_and_job_finishes(tenant: TenantCtx) -> None:
    r = await tenant.client.post(
        f"{tenant.user('u1')}/memories",
        json={"content": "I live in Lisbon"},
        headers=tenant.headers,
    )
    assert r.status_code == 202
    job = await tenant.finished_job(r.json()["job_id"])
    assert job["status"] == "done", job
    [memory_id] = job["result"]["memory_ids"]
    got = await tenant.client.get(
        f"{tenant.user('u1')}/memories/{memory_id}", headers=tenant.headers
    )
    assert got.status_code == 200
    assert got.json()["content"] == "I live in Lisbon"
    assert got.json()["embedding_model"]


async def test_wait_returns_the_stored_memory_with_defaults(tenant: TenantCtx) -> None:
    body = await tenant.remember(
        "u1", "My sister is called Ana", type="profile", occurred_at="2026-01-02T03:04:05+08:00"
    )
    [m] = body["memories"]
    assert m["content"] == "My sister is called Ana"
    assert m["type"] == "profile"
    assert m["source"] == "user_declared"
    assert m["confidence"] == 0.9
    assert m["status"] == "active"
    assert m["occurred_at"] == "2026-01-01T19:04:05Z"
    assert body["arbitrations"][0]["outcome"] == "stored"


async def test_same_content_twice_is_refreshed_not_duplicated(tenant: TenantCtx) -> None:
    first = await tenant.remember("u1", "I like green tea.")
    second = await tenant.remember("u1", "i like green tea")
    assert second["memories"][0]["id"] == first["memories"][0]["id"]
    assert second["memories"][0]["confirmations"] == 2
    assert second["arbitrations"][0]["rule"] == "duplicate"
    listed = (
        await tenant.client.get(f"{tenant.user('u1')}/memories", headers=tenant.headers)
    ).json()
    assert len(listed["items"]) == 1


async def test_idempotency_key_makes_retries_safe(tenant: TenantCtx) -> None:
    headers = {**tenant.headers, "Idempotency-Key": "write-42"}
    url = f"{tenant.user('u1')}/memories"
    a = await tenant.client.post(url, json={"content": "Budget is 300 euros"}, headers=headers)
    b = await tenant.client.post(url, json={"content": "Budget is 300 euros"}, headers=headers)
    assert a.status_code == b.status_code == 202
    assert a.json()["job_id"] == b.json()["job_id"]
    c = await tenant.client.post(url, json={"content": "Something else"}, headers=headers)
    assert c.status_code == 409
    assert c.headers["content-type"] == "application/problem+json"
    assert c.json()["type"] == "urn:memlane:problem:idempotency-key-reused"
    # a replay answers the job's status as it is now, not "queued" once it is done
    done = await tenant.finished_job(a.json()["job_id"])
    d = await tenant.client.post(url, json={"content": "Budget is 300 euros"}, headers=headers)
    assert d.status_code == 202 and d.json() == {"job_id": done["id"], "status": "done"}


async def test_list_paginates_with_cursor_and_filters(tenant: TenantCtx) -> None:
    for i in range(5):
        await tenant.remember("u2", f"fact number {i}", type="fact" if i % 2 else "event")
    url = f"{tenant.user('u2')}/memories"
    page1 = (await tenant.client.get(url, params={"limit": 2}, headers=tenant.headers)).json()
    assert len(page1["items"]) == 2 and page1["next_cursor"]
    page2 = (
        await tenant.client.get(
            url, params={"limit": 2, "cursor": page1["next_cursor"]}, headers=tenant.headers
        )
    ).json()
    page3 = (
        await tenant.client.get(
            url, params={"limit": 2, "cursor": page2["next_cursor"]}, headers=tenant.headers
        )
    ).json()
    contents = [m["content"] for p in (page1, page2, page3) for m in p["items"]]
    assert sorted(contents) == [f"fact number {i}" for i in range(5)]
    assert page3["next_cursor"] is None
    events = (await tenant.client.get(url, params={"type": "event"}, headers=tenant.headers)).json()
    assert {m["content"] for m in events["items"]} == {
        "fact number 0",
        "fact number 2",
        "fact number 4",
    }
    bad = await tenant.client.get(url, params={"cursor": "not-a-cursor"}, headers=tenant.headers)
    assert bad.status_code == 422


async def test_patch_changes_content_and_records_history(tenant: TenantCtx) -> None:
    [m] = (await tenant.remember("u3", "I drive a blue car"))["memories"]
    url = f"{tenant.user('u3')}/memories/{m['id']}"
    r = await tenant.client.patch(
        url, json={"content": "I drive a red car", "confidence": 0.6}, headers=tenant.headers
    )
    assert r.status_code == 200
    new = r.json()
    # A new content is a new version: the edited memory is frozen and superseded by it.
    assert new["content"] == "I drive a red car" and new["confidence"] == 0.6
    assert new["id"] != m["id"] and new["supersedes"] == m["id"] and new["status"] == "active"
    hist = (await tenant.client.get(f"{url}/history", headers=tenant.headers)).json()
    assert [x["id"] for x in hist["chain"]] == [m["id"], new["id"]]
    assert [x["status"] for x in hist["chain"]] == ["frozen", "active"]
    assert [(e["memory_id"], e["action"]) for e in hist["entries"]] == [
        (m["id"], "create"),
        (new["id"], "create"),
        (m["id"], "supersede"),
    ]
    assert hist["entries"][2]["old"]["content"] == "I drive a blue car"
    recalled = await tenant.recall("u3", "what colour is my car")
    assert [x["content"] for x in recalled["memories"]] == ["I drive a red car"]


async def test_delete_erases_content_and_leaves_recall(tenant: TenantCtx) -> None:
    [m] = (await tenant.remember("u4", "My locker code is 4417"))["memories"]
    url = f"{tenant.user('u4')}/memories/{m['id']}"
    assert (await tenant.client.delete(url, headers=tenant.headers)).status_code == 204
    assert (await tenant.client.get(url, headers=tenant.headers)).status_code == 404
    assert (await tenant.client.delete(url, headers=tenant.headers)).status_code == 404
    assert (await tenant.recall("u4", "locker code"))["memories"] == []
    hist = (await tenant.client.get(f"{url}/history", headers=tenant.headers)).json()
    assert [e["action"] for e in hist["entries"]] == ["create", "delete"]
    assert "4417" not in str(hist)
