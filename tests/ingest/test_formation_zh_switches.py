"""Chinese and mixed changes that must replace the earlier fact, through the HTTP API: where the
user works now by a name the segmenter does not know, a routine turned into another, a tool
or an address now in use, a drink whose daily routine goes with it — and add-ons said "now …
also" that replace nothing."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-01T09:01:00+08:00"


async def test_where_the_user_works_now_replaces_the_employer(tenant: TenantCtx) -> None:
    cases = [
        ("u1", "我在腾讯上班", "我现在在米哈游了", "米哈游", "腾讯"),
        ("u2", "我在百度工作", "已经换到快手了", "快手", "百度"),
        ("u3", "我在 Google 工作", "从 Google 跳到 Meta 了", "Meta", "Google"),
        ("u4", "我是在字节做 PM 的", "btw 我跳槽去 Shopee 了", "Shopee", "字节"),
    ]
    for user, first, second, _, _ in cases:
        await tenant.say(user, "s1", first, at=T1)
        await tenant.say(user, "s1", second, at=T2)
    for user, _, _, now, before in cases:
        assert await tenant.values(user, "work.employer") == [now], user
        assert await tenant.values(user, "work.employer", "frozen") == [before], user


@pytest.mark.parametrize("where", ["我现在在机场了", "我现在在开会了", "现在在地铁上了"])
async def test_a_spot_or_a_doing_now_is_no_employer(tenant: TenantCtx, where: str) -> None:
    await tenant.say("u", "s1", "我在腾讯上班", at=T1)
    await tenant.say("u", "s1", where, at=T2)
    assert await tenant.values("u", "work.employer") == ["腾讯"]
    assert await tenant.values("u", "work.employer", "frozen") == []


async def test_a_routine_turned_into_another_replaces_it(tenant: TenantCtx) -> None:
    await tenant.say("u1", "s1", "我每天晚上跑步", at=T1)
    await tenant.say("u1", "s1", "最近改成早上游泳了", at=T2)
    await tenant.say("u2", "s1", "我每天中午睡半小时", at=T1)
    await tenant.say("u2", "s1", "现在中午不睡了，改成散步", at=T2)
    await tenant.say("u3", "s1", "我每天早上跑步", at=T1)
    await tenant.say("u3", "s1", "现在晚上也会去游泳", at=T2)  # an add-on
    assert await tenant.values("u1", "schedule.habit", "frozen") == ["每天晚上跑步"]
    assert [v for v in await tenant.values("u1", "schedule.habit") if "游泳" in v]
    assert await tenant.values("u2", "schedule.habit", "frozen") == ["每天中午睡半小时"]
    assert await tenant.values("u3", "schedule.habit", "frozen") == []
    assert "每天早上跑步" in await tenant.values("u3", "schedule.habit")


async def test_a_tool_or_address_in_use_now_replaces_the_earlier(tenant: TenantCtx) -> None:
    await tenant.say("u1", "s1", "我习惯用印象笔记", at=T1)
    await tenant.say("u1", "s1", "现在都用Notion了", at=T2)
    await tenant.say("u2", "s1", "我主要写 Java", at=T1)
    await tenant.say("u2", "s1", "现在主力语言变成 Go 了", at=T2)
    await tenant.say("u3", "s1", "我邮箱是 wang@163.com", at=T1)
    await tenant.say("u3", "s1", "我现在用 wang@gmail.com 这个邮箱了", at=T2)
    assert await tenant.values("u1", "tech.preferred", lower=True) == ["notion"]
    assert await tenant.values("u1", "tech.preferred", "frozen") == ["印象笔记"]
    assert await tenant.values("u2", "tech.preferred", lower=True) == ["go"]
    assert await tenant.values("u3", "contact.email") == ["wang@gmail.com"]
    assert await tenant.values("u3", "contact.email", "frozen") == ["wang@163.com"]


async def test_a_drink_replaced_ends_its_routine_and_one_added_replaces_none(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u1", "s1", "我每天早上喝一杯绿茶", at=T1)
    await tenant.say("u1", "s1", "现在早上都喝豆浆了", at=T2)
    await tenant.say("u2", "s1", "我喜欢喝咖啡", at=T1)
    await tenant.say("u2", "s1", "最近也开始喝茶了", at=T2)
    assert await tenant.values("u1", "preference.drink") == ["豆浆"]
    assert await tenant.values("u1", "schedule.habit") == []
    assert await tenant.values("u1", "schedule.habit", "frozen") == ["每天早上喝一杯绿茶"]
    assert await tenant.values("u2", "preference.drink") == ["咖啡"]
    assert await tenant.values("u2", "preference.drink", "frozen") == []


async def test_a_pet_renamed_takes_the_key_of_its_old_name(tenant: TenantCtx) -> None:
    await tenant.say("u1", "s1", "我家狗叫旺财", at=T1)
    await tenant.say("u1", "s1", "旺财改名叫来福了", at=T2)
    await tenant.say("u2", "s1", "我家猫叫咪咪", at=T1)
    await tenant.say("u2", "s1", "我家猫咪咪现在改名叫团子了", at=T2)
    for user, now, before in (("u1", "来福", "旺财"), ("u2", "团子", "咪咪")):
        assert await tenant.values(user, "pets.name") == [now], user
        assert await tenant.values(user, "pets.name", "frozen") == [before], user


async def test_a_routine_said_as_it_was_and_as_it_is_now_replaces_it(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我每天七点起床", at=T1)
    await tenant.say("u", "s1", "以前七点起，现在六点就起了", at=T2)
    assert await tenant.values("u", "schedule.habit") == ["每天六点起床"]
    assert await tenant.values("u", "schedule.habit", "frozen") == ["每天七点起床"]
