"""Routines a person keeps one of, and secrets given anew by whoever issues them. A new bedtime,
a new hour to get up or a new way to work takes the place of the one held, however it is worded
("最近开始早睡了，基本10点半就躺下" after "我一般晚上12点以后才睡"); a workout, a nap or a
weekend's hours stay beside it. A card or a passport issued anew ("the bank sent me a new
card", "they issued me a new passport, the number is now …", "the replacement is …") replaces
the one held; someone else's new number replaces nothing. A thing moved is remembered by what
it is at its new time ("dentist appointment Monday 10am", not "moved it to Monday 10am"), and a
day moved to is no home. Through the HTTP API."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

AT = ("2026-12-07T09:00:00+08:00", "2026-12-07T10:00:00+08:00")


@pytest.mark.parametrize(
    ("turns", "old"),
    [
        (("我一般晚上12点以后才睡", "最近开始早睡了，基本10点半就躺下"), "12"),
        (("I usually go to bed around 1am", "these days I'm in bed by 11 every night"),
         "1am"),
        (("我每天早上七点半起床", "现在每天六点就起来了，送孩子上学"), "七点半"),
        (("I get up at 9 most days", "these days I wake up at 6 without an alarm"), "9"),
        (("我每天坐地铁上班", "单位搬了，现在骑车上班，二十分钟"), "地铁"),
    ],
)  # fmt: skip
async def test_a_routine_kept_one_of_replaces_the_one_held(
    tenant: TenantCtx, turns: tuple[str, str], old: str
) -> None:
    active, frozen = await tenant.change("u", turns, "schedule.habit", at=AT)
    assert len(frozen) == 1 and old in frozen[0]
    assert active and all(old not in value for value in active)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("我一般晚上12点以后才睡", "我每天中午午睡半小时"),
        ("我一般晚上12点以后才睡", "周末我会睡到中午"),
        ("I get up at 6 on weekdays", "on weekends I sleep in till 10"),
        ("I usually go to bed around 11", "I run every morning before work"),
        ("我每天坐地铁上班", "晚上一般十一点睡"),
    ],
)
async def test_a_routine_of_another_kind_or_days_stays(
    tenant: TenantCtx, first: str, second: str
) -> None:
    active, frozen = await tenant.change("u", (first, second), "schedule.habit", at=AT)
    assert frozen == []
    assert len(active) == 2


async def test_two_routines_of_one_turn_both_stay(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我一般晚上十一点睡，早上六点半起来跑步", at=AT[0])
    assert len(await tenant.values("u", "schedule.habit")) == 2
    assert await tenant.values("u", "schedule.habit", "frozen") == []


@pytest.mark.parametrize(
    ("turns", "key"),
    [
        (("my passport number is K4829113", "they issued me a new passport last week, the "
          "number is now P7736021"), "identity.document"),
        (("use my visa for the booking, number is 4111 1111 1111 1111", "ugh the bank killed "
          "that card after a fraud alert. the replacement is 4000 0566 5566 5556"),
         "finance.card"),
    ],
)  # fmt: skip
async def test_a_secret_issued_anew_replaces_the_one_held(
    tenant: TenantCtx, turns: tuple[str, str], key: str
) -> None:
    await tenant.say("u", "s1", turns[0], at=AT[0])
    await tenant.say("u", "s1", turns[1], at=AT[1])
    assert len(await tenant.values("u", key)) == 1
    assert len(await tenant.values("u", key, "frozen")) == 1


async def test_a_relatives_number_now_replaces_nothing(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我的手机号是 13800138000", at=AT[0])
    await tenant.say("u", "s1", "my brother's number is now 13912345678", at=AT[1])
    assert await tenant.values("u", "contact.phone") == ["13800138000"]
    assert await tenant.values("u", "contact.phone", "frozen") == []


@pytest.mark.parametrize(
    ("turns", "key", "now"),
    [
        (("Dentist appointment is Thursday at 3pm, what should I ask about my wisdom teeth?",
          "They called and moved it to Monday 10am"), "event", ("dentist", "monday", "10am")),
        (("我下個禮拜三約咗牙醫覆診", "牙醫話要改期，變咗下個禮拜五"), "event", ("牙醫", "禮拜五")),
        (("I do yoga every tuesday at 7", "yoga moved to thursdays now"), "schedule.habit",
         ("yoga", "thursdays", "7")),
    ],
)  # fmt: skip
async def test_a_thing_moved_is_remembered_by_what_it_is_at_its_new_time(
    tenant: TenantCtx, turns: tuple[str, str], key: str, now: tuple[str, ...]
) -> None:
    active, frozen = await tenant.change("u", turns, key, at=AT)
    assert len(frozen) == 1
    assert len(active) == 1 and all(word in active[0] for word in now), active
    assert await tenant.values("u", "residence.city") == []


async def test_a_move_to_a_city_in_a_month_gone_by_is_dated_in_the_past(tenant: TenantCtx) -> None:
    # said on 2026-12-07: March is the March before, not the one to come
    await tenant.say("u", "s1", "I moved to Denver in March", at=AT[0])
    [home] = await tenant.memories("u", key="residence.city", status="active")
    assert home["value"] == "Denver"
    assert "March 2026" in home["content"], home["content"]


@pytest.mark.parametrize(
    ("turns", "name", "kinds"),
    [
        (("我养了只hamster叫Peanut", "纠正一下 不是hamster 是guinea pig 我总搞混 😅"), "peanut",
         ("guinea pig", "hamster")),
        (("我养了一只cat叫Momo", "纠正一下 不是cat 是rabbit 打错了"), "momo", ("rabbit", "cat")),
    ],
)  # fmt: skip
async def test_a_kind_put_right_with_spaces_keeps_the_pets_name(
    tenant: TenantCtx, turns: tuple[str, str], name: str, kinds: tuple[str, str]
) -> None:
    await tenant.say("u", "s1", turns[0], at=AT[0])
    await tenant.say("u", "s1", turns[1], at=AT[1])
    assert await tenant.values("u", "pets.name", lower=True) == [name]
    assert await tenant.values("u", "pets.kind", lower=True) == [kinds[0]]
    assert await tenant.values("u", "pets.kind", "frozen", lower=True) == [kinds[1]]


async def test_moved_back_to_ic_is_no_workplace(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I'm a team lead at Shopify, managing 6 engineers.", at=AT[0])
    await tenant.say("u", "s1", "I got moved back to IC last month, no reports anymore.", at=AT[1])
    assert await tenant.values("u", "work.employer") == ["Shopify"]
    assert await tenant.values("u", "residence.city") == []


@pytest.mark.parametrize(
    ("turns", "old"),
    [
        (("我打算今年下半年考雅思，目标7分", "算了 雅思不考了 公司说可以内部调岗去新加坡"), "雅思"),
        (("我计划明年去考驾照", "驾照不考了，太贵了"), "驾照"),
    ],
)  # fmt: skip
async def test_a_plan_ended_by_its_thing_said_first_ends(
    tenant: TenantCtx, turns: tuple[str, str], old: str
) -> None:
    active, frozen = await tenant.change("u", turns, "plan", at=AT)
    assert len(frozen) == 1 and old in frozen[0]
    assert all(old not in value for value in active)


@pytest.mark.parametrize(
    ("plan", "second"),
    [
        ("我今年打算考摩托车驾照", "之前的汽车驾照找不到了，得去补办"),
        ("我打算下半年考雅思", "雅思的报名费又涨了，不便宜了"),
        ("我明年打算考公务员", "公务员的培训班我不报了，自己在家刷题"),
    ],
)
async def test_a_clause_of_ending_about_something_beside_the_plan_leaves_it(
    tenant: TenantCtx, plan: str, second: str
) -> None:
    active, frozen = await tenant.change("u", (plan, second), "plan", at=AT)
    assert frozen == []
    assert len(active) == 1


async def test_one_early_night_leaves_the_bedtime(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u", ("我一般十二点睡", "昨天晚上十点就睡了，太累了"), "schedule.habit", at=AT
    )
    assert frozen == []
    assert any("十二点" in value for value in active)


@pytest.mark.parametrize(
    ("turns", "key", "now"),
    [
        (("dinner with Priya on Thursday at 7", "moved dinner to Friday at 7:30pm"), "event",
         "dinner with priya friday at 7:30pm"),
        (("我每天晚上九点半遛狗", "遛狗改到十点了"), "schedule.habit", "每天晚上十点遛狗"),
        (("下周三下午两点约了牙医", "牙医改到下下周三了"), "event", "下下周三下午两点约了牙医"),
    ],
)  # fmt: skip
async def test_a_new_time_keeps_what_it_does_not_name(
    tenant: TenantCtx, turns: tuple[str, str], key: str, now: str
) -> None:
    active, frozen = await tenant.change("u", turns, key, at=AT)
    assert active == [now]
    assert len(frozen) == 1
