"""Import is lossless: the document's supersession chains come back as they were recorded,
chains that contradict themselves are refused, and a second import changes nothing."""

from __future__ import annotations

import json
from typing import Any

from tests.conftest import TenantCtx
from tests.portability.test_export_import import by_content, export, import_, memories

CITY = {"type": "profile", "key": "residence.city"}


async def test_a_correction_older_than_the_fact_it_corrected_survives_the_round_trip(
    tenant: TenantCtx, other_tenant: TenantCtx
) -> None:
    await tenant.remember(
        "ann", "I live in Porto", **CITY, value="Porto", occurred_at="2026-05-01T04:30:00Z"
    )
    # The correction is dated earlier than the fact it corrects: newer-wins alone would
    # undo it.
    await tenant.say("ann", "s1", "I moved to Shanghai.", at="2026-05-01T04:00:00Z")
    source = by_content(await memories(tenant, "ann"))
    [shanghai_text] = [c for c, m in source.items() if m["value"] == "Shanghai"]
    assert source[shanghai_text]["status"] == "active"
    assert source["I live in Porto"]["status"] == "frozen"
    doc = await export(tenant, "ann")

    result = await import_(other_tenant, "zoe", doc)
    # the two facts and the turn "I moved to Shanghai." kept as an episode
    assert result["created"] == 3

    got = by_content(await memories(other_tenant, "zoe"))
    shanghai, porto = got[shanghai_text], got["I live in Porto"]
    assert shanghai["status"] == "active" and shanghai["superseded_by"] is None
    assert (porto["status"], porto["superseded_by"]) == ("frozen", shanghai["id"])
    assert shanghai["supersedes"] == porto["id"]
    recalled = await other_tenant.recall("zoe", "where do I live?")
    assert recalled["memories"][0]["value"] == "Shanghai"

    again = await import_(other_tenant, "zoe", doc)
    assert (again["created"], again["unchanged"], again["decisions"]) == (0, 3, [])
    # the recall above counts its reads (access_count, last_accessed_at), whenever it lands:
    # the import itself changes nothing
    assert _unread(by_content(await memories(other_tenant, "zoe"))) == _unread(got)


def _unread(rows: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """``rows`` without what a read changes (``access_count``, ``last_accessed_at``)."""
    skip = {"access_count", "last_accessed_at"}
    return {c: {k: v for k, v in m.items() if k not in skip} for c, m in rows.items()}


async def post_import(t: TenantCtx, user: str, doc: dict[str, Any]) -> Any:
    return await t.client.post(
        f"{t.user(user)}/import",
        content=json.dumps(doc),
        headers={**t.headers, "content-type": "application/json"},
    )


async def test_self_links_and_cycles_are_refused_with_the_offending_ids(
    tenant: TenantCtx, other_tenant: TenantCtx
) -> None:
    for text in ("I like jazz", "I like opera", "I like folk"):
        await tenant.remember("ann", text, type="preference")
    doc = await export(tenant, "ann")
    jazz, opera, folk = sorted(doc["memories"], key=lambda m: m["content"])[:3]

    selfish = json.loads(json.dumps(doc))
    selfish["memories"][0]["supersedes"] = selfish["memories"][0]["id"]
    r = await post_import(other_tenant, "zoe", selfish)
    assert r.status_code == 422 and r.headers["content-type"] == "application/problem+json"
    assert r.json()["type"] == "urn:memlane:problem:invalid-supersession-chain"
    assert [e["loc"][-1] for e in r.json()["errors"]] == [selfish["memories"][0]["id"]]

    cyclic = json.loads(json.dumps(doc))
    by_id = {m["id"]: m for m in cyclic["memories"]}
    by_id[jazz["id"]].update(status="frozen", superseded_by=opera["id"])
    by_id[opera["id"]].update(status="frozen", superseded_by=jazz["id"])
    r = await post_import(other_tenant, "zoe", cyclic)
    assert r.status_code == 422, r.text
    assert {e["loc"][-1] for e in r.json()["errors"]} == {jazz["id"], opera["id"]}
    assert folk["id"] not in r.text

    # A cycle through `supersedes` counts too; nothing of a refused document is written.
    looped = json.loads(json.dumps(doc))
    by_id = {m["id"]: m for m in looped["memories"]}
    by_id[jazz["id"]]["supersedes"] = folk["id"]
    by_id[folk["id"]]["supersedes"] = opera["id"]
    by_id[opera["id"]]["supersedes"] = jazz["id"]
    r = await post_import(other_tenant, "zoe", looped)
    assert r.status_code == 422
    assert {e["loc"][-1] for e in r.json()["errors"]} == {jazz["id"], opera["id"], folk["id"]}
    assert await memories(other_tenant, "zoe") == []
