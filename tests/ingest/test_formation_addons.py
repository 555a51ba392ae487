"""A user who adds to what they just said often leaves the predicate out ("I don't eat
olives" → "capers either"; "我对猫毛过敏" → "还有尘螨"). Such an add-on takes the key of the
previous turn's fact, as a second value beside the first — never a change of it — through the
HTTP API, in Chinese and English; an add-on about someone else, a question, or a sentence that
states a fact of its own inherits nothing."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1, T2, T3 = "2026-03-01T09:00:00+08:00", "2026-03-01T09:01:00+08:00", "2026-03-01T09:02:00+08:00"


@pytest.mark.parametrize(
    ("first", "addon", "key", "old", "new"),
    [
        ("I don't eat olives.", "capers either, to be fair", "diet.avoid", "olives",
         "capers"),
        ("I'm allergic to latex.", "oh and wasp stings too", "health.allergy", "latex",
         "wasp stings"),
        ("I speak Korean.", "and some Hindi as well", "language.preferred", "korean", "hindi"),
        ("我对猫毛过敏。", "还有尘螨", "health.allergy", "猫毛", "尘螨"),
        ("我不吃羊肉。", "牛肉也不吃", "diet.avoid", "羊肉", "牛肉"),
        ("我会说上海话。", "四川话也会一点", "language.preferred", "上海话", "四川话"),
        ("我手机是 139 1234 5678", "座机也记一下，021-5555 6666", "contact.phone",
         "139 1234 5678", "021-5555 6666"),
    ],
)  # fmt: skip
async def test_an_addon_without_its_predicate_adds_a_value_under_the_same_key(
    tenant: TenantCtx, first: str, addon: str, key: str, old: str, new: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    assert await tenant.values("u", key, lower=True) == [old]
    await tenant.say("u", "s1", addon, at=T2)
    assert await tenant.values("u", key, lower=True) == sorted([old, new])
    assert await tenant.values("u", key, "frozen", lower=True) == []


async def test_an_addon_in_the_same_batch_as_its_statement(tenant: TenantCtx) -> None:
    # both turns in one request: the previous turn's facts are the batch's own
    await tenant.say("u", "s1", "I really enjoy sailing.", "and rock climbing too!", at=T1)
    assert await tenant.values("u", "preference.likes", lower=True) == ["rock climbing", "sailing"]


async def test_a_second_addon_follows_the_first(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我特别喜欢草东没有派对", at=T1)
    await tenant.say("u", "s1", "还有万能青年旅店", at=T2)
    await tenant.say("u", "s1", "也听痛仰", at=T3)
    likes = await tenant.values("u", "preference.likes", lower=True)
    assert any("万能青年旅店" in v for v in likes), likes
    assert any("痛仰" in v for v in likes), likes
    assert await tenant.values("u", "preference.likes", "frozen", lower=True) == []


async def test_a_second_rule_for_the_assistant_stands_beside_the_first(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "回答问题的时候请先给结论。", at=T1)
    await tenant.say("u", "s1", "另外，表格请加上表头", at=T2)
    rules = await tenant.memories("u", key="assistant.constraint", status="active")
    contents = " ".join(m["content"] for m in rules)
    assert len(rules) == 2, contents
    assert "结论" in contents and "表头" in contents
    assert await tenant.memories("u", key="assistant.constraint", status="frozen") == []


async def test_the_addon_is_recalled_with_its_key(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I really enjoy sailing.", at=T1)
    await tenant.say("u", "s1", "oh and rock climbing as well", at=T2)
    hits = (await tenant.recall("u", "rock climbing", top_k=8))["memories"]
    likes = [m["value"].lower() for m in hits if m["key"] == "preference.likes"]
    assert likes[:1] == ["rock climbing"]


async def test_someone_elses_addon_is_not_the_users(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I'm allergic to latex.", at=T1)
    await tenant.say("u", "s1", "My husband is allergic to wasps too.", at=T2)
    assert await tenant.values("u", "health.allergy", lower=True) == ["latex"]
    await tenant.say("v", "s1", "我对猫毛过敏。", at=T1)
    await tenant.say("v", "s1", "我女儿也是", at=T2)
    assert await tenant.values("v", "health.allergy", lower=True) == ["猫毛"]


async def test_a_question_with_also_inherits_nothing(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I love bluegrass.", at=T1)
    await tenant.say("u", "s1", "Also, any good bookshops in Lisbon?", at=T2)
    assert await tenant.values("u", "preference.likes", lower=True) == ["bluegrass"]
    await tenant.say("v", "s1", "我喜欢看话剧。", at=T1)
    await tenant.say("v", "s1", "你也喜欢吗？", at=T2)
    assert await tenant.values("v", "preference.likes", lower=True) == ["看话剧"]


async def test_a_new_fact_with_also_keeps_its_own_key(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I enjoy pottery.", at=T1)
    await tenant.say("u", "s1", "I also work at Basecamp.", at=T2)
    assert await tenant.values("u", "preference.likes", lower=True) == ["pottery"]
    assert await tenant.values("u", "work.employer", lower=True) == ["basecamp"]


async def test_an_addon_without_a_previous_fact_forms_nothing(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "capers either, to be fair", at=T1)
    assert await tenant.memories("u", status="active") == []
    # another session's fact is not what this session's add-on adds to
    await tenant.say("v", "s1", "我不吃羊肉。", at=T1)
    await tenant.say("v", "s2", "牛肉也不吃", at=T2)
    assert await tenant.values("v", "diet.avoid", lower=True) == ["羊肉"]


async def test_a_single_valued_key_is_not_inherited(tenant: TenantCtx) -> None:
    # a second city is a change, not an add-on: nothing is inherited, nothing is frozen
    await tenant.say("u", "s1", "I live in Porto.", at=T1)
    await tenant.say("u", "s1", "and Braga too", at=T2)
    assert await tenant.values("u", "residence.city", lower=True) == ["porto"]
    assert await tenant.values("u", "residence.city", "frozen", lower=True) == []
