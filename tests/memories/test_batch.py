"""Batch writes of explicit memories (POST …/memories/batch) through the HTTP API."""

from __future__ import annotations

import json
from typing import Any

import asyncpg
import httpx
import pytest

from app.db.setup import Database
from app.providers.embeddings import EmbeddingError
from tests.conftest import TenantCtx
from tests.privacy.test_sensitive_api import EMAIL, ID, PASSWORD, _dump

VALIDATION = "urn:memlane:problem:validation-error"
PROBLEM_JSON = "application/problem+json"


async def write_batch(
    tenant: TenantCtx, user_id: str, items: list[dict[str, Any]], **headers: str
) -> httpx.Response:
    return await tenant.client.post(
        f"{tenant.user(user_id)}/memories/batch",
        params={"wait": "true"},
        json={"memories": items},
        headers={**tenant.headers, **headers},
    )


async def listed(tenant: TenantCtx, user_id: str, **params: str) -> list[dict[str, Any]]:
    r = await tenant.client.get(
        f"{tenant.user(user_id)}/memories", params=params, headers=tenant.headers
    )
    assert r.status_code == 200, r.text
    return r.json()["items"]


def assert_validation_problem(r: httpx.Response) -> None:
    assert r.status_code == 422, r.text
    assert r.headers["content-type"] == PROBLEM_JSON
    assert r.json()["type"] == VALIDATION


@pytest.fixture
def embed_calls(app: Any, monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The texts of every ``embed_passages`` call the worker makes during the test."""
    embedder = app.state.memlane.embedder
    real = embedder.embed_passages
    calls: list[list[str]] = []

    async def spy(texts: list[str]) -> list[list[float]]:
        calls.append(list(texts))
        return await real(texts)

    monkeypatch.setattr(embedder, "embed_passages", spy)
    return calls


async def test_batch_is_stored_in_item_order_with_one_embedding_call(
    tenant: TenantCtx, embed_calls: list[list[str]]
) -> None:
    items = [
        {"content": "I keep bees on the roof", "type": "fact"},
        {
            "content": "Usually orders oat milk",
            "type": "preference",
            "source": "behavior_observed",
        },
        {
            "content": "Ran the Berlin marathon",
            "type": "event",
            "confidence": 0.4,
            "occurred_at": "2025-09-21T09:00:00+02:00",
            "metadata": {"via": "import-script"},
        },
    ]
    r = await write_batch(tenant, "u", items)
    assert r.status_code == 201, r.text
    body = r.json()
    memories = body["memories"]
    assert [m["content"] for m in memories] == [i["content"] for i in items]
    assert [m["type"] for m in memories] == ["fact", "preference", "event"]
    # each item keeps the rules of a single write: source → base confidence, explicit values
    assert [m["source"] for m in memories] == [
        "user_declared",
        "behavior_observed",
        "user_declared",
    ]
    assert [m["confidence"] for m in memories] == [0.9, 0.7, 0.4]
    assert memories[2]["occurred_at"] == "2025-09-21T07:00:00Z"
    assert memories[2]["metadata"] == {"via": "import-script"}
    # items without occurred_at take the request's arrival time
    assert memories[0]["occurred_at"] == memories[1]["occurred_at"] > "2026"
    assert all(m["status"] == "active" and m["embedding_model"] for m in memories)
    assert [m["origin"] for m in memories] == [
        {"job_id": body["job_id"], "item": i} for i in range(3)
    ]
    assert [(a["rule"], a["outcome"]) for a in body["arbitrations"]] == [
        ("no_conflict", "stored")
    ] * 3
    assert [a["new_memory_id"] for a in body["arbitrations"]] == [m["id"] for m in memories]
    # one embedding call for the whole batch
    assert [c for c in embed_calls if any("bees" in t for t in c)] == [
        [i["content"] for i in items]
    ]

    assert sorted(m["id"] for m in await listed(tenant, "u")) == sorted(m["id"] for m in memories)
    job = await tenant.client.get(f"/v1/jobs/{body['job_id']}", headers=tenant.headers)
    assert job.json()["kind"] == "memory.write_batch" and job.json()["status"] == "done"
    assert job.json()["result"]["memory_ids"] == [m["id"] for m in memories]


async def test_without_wait_answers_202_with_the_job(tenant: TenantCtx) -> None:
    r = await tenant.client.post(
        f"{tenant.user('u')}/memories/batch",
        json={"memories": [{"content": "I play the cello"}, {"content": "I own a kayak"}]},
        headers=tenant.headers,
    )
    assert r.status_code == 202, r.text
    job_id = r.json()["job_id"]
    assert r.headers["location"] == f"/v1/jobs/{job_id}"
    job = await tenant.finished_job(job_id)
    assert job["status"] == "done", job
    assert len(job["result"]["memory_ids"]) == 2
    assert {m["content"] for m in await listed(tenant, "u")} == {
        "I play the cello",
        "I own a kayak",
    }


def _decisions(body: dict[str, Any]) -> list[tuple[str, str]]:
    return [(a["rule"], a["outcome"]) for a in body["arbitrations"]]


async def test_a_later_item_supersedes_an_earlier_single_valued_key(tenant: TenantCtx) -> None:
    lisbon = {"content": "I live in Lisbon", "type": "profile", "key": "residence.city"}
    porto = {"content": "I live in Porto now", "type": "profile", "key": "residence.city"}
    lisbon["value"], porto["value"] = "Lisbon", "Porto"
    r = await write_batch(tenant, "u", [lisbon, porto])
    assert r.status_code == 201, r.text
    body = r.json()
    old, new = body["memories"]
    assert old["content"] == "I live in Lisbon" and old["status"] == "frozen"
    assert old["superseded_by"] == new["id"] and new["supersedes"] == old["id"]
    assert new["content"] == "I live in Porto now" and new["status"] == "active"
    supersede = body["arbitrations"][-1]
    assert (supersede["new_memory_id"], supersede["existing_memory_id"]) == (new["id"], old["id"])

    # the same decisions, in the same order, as two single writes
    first = await tenant.remember("v", **lisbon)
    second = await tenant.remember("v", **porto)
    assert _decisions(body) == _decisions(first) + _decisions(second)
    assert _decisions(body) == [("no_conflict", "stored"), ("newer_wins", "superseded")]

    # the audit and the history hold it, and recall reads only the current value
    audit = await tenant.client.get(
        f"{tenant.user('u')}/arbitrations",
        params={"memory_id": old["id"], "outcome": "superseded"},
        headers=tenant.headers,
    )
    assert [a["id"] for a in audit.json()["items"]] == [supersede["id"]]
    hist = await tenant.client.get(
        f"{tenant.user('u')}/memories/{old['id']}/history", headers=tenant.headers
    )
    assert [e["action"] for e in hist.json()["entries"] if e["memory_id"] == old["id"]] == [
        "create",
        "supersede",
    ]
    assert [m["content"] for m in await listed(tenant, "u", status="active")] == [
        "I live in Porto now"
    ]


async def test_the_same_text_twice_in_a_batch_is_one_memory_confirmed(tenant: TenantCtx) -> None:
    r = await write_batch(
        tenant, "u", [{"content": "I like green tea."}, {"content": "i like green tea"}]
    )
    assert r.status_code == 201, r.text
    [m] = r.json()["memories"]
    assert m["content"] == "I like green tea." and m["confirmations"] == 2
    assert _decisions(r.json()) == [("no_conflict", "stored"), ("duplicate", "refreshed")]
    assert len(await listed(tenant, "u")) == 1


@pytest.mark.parametrize("count", [0, 101])
async def test_empty_and_oversized_batches_are_refused(tenant: TenantCtx, count: int) -> None:
    r = await write_batch(tenant, "u", [{"content": f"fact {i}"} for i in range(count)])
    assert_validation_problem(r)
    assert r.json()["errors"][0]["loc"] == ["body", "memories"]
    assert await listed(tenant, "u") == []


async def test_a_hundred_items_are_accepted(tenant: TenantCtx) -> None:
    r = await write_batch(tenant, "u", [{"content": f"numbered fact {i}"} for i in range(100)])
    assert r.status_code == 201, r.text
    assert len(r.json()["memories"]) == 100


async def test_infer_items_are_refused(tenant: TenantCtx) -> None:
    items = [{"content": "I like tea"}, {"content": "I moved to Porto", "infer": True}]
    r = await write_batch(tenant, "u", items)
    assert_validation_problem(r)
    assert "infer=true" in r.json()["detail"] and "items 1" in r.json()["detail"]
    # an invalid item is refused as in a single write, with its position
    bad = await write_batch(tenant, "u", [{"content": "ok"}, {"content": "x", "scope": "task"}])
    assert_validation_problem(bad)
    assert bad.json()["errors"][0]["loc"][:3] == ["body", "memories", 1]
    assert await listed(tenant, "u") == []


async def test_idempotency_key_returns_the_first_job_or_409(tenant: TenantCtx) -> None:
    url = f"{tenant.user('u')}/memories/batch"
    headers = {**tenant.headers, "Idempotency-Key": "batch-7"}
    body = {"memories": [{"content": "Budget is 300 euros"}, {"content": "Trip in May"}]}
    a = await tenant.client.post(url, json=body, headers=headers)
    b = await tenant.client.post(url, json=body, headers=headers)
    assert a.status_code == b.status_code == 202
    assert a.json()["job_id"] == b.json()["job_id"]
    waited = await tenant.client.post(url, params={"wait": "true"}, json=body, headers=headers)
    assert waited.status_code == 201 and waited.json()["job_id"] == a.json()["job_id"]
    assert len(await listed(tenant, "u")) == 2  # written once
    other = {"memories": [{"content": "Budget is 300 euros"}, {"content": "Trip in June"}]}
    c = await tenant.client.post(url, json=other, headers=headers)
    assert c.status_code == 409
    assert c.headers["content-type"] == PROBLEM_JSON
    assert c.json()["type"] == "urn:memlane:problem:idempotency-key-reused"
    # the key of a single write is no batch's key either
    single = await tenant.client.post(
        f"{tenant.user('u')}/memories", json=body["memories"][0], headers=headers
    )
    assert single.status_code == 409


async def test_another_tenants_key_cannot_write(
    tenant: TenantCtx, other_tenant: TenantCtx, admin_headers: dict[str, str]
) -> None:
    url = f"{tenant.user('u')}/memories/batch"
    body = {"memories": [{"content": "planted by another tenant"}]}
    r = await other_tenant.client.post(url, json=body, headers=other_tenant.headers)
    assert r.status_code == 404 and r.json()["type"] == "urn:memlane:problem:not-found"
    admin = await tenant.client.post(url, json=body, headers=admin_headers)
    assert admin.status_code == 403
    assert await listed(tenant, "u") == []


async def test_sensitive_values_are_sealed_as_in_a_single_write(
    tenant: TenantCtx, database: Database
) -> None:
    items = [
        {"content": f"My ID number is {ID}", "type": "profile"},
        {"content": "Backup password", "key": "account.password", "value": PASSWORD},
        {"content": f"My email is {EMAIL}", "type": "profile"},
    ]
    r = await write_batch(tenant, "u", items)
    assert r.status_code == 201, r.text
    ident, password, email = r.json()["memories"]
    assert ID not in r.text and PASSWORD not in r.text
    assert ident["content"] == "My ID number is **************1230"
    assert ident["secrets"] == [{"kind": "cn_id", "mask": "**************1230"}]
    assert password["value"] == "******" and password["secrets"][0]["kind"] == "password"
    assert email["content"] == f"My email is {EMAIL}"  # personal: returned to its owner
    rows = await _dump(database)
    assert any(tenant.id in row for row in rows), "the scan must see this tenant's rows"
    for value in (ID, PASSWORD, EMAIL):
        assert not [row for row in rows if value in row], value
    opened = await tenant.client.post(
        f"{tenant.user('u')}/memories/{ident['id']}/reveal", headers=tenant.headers
    )
    assert opened.json()["secrets"][0]["value"] == ID


async def test_recall_finds_a_batch_written_memory(tenant: TenantCtx) -> None:
    items = [
        {"content": "My cat is called Miso"},
        {"content": "I work night shifts at the hospital"},
        {"content": "Allergic to penicillin", "type": "constraint"},
    ]
    assert (await write_batch(tenant, "u", items)).status_code == 201
    got = await tenant.recall("u", "what is my cat's name?", top_k=1)
    assert [m["content"] for m in got["memories"]] == ["My cat is called Miso"]
    assert [c["content"] for c in got["constraints"]] == ["Allergic to penicillin"]


async def test_deleting_one_item_erases_only_its_words_from_the_job(
    tenant: TenantCtx, database: Database
) -> None:
    items = [{"content": "My locker code is 5521"}, {"content": "I like jazz"}]
    r = await write_batch(tenant, "u", items)
    locker, jazz = r.json()["memories"]
    deleted = await tenant.client.delete(
        f"{tenant.user('u')}/memories/{locker['id']}", headers=tenant.headers
    )
    assert deleted.status_code == 204
    conn = await asyncpg.connect(database.asyncpg_dsn)
    try:
        payload = await conn.fetchval("SELECT payload FROM jobs WHERE id = $1", r.json()["job_id"])
    finally:
        await conn.close()
    written = [i["body"]["content"] for i in json.loads(payload)["items"]]
    assert written == ["", "I like jazz"]
    assert [m["id"] for m in await listed(tenant, "u")] == [jazz["id"]]


async def test_a_failed_batch_job_is_retried(
    tenant: TenantCtx, app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    embedder = app.state.memlane.embedder
    real, failures = embedder.embed_passages, []

    async def flaky(texts: list[str]) -> list[list[float]]:
        if any("flaky" in t for t in texts) and not failures:
            failures.append(texts)
            raise EmbeddingError("embedding endpoint unavailable")
        return await real(texts)

    monkeypatch.setattr(embedder, "embed_passages", flaky)
    r = await write_batch(tenant, "u", [{"content": "flaky one"}, {"content": "flaky two"}])
    assert r.status_code == 201, r.text
    assert [m["content"] for m in r.json()["memories"]] == ["flaky one", "flaky two"]
    job = (await tenant.client.get(f"/v1/jobs/{r.json()['job_id']}", headers=tenant.headers)).json()
    assert job["status"] == "done" and job["attempts"] == 2 and len(failures) == 1
