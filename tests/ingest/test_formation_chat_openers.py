"""How people open and correct themselves in chat, from a writer's fresh probe. Through the HTTP
API.

- "hi im jon" names the user in lower case after a greeting ("hey im back", "hi im new here"
  do not), and "sorry typo lol its John with an h" then puts the name right.
- "我有个儿子叫乐乐，5岁了": the age of a son named as he is introduced is his, not the user's.
- "你觉得AI以后真的会取代程序员吗？" asks an opinion: no rule for the assistant, whatever 以后 it
  holds; "你以后回答能不能别这么长" still is one.
- Money staked ("we have $20 riding on this") is no budget.
- "i stopped being vegan like 2 months ago" withdraws the diet: "like" is the hedge before the
  time, no part of what stopped.
"""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

AT = ("2026-12-01T09:00:00+08:00", "2026-12-01T09:01:00+08:00")


async def test_a_name_typed_in_lower_case_after_hi_is_the_users_and_put_right(
    tenant: TenantCtx,
) -> None:
    turns = (
        "hi im jon, i need help writing a bio for my linkedin",
        "sorry typo lol its John with an h. everyone gets it wrong",
    )
    active, frozen = await tenant.change("u", turns, "name.full", at=AT)
    assert active == ["john"] and frozen == ["jon"]


@pytest.mark.parametrize("text", ["hey im back", "hi im new here", "hi im so tired"])
async def test_a_state_after_hi_im_is_no_name(tenant: TenantCtx, text: str) -> None:
    await tenant.say("u", "s1", text, at=AT[0])
    assert await tenant.values("u", "name.full") == []


@pytest.mark.parametrize(
    ("text", "member"),
    [("我有个儿子叫乐乐，5岁了，皮得很", "乐乐"), ("I have a son named Leo, 5 years old", "leo")],
)
async def test_the_age_after_a_child_named_is_the_childs(
    tenant: TenantCtx, text: str, member: str
) -> None:
    await tenant.say("u", "s1", text, at=AT[0])
    assert await tenant.values("u", "age") == []
    assert await tenant.values("u", "family.member", lower=True) == [member]


async def test_an_opinion_asked_is_no_rule(tenant: TenantCtx) -> None:
    await tenant.say(
        "u", "s1", "你觉得AI以后真的会取代程序员吗？我们组里最近天天在讨论这个", at=AT[0]
    )
    assert await tenant.values("u", "assistant.constraint") == []
    await tenant.say("u", "s1", "你以后回答能不能别这么长", at=AT[1])
    assert len(await tenant.values("u", "assistant.constraint")) == 1


async def test_money_staked_is_no_budget(tenant: TenantCtx) -> None:
    text = (
        "whats the capital of australia?? my friend swears its sydney and we have $20 riding "
        "on this lol"
    )
    await tenant.say("u", "s1", text, at=AT[0])
    assert await tenant.values("u", "project.budget") == []


async def test_a_diet_stopped_with_a_hedged_time_is_withdrawn(tenant: TenantCtx) -> None:
    turns = (
        "im vegan btw so no dairy or eggs in the suggestions pls",
        "lol scratch that actually, i stopped being vegan like 2 months ago",
    )
    active, frozen = await tenant.change("u", turns, "diet.style", at=AT)
    assert active == [] and frozen == ["vegan"]


async def test_what_the_user_cannot_do_without_or_how_it_is_made_is_no_fact(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "我每天必须来一杯奶茶 不喝浑身难受😂 三分糖去冰", at=AT[0])
    assert await tenant.facts("u") == [("preference.drink", "奶茶")]


async def test_a_job_begun_on_a_day_names_the_role(tenant: TenantCtx) -> None:
    turns = (
        "i work as a backend dev at stripe, been there 3 yrs",
        "UPDATE: i got the shopify offer!!! 🎉 starting monday as a staff engineer. so long "
        "stripe lol",
    )
    active, frozen = await tenant.change("u", turns, "work.role", at=AT)
    assert active == ["staff engineer"] and frozen == ["backend dev"]


async def test_an_address_of_another_kind_said_to_be_used_instead_replaces_the_old(
    tenant: TenantCtx,
) -> None:
    turns = (
        "my email is m.ortiz88@gmail.com if u need it for the signature",
        "oh wait use my work one instead: maria.ortiz@brightlane.io, i barely check gmail anymore",
    )
    active, frozen = await tenant.change("u", turns, "contact.email", at=AT)
    assert active == ["maria.ortiz@brightlane.io"] and frozen == ["m.ortiz88@gmail.com"]


async def test_a_format_tired_of_gives_way_to_normal_sentences_and_length_stays(
    tenant: TenantCtx,
) -> None:
    turns = (
        "pls keep ur answers short, bullet points only. i read these on my phone between meetings",
        "ok the bullet point thing is kinda annoying actually, just use normal sentences. still "
        "keep it short tho",
    )
    for text, at in zip(turns, AT, strict=True):
        await tenant.say("u", "s1", text, at=at)
    rules = await tenant.values("u", "assistant.constraint", lower=True)
    assert rules == ["just use normal sentences", "keep your answers short"]
    assert await tenant.values("u", "assistant.constraint", "frozen") == ["bullet points only"]
