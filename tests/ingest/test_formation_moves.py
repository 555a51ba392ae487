"""A plan or appointment moved to another time, or a routine changed, forms the new memory and
freezes the old one of the same thing; a routine or appointment added beside the others
freezes nothing — through the HTTP API, in Chinese and English."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1, T2 = "2026-03-02T09:00:00+08:00", "2026-03-03T09:00:00+08:00"


async def _memories(t: TenantCtx, user: str, **params: object) -> list[dict]:
    r = await t.client.get(f"{t.user(user)}/memories", params=params, headers=t.headers)
    assert r.status_code == 200, r.text
    return r.json()["items"]


async def _values(t: TenantCtx, user: str, key: str, status: str) -> list[str]:
    return sorted(m["value"] for m in await _memories(t, user, key=key, status=status))


async def test_a_moved_dentist_appointment_replaces_the_old_one_zh(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "下周三下午两点约了牙医", at=T1)
    await tenant.say("u", "s1", "牙医那边改到周五上午十点了", at=T2)
    active = await _memories(tenant, "u", key="event", status="active")
    assert [m["value"] for m in active] == ["周五上午十点约了牙医"]
    frozen = await _memories(tenant, "u", key="event", status="frozen")
    assert [m["value"] for m in frozen] == ["下周三下午两点约了牙医"]
    assert frozen[0]["superseded_by"] == active[0]["id"]


async def test_a_moved_dinner_replaces_the_old_one_en(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "Reminder for me: dinner with Priya on Thursday at 7", at=T1)
    await tenant.say("u", "s1", "Priya can't do Thursday, we moved dinner to Saturday 8pm", at=T2)
    assert await _values(tenant, "u", "event", "active") == [
        "Reminder for me: dinner with Priya Saturday 8pm"
    ]
    frozen = await _values(tenant, "u", "event", "frozen")
    assert frozen == ["Reminder for me: dinner with Priya on Thursday at 7"]


async def test_a_moved_routine_stays_a_routine_zh(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我每周六上午去游泳", at=T1)
    await tenant.say("u", "s1", "游泳改到周日下午了，周六要加班", at=T2)
    habits = await _values(tenant, "u", "schedule.habit", "active")
    assert "周日下午游泳" in habits
    assert await _values(tenant, "u", "schedule.habit", "frozen") == ["每周六上午游泳"]
    # the moved routine is no event on next Sunday
    assert await _memories(tenant, "u", key="event", status="active") == []


async def test_a_routine_changed_by_the_time_it_gives_up_en_and_zh(tenant: TenantCtx) -> None:
    await tenant.say("en", "s1", "I hit the gym every morning at 6", at=T1)
    moved = "switched my workouts to evenings after work, the 6am thing was killing me"
    await tenant.say("en", "s1", moved, at=T2)
    # the routine without the verb that changed it
    assert await _values(tenant, "en", "schedule.habit", "active") == [
        "workouts to evenings after work"
    ]
    assert await _values(tenant, "en", "schedule.habit", "frozen") == [
        "hit the gym every morning at 6"
    ]
    await tenant.say("zh", "s1", "我每天晚上十点就睡了", at=T1)
    await tenant.say("zh", "s1", "最近作息变了，一般凌晨一点才睡，十点根本睡不着", at=T2)
    assert await _values(tenant, "zh", "schedule.habit", "active") == ["凌晨一点才睡"]
    assert await _values(tenant, "zh", "schedule.habit", "frozen") == ["每天晚上十点就睡"]


async def test_a_plan_given_up_for_another_zh(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我打算明年考研", at=T1)
    await tenant.say("u", "s1", "考研不考了，想了想还是直接找工作吧", at=T2)
    assert await _values(tenant, "u", "plan", "active") == ["还是直接找工作"]
    assert await _values(tenant, "u", "plan", "frozen") == ["明年考研"]


async def test_a_stopped_routine_forms_no_habit(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "最近膝盖不太好，跑步先停了，改成每天骑车 30 分钟", at=T2)
    assert await _values(tenant, "u", "schedule.habit", "active") == ["每天骑车 30 分钟"]


async def test_an_appointment_moved_named_in_a_clause_of_its_own(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "周四下午三点约了理发", at=T1)
    await tenant.say("u", "s1", "周四下午三点要见客户", at=T1)
    await tenant.say("u", "s1", "客户那边改时间了，改到周五上午十点", at=T2)
    active = await _values(tenant, "u", "event", "active")
    assert "周五上午十点要见客户" in active
    assert "周四下午三点约了理发" in active  # another appointment: not the client's
    assert await _values(tenant, "u", "event", "frozen") == ["周四下午三点要见客户"]


async def test_an_added_routine_or_appointment_freezes_nothing(tenant: TenantCtx) -> None:
    await tenant.say("en", "s1", "I walk the dog every night around 9", at=T1)
    await tenant.say("en", "s1", "I also go climbing every saturday now", at=T2)
    assert await _values(tenant, "en", "schedule.habit", "active") == [
        "also go climbing every saturday",
        "walk the dog every night around 9",
    ]
    assert await _values(tenant, "en", "schedule.habit", "frozen") == []
    await tenant.say("zh", "s1", "我每天早上跑步", at=T1)
    await tenant.say("zh", "s1", "现在每天早上还会练半小时瑜伽", at=T2)
    assert len(await _values(tenant, "zh", "schedule.habit", "active")) == 2
    assert await _values(tenant, "zh", "schedule.habit", "frozen") == []


async def test_only_the_same_thing_is_replaced(tenant: TenantCtx) -> None:
    await tenant.say("en", "s1", "dinner with Sam on Friday at 7", at=T1)
    await tenant.say("en", "s1", "Now I'm having dinner with Mia on Saturday at 8", at=T2)
    active = await _values(tenant, "en", "event", "active")
    assert any("Sam" in v for v in active) and any("Mia" in v for v in active)
    assert await _values(tenant, "en", "event", "frozen") == []
    await tenant.say("zh", "s1", "我每周日上午去教堂", at=T1)
    await tenant.say("zh", "s1", "我每周六上午去游泳", at=T1)
    await tenant.say("zh", "s1", "游泳改到周日下午了，周六要加班", at=T2)
    assert "每周日上午去教堂" in await _values(tenant, "zh", "schedule.habit", "active")
    assert await _values(tenant, "zh", "schedule.habit", "frozen") == ["每周六上午游泳"]


@pytest.mark.parametrize(
    ("before", "then", "active", "frozen"),
    [
        # the time of a routine moved; read as saying nothing to store by the act classifier,
        # kept as a thing moved
        ("我每天晚上十点遛狗", "遛狗时间挪到早上了，晚上太热", "每天早上遛狗", "每天晚上十点遛狗"),
        # a routine said with 是: no 是 in its value
        (
            "我每天早上七点起床",
            "现在都是六点就起了，为了赶早班地铁",
            "每天早上六点起床",
            "每天早上七点起床",
        ),
    ],
)
async def test_a_routine_changed_in_few_words_is_the_routine_now(
    tenant: TenantCtx, before: str, then: str, active: str, frozen: str
) -> None:
    await tenant.say("u", "s1", before, at=T1)
    await tenant.say("u", "s1", then, at=T2)
    assert await _values(tenant, "u", "schedule.habit", "active") == [active]
    assert await _values(tenant, "u", "schedule.habit", "frozen") == [frozen]


async def test_a_routine_said_with_a_copula_after_its_time(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我每天都是走路上班", at=T1)
    assert await _values(tenant, "u", "schedule.habit", "active") == ["每天走路上班"]
