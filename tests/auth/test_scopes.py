"""API key scopes, user-bound keys and expiring keys, through the HTTP API (docs/api-keys.md).

The per-route table (every operation refuses a key without its scope) is in
tests/security/test_access_matrix.py; this file follows what a tenant does with its keys.
"""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import httpx

from app.auth.principal import ALL_SCOPES
from tests.conftest import ADMIN_KEY, TenantCtx

PROBLEM_JSON = "application/problem+json"


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


async def new_key(t: TenantCtx, status: int = 201, **body: Any) -> dict[str, Any]:
    r = await t.client.post(f"/v1/tenants/{t.id}/keys", json=body, headers=t.headers)
    assert r.status_code == status, r.text
    return r.json()


def assert_problem(r: httpx.Response, status: int, slug: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    assert r.headers["content-type"] == PROBLEM_JSON
    problem: dict[str, Any] = r.json()
    assert problem["type"] == f"urn:memlane:problem:{slug}", problem
    return problem


async def test_the_first_key_has_every_scope_and_new_keys_default_to_the_creators(
    tenant: TenantCtx,
) -> None:
    listed = await tenant.client.get(f"/v1/tenants/{tenant.id}/keys", headers=tenant.headers)
    assert listed.status_code == 200
    [first] = listed.json()
    assert first["scopes"] == list(ALL_SCOPES)
    assert first["user_id"] is None and first["expires_at"] is None
    # no scopes asked: the creator's own
    assert (await new_key(tenant, name="like me"))["scopes"] == list(ALL_SCOPES)
    reader = await new_key(tenant, scopes=["memories:read", "keys:manage"])
    assert reader["scopes"] == ["memories:read", "keys:manage"]
    made_by_reader = await tenant.client.post(
        f"/v1/tenants/{tenant.id}/keys", json={"name": "child"}, headers=bearer(reader["api_key"])
    )
    assert made_by_reader.status_code == 201
    assert made_by_reader.json()["scopes"] == ["memories:read", "keys:manage"]


async def test_a_read_only_key_recalls_but_cannot_write(tenant: TenantCtx) -> None:
    await tenant.remember("alice", "I live in Porto", type="fact")
    reader = bearer((await new_key(tenant, scopes=["memories:read"]))["api_key"])
    client, base = tenant.client, tenant.user("alice")

    recalled = await client.post(f"{base}/recall", json={"query": "Porto"}, headers=reader)
    assert recalled.status_code == 200, recalled.text
    assert [m["content"] for m in recalled.json()["memories"]] == ["I live in Porto"]
    listed = await client.get(f"{base}/memories", headers=reader)
    assert listed.status_code == 200 and len(listed.json()["items"]) == 1

    write = await client.post(
        f"{base}/memories", json={"content": "I live in Lisbon"}, headers=reader
    )
    problem = assert_problem(write, 403, "insufficient-scope")
    assert "memories:write" in problem["detail"]
    assert write.headers["www-authenticate"] == (
        'Bearer error="insufficient_scope", scope="memories:write"'
    )
    said = await client.post(
        f"{base}/sessions/s1/messages",
        json={"messages": [{"role": "user", "content": "I moved to Lisbon"}]},
        headers=reader,
    )
    assert_problem(said, 403, "insufficient-scope")
    memory_id = listed.json()["items"][0]["id"]
    deleted = await client.delete(f"{base}/memories/{memory_id}", headers=reader)
    assert_problem(deleted, 403, "insufficient-scope")
    erased = await client.delete(base, headers=reader)
    assert_problem(erased, 403, "insufficient-scope")
    keys = await client.get(f"/v1/tenants/{tenant.id}/keys", headers=reader)
    assert_problem(keys, 403, "insufficient-scope")

    # nothing the read-only key sent was stored
    after = await client.get(f"{base}/memories", headers=tenant.headers)
    assert [m["content"] for m in after.json()["items"]] == ["I live in Porto"]


async def test_a_write_only_key_cannot_read(tenant: TenantCtx) -> None:
    writer = bearer((await new_key(tenant, scopes=["memories:write"]))["api_key"])
    base = tenant.user("alice")
    written = await tenant.client.post(
        f"{base}/memories?wait=true", json={"content": "I like tea"}, headers=writer
    )
    assert written.status_code == 201, written.text
    job = await tenant.client.get(f"/v1/jobs/{written.json()['job_id']}", headers=writer)
    assert job.status_code == 200 and job.json()["status"] == "done"
    r = await tenant.client.post(f"{base}/recall", json={"query": "tea"}, headers=writer)
    assert_problem(r, 403, "insufficient-scope")


async def test_reveal_needs_its_own_scope(tenant: TenantCtx) -> None:
    written = await tenant.remember("alice", "My password is hunter2xyz", type="fact")
    memory_id = written["memories"][0]["id"]
    url = f"{tenant.user('alice')}/memories/{memory_id}/reveal"
    everyday = bearer(
        (await new_key(tenant, scopes=["memories:read", "memories:write"]))["api_key"]
    )
    r = await tenant.client.post(url, headers=everyday)
    assert_problem(r, 403, "insufficient-scope")
    assert "hunter2xyz" not in r.text
    revealer = bearer((await new_key(tenant, scopes=["memories:reveal"]))["api_key"])
    r = await tenant.client.post(url, headers=revealer)
    assert r.status_code == 200 and "hunter2xyz" in r.text


async def test_keys_without_keys_manage_cannot_create_or_revoke_keys(tenant: TenantCtx) -> None:
    plain = await new_key(tenant, scopes=["memories:read", "memories:write"])
    victim = await new_key(tenant, name="victim")
    headers = bearer(plain["api_key"])
    url = f"/v1/tenants/{tenant.id}/keys"
    assert_problem(
        await tenant.client.post(url, json={}, headers=headers), 403, "insufficient-scope"
    )
    r = await tenant.client.delete(f"{url}/{victim['id']}", headers=headers)
    assert_problem(r, 403, "insufficient-scope")
    r = await tenant.client.delete(f"{url}/{plain['id']}", headers=headers)  # not even itself
    assert_problem(r, 403, "insufficient-scope")
    # both keys still work
    for key in (plain, victim):
        r = await tenant.client.get(
            f"{tenant.user('alice')}/memories", headers=bearer(key["api_key"])
        )
        assert r.status_code == 200


async def test_a_key_cannot_grant_scopes_it_lacks(tenant: TenantCtx) -> None:
    manager = bearer((await new_key(tenant, scopes=["keys:manage", "memories:read"]))["api_key"])
    r = await tenant.client.post(
        f"/v1/tenants/{tenant.id}/keys",
        json={"scopes": ["memories:read", "memories:write"]},
        headers=manager,
    )
    problem = assert_problem(r, 403, "insufficient-scope")
    assert "memories:write" in problem["detail"]
    r = await tenant.client.post(
        f"/v1/tenants/{tenant.id}/keys", json={"scopes": ["memories:delete-all"]}, headers=manager
    )
    assert_problem(r, 422, "validation-error")
    r = await tenant.client.post(
        f"/v1/tenants/{tenant.id}/keys", json={"scopes": []}, headers=manager
    )
    assert_problem(r, 422, "validation-error")


async def test_the_last_keys_manage_key_cannot_be_revoked(tenant: TenantCtx) -> None:
    client, url = tenant.client, f"/v1/tenants/{tenant.id}/keys"
    [first] = (await client.get(url, headers=tenant.headers)).json()

    # the lock-out of issue "one leaked key revokes every key": refused
    r = await client.delete(f"{url}/{first['id']}", headers=tenant.headers)
    problem = assert_problem(r, 409, "last-key-manager")
    assert "keys:manage" in problem["detail"]
    # keys without keys:manage do not count as a replacement, nor does an expired manager
    reader = await new_key(tenant, scopes=["memories:read"])
    await new_key(tenant, scopes=["keys:manage"], expires_in_s=1)
    await asyncio.sleep(1.2)
    assert_problem(
        await client.delete(f"{url}/{first['id']}", headers=tenant.headers), 409, "last-key-manager"
    )
    # the read-only key itself is revocable
    assert (await client.delete(f"{url}/{reader['id']}", headers=tenant.headers)).status_code == 204

    # with a second manager, the first can go (here: revoking itself)
    second = await new_key(tenant, name="second", scopes=["keys:manage"])
    assert (await client.delete(f"{url}/{first['id']}", headers=tenant.headers)).status_code == 204
    r = await client.get(f"{tenant.user('alice')}/memories", headers=tenant.headers)
    assert_problem(r, 401, "unauthorized")
    # now the second is the last one
    r = await client.delete(f"{url}/{second['id']}", headers=bearer(second["api_key"]))
    assert_problem(r, 409, "last-key-manager")
    # the admin key is held to the same rule
    r = await client.delete(f"{url}/{second['id']}", headers=bearer(ADMIN_KEY))
    assert_problem(r, 409, "last-key-manager")


async def test_two_managers_revoking_each_other_at_once_leave_one(tenant: TenantCtx) -> None:
    client, url = tenant.client, f"/v1/tenants/{tenant.id}/keys"
    [first] = (await client.get(url, headers=tenant.headers)).json()
    second = await new_key(tenant)  # every scope: it may revoke the first
    answers = await asyncio.gather(
        client.delete(f"{url}/{second['id']}", headers=tenant.headers),
        client.delete(f"{url}/{first['id']}", headers=bearer(second["api_key"])),
    )
    statuses = sorted(r.status_code for r in answers)
    # one revocation wins; the other is refused, as the last manager or as a revoked caller
    assert statuses[0] == 204 and statuses[1] in (401, 409), [r.text for r in answers]
    admin = bearer(ADMIN_KEY)
    left = [k for k in (await client.get(url, headers=admin)).json() if k["revoked_at"] is None]
    assert len(left) == 1 and "keys:manage" in left[0]["scopes"]


async def test_a_user_bound_key_reaches_only_its_user(
    tenant: TenantCtx, other_tenant: TenantCtx
) -> None:
    await tenant.remember("alice", "alice likes green tea", type="preference")
    await tenant.remember("bob", "bob likes black coffee", type="preference")
    link = await new_key(tenant, name="vault link", user_id="alice", expires_in_s=3600)
    assert link["user_id"] == "alice"
    assert link["scopes"] == ["memories:read", "memories:write"]
    assert link["expires_at"] is not None
    client, headers = tenant.client, bearer(link["api_key"])

    own = await client.post(
        f"{tenant.user('alice')}/recall", json={"query": "tea"}, headers=headers
    )
    assert own.status_code == 200
    assert [m["content"] for m in own.json()["memories"]] == ["alice likes green tea"]
    written = await client.post(
        f"{tenant.user('alice')}/memories?wait=true",
        json={"content": "alice likes oolong"},
        headers=headers,
    )
    assert written.status_code == 201, written.text

    # bob: 404, the same answer as for a user that does not exist
    bobs = await client.get(f"{tenant.user('bob')}/memories", headers=headers)
    assert_problem(bobs, 404, "not-found")
    assert "coffee" not in bobs.text
    nobody = await client.get(f"{tenant.user('u-' + uuid.uuid4().hex)}/memories", headers=headers)
    assert {k: v for k, v in bobs.json().items() if k not in ("instance", "request_id")} == {
        k: v for k, v in nobody.json().items() if k not in ("instance", "request_id")
    }
    r = await client.post(f"{tenant.user('bob')}/recall", json={"query": "coffee"}, headers=headers)
    assert_problem(r, 404, "not-found")
    # another tenant's paths: 404 as for any key of another tenant
    r = await client.get(f"{other_tenant.user('alice')}/memories", headers=headers)
    assert_problem(r, 404, "not-found")
    # its own user's job: readable (the receipt of its write)
    job = await client.get(f"/v1/jobs/{written.json()['job_id']}", headers=headers)
    assert job.status_code == 200, job.text
    assert job.json()["id"] == written.json()["job_id"] and job.json()["status"] == "done"
    # another user's job: 404, as for a job that does not exist
    bobs_write = await client.post(
        f"{tenant.user('bob')}/memories", json={"content": "bob likes tea"}, headers=tenant.headers
    )
    assert bobs_write.status_code == 202, bobs_write.text
    r = await client.get(f"/v1/jobs/{bobs_write.json()['job_id']}", headers=headers)
    assert_problem(r, 404, "not-found")
    r = await client.get(f"/v1/jobs/{uuid.uuid4()}", headers=headers)
    assert_problem(r, 404, "not-found")
    # a user-bound key without memories:write: refused
    reader_link = await new_key(tenant, user_id="alice", scopes=["memories:read"])
    r = await client.get(
        f"/v1/jobs/{written.json()['job_id']}", headers=bearer(reader_link["api_key"])
    )
    assert_problem(r, 403, "insufficient-scope")
    # the tenant's keys: refused
    keys = await client.get(f"/v1/tenants/{tenant.id}/keys", headers=headers)
    assert_problem(keys, 403, "insufficient-scope")


async def test_a_user_bound_key_cannot_manage_keys(tenant: TenantCtx) -> None:
    r = await tenant.client.post(
        f"/v1/tenants/{tenant.id}/keys",
        json={"user_id": "alice", "scopes": ["memories:read", "keys:manage"]},
        headers=tenant.headers,
    )
    problem = assert_problem(r, 422, "validation-error")
    assert "keys:manage" in problem["detail"]
    r = await tenant.client.post(
        f"/v1/tenants/{tenant.id}/keys", json={"user_id": "not a valid id!"}, headers=tenant.headers
    )
    assert_problem(r, 422, "validation-error")


async def test_a_user_bound_key_cannot_set_its_users_attributes(tenant: TenantCtx) -> None:
    # Attributes pick the tenant's templates a user reads: with tenant:write, a vault link
    # could give its own user another company's domain and recall that company's templates.
    r = await tenant.client.put(
        f"/v1/tenants/{tenant.id}/templates/acme",
        json={"attribute": "domain", "equals": "acme.com"},
        headers=tenant.headers,
    )
    assert r.status_code == 200, r.text
    r = await tenant.client.post(
        f"/v1/tenants/{tenant.id}/keys",
        json={"user_id": "eve", "scopes": ["memories:read", "tenant:write"]},
        headers=tenant.headers,
    )
    problem = assert_problem(r, 422, "validation-error")
    assert "tenant:write" in problem["detail"]
    listed = await tenant.client.get(f"{tenant.user('eve')}/attributes", headers=tenant.headers)
    assert listed.json()["templates"] == []


async def test_an_expired_key_is_401_like_an_unknown_one(tenant: TenantCtx) -> None:
    short = await new_key(tenant, name="short", expires_in_s=1)
    url = f"{tenant.user('alice')}/memories"
    assert (await tenant.client.get(url, headers=bearer(short["api_key"]))).status_code == 200
    await asyncio.sleep(1.2)
    expired = await tenant.client.get(url, headers=bearer(short["api_key"]))
    assert_problem(expired, 401, "unauthorized")
    unknown = await tenant.client.get(url, headers=bearer("mlk_" + uuid.uuid4().hex))
    assert expired.json()["detail"] == unknown.json()["detail"]
    assert expired.headers["www-authenticate"] == "Bearer"
    # still listed (not revoked), with its expiry, and revocable
    listed = (
        await tenant.client.get(f"/v1/tenants/{tenant.id}/keys", headers=tenant.headers)
    ).json()
    [mine] = [k for k in listed if k["id"] == short["id"]]
    assert mine["expires_at"] == short["expires_at"] and mine["revoked_at"] is None
    r = await tenant.client.delete(
        f"/v1/tenants/{tenant.id}/keys/{short['id']}", headers=tenant.headers
    )
    assert r.status_code == 204
    r = await tenant.client.post(
        f"/v1/tenants/{tenant.id}/keys", json={"expires_in_s": 0}, headers=tenant.headers
    )
    assert_problem(r, 422, "validation-error")
    # a boolean is not a lifetime (pydantic's lax mode read true as a key of one second)
    r = await tenant.client.post(
        f"/v1/tenants/{tenant.id}/keys", json={"expires_in_s": True}, headers=tenant.headers
    )
    assert_problem(r, 422, "validation-error")


async def test_an_expiring_manager_does_not_count_toward_the_last_key_manager(
    tenant: TenantCtx,
) -> None:
    client, url = tenant.client, f"/v1/tenants/{tenant.id}/keys"
    [first] = (await client.get(url, headers=tenant.headers)).json()
    # a full-scope key that expires in 1 s is no replacement for the first key
    short = await new_key(tenant, expires_in_s=1)
    problem = assert_problem(
        await client.delete(f"{url}/{first['id']}", headers=bearer(short["api_key"])),
        409,
        "last-key-manager",
    )
    assert "non-expiring" in problem["detail"]
    await asyncio.sleep(2)
    # the tenant still has a working key
    r = await client.get(f"{tenant.user('alice')}/memories", headers=tenant.headers)
    assert r.status_code == 200
    # a lasting manager is: then the first may go
    lasting = await new_key(tenant, name="lasting")
    r = await client.delete(f"{url}/{first['id']}", headers=bearer(lasting["api_key"]))
    assert r.status_code == 204


async def test_a_key_revokes_only_keys_no_stronger_than_itself(tenant: TenantCtx) -> None:
    client, url = tenant.client, f"/v1/tenants/{tenant.id}/keys"
    manager_only = await new_key(tenant, scopes=["keys:manage"])
    strong = await new_key(tenant, name="strong")  # every scope
    reader = await new_key(tenant, scopes=["memories:read"])
    headers = bearer(manager_only["api_key"])
    r = await client.delete(f"{url}/{strong['id']}", headers=headers)
    problem = assert_problem(r, 403, "insufficient-scope")
    assert "memories:reveal" in problem["detail"]
    assert (
        await client.get(f"{tenant.user('alice')}/memories", headers=bearer(strong["api_key"]))
    ).status_code == 200
    # a key whose scopes it lacks too (memories:read): refused as well
    assert_problem(
        await client.delete(f"{url}/{reader['id']}", headers=headers), 403, "insufficient-scope"
    )
    # a key with a subset of its scopes: revocable
    peer = await new_key(tenant, scopes=["keys:manage"])
    assert (await client.delete(f"{url}/{peer['id']}", headers=headers)).status_code == 204
    # the full key revokes the weaker one
    r = await client.delete(f"{url}/{reader['id']}", headers=bearer(strong["api_key"]))
    assert r.status_code == 204


async def test_repeated_scopes_are_refused(tenant: TenantCtx) -> None:
    r = await tenant.client.post(
        f"/v1/tenants/{tenant.id}/keys",
        json={"scopes": ["memories:read", "memories:read"]},
        headers=tenant.headers,
    )
    problem = assert_problem(r, 422, "validation-error")
    assert "repeat" in problem["detail"]
