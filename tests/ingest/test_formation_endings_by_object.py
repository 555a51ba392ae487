"""Endings and denials read by what they end: a habit given up by its -ing form or by the one
character of its object ("I quit smoking two weeks ago", "我现在不喝酒了", "把烟戒了"), an
employer or a city pointed at ("早就不在那家公司了", "I don't work there anymore", "I quit my
job"), the one activity of the previous turn named by another verb ("在学钢琴" → "不弹了"), a
possession given up (its record archived, not listed), and negated statements with nothing
before them, which form at most the negative fact. Through the HTTP API, Chinese and English."""

from __future__ import annotations

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-01T09:01:00+08:00"


async def test_a_smoking_habit_is_a_habit_and_ends_by_its_verb(tenant: TenantCtx) -> None:
    cases = [
        ("I smoke a few cigarettes a day", "I quit smoking two weeks ago"),
        ("I smoke", "I don't smoke anymore"),
        ("我抽烟抽了十年", "上个月终于把烟戒了"),
        ("I run every morning", "I stopped running after my knee injury"),
        ("我每天都喝酒", "我现在不喝酒了"),
    ]
    for i, (first, then) in enumerate(cases):
        user = f"u{i}"
        await tenant.say(user, "s1", first, at=T1)
        assert len(await tenant.values(user, "schedule.habit")) == 1, first
        assert await tenant.values(user, "preference.drink") == ([] if i != 4 else ["酒"])
        await tenant.say(user, "s1", then, at=T2)
        assert await tenant.values(user, "schedule.habit") == [], then
        assert len(await tenant.values(user, "schedule.habit", "frozen")) == 1, then
    assert await tenant.values("u4", "diet.avoid") == ["酒"]


async def test_a_workplace_or_city_pointed_at_ends_the_one_held(tenant: TenantCtx) -> None:
    cases = [
        ("我在华为上班", "早就不在那家公司了", "work.employer", "华为"),
        ("I work at Stripe", "I don't work there anymore", "work.employer", "Stripe"),
        ("我住在南京", "我早就不在那边住了", "residence.city", "南京"),
    ]
    for i, (first, then, key, old) in enumerate(cases):
        await tenant.say(f"u{i}", "s1", first, at=T1)
        await tenant.say(f"u{i}", "s1", then, at=T2)
        assert await tenant.values(f"u{i}", key) == [], then
        assert await tenant.values(f"u{i}", key, "frozen") == [old], then
    # a job quit ends the employer and the role
    await tenant.say("u9", "s1", "I'm a teacher at Lincoln High", at=T1)
    await tenant.say("u9", "s1", "I quit my job last month", at=T2)
    assert await tenant.values("u9", "work.role", "frozen") == ["teacher"]
    assert await tenant.values("u9", "work.employer", "frozen") == ["Lincoln High"]
    # there, but only on one day: still works there
    await tenant.say("u8", "s1", "I work at Stripe", at=T1)
    await tenant.say("u8", "s1", "I don't work there on Fridays", at=T2)
    assert await tenant.values("u8", "work.employer") == ["Stripe"]


async def test_a_thing_given_up_in_other_words_leaves_nothing_listed(tenant: TenantCtx) -> None:
    cases = [
        ("我在学钢琴", "最近太忙，不弹了"),  # another verb of the one activity said
        ("I play the guitar", "I haven't touched the guitar in years, sold it"),
        ("I have a car", "don't have a car these days"),
        ("我用 Notion 记笔记", "我已经没在用 Notion 了"),
        ("我喜欢追美剧", "我早就不追剧了"),
    ]
    for i, (first, then) in enumerate(cases):
        await tenant.say(f"u{i}", "s1", first, at=T1)
        assert len(await tenant.facts(f"u{i}")) == 1, first
        await tenant.say(f"u{i}", "s1", then, at=T2)
        # a keyed withdrawal's record (no value) stays under its key; no keyless one is listed
        assert [f for f in await tenant.facts(f"u{i}") if f[1] or not f[0]] == [], then
    # someone not seen for years is no one given up
    await tenant.say("u9", "s1", "My brother lives in Ohio", at=T1)
    await tenant.say("u9", "s1", "I haven't seen my brother in years", at=T2)
    assert await tenant.values("u9", "family.member", lower=True) == ["brother"]


async def test_a_drink_said_first_and_given_up_is_avoided(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我喜欢喝可乐", at=T1)
    await tenant.say("u", "s1", "可乐我现在不碰了", at=T2)
    assert await tenant.values("u", "preference.drink") == []
    assert await tenant.values("u", "preference.drink", "frozen") == ["可乐"]
    assert await tenant.values("u", "diet.avoid") == ["可乐"]


async def test_a_negation_with_nothing_before_forms_no_positive_fact(tenant: TenantCtx) -> None:
    said = {
        "I don't eat pork": [("diet.avoid", "pork")],
        "I don't smoke": [],
        "我不抽烟": [],
        "其实我没有兄弟姐妹": [],
    }
    for i, (text, facts) in enumerate(said.items()):
        await tenant.say(f"u{i}", "s1", text, at=T1)
        got = [(k, v) for k, v in await tenant.facts(f"u{i}") if k is not None]
        assert got == facts, text
