"""The links an import stores are checked on the result, after the document's duplicate entries
collapsed into one memory: no memory supersedes itself, chains stay linear, and every export
imports again."""

from __future__ import annotations

import copy
import uuid
from typing import Any

from tests.conftest import TenantCtx
from tests.portability.test_export_import import by_content, export, import_, memories
from tests.portability.test_lossless_import import post_import

CITY = {"type": "profile", "key": "residence.city"}


async def lisbon_then_porto(t: TenantCtx, user: str) -> dict[str, Any]:
    """A document with Lisbon frozen, superseded by Porto (its entries by value)."""
    await t.remember(
        user, "I live in Lisbon", **CITY, value="Lisbon", occurred_at="2026-01-05T10:00:00Z"
    )
    await t.remember(
        user, "I live in Porto", **CITY, value="Porto", occurred_at="2026-03-01T10:00:00Z"
    )
    return await export(t, user)


def entries(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {m["value"]: m for m in doc["memories"]}


async def test_entries_collapsing_into_one_memory_never_link_it_to_itself(
    tenant: TenantCtx, other_tenant: TenantCtx
) -> None:
    doc = await lisbon_then_porto(tenant, "ann")
    a, b = entries(doc)["Lisbon"], entries(doc)["Porto"]
    assert (a["status"], a["superseded_by"], b["status"]) == ("frozen", b["id"], "active")
    # C: the same fact as B, a month earlier, unlinked; B says it superseded C.
    c = copy.deepcopy(b)
    c.update(id=str(uuid.uuid4()), supersedes=None, valid_from="2026-02-01T10:00:00Z", history=[])
    b["supersedes"] = c["id"]
    doc["memories"].append(c)

    result = await import_(other_tenant, "zoe", doc)
    assert result["outcomes"]["refreshed"] == 1  # B and C are one memory here

    got = by_content(await memories(other_tenant, "zoe"))
    porto, lisbon = got["I live in Porto"], got["I live in Lisbon"]
    assert len(got) == 2
    assert porto["status"] == "active" and porto["supersedes"] != porto["id"]
    assert porto["superseded_by"] is None
    assert (lisbon["status"], lisbon["superseded_by"]) == ("frozen", porto["id"])

    # The result exports and imports again, into a third user.
    again = await export(other_tenant, "zoe")
    assert all(m["supersedes"] != m["id"] for m in again["memories"])
    r = await post_import(other_tenant, "eve", again)
    assert r.status_code == 200, r.text
    third = by_content(await memories(other_tenant, "eve"))
    assert third["I live in Lisbon"]["superseded_by"] == third["I live in Porto"]["id"]


async def test_a_frozen_entry_whose_successor_is_archived_links_to_the_next_one(
    tenant: TenantCtx, other_tenant: TenantCtx
) -> None:
    doc = await lisbon_then_porto(tenant, "ann")
    lisbon = entries(doc)["Lisbon"]
    # Rome was superseded by Lisbon, which was archived since; Lisbon's successor is Porto.
    rome = copy.deepcopy(lisbon)
    rome.update(
        id=str(uuid.uuid4()),
        content="I live in Rome",
        value="Rome",
        superseded_by=lisbon["id"],
        valid_from="2025-06-01T10:00:00Z",
        history=[],
    )
    lisbon.update(status="archived", supersedes=rome["id"])
    doc["memories"].append(rome)

    result = await import_(other_tenant, "zoe", doc)
    assert (result["created"], result["skipped"]) == (2, 1)
    got = by_content(await memories(other_tenant, "zoe"))
    assert got["I live in Rome"]["status"] == "frozen"
    assert got["I live in Rome"]["superseded_by"] == got["I live in Porto"]["id"]
    r = await post_import(other_tenant, "eve", await export(other_tenant, "zoe"))
    assert r.status_code == 200, r.text


async def test_two_entries_claiming_one_predecessor_keep_the_chain_linear(
    tenant: TenantCtx, other_tenant: TenantCtx
) -> None:
    doc = await lisbon_then_porto(tenant, "ann")
    lisbon, porto = entries(doc)["Lisbon"], entries(doc)["Porto"]
    # Madrid (frozen, superseded by Porto) also says it superseded Lisbon: a branch.
    madrid = copy.deepcopy(lisbon)
    madrid.update(
        id=str(uuid.uuid4()),
        content="I live in Madrid",
        value="Madrid",
        supersedes=lisbon["id"],
        superseded_by=porto["id"],
        history=[],
    )
    porto["supersedes"] = lisbon["id"]
    doc["memories"].append(madrid)

    await import_(other_tenant, "zoe", doc)
    got = by_content(await memories(other_tenant, "zoe"))
    lisbon_here = got["I live in Lisbon"]
    claimants = [m["content"] for m in got.values() if m["supersedes"] == lisbon_here["id"]]
    # Lisbon names Porto as its successor: Porto keeps the link, Madrid's is dropped.
    assert claimants == ["I live in Porto"]
    assert got["I live in Madrid"]["supersedes"] is None
    assert got["I live in Madrid"]["superseded_by"] == got["I live in Porto"]["id"]
    r = await post_import(other_tenant, "eve", await export(other_tenant, "zoe"))
    assert r.status_code == 200, r.text


async def test_links_that_cycle_once_duplicates_merge_are_refused_naming_the_ids(
    tenant: TenantCtx, other_tenant: TenantCtx
) -> None:
    doc = await lisbon_then_porto(tenant, "ann")
    lisbon, porto = entries(doc)["Lisbon"], entries(doc)["Porto"]
    # C is Porto again (it collapses into Porto's memory); Lisbon says it superseded C and
    # was superseded by Porto: once C and Porto are one memory, that is a cycle.
    c = copy.deepcopy(porto)
    c.update(id=str(uuid.uuid4()), supersedes=None, valid_from="2026-02-01T10:00:00Z", history=[])
    lisbon["supersedes"] = c["id"]
    doc["memories"].append(c)

    r = await post_import(other_tenant, "zoe", doc)
    assert r.status_code == 422, r.text
    assert r.json()["type"] == "urn:memlane:problem:invalid-supersession-chain"
    named = {e["loc"][-1] for e in r.json()["errors"]}
    assert named == {lisbon["id"], porto["id"], c["id"]}
    assert await memories(other_tenant, "zoe") == []
