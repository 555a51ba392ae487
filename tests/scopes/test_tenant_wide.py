"""Tenant-wide memories through the HTTP API (docs/scopes.md): written once by the tenant, read by
its users' recall, read-only to them, ranked below their own; templates attach memories to the
users whose attributes match; another tenant sees nothing."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.conftest import TenantCtx


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


async def tenant_write(t: TenantCtx, content: str, **fields: Any) -> dict[str, Any]:
    r = await t.client.post(
        f"/v1/tenants/{t.id}/memories?wait=true",
        json={"content": content, **fields},
        headers=t.headers,
    )
    assert r.status_code == 201, r.text
    [memory] = r.json()["memories"]
    return memory


async def put_template(t: TenantCtx, template_id: str, attribute: str, equals: str) -> None:
    r = await t.client.put(
        f"/v1/tenants/{t.id}/templates/{template_id}",
        json={"attribute": attribute, "equals": equals},
        headers=t.headers,
    )
    assert r.status_code == 200, r.text


async def set_attributes(t: TenantCtx, user_id: str, **attributes: str) -> dict[str, Any]:
    r = await t.client.put(
        f"{t.user(user_id)}/attributes", json={"attributes": attributes}, headers=t.headers
    )
    assert r.status_code == 200, r.text
    return r.json()


def recalled(body: dict[str, Any]) -> list[str]:
    return [m["content"] for m in body["memories"]] + [c["content"] for c in body["constraints"]]


@pytest.mark.parametrize(
    ("shared", "query"),
    [
        ("公司的报销截止日期是每月25号", "报销 截止日期"),
        ("Expense reports are due on the 25th of each month", "expense report deadline"),
    ],
)
async def test_every_user_of_the_tenant_reads_it_and_no_other_tenant(
    tenant: TenantCtx, other_tenant: TenantCtx, shared: str, query: str
) -> None:
    memory = await tenant_write(tenant, shared)
    assert (memory["scope"], memory["scope_id"], memory["user_id"]) == ("tenant", None, "~tenant")
    for user in ("alice", "bob"):
        body = await tenant.recall(user, query, explain=True)
        [hit] = [m for m in body["memories"] if m["content"] == shared]
        assert hit["scope"] == "tenant" and hit["explain"]["scope_weight"] == 0.6
    # Another tenant's users, with the same user ids: nothing of it.
    assert shared not in recalled(await other_tenant.recall("alice", query))
    # Nor may another tenant's key list or delete it.
    r = await other_tenant.client.get(
        f"/v1/tenants/{tenant.id}/memories", headers=other_tenant.headers
    )
    assert r.status_code == 404
    r = await other_tenant.client.delete(
        f"/v1/tenants/{tenant.id}/memories/{memory['id']}", headers=other_tenant.headers
    )
    assert r.status_code == 404
    listed = await tenant.client.get(f"/v1/tenants/{tenant.id}/memories", headers=tenant.headers)
    assert [m["content"] for m in listed.json()["items"]] == [shared]
    other_listed = await other_tenant.client.get(
        f"/v1/tenants/{other_tenant.id}/memories", headers=other_tenant.headers
    )
    assert other_listed.json()["items"] == []


async def test_read_only_to_users_and_gone_once_the_tenant_deletes_it(tenant: TenantCtx) -> None:
    memory = await tenant_write(tenant, "The office Wi-Fi network is called memlane-guest")
    query = "office wifi network"
    assert memory["content"] in recalled(await tenant.recall("alice", query))
    # A user's paths never reach it: not to read, edit or delete it.
    for method in ("GET", "DELETE"):
        r = await tenant.client.request(
            method, f"{tenant.user('alice')}/memories/{memory['id']}", headers=tenant.headers
        )
        assert r.status_code == 404, (method, r.text)
    r = await tenant.client.patch(
        f"{tenant.user('alice')}/memories/{memory['id']}",
        json={"content": "hacked"},
        headers=tenant.headers,
    )
    assert r.status_code == 404
    listed = await tenant.client.get(f"{tenant.user('alice')}/memories", headers=tenant.headers)
    assert listed.json()["items"] == []
    # The owner of tenant-wide rows is no user of the tenant.
    users = await tenant.client.get(f"/v1/tenants/{tenant.id}/users", headers=tenant.headers)
    assert "~tenant" not in [u["user_id"] for u in users.json()["items"]]

    r = await tenant.client.delete(
        f"/v1/tenants/{tenant.id}/memories/{memory['id']}", headers=tenant.headers
    )
    assert r.status_code == 204
    assert memory["content"] not in recalled(await tenant.recall("alice", query))


@pytest.mark.parametrize(
    ("own", "shared", "own_city", "shared_city", "query"),
    [
        ("我在杭州工作", "公司员工在上海工作", "杭州", "上海", "工作地点 在哪里工作"),
        ("I work in Porto", "Staff work in Lisbon", "Porto", "Lisbon", "where do I work"),
    ],
)
async def test_a_users_value_of_a_single_valued_key_wins_over_the_tenants(
    tenant: TenantCtx, own: str, shared: str, own_city: str, shared_city: str, query: str
) -> None:
    await tenant_write(tenant, shared, key="work.location", value=shared_city, type="profile")
    await tenant.remember("alice", own, key="work.location", value=own_city, type="profile")
    # For alice, her own value of the single-valued key: the shared default does not
    # contradict it in her answer.
    alice = recalled(await tenant.recall("alice", query))
    assert own in alice and shared not in alice
    # bob has no value of his own: the tenant's.
    assert shared in recalled(await tenant.recall("bob", query))


async def test_equal_relevance_the_users_own_ranks_first(tenant: TenantCtx) -> None:
    text = "Quarterly planning happens in the Lisbon office"
    await tenant_write(tenant, text)
    await tenant.remember("alice", text)
    body = await tenant.recall("alice", "quarterly planning office", explain=True)
    scopes = [m["scope"] for m in body["memories"] if m["content"] == text]
    assert scopes == ["user", "tenant"]


@pytest.mark.parametrize(
    ("template_fact", "query"),
    [
        ("Acme 员工请通过 vpn.acme.com 连接内网", "内网 vpn 连接"),
        ("Acme staff connect to the intranet through vpn.acme.com", "intranet vpn connect"),
    ],
)
async def test_a_template_reaches_only_the_users_its_rule_matches(
    tenant: TenantCtx, other_tenant: TenantCtx, template_fact: str, query: str
) -> None:
    await put_template(tenant, "acme", "domain", "acme.com")
    await tenant_write(tenant, template_fact, template="acme")
    # domain given, domain derived from the email (case-insensitive), another domain, none.
    assert (await set_attributes(tenant, "li", domain="acme.com"))["templates"] == ["acme"]
    assert (await set_attributes(tenant, "jo", email="Jo@ACME.com"))["templates"] == ["acme"]
    assert (await set_attributes(tenant, "zoe", domain="globex.com"))["templates"] == []
    for user in ("li", "jo"):
        assert template_fact in recalled(await tenant.recall(user, query)), user
    for user in ("zoe", "nobody"):
        assert template_fact not in recalled(await tenant.recall(user, query)), user
    # Another tenant with the same template id, rule and attributes: nothing of this tenant's.
    await put_template(other_tenant, "acme", "domain", "acme.com")
    await set_attributes(other_tenant, "li", domain="acme.com")
    assert template_fact not in recalled(await other_tenant.recall("li", query))
    # The user's attributes change: the template no longer applies.
    await set_attributes(tenant, "li", domain="initech.com")
    assert template_fact not in recalled(await tenant.recall("li", query))
    # Listed by template.
    r = await tenant.client.get(
        f"/v1/tenants/{tenant.id}/memories", params={"template": "acme"}, headers=tenant.headers
    )
    assert [m["content"] for m in r.json()["items"]] == [template_fact]


async def test_a_template_constraint_binds_matching_users(tenant: TenantCtx) -> None:
    await put_template(tenant, "gov", "sector", "government")
    await tenant_write(
        tenant, "Never store documents outside the EU region", type="constraint", template="gov"
    )
    await set_attributes(tenant, "civil", sector="Government")
    body = await tenant.recall("civil", "where to upload a document")
    assert [c["content"] for c in body["constraints"]] == [
        "Never store documents outside the EU region"
    ]
    assert (await tenant.recall("alice", "where to upload a document"))["constraints"] == []


async def test_writing_needs_tenant_write_and_a_known_template(tenant: TenantCtx) -> None:
    r = await tenant.client.post(
        f"/v1/tenants/{tenant.id}/keys",
        json={"scopes": ["memories:read", "memories:write"]},
        headers=tenant.headers,
    )
    plain = bearer(r.json()["api_key"])
    url = f"/v1/tenants/{tenant.id}/memories"
    r = await tenant.client.post(url, json={"content": "x"}, headers=plain)
    assert r.status_code == 403
    assert r.json()["type"] == "urn:memlane:problem:insufficient-scope"
    for path, body in (
        (f"/v1/tenants/{tenant.id}/templates/t1", {"attribute": "domain", "equals": "a.com"}),
        (f"{tenant.user('alice')}/attributes", {"attributes": {"domain": "a.com"}}),
    ):
        r = await tenant.client.put(path, json=body, headers=plain)
        assert r.status_code == 403, path
    # A user-bound key reaches no tenant route.
    r = await tenant.client.post(
        f"/v1/tenants/{tenant.id}/keys", json={"user_id": "alice"}, headers=tenant.headers
    )
    r = await tenant.client.post(url, json={"content": "x"}, headers=bearer(r.json()["api_key"]))
    assert r.status_code == 403
    r = await tenant.client.post(
        url, json={"content": "x", "template": "nope"}, headers=tenant.headers
    )
    assert r.status_code == 422
    assert r.headers["content-type"] == "application/problem+json"
    r = await tenant.client.post(
        url, json={"content": "x", "scope": "user"}, headers=tenant.headers
    )
    assert r.status_code == 422


async def test_templates_list_replace_and_delete(tenant: TenantCtx) -> None:
    await put_template(tenant, "acme", "domain", "acme.com")
    await put_template(tenant, "acme", "company", "Acme")
    r = await tenant.client.get(f"/v1/tenants/{tenant.id}/templates", headers=tenant.headers)
    assert [(t["id"], t["attribute"], t["equals"]) for t in r.json()["items"]] == [
        ("acme", "company", "Acme")
    ]
    url = f"/v1/tenants/{tenant.id}/templates/acme"
    assert (await tenant.client.delete(url, headers=tenant.headers)).status_code == 204
    assert (await tenant.client.delete(url, headers=tenant.headers)).status_code == 404


async def test_session_only_users_read_no_tenant_wide_memory(
    tenant: TenantCtx, client: httpx.AsyncClient
) -> None:
    text = "The cafeteria closes at 3 pm"
    await tenant_write(tenant, text)
    r = await client.put(
        f"{tenant.user('alice')}/settings",
        json={"memory_mode": "session_only"},
        headers=tenant.headers,
    )
    assert r.status_code == 200, r.text
    assert text not in recalled(await tenant.recall("alice", "cafeteria closing time"))
    assert text in recalled(await tenant.recall("bob", "cafeteria closing time"))


async def test_the_vault_search_shows_a_tenant_memory_without_a_link_to_edit_it(
    app: object, tenant: TenantCtx
) -> None:
    from contextlib import aclosing

    from tests.vault.test_pages import signed_in

    shared = await tenant_write(tenant, "The help desk number is extension 4242")
    own = await tenant.remember("ann", "My desk is next to the help desk")
    client, _ = await signed_in(app, tenant.key)
    async with aclosing(client):
        page = (await client.get("/vault/users/ann", params={"q": "help desk"})).text
    assert "The help desk number is extension 4242" in page
    assert "(shared by the tenant, read-only)" in page
    assert f"/vault/users/ann/memories/{shared['id']}" not in page
    assert f"/vault/users/ann/memories/{own['memories'][0]['id']}" in page
