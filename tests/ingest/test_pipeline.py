"""Conversation ingestion through the HTTP API: filter, extraction, arbitration, origin."""

from __future__ import annotations

from tests.conftest import TenantCtx


async def _memories(t: TenantCtx, user: str, **params: object) -> list[dict]:
    r = await t.client.get(f"{t.user(user)}/memories", params=params, headers=t.headers)
    return r.json()["items"]


async def test_small_talk_and_questions_store_nothing_but_the_turns(tenant: TenantCtx) -> None:
    body = await tenant.say(
        "u", "s1", "今天有点热啊。", "北京地铁怎么收费？", "thanks!", "hi there"
    )
    assert body["memories"] == [] and body["arbitrations"] == []
    assert await _memories(tenant, "u") == []
    ctx = (
        await tenant.client.get(f"{tenant.user('u')}/sessions/s1/context", headers=tenant.headers)
    ).json()
    assert ctx["sections"]["recent_turns"]["items"] == 4


async def test_every_memory_traces_back_to_its_words(tenant: TenantCtx) -> None:
    body = await tenant.say("u", "s1", "我叫李明，是广东人。", at="2026-05-01T10:00:00+08:00")
    assert {m["key"] for m in body["memories"]} >= {"name.full", "hometown"}
    for m in body["memories"]:
        assert m["origin"]["session_id"] == "s1"
        assert len(m["origin"]["message_ids"]) == 1
        assert m["occurred_at"] == "2026-05-01T02:00:00Z"
        assert m["source"] == "user_declared" and m["confidence"] == 0.9
    assert {a["trigger"] for a in body["arbitrations"]} == {"extraction"}


async def test_assistant_turns_are_not_facts_about_the_user(tenant: TenantCtx) -> None:
    r = await tenant.client.post(
        f"{tenant.user('u')}/sessions/s1/messages?wait=true",
        json={"messages": [{"role": "assistant", "content": "I live in Paris and I love jazz."}]},
        headers=tenant.headers,
    )
    assert r.status_code == 201 and r.json()["memories"] == []


async def test_correction_zh_supersedes_employer(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我在星河科技做后端开发。", at="2026-01-05T09:00:00+08:00")
    body = await tenant.say(
        "u",
        "s2",
        "我已经从星河科技离职了，现在在蓝鲸数据做产品经理。",
        at="2026-03-01T09:00:00+08:00",
    )
    rules = {(a["rule"], a["outcome"]) for a in body["arbitrations"]}
    assert ("user_correction", "superseded") in rules
    [employer] = await _memories(tenant, "u", key="work.employer", status="active")
    assert employer["value"] == "蓝鲸数据"
    [old] = await _memories(tenant, "u", key="work.employer", status="frozen")
    assert old["value"] == "星河科技" and old["superseded_by"] == employer["id"]
    assert old["valid_to"] == "2026-03-01T01:00:00Z"
    recalled = await tenant.recall("u", "我现在在哪家公司工作？")
    assert "蓝鲸数据" in " ".join(m["content"] for m in recalled["memories"])
    assert "在星河科技" not in " ".join(m["content"] for m in recalled["memories"])


async def test_correction_en_move_starts_last_month(tenant: TenantCtx) -> None:
    await tenant.say(
        "u", "s1", "I live in Shenzhen and I work as a nurse.", at="2026-03-10T09:00:00+00:00"
    )
    await tenant.say("u", "s2", "I moved to Shanghai last month.", at="2026-05-10T09:00:00+00:00")
    [city] = await _memories(tenant, "u", key="residence.city", status="active")
    assert city["value"] == "Shanghai"
    assert city["valid_from"].startswith("2026-04-01")
    [old] = await _memories(tenant, "u", key="residence.city", status="frozen")
    assert old["value"] == "Shenzhen" and old["valid_to"].startswith("2026-04-01")
    # the role is another key: untouched
    [role] = await _memories(tenant, "u", key="work.role", status="active")
    assert "nurse" in role["value"]


async def test_drink_change_zh_and_en(tenant: TenantCtx) -> None:
    await tenant.say("zh", "s1", "我喜欢喝美式。", at="2026-04-01T08:00:00+08:00")
    await tenant.say("zh", "s2", "我改喝拿铁了。", at="2026-04-08T08:00:00+08:00")
    assert [
        m["value"] for m in await _memories(tenant, "zh", key="preference.drink", status="active")
    ] == ["拿铁"]
    await tenant.say("en", "s1", "I like to drink espresso.", at="2026-04-01T08:00:00+00:00")
    await tenant.say("en", "s2", "I switched to green tea.", at="2026-04-08T08:00:00+00:00")
    [drink] = await _memories(tenant, "en", key="preference.drink", status="active")
    assert "tea" in drink["value"]


async def test_late_message_about_the_past_does_not_override(tenant: TenantCtx) -> None:
    # Sent second, but said earlier: it must not win (occurred_at, not arrival order).
    await tenant.say("u", "s2", "I live in Lisbon.", at="2026-06-01T09:00:00+01:00")
    await tenant.say("u", "s1", "I live in Madrid.", at="2026-01-01T09:00:00+01:00")
    [city] = await _memories(tenant, "u", key="residence.city", status="active")
    assert city["value"] == "Lisbon"


async def test_relative_event_time_resolves_against_the_message(tenant: TenantCtx) -> None:
    body = await tenant.say(
        "u", "s1", "我明天下午三点要和客户开会。", at="2026-09-01T09:00:00+08:00"
    )
    [event] = body["memories"]
    assert event["type"] == "event"
    assert event["valid_from"] == "2026-09-02T07:00:00Z"  # 15:00 +08:00


async def test_multi_valued_facts_accumulate_zh(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我家有两只猫，一只叫馒头，一只叫芝麻。")
    await tenant.say("u", "s1", "我不吃香菜，也不吃葱。")
    assert sorted(m["value"] for m in await _memories(tenant, "u", key="pets.name")) == sorted(
        ["芝麻", "馒头"]
    )
    assert sorted(m["value"] for m in await _memories(tenant, "u", key="diet.avoid")) == sorted(
        ["香菜", "葱"]
    )


async def test_task_decisions_stay_in_their_task(tenant: TenantCtx) -> None:
    body = await tenant.say("u", "s1", "这个项目我们决定用 Redis 做缓存。", task_id="proj-a")
    assert [(m["scope"], m["scope_id"]) for m in body["memories"]] == [("task", "proj-a")]
    assert (await tenant.recall("u", "缓存选型", task_id="proj-b"))["memories"] == []


async def test_message_batches_are_idempotent(tenant: TenantCtx) -> None:
    url = f"{tenant.user('u')}/sessions/s1/messages"
    headers = {**tenant.headers, "Idempotency-Key": "batch-1"}
    body = {"messages": [{"role": "user", "content": "I have a dog named Rex."}]}
    a = await tenant.client.post(url, json=body, headers=headers)
    b = await tenant.client.post(url + "?wait=true", json=body, headers=headers)
    assert a.json()["job_id"] == b.json()["job_id"]
    assert len(await _memories(tenant, "u", key="pets.name")) == 1
    ctx = (
        await tenant.client.get(f"{tenant.user('u')}/sessions/s1/context", headers=tenant.headers)
    ).json()
    assert ctx["sections"]["recent_turns"]["items"] == 1


async def test_infer_true_on_an_explicit_memory_extracts(tenant: TenantCtx) -> None:
    body = await tenant.remember("u", "我对花生过敏。", infer=True)
    [m] = body["memories"]
    assert m["key"] == "health.allergy" and m["value"] == "花生"


async def test_messages_validation(tenant: TenantCtx) -> None:
    url = f"{tenant.user('u')}/sessions/s1/messages"
    bad = [
        {"messages": []},
        {"messages": [{"role": "robot", "content": "x"}]},
        {"messages": [{"role": "user", "content": ""}]},
        {"messages": [{"role": "user", "content": " \n\t "}]},
        {"messages": [{"role": "user", "content": "x", "occurred_at": "2026-01-01T10:00:00"}]},
        {"messages": [{"role": "user", "content": "a\u0000b"}]},
        {"messages": [{"role": "user", "content": "x" * 8001}]},
    ]
    for body in bad:
        r = await tenant.client.post(url, json=body, headers=tenant.headers)
        assert r.status_code == 422, body
        assert r.json()["type"] == "urn:memlane:problem:validation-error"
    r = await tenant.client.post(
        f"{tenant.user('u')}/sessions/bad%20id/messages",
        json={"messages": [{"role": "user", "content": "x"}]},
        headers=tenant.headers,
    )
    assert r.status_code == 422


async def test_project_facts_said_in_a_task_stay_in_it(tenant: TenantCtx) -> None:
    body = await tenant.say("u", "s1", "这个项目预算50万。", task_id="site")
    assert [(m["key"], m["scope"], m["scope_id"]) for m in body["memories"]] == [
        ("project.budget", "task", "site")
    ]
    assert (await tenant.recall("u", "预算多少", task_id="other"))["memories"] == []


async def test_an_allergy_is_a_constraint_that_always_reaches_the_context(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "我对花生过敏。")
    for i in range(5):
        await tenant.remember("u", f"I collected stamp series number {i} from Portugal and Spain")
    r = await tenant.client.get(
        f"{tenant.user('u')}/sessions/s1/context",
        params={"query": "stamps", "token_budget": 120},
        headers=tenant.headers,
    )
    ctx = r.json()
    assert "对花生过敏" in ctx["text"] and ctx["sections"]["constraints"]["items"] == 1
    assert ctx["sections"]["memories"]["dropped"] > 0
