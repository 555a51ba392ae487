"""Everyday talk: Chinese typed with spaces for commas, the northern 俺, an age after 刚好, a
plan with its 我 left out, a mobile number in groups, how others reach the user, a condition
misspelled by a vowel, a liking or a job said by an idiom. Through the HTTP API."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-02T09:00:00+08:00"


async def test_chinese_with_spaces_for_commas(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "嗯 现在住杭州 老家绍兴的 开车一个多小时", at=T1)
    assert await tenant.values("u", "residence.city") == ["杭州"]
    assert await tenant.values("u", "hometown") == ["绍兴"]


async def test_the_northern_first_person_and_an_age_after_an_adverb(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "俺是96年的，今年正好二十九", at=T1)
    assert await tenant.values("u", "age") == ["29"]
    await tenant.say("v", "s1", "他今年刚好三十", at=T1)  # someone else's age
    assert await tenant.values("v", "age") == []


async def test_a_plan_with_its_subject_left_out(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "打算春节带孩子回趟老家，好几年没回去了", at=T1)
    [plan] = await tenant.memories("u", key="plan", status="active")
    assert "回趟老家" in plan["content"]
    await tenant.say("v", "s1", "打算去哪玩？", at=T1)  # a question
    assert await tenant.memories("v", key="plan", status="active") == []


@pytest.mark.parametrize(
    ("said", "number"),
    [
        ("同事要找我的话直接打这个 138 1234 5678", "138 1234 5678"),
        ("my landlord can call me on 07700 900123 if anything breaks", "07700 900123"),
    ],
)
async def test_how_others_reach_the_user_is_the_users_number(
    tenant: TenantCtx, said: str, number: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "contact.phone") == [number]


async def test_a_colleagues_number_is_not_the_users(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我同事的手机是 138 1234 5678", at=T1)
    assert await tenant.values("u", "contact.phone") == []


async def test_an_address_given_after_a_condition(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "if anything comes up just email me at mo.li@fastmail.com", at=T1)
    assert await tenant.values("u", "contact.email") == ["mo.li@fastmail.com"]


async def test_a_condition_misspelled_by_a_vowel(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "im lactose intolerent so no milk in the recipe pls", at=T1)
    assert await tenant.values("u", "health.condition") == ["lactose intolerant"]


async def test_a_liking_said_by_an_idiom(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "honestly nothing beats a big bowl of pho", at=T1)
    assert await tenant.values("u", "preference.likes") == ["big bowl of pho"]


async def test_a_job_said_as_a_state(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "being a paramedic at St. Luke's is no joke", at=T1)
    assert await tenant.values("u", "work.role") == ["paramedic"]
    assert await tenant.values("u", "work.employer") == ["St. Luke's"]


async def test_a_pets_name_typed_wrong_by_the_input_method(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我家狗叫豆豆，两岁的柯基", at=T1)
    await tenant.say("u", "s1", "哎打错了 是逗逗 逗号的逗", at=T2)
    assert await tenant.values("u", "pets.name") == ["逗逗"]
    assert await tenant.values("u", "pets.name", "frozen") == ["豆豆"]
    assert await tenant.values("u", "pets.kind") == ["狗"]


async def test_a_day_of_the_month_said_alone_is_an_appointments_date(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "Flying to Oslo on the 14th for a workshop.", at=T1)
    [event] = await tenant.memories("u", key="event", status="active")
    assert event["valid_from"] == "2026-03-13T16:00:00Z"  # March 14 at midnight, UTC+8


async def test_a_happening_with_no_day_is_no_appointment(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "ugh another double shift at the bakery, my feet are done", at=T1)
    assert await tenant.memories("u", key="event", status="active") == []


async def test_a_date_read_wrong_is_taken_back(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我的 final exam 是 3 月 20 号", at=T1)
    [exam] = await tenant.memories("u", key="event", status="active")
    assert exam["value"] == "final exam 是 3 月 20 号"  # no 的 left of 我的
    await tenant.say("u", "s1", "sorry 看错 timetable 了，是 3 月 22 号 morning 那场", at=T2)
    [frozen] = await tenant.memories("u", key="event", status="frozen")
    assert frozen["id"] == exam["id"]
    [now] = await tenant.memories("u", key="event", status="active")
    assert now["valid_from"] == "2026-03-22T01:00:00Z"  # 09:00 at UTC+8


@pytest.mark.parametrize(
    ("said", "key", "value"),
    [
        ("我叫 李 明", "name.full", "李明"),
        ("我是 上海 交通 大学 毕业的", "education.school", "上海交通大学"),
        ("我在 中国 银行 上班", "work.employer", "中国银行"),
        ("我对 青霉素 过敏", "health.allergy", "青霉素"),
        ("我叫 Chen Lei 大家叫我 小陈", "name.nickname", "小陈"),
    ],
)
async def test_a_word_typed_apart_is_one_word(
    tenant: TenantCtx, said: str, key: str, value: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", key) == [value]


@pytest.mark.parametrize(
    "said",
    [
        "快递单号 SF 131 2345 6789",
        "you can reach my wife on 139 8012 6677",
        "我同事要找我的话打他自己的 139 8012 6677 就行",
    ],
)
async def test_a_number_that_is_not_the_users_phone(tenant: TenantCtx, said: str) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "contact.phone") == []


@pytest.mark.parametrize(
    "said",
    [
        "nothing beats experience",
        "there's nothing like a deadline to focus the mind",
        "you can't beat Amazon on price",
        "being a CEO at a startup is hard",
        "我奶奶老说 俺不吃辣",
        "准备工作都做完了",
    ],
)
async def test_look_alikes_of_this_rounds_wordings_form_nothing(
    tenant: TenantCtx, said: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    kept = await tenant.memories("u", status="active")
    assert [m for m in kept if m["type"] != "episode" and m["key"] != "family.member"] == []


async def test_a_warning_not_to_misread_is_no_slip(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我的 final exam 是 3 月 20 号", at=T1)
    [exam] = await tenant.memories("u", key="event", status="active")
    await tenant.say("u", "s1", "别看错了，是 3 月 20 号 上午", at=T2)
    assert await tenant.memories("u", key="event", status="frozen") == []
    assert exam["id"] in [m["id"] for m in await tenant.memories("u", key="event", status="active")]


@pytest.mark.parametrize("city", ["苏州", "温州", "无锡", "杭州", "佛山"])
async def test_where_the_user_is_said_with_nothing_after_the_place(
    tenant: TenantCtx, city: str
) -> None:
    """ "我在<city>" is where the user is, whatever the city (the family classifier had read
    苏州 as a workplace, 温州 as a hometown, and 无锡 and 杭州 as nothing); a place followed by
    what the user does there, or a place that is no city, is not."""
    await tenant.say("u", "s1", f"我在{city}", at=T1)
    assert await tenant.values("u", "residence.city") == [city]
    assert await tenant.values("u", "work.location") == []
    assert await tenant.values("u", "hometown") == []
    await tenant.say("v", "s1", "我人在苏州呢", at=T1)
    assert await tenant.values("v", "residence.city") == ["苏州"]
    await tenant.say("w", "s1", f"我在{city}出差", at=T1)
    await tenant.say("w", "s1", "我在公司", at=T1)
    assert await tenant.values("w", "residence.city") == []


async def test_the_city_of_before_ends_when_the_user_is_in_another(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我在杭州", at=T1)
    await tenant.say("u", "s1", "下个月要搬去深圳", at=T1)
    await tenant.say("u", "s1", "搬完了，现在在深圳", at=T2)
    assert await tenant.values("u", "residence.city") == ["深圳"]
    assert await tenant.values("u", "residence.city", status="frozen") == ["杭州"]
