"""What a newcomer found: a second predicate after a name ("I'm Vivian Lin, I live in Leeds and
work as a nurse at St. Mary's Hospital") is a fact of its own, not part of the city; a name in
another language ("我的中文名叫林薇") is kept beside the user's name, never in its place; and
pleasantries ("Hope you're doing well.", "Haha that's funny, thanks!") are small talk, kept
neither as a fact nor as an episode. Through the HTTP API."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1, T2 = "2026-03-02T09:00:00+00:00", "2026-03-02T10:00:00+00:00"


async def test_a_second_predicate_after_a_name_is_a_fact_of_its_own(tenant: TenantCtx) -> None:
    await tenant.say(
        "u", "s1", "I'm Vivian Lin, I live in Leeds and work as a nurse at St. Mary's Hospital."
    )
    facts = await tenant.facts("u")
    assert ("residence.city", "Leeds") in facts
    assert ("work.role", "nurse") in facts
    assert ("work.employer", "St. Mary's Hospital") in facts


@pytest.mark.parametrize(
    ("name", "other", "alias"),
    [
        ("I'm Vivian Lin", "我的中文名叫林薇，老家在成都。", "林薇"),
        ("我叫林薇", "my English name is Vivian", "Vivian"),
    ],
)
async def test_a_name_in_another_language_stays_beside_the_name(
    tenant: TenantCtx, name: str, other: str, alias: str
) -> None:
    await tenant.say("u", "s1", name, at=T1)
    [full] = await tenant.values("u", "name.full")
    await tenant.say("u", "s1", other, at=T2)
    assert await tenant.values("u", "name.full") == [full]
    assert await tenant.values("u", "name.full", "frozen") == []
    assert await tenant.values("u", "name.alias") == [alias]


@pytest.mark.parametrize(
    "text",
    [
        "Hey, good morning! Hope you're doing well.",
        "Haha that's funny, thanks!",
        "哈哈太好笑了",
        "lol thanks, that's helpful. nice weather today huh",
    ],
)
async def test_pleasantries_are_kept_neither_as_fact_nor_as_episode(
    tenant: TenantCtx, text: str
) -> None:
    answer = await tenant.say("u", "s1", text)
    assert answer["memories"] == []
    r = await tenant.client.get(f"{tenant.user('u')}/memories", headers=tenant.headers)
    assert r.json()["items"] == []


async def test_a_statement_after_a_pleasantry_is_still_kept(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "That's so cool, I just adopted a puppy called Miso")
    assert ("pets.name", "Miso") in await tenant.facts("u")


async def test_a_partner_named_after_a_break_up_replaces_the_one_before(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "Also, my partner Tom and I have a cat called Biscuit.", at=T1)
    await tenant.say("u", "s1", "我和Tom分手了，现在的男朋友叫Jack。", at=T2)
    assert await tenant.values("u", "family.member") == ["jack"]
    active = await tenant.memories("u", status="active")
    assert not [m for m in active if "Tom" in m["content"]]


async def test_eating_a_little_of_it_again_ends_the_avoidance(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我不吃辣，口味比较清淡。", at=T1)
    assert await tenant.values("u", "diet.avoid") == ["辣"]
    await tenant.say("u", "s1", "最近我开始能吃一点辣了，川菜也可以。", at=T2)
    assert await tenant.values("u", "diet.avoid") == []
    assert await tenant.values("u", "diet.avoid", "frozen") == ["辣"]
