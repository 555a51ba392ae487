"""Chinese and English in one message, with no space between the scripts: an English word held
by Chinese grammar ("我daughter叫Lily", "最近switch到Rust了", "actually叫我Jenny吧") is read as
its Chinese word; a Latin value keeps its spaces and capitals and no Chinese particle
("在New York住了五年了", "转做data analyst了"); an English word of grammar is no part of a
Chinese name ("I'm a 程序员 at 腾讯"). Changes said in one language after a fact said in the
other freeze what they replace. Through the HTTP API."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-01T09:01:00+08:00"


@pytest.mark.parametrize(
    ("said", "key", "value"),
    [
        # an English noun of the user's own before a Chinese predicate
        ("我daughter叫Lily", "family.member", "lily"),
        ("我hometown是Vancouver", "hometown", "vancouver"),
        ("我的favorite是lo-fi", "preference.likes", "lo-fi"),
        ("我最喜欢的是火锅", "preference.likes", "火锅"),
        # a Latin value with spaces, and a Chinese particle after it
        ("我在New York住了五年了", "residence.city", "new york"),
        ("我的名字是Anna Li", "name.full", "anna li"),
        # a Chinese verb of being whose object is English
        ("我是vegetarian", "diet.style", "vegetarian"),
        # an English word of grammar is no part of a Chinese name
        ("I'm a 程序员 at 腾讯", "work.employer", "腾讯"),
        ("I switched to 乌龙茶 recently", "preference.drink", "乌龙茶"),
        ("I work as a 护士 at 协和医院", "work.role", "护士"),
        # English chatter after a Chinese clause is no part of its value
        ("我对peanuts过敏 btw", "health.allergy", "peanuts"),
        ("my dog 叫旺财 haha", "pets.name", "旺财"),
        ("我在Google工作 since 2020", "work.role", None),
        ("我在字节 as a PM", "work.role", "pm"),
        # a Chinese subject before an English predicate
        ("我现在 based in Singapore", "residence.city", "singapore"),
        ("我 prefer Python", "tech.preferred", "python"),
        ("我 love 火锅", "preference.likes", "火锅"),
    ],
)  # fmt: skip
async def test_a_word_between_scripts_is_read_and_the_value_kept_whole(
    tenant: TenantCtx, said: str, key: str, value: str | None
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", key, "active", lower=True) == ([value] if value else [])


@pytest.mark.parametrize(
    ("first", "then", "key", "old", "new"),
    [
        ("我平时主要用Go写后端", "最近switch到Rust了", "tech.preferred", "go", "rust"),
        ("my email is anna@old.com", "我的email改成anna@x.io了",
         "contact.email", "anna@old.com", "anna@x.io"),
        ("I'm a product manager", "现在转做data analyst了",
         "work.role", "product manager", "data analyst"),
        ("叫我Jen就好", "actually叫我Jenny吧", "name.nickname", "jen", "jenny"),
        ("my phone is 650-555-0100", "我的phone number changed成650-555-0199了",
         "contact.phone", "650-555-0100", "650-555-0199"),
        ("I live in Boston", "我搬到Austin了", "residence.city", "boston", "austin"),
        ("我住在杭州", "I moved to Shanghai last month", "residence.city", "杭州", "shanghai"),
    ],
)  # fmt: skip
async def test_a_change_in_the_other_language_freezes_what_it_replaces(
    tenant: TenantCtx, first: str, then: str, key: str, old: str, new: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    assert await tenant.values("u", key, "active", lower=True) == [old]
    await tenant.say("u", "s1", then, at=T2)
    assert await tenant.values("u", key, "active", lower=True) == [new]
    assert await tenant.values("u", key, "frozen", lower=True) == [old]


async def test_a_relative_named_between_scripts_is_recalled(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我daughter叫Lily，我son叫Ethan", at=T1)
    assert await tenant.values("u", "family.member", "active", lower=True) == ["ethan", "lily"]
    found = await tenant.recall("u", "女儿叫什么名字")
    assert any("Lily" in (m.get("content") or "") for m in found["memories"])


async def test_english_words_that_are_no_attribute_stay_as_written(tenant: TenantCtx) -> None:
    # "justin" is no "just", "name" in an English clause is English
    await tenant.say("u", "s1", "my name is Justin", at=T1)
    assert await tenant.values("u", "name.full", "active") == ["Justin"]


async def test_a_chinese_predicate_after_an_english_verb_is_no_liking(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我 prefer 用中文跟你聊", at=T1)
    assert await tenant.values("u", "preference.likes") == []
    assert await tenant.values("u", "language.preferred") == ["中文"]
