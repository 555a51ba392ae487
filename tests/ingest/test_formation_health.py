"""A state of health said as what the user *is* ("I'm celiac", "I'm 30 weeks pregnant", "我麸质
不耐受", "我痛风好多年了") becomes ``health.condition``, and one that ended ("no longer
pregnant", "现在不贫血了") is withdrawn — through the HTTP API, in Chinese and English. How the
user feels today is not a condition."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-02T09:00:00+08:00"


@pytest.mark.parametrize(
    ("said", "condition"),
    [
        ("I'm celiac, so no regular pasta for me", "celiac"),
        ("Quick note: I'm 28 weeks pregnant", "pregnant"),
        ("I should mention I'm lactose intolerant myself", "lactose intolerant"),
        ("我痛风好多年了，啤酒不敢喝", "痛风"),
        ("我乳糖不耐受", "乳糖不耐受"),
        ("我 gluten intolerant，面条都不行", "gluten intolerant"),
    ],
)
async def test_a_state_of_health_said_as_what_the_user_is_is_a_condition(
    tenant: TenantCtx, said: str, condition: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert condition in await tenant.values("u", "health.condition", lower=True)


@pytest.mark.parametrize("said", ["I'm tired today, long week", "I'm so stressed about tomorrow"])
async def test_how_the_user_feels_today_is_no_condition(tenant: TenantCtx, said: str) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "health.condition", lower=True) == []


@pytest.mark.parametrize(
    ("first", "ended", "condition"),
    [
        ("I'm pregnant!", "she's here! so no longer pregnant lol, just tired", "pregnant"),
        ("我贫血", "补了半年铁，现在不贫血了", "贫血"),
    ],
)
async def test_a_condition_that_ended_is_withdrawn(
    tenant: TenantCtx, first: str, ended: str, condition: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    assert await tenant.values("u", "health.condition", lower=True) == [condition]
    await tenant.say("u", "s1", ended, at=T2)
    assert await tenant.values("u", "health.condition", lower=True) == []
    assert await tenant.values("u", "health.condition", "frozen", lower=True) == [condition]


async def test_a_brand_written_with_a_lower_case_head_keeps_it(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I'm on Android, a Pixel 8", at=T1)
    await tenant.say("u", "s1", "switched to an iPhone 16 last month, I gave in", at=T2)
    values = await tenant.values("u", "tech.preferred", lower=True)
    assert "iphone 16" in values
    assert "phone 16" not in values
    # "I gave in" is too little to be a fact of its own
    r = await tenant.client.get(
        f"{tenant.user('u')}/memories", params={"status": "active"}, headers=tenant.headers
    )
    assert "gave in" not in [m["content"] for m in r.json()["items"] if m["key"] is None]
