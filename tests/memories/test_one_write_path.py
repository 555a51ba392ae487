"""The one write path, through the HTTP API: every way in protects, arbitrates and audits the
same way, and concurrency cannot duplicate a fact."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path
from typing import Any

import asyncpg

from app.db.setup import Database
from tests.conftest import TenantCtx

COFFEE = {
    "content": "I really like coffee",
    "type": "preference",
    "key": "preference.likes",
    "value": "coffee",
}


async def on_disk(database: Database, data_dir: Path, *needles: str) -> list[str]:
    """The files of the database's data directory (tables, indexes, WAL, logs) that hold any
    of ``needles``, read after a CHECKPOINT has written every dirty page out."""
    conn = await asyncpg.connect(database.asyncpg_dsn)
    try:
        await conn.execute("CHECKPOINT")
    finally:
        await conn.close()
    found = []
    raw = [n.encode() for n in needles]
    files = [p for p in (data_dir / "pgdata").rglob("*") if p.is_file()]
    assert len(files) > 100, "the scan must see the data directory"
    for path in files:
        try:
            data = path.read_bytes()
        except OSError:
            continue  # a file removed while scanning (a recycled WAL segment)
        found += [f"{path}: {n!r}" for n in raw if n in data]
    return found


async def active(t: TenantCtx, user: str, **filters: str) -> list[dict[str, Any]]:
    r = await t.client.get(
        f"{t.user(user)}/memories",
        params={"status": "active", "limit": 200, **filters},
        headers=t.headers,
    )
    assert r.status_code == 200, r.text
    items: list[dict[str, Any]] = r.json()["items"]
    return items


# --- case 1 and 2: every path protects ----------------------------------------------------


async def test_a_task_conclusion_is_protected_like_any_write(
    tenant: TenantCtx, database: Database, data_dir: Path
) -> None:
    secret = "hunter2" + uuid.uuid4().hex[:8]
    url = f"{tenant.user('u')}/tasks"
    assert (
        await tenant.client.post(url, json={"id": "t1", "name": "setup"}, headers=tenant.headers)
    ).status_code == 201
    r = await tenant.client.post(
        f"{url}/t1/finish",
        json={"conclusion": f"Done. My password is {secret} for the router.", "promote": True},
        headers=tenant.headers,
    )
    assert r.status_code == 200, r.text
    assert secret not in r.text
    body = r.json()
    assert len(body["memories"]) == 2
    assert all("******" in m["content"] for m in body["memories"])
    assert all(m["secrets"][0]["kind"] == "password" for m in body["memories"])
    assert "******" in body["task"]["conclusion"]
    # The same sentence as an explicit write reads the same.
    written = await tenant.remember("u", f"Done. My password is {secret} for the router.")
    assert written["memories"][0]["content"] == body["memories"][0]["content"]
    listed = await tenant.client.get(f"{tenant.user('u')}/memories", headers=tenant.headers)
    assert secret not in listed.text
    task = await tenant.client.get(f"{url}/t1", headers=tenant.headers)
    assert secret not in task.text
    # The owner can still open it, through the audited reveal.
    reveal = await tenant.client.post(
        f"{tenant.user('u')}/memories/{body['memories'][0]['id']}/reveal", headers=tenant.headers
    )
    assert [s["value"] for s in reveal.json()["secrets"]] == [secret]
    assert await on_disk(database, data_dir, secret) == []


async def test_patching_a_secret_value_seals_it(
    tenant: TenantCtx, database: Database, data_dir: Path
) -> None:
    first, second = "oldpass" + uuid.uuid4().hex[:8], "newpass" + uuid.uuid4().hex[:8]
    [m] = (
        await tenant.remember(
            "u", f"My bank password is {first}", key="account.password", value=first
        )
    )["memories"]
    assert m["value"] == "******"
    r = await tenant.client.patch(
        f"{tenant.user('u')}/memories/{m['id']}", json={"value": second}, headers=tenant.headers
    )
    assert r.status_code == 200, r.text
    new = r.json()
    assert second not in r.text and first not in r.text
    assert new["value"] == "******" and new["content"] == "My bank password is ******"
    assert new["supersedes"] == m["id"]
    got = await tenant.client.get(
        f"{tenant.user('u')}/memories/{new['id']}", headers=tenant.headers
    )
    assert second not in got.text
    reveal = await tenant.client.post(
        f"{tenant.user('u')}/memories/{new['id']}/reveal", headers=tenant.headers
    )
    assert {s["value"] for s in reveal.json()["secrets"]} == {second}
    assert await on_disk(database, data_dir, first, second) == []


# --- case 5: concurrency cannot duplicate a fact ------------------------------------------


async def test_twenty_parallel_identical_writes_leave_one_active_memory(
    tenant: TenantCtx,
) -> None:
    async def write() -> int:
        r = await tenant.client.post(
            f"{tenant.user('u')}/memories?wait=true", json=COFFEE, headers=tenant.headers
        )
        return r.status_code

    assert await asyncio.gather(*(write() for _ in range(20))) == [201] * 20
    [kept] = await active(tenant, "u", key="preference.likes")
    assert kept["value"] == "coffee" and kept["confirmations"] == 20


async def test_twenty_parallel_identical_messages_leave_one_active_memory(
    tenant: TenantCtx,
) -> None:
    async def say(i: int) -> int:
        r = await tenant.client.post(
            f"{tenant.user('u')}/sessions/s{i}/messages?wait=true",
            json={"messages": [{"role": "user", "content": "I really like coffee"}]},
            headers=tenant.headers,
        )
        return r.status_code

    assert await asyncio.gather(*(say(i) for i in range(20))) == [201] * 20
    likes = [m for m in await active(tenant, "u") if m["value"] == "coffee"]
    assert len(likes) == 1, likes


# --- case 7: PATCH of content/value is a new version -------------------------------------


async def test_patching_a_value_writes_a_new_version_and_refuses_frozen_ones(
    tenant: TenantCtx,
) -> None:
    city = {"key": "residence.city", "type": "profile"}
    [porto] = (await tenant.remember("u", "I live in Porto", **city, value="Porto"))["memories"]
    url = f"{tenant.user('u')}/memories"
    r = await tenant.client.patch(
        f"{url}/{porto['id']}", json={"value": "Tokyo"}, headers=tenant.headers
    )
    assert r.status_code == 200, r.text
    tokyo = r.json()
    assert (tokyo["content"], tokyo["value"], tokyo["status"]) == (
        "I live in Tokyo",
        "Tokyo",
        "active",
    )
    assert tokyo["id"] != porto["id"] and tokyo["supersedes"] == porto["id"]
    old = (await tenant.client.get(f"{url}/{porto['id']}", headers=tenant.headers)).json()
    assert (old["status"], old["superseded_by"], old["value"]) == ("frozen", tokyo["id"], "Porto")
    audit = (
        await tenant.client.get(
            f"{tenant.user('u')}/arbitrations",
            params={"memory_id": porto["id"], "outcome": "superseded"},
            headers=tenant.headers,
        )
    ).json()["items"]
    assert [(a["rule"], a["new_memory_id"]) for a in audit] == [("user_correction", tokyo["id"])]
    assert [m["value"] for m in await active(tenant, "u", key="residence.city")] == ["Tokyo"]
    recalled = await tenant.recall("u", "where do I live?")
    assert recalled["memories"][0]["content"] == "I live in Tokyo"

    # The frozen version is history: no edit of what it says.
    for change in ({"value": "Kyoto"}, {"content": "I live in Kyoto"}, {"status": "active"}):
        r = await tenant.client.patch(f"{url}/{porto['id']}", json=change, headers=tenant.headers)
        assert r.status_code == 409, r.text
        assert r.headers["content-type"] == "application/problem+json"
    # A value the content does not say: the client must send both.
    [note] = (await tenant.remember("u", "My shoe size", key="body.shoe_size", value="42"))[
        "memories"
    ]
    r = await tenant.client.patch(
        f"{url}/{note['id']}", json={"value": "43"}, headers=tenant.headers
    )
    assert r.status_code == 422 and r.headers["content-type"] == "application/problem+json"


# --- case 8: smaller defects -------------------------------------------------------------


async def test_a_duplicate_write_merges_its_metadata_into_the_kept_memory(
    tenant: TenantCtx,
) -> None:
    [first] = (await tenant.remember("u", **COFFEE, metadata={"channel": "web"}))["memories"]
    body = await tenant.remember("u", **COFFEE, metadata={"mood": "happy", "channel": "app"})
    [kept] = body["memories"]
    assert kept["id"] == first["id"] and kept["confirmations"] == 2
    assert kept["metadata"] == {"channel": "app", "mood": "happy"}


async def test_message_metadata_is_carried_to_the_memories_formed_from_it(
    tenant: TenantCtx,
) -> None:
    r = await tenant.client.post(
        f"{tenant.user('u')}/sessions/s1/messages?wait=true",
        json={
            "messages": [
                {"role": "user", "content": "I live in Lisbon.", "metadata": {"device": "phone"}}
            ]
        },
        headers=tenant.headers,
    )
    assert r.status_code == 201, r.text
    [lisbon] = [m for m in r.json()["memories"] if m["value"] == "Lisbon"]
    assert lisbon["metadata"]["device"] == "phone"


async def test_an_unknown_list_filter_is_refused(tenant: TenantCtx) -> None:
    await tenant.remember("u", **COFFEE)
    r = await tenant.client.get(
        f"{tenant.user('u')}/memories", params={"food": "x"}, headers=tenant.headers
    )
    assert r.status_code == 422
    assert r.headers["content-type"] == "application/problem+json"
    assert r.json()["type"] == "urn:memlane:problem:unknown-filter" and "food" in r.json()["detail"]
    ok = await tenant.client.get(
        f"{tenant.user('u')}/memories", params={"type": "preference"}, headers=tenant.headers
    )
    assert ok.status_code == 200 and len(ok.json()["items"]) == 1
