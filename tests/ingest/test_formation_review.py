"""Memories a reviewer found wrong or lost, each the right value now — through the HTTP API:
a negated add-on is no second liking, a one-off request after a rule is no rule, a denial
followed by "after all" withdraws, and a value leaves out its reason, its "though" and who
lives there with the user; a pet's name keeps its capital."""

from __future__ import annotations

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-01T09:05:00+08:00"


async def test_a_negated_add_on_is_no_second_liking(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我喜欢吃辣", at=T1)
    await tenant.say("u", "s1", "也不吃甜", at=T2)
    assert await tenant.values("u", "preference.likes") == ["辣"]
    # a negated add-on of a negative key is one
    await tenant.say("v", "s1", "I don't eat lamb", at=T1)
    await tenant.say("v", "s1", "no veal either", at=T2)
    assert await tenant.values("v", "diet.avoid") == ["lamb", "veal"]


async def test_a_one_off_request_after_a_rule_is_no_rule(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "Always answer in English.", at=T1)
    rules = await tenant.memories("u", key="assistant.constraint", status="active")
    await tenant.say("u", "s1", "Also, translate this into French: bonjour mes amis", at=T2)
    assert await tenant.memories("u", key="assistant.constraint", status="active") == rules


async def test_a_denial_followed_by_after_all_withdraws(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I'm celiac", at=T1)
    assert await tenant.values("u", "health.condition") == ["celiac"]
    await tenant.say("u", "s2", "Turns out I'm not celiac after all, it was a misdiagnosis", at=T2)
    assert await tenant.values("u", "health.condition", "frozen") == ["celiac"]
    assert [m["value"] for m in await tenant.memories("u", status="active")] == [None]


async def test_a_value_leaves_out_its_reason_and_who_lives_there(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I live in New York City with my partner", at=T1)
    await tenant.say("u", "s1", "I really like hiking because it clears my head", at=T1)
    await tenant.say("u", "s1", "I like green tea though", at=T1)
    await tenant.say("u", "s1", "I'm in love with Italian food", at=T1)
    assert await tenant.values("u", "residence.city") == ["New York City"]
    assert await tenant.values("u", "preference.likes") == ["green tea", "hiking", "italian food"]


async def test_a_pets_name_keeps_its_capital(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "My dog is called Max", at=T1)
    assert await tenant.values("u", "pets.name") == ["Max"]


async def test_a_rule_that_ends_one_about_the_same_thing_replaces_it(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "以后推荐餐厅的时候标一下人均", at=T1)
    (old,) = await tenant.memories("u", key="assistant.constraint", status="active")
    await tenant.say("u", "s1", "推荐餐厅不用再标人均了", at=T2)
    frozen = await tenant.memories("u", key="assistant.constraint", status="frozen")
    assert [m["id"] for m in frozen] == [old["id"]]
    # a rule about something else stays
    await tenant.say("v", "s1", "Keep your answers short.", at=T1)
    await tenant.say("v", "s1", "Actually, answer in German from now on.", at=T2)
    assert await tenant.memories("v", key="assistant.constraint", status="frozen") == []


async def test_a_second_predicate_without_its_i_is_a_fact_of_its_own(tenant: TenantCtx) -> None:
    # "and work at Siemens" was read as part of the city
    await tenant.say("u", "s1", "I live in Lisbon and work at Siemens.", at=T1)
    assert await tenant.values("u", "residence.city") == ["Lisbon"]
    assert await tenant.values("u", "work.employer") == ["Siemens"]


async def test_a_nickname_said_as_one_is_kept(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "My nickname is Kiki.", at=T1)
    assert await tenant.values("u", "name.nickname") == ["Kiki"]
    await tenant.say("v", "s1", "我的小名叫豆豆", at=T1)
    assert await tenant.values("v", "name.nickname") == ["豆豆"]


async def test_an_empty_slot_forms_no_value_in_place_of_the_name(tenant: TenantCtx) -> None:
    # "你也这么叫我" names no one: it formed an empty nickname that replaced 小马
    await tenant.say("u", "s1", "大家都叫我小马，你也这么叫我就行", at=T1)
    assert await tenant.values("u", "name.nickname") == ["小马"]
