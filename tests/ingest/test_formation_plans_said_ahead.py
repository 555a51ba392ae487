"""A Chinese plan said time first, the user left out ("周六约了老同学去爬山", "下个月去日本玩",
"月底去成都出差"), is the user's: an event on a day, or an appointment at a looser time; else
a plan. Someone else's doing after the time, and a doing already
over, are not. Through the HTTP API (turns on Saturday 2026-12-05)."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

AT = "2026-12-05T09:00:00+08:00"


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("下周三约了老同学去爬山", "event", "下周三约了老同学去爬山"),
        ("今晚加班，估计很晚才回", "event", "今晚加班"),
        ("下个月去日本玩", "plan", "下个月去日本玩"),
        ("月底去成都出差", "event", "月底去成都出差"),
        ("过几天去趟医院复查", "event", "过几天去趟医院复查"),
        ("國慶去雲南玩", "plan", "國慶去雲南玩"),
    ],
)
async def test_a_plan_said_time_first_is_the_users(
    tenant: TenantCtx, text: str, key: str, value: str
) -> None:
    await tenant.say("u", "s1", text, at=AT)
    assert await tenant.values("u", key) == [value]


async def test_the_day_of_a_plan_said_time_first_is_resolved(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "下周三约了老同学去爬山", at=AT)
    (event,) = await tenant.memories("u", key="event")
    assert event["content"] == "2026年12月9日约了老同学去爬山"
    assert event["valid_from"] == "2026-12-08T16:00:00Z"  # 9 December, 00:00 in UTC+8


@pytest.mark.parametrize(
    "text",
    [
        "下个月房租要涨",  # the rent's doing, not the user's
        "周末搬家了",  # over
    ],
)
async def test_what_is_not_the_users_plan_forms_none(tenant: TenantCtx, text: str) -> None:
    await tenant.say("u", "s1", text, at=AT)
    assert await tenant.values("u", "plan") == []
    assert await tenant.values("u", "event") == []


async def test_a_floor_is_no_city(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我住六楼，没电梯，每天爬楼梯就当运动了", at=AT)
    assert await tenant.values("u", "residence.city") == []
    await tenant.say("u", "s1", "我住在六盘水", at=AT)
    assert await tenant.values("u", "residence.city") == ["六盘水"]


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("working late tonight, ugh", "event", "working late"),
        ("getting married next spring!", "plan", "getting married next spring"),
        ("visiting my parents over Christmas", "plan", "visiting my parents over christmas"),
    ],
)
async def test_an_english_doing_to_come_without_i_am_is_the_users(
    tenant: TenantCtx, text: str, key: str, value: str
) -> None:
    await tenant.say("u", "s1", text, at=AT)
    assert await tenant.values("u", key, lower=True) == [value]
    assert await tenant.values("u", "family.member") == []


async def test_a_time_it_happens_over_ends_nothing(tenant: TenantCtx) -> None:
    """ "over Christmas" is when, not "over it": nothing is withdrawn."""
    await tenant.remember("u", "loves Christmas", key="preference.likes", value="Christmas")
    await tenant.say("u", "s1", "I'm visiting my parents over Christmas", at=AT)
    assert await tenant.values("u", "preference.likes") == ["Christmas"]
    assert await tenant.memories("u", status="frozen") == []


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("tonight cooking dinner for my in-laws", "event", "cooking dinner for my in-laws"),
        ("this Saturday running a 10k", "event", "running a 10k"),
        ("周六跟朋友去垦丁", "event", "周六跟朋友去垦丁"),
        ("明年三月结婚", "plan", "明年三月结婚"),
        ("春节回老家过年", "plan", "春节回老家过年"),
    ],
)
async def test_more_ways_to_say_a_doing_to_come(
    tenant: TenantCtx, text: str, key: str, value: str
) -> None:
    await tenant.say("u", "s1", text, at=AT)
    assert await tenant.values("u", key) == [value]


@pytest.mark.parametrize(
    ("first", "then", "key", "kept"),
    [
        ("我住在上海", "下个月搬去深圳", "residence.city", "上海"),  # a move to come
        ("我喜欢喝咖啡", "今晚喝点红酒", "preference.drink", "咖啡"),  # tonight's drink
    ],
)
async def test_what_is_to_come_or_for_one_night_replaces_nothing(
    tenant: TenantCtx, first: str, then: str, key: str, kept: str
) -> None:
    await tenant.say("u", "s1", first, at=AT)
    await tenant.say("u", "s1", then, at=AT)
    assert await tenant.values("u", key) == [kept]
    assert await tenant.values("u", key, "frozen") == []


async def test_a_plan_called_off_by_what_it_is_is_withdrawn(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "周六约了老同学去爬山", at=AT)
    await tenant.say("u", "s1", "周六的爬山取消了", at=AT)
    assert await tenant.values("u", "event") == []
    assert await tenant.values("u", "event", "frozen") == ["周六约了老同学去爬山"]


async def test_no_need_to_work_late_gives_up_no_tool(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "今晚加班", at=AT)
    await tenant.say("u", "s1", "今晚不用加班了", at=AT)
    assert await tenant.values("u", "event", "frozen") == ["今晚加班"]
    assert await tenant.memories("u", key="tech.preferred") == []


@pytest.mark.parametrize(
    "then", ["膝盖伤了以后我就不跑步了，现在改成游泳", "我不跑步了，现在改成游泳"]
)
async def test_a_routine_given_up_by_its_doing_is_withdrawn(tenant: TenantCtx, then: str) -> None:
    """ "不跑步了" ends "每天早上跑五公里": the doing given up (跑 with 步, which says only the
    doing) is the verb of the one routine that holds it; the swimming taken up in its place is
    the routine now."""
    await tenant.say("u", "s1", "我每天早上跑五公里", at=AT)
    await tenant.say("u", "s1", then, at=AT)
    assert await tenant.values("u", "schedule.habit", "frozen") == ["每天早上跑五公里"]
    assert await tenant.values("u", "schedule.habit") == ["游泳"]
