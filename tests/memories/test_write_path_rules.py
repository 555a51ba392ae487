"""Rules of the write path that hold under repetition and concurrency: merged metadata keeps its
limit, one memory takes one new version, and a frozen memory stays history."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from tests.conftest import TenantCtx
from tests.portability.test_export_import import export
from tests.portability.test_lossless_import import post_import

CITY = {"type": "profile", "key": "residence.city"}
METADATA_LIMIT = 16_384


async def get(t: TenantCtx, user: str, memory_id: str) -> dict[str, Any]:
    r = await t.client.get(f"{t.user(user)}/memories/{memory_id}", headers=t.headers)
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


async def patch(t: TenantCtx, user: str, memory_id: str, body: dict[str, Any]) -> Any:
    return await t.client.patch(
        f"{t.user(user)}/memories/{memory_id}", json=body, headers=t.headers
    )


async def test_metadata_merged_by_duplicate_writes_keeps_the_newest_keys_within_the_limit(
    tenant: TenantCtx,
) -> None:
    ids = set()
    for i in range(15):
        out = await tenant.remember(
            "ann", "I like growing metadata", metadata={f"k{i}": "x" * 15000}
        )
        ids.add(out["memories"][0]["id"])
    [memory_id] = ids  # every later write refreshed the first one
    m = await get(tenant, "ann", memory_id)
    assert m["confirmations"] == 15
    assert len(json.dumps(m["metadata"], ensure_ascii=False)) <= METADATA_LIMIT
    assert list(m["metadata"]) == ["k14"]  # the newest write's keys win

    r = await tenant.client.get(
        f"{tenant.user('ann')}/arbitrations",
        params={"memory_id": memory_id, "outcome": "refreshed", "limit": 1},
        headers=tenant.headers,
    )
    [last] = r.json()["items"]
    assert "older keys dropped: k13" in last["reason"]

    # The user's export imports again (its metadata obeys the import's limit too).
    r = await post_import(tenant, "bob", await export(tenant, "ann"))
    assert r.status_code == 200, r.text


async def test_small_metadata_of_duplicate_writes_is_merged_whole(tenant: TenantCtx) -> None:
    await tenant.remember("ann", "I like tea", metadata={"a": 1, "b": 1})
    out = await tenant.remember("ann", "I like tea", metadata={"b": 2, "c": 3})
    m = await get(tenant, "ann", out["memories"][0]["id"])
    assert m["metadata"] == {"a": 1, "b": 2, "c": 3}


async def test_parallel_patches_of_one_memory_give_one_new_version(tenant: TenantCtx) -> None:
    [porto] = (await tenant.remember("ann", "I live in Porto", **CITY, value="Porto"))["memories"]
    answers = await asyncio.gather(
        *(patch(tenant, "ann", porto["id"], {"value": f"City{i}"}) for i in range(15))
    )
    codes = sorted(r.status_code for r in answers)
    assert codes == [200] + [409] * 14, [r.text for r in answers if r.status_code != 409]
    [winner] = [r.json() for r in answers if r.status_code == 200]
    assert all(
        r.json()["type"] == "urn:memlane:problem:conflict" for r in answers if r.status_code == 409
    )
    old = await get(tenant, "ann", porto["id"])
    assert (old["status"], old["superseded_by"]) == ("frozen", winner["id"])
    r = await tenant.client.get(
        f"{tenant.user('ann')}/memories",
        params={"key": "residence.city", "limit": 50},
        headers=tenant.headers,
    )
    assert [(m["status"], m["value"]) for m in r.json()["items"]] == [
        ("active", winner["value"]),
        ("frozen", "Porto"),
    ]


async def test_a_frozen_memory_takes_no_change_and_never_becomes_active(
    tenant: TenantCtx,
) -> None:
    [lisbon] = (
        await tenant.remember(
            "ann", "I live in Lisbon", **CITY, value="Lisbon", occurred_at="2026-01-01T00:00:00Z"
        )
    )["memories"]
    porto = (
        await tenant.remember(
            "ann", "I live in Porto", **CITY, value="Porto", occurred_at="2026-02-01T00:00:00Z"
        )
    )["memories"][0]
    assert (await get(tenant, "ann", lisbon["id"]))["status"] == "frozen"

    for change in ({"status": "archived"}, {"status": "active"}, {"confidence": 0.1}):
        r = await patch(tenant, "ann", lisbon["id"], change)
        assert r.status_code == 409, (change, r.text)
        assert r.json()["type"] == "urn:memlane:problem:conflict"
    r = await patch(tenant, "ann", lisbon["id"], {"metadata": {"note": "x"}})
    assert r.status_code == 409

    # The tester's sequence: archive Porto, then try to bring Lisbon back.
    assert (await patch(tenant, "ann", porto["id"], {"status": "archived"})).status_code == 200
    assert (await patch(tenant, "ann", lisbon["id"], {"status": "active"})).status_code == 409
    lisbon_now = await get(tenant, "ann", lisbon["id"])
    assert (lisbon_now["status"], lisbon_now["superseded_by"]) == ("frozen", porto["id"])

    # An archived memory that was never superseded may come back while its key is free.
    r = await patch(tenant, "ann", porto["id"], {"status": "active"})
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "active"
