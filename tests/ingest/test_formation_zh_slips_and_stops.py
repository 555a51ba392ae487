"""Chinese changes and corrections read by what they name, through the HTTP API: a favourite
said without its category, a slip owned at the end, a correction with no word of negation, a
verb given up with no object, where the user works now after where they worked before, a
switch that holds the key of what it replaces — and add-ons that replace nothing ("还有个女儿，
叫甜甜", "日语也会说一点点")."""

from __future__ import annotations

from tests.conftest import TenantCtx

T1, T2, T3 = "2026-03-01T09:00:00+08:00", "2026-03-01T09:01:00+08:00", "2026-03-01T09:02:00+08:00"


async def test_a_favourite_said_without_its_category_replaces_the_favourite(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "我最喜欢的歌手是周杰伦", at=T1)
    await tenant.say("u", "s1", "现在最喜欢的是陈奕迅了", at=T2)
    assert await tenant.values("u", "preference.likes") == ["陈奕迅"]
    assert await tenant.values("u", "preference.likes", "frozen") == ["周杰伦"]
    await tenant.say("u", "s1", "哈哈其实现在最爱的变成林俊杰了", at=T3)
    assert await tenant.values("u", "preference.likes") == ["林俊杰"]


async def test_a_favourite_without_category_beside_several_replaces_none(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "我最喜欢的歌手是周杰伦", at=T1)
    await tenant.say("u", "s1", "我最喜欢的水果是芒果", at=T2)
    await tenant.say("u", "s1", "现在最喜欢的是榴莲了", at=T3)
    assert await tenant.values("u", "preference.likes") == ["周杰伦", "榴莲", "芒果"]
    assert await tenant.values("u", "preference.likes", "frozen") == []


async def test_a_slip_owned_at_the_end_corrects_the_value_just_said(tenant: TenantCtx) -> None:
    turns = ("我老家是湖北的", "哦是湖南，打快了")
    hometown = await tenant.change("u", turns, "hometown", at=(T1, T2))
    assert hometown == (["湖南"], ["湖北"]), await tenant.facts("u")


async def test_a_pet_renamed_with_no_negation_keeps_the_pet(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我家狗狗叫旺财", at=T1)
    await tenant.say("u", "s1", "不对，它叫来福，旺财是我邻居家的", at=T2)
    assert await tenant.values("u", "pets.name") == ["来福"]
    assert await tenant.values("u", "pets.name", "frozen") == ["旺财"]
    assert await tenant.values("u", "pets.kind") == ["狗狗"]


async def test_an_age_restated_after_saying_it_was_wrong(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我今年28岁", at=T1)
    await tenant.say("u", "s1", "说错了，我29了", at=T2)
    assert await tenant.values("u", "age") == ["29"]


async def test_a_sport_given_up_with_no_object_ends_the_liking(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我喜欢打篮球", at=T1)
    await tenant.say("u", "s1", "膝盖受伤以后就不打了", at=T2)
    assert await tenant.values("u", "preference.likes") == []
    assert await tenant.values("u", "preference.likes", "frozen") == ["打篮球"]


async def test_a_verb_given_up_that_names_two_things_ends_neither(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我喜欢打篮球，也喜欢打游戏", at=T1)
    await tenant.say("u", "s1", "最近太忙就不打了", at=T2)
    assert await tenant.values("u", "preference.likes", "frozen") == []


async def test_a_partner_left_in_few_words_is_frozen(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我有个女朋友叫小美", at=T1)
    await tenant.say("u", "s1", "唉，跟小美分了，不提了", at=T2)
    assert await tenant.values("u", "family.member") == []
    assert await tenant.values("u", "family.member", "frozen") == ["小美"]


async def test_where_the_user_works_now_after_where_they_worked_before(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我在招商银行上班", at=T1)
    await tenant.say("u", "s1", "以前在招商银行，现在在蚂蚁金服做风控", at=T2)
    assert await tenant.values("u", "work.employer") == ["蚂蚁金服"]
    assert await tenant.values("u", "work.employer", "frozen") == ["招商银行"]
    assert await tenant.values("u", "work.role") == ["风控"]


async def test_a_new_job_gone_to_is_the_employer(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我在华为上班", at=T1)
    await tenant.say("u", "s1", "上个月换工作了哈，去了小米", at=T2)
    assert await tenant.values("u", "work.employer") == ["小米"]
    assert await tenant.values("u", "work.employer", "frozen") == ["华为"]


async def test_a_tool_switched_to_takes_the_key_of_the_one_given_up(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我平时用 Notion 记笔记", at=T1)
    await tenant.say("u", "s1", "Notion 早就不用了，改用飞书文档", at=T2)
    assert await tenant.values("u", "tech.preferred") == ["飞书文档"]
    assert await tenant.values("u", "tech.preferred", "frozen", lower=True) == ["notion"]


async def test_a_language_rarely_spoken_now_is_replaced(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我平时说粤语", at=T1)
    await tenant.say("u", "s1", "现在平时都说普通话了，粤语很少讲", at=T2)
    assert await tenant.values("u", "language.preferred") == ["普通话"]
    assert await tenant.values("u", "language.preferred", "frozen") == ["粤语"]


async def test_a_name_said_in_passing_is_the_relatives_not_a_nickname(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我有个儿子叫小宝", at=T1)
    await tenant.say("u", "s1", "还有个女儿，叫甜甜", at=T2)
    assert await tenant.values("u", "family.member") == ["小宝", "甜甜"]
    assert await tenant.values("u", "name.nickname") == []


async def test_a_second_pet_named_in_passing_adds_and_is_no_nickname(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我养了一只猫叫咪咪", at=T1)
    await tenant.say("u", "s1", "最近又养了一只，叫豆豆", at=T2)
    assert await tenant.values("u", "pets.name") == ["咪咪", "豆豆"]
    assert await tenant.values("u", "name.nickname") == []


async def test_a_language_also_spoken_adds_and_is_no_rule(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我会说英语", at=T1)
    await tenant.say("u", "s1", "日语也会说一点点", at=T2)
    assert await tenant.values("u", "language.preferred") == ["日语", "英语"]
    assert await tenant.values("u", "assistant.constraint") == []


async def test_small_talk_after_a_fact_corrects_nothing(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我老家是湖北的", at=T1)
    await tenant.say("u", "s1", "哦是吗", at=T2)
    assert await tenant.values("u", "hometown") == ["湖北"]
