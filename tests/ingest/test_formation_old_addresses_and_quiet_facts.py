"""An address said to be the old one, a drink quit and how, a drink said as one's lifeblood,
a budget beside "千万别超", a rule dropped by what it names, an age after a birthday, and what
is no value at all (a quantifier, a country studied in). Through the HTTP API."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-02T09:00:00+08:00"


async def test_an_address_said_to_be_the_old_one_ends(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "My email is jules@oakmail.com", at=T1)
    await tenant.say(
        "u",
        "s1",
        "wait, that's my old work address — don't use it, I don't have access anymore",
        at=T2,
    )
    assert await tenant.values("u", "contact.email") == []
    assert await tenant.values("u", "contact.email", "frozen") == ["jules@oakmail.com"]


async def test_a_drink_quit_cold_turkey_is_replaced(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "Diet Coke is basically my lifeblood", at=T1)
    assert await tenant.values("u", "preference.drink") == ["Diet Coke"]
    await tenant.say("u", "s1", "quit Diet Coke cold turkey 2 weeks ago, just iced tea now", at=T2)
    assert await tenant.values("u", "preference.drink") == ["iced tea"]
    assert await tenant.values("u", "preference.drink", "frozen") == ["Diet Coke"]


async def test_a_quantifier_is_no_tool(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "Most of my notes live in Notion.", at=T1)
    assert await tenant.values("u", "tech.preferred", lower=True) == ["notion"]


async def test_a_budget_beside_a_warning_is_kept(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "这个小程序的预算最多八万，千万别超", at=T1)
    assert await tenant.values("u", "project.budget") == ["八万"]


async def test_a_rule_dropped_by_what_it_names(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "Always end your replies with a one-line summary.", at=T1)
    await tenant.say("u", "s1", "you can drop the summary line thing, it's redundant", at=T2)
    assert await tenant.memories("u", key="assistant.constraint", status="active") == []
    [frozen] = await tenant.memories("u", key="assistant.constraint", status="frozen")
    assert "summary" in frozen["content"]


async def test_an_age_said_after_a_birthday_passed(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我今年27", at=T1)
    await tenant.say("u", "s1", "哦不对，过完生日已经28了，老了老了", at=T2)
    assert await tenant.values("u", "age") == ["28"]
    assert await tenant.values("u", "age", "frozen") == ["27"]


async def test_a_country_studied_in_is_no_school(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "本科是在武汉大学读的", at=T1)
    await tenant.say("u", "s1", "后来去德国读了个硕士，亚琛工业大学", at=T2)
    assert await tenant.values("u", "education.school") == ["亚琛工业大学", "武汉大学"]


async def test_a_taste_said_by_how_much_one_can_take(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我老家是四川成都的，所以特别能吃辣", at=T1)
    assert await tenant.values("u", "preference.likes") == ["辣"]
    assert await tenant.values("u", "hometown") == ["成都"]
    await tenant.say("v", "s1", "我很能吃苦", at=T1)  # enduring hardship: no taste
    assert await tenant.values("v", "preference.likes") == []


@pytest.mark.parametrize(
    "said", ["my old email bob@a.com is dead, use bob@b.com", "别再用 bob@a.com 了，用 bob@b.com"]
)
async def test_an_old_address_named_beside_the_new_one_ends(tenant: TenantCtx, said: str) -> None:
    await tenant.say("u", "s1", "my email is bob@a.com", at=T1)
    await tenant.say("u", "s1", said, at=T2)
    assert await tenant.values("u", "contact.email") == ["bob@b.com"]
    assert await tenant.values("u", "contact.email", "frozen") == ["bob@a.com"]


async def test_an_old_address_still_in_use_stays(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "my email is bob@a.com", at=T1)
    await tenant.say("u", "s1", "my old email bob@a.com still works, also bob@b.com", at=T2)
    assert await tenant.values("u", "contact.email") == ["bob@a.com", "bob@b.com"]
