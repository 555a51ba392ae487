"""What a user says that is not a fact about them forms no memory — a text they ask the
assistant to write or translate, how they feel at the moment, a wish, a manager's taste said
half in English — while the real fact beside it still does, through the HTTP API, in Chinese
and English."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1 = "2026-03-02T09:00:00+08:00"


@pytest.mark.parametrize(
    "text",
    [
        # a text to write, translate or answer: its words are not the user's statements
        "Draft an email to my neighbour asking her to move her car before Thursday",
        "translate this to German please: I live in Lyon and I have a cat called Pixel",
        "Reply to this for me: 'Sure, I'll be at the station at 6pm on Saturday.'",
        "帮我写一条微信给物业，说楼道的灯坏了好几天了",
        "帮我翻译成英文：我在杭州工作，我喜欢喝乌龙茶",
        "帮我写一封 recommendation letter，推荐我的实习生去 Amazon",
        # how the user feels right now
        "I'm so drained today, barely slept",
        "我发烧了，嗓子也疼",
        # a wish, a manager's taste
        "我要是会弹钢琴就好了",
        "我们老板说下个月要去杭州开会",
        "我 boss 特别喜欢用 Jira",
        "我闺蜜最近迷上了攀岩，天天拉我去",
        "对门家的猫又叫了一晚上",
        # hearsay, where the user is at the moment, a state about to come
        "我看到一篇文章说每天喝绿茶能降血压",
        "I read that people who swim every day sleep better",
        "I'm at the gym waiting for the squat rack, so bored",
        "这破天气，我都要抑郁了",
    ],
)
async def test_what_is_not_a_fact_about_the_user_forms_nothing(
    tenant: TenantCtx, text: str
) -> None:
    await tenant.say("u", "s1", text, at=T1)
    assert await tenant.facts("u") == []


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        # the user's own fact beside someone else's, or beside a request
        ("my manager swears by Java but personally I prefer Kotlin", "tech.preferred", "kotlin"),
        ("the standups are at 7am which hurts because I live in Seattle and the team is in Boston",
         "residence.city", "seattle"),
        ("帮我写封信给学校，落款写我的名字陈晓东，就说孩子下周请假", "name.full", "陈晓东"),
        ("I'm wiped out after the night shift, I work as a paramedic", "work.role", "paramedic"),
    ],
)  # fmt: skip
async def test_the_users_own_fact_beside_it_is_still_formed(
    tenant: TenantCtx, text: str, key: str, value: str
) -> None:
    await tenant.say("u", "s1", text, at=T1)
    assert value in await tenant.values("u", key, "active", lower=True)
    others = [k for k, _ in await tenant.facts("u") if k in ("health.condition", "event")]
    assert others == []


async def test_a_detail_of_a_trip_is_no_second_event(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我下周要去西安出差，住三天", at=T1)
    events = [v for k, v in await tenant.facts("u") if k == "event"]
    assert len(events) == 1 and events[0] is not None and "西安" in events[0]


async def test_a_liking_of_anything_at_all_names_nothing(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我家狗叫豆豆，这两天不爱吃东西", at=T1)
    assert await tenant.values("u", "pets.name", "active") == ["豆豆"]
    assert await tenant.values("u", "preference.dislikes", "active") == []


async def test_a_relatives_view_is_no_fact_about_them(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我妈觉得外卖都不干净，你怎么看？", at=T1)
    facts = await tenant.facts("u")
    assert [k for k, _ in facts] == ["family.member"]


@pytest.mark.parametrize(
    ("text", "key", "values"),
    [
        ("我不吃羊肉也不吃香菜，其他都行", "diet.avoid", ["羊肉", "香菜"]),
        ("我老家青岛的，每年夏天都回去", "hometown", ["青岛"]),
        ("我家兔子叫布丁，三岁了", "pets.kind", ["兔子"]),
    ],
)
async def test_values_are_the_words_that_name_them(
    tenant: TenantCtx, text: str, key: str, values: list[str]
) -> None:
    await tenant.say("u", "s1", text, at=T1)
    assert await tenant.values("u", key, "active") == sorted(values)


async def test_a_pets_age_is_not_the_users(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我养了一只柯基叫可乐，两岁了", at=T1)
    assert await tenant.values("u", "pets.name", "active") == ["可乐"]
    assert await tenant.values("u", "age", "active") == []
