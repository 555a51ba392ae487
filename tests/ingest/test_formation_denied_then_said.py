"""A value denied, then the right one said alone ("my name isn't Sam, it's Tom", "我不是在北京
工作，是在深圳"): the right one replaces the wrong one under the denied one's key, whatever the
key, with or without a word of correction before it; how a value is said ("actually Tom") is
no part of it; a food had again now ("其实我现在吃香菜了") lifts its avoidance. Through the HTTP
API."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1, T2 = "2026-03-02T09:00:00+08:00", "2026-03-02T10:00:00+08:00"


@pytest.mark.parametrize(
    ("first", "then", "key", "new", "old"),
    [
        ("My name is Sam.", "Actually my name isn't Sam, it's Tom.", "name.full", "tom", "sam"),
        (
            "I'm allergic to peanuts.",
            "Actually I'm not allergic to peanuts, it's almonds.",
            "health.allergy",
            "almonds",
            "peanuts",
        ),
        (
            "I'm from Leeds",
            "oops, I'm not from Leeds, it's Sheffield",
            "hometown",
            "sheffield",
            "leeds",
        ),
        (
            "I work at Acme.",
            "I'm not at Acme, it's Globex, I mixed them up.",
            "work.employer",
            "globex",
            "acme",
        ),
        (
            "I'm from Ohio.",
            "I'm not from Ohio, it's Iowa - people mix them up.",
            "hometown",
            "iowa",
            "ohio",
        ),
        ("我在北京工作。", "其实我不是在北京工作，是在深圳。", "work.location", "深圳", "北京"),
        ("我在北京工作。", "我不是在北京工作，是在深圳。", "work.location", "深圳", "北京"),
        (
            "我对花生过敏",
            "说错了，不是对花生过敏，是对芒果过敏",
            "health.allergy",
            "芒果",
            "花生",
        ),
    ],
)
async def test_the_value_said_after_a_denial_replaces_the_denied_one(
    tenant: TenantCtx, first: str, then: str, key: str, new: str, old: str
) -> None:
    active, frozen = await tenant.change("u", (first, then), key, at=(T1, T2))
    assert active == [new]
    assert frozen == [old]


async def test_a_denial_of_no_value_of_the_users_changes_nothing(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I live in Boston", at=T1)
    await tenant.say("u", "s1", "the problem isn't Boston, it's the winters", at=T2)
    assert await tenant.values("u", "residence.city") == ["Boston"]
    assert await tenant.values("u", "residence.city", "frozen") == []


async def test_how_a_value_is_said_is_no_part_of_it(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "My name is Sam.", at=T1)
    await tenant.say("u", "s1", "Sorry, my name is actually Tom.", at=T2)
    assert await tenant.values("u", "name.full") == ["Tom"]


async def test_a_food_had_again_now_lifts_its_avoidance_zh(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我不吃香菜。", at=T1)
    assert await tenant.values("u", "diet.avoid") == ["香菜"]
    await tenant.say("u", "s1", "其实我现在吃香菜了。", at=T2)
    assert await tenant.values("u", "diet.avoid") == []
    assert await tenant.values("u", "diet.avoid", "frozen") == ["香菜"]


@pytest.mark.parametrize(
    ("first", "then", "key", "kept"),
    [
        ("My name is Sam.", "My boss isn't Sam, it's Tom.", "name.full", "sam"),
        ("My name is Sam.", "My dog isn't Sam, it's Rex.", "name.full", "sam"),
        (
            "I'm allergic to peanuts.",
            "The issue with the recipe isn't peanuts, it's the sugar.",
            "health.allergy",
            "peanuts",
        ),
        (
            "I'm allergic to peanuts.",
            "My son isn't allergic to peanuts, it's eggs.",
            "health.allergy",
            "peanuts",
        ),
        (
            "我最喜欢的歌手是周杰伦",
            "我妈最喜欢的不是周杰伦了，是邓丽君",
            "preference.likes",
            "周杰伦",
        ),
        ("我不吃牛肉", "我猫现在吃牛肉了", "diet.avoid", "牛肉"),
    ],
)
async def test_someone_elses_denial_or_a_reason_freezes_nothing(
    tenant: TenantCtx, first: str, then: str, key: str, kept: str
) -> None:
    active, frozen = await tenant.change("u", (first, then), key, at=(T1, T2))
    assert kept in active
    assert frozen == []


async def test_a_reason_after_its_no_favourite(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I'm not hungry, it's only 10am.", at=T1)
    await tenant.say("u", "s1", "Blue isn't my favourite color, it's my wife's favourite.", at=T2)
    assert await tenant.values("u", "event") == []
    assert await tenant.values("u", "preference.likes") == []
