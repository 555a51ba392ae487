"""A change or an ending that names what it replaces only by its meaning withdraws that value of
the user's recent turns (``app.ingest.supersession``); an add-on or a change of something else
withdraws nothing. Through the HTTP API."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-02T09:00:00+08:00"


async def test_a_school_transferred_to(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我现在在 NTU 读 EEE", at=T1)
    await tenant.say(
        "u", "s1", "我 transfer 去 NUS 了！！读 computer science，终于 escape EEE 了", at=T2
    )
    assert await tenant.values("u", "education.school", lower=True) == ["nus"]
    assert await tenant.values("u", "education.school", "frozen", lower=True) == ["ntu"]


async def test_a_routine_changed_in_other_words(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I hit the gym at 6am every day before work.", at=T1)
    await tenant.say(
        "u",
        "s1",
        "Changed things up — doing evening workouts around 7pm now, the early mornings were "
        "killing me.",
        at=T2,
    )
    frozen = await tenant.values("u", "schedule.habit", "frozen", lower=True)
    assert any("6am" in v for v in frozen)
    assert not any("6am" in v for v in await tenant.values("u", "schedule.habit", lower=True))


async def test_a_plan_given_up_for_another(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我打算明年去考研", at=T1)
    await tenant.say("u", "s1", "不考研了，家里情况有变，准备直接找工作", at=T2)
    assert not any("考研" in v for v in await tenant.values("u", "plan"))
    assert any("考研" in v for v in await tenant.values("u", "plan", "frozen"))


@pytest.mark.parametrize(
    ("first", "then", "key", "kept"),
    [
        # a promotion beside the employer it is at
        (
            "I'm a software engineer at Shopify",
            "got promoted to senior engineer this week!! still at Shopify obviously",
            "work.employer",
            "Shopify",
        ),
        # a second allergy, said with 也
        ("我对青霉素过敏", "哦对了，海鲜也过敏，虾蟹都不行", "health.allergy", "青霉素"),
    ],
)
async def test_an_addition_or_another_change_withdraws_nothing(
    tenant: TenantCtx, first: str, then: str, key: str, kept: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    await tenant.say("u", "s1", then, at=T2)
    assert kept in await tenant.values("u", key)
    assert await tenant.values("u", key, "frozen") == []


async def test_only_the_users_own_recent_turns_are_read(tenant: TenantCtx) -> None:
    await tenant.say("v", "s1", "我现在在 NTU 读 EEE", at=T1)
    await tenant.say(
        "u", "s1", "我 transfer 去 NUS 了！！读 computer science，终于 escape EEE 了", at=T2
    )
    assert await tenant.values("v", "education.school", lower=True) == ["ntu"]
    assert await tenant.memories("u", key="education.school", status="frozen") == []
