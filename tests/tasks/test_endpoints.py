"""Task working memory: slots, steps, sealing, and conclusions that stay in their task."""

from __future__ import annotations

from tests.conftest import TenantCtx


async def test_task_slots_steps_and_missing_slots(tenant: TenantCtx) -> None:
    url = f"{tenant.user('u')}/tasks"
    r = await tenant.client.post(
        url,
        json={"id": "trip", "name": "Plan a trip", "required_slots": ["destination", "budget"]},
        headers=tenant.headers,
    )
    assert r.status_code == 201
    assert r.json()["missing_slots"] == ["destination", "budget"]
    dup = await tenant.client.post(
        url, json={"id": "trip", "name": "again"}, headers=tenant.headers
    )
    assert dup.status_code == 409 and dup.json()["type"] == "urn:memlane:problem:conflict"
    r = await tenant.client.patch(
        f"{url}/trip",
        json={"slots": {"destination": "Kyoto"}, "steps": [{"description": "asked for dates"}]},
        headers=tenant.headers,
    )
    body = r.json()
    assert body["slots"] == {"destination": "Kyoto"} and body["missing_slots"] == ["budget"]
    assert [s["description"] for s in body["steps"]] == ["asked for dates"]


async def test_messages_with_task_fill_its_slots(tenant: TenantCtx) -> None:
    await tenant.client.post(
        f"{tenant.user('u')}/tasks",
        json={"id": "p1", "name": "Website", "required_slots": ["budget"]},
        headers=tenant.headers,
    )
    await tenant.say("u", "s1", "这个项目预算50万。", task_id="p1")
    task = (await tenant.client.get(f"{tenant.user('u')}/tasks/p1", headers=tenant.headers)).json()
    assert task["slots"] == {"budget": "50万"} and task["missing_slots"] == []


async def test_finished_task_is_sealed_and_its_conclusion_stays_in_it(tenant: TenantCtx) -> None:
    url = f"{tenant.user('u')}/tasks"
    for tid in ("a", "b"):
        await tenant.client.post(
            url, json={"id": tid, "name": f"task {tid}"}, headers=tenant.headers
        )
    r = await tenant.client.post(
        f"{url}/a/finish",
        json={"conclusion": "We chose PostgreSQL for storage"},
        headers=tenant.headers,
    )
    assert r.status_code == 200
    assert r.json()["task"]["status"] == "finished"
    assert [(m["scope"], m["scope_id"]) for m in r.json()["memories"]] == [("task", "a")]
    assert (
        await tenant.client.patch(f"{url}/a", json={"slots": {"x": "y"}}, headers=tenant.headers)
    ).status_code == 409
    assert (await tenant.recall("u", "which database did we choose", task_id="b"))["memories"] == []
    assert (await tenant.recall("u", "which database did we choose"))["memories"] == []
    inside = await tenant.recall("u", "which database did we choose", task_id="a")
    assert [m["content"] for m in inside["memories"]] == ["We chose PostgreSQL for storage"]


async def test_promotion_only_on_request_and_audited(tenant: TenantCtx) -> None:
    url = f"{tenant.user('u')}/tasks"
    await tenant.client.post(url, json={"id": "c", "name": "task c"}, headers=tenant.headers)
    r = await tenant.client.post(
        f"{url}/c/finish",
        json={"conclusion": "I prefer morning meetings", "promote": True},
        headers=tenant.headers,
    )
    assert sorted(m["scope"] for m in r.json()["memories"]) == ["task", "user"]
    everywhere = await tenant.recall("u", "when do I like meetings")
    assert [m["content"] for m in everywhere["memories"]] == ["I prefer morning meetings"]
    audit = (
        await tenant.client.get(f"{tenant.user('u')}/arbitrations", headers=tenant.headers)
    ).json()["items"]
    assert any(a["trigger"] == "promotion" for a in audit)


async def test_task_context_shows_working_memory(tenant: TenantCtx) -> None:
    url = f"{tenant.user('u')}/tasks"
    await tenant.client.post(
        url,
        json={"id": "d", "name": "Buy a laptop", "required_slots": ["budget", "os"]},
        headers=tenant.headers,
    )
    await tenant.client.patch(
        f"{url}/d",
        json={"slots": {"os": "Linux"}, "steps": [{"description": "compared three models"}]},
        headers=tenant.headers,
    )
    r = await tenant.client.get(
        f"{tenant.user('u')}/sessions/s1/context",
        params={"task_id": "d", "query": "laptop"},
        headers=tenant.headers,
    )
    text = r.json()["text"]
    assert (
        "Buy a laptop (open)" in text and "- os: Linux" in text and "still needed: budget" in text
    )
    assert "compared three models" in text


async def test_a_task_with_missing_required_slots_cannot_finish(tenant: TenantCtx) -> None:
    url = f"{tenant.user('u')}/tasks"
    r = await tenant.client.post(
        url,
        json={"id": "trip", "name": "trip", "required_slots": ["x", "y"]},
        headers=tenant.headers,
    )
    assert r.status_code == 201
    await tenant.client.patch(f"{url}/trip", json={"slots": {"y": "set"}}, headers=tenant.headers)
    r = await tenant.client.post(
        f"{url}/trip/finish", json={"conclusion": "We go by train"}, headers=tenant.headers
    )
    assert r.status_code == 409
    assert r.headers["content-type"] == "application/problem+json"
    problem = r.json()
    assert problem["type"] == "urn:memlane:problem:task-slots-missing"
    assert [e["loc"] for e in problem["errors"]] == [["slots", "x"]]
    task = (await tenant.client.get(f"{url}/trip", headers=tenant.headers)).json()
    assert (task["status"], task["missing_slots"], task["conclusion"]) == ("open", ["x"], None)
    # Nothing of the refused finish was remembered.
    listed = await tenant.client.get(f"{tenant.user('u')}/memories", headers=tenant.headers)
    assert listed.json()["items"] == []

    await tenant.client.patch(f"{url}/trip", json={"slots": {"x": "set"}}, headers=tenant.headers)
    r = await tenant.client.post(
        f"{url}/trip/finish", json={"conclusion": "We go by train"}, headers=tenant.headers
    )
    assert r.status_code == 200 and r.json()["task"]["status"] == "finished"
