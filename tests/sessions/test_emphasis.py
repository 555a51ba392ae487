"""An emphasis ("记住", "一定要记得", "别忘了", "this is important", "don't forget") raises
the confidence and pins the memory: forgetting never archives it, and recall's explain shows
it (docs/sessions.md). Through the HTTP API and the forgetting pass."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from app.lifecycle.forget import DatabaseRuntime, forget_pass
from app.runtime import Runtime
from tests.conftest import TenantCtx

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
LONG_AGO = (NOW - timedelta(days=90)).isoformat()


async def forget(app: Any, tenant: TenantCtx, **overrides: Any) -> None:
    rt: Runtime = app.state.memlane
    runtime = DatabaseRuntime(rt.settings.model_copy(update=overrides), rt.engine, rt.sessionmaker)
    await forget_pass(runtime, now=NOW, only_tenants=[uuid.UUID(tenant.id)])


async def status(tenant: TenantCtx, memory_id: str) -> str:
    r = await tenant.client.get(f"{tenant.user('u')}/memories/{memory_id}", headers=tenant.headers)
    return str(r.json()["status"])


EMPHASISED = [
    pytest.param("别忘了，我女儿叫小雨", "family.member", "别忘了", id="zh-dont-forget"),
    pytest.param("一定要记得我住在杭州", "residence.city", "一定要记得", id="zh-must-remember"),
    pytest.param("这个很重要：我在星河科技工作", "work.employer", "很重要", id="zh-important"),
    pytest.param(
        "Don't forget, my daughter is called Anna.", "family.member", "Don't forget", id="en"
    ),
    pytest.param(
        "This is important, I work at Acme.",
        "work.employer",
        "This is important",
        id="en-important",
    ),
]


@pytest.mark.parametrize(("said", "key", "words"), EMPHASISED)
async def test_an_emphasised_fact_is_pinned_more_confident_and_explained(
    tenant: TenantCtx, said: str, key: str, words: str
) -> None:
    body = await tenant.say("u", "s1", said, at="2026-05-01T10:00:00+08:00")

    [fact] = [m for m in body["memories"] if m["key"] == key]
    assert fact["metadata"]["pinned"] is True and fact["metadata"]["emphasis"] == words
    assert fact["confidence"] == pytest.approx(1.0)  # 0.9 + settings.emphasis_confidence_boost
    assert fact["scope"] == "user"
    recalled = await tenant.recall("u", fact["content"], explain=True)
    [hit] = [m for m in recalled["memories"] if m["id"] == fact["id"]]
    assert hit["explain"]["pinned"] is True


async def test_the_same_fact_said_plainly_is_not_pinned(tenant: TenantCtx) -> None:
    body = await tenant.say("u", "s1", "My daughter is called Anna.")
    [fact] = [m for m in body["memories"] if m["key"] == "family.member"]
    assert "pinned" not in fact["metadata"] and fact["confidence"] == pytest.approx(0.9)
    recalled = await tenant.recall("u", "daughter", explain=True)
    [hit] = [m for m in recalled["memories"] if m["id"] == fact["id"]]
    assert hit["explain"]["pinned"] is False


@pytest.mark.parametrize(
    ("plain", "emphasised"),
    [
        pytest.param("我明天下午三点要和客户开会", "别忘了我明天下午三点要和客户开会", id="zh"),
        pytest.param(
            "I have a dentist appointment tomorrow at 3pm.",
            "Don't forget, I have a dentist appointment tomorrow at 3pm.",
            id="en",
        ),
    ],
)
async def test_forgetting_never_archives_a_pinned_memory(
    app: Any, tenant: TenantCtx, plain: str, emphasised: str
) -> None:
    plain_body = await tenant.say("u", "s1", plain, at=LONG_AGO)
    pinned_body = await tenant.say("v", "s1", emphasised, at=LONG_AGO)
    [faded] = [m for m in plain_body["memories"] if m["type"] == "event"]
    [kept] = [m for m in pinned_body["memories"] if m["type"] == "event"]
    assert kept["metadata"]["pinned"] is True

    # decay: a 90-day-old event is far below the threshold
    await forget(app, tenant)
    assert await status(tenant, faded["id"]) == "archived"
    r = await tenant.client.get(f"{tenant.user('v')}/memories/{kept['id']}", headers=tenant.headers)
    assert r.json()["status"] == "active"

    # capacity: over it, the pinned memory is still not the one to go
    await forget(app, tenant, max_active_memories_per_user=1)
    r = await tenant.client.get(f"{tenant.user('v')}/memories/{kept['id']}", headers=tenant.headers)
    assert r.json()["status"] == "active"


@pytest.mark.parametrize(
    ("said", "key"),
    [
        pytest.param("记住，我女儿叫小雨", "family.member", id="zh"),
        pytest.param("Don't forget, my daughter is called Anna.", "family.member", id="en"),
    ],
)
async def test_an_inferred_explicit_write_is_pinned_too(
    tenant: TenantCtx, said: str, key: str
) -> None:
    body = await tenant.remember("u", said, infer=True)
    [fact] = [m for m in body["memories"] if m["key"] == key]
    assert fact["metadata"]["pinned"] is True and fact["scope"] == "user"
    assert fact["confidence"] == pytest.approx(1.0)
